"""Puzzles: a seeded late-round position, everything known, whose best play is unique by a margin.

Generation (Tatham style: the solver guarantees the answer): deal a 3-player round from the seed, let the
greedy rule play until only a few cards are left in the pile, fix the pile's order, then value every play of
the player to move exactly (`maximise.maximise`, others greedy, round margin). Accept when the best play beats the
second best by at least `MIN_MARGIN` coins. Grade by how far the greedy player's own play falls short and by
the search effort the proof needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campsolver.solver.adventure_tours import rules
from campsolver.solver.adventure_tours.deck import Act
from campsolver.solver.adventure_tours.hint import apply_play, enumerate_plays, greedy_play
from campsolver.solver.adventure_tours.maximise import MaxObjective, Others, maximise
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Action, Config, Place, Play, State, action_label
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.picture import Canvas, text_width, wrap
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

MIN_MARGIN = 2
PLAYERS = 3
#: Cards left in the pile when the puzzle starts.
PILE_SIZES = (2, 3, 4)
#: The round is "late" once some hand is down to this many cards.
LATE_HAND = 2
#: Candidate positions tried per request before giving up.
MAX_ATTEMPTS = 400


@dataclass
class Puzzle:
    seed: int
    state: State
    player: int
    solution: tuple[Action, ...]
    margin: int
    values: list[tuple[tuple[Action, ...], int]]  # every play, best first (exact)
    greedy_shortfall: int
    nodes: int
    grade: Grade
    attempts: int
    proof: Proof


def grade_of(greedy_shortfall: int, nodes: int) -> Grade:
    if greedy_shortfall == 0:
        return Grade.EASY
    if nodes < 3000:
        return Grade.MEDIUM
    if nodes < 30000:
        return Grade.HARD
    return Grade.EXPERT


def candidate(seed: int, attempt: int) -> State | None:
    rng = rng_for(seed, "adventure-tours puzzle", attempt)
    config = Config(PLAYERS, rounds=1)
    state = rules.new_game(config)
    left = PILE_SIZES[int(rng.integers(len(PILE_SIZES)))]
    while True:
        if state.over:
            return None
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            weights = [float(p) for _, p in outcomes]
            state = state.child(outcomes[int(rng.choice(len(outcomes), p=weights))][0])
            continue
        step = state.step()
        if step is not None and step.kind == "play" and min(len(h) for h in state.hands) <= LATE_HAND:
            break
        state = state.child(greedy_action(state))
    # Late round: only `left` cards stay in the pile (in a known order); the rest lie face up on the discard
    # pile, so the position is small enough to be solved exactly and every card is still accounted for.
    order = [state.deck[i] for i in rng.permutation(len(state.deck))]
    kept, dropped = order[:left], order[left:]
    return replace(state, deck=tuple(kept), discard=tuple(sorted((*state.discard, *dropped))), deck_ordered=True)


def solve_position(state: State, budget: Budget) -> tuple[list[tuple[tuple[Action, ...], int]], int, Proof]:
    """Every play of the player to move valued exactly (others greedy, round margin), best first."""
    player = state.current_player()
    values = []
    nodes = 0
    proof = Proof.EXACT
    for play in enumerate_plays(state, player, budget):
        result = maximise(apply_play(state, play), player, budget, objective=MaxObjective.MARGIN, others=Others.GREEDY)
        nodes += result.nodes
        if result.proof is not Proof.EXACT:
            proof = result.proof
        values.append((play, int(result.value)))
    values.sort(key=lambda item: -item[1])
    return values, nodes, proof


def generate(seed: int, budget: Budget, grade: Grade | None = None) -> Puzzle | None:
    """The first candidate for `seed` with a unique best play (and the wanted grade); None if none found."""
    for attempt in range(MAX_ATTEMPTS):
        budget.check()
        state = candidate(seed, attempt)
        if state is None:
            continue
        values, nodes, proof = solve_position(state, budget.limited(max(budget.remaining() / 4, 0.5)))
        if proof is not Proof.EXACT or len(values) < 2:
            continue
        margin = values[0][1] - values[1][1]
        if margin < MIN_MARGIN:
            continue
        greedy = greedy_play(state, state.current_player())
        greedy_value = next((v for p, v in values if p == greedy), values[-1][1])
        shortfall = values[0][1] - greedy_value
        found = grade_of(shortfall, nodes)
        if grade is not None and found is not grade:
            continue
        return Puzzle(
            seed,
            state,
            state.current_player(),
            values[0][0],
            margin,
            values,
            shortfall,
            nodes,
            found,
            attempt + 1,
            proof,
        )
    return None


# --- rendering --------------------------------------------------------------------------------------------------


def play_label(state: State, play: tuple[Action, ...]) -> str:
    """The play in words, each card named by its number as the puzzle page shows it: `#31 (red 8)`."""
    parts = []
    s = state
    for action in play:
        if isinstance(action, Play):
            parts.append(f"play {card_name(s.config, action.card)} as {'a member' if action.member else 'equipment'}")
        elif isinstance(action, Place):
            parts.append(f"place {card_name(s.config, action.card)}")
        else:
            parts.append(action_label(s, action))
        s = s.child(action)
    return "; ".join(parts)


QUESTION = (
    "You are the player to move; the others follow the greedy rule. Which play gives you the largest round "
    "margin over the best opponent?"
)
#: The others' rule of thumb in words (`policies.greedy_action`, as it plays on a board without ability).
GREEDY_RULE = (
    "The greedy rule: lay as a member the best-paying card that can join (ties: the higher demand), else as "
    "equipment the card that lets the most money in hand join (none: the one paying least). Gifts go to the "
    "opponent with the fewest cards in hand; member attacks hit the opponent whose last member pays most, "
    "equipment attacks the highest income. Take every extra turn and same-colour member, extra equipment with 2+ "
    "cards in hand; Pater Miller parries attacks on members only. Other ties: the lower card number, the first "
    "opponent in turn order."
)
#: What each card action does, spelled out (`deck.Act`); "any player" includes yourself.
ACTION_WORDS = {
    Act.GIVE_ONE: "a player you choose (you too) draws 1 card",
    Act.GIVE_TWO: "2 cards drawn: both to one player, or 1 each to two",
    Act.EXTRA_EQUIPMENT: "lay one more hand card as equipment (and draw)",
    Act.DISCARD_EQUIPMENT: "any player's last equipment card is discarded",
    Act.STEAL_EQUIPMENT: "another's last equipment card becomes yours",
    Act.EXTRA_TURN: "take another complete turn",
    Act.SAME_COLOUR_MEMBER: "lay one more hand card of its colour as a member",
    Act.DISCARD_MEMBER: "any player's last member is discarded",
    Act.STEAL_MEMBER: "any player's last member becomes your equipment",
    Act.PATER_MILLER: "none; a member parries one attack, then is discarded",
}
#: How a turn goes and scores, for the reader who has not got the rulebook.
TURN_RULE = (
    "A turn: lay a hand card as a member (demand met; its action may follow) or as equipment (its colour rises by "
    "its value, then draw the top card of the pile); turns go 0, 1, 2, 0 ... The round ends when a turn ends with "
    "an empty hand, or at once when a draw empties the pile. Round money: members' money, minus 2 a card in hand. "
    "Attacks: discard or steal."
)
CARD_KEY = (
    "On a card: #31 = its number (the answer names cards by it); d4 = demand: joins as a member only with 4 or more "
    "equipment of its colour; $2 = money a round as a member; +2 = value added to its colour as equipment; below: "
    "its action, right after it joins as a member (none: no action; a card on the table shows only Pater "
    "Miller's, the others are spent). Actions:"
)


_COLOUR_WORDS = ("red", "blue", "yellow")


def card_name(cfg: Config, card: int) -> str:
    """A card as the answer names it: its number, colour and demand (`#31 (red 8)`)."""
    return f"#{card} ({_COLOUR_WORDS[cfg.colour[card]]} {cfg.demand[card]})"


def card_words(cfg: Config, card: int) -> str:
    """A card in full words: number, colour, demand, money, equipment value and action."""
    action = cfg.action[card]
    return (
        f"#{card} {_COLOUR_WORDS[cfg.colour[card]]} demand {cfg.demand[card]}, pays {cfg.money[card]}, "
        f"equipment +{cfg.value[card]}, {'no action' if action is Act.NONE else 'action ' + action.value}"
    )


def _all_cards(state: State) -> list[int]:
    return [
        c for q in range(state.config.players) for c in (*state.hands[q], *state.members[q], *state.equipment[q])
    ] + list(state.deck)


def actions_on_the_page(state: State) -> list[Act]:
    """The actions of the cards the puzzle shows, in the deck's order of actions."""
    present = {state.config.action[c] for c in _all_cards(state)}
    return [act for act in ACTION_WORDS if act in present]


def render_text(puzzle: Puzzle) -> str:
    state = puzzle.state
    cfg = state.config
    lines = [f"Adventure Tours puzzle (seed {puzzle.seed}, {puzzle.grade.value})", ""]
    for q in range(cfg.players):
        mark = " (you)" if q == puzzle.player else ""
        lines.append(
            f"Player {q}{mark}: equipment red {state.equipment_level(q, 0)}, blue "
            f"{state.equipment_level(q, 1)}, yellow {state.equipment_level(q, 2)}; income {state.income(q)}"
        )
        for label, cards in (
            ("hand", state.hands[q]),
            ("members", state.members[q]),
            ("equipment", state.equipment[q]),
        ):
            lines.append(f"  {label}: " + ("; ".join(card_words(cfg, c) for c in cards) or "none"))
    lines.append("Draw pile, top card first: " + "; ".join(card_words(cfg, c) for c in state.deck))
    lines += ["", "Actions (any player: yourself too):"]
    lines += [f"  {act.value}: {ACTION_WORDS[act]}" for act in actions_on_the_page(state)]
    lines += [TURN_RULE, "Round margin: your round money minus the best opponent's.", GREEDY_RULE, "", QUESTION]
    return "\n".join(lines)


def render_solution_text(puzzle: Puzzle) -> str:
    lines = [f"Best play: {play_label(puzzle.state, puzzle.solution)} (round margin {puzzle.values[0][1]:+d})"]
    lines.append(f"Second best is {puzzle.margin} coins worse. Every play:")
    for play, value in puzzle.values:
        lines.append(f"  {value:+d}  {play_label(puzzle.state, play)}")
    return "\n".join(lines)


_FILL = {0: "#e57373", 1: "#64b5f6", 2: "#fff176"}
_COLOUR_NAMES = {0: "red: technology", 1: "blue: provisions", 2: "yellow: clothing"}
CARD_W, CARD_H, CARD_GAP = 88, 62, 6
MARGIN = 20
#: Picture width: its 12-unit text prints at 2 mm or more on A4 while the picture is at most 900 units tall.
PICTURE_WIDTH = 1090
USED = "#2e7d32"
#: A card on the table (a member or equipment): no action to show but Pater Miller's.
TABLE_W, TABLE_H = 80, 48


def _card(canvas: Canvas, cfg: Config, card: int, x: float, y: float, used: bool, in_hand: bool) -> None:
    """One adventurer: its number (as the answer names it), then demand, money and value; a hand card's whole
    action below (never cut); a card on the table only Pater Miller's, the one action that still counts there."""
    stroke, width = (USED, 4) if used else ("#000", 1)
    card_w, card_h = (CARD_W, CARD_H) if in_hand else (TABLE_W, TABLE_H)
    canvas.shape(
        f'<rect x="{x}" y="{y}" width="{card_w}" height="{card_h}" rx="5" fill="{_FILL[cfg.colour[card]]}" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
    )
    canvas.text(x + 5, y + 14, f"#{card}", 12, bold=True, cls="card-number")
    canvas.text(x + 5, y + 28, f"d{cfg.demand[card]} ${cfg.money[card]} +{cfg.value[card]}", 12, bold=True, cls="card")
    action = cfg.action[card]
    lines = wrap(action.value, 12, CARD_W - 10) if in_hand else ([action.value] if action is Act.PATER_MILLER else [])
    for k, line in enumerate(lines):
        canvas.text(x + 5, y + 42 + 14 * k, line, 12, cls="ability")


def _cards_row(
    canvas: Canvas, cfg: Config, groups: list[tuple[str, tuple[int, ...], bool]], y: float, used: set[int]
) -> float:
    """Labelled groups of cards side by side from the left margin, flowing onto a new line when the picture's
    width is reached (a group split there is labelled again, "continued"); a line is as tall as its tallest
    card. Returns the y below them."""
    right = canvas.width - MARGIN
    lines: list[list[tuple[float, str, int | None, bool]]] = [[]]  # per line: (x, label, card, in hand)
    x = MARGIN
    for label, cards, in_hand in groups:
        card_w = CARD_W if in_hand else TABLE_W
        if x > MARGIN and x + card_w > right:
            x = MARGIN
            lines.append([])
        width = text_width(label, 12)
        lines[-1].append((x, label, None, in_hand))
        if not cards:
            lines[-1].append((x, "none", -1, in_hand))
            x += max(width, 40) + 22
            continue
        start = x
        for card in cards:
            if x + card_w > right:
                x = start = MARGIN
                lines.append([(x, f"{label}, continued" if label else "", None, in_hand)])
                width = text_width(lines[-1][0][1], 12)
            lines[-1].append((x, "", card, in_hand))
            x += card_w + CARD_GAP
        x = max(x, start + width + 8) + 16
    for line in lines:
        tall = any(card is not None and in_hand for _, _, card, in_hand in line)
        for x, label, card, in_hand in line:
            if card is None:
                canvas.text(x, y + 12, label, 12, fill="#444", cls="group")
            elif card < 0:
                canvas.text(x, y + 18 + TABLE_H / 2, "none", 12, fill="#777")
            else:
                _card(canvas, cfg, card, x, y + 18, card in used, in_hand)
        y += 18 + (CARD_H if tall else TABLE_H) + 10
    return y - 10


def _legend(canvas: Canvas, y: float, state: State, solution: bool) -> float:
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 20
    x = MARGIN
    for colour, name in _COLOUR_NAMES.items():
        canvas.shape(f'<rect x="{x}" y="{y - 14}" width="24" height="18" rx="3" fill="{_FILL[colour]}" stroke="#000"/>')
        box = canvas.text(
            x + 30, y, f"{name} (the card's colour: the equipment it demands and raises)" if colour == 0 else name, 12
        )
        x = box.x + box.width + 24
    y += 22
    text_width = canvas.width - 2 * MARGIN
    y = canvas.paragraph(MARGIN, y, CARD_KEY, 12, text_width)
    column = text_width / 2
    rows = [0.0, 0.0]
    for index, act in enumerate(actions_on_the_page(state)):  # two columns, row by row
        side = index % 2
        x = MARGIN + side * column
        box = canvas.text(x, y, f"{act.value}:", 12, bold=True, cls="action-name")
        rows[side] = canvas.paragraph(
            box.x + box.width + 4, y, ACTION_WORDS[act], 12, column - box.width - 16, cls="action-words"
        )
        if side == 1:
            y, rows = max(rows), [0.0, 0.0]
    y = max(y, *rows)
    y = canvas.paragraph(
        MARGIN, y, f"{TURN_RULE} Round margin: your round money minus the best opponent's.", 12, text_width
    )
    if solution:
        y += 8
        canvas.shape(
            f'<rect x="{MARGIN}" y="{y - 14}" width="24" height="18" rx="3" fill="none" '
            f'stroke="{USED}" stroke-width="4"/>'
        )
        y = canvas.paragraph(MARGIN + 32, y, "green frame: a card the best play uses", 12, text_width - 32)
    canvas.shape("</g>")
    return y


def render_svg(puzzle: Puzzle, solution: bool = False) -> str:
    """The question, each player's board, hand, members and equipment as cards (every action spelled out),
    the pile in order and a legend; the solution picture states the best play and frames the cards it uses."""
    state = puzzle.state
    cfg = state.config
    used = {getattr(a, "card", -1) for a in puzzle.solution} if solution else set()
    width = PICTURE_WIDTH
    canvas = Canvas(width)
    text_width = width - 2 * MARGIN
    title = (
        f"Solution to Adventure Tours puzzle {puzzle.seed}"
        if solution
        else f"Adventure Tours puzzle {puzzle.seed} ({puzzle.grade.value})"
    )
    y = canvas.paragraph(MARGIN, MARGIN + 14, title, 16, bold=True, width=text_width, cls="title")
    y = canvas.paragraph(MARGIN, y + 2, f"Question: {QUESTION}", 13, text_width, cls="question")
    y = canvas.paragraph(MARGIN, y, GREEDY_RULE, 12, text_width, cls="greedy-rule")
    if solution:
        y = canvas.paragraph(
            MARGIN,
            y + 2,
            f"Answer: {play_label(state, puzzle.solution)} (round margin "
            f"{puzzle.values[0][1]:+d}; the next best play {puzzle.margin} less)",
            13,
            text_width,
            bold=True,
            cls="answer",
            fill="#b3261e",
        )
    for q in range(cfg.players):
        board = state.board(q)
        ability = "" if board.ability.value == "none" else f", ability: {board.ability.value}"
        levels = ", ".join(
            f"{name.split(':')[0]} {state.equipment_level(q, colour)}" for colour, name in _COLOUR_NAMES.items()
        )
        header = (
            f"Player {q}{' (you)' if q == puzzle.player else ''}: {board.name} board{ability}; "
            f"equipment {levels}; income {state.income(q)}"
        )
        y = canvas.paragraph(MARGIN, y + 8, header, 14, text_width, bold=q == puzzle.player, cls="player")
        y = (
            _cards_row(
                canvas,
                cfg,
                [
                    ("hand", state.hands[q], True),
                    ("members", state.members[q], False),
                    ("equipment", state.equipment[q], False),
                ],
                y - 12,
                used,
            )
            + 8
        )
    y = _cards_row(canvas, cfg, [("draw pile, top card first (its order is known)", state.deck, True)], y + 2, used)
    y = _legend(canvas, y + 24, state, solution)
    return canvas.document(y - 16 + MARGIN, title)

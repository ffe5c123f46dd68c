"""Puzzles: a seeded late-round position, everything known, whose best play is unique by a margin.

Generation (Tatham style: the solver guarantees the answer): deal a 3-player round from the seed, let the
greedy rule play until only a few cards are left in the pile, fix the pile's order, then value every play of
the player to move exactly (`search.maximise`, others greedy, round margin). Accept when the best play beats the
second best by at least `MIN_MARGIN` coins. Grade by how far the greedy player's own play falls short and by
the search effort the proof needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campsolver.solver.adventure_tours import rules
from campsolver.solver.adventure_tours.hint import apply_play, enumerate_plays, greedy_play
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Action, Config, State, action_label, card_label
from campsolver.solver.adventure_tours.search import MaxObjective, Others, maximise
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.grade import Grade
from campsolver.solver.core.picture import Canvas, wrap
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
        result = maximise(
            apply_play(state, play), player, budget, objective=MaxObjective.MARGIN, others=Others.GREEDY
        )
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
            seed, state, state.current_player(), values[0][0], margin, values, shortfall, nodes, found, attempt + 1,
            proof,
        )
    return None


# --- rendering --------------------------------------------------------------------------------------------------


def play_label(state: State, play: tuple[Action, ...]) -> str:
    parts = []
    s = state
    for action in play:
        parts.append(action_label(s, action))
        s = s.child(action)
    return "; ".join(parts)


QUESTION = (
    "You are the player to move; the others follow the greedy rule. Which play gives you the largest round "
    "margin over the best opponent?"
)


def render_text(puzzle: Puzzle) -> str:
    state = puzzle.state
    cfg = state.config
    lines = [f"Adventure Tours puzzle (seed {puzzle.seed}, {puzzle.grade.value})", ""]
    for q in range(cfg.players):
        mark = " <- you" if q == puzzle.player else ""
        lines.append(f"Player {q}{mark}: equipment R{state.equipment_level(q, 0)} B{state.equipment_level(q, 1)} "
                     f"Y{state.equipment_level(q, 2)}, income {state.income(q)}")
        lines.append("  hand: " + ", ".join(card_label(cfg, c) for c in state.hands[q]))
        lines.append("  members: " + (", ".join(card_label(cfg, c) for c in state.members[q]) or "-"))
        lines.append("  equipment: " + (", ".join(card_label(cfg, c) for c in state.equipment[q]) or "-"))
    lines.append("Pile, top first: " + ", ".join(card_label(cfg, c) for c in state.deck))
    lines += ["", QUESTION]
    return "\n".join(lines)


def render_solution_text(puzzle: Puzzle) -> str:
    lines = [f"Best play: {play_label(puzzle.state, puzzle.solution)} (round margin {puzzle.values[0][1]:+d})"]
    lines.append(f"Second best is {puzzle.margin} coins worse. Every play:")
    for play, value in puzzle.values:
        lines.append(f"  {value:+d}  {play_label(puzzle.state, play)}")
    return "\n".join(lines)


_FILL = {0: "#e57373", 1: "#64b5f6", 2: "#fff176"}
_COLOUR_NAMES = {0: "red: technology", 1: "blue: provisions", 2: "yellow: clothing"}
CARD_W, CARD_H, CARD_GAP = 88, 56, 6
MARGIN = 20
#: Picture width: its 12-unit text prints above 2 mm on A4 while the picture is no taller than 0.82 x this.
PICTURE_WIDTH = 1000
USED = "#2e7d32"
ROW_STEP = 18 + CARD_H + 10  # a group label, the cards, a gap


def _card(canvas: Canvas, cfg: Config, card: int, x: float, y: float, used: bool) -> None:
    """One adventurer: demand, money and value on the first line, its whole action below (never cut)."""
    stroke, width = (USED, 4) if used else ("#000", 1)
    canvas.shape(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_FILL[cfg.colour[card]]}" '
                 f'stroke="{stroke}" stroke-width="{width}"/>')
    canvas.text(x + 5, y + 15, f"d{cfg.demand[card]} ${cfg.money[card]} +{cfg.value[card]}", 12, bold=True,
                cls="card")
    line_y = y + 31
    for line in wrap(cfg.action[card].value, 12, CARD_W - 10):
        canvas.text(x + 5, line_y, line, 12, cls="ability")
        line_y += 14.5


def _cards_row(canvas: Canvas, cfg: Config, groups: list[tuple[str, tuple[int, ...]]], y: float,
               used: set[int]) -> float:
    """Labelled groups of cards side by side from the left margin, continued on a new line when the picture's
    width is reached; returns the y below them."""
    right = canvas.width - MARGIN
    x = MARGIN
    for label, cards in groups:
        needed = max(len(cards), 1) * (CARD_W + CARD_GAP)
        if x > MARGIN and x + needed - CARD_GAP > right:  # a group starts a new line rather than split
            x, y = MARGIN, y + ROW_STEP
        box = canvas.text(x, y + 12, label, 12, fill="#444", cls="group")
        if not cards:
            canvas.text(x, y + 18 + CARD_H / 2, "none", 12, fill="#777")
            x += max(box.width, 40) + 22
            continue
        start = x
        for card in cards:
            if x + CARD_W > right:
                x, y = MARGIN, y + ROW_STEP
                start = x
            _card(canvas, cfg, card, x, y + 18, card in used)
            x += CARD_W + CARD_GAP
        x = max(x, start + box.width) + 16
    return y + 18 + CARD_H


def _legend(canvas: Canvas, y: float, solution: bool) -> float:
    canvas.shape('<g class="legend">')
    canvas.text(MARGIN, y, "Legend", 13, bold=True)
    y += 22
    x = MARGIN
    for colour, name in _COLOUR_NAMES.items():
        canvas.shape(f'<rect x="{x}" y="{y - 14}" width="24" height="18" rx="3" fill="{_FILL[colour]}" '
                     'stroke="#000"/>')
        box = canvas.text(x + 30, y, f"{name} (the card's colour: the equipment it demands and raises)"
                          if colour == 0 else name, 12)
        x = box.x + box.width + 24
    y += 22
    text_width = canvas.width - 2 * MARGIN
    y = canvas.paragraph(MARGIN, y, "On a card: d4 = demand 4: it joins as a member only if your equipment of "
                         "its colour is at least 4; $2 = money it pays each round as a member; +2 = what it adds to "
                         "its colour's equipment when played as equipment; below: its action when it joins as a "
                         "member (none: no action).", 12, text_width)
    y = canvas.paragraph(MARGIN, y, "Income: money of your members; each card left in hand costs 2 at the end of "
                         "the round. Round margin: your round money minus the best opponent's.", 12, text_width)
    if solution:
        y += 8
        canvas.shape(f'<rect x="{MARGIN}" y="{y - 14}" width="24" height="18" rx="3" fill="none" '
                     f'stroke="{USED}" stroke-width="4"/>')
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
    title = (f"Solution to Adventure Tours puzzle {puzzle.seed}" if solution
             else f"Adventure Tours puzzle {puzzle.seed} ({puzzle.grade.value})")
    y = canvas.paragraph(MARGIN, MARGIN + 14, title, 16, bold=True, width=text_width, cls="title")
    y = canvas.paragraph(MARGIN, y + 2, f"Question: {QUESTION}", 13, text_width, cls="question")
    if solution:
        y = canvas.paragraph(MARGIN, y + 2, f"Answer: {play_label(state, puzzle.solution)} (round margin "
                             f"{puzzle.values[0][1]:+d}; the next best play {puzzle.margin} less)", 13, text_width,
                             bold=True, cls="answer", fill="#b3261e")
    for q in range(cfg.players):
        board = state.board(q)
        ability = "" if board.ability.value == "none" else f", ability: {board.ability.value}"
        levels = ", ".join(f"{name.split(':')[0]} {state.equipment_level(q, colour)}"
                           for colour, name in _COLOUR_NAMES.items())
        header = (f"Player {q}{' (you)' if q == puzzle.player else ''}: {board.name} board{ability}; "
                  f"equipment {levels}; income {state.income(q)}")
        y = canvas.paragraph(MARGIN, y + 14, header, 14, text_width, bold=q == puzzle.player, cls="player")
        y = _cards_row(canvas, cfg, [("hand", state.hands[q]), ("members", state.members[q]),
                                     ("equipment", state.equipment[q])], y - 12, used) + 8
    y = canvas.paragraph(MARGIN, y + 14, "Draw pile, top card first (its order is known):", 14, text_width,
                         cls="pile")
    y = _cards_row(canvas, cfg, [("", state.deck)], y - 26, used)
    y = _legend(canvas, y + 30, solution)
    return canvas.document(y - 16 + MARGIN, title)

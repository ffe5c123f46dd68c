"""Puzzles: a seeded late-round position, everything known, whose best play is unique by a margin.

Generation (Tatham style: the solver guarantees the answer): deal a 3-player round from the seed, let the
greedy rule play until only a few cards are left in the pile, fix the pile's order, then value every play of
the player to move exactly (`search.maximise`, others greedy, round margin). Accept when the best play beats the
second best by at least `MIN_MARGIN` coins. Grade by how far the greedy player's own play falls short and by
the search effort the proof needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape

from campsolver.solver.adventure_tours import rules
from campsolver.solver.adventure_tours.deck import COLOURS
from campsolver.solver.adventure_tours.hint import apply_play, enumerate_plays, greedy_play
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Action, Config, State, action_label, card_label
from campsolver.solver.adventure_tours.search import MaxObjective, Others, maximise
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.grade import Grade
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


def render_svg(puzzle: Puzzle, solution: bool = False) -> str:
    """Each player's row (hand, members, equipment) as coloured cards; the solution picture rings the cards
    the best play uses."""
    state = puzzle.state
    cfg = state.config
    used = {getattr(a, "card", -1) for a in puzzle.solution} if solution else set()
    width, card_w, card_h = 900, 52, 64
    rows: list[str] = []
    y = 10
    for q in range(cfg.players):
        title = f"Player {q}{' (you)' if q == puzzle.player else ''}"
        rows.append(f'<text x="10" y="{y + 14}" font-size="14" font-family="sans-serif">{escape(title)}</text>')
        y += 20
        for label, cards in (("hand", state.hands[q]), ("members", state.members[q]), ("equip", state.equipment[q])):
            rows.append(f'<text x="10" y="{y + 36}" font-size="12" font-family="sans-serif">{label}</text>')
            for i, c in enumerate(cards):
                x = 80 + i * (card_w + 6)
                stroke = "#000" if c not in used else "#2e7d32"
                sw = 1 if c not in used else 4
                rows.append(
                    f'<rect x="{x}" y="{y}" width="{card_w}" height="{card_h}" rx="5" fill="{_FILL[cfg.colour[c]]}" '
                    f'stroke="{stroke}" stroke-width="{sw}"/>'
                    f'<text x="{x + 4}" y="{y + 16}" font-size="12" font-family="sans-serif">d{cfg.demand[c]}</text>'
                    f'<text x="{x + 4}" y="{y + 32}" font-size="12" font-family="sans-serif">${cfg.money[c]}</text>'
                    f'<text x="{x + 4}" y="{y + 48}" font-size="12" font-family="sans-serif">+{cfg.value[c]}</text>'
                    f'<text x="{x + 4}" y="{y + 60}" font-size="8" font-family="sans-serif">'
                    f"{escape(cfg.action[c].value[:10])}</text>"
                )
            y += card_h + 6
        y += 6
    rows.append(f'<text x="10" y="{y + 14}" font-size="14" font-family="sans-serif">pile (top first): '
                f'{escape(", ".join(cfg.deck[c].label() for c in state.deck))}</text>')
    y += 24
    legend = " ".join(f"{k.name.lower()}" for k in COLOURS)
    rows.append(f'<text x="10" y="{y + 12}" font-size="10" font-family="sans-serif">colours: {legend}</text>')
    height = y + 24
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        + "".join(rows)
        + "</svg>"
    )

"""Happy Campers clairvoyant warm start aimed at the cards: an anytime ascent over full maps.

With Privacy, Tent Together, River Town or Quick Pee in play, the greedy plays start CP-SAT far below the
optimum (31-50 against 55-63 at 15 and 20 rolls), and CP-SAT's own large-neighbourhood search then needs
tens of seconds to climb; once it holds the optimum, the proof often follows within a second (40-s runs
of open bench cases: Privacy 62 found at 12.3 s, proven at 12.7 s; River Town 60 found and proven at
14 s). When the rolls can fill the map, the best maps are usually full maps whose elements are one
cluster each (45 base points on the 5x9 map), except perhaps the element a card rewards spreading.

The ascent runs the depth-first perfect-map search (`cpsat_warmstart.perfect_play`) as an anytime search:
each full map it accepts is recorded and raises the total the next must beat (`accept`), partial maps that
cannot reach it are pruned (`viable`: squares + an upper bound on each card's points from the squares
still empty), and the moves are steered toward the cards (`prefer`). It stops when its budget share runs
out, when the tree is exhausted or when the target value (`max_caps.target_value`, a bound on every map)
is met. It only produces a hint: every play is a legal forced play of the rules model, scored by
`rules.score`, and the proof is still CP-SAT's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.cpsat_warmstart import perfect_play
from campsolver.solver.happy_campers.max_caps import (
    DIVIDE_COLUMN_WEIGHT,
    clairvoyant_card_caps,
    crossing_masks,
    divide_viability,
    most_squares,
    target_value,
)
from campsolver.solver.happy_campers.max_problem import MaxProblem
from campsolver.solver.happy_campers.policies import BoardTables, board_tables
from campsolver.solver.happy_campers.rules import (
    FESTIVAL_POINTS,
    Challenge,
    Element,
    Grid,
    Placement,
    draw,
    score,
)

#: Cards the ascent aims at (their points grow with how a perfect map is laid out). Nature Reserve is left
#: out: a perfect map has no empty square, so it scores nothing for it.
ASCENT_CARDS = frozenset({Challenge.PRIVACY, Challenge.TENT_TOGETHER, Challenge.RIVER_TOWN, Challenge.QUICK_PEE})

#: Move-order bonuses (units of the perfect search's move rank: 3 per same-element contact, -2 per empty
#: square around the piece, noise up to 3). Privacy: per edge square of a tree piece; Tent Together: per 2x2
#: window a tent piece completes; River Town: per column a water piece brings water into; Quick Pee: per
#: row or column a toilet piece brings a toilet into; Dangerous Animals: per edge square of a tent piece.
PRIVACY_EDGE_WEIGHT = 4.0
TENT_WINDOW_WEIGHT = 8.0
RIVER_COLUMN_WEIGHT = 3.0
QUICK_PEE_LINE_WEIGHT = 4.0
DANGEROUS_EDGE_WEIGHT = 4.0


@dataclass(frozen=True)
class Ascent:
    """The best perfect play the ascent found: its rules total, its plays, and how many maps it climbed."""

    total: int
    plays: tuple[Placement | None, ...]
    steps: int
    capped: bool  # the target value was met (no map scores more)


def ascent_applies(problem: MaxProblem) -> bool:
    """Some card the ascent aims at is in play, Nature Reserve is not, and the rolls can fill the map."""
    cards = set(problem.challenges)
    return (
        bool(cards & ASCENT_CARDS)
        and Challenge.NATURE_RESERVE not in cards
        and most_squares(problem) >= problem.components.cell_count
    )


def _windows(tables: BoardTables) -> tuple[int, ...]:
    """Every 2x2 window of the map as a square bitmask (Tent Together)."""
    cols = tables.cols
    return tuple(
        0b11 << (r * cols + c) | 0b11 << ((r + 1) * cols + c) for r in range(tables.rows - 1) for c in range(cols - 1)
    )


def card_upper_bound(problem: MaxProblem, caps: dict[Challenge, int]) -> Callable[[int, dict[Element, int]], int]:
    """An upper bound on the summed card points of every *perfect* map grown from a partial map (drawn
    bitmask, bitmask per element): every empty square may still take any element.

    Privacy: edge trees + empty edge squares. Dangerous Animals: minus the edge tents already drawn. Quick
    Pee: rows and columns holding a toilet or an empty square. Tent Together: 3 x the 2x2 windows of tents
    or empty squares (a packing uses distinct windows), and at most a quarter of the tent-or-empty squares.
    River Town: 5 x the fewest water-or-empty squares of any column (square-disjoint rivers each cross
    every column). Each card's part is also at most its cap (`clairvoyant_card_caps`).
    """
    tables = board_tables(problem.components)
    lines = tables.row_masks + tables.col_masks
    windows = _windows(tables)
    cards = set(problem.challenges)
    trees, toilets, water, tents = Element.TREES, Element.TOILETS, Element.WATER, Element.TENTS

    def bound(drawn: int, masks: dict[Element, int]) -> int:
        empty = ~drawn
        total = 0
        if Challenge.PRIVACY in cards:
            value = ((masks[trees] | empty) & tables.edge).bit_count()
            total += min(value, caps.get(Challenge.PRIVACY, value))
        if Challenge.DANGEROUS_ANIMALS in cards:
            total -= (masks[tents] & tables.edge).bit_count()
        if Challenge.QUICK_PEE in cards:
            open_lines = masks[toilets] | empty
            total += sum(1 for line in lines if line & open_lines)
        if Challenge.TENT_TOGETHER in cards:
            room = masks[tents] | (empty & tables.full)
            open_windows = sum(1 for w in windows if w & room == w)
            value = cpsat_map.TENT_SQUARE_POINTS * min(open_windows, room.bit_count() // 4)
            total += min(value, caps.get(Challenge.TENT_TOGETHER, value))
        if Challenge.RIVER_TOWN in cards:
            room = masks[water] | empty
            value = cpsat_map.RIVER_POINTS * min((col & room).bit_count() for col in tables.col_masks)
            total += min(value, caps.get(Challenge.RIVER_TOWN, value))
        return total

    return bound


def _preference(problem: MaxProblem) -> Callable[[int, Element, dict[Element, int]], float]:
    tables = board_tables(problem.components)
    lines = tables.row_masks + tables.col_masks
    windows = _windows(tables)
    crossing = crossing_masks(problem)
    cards = set(problem.challenges)
    divide = Challenge.GREAT_DIVIDE in cards

    def prefer(mask: int, element: Element, masks: dict[Element, int]) -> float:
        value = 0.0
        if divide:  # bring an element into a crossing column that still misses it (as `max_caps` does)
            value += DIVIDE_COLUMN_WEIGHT * sum(1 for col in crossing if col & mask and not col & masks[element])
        if element == Element.TREES and Challenge.PRIVACY in cards:
            value += PRIVACY_EDGE_WEIGHT * (mask & tables.edge).bit_count()
        if element == Element.TENTS:
            if Challenge.TENT_TOGETHER in cards:
                tents = masks[Element.TENTS] | mask
                value += TENT_WINDOW_WEIGHT * sum(1 for w in windows if w & mask and w & tents == w)
            if Challenge.DANGEROUS_ANIMALS in cards:
                value -= DANGEROUS_EDGE_WEIGHT * (mask & tables.edge).bit_count()
        if element == Element.WATER and Challenge.RIVER_TOWN in cards:
            value += RIVER_COLUMN_WEIGHT * sum(
                1 for col in tables.col_masks if col & mask and not col & masks[Element.WATER]
            )
        if element == Element.TOILETS and Challenge.QUICK_PEE in cards:
            value += QUICK_PEE_LINE_WEIGHT * sum(
                1 for line in lines if line & mask and not line & masks[Element.TOILETS]
            )
        return value

    return prefer


def final_grid(problem: MaxProblem, plays: Sequence[Placement | None]) -> Grid:
    """The map a play draws from the problem's start map (through the rules model)."""
    grid = problem.start_grid
    for play in plays:
        if play is not None:
            grid = draw(grid, play, problem.components)
    return grid


#: Share of the ascent's budget for finding a first full map (nothing found: the ascent gives up).
ASCENT_FIRST_SHARE = 0.6

#: Elements that may end in several clusters when a card rewards spreading them (a square outside the
#: largest cluster costs its point, which the card may pay back): Privacy's edge trees, Quick Pee's toilets
#: in every row and column, River Town's separate rivers.
SPLIT_BY_CARD = {
    Challenge.PRIVACY: Element.TREES,
    Challenge.QUICK_PEE: Element.TOILETS,
    Challenge.RIVER_TOWN: Element.WATER,
}


def perfect_card_ascent(problem: MaxProblem, budget: Budget, seed: int) -> Ascent | None:
    """Full maps with ever higher totals, within `budget` (None: no full map found).

    One anytime depth-first search over full maps (every square drawn; each element one cluster except the
    ones a card in play rewards spreading, `SPLIT_BY_CARD`): each accepted map is recorded and raises the
    total the next must reach (so `accept` and `viable` only tighten, which keeps the search's failed-state
    memo valid); it ends when the budget runs out, the tree is exhausted or the target value is met
    (`target_value`: no map scores more)."""
    caps = clairvoyant_card_caps(problem)
    capped_cards = set(problem.challenges) - {Challenge.FESTIVAL, Challenge.GREAT_DIVIDE, Challenge.NOISY_NEIGHBOURS}
    target = target_value(problem, caps) if capped_cards <= set(caps) else None
    festival = FESTIVAL_POINTS if Challenge.FESTIVAL in problem.challenges and problem.festival_won else 0
    # A full map's base score is at most its squares (each element's largest cluster at most its squares).
    most_base = problem.components.cell_count + festival
    upper = card_upper_bound(problem, caps)
    split = frozenset(SPLIT_BY_CARD[card] for card in problem.challenges if card in SPLIT_BY_CARD)
    state: dict[str, object] = {"level": None, "best": None, "steps": 0, "first_only": True}

    def accept(grid: Grid) -> bool:
        breakdown = score(grid, problem.challenges, problem.components, festival_won=problem.festival_won)
        level = state["level"]
        return breakdown.complete and (level is None or breakdown.total >= level)  # type: ignore[operator]

    divide = divide_viability(problem, split) if Challenge.GREAT_DIVIDE in problem.challenges else None

    def viable(drawn: int, masks: dict[Element, int], _turn: int) -> bool:
        if divide is not None and not divide(drawn, masks):
            return False
        level = state["level"]
        return level is None or most_base + upper(drawn, masks) >= level  # type: ignore[operator]

    def collect(plays: tuple[Placement | None, ...]) -> bool:
        grid = final_grid(problem, plays)
        total = score(grid, problem.challenges, problem.components, festival_won=problem.festival_won).total
        state["steps"] = int(state["steps"]) + 1  # type: ignore[call-overload]
        capped = target is not None and total >= target
        state["best"] = Ascent(total, plays, int(state["steps"]), capped)  # type: ignore[call-overload]
        state["level"] = total + 1
        return capped or bool(state["first_only"])

    # First a full map within a part of the share (none found: the share is not spent on a search that
    # may not succeed, e.g. when the rolls cannot tile the map), then the climb with what is left.
    for first_only, share in ((True, budget.limited(budget.remaining() * ASCENT_FIRST_SHARE)), (False, budget)):
        state["first_only"] = first_only
        perfect_play(
            problem.start_grid,
            problem.rolls,
            problem.components,
            rng_for(seed, "happy_campers.max_ascent", first_only),
            share,
            accept=accept,
            viable=viable,
            prefer=_preference(problem),
            collect=collect,
            split=split,
        )
        best = state["best"]
        if best is None or best.capped:  # type: ignore[attr-defined]
            break
    return state["best"]  # type: ignore[return-value]

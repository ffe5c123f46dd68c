"""Happy Campers maxima: analytic upper bounds on the challenge cards' points (valid for every final map
of a clairvoyant problem) and the partial-map prunes the perfect-map search uses to aim at them."""

from __future__ import annotations

from collections.abc import Callable

from campsolver.solver.core.geometry import border_cells
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.max_problem import MaxProblem, _roll_pairs
from campsolver.solver.happy_campers.policies import board_tables, cells_mask
from campsolver.solver.happy_campers.rules import (
    ELEMENTS,
    FESTIVAL_POINTS,
    Challenge,
    Element,
    divide_sides,
)


def _element_caps(problem: MaxProblem) -> dict[Element, int]:
    """Most squares of each element any play of the rolls can hold: the pre-drawn ones plus, per roll, the
    largest shape some option offers with that element."""
    comp = problem.components
    caps = {e: sum(1 for row in problem.start_grid for v in row if v == int(e)) for e in ELEMENTS}
    for roll in problem.rolls:
        best: dict[int, int] = {}
        for s, elements in _roll_pairs(roll, comp).items():
            for e in elements:
                best[e] = max(best.get(e, 0), len(comp.shapes[s]))
        for e, size in best.items():
            caps[Element(e)] += size
    return caps


def most_squares(problem: MaxProblem) -> int:
    """The pre-drawn squares plus, per roll, the largest shape it offers: no play draws more."""
    comp = problem.components
    pre = sum(1 for row in problem.start_grid for v in row if v)
    return pre + sum(max((len(comp.shapes[s]) for s in _roll_pairs(roll, comp)), default=0) for roll in problem.rolls)


def target_value(problem: MaxProblem, targets: dict[Challenge, int]) -> int:
    """An upper bound on every map's total when the cards in play are `targets`' cards plus cards that score
    no map-dependent points (not Nature Reserve: its single empty squares score):

    base score = clustered - empty <= 2 * drawn - squares <= 2 * min(squares, most_squares) - squares, each
    card <= its cap, the Festival a constant. A map reaches it exactly when it draws min(squares,
    most_squares) squares, each element is one cluster and each card meets its cap (the `perfect` model)."""
    n = problem.components.cell_count
    festival = FESTIVAL_POINTS if Challenge.FESTIVAL in problem.challenges and problem.festival_won else 0
    return 2 * min(n, most_squares(problem)) - n + festival + sum(targets.values())


def clairvoyant_card_caps(problem: MaxProblem) -> dict[Challenge, int]:
    """Analytic upper bounds on single cards' points over every final map of a clairvoyant problem.

    Privacy: trees on the edge <= min(edge squares, tree squares drawable). Dangerous Animals: at best only
    the pre-drawn edge tents cost. Quick Pee: one point per row and column. Tent Together: disjoint 2x2
    tent squares <= min(tent squares drawable / 4, (rows // 2) * (cols // 2)). River Town: disjoint rivers
    <= min(rows, water squares drawable / cols). Nature Reserve has no cap here (its isolated empty squares
    are what lets a map beat the perfect-map bound).
    """
    comp = problem.components
    rows, cols = comp.rows, comp.cols
    caps = _element_caps(problem)
    edge = border_cells(rows, cols)
    pre_edge_tents = sum(1 for r, c in edge if problem.start_grid[r][c] == int(Element.TENTS))
    by_card = {
        Challenge.PRIVACY: min(len(edge), caps[Element.TREES]),
        Challenge.DANGEROUS_ANIMALS: -pre_edge_tents,
        Challenge.QUICK_PEE: rows + cols,
        Challenge.TENT_TOGETHER: cpsat_map.TENT_SQUARE_POINTS
        * min(caps[Element.TENTS] // 4, (rows // 2) * (cols // 2)),
        Challenge.RIVER_TOWN: cpsat_map.RIVER_POINTS * min(rows, caps[Element.WATER] // cols),
    }
    return {card: cap for card, cap in by_card.items() if card in problem.challenges}


#: Cards whose cap the perfect-map search can aim at, with a prune of partial maps (`_card_viability`).
#: Privacy, Tent Together and River Town are left out: their caps (24 edge trees, 8 tent squares, full
#: rivers) are almost never met by a perfect map, so the search would only spend its share.
CARD_TARGET_PRUNES = (Challenge.DANGEROUS_ANIMALS, Challenge.QUICK_PEE)


#: Rank bonus, in the perfect-map search aimed at Quick Pee, per row or column a toilet move newly reaches.
QUICK_PEE_LINE_WEIGHT = 2.0
#: Measured on the bench's 10 Quick Pee seeds (15 rolls, 10 s): with the bonus 5/10 proven, median gap 1;
#: without it the aimed search rarely succeeds and only costs its share (1/10, gap 3.5; before: 3/10, gap 2).
CARD_PREFERENCE = True


#: Rank bonus, in the perfect-map search with The Great Divide, per crossing column a move brings an element
#: that column still misses (a two-sided perfect map holds every element in every crossing column).
DIVIDE_COLUMN_WEIGHT = 6.0


def _card_preference(
    problem: MaxProblem, caps: dict[Challenge, int]
) -> Callable[[int, Element, dict[Element, int]], float] | None:
    """Move-order bonus toward the caps: Quick Pee prefers toilets in rows and columns without one yet
    (Dangerous Animals needs none: its prune already removes every edge tent); The Great Divide prefers
    bringing an element into a crossing column that misses it."""
    quick_pee = Challenge.QUICK_PEE in caps
    divide = Challenge.GREAT_DIVIDE in problem.challenges
    if not quick_pee and not divide:
        return None
    tables = board_tables(problem.components)
    lines = tables.row_masks + tables.col_masks
    crossing = crossing_masks(problem)

    def prefer(mask: int, element: Element, masks: dict[Element, int]) -> float:
        value = 0.0
        if divide:
            value += DIVIDE_COLUMN_WEIGHT * sum(1 for col in crossing if col & mask and not col & masks[element])
        if quick_pee and element == Element.TOILETS:
            toilets = masks[Element.TOILETS]
            value += QUICK_PEE_LINE_WEIGHT * sum(1 for line in lines if line & mask and not line & toilets)
        return value

    return prefer


def divide_crossing_columns(cols: int) -> tuple[int, ...]:
    """The columns that every orthogonally connected set with squares on both Great Divide sides contains:
    the shared middle column (odd width), else the two columns either side of the line."""
    left, right = divide_sides(cols)
    shared = sorted(set(left) & set(right))
    return tuple(shared) if shared else (cols // 2 - 1, cols // 2)


def crossing_masks(problem: MaxProblem) -> tuple[int, ...]:
    """The crossing columns (`divide_crossing_columns`) as square bitmasks."""
    col_masks = board_tables(problem.components).col_masks
    return tuple(col_masks[c] for c in divide_crossing_columns(problem.components.cols))


def divide_viability(
    problem: MaxProblem, split: frozenset[Element] = frozenset()
) -> Callable[[int, dict[Element, int]], bool]:
    """With The Great Divide, a test every partial map (drawn bitmask, bitmask per element) of a complete
    full map passes when each element not in `split` ends as one cluster: such an element has squares on both
    sides, hence a square in each crossing column, so the elements still missing from a crossing column
    cannot outnumber its empty squares (on the 5x9 map the middle column ends as one square of each). A split
    element may cross in another cluster, or not at all: it is not counted."""
    crossing = crossing_masks(problem)
    joined = [e for e in ELEMENTS if e not in split]

    def viable(drawn: int, masks: dict[Element, int]) -> bool:
        for column in crossing:
            missing = sum(1 for e in joined if not masks[e] & column)
            if missing > (column & ~drawn).bit_count():
                return False
        return True

    return viable


def _toilet_line_supply(problem: MaxProblem) -> list[int]:
    """supply[t]: the most rows plus columns the toilet drawings of rolls t, t+1, ... can reach together
    (per roll, the largest height + width of a shape it offers with toilets)."""
    comp = problem.components
    supply = [0] * (len(problem.rolls) + 1)
    for t in range(len(problem.rolls) - 1, -1, -1):
        best = 0
        for s, elements in _roll_pairs(problem.rolls[t], comp).items():
            if int(Element.TOILETS) in elements:
                cells = comp.shapes[s]
                best = max(best, len({r for r, _ in cells}) + len({c for _, c in cells}))
        supply[t] = supply[t + 1] + best
    return supply


def _card_viability(problem: MaxProblem, caps: dict[Challenge, int]) -> Callable[[int, dict[Element, int], int], bool]:
    """A test of partial maps (drawn bitmask, bitmask per element) that every map meeting all caps passes.

    Cards' points never exceed their caps, so a map whose total meets the sum meets each cap: Dangerous
    Animals at its cap draws no new tent on the edge; Quick Pee at its cap (every row and column) leaves no
    line both without a toilet and without an empty square, and the rows and columns still without a toilet
    cannot outnumber what the remaining rolls' toilet drawings can reach (`_toilet_line_supply`). With The
    Great Divide, a perfect map's element
    is one cluster with squares on both sides (`divide_viability`).
    """
    rows, cols = problem.components.rows, problem.components.cols
    tables = board_tables(problem.components)
    divide = divide_viability(problem) if Challenge.GREAT_DIVIDE in problem.challenges else None
    edge_mask = tables.edge
    start_edge_tents = cells_mask(
        ((r, c) for r, c in border_cells(rows, cols) if problem.start_grid[r][c] == int(Element.TENTS)), cols
    )
    lines = tables.row_masks + tables.col_masks
    check_tents = Challenge.DANGEROUS_ANIMALS in caps
    check_toilets = Challenge.QUICK_PEE in caps
    supply = _toilet_line_supply(problem) if check_toilets else []

    def viable(drawn: int, masks: dict[Element, int], next_turn: int = 0) -> bool:
        if divide is not None and not divide(drawn, masks):
            return False
        if check_tents and masks[Element.TENTS] & edge_mask & ~start_edge_tents:
            return False
        if check_toilets:
            toilets = masks[Element.TOILETS]
            missing = [line for line in lines if not line & toilets]
            if any(not line & ~drawn for line in missing):
                return False
            if len(missing) > supply[min(next_turn, len(supply) - 1)]:
                return False
        return True

    return viable

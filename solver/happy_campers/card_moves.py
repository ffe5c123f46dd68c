"""Happy Campers warm starts with challenge cards: a cheap per-move value of each card's points, added to
the greedy move score of `cpsat_warmstart.greedy_play`.

Without it the greedy plays are card-blind (the cards only pick the best of the finished rollouts), and
CP-SAT starts far from the maps the cards reward (Privacy 13 edge trees of a possible 20-odd). Each term
is the card's own gain from the move, read off the map before the move (no full re-scoring):

- Privacy: the edge squares of a tree placement; Dangerous Animals: minus those of a tent placement;
- Quick Pee: the rows and columns a toilet placement reaches that had no toilet;
- Tent Together: the 2x2 windows a tent placement completes (all four squares tents);
- River Town: the columns a water placement adds to the water cluster(s) it joins;
- Nature Reserve: the single empty squares the move closes in (the base score calls them lonely, a loss);
- The Great Divide: the halves of the map on which the move's element appears for the first time.

These are move-ordering hints only: every play stays a legal forced play of the rules model and is scored
by `rules.score` before it is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from campsolver.solver.core.geometry import Cell, border_cells, neighbours
from campsolver.solver.happy_campers.cpsat_map import side_columns
from campsolver.solver.happy_campers.rules import Challenge, Components, Element, Grid, Placement

#: Weights of each card's move term, in the units of the greedy move score (3 per square drawn): a
#: card point is worth about a square's score, a bit more so the greedy play does reach for it.
PRIVACY_WEIGHT = 4.0
DANGEROUS_ANIMALS_WEIGHT = 6.0
QUICK_PEE_WEIGHT = 4.0
TENT_SQUARE_WEIGHT = 9.0
RIVER_COLUMN_WEIGHT = 2.0
NATURE_RESERVE_WEIGHT = 10.0
GREAT_DIVIDE_WEIGHT = 12.0

CardBonus = Callable[[Grid, Placement], float]


def card_bonus(cards: Sequence[Challenge], components: Components) -> CardBonus | None:
    """The summed move term of the cards in play (None when no card has one)."""
    rows, cols = components.rows, components.cols
    edge = border_cells(rows, cols)
    left, right = side_columns(cols)
    terms: list[CardBonus] = []
    cards = set(cards)

    if Challenge.PRIVACY in cards:
        terms.append(lambda grid, p: PRIVACY_WEIGHT * len(p.cells & edge) if p.element == Element.TREES else 0.0)
    if Challenge.DANGEROUS_ANIMALS in cards:
        terms.append(
            lambda grid, p: -DANGEROUS_ANIMALS_WEIGHT * len(p.cells & edge) if p.element == Element.TENTS else 0.0
        )
    if Challenge.QUICK_PEE in cards:

        def quick_pee(grid: Grid, p: Placement) -> float:
            if p.element != Element.TOILETS:
                return 0.0
            toilet = int(Element.TOILETS)
            new_rows = {r for r, _ in p.cells if toilet not in grid[r]}
            new_cols = {c for _, c in p.cells if all(grid[r][c] != toilet for r in range(rows))}
            return QUICK_PEE_WEIGHT * (len(new_rows) + len(new_cols))

        terms.append(quick_pee)
    if Challenge.TENT_TOGETHER in cards:

        def tent_together(grid: Grid, p: Placement) -> float:
            if p.element != Element.TENTS:
                return 0.0
            tent = int(Element.TENTS)
            corners = {(r - dr, c - dc) for r, c in p.cells for dr in (0, 1) for dc in (0, 1)}
            done = 0
            for r, c in corners:
                if not (0 <= r < rows - 1 and 0 <= c < cols - 1):
                    continue
                window = ((r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1))
                if all(cell in p.cells or grid[cell[0]][cell[1]] == tent for cell in window):
                    done += 1
            return TENT_SQUARE_WEIGHT * done

        terms.append(tent_together)
    if Challenge.RIVER_TOWN in cards:

        def river_town(grid: Grid, p: Placement) -> float:
            if p.element != Element.WATER:
                return 0.0
            joined = _component(grid, p.cells, int(Element.WATER), rows, cols)
            before = {c for r, c in joined - p.cells}
            return RIVER_COLUMN_WEIGHT * len({c for _, c in joined} - before)

        terms.append(river_town)
    if Challenge.NATURE_RESERVE in cards:

        def nature_reserve(grid: Grid, p: Placement) -> float:
            around = {nb for cell in p.cells for nb in neighbours(cell, rows, cols)} - p.cells
            closed = 0
            for r, c in around:
                if grid[r][c] != Element.EMPTY:
                    continue
                if all(
                    grid[nr][nc] != Element.EMPTY or (nr, nc) in p.cells for nr, nc in neighbours((r, c), rows, cols)
                ):
                    closed += 1
            return NATURE_RESERVE_WEIGHT * closed

        terms.append(nature_reserve)
    if Challenge.GREAT_DIVIDE in cards:

        def great_divide(grid: Grid, p: Placement) -> float:
            value = int(p.element)
            new = 0
            for side in (left, right):
                if any(c in side for _, c in p.cells) and not any(
                    grid[r][c] == value for r in range(rows) for c in side
                ):
                    new += 1
            return GREAT_DIVIDE_WEIGHT * new

        terms.append(great_divide)
    if not terms:
        return None
    return lambda grid, p: sum(term(grid, p) for term in terms)


def _component(grid: Grid, cells: frozenset[Cell], value: int, rows: int, cols: int) -> set[Cell]:
    """The squares of `value` connected to `cells` once `cells` hold `value`."""
    seen = set(cells)
    stack = list(cells)
    while stack:
        cell = stack.pop()
        for nb in neighbours(cell, rows, cols):
            if nb not in seen and grid[nb[0]][nb[1]] == value:
                seen.add(nb)
                stack.append(nb)
    return seen

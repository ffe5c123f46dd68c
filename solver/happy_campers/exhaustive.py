"""Brute-force oracles for tiny Happy Campers maps (3x4 to 4x4): the yardstick for every optimiser.

Both oracles are deliberately plain: they enumerate drawings with the rules model's own legality tables
and score every final map with `rules.score`, so a disagreement with a clever solver points at the clever
solver. The only shortcuts are ones that provably keep the optimum:

- `clairvoyant_max` memoises on (map, roll index): the value of the rest of a known roll sequence depends
  on nothing else.
- `absolute_max` enumerates final maps instead of drawing orders. A final map is reachable by *some* legal
  order exactly when its drawn squares (pre-drawn ones included) are orthogonally connected and the new
  squares split into monochrome copies of the five shapes: then a breadth-first order over the pieces
  keeps each piece adjacent to an earlier one. Each piece is anchored at its first square in reading
  order (so every decomposition is generated once), elements that no challenge card mentions are
  interchangeable (only the canonical relabelling is tried), and a per-square optimistic bound prunes
  branches that cannot beat the best map found so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.core.budget import Budget
from solver.core.geometry import Cell, orientations
from solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    ELEMENTS,
    EMPTY_SQUARE_POINTS,
    FESTIVAL_POINTS,
    NATURE_RESERVE_SINGLE_EMPTY_POINTS,
    RIVER_POINTS,
    TENT_SQUARE_POINTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    RulesError,
    drawn_cells,
    fill,
    legal_placements,
    score,
    validate_grid,
    validate_roll,
)

#: Oracles refuse maps bigger than this many squares: they are exponential and meant for tests.
MAX_ORACLE_CELLS = 20

#: The element each scoring challenge looks at; the other elements are interchangeable for `absolute_max`.
_CHALLENGE_ELEMENTS: dict[Challenge, Element] = {
    Challenge.PRIVACY: Element.TREES,
    Challenge.QUICK_PEE: Element.TOILETS,
    Challenge.TENT_TOGETHER: Element.TENTS,
    Challenge.DANGEROUS_ANIMALS: Element.TENTS,
    Challenge.RIVER_TOWN: Element.WATER,
}

_BUDGET_CHECK_EVERY = 4096


@dataclass(frozen=True)
class OracleResult:
    """The best final score, one drawing sequence reaching it (legal in this order) and the final map."""

    score: int
    placements: tuple[Placement, ...]
    final_grid: Grid
    nodes: int  # search nodes visited, for the curious


def _check_size(components: Components) -> None:
    if components.cell_count > MAX_ORACLE_CELLS:
        raise RulesError(
            "components", f"exhaustive oracles take at most {MAX_ORACLE_CELLS} squares, got {components.cell_count}"
        )


class _Ticker:
    """Counts nodes and polls the budget now and then (cheap enough for the inner loop)."""

    def __init__(self, budget: Budget | None) -> None:
        self.budget = budget
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes % _BUDGET_CHECK_EVERY == 0:
            self.budget.check()


# ---------------------------------------------------------------------------------------------------------
# Clairvoyant play of a known roll sequence
# ---------------------------------------------------------------------------------------------------------


def clairvoyant_max(
    start_grid: Grid | None,
    rolls: Sequence[tuple[int, int]],
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    *,
    festival_won: bool = True,
    budget: Budget | None = None,
) -> OracleResult:
    """Best final score when `rolls` are played in order under forced single-map play.

    Each roll must be drawn (either option, any legal placement) while any legal placement exists; the
    first roll with none ends the game. `start_grid` may hold pre-drawn squares (must be connected).
    """
    _check_size(components)
    grid = validate_grid(start_grid, components) if start_grid is not None else None
    if grid is None:
        grid = tuple((0,) * components.cols for _ in range(components.rows))
    roll_list = [validate_roll(r) for r in rolls]
    challenge_set = tuple(sorted(set(challenges), key=lambda ch: ch.value))
    ticker = _Ticker(budget)
    leaf_scores: dict[Grid, int] = {}
    memo: dict[tuple[Grid, int], tuple[int, Placement | None]] = {}
    # The drawings of a roll depend on the map only through which squares are drawn, but the children
    # differ by element too, so the enumeration is cached per (drawn squares, roll).
    drawings: dict[tuple[frozenset[Cell], tuple[int, int]], list[Placement]] = {}

    def final_score(state: Grid) -> int:
        cached = leaf_scores.get(state)
        if cached is None:
            cached = score(state, challenge_set, components, festival_won=festival_won).total
            leaf_scores[state] = cached
        return cached

    def options_for(state: Grid, roll: tuple[int, int]) -> list[Placement]:
        key = (frozenset(drawn_cells(state)), roll)
        found = drawings.get(key)
        if found is None:
            unique: dict[tuple[frozenset[Cell], Element], Placement] = {}
            for placement in legal_placements(state, roll, components):
                unique.setdefault((placement.cells, placement.element), placement)
            found = list(unique.values())
            drawings[key] = found
        return found

    def value(state: Grid, index: int) -> int:
        key = (state, index)
        cached = memo.get(key)
        if cached is not None:
            return cached[0]
        ticker.tick()
        choices = options_for(state, roll_list[index]) if index < len(roll_list) else []
        if not choices:
            result: tuple[int, Placement | None] = (final_score(state), None)
        else:
            best_value, best_choice = None, None
            for placement in choices:
                child_value = value(fill(state, placement.cells, placement.element), index + 1)
                if best_value is None or child_value > best_value:
                    best_value, best_choice = child_value, placement
            assert best_value is not None
            result = (best_value, best_choice)
        memo[key] = result
        return result[0]

    best = value(grid, 0)
    sequence: list[Placement] = []
    state, index = grid, 0
    while True:
        choice = memo[(state, index)][1]
        if choice is None:
            break
        sequence.append(choice)
        state = fill(state, choice.cells, choice.element)
        index += 1
    return OracleResult(best, tuple(sequence), state, ticker.nodes)


# ---------------------------------------------------------------------------------------------------------
# Absolute maximum: free choice of every shape and element, any number of turns
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Piece:
    cells: tuple[int, ...]  # flat indices r * cols + c
    mask: int
    shape_face: int


def _anchored_pieces(components: Components) -> list[list[_Piece]]:
    """For each square, the shape copies whose first square in reading order is that square."""
    rows, cols = components.rows, components.cols
    per_square: list[list[_Piece]] = [[] for _ in range(rows * cols)]
    seen: set[int] = set()
    for face, shape in enumerate(components.shapes, start=1):
        for oriented in orientations(shape):
            ordered = sorted(oriented)
            r0, c0 = ordered[0]
            for anchor in range(rows * cols):
                ar, ac = divmod(anchor, cols)
                flat = []
                for r, c in ordered:
                    rr, cc = ar + r - r0, ac + c - c0
                    if not (0 <= rr < rows and 0 <= cc < cols):
                        break
                    flat.append(rr * cols + cc)
                else:
                    mask = sum(1 << i for i in flat)
                    if mask in seen:  # a duplicate shape in the components: one copy is enough
                        continue
                    seen.add(mask)
                    per_square[anchor].append(_Piece(tuple(flat), mask, face))
    for pieces in per_square:
        pieces.sort(key=lambda p: -len(p.cells))  # big pieces first: good maps early, better pruning
    return per_square


def _cell_bounds(components: Components, challenge_set: frozenset[Challenge]) -> tuple[list[dict[int, float]], float]:
    """Optimistic points per square for each value it may take, plus global optimistic extras.

    A drawn square is worth at most 1 (it can be in its element's largest cluster) plus the most any
    per-square challenge can give it; an empty square -1, or +2 under Nature Reserve (if isolated).
    """
    rows, cols = components.rows, components.cols
    per_square: list[dict[int, float]] = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        edge = r in (0, rows - 1) or c in (0, cols - 1)
        values: dict[int, float] = {}
        for element in ELEMENTS:
            points = 1.0
            if element is Element.TREES and Challenge.PRIVACY in challenge_set and edge:
                points += 1
            if element is Element.TENTS and Challenge.TENT_TOGETHER in challenge_set:
                points += TENT_SQUARE_POINTS / 4
            if element is Element.TENTS and Challenge.DANGEROUS_ANIMALS in challenge_set and edge:
                points -= 1
            if element is Element.WATER and Challenge.RIVER_TOWN in challenge_set:
                points += RIVER_POINTS / cols
            values[int(element)] = points
        values[int(Element.EMPTY)] = float(
            NATURE_RESERVE_SINGLE_EMPTY_POINTS if Challenge.NATURE_RESERVE in challenge_set else EMPTY_SQUARE_POINTS
        )
        per_square.append(values)
    extras = 0.0
    if Challenge.QUICK_PEE in challenge_set:
        extras += rows + cols
    if Challenge.FESTIVAL in challenge_set:
        extras += FESTIVAL_POINTS
    return per_square, extras


def absolute_max(
    components: Components = DEFAULT_COMPONENTS,
    challenges: Iterable[Challenge] = (),
    *,
    start_grid: Grid | None = None,
    festival_won: bool = True,
    budget: Budget | None = None,
) -> OracleResult:
    """The best score any sequence of drawings (free shape and element each turn) can reach.

    Every drawing must be legal in the returned order (adjacent to drawn squares, first one anywhere);
    zero drawings is allowed (an empty map scores 0, being incomplete).
    """
    _check_size(components)
    rows, cols = components.rows, components.cols
    n = rows * cols
    start = validate_grid(start_grid, components) if start_grid is not None else None
    if start is None:
        start = tuple((0,) * cols for _ in range(rows))
    challenge_set = frozenset(challenges)
    challenge_order = tuple(sorted(challenge_set, key=lambda ch: ch.value))
    element_faces = {element: face for face, element in enumerate(components.elements, start=1)}
    flat_start = [v for row in start for v in row]
    start_mask = sum(1 << i for i, v in enumerate(flat_start) if v)
    pieces_at = _anchored_pieces(components)
    cell_points, extras = _cell_bounds(components, challenge_set)
    best_cell = [max(points.values()) for points in cell_points]
    # Optimistic points of the whole map with every square undecided (pre-drawn squares at their value);
    # `decided_points` in the search adds (actual - optimistic) for each square decided so far.
    optimistic_total = extras + sum(cell_points[i][v] if v else best_cell[i] for i, v in enumerate(flat_start))
    special = {_CHALLENGE_ELEMENTS[ch] for ch in challenge_set if ch in _CHALLENGE_ELEMENTS}
    special |= {Element(v) for v in flat_start if v}
    free_order = [e for e in ELEMENTS if e not in special]  # interchangeable: use them in this order
    min_piece = min(len(shape) for shape in components.shapes)
    neighbours = [
        [j for j in (i - cols, i + cols) if 0 <= j < n]
        + [j for j in (i - 1, i + 1) if 0 <= j < n and j // cols == i // cols]
        for i in range(n)
    ]
    ticker = _Ticker(budget)

    def connected(mask: int) -> bool:
        if mask == 0:
            return False
        first = (mask & -mask).bit_length() - 1
        seen = 1 << first
        stack = [first]
        while stack:
            i = stack.pop()
            for j in neighbours[i]:
                bit = 1 << j
                if mask & bit and not seen & bit:
                    seen |= bit
                    stack.append(j)
        return seen == mask

    flat = list(flat_start)
    chosen: list[tuple[_Piece, Element]] = []
    best_score = score(start, challenge_order, components, festival_won=festival_won).total if start_mask else 0
    best_pieces: list[tuple[_Piece, Element]] = []

    def evaluate(covered: int) -> None:
        nonlocal best_score, best_pieces
        if not connected(covered):
            return
        grid = tuple(tuple(flat[r * cols : (r + 1) * cols]) for r in range(rows))
        total = score(grid, challenge_order, components, festival_won=festival_won).total
        if total > best_score:
            best_score, best_pieces = total, list(chosen)

    def search(i: int, covered: int, decided_points: float, used_free: int) -> None:
        ticker.tick()
        while i < n and covered >> i & 1:
            i += 1
        if optimistic_total + decided_points <= best_score:
            return
        present = {v for v in flat if v}
        missing = 5 - len(present)
        if missing * min_piece > n - i and best_score >= 0:
            return  # the map cannot become complete any more: nothing below beats an incomplete 0
        if i == n:
            evaluate(covered)
            return
        for piece in pieces_at[i]:
            if piece.mask & covered:
                continue
            for element in ELEMENTS:
                if element not in special:
                    rank = free_order.index(element)
                    if rank > used_free:  # only the next unused free element, never a later one
                        continue
                    next_free = max(used_free, rank + 1)
                else:
                    next_free = used_free
                gained = sum(cell_points[j][int(element)] for j in piece.cells) - sum(best_cell[j] for j in piece.cells)
                for j in piece.cells:
                    flat[j] = int(element)
                chosen.append((piece, element))
                search(i + 1, covered | piece.mask, decided_points + gained, next_free)
                chosen.pop()
                for j in piece.cells:
                    flat[j] = 0
        empty_gain = cell_points[i][0] - best_cell[i]
        search(i + 1, covered, decided_points + empty_gain, used_free)

    search(0, start_mask, 0.0, 0)
    return _ordered_result(best_score, best_pieces, start, start_mask, components, element_faces, ticker.nodes)


def _ordered_result(
    best_score: int,
    pieces: list[tuple[_Piece, Element]],
    start: Grid,
    start_mask: int,
    components: Components,
    element_faces: dict[Element, int],
    nodes: int,
) -> OracleResult:
    """Order the pieces of the best map so every drawing touches an earlier one (first one anywhere)."""
    cols = components.cols
    n = components.rows * cols

    def around(mask: int) -> int:
        out = 0
        for i in range(n):
            if mask >> i & 1:
                r, c = divmod(i, cols)
                if r > 0:
                    out |= 1 << (i - cols)
                if r + 1 < components.rows:
                    out |= 1 << (i + cols)
                if c > 0:
                    out |= 1 << (i - 1)
                if c + 1 < cols:
                    out |= 1 << (i + 1)
        return out

    remaining = list(pieces)
    drawn = start_mask
    ordered: list[Placement] = []
    grid = start
    while remaining:
        reach = around(drawn)
        index = next(k for k, (piece, _) in enumerate(remaining) if drawn == 0 or piece.mask & reach)
        piece, element = remaining.pop(index)
        cells = frozenset(divmod(i, cols) for i in piece.cells)
        ordered.append(Placement(cells, element, Option(piece.shape_face, element_faces[element])))
        drawn |= piece.mask
        grid = fill(grid, cells, element)
    return OracleResult(best_score, tuple(ordered), grid, nodes)

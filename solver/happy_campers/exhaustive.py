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

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.geometry import Cell, grow_mask, orientations
from campsolver.solver.happy_campers.rules import (
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
    elements_for_face,
    fill,
    max_disjoint_rivers,
    max_disjoint_tent_squares,
    placed_shapes,
    roll_options,
    score,
    shapes_for_face,
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
        if self.budget is not None and self.nodes % _BUDGET_CHECK_EVERY == 1:
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
    first roll with no legal placement ends the game. `start_grid` may hold pre-drawn squares (connected).

    Depth-first over every legal drawing, with two exact cuts: a (map, roll index) pair seen before is
    skipped (its whole subtree was already searched or cut, so it cannot beat the best score found), and a
    node whose optimistic bound (every square that the remaining rolls could still fill at its best value)
    cannot beat the best score found is cut.
    """
    _check_size(components)
    rows, cols = components.rows, components.cols
    grid = validate_grid(start_grid, components) if start_grid is not None else None
    if grid is None:
        grid = tuple((0,) * cols for _ in range(rows))
    roll_list = [validate_roll(r) for r in rolls]
    challenge_order = tuple(sorted(set(challenges), key=lambda ch: ch.value))
    # For each roll: the drawings of each option as (mask, flat cells, frozenset cells, element, option).
    roll_drawings = [_roll_drawings(roll, components) for roll in roll_list]
    # Most squares the rolls from index k on can still fill.
    capacity = [0] * (len(roll_list) + 1)
    for k in range(len(roll_list) - 1, -1, -1):
        capacity[k] = capacity[k + 1] + max(len(d[1]) for d in roll_drawings[k])
    # Elements each roll can supply (one per roll: a roll draws one shape of one element).
    supplies = [frozenset(d[3] for d in drawings) for drawings in roll_drawings]
    completable_cache: dict[tuple[frozenset[int], int], bool] = {}

    def completable(missing: frozenset[int], index: int) -> bool:
        """Can the rolls from `index` on still supply every missing element, one roll each?"""
        key = (missing, index)
        answer = completable_cache.get(key)
        if answer is None:
            answer = _can_assign(sorted(missing), supplies[index:])
            completable_cache[key] = answer
        return answer

    ticker = _Ticker(budget)
    visited: set[tuple[tuple[int, ...], int]] = set()
    path: list[tuple[frozenset[Cell], Element, Option]] = []
    best: list = [None, (), grid]  # score, drawings, final map

    def evaluate(flat: tuple[int, ...]) -> None:
        state = tuple(flat[r * cols : (r + 1) * cols] for r in range(rows))
        total = score(state, challenge_order, components, festival_won=festival_won).total
        if best[0] is None or total > best[0]:
            best[0], best[1], best[2] = total, tuple(path), state

    map_bound = _MapBound(components, frozenset(challenge_order), festival_won)

    def bound(flat: tuple[int, ...], index: int) -> float:
        return map_bound.upper(flat, capacity[index])

    def search(flat: tuple[int, ...], drawn: int, index: int) -> None:
        key = (flat, index)
        if key in visited:
            return
        visited.add(key)
        ticker.tick()
        missing = _ALL_ELEMENT_VALUES.difference(flat)
        if best[0] is not None:
            if missing and best[0] >= 0 and not completable(missing, index):
                return  # the map can only end incomplete: 0 points
            if bound(flat, index) <= best[0]:
                return
        moves = []
        if index < len(roll_list):
            reach = 0
            if drawn:
                reach = grow_mask(drawn, components.rows, components.cols)
            for mask, cells, cell_set, element, option in roll_drawings[index]:
                if not mask & drawn and (drawn == 0 or mask & reach):
                    moves.append((mask, cells, cell_set, element, option))
        if not moves:
            evaluate(flat)
            return
        if missing:  # drawings that bring a missing element first: complete maps early, sharper cuts
            moves.sort(key=lambda move: move[3] not in missing)
        for mask, cells, cell_set, element, option in moves:
            child = list(flat)
            for i in cells:
                child[i] = element
            path.append((cell_set, Element(element), option))
            search(tuple(child), drawn | mask, index + 1)
            path.pop()

    start_flat = tuple(v for row in grid for v in row)
    search(start_flat, sum(1 << i for i, v in enumerate(start_flat) if v), 0)
    placements = tuple(Placement(cells, element, option) for cells, element, option in best[1])
    return OracleResult(int(best[0]), placements, best[2], ticker.nodes)


_ALL_ELEMENT_VALUES = frozenset(int(e) for e in ELEMENTS)


class _MapBound:
    """An optimistic final score of a partly drawn map when at most `room` more squares get drawn.

    Clusters: an element's largest cluster can only grow by squares drawn later, inside one region of
    its own squares plus empty squares, so the drawn part is bounded by the best such region per element
    and every later square adds at most 1. Challenges are bounded on "this element or still empty"
    (Tent Together and River Town solve their problem on that mask, Quick Pee counts rows and columns
    that hold a toilet or an empty square); per-square challenges are exact for drawn squares.
    """

    def __init__(self, components: Components, challenges: frozenset[Challenge], festival_won: bool) -> None:
        self.rows, self.cols = components.rows, components.cols
        self.n = self.rows * self.cols
        self.challenges = challenges
        self.festival = FESTIVAL_POINTS if Challenge.FESTIVAL in challenges and festival_won else 0
        edge = [r in (0, self.rows - 1) or c in (0, self.cols - 1) for r, c in map(self._rc, range(self.n))]
        privacy = Challenge.PRIVACY in challenges
        animals = Challenge.DANGEROUS_ANIMALS in challenges
        #: Exact per-square challenge points of a drawn square, by element value.
        self.square_points = [
            {
                int(e): (1 if privacy and edge[i] and e is Element.TREES else 0)
                - (1 if animals and edge[i] and e is Element.TENTS else 0)
                for e in ELEMENTS
            }
            for i in range(self.n)
        ]
        nature = Challenge.NATURE_RESERVE in challenges
        self.empty_value = NATURE_RESERVE_SINGLE_EMPTY_POINTS if nature else EMPTY_SQUARE_POINTS
        # Drawing a square: +1 cluster square at most, its best per-square points, and no empty value.
        self.fill_gain = [1 + max(points.values()) - self.empty_value for points in self.square_points]

    def _rc(self, i: int) -> tuple[int, int]:
        return divmod(i, self.cols)

    def _region(self, seed: int, allowed: int) -> int:
        region = seed
        frontier = seed
        while frontier:
            grown = grow_mask(frontier, self.rows, self.cols) & allowed & ~region
            region |= grown
            frontier = grown
        return region

    def upper(self, flat: Sequence[int], room: int) -> float:
        masks = dict.fromkeys(_ALL_ELEMENT_VALUES, 0)
        empty = 0
        total = float(self.festival)
        gains = []
        for i, v in enumerate(flat):
            if v:
                masks[v] |= 1 << i
                total += self.square_points[i][v]
            else:
                empty |= 1 << i
                total += self.empty_value
                if self.fill_gain[i] > 0:
                    gains.append(self.fill_gain[i])
        if room < len(gains):
            gains.sort(reverse=True)
            gains = gains[:room]
        total += sum(gains)
        for mask in masks.values():
            best = 0
            remaining = mask
            while remaining:
                region = self._region(remaining & -remaining, mask | empty)
                best = max(best, (region & mask).bit_count())
                remaining &= ~region
            total += best
        if Challenge.TENT_TOGETHER in self.challenges:
            tents = masks[int(Element.TENTS)] | empty
            total += TENT_SQUARE_POINTS * max_disjoint_tent_squares(tents, self.rows, self.cols)
        if Challenge.RIVER_TOWN in self.challenges:
            water = masks[int(Element.WATER)] | empty
            total += RIVER_POINTS * max_disjoint_rivers(water, self.rows, self.cols)
        if Challenge.QUICK_PEE in self.challenges:
            toilets = masks[int(Element.TOILETS)] | empty
            total += sum(1 for r in range(self.rows) if toilets >> (r * self.cols) & ((1 << self.cols) - 1))
            total += sum(
                1 for c in range(self.cols) if any(toilets >> (r * self.cols + c) & 1 for r in range(self.rows))
            )
        return total


def _can_assign(missing: list[int], supplies: Sequence[frozenset[int]]) -> bool:
    """Bipartite matching of missing elements to distinct rolls that can supply them (tiny, recursive)."""
    if not missing:
        return True
    if len(missing) > len(supplies):
        return False
    first, rest = missing[0], missing[1:]
    for k, supply in enumerate(supplies):
        if first in supply and _can_assign(rest, [*supplies[:k], *supplies[k + 1 :]]):
            return True
    return False


def _roll_drawings(
    roll: tuple[int, int], components: Components
) -> list[tuple[int, tuple[int, ...], frozenset[Cell], int, Option]]:
    """Every drawing of a roll on an empty map, each (squares, element) once, as bitmask records."""
    cols = components.cols
    found = []
    seen: set[tuple[int, int]] = set()
    for option in roll_options(roll):
        elements = elements_for_face(option.element_face, components)
        for shape in shapes_for_face(option.shape_face, components):
            for placed in placed_shapes(shape, components.rows, cols):
                flat = tuple(sorted(r * cols + c for r, c in placed.cells))
                for element in elements:
                    if (placed.mask, int(element)) in seen:
                        continue
                    seen.add((placed.mask, int(element)))
                    found.append((placed.mask, flat, placed.cells, int(element), option))
    return found


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


@dataclass(frozen=True)
class _MapSpace:
    """What the final-map enumeration reads, derived once from the components, the challenges and the start."""

    components: Components
    challenge_order: tuple[Challenge, ...]
    flat_start: tuple[int, ...]
    start_mask: int
    pieces_at: list[list[_Piece]]
    cell_points: list[dict[int, float]]
    best_cell: list[float]
    #: Points of the whole map with every square undecided at its best (pre-drawn squares at their value);
    #: the search adds (actual - optimistic) for each square it decides.
    optimistic_total: float
    special: set[Element]  # elements a challenge reads or already drawn: never interchangeable
    free_order: list[Element]  # the interchangeable elements, used in this order
    min_piece: int
    neighbours: list[list[int]]


def _map_space(components: Components, challenge_set: frozenset[Challenge], start: Grid) -> _MapSpace:
    """The anchored pieces, the per-square optimistic points and the interchangeable elements."""
    rows, cols = components.rows, components.cols
    n = rows * cols
    flat_start = tuple(v for row in start for v in row)
    cell_points, extras = _cell_bounds(components, challenge_set)
    best_cell = [max(points.values()) for points in cell_points]
    special = {_CHALLENGE_ELEMENTS[ch] for ch in challenge_set if ch in _CHALLENGE_ELEMENTS}
    special |= {Element(v) for v in flat_start if v}
    return _MapSpace(
        components=components,
        challenge_order=tuple(sorted(challenge_set, key=lambda ch: ch.value)),
        flat_start=flat_start,
        start_mask=sum(1 << i for i, v in enumerate(flat_start) if v),
        pieces_at=_anchored_pieces(components),
        cell_points=cell_points,
        best_cell=best_cell,
        optimistic_total=extras + sum(cell_points[i][v] if v else best_cell[i] for i, v in enumerate(flat_start)),
        special=special,
        free_order=[e for e in ELEMENTS if e not in special],
        min_piece=min(len(shape) for shape in components.shapes),
        neighbours=[
            [j for j in (i - cols, i + cols) if 0 <= j < n]
            + [j for j in (i - 1, i + 1) if 0 <= j < n and j // cols == i // cols]
            for i in range(n)
        ],
    )


class _MapSearch:
    """Depth-first over final maps in reading order: at each undecided square, a piece anchored there with an
    element (interchangeable elements in canonical order only) or the square left empty; a branch is cut when
    its optimistic points cannot beat the best map so far. Keeps the map being built and the best one found."""

    def __init__(self, space: _MapSpace, start: Grid, festival_won: bool, ticker: _Ticker) -> None:
        self.space = space
        self.festival_won = festival_won
        self.ticker = ticker
        self.n = len(space.flat_start)
        self.flat = list(space.flat_start)
        self.chosen: list[tuple[_Piece, Element]] = []
        self.best_score = (
            score(start, space.challenge_order, space.components, festival_won=festival_won).total
            if space.start_mask
            else 0
        )
        self.best_pieces: list[tuple[_Piece, Element]] = []

    def connected(self, mask: int) -> bool:
        """Whether the drawn squares `mask` are orthogonally connected (and not none)."""
        if mask == 0:
            return False
        neighbours = self.space.neighbours
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

    def evaluate(self, covered: int) -> None:
        """Score the complete map being built (if reachable: connected) and keep it when it beats the best."""
        if not self.connected(covered):
            return
        components = self.space.components
        rows, cols = components.rows, components.cols
        grid = tuple(tuple(self.flat[r * cols : (r + 1) * cols]) for r in range(rows))
        total = score(grid, self.space.challenge_order, components, festival_won=self.festival_won).total
        if total > self.best_score:
            self.best_score, self.best_pieces = total, list(self.chosen)

    def search(self, i: int, covered: int, decided_points: float, used_free: int) -> None:
        """Decide the squares from `i` on (`covered`: drawn so far; `used_free`: interchangeable elements used)."""
        self.ticker.tick()
        n, space = self.n, self.space
        while i < n and covered >> i & 1:
            i += 1
        if space.optimistic_total + decided_points <= self.best_score:
            return
        present = {v for v in self.flat if v}
        missing = 5 - len(present)
        if missing * space.min_piece > n - i and self.best_score >= 0:
            return  # the map cannot become complete any more: nothing below beats an incomplete 0
        if i == n:
            self.evaluate(covered)
            return
        self.place_pieces(i, covered, decided_points, used_free)
        empty_gain = space.cell_points[i][0] - space.best_cell[i]
        self.search(i + 1, covered, decided_points + empty_gain, used_free)

    def place_pieces(self, i: int, covered: int, decided_points: float, used_free: int) -> None:
        """Every piece anchored at square `i` that fits, with every element worth trying, searched in turn."""
        space, flat, chosen = self.space, self.flat, self.chosen
        cell_points, best_cell = space.cell_points, space.best_cell
        for piece in space.pieces_at[i]:
            if piece.mask & covered:
                continue
            for element in ELEMENTS:
                if element not in space.special:
                    rank = space.free_order.index(element)
                    if rank > used_free:  # only the next unused free element, never a later one
                        continue
                    next_free = max(used_free, rank + 1)
                else:
                    next_free = used_free
                gained = sum(cell_points[j][int(element)] for j in piece.cells) - sum(best_cell[j] for j in piece.cells)
                for j in piece.cells:
                    flat[j] = int(element)
                chosen.append((piece, element))
                self.search(i + 1, covered | piece.mask, decided_points + gained, next_free)
                chosen.pop()
                for j in piece.cells:
                    flat[j] = 0


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
    start = validate_grid(start_grid, components) if start_grid is not None else None
    if start is None:
        start = tuple((0,) * components.cols for _ in range(components.rows))
    space = _map_space(components, frozenset(challenges), start)
    ticker = _Ticker(budget)
    search = _MapSearch(space, start, festival_won, ticker)
    search.search(0, space.start_mask, 0.0, 0)
    element_faces = {element: face for face, element in enumerate(components.elements, start=1)}
    return _ordered_result(
        search.best_score, search.best_pieces, start, space.start_mask, components, element_faces, ticker.nodes
    )


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

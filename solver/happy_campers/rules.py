"""Happy Campers rules model: components, rolls, legal drawings, drawing, scoring.

This module is the single source of truth for the rules; every solver (exhaustive oracle, CP-SAT
maximiser, hint engine) is checked against it. Rule readings that the rulebook leaves open are listed,
with the tests that pin them, in docs/rules/happy-campers.md.

Representation: a map (`Grid`) is a tuple of rows of `Element` values (0 = empty), immutable and hashable
so searches can memoise on it. Scoring works on a flat list with precomputed neighbour tables and caches
the two combinatorial sub-problems (River Town max-flow, Tent Together packing) on bitmasks, because it is
called in rollouts.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from campsolver.solver.core.geometry import Cell, Shape, is_connected, normalise, orientations, placements

# ---------------------------------------------------------------------------------------------------------
# Game facts
# ---------------------------------------------------------------------------------------------------------


class Element(enum.IntEnum):
    """What a square is filled with; EMPTY marks an undrawn square."""

    EMPTY = 0
    TREES = 1
    TOILETS = 2
    WATER = 3
    TENTS = 4
    ENTERTAINMENT = 5


#: The five real elements (scoring needs every one of them).
ELEMENTS: tuple[Element, ...] = (
    Element.TREES,
    Element.TOILETS,
    Element.WATER,
    Element.TENTS,
    Element.ENTERTAINMENT,
)

#: Die face 6 ("?" on the reference card): element face 6 = any of the five elements; shape face 6 = any of
#: the five shapes by default, or a sixth shape of its own when the components list six shapes.
ANY_FACE = 6
DIE_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: Faces 1..5 name one shape / one element each.
NAMED_FACES = 5
#: A reference card may print a sixth shape for face 6 (components.shapes then lists six).
SIX_SHAPES = 6

#: Largest map side we accept (the printed map is 5 x 9; the cap keeps search and scoring tables small).
MAX_MAP_SIDE = 12
#: Largest shape we accept, in squares (the printed shapes have 2 to 4).
MAX_SHAPE_CELLS = 9

#: Points per 2x2 all-tent square (Tent Together).
TENT_SQUARE_POINTS = 3
#: Points per left-to-right river (River Town).
RIVER_POINTS = 5
#: Points for the biggest entertainment cluster (Festival).
FESTIVAL_POINTS = 5
#: An isolated empty square scores +2 instead of -1 under Nature Reserve.
NATURE_RESERVE_SINGLE_EMPTY_POINTS = 2
#: Every other empty square scores -1.
EMPTY_SQUARE_POINTS = -1


class Challenge(enum.Enum):
    """The challenge cards (Advanced Set Up); all of them apply to every player."""

    PRIVACY = "privacy"
    QUICK_PEE = "quick_pee"
    TENT_TOGETHER = "tent_together"
    NATURE_RESERVE = "nature_reserve"
    RIVER_TOWN = "river_town"
    NOISY_NEIGHBOURS = "noisy_neighbours"
    GREAT_DIVIDE = "great_divide"
    DANGEROUS_ANIMALS = "dangerous_animals"
    FESTIVAL = "festival"

    @property
    def display_name(self) -> str:
        """The card's one name on every surface (text, pictures, score details, CLI): `CHALLENGE_NAMES`."""
        return CHALLENGE_NAMES[self]


#: Each challenge card's title as the rulebook prints it (without a leading "The"): the one name used everywhere
#: (proto enum comments, puzzle text and SVG, score details, the CLI's text output, docs/rules/), pinned by
#: tests/test_card_names.py.
CHALLENGE_NAMES: dict[Challenge, str] = {
    Challenge.PRIVACY: "Privacy",
    Challenge.QUICK_PEE: "Quick Pee",
    Challenge.TENT_TOGETHER: "Tent Together",
    Challenge.NATURE_RESERVE: "Nature Reserve",
    Challenge.RIVER_TOWN: "River Town",
    Challenge.NOISY_NEIGHBOURS: "Noisy Neighbours",
    Challenge.GREAT_DIVIDE: "Great Divide",
    Challenge.DANGEROUS_ANIMALS: "Dangerous Animals",
    Challenge.FESTIVAL: "Festival",
}


# Default shapes, face 1..5. The rulebook text does not describe the shapes on the reference card; these are
# the documented defaults (see docs/rules/happy-campers.md) and `Components(shapes=...)` overrides them.
DOMINO: Shape = frozenset({(0, 0), (0, 1)})
STRAIGHT_TROMINO: Shape = frozenset({(0, 0), (0, 1), (0, 2)})
L_TROMINO: Shape = frozenset({(0, 0), (1, 0), (1, 1)})
SQUARE_TETROMINO: Shape = frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})
T_TETROMINO: Shape = frozenset({(0, 0), (0, 1), (0, 2), (1, 1)})
DEFAULT_SHAPES: tuple[Shape, ...] = (DOMINO, STRAIGHT_TROMINO, L_TROMINO, SQUARE_TETROMINO, T_TETROMINO)
#: Element die faces 1..5 in reference-card order.
DEFAULT_ELEMENTS: tuple[Element, ...] = ELEMENTS

Grid = tuple[tuple[int, ...], ...]


class RulesError(ValueError):
    """Bad input (component data, roll, map): `field` names what was wrong, for the API's error details."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class IllegalMove(RulesError):
    """A drawing the rules do not allow on this map."""

    def __init__(self, message: str) -> None:
        super().__init__("placement", message)


# ---------------------------------------------------------------------------------------------------------
# Components and validation
# ---------------------------------------------------------------------------------------------------------


def validate_shape(cells: Iterable[Cell], field_name: str = "shape") -> Shape:
    """A normalised polyomino, or RulesError (empty, not connected, too big, not integer cells)."""
    try:
        raw = [(int(r), int(c)) for r, c in cells]
    except (TypeError, ValueError) as exc:
        raise RulesError(field_name, "cells must be (row, col) integer pairs") from exc
    if not raw:
        raise RulesError(field_name, "a shape needs at least one square")
    if len(set(raw)) != len(raw):
        raise RulesError(field_name, "a shape lists the same square twice")
    if len(raw) > MAX_SHAPE_CELLS:
        raise RulesError(field_name, f"a shape has at most {MAX_SHAPE_CELLS} squares, got {len(raw)}")
    if not is_connected(raw):
        raise RulesError(field_name, "a shape must be one orthogonally connected piece (a polyomino)")
    return normalise(raw)


def _fits(shape: Shape, rows: int, cols: int) -> bool:
    return bool(placements(shape, rows, cols))


@dataclass(frozen=True)
class Components:
    """Component data the rulebook omits: map size, the shapes and the element faces (overridable).

    `shapes` lists five shapes (faces 1..5; shape face 6 = any of them, the documented default) or six
    (face 6 is then a shape of its own, as on a reference card that prints six shapes). Shapes are
    normalised on construction, so two equal component sets compare (and cache) equal.
    """

    rows: int = 5
    cols: int = 9
    shapes: tuple[Shape, ...] = DEFAULT_SHAPES
    elements: tuple[Element, ...] = DEFAULT_ELEMENTS

    def __post_init__(self) -> None:
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(name, "must be an integer")
            if not 1 <= value <= MAX_MAP_SIDE:
                raise RulesError(name, f"must be between 1 and {MAX_MAP_SIDE}, got {value}")
        shapes = tuple(self.shapes)
        if len(shapes) not in (NAMED_FACES, SIX_SHAPES):
            raise RulesError(
                "shapes",
                f"{NAMED_FACES} shapes (faces 1..5, face 6 = any) or {SIX_SHAPES} (one per face), got {len(shapes)}",
            )
        normalised = tuple(validate_shape(s, f"shapes[{i}]") for i, s in enumerate(shapes))
        for i, shape in enumerate(normalised):
            if not _fits(shape, self.rows, self.cols):
                raise RulesError(f"shapes[{i}]", f"does not fit on a {self.rows}x{self.cols} map")
        object.__setattr__(self, "shapes", normalised)
        elements = tuple(self.elements)
        try:
            elements = tuple(Element(e) for e in elements)
        except ValueError as exc:
            raise RulesError("elements", "unknown element value") from exc
        if sorted(elements) != sorted(ELEMENTS):
            raise RulesError("elements", "faces 1..5 must show each of the five elements exactly once")
        object.__setattr__(self, "elements", elements)

    @property
    def cell_count(self) -> int:
        return self.rows * self.cols

    @property
    def six_shapes(self) -> bool:
        """True when shape face 6 is a shape of its own (not "any shape")."""
        return len(self.shapes) == SIX_SHAPES

    def shape_indices(self, face: int) -> tuple[int, ...]:
        """Indices into `shapes` that shape die face `face` allows (face 6 with five shapes: all five)."""
        validate_face(face, "shape_face")
        if face == ANY_FACE and not self.six_shapes:
            return tuple(range(len(self.shapes)))
        return (face - 1,)


DEFAULT_COMPONENTS = Components()


def validate_face(face: object, field_name: str) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= ANY_FACE:
        raise RulesError(field_name, f"a die face is 1..{ANY_FACE}, got {face!r}")
    return face


def validate_roll(roll: Sequence[int]) -> tuple[int, int]:
    """A roll of the two dice as a (int, int) tuple, or RulesError."""
    try:
        values = tuple(roll)
    except TypeError as exc:
        raise RulesError("roll", "a roll is two die faces") from exc
    if len(values) != 2:
        raise RulesError("roll", f"a roll is two die faces, got {len(values)}")
    return validate_face(values[0], "roll"), validate_face(values[1], "roll")


def validate_grid(
    grid: Sequence[Sequence[int]],
    components: Components = DEFAULT_COMPONENTS,
    *,
    require_connected: bool = True,
) -> Grid:
    """A map as an immutable `Grid`, or RulesError.

    A pre-drawn map must have the component size, only element values, and (by default) its drawn squares
    must be one orthogonally connected piece: that is what any legal drawing order produces on a single map.
    Solo doubles may leave detached pieces, hence `require_connected=False` for those maps.
    """
    try:
        rows = [tuple(int(v) for v in row) for row in grid]
    except (TypeError, ValueError) as exc:
        raise RulesError("grid", "a map is rows of element values") from exc
    if len(rows) != components.rows or any(len(row) != components.cols for row in rows):
        raise RulesError("grid", f"the map must be {components.rows}x{components.cols}")
    valid = {int(e) for e in Element}
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value not in valid:
                raise RulesError("grid", f"square ({r}, {c}) holds {value}, not an element value 0..5")
    drawn = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v != Element.EMPTY]
    if require_connected and drawn and not is_connected(drawn):
        raise RulesError("grid", "the drawn squares must be orthogonally connected")
    return tuple(rows)


def empty_grid(components: Components = DEFAULT_COMPONENTS) -> Grid:
    return tuple((int(Element.EMPTY),) * components.cols for _ in range(components.rows))


def drawn_cells(grid: Grid) -> set[Cell]:
    return {(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v != Element.EMPTY}


def is_empty_map(grid: Grid) -> bool:
    return all(v == Element.EMPTY for row in grid for v in row)


# ---------------------------------------------------------------------------------------------------------
# Rolls, options and placements
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Option:
    """One way to use a roll: draw shape `shape_face` filled with element `element_face` (6 = any)."""

    shape_face: int
    element_face: int

    def __post_init__(self) -> None:
        validate_face(self.shape_face, "shape_face")
        validate_face(self.element_face, "element_face")


def roll_options(roll: tuple[int, int]) -> tuple[Option, ...]:
    """(a, b) -> shape a with element b, and shape b with element a; a double gives one option."""
    a, b = validate_roll(roll)
    if a == b:
        return (Option(a, b),)
    return (Option(a, b), Option(b, a))


def is_double(roll: tuple[int, int]) -> bool:
    a, b = validate_roll(roll)
    return a == b


def shapes_for_face(face: int, components: Components = DEFAULT_COMPONENTS) -> tuple[Shape, ...]:
    """The shapes a shape die face allows (face 6: all five, or the sixth shape when there are six)."""
    return tuple(components.shapes[i] for i in components.shape_indices(face))


def elements_for_face(face: int, components: Components = DEFAULT_COMPONENTS) -> tuple[Element, ...]:
    """The elements an element die face allows (face 6: all five)."""
    validate_face(face, "element_face")
    return components.elements if face == ANY_FACE else (components.elements[face - 1],)


@dataclass(frozen=True)
class Placement:
    """One concrete drawing: these squares filled with `element`, using `option` of the roll."""

    cells: frozenset[Cell]
    element: Element
    option: Option

    def sorted_cells(self) -> list[Cell]:
        return sorted(self.cells)


@dataclass(frozen=True)
class _PlacedShape:
    cells: frozenset[Cell]
    mask: int  # bit r * cols + c set for every square of the shape
    neighbour_mask: int  # squares orthogonally next to the shape, outside it


@lru_cache(maxsize=256)
def _placements_table(shape: Shape, rows: int, cols: int) -> tuple[_PlacedShape, ...]:
    """Every position of every orientation of a shape, with bitmasks for fast legality tests."""
    table = []
    for cells in placements(shape, rows, cols):
        mask = 0
        for r, c in cells:
            mask |= 1 << (r * cols + c)
        around = 0
        for r, c in cells:
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in cells:
                    around |= 1 << (nr * cols + nc)
        table.append(_PlacedShape(cells, mask, around))
    return tuple(table)


def placed_shapes(shape: Shape, rows: int, cols: int) -> tuple[_PlacedShape, ...]:
    """Cached positions of `shape` (normalised first) on a rows x cols map."""
    return _placements_table(normalise(shape), rows, cols)


def drawn_mask(grid: Grid) -> int:
    """Bit r * cols + c set for every drawn square."""
    mask = 0
    bit = 1
    for row in grid:
        for value in row:
            if value:
                mask |= bit
            bit <<= 1
    return mask


def _fits_legally(placed: _PlacedShape, drawn: int) -> bool:
    """On empty squares only, and touching a drawn square unless the map is still empty."""
    if placed.mask & drawn:
        return False
    return drawn == 0 or bool(placed.neighbour_mask & drawn)


def legal_placements_for(
    grid: Grid,
    shape: Shape,
    element: Element,
    option: Option,
    components: Components = DEFAULT_COMPONENTS,
) -> list[Placement]:
    """Every legal position of one concrete shape with one concrete element (labelled with `option`)."""
    drawn = drawn_mask(grid)
    return [
        Placement(p.cells, Element(element), option)
        for p in placed_shapes(shape, components.rows, components.cols)
        if _fits_legally(p, drawn)
    ]


def legal_placements_for_option(
    grid: Grid, option: Option, components: Components = DEFAULT_COMPONENTS
) -> list[Placement]:
    """Every legal drawing of one option (face 6 expanded), each (cells, element) once."""
    drawn = drawn_mask(grid)
    found: list[Placement] = []
    seen: set[tuple[frozenset[Cell], Element]] = set()
    elements = elements_for_face(option.element_face, components)
    for shape in shapes_for_face(option.shape_face, components):
        positions = placed_shapes(shape, components.rows, components.cols)
        fitting = [p for p in positions if _fits_legally(p, drawn)]
        for element in elements:
            for p in fitting:
                key = (p.cells, element)
                if key not in seen:
                    seen.add(key)
                    found.append(Placement(p.cells, element, option))
    return found


def can_draw_option(grid: Grid, option: Option, components: Components = DEFAULT_COMPONENTS) -> bool:
    drawn = drawn_mask(grid)
    return any(
        _fits_legally(p, drawn)
        for shape in shapes_for_face(option.shape_face, components)
        for p in placed_shapes(shape, components.rows, components.cols)
    )


def legal_placements(grid: Grid, roll: tuple[int, int], components: Components = DEFAULT_COMPONENTS) -> list[Placement]:
    """Every legal drawing of the roll: both options, every orientation and position, face 6 expanded.

    Within one option each (cells, element) appears once; the same drawing can appear under both options
    (e.g. roll (6, 6) vs. nothing, or (3, 6) and (6, 3) both allowing shape 3 with element 3's face).
    """
    found: list[Placement] = []
    for option in roll_options(roll):
        found.extend(legal_placements_for_option(grid, option, components))
    return found


def can_draw(grid: Grid, roll: tuple[int, int], components: Components = DEFAULT_COMPONENTS) -> bool:
    """True when at least one option of the roll has a legal drawing (otherwise the player is out)."""
    return any(can_draw_option(grid, option, components) for option in roll_options(roll))


def check_placement(grid: Grid, placement: Placement, components: Components = DEFAULT_COMPONENTS) -> None:
    """Raise IllegalMove unless the placement is a legal drawing of its option on this map."""
    if not isinstance(placement.option, Option):
        raise IllegalMove("the placement names no option")
    if placement.element not in elements_for_face(placement.option.element_face, components):
        raise IllegalMove(f"element {Element(placement.element).name} is not allowed by {placement.option}")
    cells = placement.cells
    if not cells:
        raise IllegalMove("a drawing covers at least one square")
    for r, c in cells:
        if not (0 <= r < components.rows and 0 <= c < components.cols):
            raise IllegalMove(f"square ({r}, {c}) is outside the map")
    allowed = shapes_for_face(placement.option.shape_face, components)
    shape = normalise(cells)
    if not any(shape in orientations(candidate) for candidate in allowed):
        raise IllegalMove("the squares are not a rotation or reflection of the option's shape")
    for r, c in cells:
        if grid[r][c] != Element.EMPTY:
            raise IllegalMove(f"square ({r}, {c}) is already drawn")
    drawn = drawn_mask(grid)
    if drawn:
        touching = any(
            0 <= nr < components.rows and 0 <= nc < components.cols and grid[nr][nc] != Element.EMPTY
            for r, c in cells
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        )
        if not touching:
            raise IllegalMove("the shape must be orthogonally adjacent to a drawn square")


def fill(grid: Grid, cells: Iterable[Cell], element: Element) -> Grid:
    """The map with `cells` set to `element`, no rule checks (for search code that checked already)."""
    rows = [list(row) for row in grid]
    for r, c in cells:
        rows[r][c] = int(element)
    return tuple(tuple(row) for row in rows)


def draw(grid: Grid, placement: Placement, components: Components = DEFAULT_COMPONENTS) -> Grid:
    """The map after a legal drawing; raises IllegalMove otherwise."""
    check_placement(grid, placement, components)
    return fill(grid, placement.cells, placement.element)


# ---------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreBreakdown:
    """A map's score and where it comes from.

    `total` is 0 when the map is not complete; the other fields still show what the map would score, so a
    caller can explain the zero. `empty_points` is the base rule (-1 per empty square); the Nature Reserve
    bonus (+3 per isolated empty square, turning its -1 into +2) is reported under the challenge.
    """

    total: int
    complete: bool
    clusters: dict[Element, int]
    empty_points: int
    challenge_points: dict[Challenge, int] = field(default_factory=dict)


@lru_cache(maxsize=32)
def _neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for r in range(rows):
        for c in range(cols):
            around = []
            if r > 0:
                around.append((r - 1) * cols + c)
            if r + 1 < rows:
                around.append((r + 1) * cols + c)
            if c > 0:
                around.append(r * cols + c - 1)
            if c + 1 < cols:
                around.append(r * cols + c + 1)
            table.append(tuple(around))
    return tuple(table)


@lru_cache(maxsize=32)
def _edge_indices(rows: int, cols: int) -> tuple[int, ...]:
    return tuple(r * cols + c for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1))


def divide_sides(cols: int) -> tuple[range, range]:
    """Great Divide: the columns of the left and right side; with odd cols the middle column is in both."""
    return range(0, (cols + 1) // 2), range(cols // 2, cols)


def _components_by_value(flat: Sequence[int], rows: int, cols: int) -> list[tuple[int, int]]:
    """(value, size) of every orthogonal component of equal values, empty squares included."""
    neighbours = _neighbour_table(rows, cols)
    seen = [False] * len(flat)
    result = []
    for start, value in enumerate(flat):
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        size = 0
        while stack:
            i = stack.pop()
            size += 1
            for j in neighbours[i]:
                if not seen[j] and flat[j] == value:
                    seen[j] = True
                    stack.append(j)
        result.append((value, size))
    return result


@lru_cache(maxsize=65536)
def max_disjoint_tent_squares(tent_mask: int, rows: int, cols: int) -> int:
    """Tent Together: the most pairwise square-disjoint 2x2 all-tent squares.

    Two squares conflict exactly when their top-left corners differ by at most 1 in both directions, so a
    row-by-row DP over the chosen corners of the previous row is exact (at most 233 corner sets a row on a
    12-wide map).
    """
    if rows < 2 or cols < 2:
        return 0

    def tent(r: int, c: int) -> bool:
        return bool(tent_mask >> (r * cols + c) & 1)

    corner_rows = []
    for r in range(rows - 1):
        mask = 0
        for c in range(cols - 1):
            if tent(r, c) and tent(r, c + 1) and tent(r + 1, c) and tent(r + 1, c + 1):
                mask |= 1 << c
        corner_rows.append(mask)
    if not any(corner_rows):
        return 0
    best: dict[int, int] = {0: 0}  # chosen corners in the previous row -> most squares so far
    for available in corner_rows:
        choices = _spread_subsets(available)
        nxt: dict[int, int] = {}
        for chosen in choices:
            count = chosen.bit_count()
            top = -1
            for previous, value in best.items():
                blocked = previous | (previous << 1) | (previous >> 1)
                if not chosen & blocked and value > top:
                    top = value
            if top >= 0:
                nxt[chosen] = top + count
        best = nxt
    return max(best.values())


@lru_cache(maxsize=4096)
def _spread_subsets(available: int) -> tuple[int, ...]:
    """Subsets of `available` bits with no two neighbouring bits (corners in one row must not overlap)."""
    subsets = [0]
    bit = 0
    remaining = available
    while remaining:
        if remaining & 1:
            flag = 1 << bit
            subsets += [s | flag for s in subsets if not s & (flag >> 1)]
        remaining >>= 1
        bit += 1
    return tuple(subsets)


@lru_cache(maxsize=65536)
def max_disjoint_rivers(water_mask: int, rows: int, cols: int) -> int:
    """River Town: the most square-disjoint left-border-to-right-border paths through water squares.

    Max-flow with unit vertex capacities (each square split into in/out), found by BFS augmenting paths;
    the flow is at most `rows`, so at most `rows` augmentations.
    """
    water = [bool(water_mask >> i & 1) for i in range(rows * cols)]
    touches_left = any(water[r * cols] for r in range(rows))
    touches_right = any(water[r * cols + cols - 1] for r in range(rows))
    if not (touches_left and touches_right):
        return 0
    neighbours = _neighbour_table(rows, cols)
    n = rows * cols
    source, sink = 2 * n, 2 * n + 1
    # Node 2i = square i "in", 2i + 1 = square i "out". Residual capacities in a dict of dicts.
    capacity: dict[int, dict[int, int]] = {v: {} for v in range(2 * n + 2)}

    def add_edge(u: int, v: int) -> None:
        capacity[u][v] = capacity[u].get(v, 0) + 1
        capacity[v].setdefault(u, 0)

    for i in range(n):
        if not water[i]:
            continue
        add_edge(2 * i, 2 * i + 1)
        for j in neighbours[i]:
            if water[j]:
                add_edge(2 * i + 1, 2 * j)
        if i % cols == 0:
            add_edge(source, 2 * i)
        if i % cols == cols - 1:
            add_edge(2 * i + 1, sink)
    flow = 0
    while True:
        parent = {source: source}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v, cap in capacity[u].items():
                if cap > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return flow
        v = sink
        while v != source:
            u = parent[v]
            capacity[u][v] -= 1
            capacity[v][u] += 1
            v = u
        flow += 1


def _mask_of(flat: Sequence[int], value: int) -> int:
    mask = 0
    for i, v in enumerate(flat):
        if v == value:
            mask |= 1 << i
    return mask


def score(
    grid: Grid,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    *,
    festival_won: bool = True,
) -> ScoreBreakdown:
    """Score one map under the challenge cards in play (module docs; readings in docs/rules/happy-campers.md)."""
    rows, cols = components.rows, components.cols
    challenge_set = frozenset(challenges)
    flat = [v for row in grid for v in row]
    largest = dict.fromkeys(ELEMENTS, 0)
    isolated_empty = 0
    empty_count = 0
    for value, size in _components_by_value(flat, rows, cols):
        if value == Element.EMPTY:
            empty_count += size
            if size == 1:
                isolated_empty += 1
        else:
            element = Element(value)
            if size > largest[element]:
                largest[element] = size
    complete = all(largest[e] > 0 for e in ELEMENTS)
    if complete and Challenge.GREAT_DIVIDE in challenge_set:
        for side in divide_sides(cols):
            present = {grid[r][c] for r in range(rows) for c in side}
            if not all(int(e) in present for e in ELEMENTS):
                complete = False
    empty_points = EMPTY_SQUARE_POINTS * empty_count
    points: dict[Challenge, int] = {}
    for challenge in sorted(challenge_set, key=lambda ch: ch.value):
        points[challenge] = _challenge_points(challenge, flat, rows, cols, isolated_empty, largest, festival_won)
    total = sum(largest.values()) + empty_points + sum(points.values()) if complete else 0
    return ScoreBreakdown(total, complete, largest, empty_points, points)


def _challenge_points(
    challenge: Challenge,
    flat: Sequence[int],
    rows: int,
    cols: int,
    isolated_empty: int,
    largest: dict[Element, int],
    festival_won: bool,
) -> int:
    if challenge is Challenge.PRIVACY:
        return sum(1 for i in _edge_indices(rows, cols) if flat[i] == Element.TREES)
    if challenge is Challenge.DANGEROUS_ANIMALS:
        return -sum(1 for i in _edge_indices(rows, cols) if flat[i] == Element.TENTS)
    if challenge is Challenge.QUICK_PEE:
        toilet_rows = {i // cols for i, v in enumerate(flat) if v == Element.TOILETS}
        toilet_cols = {i % cols for i, v in enumerate(flat) if v == Element.TOILETS}
        return len(toilet_rows) + len(toilet_cols)
    if challenge is Challenge.TENT_TOGETHER:
        return TENT_SQUARE_POINTS * max_disjoint_tent_squares(_mask_of(flat, Element.TENTS), rows, cols)
    if challenge is Challenge.RIVER_TOWN:
        return RIVER_POINTS * max_disjoint_rivers(_mask_of(flat, Element.WATER), rows, cols)
    if challenge is Challenge.NATURE_RESERVE:
        return (NATURE_RESERVE_SINGLE_EMPTY_POINTS - EMPTY_SQUARE_POINTS) * isolated_empty
    if challenge is Challenge.FESTIVAL:
        return FESTIVAL_POINTS if festival_won else 0
    # Noisy Neighbours changes doubles, Great Divide changes completeness: neither scores points.
    return 0


def entertainment_cluster(grid: Grid, components: Components = DEFAULT_COMPONENTS) -> int:
    """Size of the largest entertainment cluster (the Festival comparison)."""
    flat = [v for row in grid for v in row]
    return max(
        (
            size
            for value, size in _components_by_value(flat, components.rows, components.cols)
            if value == Element.ENTERTAINMENT
        ),
        default=0,
    )


def festival_winners(grids: Sequence[Grid], components: Components = DEFAULT_COMPONENTS) -> tuple[bool, ...]:
    """Festival: every player whose entertainment cluster is the biggest wins (ties all win)."""
    sizes = [entertainment_cluster(g, components) for g in grids]
    top = max(sizes, default=0)
    return tuple(size == top for size in sizes)


def render_grid(grid: Grid) -> str:
    """A text picture: . empty, T trees, W toilets (WC), ~ water, A tents, E entertainment."""
    symbols = {0: ".", 1: "T", 2: "W", 3: "~", 4: "A", 5: "E"}
    return "\n".join("".join(symbols[v] for v in row) for row in grid)


def parse_grid(text: str, components: Components | None = None) -> Grid:
    """Inverse of `render_grid` (whitespace-separated lines); handy for hand-made test maps."""
    codes = {".": 0, "T": 1, "W": 2, "~": 3, "A": 4, "E": 5}
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    try:
        grid = tuple(tuple(codes[ch] for ch in line) for line in lines)
    except KeyError as exc:
        raise RulesError("grid", f"unknown map symbol {exc.args[0]!r}") from exc
    if components is not None:
        validate_grid(grid, components, require_connected=False)
    return grid


# --- the game (solver.core.game.Game) -------------------------------------------------------------------

#: What this module exports from `modes` (where the states live: `modes` builds on this module, so the names
#: resolve on first use): the state named after the game, its `GAME` and its setup.
_FROM_MODES = frozenset({"GAME", "HappyCampersState", "HappyCampersSetup", "SoloState", "MultiplayerState"})


def __getattr__(name: str) -> object:
    """`rules.GAME`, `rules.HappyCampersState` and the like, as every game's `rules.py` exports them."""
    if name in _FROM_MODES:
        from campsolver.solver.happy_campers import modes

        return getattr(modes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

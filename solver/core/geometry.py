"""Grid and polyomino geometry shared by the grid games (Happy Campers, Deluxe Camping, Campsite).

Cells are (row, col) tuples, rows counted from the top. Orthogonal adjacency only: diagonals never
count in any of these games.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

Cell = tuple[int, int]
Shape = frozenset[Cell]

ORTHOGONAL_STEPS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def neighbours(cell: Cell, rows: int, cols: int) -> Iterator[Cell]:
    """The orthogonal neighbours of `cell` inside a rows x cols grid."""
    r, c = cell
    for dr, dc in ORTHOGONAL_STEPS:
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            yield nr, nc


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate a set of cells so its bounding box starts at (0, 0)."""
    cells = list(cells)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    min_r = min(r for r, _ in cells)
    min_c = min(c for _, c in cells)
    return frozenset((r - min_r, c - min_c) for r, c in cells)


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one orthogonally connected piece (a polyomino)."""
    remaining = set(cells)
    if not remaining:
        return False
    stack = [remaining.pop()]
    while stack:
        r, c = stack.pop()
        for dr, dc in ORTHOGONAL_STEPS:
            nxt = (r + dr, c + dc)
            if nxt in remaining:
                remaining.remove(nxt)
                stack.append(nxt)
    return not remaining


def orientations(shape: Iterable[Cell]) -> list[Shape]:
    """The distinct rotations and reflections of a shape (1 to 8 of them), in a stable order."""
    base = list(shape)
    seen: list[Shape] = []
    for flip in (False, True):
        cells = [(r, -c) if flip else (r, c) for r, c in base]
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            shape_n = normalise(cells)
            if shape_n not in seen:
                seen.append(shape_n)
    return sorted(seen, key=sorted)


def canonical(shape: Iterable[Cell]) -> Shape:
    """One representative of a free polyomino (same for every rotation and reflection)."""
    return min(orientations(shape), key=sorted)


def placements(shape: Iterable[Cell], rows: int, cols: int) -> list[Shape]:
    """Every position of every orientation of `shape` inside a rows x cols grid (distinct cell sets)."""
    result: list[Shape] = []
    seen: set[Shape] = set()
    for oriented in orientations(shape):
        height = max(r for r, _ in oriented) + 1
        width = max(c for _, c in oriented) + 1
        for dr in range(rows - height + 1):
            for dc in range(cols - width + 1):
                placed = frozenset((r + dr, c + dc) for r, c in oriented)
                if placed not in seen:
                    seen.add(placed)
                    result.append(placed)
    return result


def components(cells: Iterable[Cell]) -> list[set[Cell]]:
    """Orthogonally connected components of a set of cells, largest first."""
    remaining = set(cells)
    found: list[set[Cell]] = []
    while remaining:
        start = remaining.pop()
        piece = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in ORTHOGONAL_STEPS:
                nxt = (r + dr, c + dc)
                if nxt in remaining:
                    remaining.remove(nxt)
                    piece.add(nxt)
                    stack.append(nxt)
        found.append(piece)
    found.sort(key=len, reverse=True)
    return found


def border_cells(rows: int, cols: int) -> set[Cell]:
    """Cells on the edge of the grid."""
    return {(r, c) for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)}


# --- bitmask form: square (r, c) is bit r * cols + c (the fast engines' representation) -------------------


@cache
def neighbour_masks(rows: int, cols: int) -> tuple[int, ...]:
    """For each square index, the bitmask of its orthogonal neighbours on a rows x cols grid."""
    masks = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        masks.append(sum(1 << (nr * cols + nc) for nr, nc in neighbours((r, c), rows, cols)))
    return tuple(masks)


def grow_mask(mask: int, rows: int, cols: int, steps: int = 1) -> int:
    """`mask` plus every square within `steps` orthogonal steps of it."""
    table = neighbour_masks(rows, cols)
    for _ in range(steps):
        grown = mask
        rest = mask
        while rest:
            low = rest & -rest
            grown |= table[low.bit_length() - 1]
            rest ^= low
        mask = grown
    return mask


def mask_cells(mask: int, cols: int) -> frozenset[Cell]:
    """The squares of a bitmask."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(divmod(low.bit_length() - 1, cols))
        mask ^= low
    return frozenset(cells)


def render(rows: int, cols: int, symbol_at: dict[Cell, str], empty: str = ".") -> str:
    """A text picture of a grid, one line per row."""
    return "\n".join("".join(symbol_at.get((r, c), empty) for c in range(cols)) for r in range(rows))

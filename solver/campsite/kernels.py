"""Compiled loops of the round maximum's bounds (numba): the per-square potentials, the neighbourhoods of a table, the
window and out-of-window maxima, the best-`count` sums (plain and coupled) and the undominated rows.

They compute exactly what the array expressions they replace computed (tests/campsite/test_kernels.py holds each
equal to a plain numpy reference on random inputs, and the round bounds' own tests hold the bounds against the rules
model), one pass over the squares instead of a few dozen array operations on small arrays, which the branch and
bound called a hundred thousand times a minute. Each is compiled for its one signature when this module is imported
(so no solve's budget pays for it) and cached beside this file (`make setup` compiles them once; a cached import
takes about 0.4 s).
"""

from __future__ import annotations

import numpy as np
from campsolver.solver.campsite.rules import FAIR_WEATHER_FACTOR, SURROUNDING, Token
from numba import njit, types

#: A terrain token's value where no cover is possible (below any real value).
NEG = -1000
WILDERNESS = int(Token.WILDERNESS)
#: Terrains among 6 bits (the six terrains).
POPCOUNT6 = np.array([bin(m).count("1") for m in range(64)], dtype=np.int16)


#: Below any sum of int16 entries (the start of a running maximum).
_LOWEST = -(1 << 62)

_I16 = types.int16
_BOOL = types.boolean
_INT = types.int64


@njit(
    (
        _I16[:, :],
        _I16[:, :],
        _INT[:],
        _I16[:, :],
        _I16[:],
        types.uint8[:],
        _BOOL[:],
        _BOOL[:],
        _BOOL[:],
        _BOOL[:],
        _I16[:],
        _BOOL,
        _INT[:],
        _INT,
        _INT,
        _BOOL,
        _INT,
        _INT,
    ),
    cache=True,
    nogil=True,
)
def potentials(
    plain_table: np.ndarray,
    doubled_table: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    open_count: np.ndarray,
    seen: np.ndarray,
    fair: np.ndarray,
    fair_coloured: np.ndarray,
    free: np.ndarray,
    bare: np.ndarray,
    room: np.ndarray,
    use_room: bool,
    tokens: np.ndarray,
    terrains: int,
    set_size: int,
    fair_to_come: bool,
    wilderness_cap: int,
    terrains_per_square: int,
) -> np.ndarray:
    """(token, square) potentials over flat squares (`round_bound.potential_values`, which states the rules)."""
    squares = keys.shape[0]
    out = np.zeros((tokens.shape[0], squares), dtype=np.int16)
    popcount = POPCOUNT6
    for s in range(squares):
        if not free[s]:
            continue
        key = keys[s]
        opened = open_count[s]
        for row in range(tokens.shape[0]):
            token = tokens[row]
            if token == WILDERNESS:
                fresh = min(
                    min(terrains_per_square * opened, terrains_per_square * set_size),
                    popcount[terrains & ~seen[s] & 63],
                )
                base = min(wilderness_cap, popcount[seen[s] & 63] + fresh)
                doubled = (fair[s] or opened > 0) if fair_to_come else fair[s]
                value = FAIR_WEATHER_FACTOR * base if doubled else base
                if set_size == 0 and bare[s]:
                    value = 0
                out[row, s] = value
                continue
            plain = plain_table[token, key]
            current = counts[token, s]
            if use_room and plain >= 0:
                plain = min(plain, room[s])
            if plain >= 0:
                with_plain = current + plain
                with_room = current + min(plain, opened - 1)
            else:
                with_plain = NEG
                with_room = NEG
            if fair_coloured[s]:
                value = FAIR_WEATHER_FACTOR * with_plain
            elif fair[s]:
                value = max(with_plain, FAIR_WEATHER_FACTOR * with_room)
            else:
                value = with_plain
            if fair_to_come:
                doubled_cover = doubled_table[token, key]
                if use_room and doubled_cover >= 0:
                    doubled_cover = min(doubled_cover, room[s])
                if doubled_cover >= 0:
                    value = max(value, FAIR_WEATHER_FACTOR * (current + doubled_cover))
            out[row, s] = max(value, 0)
    return out


#: The 8 squares around a square, in the order of the open-square mask's bits.
_SURROUNDING = np.array(SURROUNDING, dtype=np.int64)


@njit(
    (types.uint8[:, :, :], _BOOL[:, :, :], _BOOL[:, :, :], _BOOL[:, :, :], _INT, _INT, _INT, _INT),
    cache=True,
    nogil=True,
)
def neighbourhoods(
    bits: np.ndarray, col: np.ndarray, fair_squares: np.ndarray, cov: np.ndarray, i0: int, i1: int, j0: int, j1: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`round_board._around` over (layer, row, col) arrays: per square of rows i0..i1-1, columns j0..j1-1 of each
    layer, the matches per terrain, terrain bits seen, open squares (8-bit mask), Fair Weather around, bare, free,
    a coloured Fair Weather square around."""
    layers = bits.shape[0]
    h, w = i1 - i0, j1 - j0
    counts = np.zeros((6, layers, h, w), dtype=np.int16)
    seen = np.zeros((layers, h, w), dtype=np.uint8)
    open_mask = np.zeros((layers, h, w), dtype=np.uint16)
    fair = np.zeros((layers, h, w), dtype=np.bool_)
    bare = np.zeros((layers, h, w), dtype=np.bool_)
    free = np.zeros((layers, h, w), dtype=np.bool_)
    fair_coloured = np.zeros((layers, h, w), dtype=np.bool_)
    for layer in range(layers):
        for a in range(h):
            i = i0 + a
            for b in range(w):
                j = j0 + b
                seen_bits = 0
                mask = 0
                near_fair = False
                near_fair_coloured = False
                for bit in range(8):
                    r = i + _SURROUNDING[bit, 0]
                    c = j + _SURROUNDING[bit, 1]
                    square = bits[layer, r, c]
                    seen_bits |= square
                    for terrain in range(6):
                        if square >> terrain & 1:
                            counts[terrain, layer, a, b] += 1
                    coloured = col[layer, r, c]
                    if not coloured:
                        mask |= 1 << bit
                    if fair_squares[layer, r, c]:
                        near_fair = True
                        if coloured:
                            near_fair_coloured = True
                seen[layer, a, b] = seen_bits
                open_mask[layer, a, b] = mask
                fair[layer, a, b] = near_fair
                fair_coloured[layer, a, b] = near_fair_coloured
                bare[layer, a, b] = not cov[layer, i, j]
                free[layer, a, b] = not col[layer, i, j]
    return counts, seen, open_mask, fair, bare, free, fair_coloured


@njit(cache=True, nogil=True)
def _down_max(grid: np.ndarray, height: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid[:, i:i + height, j] (a window sliding down the rows)."""
    tokens, rows, cols = grid.shape
    out = np.empty((tokens, rows - height + 1, cols), dtype=grid.dtype)
    for t in range(tokens):
        for i in range(rows - height + 1):
            for j in range(cols):
                best = grid[t, i, j]
                for k in range(1, height):
                    best = max(best, grid[t, i + k, j])
                out[t, i, j] = best
    return out


@njit((_I16[:, :, :], _INT, _INT), cache=True, nogil=True)
def window_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid[:, i:i + height, j:j + width]: down the rows, then across the columns (the
    same slide on the transposed grid)."""
    down = _down_max(grid, height)
    return np.ascontiguousarray(_down_max(down.transpose(0, 2, 1), width).transpose(0, 2, 1))


@njit((_I16[:, :, :], _INT, _INT), cache=True, nogil=True)
def outside_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid outside rows i..i+height-1 x columns j..j+width-1 (0 if none): the rows
    above and below (prefix maxima of the row maxima), and within the rows the columns left and right."""
    tokens, rows, cols = grid.shape
    out_rows, out_cols = rows - height + 1, cols - width + 1
    out = np.zeros((tokens, out_rows, out_cols), dtype=grid.dtype)
    above = np.zeros(rows + 1, dtype=grid.dtype)  # rows < i
    below = np.zeros(rows + 1, dtype=grid.dtype)  # rows >= i
    left = np.zeros((rows, cols + 1), dtype=grid.dtype)  # columns < j
    right = np.zeros((rows, cols + 1), dtype=grid.dtype)  # columns >= j
    for t in range(tokens):
        for i in range(rows):
            row_max = grid[t, i, 0]
            for j in range(1, cols):
                if grid[t, i, j] > row_max:
                    row_max = grid[t, i, j]
            above[i + 1] = max(above[i], row_max) if i else row_max
            left[i, 0] = 0
            for j in range(cols):
                left[i, j + 1] = max(left[i, j], grid[t, i, j]) if j else grid[t, i, j]
            right[i, cols] = 0
            for j in range(cols - 1, -1, -1):
                right[i, j] = max(right[i, j + 1], grid[t, i, j]) if j < cols - 1 else grid[t, i, j]
        below[rows] = 0
        for i in range(rows - 1, -1, -1):
            row_max = grid[t, i, 0]
            for j in range(1, cols):
                if grid[t, i, j] > row_max:
                    row_max = grid[t, i, j]
            below[i] = max(below[i + 1], row_max) if i < rows - 1 else row_max
        for i in range(out_rows):
            for j in range(out_cols):
                best = max(above[i], below[i + height])
                for k in range(height):
                    best = max(best, left[i + k, j], right[i + k, j + width])
                out[t, i, j] = best
    return out


@njit(cache=True, nogil=True)
def _sum_largest(values: np.ndarray, count: int, largest: np.ndarray) -> int:
    """The sum of the `count` largest of `values` (all of them when there are fewer), by insertion into a descending
    list (`largest`: scratch of at least len(values))."""
    if count <= 0:
        return 0
    kept = 0
    for t in range(values.shape[0]):
        value = np.int64(values[t])
        if kept >= count and value <= largest[count - 1]:
            continue
        k = kept if kept < count else count - 1
        while k > 0 and largest[k - 1] < value:
            largest[k] = largest[k - 1]
            k -= 1
        largest[k] = value
        if kept < count:
            kept += 1
    total = 0
    for k in range(kept):
        total += largest[k]
    return total


@njit((_I16[:, :], _INT), cache=True, nogil=True)
def top_sums(values: np.ndarray, count: int) -> np.ndarray:
    """Per column of (token, n): the sum of its `count` largest entries (all of them when there are fewer)."""
    tokens, columns = values.shape
    out = np.zeros(columns, dtype=np.int64)
    largest = np.empty(tokens, dtype=np.int64)
    column = np.empty(tokens, dtype=np.int64)
    for c in range(columns):
        for t in range(tokens):
            column[t] = values[t, c]
        out[c] = _sum_largest(column, count, largest)
    return out


@njit((_I16[:, :], _I16[:, :], _INT), cache=True, nogil=True)
def coupled_top_sums(near: np.ndarray, options: np.ndarray, count: int) -> np.ndarray:
    """For each row u of `near` (n, token): the largest, over the rows v of `options` (m, token), of the sum of the
    `count` largest entries of max(u, v)."""
    rows, tokens = near.shape
    out = np.zeros(rows, dtype=np.int64)
    largest = np.empty(tokens, dtype=np.int64)
    merged = np.empty(tokens, dtype=np.int64)
    for r in range(rows):
        best = _LOWEST  # below any sum (entries may be NEG); the wrapper refuses an empty `options`
        for o in range(options.shape[0]):
            for t in range(tokens):
                merged[t] = max(near[r, t], options[o, t])
            best = max(best, _sum_largest(merged, count, largest))
        out[r] = best
    return out


@njit((_I16[:, :],), cache=True, nogil=True)
def pareto(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of (n, token) not dominated by another (each entry at most the other's), largest sum first
    (ties in their order)."""
    n, tokens = rows.shape
    sums = np.zeros(n, dtype=np.int64)
    for r in range(n):
        for t in range(tokens):
            sums[r] += rows[r, t]
    order = np.argsort(-sums, kind="mergesort")
    kept = np.empty(n, dtype=np.int64)
    count = 0
    for r in order:
        dominated = False
        for q in range(count):
            other = kept[q]
            at_least = True
            for t in range(tokens):
                if rows[other, t] < rows[r, t]:
                    at_least = False
                    break
            if at_least:
                dominated = True
                break
        if not dominated:
            kept[count] = r
            count += 1
    out = np.empty((count, tokens), dtype=np.int16)
    for q in range(count):
        out[q] = rows[kept[q]]
    return out

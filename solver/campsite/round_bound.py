"""Proven bounds for the round maximum's branch and bound (`round_search`), vectorised over the squares of a node.

A tent's potential on a square (`tent_bound` docstring): its matches now plus the largest union of coloured
squares that a set S of the cards still to come can put on the squares around it that are open now (each card in
one placement of its own that reaches the 3 x 3 window, covers no square coloured now and leaves the tent's square
empty; one of them covers a bare tent square; doubling needs Fair Weather around now or a Fair Weather card of S
reaching the window). `best_cover` depends only on the open squares (8 bits) and whether the square is bare, so
per set S and terrain it is a table of 512 entries, filled as squares of each kind are met; the potentials of every
square of a node are then array lookups. Wilderness: the terrains around now plus at most 2 per open square and
per card of S, at most the terrains of S not around yet, capped at 6.

The bound of laying card X at corner p next (`corner_bounds`), with r turns to go (X and r - 1 more cards Z, any
r - 1 of the cards that can still come; one Z for every tent): a square out of the reach of X at p (its squares and
the ring around) gains only from Z, a square within it from Z and X (X in any placement, a relaxation): each
token's best is at most max(best potential with Z over all squares, best potential with Z + X over the reach), and
the bound is the best `turns` tokens summed, maximised over Z. (Taking the first maximum over all squares, not only
the ones out of reach, changes nothing: within the reach the second term is at least as large.) The last turn
(r = 1, Z empty) compares the points as the table stands with the card's potentials within its reach; the pictures
of a corner whose bound beats the best are then scored exactly.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from campsolver.solver.campsite import kernels
from campsolver.solver.campsite.round_board import PAD, SHAPES, TERRAINS, Around, Board, stacked_reach
from campsolver.solver.campsite.rules import Card, Token
from campsolver.solver.campsite.tent_bound import NO_COVER, best_cover
from campsolver.solver.core.budget import Budget

#: Base points: a terrain tent's 8 squares, Wilderness's 6 terrains; at most 2 new terrains per square.
TERRAIN_CAP = 8
WILDERNESS_CAP = 6
TERRAINS_PER_SQUARE = 2
#: Table entry not computed yet.
UNKNOWN = -2
#: Squares kept around the covered box for the potentials: a card touching the table reaches 4 squares past it.
REGION_MARGIN = 5
_OPEN_COUNT = np.array([bin(m).count("1") for m in range(256)], dtype=np.int16)


class CoverTables:
    """`best_cover` per card set as (terrain, 512) tables (open squares | bare << 8), plain and doubled, filled
    lazily (equal signatures share `best_cover`'s own cache)."""

    def __init__(self, order: Sequence[Card], budget: Budget | None = None) -> None:
        self.order = list(order)
        self.budget = budget
        self.by_set: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, list[tuple], set[int]]] = {}
        self.filled = 0

    def signature(self, cards: Sequence[int], terrain: int) -> tuple:
        bit = 1 << terrain
        chosen = [self.order[i] for i in cards]
        matching = tuple(sorted((tuple(sorted(c.pattern)), c.fair_weather) for c in chosen if c.mask & bit))
        other_any = any(not c.mask & bit for c in chosen)
        other_fair = any(c.fair_weather and not c.mask & bit for c in chosen)
        fair_to_come = any(c.fair_weather for c in chosen)
        # A limit above the cards that can play a part (the matching ones and one other) limits nothing.
        limit = min(len(chosen), len(matching) + (other_any or other_fair))
        return (matching, other_any, other_fair, limit, fair_to_come)

    def for_set(self, key: tuple[int, ...], squares: Squares) -> tuple[np.ndarray, np.ndarray]:
        """The (plain, doubled) tables of the card set `key`, with the entries of `squares` computed (a new entry is
        up to ~1 ms per terrain: the budget is checked)."""
        found = self.by_set.get(key)
        if found is None:
            found = self.by_set[key] = (
                np.full((TERRAINS, 512), UNKNOWN, dtype=np.int16),
                np.full((TERRAINS, 512), UNKNOWN, dtype=np.int16),
                [self.signature(key, terrain) for terrain in range(TERRAINS)],
                set(),
            )
        plain, doubled, signatures, known = found
        if squares.entries <= known:
            return plain, doubled
        for entry in sorted(squares.entries - known):
            if self.budget is not None and self.filled % 8 == 7:
                self.budget.check()
            open_mask, bare = entry & 255, bool(entry >> 8)
            for terrain, (matching, other_any, other_fair, limit, fair_to_come) in enumerate(signatures):
                value = best_cover(open_mask, matching, other_any, other_fair, limit, bare, False)
                plain[terrain, entry] = value
                doubled[terrain, entry] = (
                    best_cover(open_mask, matching, other_any, other_fair, limit, bare, True)
                    if fair_to_come and value >= 0
                    else NO_COVER
                )
            known.add(entry)
            self.filled += 1
        return plain, doubled


def _distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct square keys (open squares | bare << 8), ascending."""
    return np.flatnonzero(np.bincount(keys.reshape(-1), minlength=512))


@dataclass
class Squares:
    """Squares to value (a region of a node, or the reaches of many placements), with what potentials need: the
    arrays flattened once for `kernels.potentials` (a node's region is valued for dozens of card sets)."""

    around: Around
    keys: np.ndarray  # open squares | bare << 8
    open_count: np.ndarray
    room: np.ndarray | None = None  # at most this many squares can still be coloured (None: the open squares)
    entries: frozenset[int] = field(init=False)  # the distinct keys
    flat: tuple[np.ndarray | bool, ...] = field(init=False)  # `kernels.potentials`' square arguments, in order

    def __post_init__(self) -> None:
        around = self.around
        self.entries = frozenset(_distinct(self.keys).tolist())
        open_count = self.open_count.reshape(-1)
        self.flat = (
            self.keys.reshape(-1),
            around.counts.reshape(TERRAINS, -1),
            open_count,
            around.seen.reshape(-1),
            around.fair.reshape(-1),
            around.fair_coloured.reshape(-1),
            around.free.reshape(-1),
            around.bare.reshape(-1),
            open_count if self.room is None else self.room.reshape(-1),
            self.room is not None,
        )

    @classmethod
    def of(cls, around: Around) -> Squares:
        keys = (around.open_mask & 255).astype(np.int64) | (around.bare.astype(np.int64) << 8)
        return cls(around, keys, _OPEN_COUNT[around.open_mask & 255])

    @classmethod
    def placed(cls, around: Around, open_before: np.ndarray) -> Squares:
        """The squares around a card laid ahead of its turn (`around`: with it; `open_before`: the open squares
        without it). The cards still to come may have lain before it, their empty squares under its coloured ones,
        so their placements are those of the table without it (`open_before`), and what they colour is at most the
        squares open with it."""
        keys = (open_before & 255).astype(np.int64) | (around.bare.astype(np.int64) << 8)
        open_count = _OPEN_COUNT[around.open_mask & 255]
        return cls(around, keys, open_count, open_count)


def potential_values(
    tables: CoverTables, tokens: Sequence[Token], key: tuple[int, ...], squares: Squares
) -> np.ndarray:
    """(token, *squares) each token's potential on each square with the card set `key` still to come (int16; 0 on
    a square no tent can end on). A terrain token: its matches now plus the cover, doubled by a Fair Weather
    square around now (for good when one is coloured, never covered; when all are empty, one must stay visible and
    uncoloured, so the cover leaves at least one open square out) or by a Fair Weather card of the set. Wilderness:
    the terrains around now plus at most 2 a square and a card, at most the set's terrains not around yet, capped
    at 6, doubled like the others (nothing on a bare square with no card to come). One compiled pass
    (`kernels.potentials`)."""
    order = tables.order
    plain_table, doubled_table = tables.for_set(key, squares)
    terrains = 0
    for i in key:
        terrains |= order[i].mask
    values = kernels.potentials(
        plain_table,
        doubled_table,
        *squares.flat,
        _token_rows(tuple(tokens)),
        terrains,
        len(key),
        any(order[i].fair_weather for i in key),
        WILDERNESS_CAP,
        TERRAINS_PER_SQUARE,
    )
    return values.reshape((len(tokens), *squares.around.free.shape))


@functools.cache
def _token_rows(tokens: tuple[Token, ...]) -> np.ndarray:
    return np.array([int(token) for token in tokens], dtype=np.int64)


class Region:
    """The squares of a node the potentials look at: the covered box grown by REGION_MARGIN (array indices)."""

    def __init__(self, board: Board) -> None:
        shape = board.frame.shape
        self.i0 = max(1, board.lo[0] - REGION_MARGIN)
        self.j0 = max(1, board.lo[1] - REGION_MARGIN)
        self.i1 = min(shape[0] - 1, board.hi[0] + REGION_MARGIN + 1)
        self.j1 = min(shape[1] - 1, board.hi[1] + REGION_MARGIN + 1)
        self.squares = Squares.of(board.around(self.i0, self.i1, self.j0, self.j1))


class Potentials:
    """Per node: each token's potential on every square of the region for a set of cards to come (memoised per
    set), their maxima, their maxima over every card reach and out of it (memoised per set and outline)."""

    def __init__(self, tables: CoverTables, tokens: Sequence[Token], region: Region, card_key: Sequence[int]) -> None:
        self.tables = tables
        self.tokens = list(tokens)
        self.region = region
        self.card_key = card_key  # index -> index of the first equal card (sets of equal cards share answers)
        self._values: dict[tuple[int, ...], np.ndarray] = {}
        self._maxima: dict[tuple[int, ...], np.ndarray] = {}
        self._windows: dict[tuple[tuple[int, ...], int], np.ndarray] = {}
        self._outside: dict[tuple[tuple[int, ...], int], np.ndarray] = {}
        self._rows: dict[tuple, np.ndarray] = {}

    def key(self, cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(self.card_key[i] for i in cards))

    def values(self, cards: Sequence[int]) -> np.ndarray:
        """(token, row, col) potentials with the cards `cards` still to come (int16)."""
        key = self.key(cards)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = potential_values(self.tables, self.tokens, key, self.region.squares)
        return found

    def maxima(self, cards: Sequence[int]) -> np.ndarray:
        """Each token's best potential over the region with `cards` to come (the region's margin holds bare squares
        no card is around yet, so squares beyond it are no better)."""
        key = self.key(cards)
        found = self._maxima.get(key)
        if found is None:
            found = self._maxima[key] = self.values(key).reshape(len(self.tokens), -1).max(axis=1)
        return found

    def windows(self, cards: Sequence[int], height: int, width: int) -> np.ndarray:
        """(token, i, j): the best potential with `cards` over the height x width squares from region (i, j)."""
        key = self.key(cards)
        memo = (key, height * 16 + width)
        found = self._windows.get(memo)
        if found is None:
            found = self._windows[memo] = window_max(self.values(key), height, width)
        return found

    def corner_rows(self, cards: Sequence[int], shape: int, corners: np.ndarray) -> np.ndarray:
        """(corner, token): the best potential with `cards` within the reach of a card of this outline laid at each
        of `corners` (array indices; a reach partly beyond the region is read at the region's edge, whose squares
        are bare like everything beyond it)."""
        height, width = SHAPES[shape]
        windows = self.windows(cards, height + 2, width + 2)
        rows = np.clip(corners[..., 0] - 1 - self.region.i0, 0, windows.shape[1] - 1)
        cols = np.clip(corners[..., 1] - 1 - self.region.j0, 0, windows.shape[2] - 1)
        return np.moveaxis(windows[:, rows, cols], 0, -1)

    def reach_rows(self, cards: Sequence[int], places: dict[int, np.ndarray], tag: str) -> np.ndarray:
        """(position, token): `corner_rows` at every corner of `places` (outline -> corners), dominated rows left
        out (`pareto_rows`); memoised under `tag` (which places these are)."""
        key = self.key(cards)
        memo = (key, tag, tuple(sorted(places)))
        found = self._rows.get(memo)
        if found is None:
            parts = [self.corner_rows(key, shape, corners) for shape, corners in places.items() if corners.size]
            tokens = len(self.tokens)
            found = self._rows[memo] = (
                pareto_rows(np.concatenate(parts)) if parts else np.zeros((1, tokens), dtype=np.int16)
            )
        return found

    def outside(self, cards: Sequence[int], height: int, width: int) -> np.ndarray:
        """(token, i, j): the best potential with `cards` over the region's squares outside the height x width
        squares from region (i, j) (0 when there are none)."""
        key = self.key(cards)
        memo = (key, height * 16 + width)
        found = self._outside.get(memo)
        if found is None:
            found = self._outside[memo] = outside_max(self.values(key), height, width)
        return found


def outside_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid[:, :, :] outside rows i..i+height-1 x columns j..j+width-1 (0 if empty)."""
    return kernels.outside_max(np.ascontiguousarray(grid, dtype=np.int16), height, width)


def window_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid[:, i:i + height, j:j + width]."""
    return kernels.window_max(np.ascontiguousarray(grid, dtype=np.int16), height, width)


def top_sum(values: np.ndarray, count: int) -> np.ndarray:
    """The sum of the `count` largest entries along axis 0 (potentials: int16)."""
    table = _int16(values)
    if table.ndim == 1:
        return kernels.top_sums(table.reshape(-1, 1), count)[0]
    return kernels.top_sums(table.reshape(table.shape[0], -1), count).reshape(table.shape[1:])


def _int16(values: np.ndarray) -> np.ndarray:
    """`values` as a contiguous int16 array (potentials and their maxima always are: anything else is a bug)."""
    if values.dtype != np.int16:
        raise TypeError(f"potentials are int16, not {values.dtype}")
    return np.ascontiguousarray(values)


def subsets(cards: Sequence[int], size: int, card_key: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct `size`-subsets of `cards` (equal cards are one)."""
    seen = set()
    found = []
    for chosen in itertools.combinations(cards, size):
        key = tuple(sorted(card_key[i] for i in chosen))
        if key not in seen:
            seen.add(key)
            found.append(chosen)
    return found


def node_bound(potentials: Potentials, pool: Sequence[int], left: int, turns: int) -> int:
    """The bound of a node with `left` turns to go: the best `turns` tokens each at its best potential, the same set
    of `left` cards of the pool for every tent, maximised over the sets."""
    best = 0
    for chosen in subsets(pool, min(left, len(pool)), potentials.card_key):
        best = max(best, int(top_sum(potentials.maxima(chosen), turns)))
    return best


def corner_bounds(
    potentials: Potentials,
    card: int,
    rest: Sequence[int],
    left: int,
    turns: int,
    shape_size: tuple[int, int],
    corners: np.ndarray,
) -> np.ndarray:
    """The bound of laying `card` at each of `corners` (array indices, one outline) with `left` turns to go, the
    other `left - 1` cards any of `rest` (module docstring)."""
    region = potentials.region
    height, width = shape_size
    rows = corners[:, 0] - 1 - region.i0
    cols = corners[:, 1] - 1 - region.j0
    if corners.shape[0] and (rows.min() < 0 or cols.min() < 0):
        raise RuntimeError("a card's reach left the region")  # REGION_MARGIN too small
    best = np.zeros(corners.shape[0], dtype=np.int64)
    for others in subsets(rest, min(left - 1, len(rest)), potentials.card_key):
        inside = potentials.windows((*others, card), height + 2, width + 2)[:, rows, cols]
        outside = potentials.maxima(others)[:, None]
        best = np.maximum(best, top_sum(np.maximum(inside, outside), turns))
    return best


def placed_bounds(
    potentials: Potentials,
    board: Board,
    card: int,
    rest: Sequence[int],
    left: int,
    turns: int,
    coloured: np.ndarray,
    corners: np.ndarray,
    places: Places,
    best: int,
) -> np.ndarray:
    """The bound of each child laying `card` as the picture `coloured[k]` at `corners[k]` (one outline), the card
    placed exactly. Per set F of `left - 1` of `rest` (the cards laid after it), the smaller of two bounds:
    - each token at the larger of its best potential with F on the node's squares out of the card's reach and its
      best potential with F on the child's squares within it (the only squares the card changes);
    - one card Z of F at one place q for every tent (the rest F' of F free per tent): each token at the largest of
      its best potential with F' out of the card's reach, with F on the child's squares within it, and with F on
      the node's squares within Z's reach at q (squares in neither reach gain nothing from Z; squares in both are
      in the card's reach); maximised over the places Z may take (`Places`), the smallest over the choice of Z.
    The best `turns` tokens summed, maximised over F. `best`: the coupled bound is worked out only for children
    whose first bound beats it (it can only cut those), and its costly part only where it may cut."""
    region = potentials.region
    count, height, width = coloured.shape
    order = potentials.tables.order
    reach = Squares.of(stacked_reach(board, coloured, order[card], corners, 0))
    rows = corners[:, 0] - 1 - region.i0
    cols = corners[:, 1] - 1 - region.j0
    result = np.zeros(count, dtype=np.int64)
    tokens = len(potentials.tokens)
    for others in subsets(rest, min(left - 1, len(rest)), potentials.card_key):
        key = potentials.key(others)
        inside = (
            potential_values(potentials.tables, potentials.tokens, key, reach).reshape(tokens, count, -1).max(axis=2)
        )
        outside = potentials.outside(key, height + 2, width + 2)[:, rows, cols]
        bound = top_sum(np.maximum(inside, outside), turns)
        live = np.nonzero((bound > best) & (bound > result))[0]  # only these can still be cut, or raise the max
        if len(key) and live.size:
            coupled = bound[live]
            for fixed in dict.fromkeys(key):
                free = list(key)
                free.remove(fixed)
                free_out = potentials.outside(tuple(free), height + 2, width + 2)[:, rows[live], cols[live]]
                near = np.maximum(inside[:, live], free_out).T  # (child, token)
                outlines = places.outlines[fixed]
                value = coupled_top_sum(near, potentials.reach_rows(key, places.of(outlines), places.tag), turns)
                if places.last:
                    # Z is the last card: it may also lie where it touches only the card laid now. Worked out only
                    # where it may cut the child (elsewhere the first bound stands in for this one).
                    low = np.nonzero(value <= best)[0]
                    if low.size:
                        touching = _near_bound(
                            potentials, key, outlines, corners[live[low]], height, width, near[low], turns
                        )
                        value[low] = np.maximum(value[low], touching)
                    value[value > best] = np.maximum(value[value > best], bound[live][value > best])
                coupled = np.minimum(coupled, value)
            bound[live] = coupled
        result = np.maximum(result, bound)
    return result


class Places:
    """Where a card still to come may lie, for the coupled bound: with one turn after the child (it is the last
    card) the node's legal corners (plus, per child, the corners touching the child's card: `_near_bound`); with
    more, every corner not over a coloured square (later cards may make any of them touch)."""

    def __init__(
        self,
        board: Board,
        region: Region,
        left_after: int,
        legal: dict[int, np.ndarray],
        outlines: dict[int, tuple[int, ...]],
    ) -> None:
        self.last = left_after == 1
        self.tag = "legal" if self.last else "open"
        self.outlines = outlines
        if self.last:
            self.corners = legal
        else:
            self.corners = {
                shape: board.open_corners(shape, region.i0, region.i1, region.j0, region.j1) for shape in (0, 1)
            }

    def of(self, outlines: Sequence[int]) -> dict[int, np.ndarray]:
        return {shape: self.corners[shape] for shape in outlines}


def _near_bound(
    potentials: Potentials,
    key: tuple[int, ...],
    outlines: Sequence[int],
    corners: np.ndarray,
    height: int,
    width: int,
    near: np.ndarray,
    turns: int,
) -> np.ndarray:
    """The coupled bound over the corners of the last card that touch (or overlap) the child's card at `corners`:
    every corner whose outline reaches within one square of the card's, legal or not (an upper bound)."""
    best = np.zeros(corners.shape[0], dtype=np.int64)
    for shape in outlines:
        other_h, other_w = SHAPES[shape]
        offsets = np.array(
            [(di, dj) for di in range(-other_h, height + 1) for dj in range(-other_w, width + 1)], dtype=np.int64
        )
        places = corners[:, None, :] + offsets[None, :, :]  # (child, offset, 2)
        options = potentials.corner_rows(key, shape, places)  # (child, offset, token)
        block = np.maximum(near[:, None, :], options)
        tokens = block.shape[2]
        if turns < tokens:
            block = np.sort(block, axis=2)[:, :, tokens - turns :]
        best = np.maximum(best, block.sum(axis=2, dtype=np.int64).max(axis=1))
    return best


def coupled_top_sum(near: np.ndarray, options: np.ndarray, turns: int) -> np.ndarray:
    """For each row u of `near` (n, token): the largest, over the rows v of `options` (m, token), of the sum of the
    `turns` largest entries of max(u, v)."""
    if options.shape[0] == 0:
        raise ValueError("no option rows: the largest over none is undefined")
    return kernels.coupled_top_sums(_int16(near), _int16(options), turns)


def pareto_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of (n, token) not dominated by another row (each entry at most the other's): only those can
    give a largest `coupled_top_sum`, which grows with every entry."""
    return kernels.pareto(_int16(rows))


def coupled_node_bound(potentials: Potentials, pool: Sequence[int], left: int, turns: int, places: Places) -> int:
    """`node_bound` with one card of each set at one position for every tent: per set F of `left` cards of the
    pool and card Z of it, each token at the larger of its best potential with F' = F - Z anywhere and its best
    potential with F within Z's reach at q; maximised over q, the smallest over Z, the largest over F."""
    best = 0
    for chosen in subsets(pool, min(left, len(pool)), potentials.card_key):
        key = potentials.key(chosen)
        bound = int(top_sum(potentials.maxima(key), turns))
        for fixed in dict.fromkeys(key):
            free = list(key)
            free.remove(fixed)
            near = potentials.maxima(tuple(free))[None, :]
            options = potentials.reach_rows(key, places.of(places.outlines[fixed]), places.tag)
            bound = min(bound, int(coupled_top_sum(near, options, turns)[0]))
        best = max(best, bound)
    return best


def near_corners(board: Board, shape: int, distance: int = 3) -> np.ndarray:
    """Array corners where a card of this outline covers no square coloured now, lies in the frame's box (where every
    legal card lies) and within `distance` squares of the covered box. A card further away meets nothing laid around
    the squares it reaches (their 8 squares are bare or its own), so it is worth what a card at `distance` is worth
    on the same side (the squares it reaches look alike up to a translation)."""
    height, width = SHAPES[shape]
    rows, cols = board.frame.shape
    i0 = max(PAD, board.lo[0] - distance - height + 1)
    j0 = max(PAD, board.lo[1] - distance - width + 1)
    i1 = min(rows - PAD - height + 1, board.hi[0] + distance + 1)
    j1 = min(cols - PAD - width + 1, board.hi[1] + distance + 1)
    return board.open_corners(shape, i0, i1, j0, j1)


def fixed_card_values(
    potentials: Potentials,
    board: Board,
    card: int,
    free: Sequence[int],
    pictures: dict[int, np.ndarray],
    corners: dict[int, np.ndarray],
    turns: int,
    per_place: dict[int, np.ndarray] | None = None,
) -> int:
    """The bound of a node when `card` lies in one place for every tent and the cards `free` are laid too (each in a
    placement of its own per tent): the largest, over every place of the card (each picture at each corner of
    `corners`, outline -> array corners), of the best `turns` tokens each at the larger of its best potential with
    `free` anywhere on the node (the card's squares out of its window) and its best potential with `free` on the
    squares the card reaches, the card laid there now.

    Why laying it now is a relaxation of every order: on the final table each square the card covers is its coloured
    square (never covered) or its empty square (possibly covered later), whenever it was laid, since it can cover no
    coloured square; so the final coloured squares around a tent it reaches are coloured now, the card's, or coloured
    later by one of `free` on a square open after the card. The cards of `free` may have lain before it (their empty
    squares under its coloured ones), so their placements are taken on the table without it, and the squares they
    colour are capped by the squares open with it (`Squares.placed`).

    `per_place` (outline -> array, filled when given): the bound with the card at each place (picture-major: the
    pictures' rows of `pictures[outline]` in turn, each at every corner of `corners[outline]`)."""
    order = potentials.tables.order
    key = potentials.key(free)
    outside = potentials.maxima(key)
    best = int(top_sum(outside, turns))  # the card where it reaches no square a tent can use
    tokens = len(potentials.tokens)
    for shape, coloured in pictures.items():
        where = corners[shape]
        if not where.shape[0]:
            continue
        count = coloured.shape[0]
        stacked = np.repeat(coloured, where.shape[0], axis=0)
        at = np.tile(where, (count, 1))
        laid = stacked_reach(board, stacked, order[card], at, 0)
        before = stacked_reach(board, np.zeros_like(stacked), order[card], at, 0).open_mask
        squares = Squares.placed(laid, before)
        inside = potential_values(potentials.tables, potentials.tokens, key, squares)
        inside = inside.reshape(tokens, at.shape[0], -1).max(axis=2)
        values = top_sum(np.maximum(inside, outside[:, None]), turns)
        if per_place is not None:
            per_place[shape] = values.astype(np.int64)
        best = max(best, int(values.max()))
    return best


def placed_card_bound(
    potentials: Potentials,
    board: Board,
    pool: Sequence[int],
    left: int,
    turns: int,
    pictures: dict[int, dict[int, np.ndarray]],
    budget: Budget | None = None,
) -> int:
    """`node_bound` with each card to come in turn laid in one place for every tent (`fixed_card_values`): per set F
    of `left` cards of the pool, the smallest over the cards Z of F of the bound with Z in one place and F - Z free,
    never above `node_bound`'s value for F; the largest over the sets F. `pictures`: card index -> outline -> its
    pictures' coloured squares (n, height, width)."""
    corners = {shape: near_corners(board, shape) for shape in (0, 1)}
    order = potentials.tables.order
    best = 0
    for chosen in subsets(pool, min(left, len(pool)), potentials.card_key):
        bound = int(top_sum(potentials.maxima(chosen), turns))
        if bound <= best:
            continue
        # Fair Weather cards first (one place ties every doubled tent to it), then the most coloured squares.
        fixed_order = sorted(dict.fromkeys(chosen), key=lambda i: (not order[i].fair_weather, -len(order[i].pattern)))
        for card in fixed_order:
            if budget is not None:
                budget.check()  # up to ~0.1 CPU-s a card
            free = list(chosen)
            free.remove(card)
            value = fixed_card_values(potentials, board, card, free, pictures[card], corners, turns)
            bound = min(bound, value)
            if bound <= best:
                break
        best = max(best, bound)
    return best


@dataclass
class FirstCardBounds:
    """`first_card_bounds`: per card key of the hand, the bound of laying that card first at each place (outline ->
    array over its pictures x `corners[outline]`), and at any place."""

    corners: dict[int, np.ndarray]
    places: dict[int, dict[int, np.ndarray]]
    anywhere: dict[int, int]

    def of(self, key: int, shape: int, picture: int, count: int, i: int, j: int) -> int | None:
        """The bound with card `key` laid first as its `picture`-th of `count` pictures of outline `shape` at array
        corner (i, j); None when that place is not among the corners bounded (then `anywhere` holds)."""
        where = self.corners[shape]
        hits = np.nonzero((where[:, 0] == i) & (where[:, 1] == j))[0]
        values = self.places.get(key, {}).get(shape)
        if not hits.size or values is None or values.shape[0] != count * where.shape[0]:
            return None
        return int(values[picture * where.shape[0] + int(hits[0])])


def first_card_bounds(
    potentials: Potentials,
    board: Board,
    hand: Sequence[int],
    pool: Sequence[int],
    left: int,
    turns: int,
    pictures: dict[int, dict[int, np.ndarray]],
    budget: Budget | None = None,
) -> FirstCardBounds:
    """`placed_card_bound` split by the card laid first and its place: for each card X of the hand, the largest over
    the sets F of `left` cards of the pool that hold X of the smallest of: `node_bound`'s value for F, the bound with
    each other card Z of F in one place (`fixed_card_values`, F - Z free), and the bound with X at that place (F - X
    free). Why it bounds every round that lays X there first: that round lays some such F, X at that place, and
    each card Z of F at some place of its own, so each term bounds it (the argument of `fixed_card_values`); its
    largest over the places is at most the node's own bound (`placed_card_bound`), which takes X anywhere."""
    corners = {shape: near_corners(board, shape) for shape in (0, 1)}
    key_of = potentials.card_key
    places: dict[int, dict[int, np.ndarray]] = {}
    anywhere: dict[int, int] = {}
    for first in dict.fromkeys(key_of[i] for i in hand):
        card = next(i for i in hand if key_of[i] == first)
        best = {
            shape: np.zeros(coloured.shape[0] * corners[shape].shape[0], dtype=np.int64)
            for shape, coloured in pictures[card].items()
        }
        for chosen in subsets(pool, min(left, len(pool)), key_of):
            if first not in {key_of[i] for i in chosen}:
                continue
            cap = int(top_sum(potentials.maxima(chosen), turns))
            low = min((int(v.min()) for v in best.values() if v.size), default=cap)  # no place left to raise
            if cap <= low:
                continue
            for other in dict.fromkeys(i for i in chosen if key_of[i] != first):
                if budget is not None:
                    budget.check()
                free = list(chosen)
                free.remove(other)
                cap = min(cap, fixed_card_values(potentials, board, other, free, pictures[other], corners, turns))
                if cap <= low:
                    break
            if cap <= low:
                continue
            free = list(chosen)
            free.remove(next(i for i in chosen if key_of[i] == first))
            at_place: dict[int, np.ndarray] = {}
            if budget is not None:
                budget.check()
            fixed_card_values(potentials, board, card, free, pictures[card], corners, turns, at_place)
            for shape, values in at_place.items():
                values = np.minimum(values, cap)
                best[shape] = np.maximum(best[shape], values)
        places[first] = best
        anywhere[first] = max((int(v.max()) for v in best.values() if v.size), default=0)
    return FirstCardBounds(corners, places, anywhere)

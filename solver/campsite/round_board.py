"""The play area of a solo round as arrays over a fixed frame: the hot-loop table of `round_search`.

The rules model (`rules.py`) stays the one definition of the rules; this module is a faster picture of the same
table for the round maximum, held equal to it by tests/campsite/test_round_board.py on random states (legal
placements, the points of every token on every free square, the laying turn of every square).

The frame: every card of a T-turn round lies within the starting cards' box grown by 3 squares per turn (a card
touches what is down and is at most 3 squares long; `round_search` docstring), so the table is a fixed array over
that box with a margin of `PAD` squares (the 8 squares around any square a card reaches stay inside). Per square:
covered?, coloured?, the terrain bits of a coloured square, a visible Fair Weather square?, the turn its top card
was laid (-1 bare). A card laid is a slice update; the legal corners of an outline are one pass of shifted
slices (touch: the outline over the covered squares grown by one square sideways; blocked: the outline over a
coloured square); the 8-square neighbourhoods of every square (matches per terrain, terrains seen, open squares,
Fair Weather around) are 8 shifted slices each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from campsolver.solver.campsite import kernels
from campsolver.solver.campsite.rules import (
    CARD_COLS,
    CARD_ROWS,
    FAIR_WEATHER_FACTOR,
    HAND_SIZE,
    STARTING_CARDS,
    Card,
    Cell,
    Placement,
    Token,
)

#: Squares of margin around the round's box: a card's reach (its squares and the ring around) plus the 8 squares
#: around each square of the reach.
PAD = 2
#: A card reaches at most this many squares past the squares it touches (its long side).
REACH_PER_TURN = max(CARD_ROWS, CARD_COLS)
TERRAINS = 6
#: Shapes: 0 landscape (2 x 3), 1 portrait (3 x 2).
SHAPES = ((CARD_ROWS, CARD_COLS), (CARD_COLS, CARD_ROWS))
_POPCOUNT6 = kernels.POPCOUNT6


@dataclass(frozen=True)
class Picture:
    """One distinct look of a card: rotation, outline (0 landscape, 1 portrait) and its coloured squares."""

    index: int  # the card's index in the order
    card: Card
    rotation: int
    shape: int
    coloured: np.ndarray  # bool (height, width)
    squares: tuple[tuple[Cell, bool], ...]  # (offset, coloured?) as `Placement.squares`

    @property
    def size(self) -> tuple[int, int]:
        return SHAPES[self.shape]


@cache
def _card_pictures(card: Card) -> tuple[tuple[int, tuple[tuple[Cell, bool], ...]], ...]:
    seen = set()
    found = []
    for rotation in (0, 1, 2, 3):
        squares = tuple(sorted(Placement(card, 0, 0, rotation).squares().items()))
        if squares not in seen:
            seen.add(squares)
            found.append((rotation, squares))
    return tuple(found)


def card_pictures(index: int, card: Card) -> list[Picture]:
    """The card's rotations with distinct pictures (a 180-degree symmetric pattern has two, not four)."""
    found = []
    for rotation, squares in _card_pictures(card):
        shape = rotation % 2
        height, width = SHAPES[shape]
        coloured = np.zeros((height, width), dtype=bool)
        for (dr, dc), is_coloured in squares:
            coloured[dr, dc] = is_coloured
        found.append(Picture(index, card, rotation, shape, coloured, squares))
    return found


class Frame:
    """The fixed array frame of a `turns`-turn round: array (i, j) is table cell (i - origin, j - origin)."""

    def __init__(self, turns: int) -> None:
        growth = REACH_PER_TURN * turns
        self.turns = turns
        self.box = (-growth, -growth, CARD_ROWS - 1 + growth, STARTING_CARDS * CARD_COLS - 1 + growth)
        self.origin = growth + PAD  # array index of table row/col 0
        self.shape = (self.box[2] - self.box[0] + 1 + 2 * PAD, self.box[3] - self.box[1] + 1 + 2 * PAD)

    def index(self, cell: Cell) -> tuple[int, int]:
        return cell[0] + self.origin, cell[1] + self.origin

    def cell(self, i: int, j: int) -> Cell:
        return i - self.origin, j - self.origin

    def inside(self, cell: Cell) -> bool:
        return self.box[0] <= cell[0] <= self.box[2] and self.box[1] <= cell[1] <= self.box[3]


class Board:
    """The table of one node: arrays over the frame (copied for a child, updated by one slice)."""

    __slots__ = ("bits", "col", "cov", "fair", "frame", "hi", "lo", "time")

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.cov = np.zeros(frame.shape, dtype=bool)
        self.col = np.zeros(frame.shape, dtype=bool)
        self.bits = np.zeros(frame.shape, dtype=np.uint8)  # terrain bits of coloured squares
        self.fair = np.zeros(frame.shape, dtype=bool)  # visible squares of a Fair Weather card
        self.time = np.full(frame.shape, -1, dtype=np.int8)  # turn the top card was laid (-1 bare)
        self.lo = (frame.shape[0], frame.shape[1])  # covered squares' bounding box (array indices)
        self.hi = (-1, -1)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.frame = self.frame
        other.cov = self.cov.copy()
        other.col = self.col.copy()
        other.bits = self.bits.copy()
        other.fair = self.fair.copy()
        other.time = self.time.copy()
        other.lo, other.hi = self.lo, self.hi
        return other

    def lay(self, picture: Picture, i: int, j: int, turn: int) -> None:
        """Lay `picture` with its top-left corner at array (i, j) on `turn` (legality is the caller's)."""
        height, width = picture.size
        rows, cols = slice(i, i + height), slice(j, j + width)
        self.cov[rows, cols] = True
        self.col[rows, cols] |= picture.coloured
        self.bits[rows, cols] |= picture.coloured.astype(np.uint8) * np.uint8(picture.card.mask)
        self.fair[rows, cols] = picture.card.fair_weather
        self.time[rows, cols] = turn
        self.lo = (min(self.lo[0], i), min(self.lo[1], j))
        self.hi = (max(self.hi[0], i + height - 1), max(self.hi[1], j + width - 1))

    def child(self, picture: Picture, i: int, j: int, turn: int) -> Board:
        other = self.copy()
        other.lay(picture, i, j, turn)
        return other

    # -- legality ------------------------------------------------------------------------------------------------

    def legal_corners(self, shape: int) -> np.ndarray:
        """Array corners (i, j) of the legal placements of this outline now, as an (n, 2) array in row-major order:
        the card stays in the box, overlaps or shares a side with a covered square, covers no coloured square."""
        height, width = SHAPES[shape]
        frame = self.frame
        top, left = PAD, PAD
        rows = frame.shape[0] - 2 * PAD - height + 1
        cols = frame.shape[1] - 2 * PAD - width + 1
        cov = self.cov
        near = cov.copy()
        near[1:, :] |= cov[:-1, :]
        near[:-1, :] |= cov[1:, :]
        near[:, 1:] |= cov[:, :-1]
        near[:, :-1] |= cov[:, 1:]
        # Only corners within reach of the covered box can touch: restrict to it (a big frame, a small table).
        i0 = max(top, self.lo[0] - height)
        j0 = max(left, self.lo[1] - width)
        i1 = min(top + rows, self.hi[0] + 2)
        j1 = min(left + cols, self.hi[1] + 2)
        if i1 <= i0 or j1 <= j0:
            return np.zeros((0, 2), dtype=np.int64)
        touch = np.zeros((i1 - i0, j1 - j0), dtype=bool)
        blocked = np.zeros_like(touch)
        for dr in range(height):
            for dc in range(width):
                touch |= near[i0 + dr : i1 + dr, j0 + dc : j1 + dc]
                blocked |= self.col[i0 + dr : i1 + dr, j0 + dc : j1 + dc]
        legal = np.argwhere(touch & ~blocked)
        legal[:, 0] += i0
        legal[:, 1] += j0
        return legal

    def open_corners(self, shape: int, i0: int, i1: int, j0: int, j1: int) -> np.ndarray:
        """Array corners (i, j), i0 <= i < i1 and j0 <= j < j1, where this outline covers no coloured square: every
        place a card of it may ever lie there (coloured squares are never covered), as an (n, 2) array."""
        height, width = SHAPES[shape]
        i1 = min(i1, self.frame.shape[0] - height + 1)
        j1 = min(j1, self.frame.shape[1] - width + 1)
        blocked = np.zeros((max(0, i1 - i0), max(0, j1 - j0)), dtype=bool)
        if not blocked.size:
            return np.zeros((0, 2), dtype=np.int64)
        for dr in range(height):
            for dc in range(width):
                blocked |= self.col[i0 + dr : i1 + dr, j0 + dc : j1 + dc]
        found = np.argwhere(~blocked)
        found[:, 0] += i0
        found[:, 1] += j0
        return found

    # -- the squares around each square ----------------------------------------------------------------------------

    def around(self, i0: int, i1: int, j0: int, j1: int) -> Around:
        """The 8-square neighbourhoods of the squares in rows i0..i1-1, columns j0..j1-1 (one square of frame
        margin needed around them)."""
        return _around(self.bits, self.col, self.fair, self.cov, i0, i1, j0, j1)

    def reach_squares(
        self, picture: Picture, i: int, j: int, turn: int, tokens: Sequence[Token]
    ) -> tuple[tuple[int, int, int, int], list[tuple[Cell, int, list[int]]]]:
        """Lay `picture` at array (i, j) on `turn` on a copy of the squares around it only, and score the visible
        empty squares of its reach (its squares and the ring around; the only squares whose points change):
        (the reach as array rows i0..i1-1, columns j0..j1-1; (cell, laying turn, points per token) of each)."""
        height, width = picture.size
        i0, i1, j0, j1 = i - 2, i + height + 2, j - 2, j + width + 2
        bits = self.bits[i0:i1, j0:j1].copy()
        col = self.col[i0:i1, j0:j1].copy()
        fair = self.fair[i0:i1, j0:j1].copy()
        cov = self.cov[i0:i1, j0:j1].copy()
        time = self.time[i0:i1, j0:j1].copy()
        rows, cols = slice(2, 2 + height), slice(2, 2 + width)
        cov[rows, cols] = True
        col[rows, cols] |= picture.coloured
        bits[rows, cols] |= picture.coloured.astype(np.uint8) * np.uint8(picture.card.mask)
        fair[rows, cols] = picture.card.fair_weather
        time[rows, cols] = turn
        around = _around(bits, col, fair, cov, 1, height + 3, 1, width + 3)
        points = around.points(tokens)
        visible = cov[1 : height + 3, 1 : width + 3] & ~col[1 : height + 3, 1 : width + 3]
        times = time[1 : height + 3, 1 : width + 3]
        found = []
        for a, b in np.argwhere(visible).tolist():
            found.append((self.frame.cell(i0 + 1 + a, j0 + 1 + b), int(times[a, b]), points[:, a, b].tolist()))
        return (i - 1, i + height + 1, j - 1, j + width + 1), found


def stacked_reach(board: Board, coloured: np.ndarray, card: Card, corners: np.ndarray, turn: int) -> Around:
    """`Board.reach_squares` for many placements of one card at once, as arrays: placement k lays the picture
    `coloured[k]` (bool, height x width) at array corner `corners[k]`; the answer is the neighbourhoods of the
    squares of each reach (placement, row, col), without the laying turns."""
    _, height, width = coloured.shape
    rows = corners[:, 0:1] + np.arange(-2, height + 2)[None, :]
    cols = corners[:, 1:2] + np.arange(-2, width + 2)[None, :]
    rows, cols = rows[:, :, None], cols[:, None, :]
    bits = board.bits[rows, cols]
    col = board.col[rows, cols]
    fair = board.fair[rows, cols]
    cov = board.cov[rows, cols]
    inner = (slice(None), slice(2, 2 + height), slice(2, 2 + width))
    cov[inner] = True
    col[inner] |= coloured
    bits[inner] |= coloured.astype(np.uint8) * np.uint8(card.mask)
    fair[inner] = card.fair_weather
    return _around(bits, col, fair, cov, 1, height + 3, 1, width + 3)


def _around(
    bits: np.ndarray, col: np.ndarray, fair_squares: np.ndarray, cov: np.ndarray, i0: int, i1: int, j0: int, j1: int
) -> Around:
    """The neighbourhoods of rows i0..i1-1, columns j0..j1-1 of the last two axes (any leading axes kept): per
    square the matches per terrain, the terrain bits seen, the open squares (bit k: `SURROUNDING[k]` not
    coloured), Fair Weather around, and a coloured Fair Weather square around (`kernels.neighbourhoods`)."""
    lead = bits.shape[:-2]
    layers = (-1, *bits.shape[-2:])
    found = kernels.neighbourhoods(
        np.ascontiguousarray(bits).reshape(layers),
        np.ascontiguousarray(col).reshape(layers),
        np.ascontiguousarray(fair_squares).reshape(layers),
        np.ascontiguousarray(cov).reshape(layers),
        i0,
        i1,
        j0,
        j1,
    )
    counts, seen, open_mask, fair, bare, free, fair_coloured = found
    size = (*lead, i1 - i0, j1 - j0)
    return Around(
        counts.reshape((TERRAINS, *size)),
        seen.reshape(size),
        open_mask.reshape(size),
        fair.reshape(size),
        bare.reshape(size),
        free.reshape(size),
        fair_coloured.reshape(size),
    )


@dataclass
class Around:
    """Per square of a region: matches per terrain, terrain bits seen, open squares (8-bit mask), Fair Weather
    around, bare?, a tent may end there (not coloured)?, a coloured Fair Weather square around (it stays: coloured
    squares are never covered; an empty one may be)?"""

    counts: np.ndarray
    seen: np.ndarray
    open_mask: np.ndarray
    fair: np.ndarray
    bare: np.ndarray
    free: np.ndarray
    fair_coloured: np.ndarray

    def points(self, tokens: Sequence[Token]) -> np.ndarray:
        """(token, row, col): each token's points on each square as the table stands (the rules model's
        `tent_points`; meaningful on visible empty squares)."""
        factor = np.where(self.fair, FAIR_WEATHER_FACTOR, 1).astype(np.int16)  # any leading axes kept
        rows = []
        for token in tokens:
            base = _POPCOUNT6[self.seen] if token is Token.WILDERNESS else self.counts[int(token)]
            rows.append(base * factor)
        return np.stack(rows)


def round_card_count(order: Sequence[Card], turns: int, hand_size: int = HAND_SIZE) -> int:
    """How many cards of a solo round's deck order it can see: the starting cards, the first hand and one draw a
    turn but the last (fewer when the order is shorter)."""
    return min(len(order), STARTING_CARDS + hand_size + turns - 1)


def start_board(order: Sequence[Card], frame: Frame) -> Board:
    """The starting play area (order[0] and order[1] side by side, turn 0)."""
    board = Board(frame)
    for slot in range(STARTING_CARDS):
        picture = card_pictures(slot, order[slot])[0]  # rotation 0 is always the first picture
        i, j = frame.index((0, CARD_COLS * slot))
        board.lay(picture, i, j, 0)
    return board


def final_squares(board: Board, tokens: Sequence[Token]) -> list[tuple[Cell, int, list[int]]]:
    """(cell, turn its top card was laid, points of each token) for every visible empty square (for
    `round_search.best_tents`)."""
    i0, j0 = board.lo
    i1, j1 = board.hi[0] + 1, board.hi[1] + 1
    around = board.around(i0, i1, j0, j1)
    points = around.points(tokens)
    visible = board.cov[i0:i1, j0:j1] & ~board.col[i0:i1, j0:j1]
    times = board.time[i0:i1, j0:j1]
    found = []
    for i, j in np.argwhere(visible).tolist():
        found.append((board.frame.cell(i + i0, j + j0), int(times[i, j]), points[:, i, j].tolist()))
    return found

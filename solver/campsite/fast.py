"""A numpy picture of a Campsite table: every card placement of a hand and every tent square it leaves, valued
in a few milliseconds (the hint's engine, its look-ahead and its play-outs).

The rules model (`rules.py`) stays the one authority: this module only re-computes, with arrays, what the rules
model says a placement does (which corners are legal, how each pitched tent's points change, what each free
square would score for each token). Tests compare every number with the rules model and `evaluate.TurnEvaluator`
(tests/campsite/test_hint_fast.py).

Layout: the table lives in arrays over a window of the grid (array index = table cell - origin) with at least
`PAD` empty cells around the cards, so every legal corner and every square within reach of one lies inside.
Per cell: covered?, the coloured top square's terrain bits, Fair Weather?, tent?; derived per cell: how many of
its 8 surrounding squares feature each terrain, the union of their terrain bits, which of them are Fair Weather
(an 8-bit mask in `rules.SURROUNDING` order) and how many are open (no card, or an empty square without a tent).

A card placement changes only its reach (its rectangle grown by one square): per picture (card turned) a
lookup table over the reach gives which surrounding squares of each reach cell the card covers and colours,
so the new value of every reach square and every pitched tent is a few array lookups per placement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from campsolver.solver.campsite.rules import (
    CARD_COLS,
    CARD_ROWS,
    SURROUNDING,
    Card,
    Placement,
    Table,
    Tent,
    Token,
    _rotated_squares,
)

#: Empty cells kept around the cards' bounding box (a legal card reaches 3 cells out; its reach one more; the
#: surroundings of a reach cell one more).
PAD = 6
#: Tokens: 0-5 the terrains (bit 1 << k), 6 Wilderness.
WILD = int(Token.WILDERNESS)
N_TOKENS = 7
POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int8)
POPCOUNT16 = POPCOUNT.astype(np.int16)
_SIX = np.arange(6, dtype=np.uint8)


@dataclass(frozen=True)
class Picture:
    """A card turned: its outline, coloured cells, terrain bits and Fair Weather, and the lookup tables over its
    reach (positions q = (dr, dc) relative to the corner, dr in -1..height, dc in -1..width, row-major)."""

    card: Card
    rotation: int
    height: int
    width: int
    mask: int
    fair: bool
    colbits: np.ndarray  # (reach,) uint8: which of the 8 squares around q the card colours
    footbits: np.ndarray  # (reach,) uint8: which of the 8 squares around q the card covers
    infoot: np.ndarray  # (reach,) bool: q lies on the card
    cellcol: np.ndarray  # (reach,) bool: q is a coloured square of the card


_PICTURES: dict[tuple, Picture] = {}


def picture(card: Card, rotation: int) -> Picture:
    key = (card, rotation)
    found = _PICTURES.get(key)
    if found is not None:
        return found
    squares = dict(_rotated_squares(card.pattern, rotation))
    height, width = (CARD_ROWS, CARD_COLS) if rotation % 2 == 0 else (CARD_COLS, CARD_ROWS)
    colbits, footbits, infoot, cellcol = [], [], [], []
    for dr in range(-1, height + 1):
        for dc in range(-1, width + 1):
            cb = fb = 0
            for bit, (sr, sc) in enumerate(SURROUNDING):
                cell = (dr + sr, dc + sc)
                if cell in squares:
                    fb |= 1 << bit
                    if squares[cell]:
                        cb |= 1 << bit
            colbits.append(cb)
            footbits.append(fb)
            infoot.append((dr, dc) in squares)
            cellcol.append(squares.get((dr, dc), False))
    found = Picture(
        card,
        rotation,
        height,
        width,
        card.mask,
        card.fair_weather,
        np.array(colbits, dtype=np.uint8),
        np.array(footbits, dtype=np.uint8),
        np.array(infoot, dtype=bool),
        np.array(cellcol, dtype=bool),
    )
    _PICTURES[key] = found
    return found


_LUTS: dict[int, np.ndarray] = {}


def _luts(pic: Picture) -> np.ndarray:
    """The picture's reach lookup tables as one (4, 20) uint8 array: colbits, footbits, infoot, cellcol."""
    key = id(pic)
    found = _LUTS.get(key)
    if found is None:
        found = np.stack([pic.colbits, pic.footbits, pic.infoot.astype(np.uint8), pic.cellcol.astype(np.uint8)])
        _LUTS[key] = found
    return found


def _stack_luts(pictures: Sequence[Picture]) -> np.ndarray:
    return np.stack([_luts(p) for p in pictures])


def _info(pictures: Sequence[Picture]) -> np.ndarray:
    """(mask, fair, height, width) per picture."""
    return np.array([(p.mask, p.fair, p.height, p.width) for p in pictures], dtype=np.int64)


_HANDS: dict[tuple[Card, ...], list[Picture]] = {}


def hand_pictures(hand: Sequence[Card]) -> list[Picture]:
    """One picture per distinct table picture the hand can show (the rules model's de-duplication)."""
    key = tuple(sorted(set(hand)))
    found = _HANDS.get(key)
    if found is None:
        found = _hand_pictures(key)
        if len(_HANDS) < 100_000:
            _HANDS[key] = found
    return found


def _hand_pictures(hand: Sequence[Card]) -> list[Picture]:
    seen: set[tuple] = set()
    out = []
    for card in sorted(set(hand)):
        for rotation in range(4):
            key = (card.terrains, card.fair_weather, _rotated_squares(card.pattern, rotation))
            if key in seen:
                continue
            seen.add(key)
            out.append(picture(card, rotation))
    return out


def _reach_offsets(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    qr, qc = np.meshgrid(np.arange(-1, height + 1), np.arange(-1, width + 1), indexing="ij")
    return qr.ravel(), qc.ravel()


_REACH = {(h, w): _reach_offsets(h, w) for h, w in ((CARD_ROWS, CARD_COLS), (CARD_COLS, CARD_ROWS))}


def _window_sum(a: np.ndarray, h: int, w: int) -> np.ndarray:
    """s[r, c] = a[r:r+h, c:c+w].sum() for every corner whose window lies inside `a`."""
    s = np.zeros((a.shape[0] + 1, a.shape[1] + 1), dtype=np.int32)
    s[1:, 1:] = a.cumsum(0).cumsum(1)
    return s[h:, w:] - s[:-h, w:] - s[h:, :-w] + s[:-h, :-w]


@dataclass
class Placements:
    """Every legal placement of a hand: corner (array coordinates), picture, and the reach cells' state after."""

    pictures: list[Picture]
    pic: np.ndarray  # (P,) picture index
    row: np.ndarray  # (P,) array row of the corner
    col: np.ndarray  # (P,) array column
    # Reach cells (P, 20), each placement's reach in its picture's row-major order:
    cell_r: np.ndarray
    cell_c: np.ndarray
    free: np.ndarray  # bool: a tent may stand there after the card
    base: np.ndarray  # (K, P, 20) int: matching squares (terrain) or terrains seen (Wilderness), undoubled, for
    #                   each of `tokens`
    open: np.ndarray  # (P, 20) int
    fair: np.ndarray  # (P, 20) bool
    # Pitched tents (T, P) after the card:
    tent_base: np.ndarray
    tent_open: np.ndarray
    tent_fair: np.ndarray
    tokens: tuple[int, ...] = tuple(range(N_TOKENS))  # the tokens `base` has a row for, in order
    height: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # (P,) the card's rows
    width: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # (P,) its columns

    def __len__(self) -> int:
        return len(self.pic)

    def base_of(self, token: int) -> np.ndarray:
        """(P, 20) matching squares (or terrains seen) of the reach cells for `token`."""
        return self.base[self.tokens.index(token)]


class Board:
    """The table as arrays (see the module docstring); `players` seats. Mutable: `place` and `pitch` keep the
    arrays up to date (for look-ahead and play-outs)."""

    def __init__(self, table: Table, players: int) -> None:
        self.players = max([players] + [t.player + 1 for t in table.tents])
        cells = list(table.grid)
        rows = [r for r, _ in cells] or [0]
        cols = [c for _, c in cells] or [0]
        self._alloc(min(rows), max(rows), min(cols), max(cols))
        for cell, square in table.grid.items():
            i, j = cell[0] - self.r0, cell[1] - self.c0
            self.occ[i, j] = True
            self.cmask[i, j] = square.mask
            self.fw[i, j] = square.fair_weather
        self.tent_player: list[int] = []
        self.tent_token: list[int] = []
        self.tent_r: list[int] = []
        self.tent_c: list[int] = []
        for tent in table.tents:
            self._add_tent(tent.player, int(tent.token), tent.row - self.r0, tent.col - self.c0)
        self._derive()

    # -- arrays ---------------------------------------------------------------------------------------------

    def _alloc(self, rmin: int, rmax: int, cmin: int, cmax: int) -> None:
        self.r0, self.c0 = rmin - PAD, cmin - PAD
        shape = (rmax - rmin + 1 + 2 * PAD, cmax - cmin + 1 + 2 * PAD)
        self.occ = np.zeros(shape, dtype=bool)
        self.cmask = np.zeros(shape, dtype=np.uint8)
        self.fw = np.zeros(shape, dtype=bool)
        self.tent = np.zeros(shape, dtype=bool)

    def _grow(self, rmin: int, rmax: int, cmin: int, cmax: int) -> None:
        """Re-window so that table rows rmin..rmax, columns cmin..cmax keep PAD empty cells around them."""
        n, m = self.occ.shape
        old = (self.r0, self.c0, self.occ, self.cmask, self.fw, self.tent)
        have_rmin, have_cmin = self.r0 + PAD, self.c0 + PAD
        have_rmax, have_cmax = self.r0 + n - 1 - PAD, self.c0 + m - 1 - PAD
        if rmin >= have_rmin and cmin >= have_cmin and rmax <= have_rmax and cmax <= have_cmax:
            return
        bbox = np.argwhere(self.occ)
        rmin = min(rmin, self.r0 + int(bbox[:, 0].min()))
        rmax = max(rmax, self.r0 + int(bbox[:, 0].max()))
        cmin = min(cmin, self.c0 + int(bbox[:, 1].min()))
        cmax = max(cmax, self.c0 + int(bbox[:, 1].max()))
        self._alloc(rmin, rmax, cmin, cmax)
        r0, c0, occ, cmask, fw, tent = old
        di, dj = r0 - self.r0, c0 - self.c0
        self.occ[di : di + n, dj : dj + m] = occ
        self.cmask[di : di + n, dj : dj + m] = cmask
        self.fw[di : di + n, dj : dj + m] = fw
        self.tent[di : di + n, dj : dj + m] = tent
        self.tent_r = [r + di for r in self.tent_r]
        self.tent_c = [c + dj for c in self.tent_c]

    def _add_tent(self, player: int, token: int, i: int, j: int) -> None:
        self.tent_player.append(player)
        self.tent_token.append(token)
        self.tent_r.append(i)
        self.tent_c.append(j)
        self.tent[i, j] = True

    def _derive(self) -> None:
        n, m = self.cmask.shape
        coloured = self.cmask > 0
        # Per cell: the 6 terrain bits of its coloured square and whether it is open; summed over the 8 squares
        # around every inner cell (the window's border cells are never read: see the module docstring).
        stack = np.empty((7, n, m), dtype=np.int8)
        stack[:6] = (self.cmask[None, :, :] >> _SIX[:, None, None]) & 1
        stack[6] = ~(coloured | self.tent)
        acc = np.zeros((7, n, m), dtype=np.int8)
        seen = np.zeros((n, m), dtype=np.uint8)
        fwbits = np.zeros((n, m), dtype=np.uint8)
        fw_int = self.fw.astype(np.uint8)
        inner = acc[:, 1:-1, 1:-1]
        seen_inner = seen[1:-1, 1:-1]
        fw_inner = fwbits[1:-1, 1:-1]
        for bit, (dr, dc) in enumerate(SURROUNDING):
            rows, cols = slice(1 + dr, n - 1 + dr), slice(1 + dc, m - 1 + dc)
            inner += stack[:, rows, cols]
            seen_inner |= self.cmask[rows, cols]
            fw_inner |= fw_int[rows, cols] << bit
        self.cnt, self.seen, self.fwbits, self.opn = acc[:6], seen, fwbits, acc[6]
        self.free = self.occ & ~coloured & ~self.tent
        self.blocked = coloured | self.tent
        touch = self.occ.copy()
        touch[1:, :] |= self.occ[:-1, :]
        touch[:-1, :] |= self.occ[1:, :]
        touch[:, 1:] |= self.occ[:, :-1]
        touch[:, :-1] |= self.occ[:, 1:]
        self.touch = touch
        if self.tent_r:
            tr, tc = np.array(self.tent_r), np.array(self.tent_c)
            self.t_r, self.t_c = tr, tc
            self.t_player = np.array(self.tent_player)
            self.t_token = np.array(self.tent_token)
            self.t_base = self.base_at(self.t_token, tr, tc)
            self.t_open = self.opn[tr, tc].astype(np.int64)
            self.t_fair = self.fwbits[tr, tc] != 0
        else:
            empty = np.zeros(0, dtype=np.int64)
            self.t_r = self.t_c = self.t_player = self.t_token = self.t_base = self.t_open = empty
            self.t_fair = np.zeros(0, dtype=bool)

    def base_at(self, tokens: np.ndarray, r: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Matching squares (terrain tokens) or terrains seen (Wilderness) around cells, undoubled."""
        tokens = np.asarray(tokens)
        terrain = np.minimum(tokens, 5)
        counts = self.cnt[terrain, r, c].astype(np.int64)
        wild = POPCOUNT[self.seen[r, c]].astype(np.int64)
        return np.where(tokens == WILD, wild, counts)

    # -- reading -------------------------------------------------------------------------------------------

    def tent_points(self) -> np.ndarray:
        """Each tent's points as the table stands (the rules model's `score_tent`)."""
        return self.t_base * np.where(self.t_fair, 2, 1)

    def scores(self) -> list[int]:
        totals = [0] * self.players
        for player, points in zip(self.t_player.tolist(), self.tent_points().tolist(), strict=True):
            totals[player] += points
        return totals

    def free_cells(self) -> tuple[np.ndarray, np.ndarray]:
        r, c = np.nonzero(self.free)
        return r, c

    def cell(self, i: int, j: int) -> tuple[int, int]:
        """Table coordinates of array cell (i, j)."""
        return int(i) + self.r0, int(j) + self.c0

    # -- placements ----------------------------------------------------------------------------------------

    def legal_corners(self, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        ok = (_window_sum(self.blocked, height, width) == 0) & (_window_sum(self.touch, height, width) > 0)
        r, c = np.nonzero(ok)
        return r, c

    def placements(self, hand: Sequence[Card] | Sequence[Picture], tokens: Sequence[int] | None = None) -> Placements:
        """Every legal placement of the hand (one per resulting picture), with each reach cell's state after it
        (for `tokens`, default all) and each pitched tent's state after it."""
        pictures = list(hand) if hand and isinstance(hand[0], Picture) else hand_pictures(hand)  # type: ignore[arg-type]
        tokens = tuple(range(N_TOKENS)) if tokens is None else tuple(sorted(tokens))
        corners = self._legal_corners_of(pictures)
        if corners is None:
            return self._no_placements(pictures, tokens)
        pic, row, col, cells, luts = corners
        colb, footb = luts[:, 0], luts[:, 1]
        infoot, cellcol = luts[:, 2].astype(bool), luts[:, 3].astype(bool)
        cr, cc = np.divmod(cells, self.occ.shape[1])
        info = _info(pictures)[pic]  # (P, 4): mask, fair, height, width
        masks, fairs, heights, widths = info[:, 0], info[:, 1].astype(bool), info[:, 2], info[:, 3]
        ncol = np.take(POPCOUNT16, colb)
        base = self._reach_base(tokens, cells, masks, ncol)
        fwb = np.take(self.fwbits.ravel(), cells)
        fair = (fairs[:, None] & (footb != 0)) | ((fwb & ~footb) != 0)
        free = np.where(infoot, ~cellcol, np.take(self.free.ravel(), cells))
        opn = np.take(self.opn.ravel(), cells).astype(np.int16) - ncol
        tent_base, tent_open, tent_fair = self._tents_after(pictures, pic, row, col, masks, fairs, heights, widths)
        return Placements(
            pictures,
            pic,
            row,
            col,
            cr,
            cc,
            free,
            base,
            opn,
            fair,
            tent_base,
            tent_open,
            tent_fair,
            tokens,
            heights,
            widths,
        )

    def _legal_corners_of(
        self, pictures: list[Picture]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Every legal (picture, corner), pictures grouped by outline: picture index, corner row and column, the
        reach cells as flat array indices (P, 20) and the picture's lookup tables (P, 4, 20: colbits, footbits,
        infoot, cellcol). None: no legal placement."""
        width_all = self.occ.shape[1]
        groups: dict[tuple[int, int], list[int]] = {}
        for index, pic in enumerate(pictures):
            groups.setdefault((pic.height, pic.width), []).append(index)
        pic_parts, r_parts, c_parts, cell_parts, lut_parts = [], [], [], [], []
        for outline, ids in groups.items():
            r, c = self.legal_corners(*outline)
            n = len(r)
            if not n:
                continue
            m = len(ids)
            qr, qc = _REACH[outline]
            pic_parts.append(np.repeat(np.array(ids), n))
            r_parts.append(np.tile(r, m))
            c_parts.append(np.tile(c, m))
            corner = np.tile(r * width_all + c, m)
            cell_parts.append(corner[:, None] + (qr * width_all + qc)[None, :])
            lut = np.stack([_luts(pictures[i]) for i in ids])  # (m, 4, 20)
            lut_parts.append(np.repeat(lut, n, axis=0))
        if not pic_parts:
            return None
        parts = (pic_parts, r_parts, c_parts, cell_parts, lut_parts)
        pic, row, col, cells, luts = (np.concatenate(part) for part in parts)
        return pic, row, col, cells, luts

    def _no_placements(self, pictures: list[Picture], tokens: tuple[int, ...]) -> Placements:
        """The empty Placements (no legal corner for any picture)."""
        zero = np.zeros(0, dtype=np.int64)
        z2 = np.zeros((0, 20), dtype=np.int64)
        t = len(self.t_r)
        return Placements(
            pictures,
            zero,
            zero,
            zero,
            z2,
            z2,
            z2.astype(bool),
            np.zeros((len(tokens), 0, 20), np.int64),
            z2,
            z2.astype(bool),
            np.zeros((t, 0), np.int64),
            np.zeros((t, 0), np.int64),
            np.zeros((t, 0), bool),
            tokens,
        )

    def _reach_base(
        self, tokens: tuple[int, ...], cells: np.ndarray, masks: np.ndarray, ncol: np.ndarray
    ) -> np.ndarray:
        """(K, P, 20) each reach cell's undoubled points after the card for each of `tokens`: matching squares
        (a terrain) or terrains seen (Wilderness)."""
        terrains = [t for t in tokens if t != WILD]
        base = np.empty((len(tokens), len(masks), cells.shape[1]), dtype=np.int16)
        if terrains:
            has = (masks[None, :] >> np.array(terrains)[:, None]) & 1  # (K', P)
            cnt_flat = self.cnt.reshape(6, -1)[terrains]
            base[: len(terrains)] = np.take(cnt_flat, cells, axis=1) + ncol[None] * has[:, :, None].astype(np.int16)
        touched = ncol > 0
        if WILD in tokens:
            seen = np.take(self.seen.ravel(), cells) | np.where(touched, masks[:, None], 0).astype(np.uint8)
            base[-1] = np.take(POPCOUNT16, seen)
        return base

    def _tents_after(
        self,
        pictures: list[Picture],
        pic: np.ndarray,
        row: np.ndarray,
        col: np.ndarray,
        masks: np.ndarray,
        fairs: np.ndarray,
        heights: np.ndarray,
        widths: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(T, P) each pitched tent's undoubled points, open squares and doubling after each placement."""
        t = len(self.t_r)
        if not t:
            return np.zeros((0, len(row)), np.int64), np.zeros((0, len(row)), np.int64), np.zeros((0, len(row)), bool)
        rel_r = self.t_r[:, None] - row[None, :]
        rel_c = self.t_c[:, None] - col[None, :]
        inside = (rel_r >= -1) & (rel_r <= heights[None]) & (rel_c >= -1) & (rel_c <= widths[None])
        q = np.where(inside, (rel_r + 1) * (widths[None] + 2) + rel_c + 1, 0)
        stacked = _stack_luts(pictures)  # (npic, 4, 20)
        tcolb = np.where(inside, np.take(stacked[:, 0].ravel(), pic[None, :] * 20 + q), 0).astype(np.uint8)
        tfootb = np.where(inside, np.take(stacked[:, 1].ravel(), pic[None, :] * 20 + q), 0).astype(np.uint8)
        tn = np.take(POPCOUNT16, tcolb)
        token = self.t_token[:, None]
        has_t = (masks[None, :] >> np.minimum(token, 5)) & 1
        seen_t = self.seen[self.t_r, self.t_c][:, None] | np.where(tn > 0, masks[None, :], 0).astype(np.uint8)
        tent_base = np.where(token == WILD, np.take(POPCOUNT16, seen_t), self.t_base[:, None] + tn * has_t)
        tent_fair = (fairs[None, :] & (tfootb != 0)) | ((self.fwbits[self.t_r, self.t_c][:, None] & ~tfootb) != 0)
        tent_open = self.t_open[:, None] - tn
        return tent_base, tent_open, tent_fair

    def placement_of(self, placements: Placements, index: int) -> Placement:
        pic = placements.pictures[int(placements.pic[index])]
        r, c = self.cell(placements.row[index], placements.col[index])
        return Placement(pic.card, r, c, pic.rotation)

    # -- changing the table -------------------------------------------------------------------------------

    def copy(self) -> Board:
        """An independent copy (the derived arrays are shared until the copy changes: they are replaced, never
        written in place)."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        for name in ("occ", "cmask", "fw", "tent"):
            setattr(other, name, getattr(self, name).copy())
        for name in ("tent_player", "tent_token", "tent_r", "tent_c"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def place(self, pic: Picture, i: int, j: int, derive: bool = True) -> None:
        """Lay picture `pic` with its corner at array cell (i, j) (assumed legal), then re-derive (`derive=False`:
        the caller pitches a tent next, which re-derives)."""
        r, c = self.r0 + int(i), self.c0 + int(j)
        self._grow(r, r + pic.height - 1, c, c + pic.width - 1)
        i, j = r - self.r0, c - self.c0
        squares = dict(_rotated_squares(pic.card.pattern, pic.rotation))
        for (dr, dc), coloured in squares.items():
            self.occ[i + dr, j + dc] = True
            self.cmask[i + dr, j + dc] = pic.mask if coloured else 0
            self.fw[i + dr, j + dc] = pic.fair
        if derive:
            self._derive()

    def place_table(self, placement: Placement) -> None:
        """Lay a rules-model placement (table coordinates)."""
        self.place(picture(placement.card, placement.rotation), placement.row - self.r0, placement.col - self.c0)

    def pitch(self, player: int, token: int, i: int, j: int) -> None:
        self._add_tent(player, token, i, j)
        self._derive()

    def pitch_table(self, tent: Tent) -> None:
        self.pitch(tent.player, int(tent.token), tent.row - self.r0, tent.col - self.c0)


def _stack(pictures: list[Picture], name: str) -> np.ndarray:
    """The pictures' lookup tables side by side (padded to 20 reach cells: every outline has 20)."""
    return np.stack([getattr(p, name) for p in pictures])


# --- valuing tent squares ------------------------------------------------------------------------------------

#: A tent value table: value[token, base, open, fair] (base 0-8 matching squares, or terrains seen for
#: Wilderness; open 0-8 surrounding squares a later card may still fill; fair 0/1 doubled now).
TABLE_SHAPE = (N_TOKENS, 9, 9, 2)


def points_table() -> np.ndarray:
    """The tent's points as the table stands (no future): base x 2 when doubled."""
    base = np.arange(9)[None, :, None, None]
    fair = np.arange(2)[None, None, None, :]
    return np.broadcast_to(base * (1 + fair), TABLE_SHAPE).astype(np.float64).copy()


@dataclass
class TentOptions:
    """Per placement: the best new tent (value, token, array cell) among the given tokens."""

    value: np.ndarray  # (P,) float
    token: np.ndarray  # (P,) int
    row: np.ndarray  # (P,) array row
    col: np.ndarray  # (P,) array column


def best_tents(
    board: Board, pl: Placements, tokens: Sequence[int], table: np.ndarray, cell_bonus: np.ndarray | None = None
) -> TentOptions:
    """The best tent square and token after each placement, valued by `table` (see TABLE_SHAPE). `cell_bonus`
    (array shaped like the board) adds a per-square term (denial, own-tent blocking), read at the square."""
    tokens = np.asarray(sorted(tokens), dtype=np.int64)
    count = len(pl)
    if not len(tokens) or not count:
        zero = np.zeros(count)
        return TentOptions(np.full(count, -np.inf), zero.astype(int), zero.astype(int), zero.astype(int))
    # Reach cells: (K, P, 20), the table read by flat index.
    rows = [pl.tokens.index(int(t)) for t in tokens]
    cellcode = pl.open * 2 + pl.fair  # int16; open squares are 0-8 (a card colours only open squares)
    index = pl.base[rows] * 18 + cellcode[None] + (tokens.astype(np.int16) * 162)[:, None, None]
    values = np.take(table.ravel(), index)
    if cell_bonus is not None:
        values = values + np.take(cell_bonus.ravel(), pl.cell_r * cell_bonus.shape[1] + pl.cell_c)[None]
    values = np.where(pl.free[None], values, -np.inf)
    flat = values.transpose(1, 0, 2).reshape(count, -1)  # (P, K * 20)
    best_reach = flat.argmax(axis=1)
    everyone = np.arange(count)
    value = flat[everyone, best_reach]
    token = tokens[best_reach // 20]
    row = pl.cell_r[everyone, best_reach % 20]
    col = pl.cell_c[everyone, best_reach % 20]
    # Far cells: valued as the table stands, unless the placement reaches them. Only a cell's best token can be
    # a placement's best far tent; cells best first, each settling the placements that do not reach it.
    fr, fc = board.free_cells()
    if not len(fr):
        return TentOptions(value, token, row, col)
    base = board.base_at(tokens[:, None], fr[None, :], fc[None, :])  # (K, F)
    far = table[
        tokens[:, None],
        base,
        np.clip(board.opn[fr, fc], 0, 8)[None],
        (board.fwbits[fr, fc] != 0).astype(np.int64)[None],
    ]
    if cell_bonus is not None:
        far = far + cell_bonus[fr, fc][None]
    far_best = far.max(axis=0)
    far_token = tokens[far.argmax(axis=0)]
    top, bottom = pl.row - 1, pl.row + pl.height
    left, right = pl.col - 1, pl.col + pl.width
    pending = everyone
    for k in np.argsort(-far_best, kind="stable").tolist():
        pending = pending[value[pending] < far_best[k]]  # the rest already have a tent at least as good
        if not len(pending):
            break
        rr, cc = fr[k], fc[k]
        inside = (rr >= top[pending]) & (rr <= bottom[pending]) & (cc >= left[pending]) & (cc <= right[pending])
        better = pending[~inside]
        value[better] = far_best[k]
        token[better] = far_token[k]
        row[better] = rr
        col[better] = cc
        pending = pending[inside]
    return TentOptions(value, token, row, col)

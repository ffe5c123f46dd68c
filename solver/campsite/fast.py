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
from dataclasses import dataclass

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
_SURR = np.array(SURROUNDING, dtype=np.int64)


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
        card, rotation, height, width, card.mask, card.fair_weather,
        np.array(colbits, dtype=np.uint8), np.array(footbits, dtype=np.uint8),
        np.array(infoot, dtype=bool), np.array(cellcol, dtype=bool),
    )
    _PICTURES[key] = found
    return found


def hand_pictures(hand: Sequence[Card]) -> list[Picture]:
    """One picture per distinct table picture the hand can show (the rules model's de-duplication)."""
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


def _shift(a: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """out[r, c] = a[r + dr, c + dc] (zero outside)."""
    out = np.zeros_like(a)
    n, m = a.shape[-2:]
    out[..., max(-dr, 0): n - max(dr, 0), max(-dc, 0): m - max(dc, 0)] = a[
        ..., max(dr, 0): n - max(-dr, 0), max(dc, 0): m - max(-dc, 0)
    ]
    return out


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
    base: np.ndarray  # (7, P, 20) int: matching squares (terrain) or terrains seen (Wilderness), undoubled
    open: np.ndarray  # (P, 20) int
    fair: np.ndarray  # (P, 20) bool
    # Pitched tents (T, P) after the card:
    tent_base: np.ndarray
    tent_open: np.ndarray
    tent_fair: np.ndarray

    def __len__(self) -> int:
        return len(self.pic)


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
        self.occ[di: di + n, dj: dj + m] = occ
        self.cmask[di: di + n, dj: dj + m] = cmask
        self.fw[di: di + n, dj: dj + m] = fw
        self.tent[di: di + n, dj: dj + m] = tent
        self.tent_r = [r + di for r in self.tent_r]
        self.tent_c = [c + dj for c in self.tent_c]

    def _add_tent(self, player: int, token: int, i: int, j: int) -> None:
        self.tent_player.append(player)
        self.tent_token.append(token)
        self.tent_r.append(i)
        self.tent_c.append(j)
        self.tent[i, j] = True

    def _derive(self) -> None:
        coloured = self.cmask > 0
        bits = ((self.cmask[None, :, :] >> np.arange(6, dtype=np.uint8)[:, None, None]) & 1).astype(np.int8)
        openable = ~(coloured | self.tent)
        cnt = np.zeros(bits.shape, dtype=np.int8)
        seen = np.zeros(self.cmask.shape, dtype=np.uint8)
        fwbits = np.zeros(self.cmask.shape, dtype=np.uint8)
        opn = np.zeros(self.cmask.shape, dtype=np.int8)
        fw_int = self.fw.astype(np.uint8)
        open_int = openable.astype(np.int8)
        for bit, (dr, dc) in enumerate(SURROUNDING):
            cnt += _shift(bits, dr, dc)
            seen |= _shift(self.cmask, dr, dc)
            fwbits |= _shift(fw_int, dr, dc) << bit
            opn += _shift(open_int, dr, dc)
        # Cells beyond the window are empty table surface (open): the border cells' counts are never used
        # (nothing within reach of a card lies on the border), so they need no correction.
        self.cnt, self.seen, self.fwbits, self.opn = cnt, seen, fwbits, opn
        self.free = self.occ & ~coloured & ~self.tent
        self.blocked = coloured | self.tent
        touch = self.occ.copy()
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            touch |= _shift(self.occ, dr, dc)
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

    def placements(self, hand: Sequence[Card] | Sequence[Picture]) -> Placements:
        """Every legal placement of the hand (one per resulting picture), with each reach cell's state after it
        and each pitched tent's state after it."""
        pictures = list(hand) if hand and isinstance(hand[0], Picture) else hand_pictures(hand)  # type: ignore[arg-type]
        pic_parts, r_parts, c_parts, q_parts = [], [], [], []
        cell_r_parts, cell_c_parts = [], []
        colb_parts, footb_parts, infoot_parts, cellcol_parts = [], [], [], []
        corners = {}
        for index, pic in enumerate(pictures):
            outline = (pic.height, pic.width)
            if outline not in corners:
                corners[outline] = self.legal_corners(*outline)
            r, c = corners[outline]
            if not len(r):
                continue
            qr, qc = _REACH[outline]
            pic_parts.append(np.full(len(r), index))
            r_parts.append(r)
            c_parts.append(c)
            cell_r_parts.append(r[:, None] + qr[None, :])
            cell_c_parts.append(c[:, None] + qc[None, :])
            colb_parts.append(np.broadcast_to(pic.colbits, (len(r), len(qr))))
            footb_parts.append(np.broadcast_to(pic.footbits, (len(r), len(qr))))
            infoot_parts.append(np.broadcast_to(pic.infoot, (len(r), len(qr))))
            cellcol_parts.append(np.broadcast_to(pic.cellcol, (len(r), len(qr))))
            q_parts.append((pic, len(r)))
        if not pic_parts:
            zero = np.zeros(0, dtype=np.int64)
            z2 = np.zeros((0, 20), dtype=np.int64)
            t = len(self.t_r)
            return Placements(pictures, zero, zero, zero, z2, z2, z2.astype(bool), np.zeros((7, 0, 20), np.int64),
                              z2, z2.astype(bool), np.zeros((t, 0), np.int64), np.zeros((t, 0), np.int64),
                              np.zeros((t, 0), bool))
        pic = np.concatenate(pic_parts)
        row = np.concatenate(r_parts)
        col = np.concatenate(c_parts)
        cr = np.concatenate(cell_r_parts)
        cc = np.concatenate(cell_c_parts)
        colb = np.concatenate(colb_parts)
        footb = np.concatenate(footb_parts)
        infoot = np.concatenate(infoot_parts)
        cellcol = np.concatenate(cellcol_parts)
        masks = np.array([p.mask for p in pictures], dtype=np.uint8)[pic]
        fairs = np.array([p.fair for p in pictures], dtype=bool)[pic]
        heights = np.array([p.height for p in pictures])[pic]
        widths = np.array([p.width for p in pictures])[pic]
        ncol = POPCOUNT[colb].astype(np.int64)
        has = ((masks[None, :] >> np.arange(6, dtype=np.uint8)[:, None]) & 1).astype(np.int64)  # (6, P)
        cnt = self.cnt[:, cr, cc].astype(np.int64) + ncol[None] * has[:, :, None]
        seen = self.seen[cr, cc] | np.where(ncol > 0, masks[:, None], 0).astype(np.uint8)
        base = np.concatenate([cnt, POPCOUNT[seen][None].astype(np.int64)], axis=0)
        fair = (fairs[:, None] & (footb != 0)) | ((self.fwbits[cr, cc] & ~footb) != 0)
        free = np.where(infoot, ~cellcol, self.free[cr, cc])
        opn = self.opn[cr, cc].astype(np.int64) - ncol
        # Pitched tents.
        t = len(self.t_r)
        if t:
            rel_r = self.t_r[:, None] - row[None, :]
            rel_c = self.t_c[:, None] - col[None, :]
            inside = (rel_r >= -1) & (rel_r <= heights[None]) & (rel_c >= -1) & (rel_c <= widths[None])
            q = np.where(inside, (rel_r + 1) * (widths[None] + 2) + rel_c + 1, 0)
            pics_colbits = _stack(pictures, "colbits")
            pics_footbits = _stack(pictures, "footbits")
            tcolb = np.where(inside, pics_colbits[pic[None, :], q], 0).astype(np.uint8)
            tfootb = np.where(inside, pics_footbits[pic[None, :], q], 0).astype(np.uint8)
            tn = POPCOUNT[tcolb].astype(np.int64)
            token = self.t_token[:, None]
            has_t = (masks[None, :] >> np.minimum(token, 5).astype(np.uint8)) & 1
            seen_t = self.seen[self.t_r, self.t_c][:, None] | np.where(tn > 0, masks[None, :], 0).astype(np.uint8)
            tent_base = np.where(
                token == WILD, POPCOUNT[seen_t].astype(np.int64), self.t_base[:, None] + tn * has_t
            )
            tent_fair = (fairs[None, :] & (tfootb != 0)) | ((self.fwbits[self.t_r, self.t_c][:, None] & ~tfootb) != 0)
            tent_open = self.t_open[:, None] - tn
        else:
            tent_base = np.zeros((0, len(row)), np.int64)
            tent_open = np.zeros((0, len(row)), np.int64)
            tent_fair = np.zeros((0, len(row)), bool)
        return Placements(pictures, pic, row, col, cr, cc, free, base, opn, fair, tent_base, tent_open, tent_fair)

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

    def place(self, pic: Picture, i: int, j: int) -> None:
        """Lay picture `pic` with its corner at array cell (i, j) (assumed legal), then re-derive."""
        r, c = self.r0 + int(i), self.c0 + int(j)
        self._grow(r, r + pic.height - 1, c, c + pic.width - 1)
        i, j = r - self.r0, c - self.c0
        squares = dict(_rotated_squares(pic.card.pattern, pic.rotation))
        for (dr, dc), coloured in squares.items():
            self.occ[i + dr, j + dc] = True
            self.cmask[i + dr, j + dc] = pic.mask if coloured else 0
            self.fw[i + dr, j + dc] = pic.fair
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


def best_tents(board: Board, pl: Placements, tokens: Sequence[int], table: np.ndarray,
               cell_bonus: np.ndarray | None = None) -> TentOptions:
    """The best tent square and token after each placement, valued by `table` (see TABLE_SHAPE). `cell_bonus`
    (array shaped like the board) adds a per-square term (denial, own-tent blocking), read at the square."""
    tokens = np.asarray(sorted(tokens), dtype=np.int64)
    count = len(pl)
    if not len(tokens) or not count:
        zero = np.zeros(count)
        return TentOptions(np.full(count, -np.inf), zero.astype(int), zero.astype(int), zero.astype(int))
    fair = pl.fair.astype(np.int64)
    # Reach cells: (K, P, 20).
    values = table[tokens[:, None, None], pl.base[tokens], np.clip(pl.open, 0, 8)[None], fair[None]]
    if cell_bonus is not None:
        values = values + cell_bonus[pl.cell_r, pl.cell_c][None]
    values = np.where(pl.free[None], values, -np.inf)
    flat = values.transpose(1, 0, 2).reshape(count, -1)  # (P, K * 20)
    best_reach = flat.argmax(axis=1)
    reach_value = flat[np.arange(count), best_reach]
    reach_token = tokens[best_reach // 20]
    reach_r = pl.cell_r[np.arange(count), best_reach % 20]
    reach_c = pl.cell_c[np.arange(count), best_reach % 20]
    # Far cells: value as the table stands, unless the placement reaches them.
    fr, fc = board.free_cells()
    if not len(fr):
        return TentOptions(reach_value, reach_token, reach_r, reach_c)
    base = board.base_at(tokens[:, None], fr[None, :], fc[None, :])  # (K, F)
    far = table[tokens[:, None], base, np.clip(board.opn[fr, fc], 0, 8)[None],
                (board.fwbits[fr, fc] != 0).astype(np.int64)[None]]
    if cell_bonus is not None:
        far = far + cell_bonus[fr, fc][None]
    order = np.argsort(-far, axis=None, kind="stable")
    far_value = far.ravel()[order]
    far_token = np.repeat(tokens, len(fr))[order]
    far_r = np.tile(fr, len(tokens))[order]
    far_c = np.tile(fc, len(tokens))[order]
    heights = np.array([p.height for p in pl.pictures])[pl.pic]
    widths = np.array([p.width for p in pl.pictures])[pl.pic]
    value = reach_value.copy()
    token, row, col = reach_token.copy(), reach_r.copy(), reach_c.copy()
    pending = np.arange(count)
    start = 0
    step = 48
    while len(pending) and start < len(order):
        stop = min(start + step, len(order))
        rr, cc = far_r[start:stop], far_c[start:stop]
        r0, c0 = pl.row[pending][:, None], pl.col[pending][:, None]
        h, w = heights[pending][:, None], widths[pending][:, None]
        inside = (rr[None] >= r0 - 1) & (rr[None] <= r0 + h) & (cc[None] >= c0 - 1) & (cc[None] <= c0 + w)
        outside = ~inside
        found = outside.any(axis=1)
        first = outside.argmax(axis=1) + start
        hit = pending[found]
        k = first[found]
        better = far_value[k] > value[hit]
        sel = hit[better]
        value[sel] = far_value[k[better]]
        token[sel] = far_token[k[better]]
        row[sel] = far_r[k[better]]
        col[sel] = far_c[k[better]]
        pending = pending[~found]
        start = stop
        step *= 4
    return TentOptions(value, token, row, col)

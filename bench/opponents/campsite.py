"""Outside players for Campsite, written from the rulebook (/work/shared/rules/campsite.txt), the project's
readings (docs/rules/campsite.md) and the rules-model API (`solver/campsite/rules.py`) alone, without reading the
hint's code, notes or bench results; never tuned against the hint.

A player reads only what its seat may see (`SeatView`, built by `seat_view`): its own hand, the table (cards and
tents), every player's unused tokens, the totals, the turn, and the composition of the cards it has not seen (the
round's deck minus the table and its own hand: other hands and the pile together, never which is where).

Each turn it answers the card and the tent together (`[PlayCard, PitchTent]`): every legal placement of every
hand card is scored at once with numpy (per card picture, all corners in one array), the change it makes to the
tents already pitched (mine counted for me, the opponents' against me) plus the best tent it leaves me. A tent
is valued by the rulebook's count (matching squares of the 8, x2 beside a visible Fair Weather square,
Wilderness one point per terrain) and, where a style looks ahead, by its potential: the neighbours still open
(off the table or empty and uncovered) times the chance that a card still unseen puts a matching colour there,
scaled by the turns left in the round. The styles:

- `greedy`: card gain to my tents minus the opponents' (their mean), then the best tent as it scores now.
- `planner`: tents and card gains valued with their potential; a token's use is charged what it gives up (its
  best other spot now, half of it), nothing on the round's last turn.
- `spoiler`: denial: as `planner`, but the opponents' tents weigh 1.8 times mine and a tent pitched beside an
  opponent's tent is credited for the open square it takes from it.

Cost (2 players, measured in the sanity games): ~300-900 placements a turn, all three styles median ~11-12 ms a
call, at most ~30 ms; one call answers the card and the tent (two decisions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from campsolver.solver.campsite import rules as R

TOKENS = 7
WILD = int(R.Token.WILDERNESS)
#: Empty margin (squares) around the table's bounding box in the arrays: a corner touches the table and its
#: window reaches 2 squares past the card.
MARGIN = 6
NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


# --- what the seat may see -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """Everything seat `seat` may know: own hand, the table, tokens, totals, the turn, the unseen composition."""

    seat: int
    players: int
    stage: R.Stage
    to_move: int
    turn: int
    round: int
    starter: int
    table: R.Table
    hand: tuple[R.Card, ...]
    tokens: tuple[frozenset[R.Token], ...]
    totals: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    unseen: tuple[tuple[R.Card, int], ...]  # (card, copies) not on the table nor in my hand


def seat_view(state: R.CampsiteState, seat: int) -> SeatView:
    """The seat's view of `state` (nothing of another hand or of the pile but the composition of them together)."""
    unseen = Counter(state.deck)
    for placement in state.table.placements:
        unseen[placement.card] -= 1
    for card in state.hands[seat]:
        unseen[card] -= 1
    return SeatView(
        seat=seat,
        players=state.players,
        stage=state.stage,
        to_move=state.to_move,
        turn=state.turn,
        round=state.round,
        starter=state.starter,
        table=state.table,
        hand=tuple(state.hands[seat]),
        tokens=tuple(state.tokens),
        totals=tuple(state.totals),
        hand_sizes=tuple(len(h) for h in state.hands),
        unseen=tuple(sorted(((c, n) for c, n in unseen.items() if n > 0), key=lambda cn: cn[0].sort_key())),
    )


def turns_left(view: SeatView, player: int) -> int:
    """Turns `player` still has this round, the current one included if it is theirs and not yet played."""
    total = R.TURNS_PER_ROUND * view.players
    return sum(1 for t in range(view.turn, total) if (view.starter + t) % view.players == player)


# --- the table as arrays ---------------------------------------------------------------------------------------


@dataclass
class Arrays:
    """The visible table on a padded array grid: `origin` maps table (row, col) to array (row - r0, col - c0)."""

    r0: int
    c0: int
    present: np.ndarray  # a card square is there
    colour: np.ndarray  # (6, H, W): coloured square featuring terrain t
    fw: np.ndarray  # the visible square belongs to a Fair Weather card
    free: np.ndarray  # empty square without a tent (a tent may go there; a card may cover it)
    tent_token: np.ndarray  # -1 or the token pitched there
    tent_owner: np.ndarray  # -1 or its player


def table_arrays(table: R.Table) -> Arrays:
    cells = list(table.grid)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, c0 = min(rows) - MARGIN, min(cols) - MARGIN
    h, w = max(rows) - r0 + MARGIN + 1, max(cols) - c0 + MARGIN + 1
    present = np.zeros((h, w), bool)
    colour = np.zeros((6, h, w), bool)
    fw = np.zeros((h, w), bool)
    free = np.zeros((h, w), bool)
    token = np.full((h, w), -1, np.int8)
    owner = np.full((h, w), -1, np.int8)
    tents = table.tent_cells
    for (r, c), square in table.grid.items():
        i, j = r - r0, c - c0
        present[i, j] = True
        fw[i, j] = square.fair_weather
        if square.coloured:
            for t in range(6):
                colour[t, i, j] = bool(square.mask >> t & 1)
        elif (r, c) not in tents:
            free[i, j] = True
    for (r, c), tent in tents.items():
        token[r - r0, c - c0] = int(tent.token)
        owner[r - r0, c - c0] = tent.player
    return Arrays(r0, c0, present, colour, fw, free, token, owner)


def _neighbour_sum(a: np.ndarray) -> np.ndarray:
    """Sum over the 8 neighbours of each inner cell of the last two axes (the result is 2 smaller each way)."""
    h, w = a.shape[-2], a.shape[-1]
    total = np.zeros((*a.shape[:-2], h - 2, w - 2), np.int16)
    for dr, dc in NEIGHBOURS:
        total += a[..., 1 + dr : h - 1 + dr, 1 + dc : w - 1 + dc]
    return total


@dataclass
class Style:
    potential: float  # weight of a tent's potential (0: as it scores now)
    opponents: float  # weight of the opponents' tents against mine (their mean)
    reserve: float  # share of a token's best other spot charged for using it now
    block: float  # credit for an open square a new tent takes from an opponent's tent


STYLES = {
    "greedy": Style(potential=0.0, opponents=1.0, reserve=0.0, block=0.0),
    "planner": Style(potential=1.0, opponents=1.0, reserve=0.5, block=0.0),
    "spoiler": Style(potential=1.0, opponents=1.8, reserve=0.5, block=1.0),
}


def _values(
    colour: np.ndarray, fw: np.ndarray, open_: np.ndarray, rates: np.ndarray, wild_rate: float, factor: float
) -> tuple[np.ndarray, np.ndarray]:
    """(points now, potential) of each token on each inner cell: arrays (..., 7, H-2, W-2)."""
    counts = _neighbour_sum(colour)  # (..., 6, h, w)
    doubled = _neighbour_sum(fw[..., None, :, :]) > 0  # (..., 1, h, w)
    kinds = (counts > 0).sum(axis=-3, keepdims=True)
    base = np.concatenate([counts, kinds], axis=-3).astype(np.float32)
    now = np.where(doubled, 2.0, 1.0) * base
    openings = _neighbour_sum(open_[..., None, :, :]).astype(np.float32)  # (..., 1, h, w)
    per_token = np.concatenate([rates, [wild_rate]]).astype(np.float32)[:, None, None]
    potential = openings * per_token * factor * np.where(doubled, 2.0, 1.0)
    return now, potential


def decide(view: SeatView, style: Style, rng: np.random.Generator) -> list[R.Action]:
    """The card and the tent of the seat's turn (or the tent alone when the card is already laid)."""
    return best_play(view, style, rng)[1]


def best_play(view: SeatView, style: Style, rng: np.random.Generator) -> tuple[float, list[R.Action]]:
    """(value, moves) of the seat's best turn by `style` (the value: the card's gain plus the tent's)."""
    me = view.seat
    players = view.players
    arrays = table_arrays(view.table)
    # Chance that a square a future card lays is coloured and features terrain t (the unseen cards' average).
    unseen_cards = sum(n for _, n in view.unseen)
    rates = np.zeros(6)
    density = 0.0
    for card, n in view.unseen:
        share = n * len(card.pattern) / R.CARD_SQUARES
        density += share
        for t in card.terrains:
            rates[int(t)] += share
    if unseen_cards:
        rates /= unseen_cards
        density /= unseen_cards
    wild_rate = 0.4 * density  # a new square adds a terrain a Wilderness tent lacks about that often
    # Potential factor by owner: the share of the round left in which cards can still come.
    total_turns = R.TURNS_PER_ROUND * players
    left_after = (total_turns - view.turn - 1) / max(1, total_turns)
    factor = style.potential * 0.5 * max(0.0, left_after)
    opp_weight = style.opponents / max(1, players - 1)
    owner_weight = np.array([1.0 if p == me else -opp_weight for p in range(players)], np.float32)
    my_tokens = sorted(int(t) for t in view.tokens[me])
    last_turn = turns_left(view, me) <= 1

    # Old values over the whole table (padding: arrays are 1 larger each way than the inner cells).
    open_old = ~arrays.present | arrays.free
    now_old, pot_old = _values(arrays.colour, arrays.fw, open_old, rates, wild_rate, factor)
    total_old = now_old + pot_old  # (7, H-2, W-2), index [k, i-1, j-1] for array cell (i, j)
    # A token's best spots now (reserve and the best tent away from the card).
    free_inner = arrays.free[1:-1, 1:-1]
    static: dict[int, list[tuple[float, int, int]]] = {}
    for k in my_tokens:
        vals = np.where(free_inner, total_old[k], -np.inf)
        flat = np.argsort(-vals, axis=None)[:8]
        static[k] = [(float(vals.flat[f]), *divmod(int(f), vals.shape[1])) for f in flat if np.isfinite(vals.flat[f])]
        static[k] = [(v, i + 1, j + 1) for v, i, j in static[k]]  # array coordinates
    reserve = {
        k: (0.0 if last_turn or len(static[k]) < 2 else style.reserve * max(0.0, static[k][1][0])) for k in my_tokens
    }

    if view.stage is R.Stage.TENT:
        return _best_tent_only(arrays, total_old, reserve, my_tokens, rng)

    best_value = -np.inf
    best_plays: list[tuple[R.Placement, int, int, int]] = []
    for card, rotation, corners in view.table.legal_placement_groups(view.hand):
        if not corners:
            continue
        squares = card.squares(rotation)
        h = max(r for r, _ in squares) + 1
        w = max(c for _, c in squares) + 1
        pattern = np.zeros((h, w), bool)
        for (r, c), coloured in squares.items():
            pattern[r, c] = coloured
        corner_rows = np.array([r for r, _ in corners]) - arrays.r0
        corner_cols = np.array([c for _, c in corners]) - arrays.c0
        rr = corner_rows[:, None] + np.arange(-2, h + 2)[None, :]  # (K, h+4)
        cc = corner_cols[:, None] + np.arange(-2, w + 2)[None, :]
        gather = (rr[:, :, None], cc[:, None, :])
        present = arrays.present[gather].copy()
        colour = arrays.colour[:, rr[:, :, None], cc[:, None, :]].transpose(1, 0, 2, 3).copy()  # (K, 6, h+4, w+4)
        fw = arrays.fw[gather].copy()
        free = arrays.free[gather].copy()
        token = arrays.tent_token[gather]
        owner = arrays.tent_owner[gather]
        # Lay the card.
        foot = (slice(None), slice(2, 2 + h), slice(2, 2 + w))
        present[foot] = True
        fw[foot] = card.fair_weather
        free[foot] = ~pattern
        for t in range(6):
            colour[:, t, 2 : 2 + h, 2 : 2 + w] = pattern & bool(card.mask >> t & 1)
        open_new = ~present | free
        now_new, pot_new = _values(colour, fw, open_new, rates, wild_rate, factor)
        total_new = now_new + pot_new  # (K, 7, h+2, w+2) over window cells 1..h+2
        # Old values of the same window cells.
        ri = rr[:, 1:-1] - 1  # inner rows in total_old coordinates
        ci = cc[:, 1:-1] - 1
        old_window = total_old[:, ri[:, :, None], ci[:, None, :]].transpose(1, 0, 2, 3)  # (K, 7, h+2, w+2)
        # The card's effect on pitched tents (mine for me, the opponents' against me).
        tok = token[:, 1:-1, 1:-1].astype(np.int64)
        own = owner[:, 1:-1, 1:-1].astype(np.int64)
        has = tok >= 0
        safe_tok = np.where(has, tok, 0)
        delta = np.take_along_axis(total_new - old_window, safe_tok[:, None], axis=1)[:, 0]
        weights = np.where(has, owner_weight[np.where(has, own, 0)], 0.0)
        card_gain = (delta * weights).sum(axis=(1, 2))  # (K,)
        # My tent: on a free square of the window (the new values), or the best spot away from the card.
        free_new = free[:, 1:-1, 1:-1]
        tent_best = np.full(len(corners), -np.inf)
        tent_pick = np.zeros((len(corners), 3), np.int64)  # token, window row, window col (-1: static)
        block = np.zeros(free_new.shape, np.float32)
        if style.block:
            # Each opponent tent next to a square loses that open square if my tent goes there.
            opp = (owner >= 0) & (owner != me)
            block = style.block * factor * 2.0 * _neighbour_sum(opp[:, None])[:, 0]
        for k in my_tokens:
            vals = np.where(free_new, total_new[:, k] + block, -np.inf).reshape(len(corners), -1) - reserve[k]
            arg = vals.argmax(axis=1)
            top = vals[np.arange(len(corners)), arg]
            better = top > tent_best
            tent_best = np.where(better, top, tent_best)
            tent_pick[better] = np.stack([np.full(better.sum(), k), arg[better] // (w + 2), arg[better] % (w + 2)], 1)
            # Away from the window: the best static spot whose square the card leaves alone.
            for value, i, j in static[k]:
                outside = ~((i >= rr[:, 1]) & (i <= rr[:, -2]) & (j >= cc[:, 1]) & (j <= cc[:, -2]))
                cand = np.where(outside & (value - reserve[k] > tent_best), value - reserve[k], -np.inf)
                better = cand > tent_best
                tent_best = np.where(better, cand, tent_best)
                tent_pick[better] = np.array([k, -1 - i, -1 - j])
                if outside.all():
                    break
        total = card_gain + tent_best
        top = float(total.max())
        if top > best_value + 1e-6:
            best_value, best_plays = top, []
        if top >= best_value - 1e-6:
            for index in np.flatnonzero(total >= best_value - 1e-6):
                k, a, b = (int(x) for x in tent_pick[index])
                if a >= 0:
                    row, col = int(rr[index, 1 + a]) + arrays.r0, int(cc[index, 1 + b]) + arrays.c0
                else:
                    row, col = -1 - a + arrays.r0, -1 - b + arrays.c0
                placement = R.Placement(card, int(corners[index][0]), int(corners[index][1]), rotation)
                best_plays.append((placement, k, row, col))
    placement, k, row, col = best_plays[int(rng.integers(len(best_plays)))]
    return best_value, [R.PlayCard(placement), R.PitchTent(R.Token(k), row, col)]


def _best_tent_only(
    arrays: Arrays, total_old: np.ndarray, reserve: dict[int, float], my_tokens: list[int], rng: np.random.Generator
) -> tuple[float, list[R.Action]]:
    """The tent alone (the card already laid): every free square and token on the table as it stands."""
    free_inner = arrays.free[1:-1, 1:-1]
    choices = []
    for k in my_tokens:
        vals = np.where(free_inner, total_old[k], -np.inf) - reserve[k]
        top = vals.max()
        for i, j in zip(*np.nonzero(vals >= top - 1e-6), strict=True):
            choices.append((float(top), k, int(i) + 1 + arrays.r0, int(j) + 1 + arrays.c0))
    best = max(v for v, *_ in choices)
    ties = [c for c in choices if c[0] >= best - 1e-6]
    _, k, row, col = ties[int(rng.integers(len(ties)))]
    return best, [R.PitchTent(R.Token(k), row, col)]


def _player(name: str) -> Any:
    style = STYLES[name]

    def play(state: R.CampsiteState, seat: int, rng: np.random.Generator) -> list[R.Action]:
        return decide(seat_view(state, seat), style, rng)

    play.__name__ = name
    play.__doc__ = f"Campsite `{name}` style (module docstring); reads only `seat_view(state, seat)`."
    return play


greedy = _player("greedy")
planner = _player("planner")
spoiler = _player("spoiler")

PLAYERS = {"greedy": greedy, "planner": planner, "spoiler": spoiler}

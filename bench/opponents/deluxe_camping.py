"""Outside players for Deluxe Camping, written from the rulebook (/work/shared/rules/deluxe-camping.txt), the
project's readings (docs/rules/deluxe-camping.md) and the rules-model API (`solver/deluxe_camping/rules.py`)
alone, without reading the hint's code, notes or bench results; never tuned against the hint.

Every style judges each open choice on one fast board evaluation: regions found by flood fill over bitmasks,
allotted sites scored exactly as the rulebook counts them, and every region still shared split by a nearest-piece
(Voronoi) claim, each player's part valued as the site it would make (x2 pool, +5 a stand, -10 the
pain-in-the-neck). Shared ground counts at a weight times the share of it the barriers left can still fence (the
open edges between two players' claims, one barrier each, against the supply): a region still shared when the
barriers run out scores nothing. The movement and the free barrier are separate decisions in the rules model;
setup placements (which the bench seeds at random) are judged the same way. The styles:

- `territory`: one ply; allotted points plus 0.9 x the fenceable claim, mine minus the best opponent's.
- `banker`: cautious; the claim at 0.55 (a closed site is worth banking), mine minus the opponents' mean; the
  four best movements are judged again with the best free barrier after each (the whole turn, two plies of its
  own).
- `raider`: denial; as `territory` but the best opponent's estimate weighs 1.6 times its own, so it pushes the
  pain-in-the-neck and its trailers into the leader's ground and wastes barriers where the leader gains.

Cost (2 players, 10 x 10, measured in the sanity games): one evaluation ~30-60 us; `territory` and `raider`
median ~4.5 ms a decision (mean ~5.3, at most ~21 ms); `banker` median ~23.5 ms a call (at most ~40 ms), the call
answering the movement and the free barrier (two decisions).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from campsolver.solver.deluxe_camping import rules as R

# --- the board as bitmasks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    rows: int
    cols: int
    full: int
    right: int  # bit s set when s has a right neighbour
    down: int  # bit s set when s has a neighbour below


@cache
def geometry(rows: int, cols: int) -> Geometry:
    full = (1 << (rows * cols)) - 1
    right = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))
    down = sum(1 << (r * cols + c) for r in range(rows - 1) for c in range(cols))
    return Geometry(rows, cols, full, right, down)


def open_edges(geo: Geometry, barriers: frozenset[tuple[int, int]] | set[tuple[int, int]]) -> tuple[int, int]:
    """(right_ok, down_ok): bit s set when the edge from s to its right / lower neighbour has no barrier."""
    right, down = geo.right, geo.down
    for a, b in barriers:
        if b == a + 1:
            right &= ~(1 << a)
        else:
            down &= ~(1 << a)
    return right, down


def _grow(f: int, right: int, down: int, cols: int) -> int:
    return f | ((f & right) << 1) | ((f >> 1) & right) | ((f & down) << cols) | ((f >> cols) & down)


def _bits(mask: int) -> int:
    return mask.bit_count()


@dataclass
class Picture:
    """What the evaluation sees: per player, the allotted points and the claimed parts of shared regions."""

    allotted: list[float]
    claims: list[list[tuple[float, float]]]  # per player: (site value of the claim, open boundary edges)


def picture(geo: Geometry, right: int, down: int, pieces: list[int], pool: int, ice: int, nuisance: int) -> Picture:
    """Regions by flood fill from the pieces (every region holds one), allotted sites scored, shared regions
    split by nearest piece (ties to nobody)."""
    cols = geo.cols
    players = len(pieces)
    everyone = 0
    for m in pieces:
        everyone |= m
    allotted = [0.0] * players
    claims: list[list[tuple[float, float]]] = [[] for _ in range(players)]
    seen = 0
    todo = everyone
    while todo:
        seed = todo & -todo
        region = seed
        while True:
            grown = _grow(region, right, down, cols)
            if grown == region:
                break
            region = grown
        todo &= ~region
        seen |= region
        owners = [p for p in range(players) if pieces[p] & region]
        if len(owners) == 1:
            allotted[owners[0]] += R.site_value(
                _bits(region), bool(pool & region), _bits(ice & region), bool(nuisance & region)
            )
            continue
        # Voronoi inside the region: every player's frontier grows one step at a time, a square reached by two
        # players in the same step belongs to nobody.
        mine = {p: pieces[p] & region for p in owners}
        frontier = dict(mine)
        free = region
        for p in owners:
            free &= ~mine[p]
        while free and any(frontier.values()):
            reach = {p: _grow(frontier[p], right, down, cols) & free for p in owners}
            contested = 0
            union = 0
            for p in owners:
                contested |= union & reach[p]
                union |= reach[p]
            for p in owners:
                frontier[p] = reach[p] & ~contested
                mine[p] |= frontier[p]
            free &= ~union
        for p in owners:
            m = mine[p]
            others = region & ~m
            boundary = (
                _bits(m & right & (others >> 1))
                + _bits(others & right & (m >> 1))
                + _bits(m & down & (others >> cols))
                + _bits(others & down & (m >> cols))
            )
            value = R.site_value(_bits(m), bool(pool & m), _bits(ice & m), bool(nuisance & m))
            claims[p].append((float(value), float(boundary)))
    return Picture(allotted, claims)


# --- positions after a choice ----------------------------------------------------------------------------------


@dataclass
class Board:
    """A position reduced to what the evaluation needs (squares as bits)."""

    geo: Geometry
    right: int
    down: int
    pieces: list[int]
    pool: int
    ice: int
    nuisance: int
    owner: dict[int, int]  # square -> player, trailers and bungalows

    def picture(self) -> Picture:
        return picture(self.geo, self.right, self.down, self.pieces, self.pool, self.ice, self.nuisance)


def board_of(state: R.DCState) -> Board:
    cfg = state.config
    geo = geometry(cfg.rows, cfg.cols)
    right, down = open_edges(geo, state.barriers)
    pieces = [0] * cfg.players
    for square, player in state.owner_at.items():
        pieces[player] |= 1 << square
    ice = 0
    for s in state.ice_creams:
        ice |= 1 << s
    pool = 1 << state.pool if state.pool >= 0 else 0
    nuisance = 1 << state.nuisance if state.nuisance >= 0 else 0
    return Board(geo, right, down, pieces, pool, ice, nuisance, dict(state.owner_at))


def after_move(board: Board, me: int, move: R.Move, nuisance_square: int) -> Board:
    """The board after a movement of player `me`, with the automatic barriers it brings."""
    cols = board.geo.cols
    pieces = list(board.pieces)
    owner = dict(board.owner)
    nuisance = board.nuisance
    moved: list[int] = []
    for a, b in move.steps:
        if a == nuisance_square and nuisance == 1 << a:
            nuisance = 1 << b
            nuisance_square = b
            continue
        pieces[me] = (pieces[me] & ~(1 << a)) | (1 << b)
        del owner[a]
        owner[b] = me
        moved = [b if x == a else x for x in moved]
        if b not in moved:
            moved.append(b)
    right, down = board.right, board.down
    rows = board.geo.rows
    for s in moved:
        if owner.get(s) != me:
            continue
        r, c = divmod(s, cols)
        for t in (
            (s - cols) if r > 0 else -1,
            (s + cols) if r < rows - 1 else -1,
            (s - 1) if c > 0 else -1,
            (s + 1) if c < cols - 1 else -1,
        ):
            if t < 0 or t not in owner or owner[t] == me:
                continue
            a, b = (s, t) if s < t else (t, s)
            if b == a + 1:
                right &= ~(1 << a)
            else:
                down &= ~(1 << a)
    return Board(board.geo, right, down, pieces, board.pool, board.ice, nuisance, owner)


def with_barrier(board: Board, edge: tuple[int, int] | None) -> Board:
    if edge is None:
        return board
    a, b = edge
    right, down = board.right, board.down
    if b == a + 1:
        right &= ~(1 << a)
    else:
        down &= ~(1 << a)
    return Board(board.geo, right, down, board.pieces, board.pool, board.ice, board.nuisance, board.owner)


# --- the styles ------------------------------------------------------------------------------------------------


def _closure(pic: Picture, supply_left: int) -> float:
    """The share of the shared ground the barriers left can still fence: every open edge between two players'
    claims needs a barrier before its region splits into sites, and a region still shared at the end scores
    nothing for anyone."""
    boundary = sum(b for claims in pic.claims for _, b in claims) / 2.0
    return min(1.0, supply_left / boundary) if boundary > 0 else 1.0


def _estimates(pic: Picture, weight: float) -> list[float]:
    return [pic.allotted[p] + weight * sum(v for v, _ in pic.claims[p]) for p in range(len(pic.allotted))]


def _territory_value(pic: Picture, me: int, supply_left: int) -> float:
    est = _estimates(pic, 0.9 * _closure(pic, supply_left))
    return est[me] - max(est[p] for p in range(len(est)) if p != me)


def _banker_value(pic: Picture, me: int, supply_left: int) -> float:
    est = _estimates(pic, 0.55 * _closure(pic, supply_left))
    others = [est[p] for p in range(len(est)) if p != me]
    return est[me] - sum(others) / len(others)


def _raider_value(pic: Picture, me: int, supply_left: int) -> float:
    est = _estimates(pic, 0.9 * _closure(pic, supply_left))
    return est[me] - 1.6 * max(est[p] for p in range(len(est)) if p != me)


STYLE_VALUES = {"territory": _territory_value, "banker": _banker_value, "raider": _raider_value}


def _choose(values: list[float], rng: np.random.Generator) -> int:
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - 1e-9]
    return ties[int(rng.integers(len(ties)))]


def _setup_choice(state: R.DCState, seat: int, rng: np.random.Generator, value: Any) -> R.Place:
    """Setup placements (not played by the bench, whose setup is seeded random): pool and mystery tokens at random
    among legal squares; a bungalow or trailer where the evaluation likes it best."""
    actions = state.legal_actions()
    if state.stage in (R.Stage.POOL, R.Stage.MYSTERY):
        return actions[int(rng.integers(len(actions)))]
    board = board_of(state)
    cfg = state.config
    values = []
    for action in actions:
        pieces = list(board.pieces)
        pieces[seat] |= 1 << action.square
        pic = picture(board.geo, board.right, board.down, pieces, board.pool, board.ice, board.nuisance)
        values.append(value(pic, seat, cfg.supply))
    return actions[_choose(values, rng)]


def _barrier_values(board: Board, state: R.DCState, seat: int, value: Any, actions: list[Any]) -> list[float]:
    left = state.supply_left
    return [value(with_barrier(board, a.edge).picture(), seat, left - (a.edge is not None)) for a in actions]


def decide(
    state: R.DCState, seat: int, rng: np.random.Generator, style: str, turn_lookahead: int = 0
) -> list[R.Action]:
    """One decision of `seat` judged by `style`'s value of the position right after it. With `turn_lookahead` k,
    the k best movements are judged again with the best free barrier that follows each (the whole turn), and
    the answer is the movement and its barrier."""
    value = STYLE_VALUES[style]
    stage = state.stage
    if stage in (R.Stage.POOL, R.Stage.MYSTERY, R.Stage.BUNGALOW, R.Stage.TRAILER):
        return [_setup_choice(state, seat, rng, value)]
    actions = state.legal_actions()
    if len(actions) == 1 and not (stage is R.Stage.MOVE and turn_lookahead):
        return [actions[0]]
    board = board_of(state)
    left = state.supply_left
    if stage is not R.Stage.MOVE:
        return [actions[_choose(_barrier_values(board, state, seat, value, actions), rng)]]
    values = []
    boards = []
    for move in actions:
        after = after_move(board, seat, move, state.nuisance)
        boards.append(after)
        walls = _bits(board.right ^ after.right) + _bits(board.down ^ after.down)
        values.append(value(after.picture(), seat, left - walls))
    if not turn_lookahead:
        return [actions[_choose(values, rng)]]
    order = sorted(range(len(actions)), key=lambda i: -values[i])[:turn_lookahead]
    plans: dict[int, list[R.Action]] = {}
    for i in order:
        child = state.child(actions[i])
        if child.stage is R.Stage.BARRIER and child.to_move == seat:
            barriers = child.legal_actions()
            scores = _barrier_values(boards[i], child, seat, value, barriers)
            j = _choose(scores, rng)
            values[i] = scores[j]
            plans[i] = [actions[i], barriers[j]]
        else:
            plans[i] = [actions[i]]
    best = _choose([values[i] if i in plans else -1e18 for i in range(len(actions))], rng)
    return plans[best]


def territory(state: R.DCState, seat: int, rng: np.random.Generator) -> list[R.Action]:
    """Allotted points plus the nearest-piece claim of shared ground, mine minus the best opponent's."""
    return decide(state, seat, rng, "territory")


def banker(state: R.DCState, seat: int, rng: np.random.Generator) -> list[R.Action]:
    """Cautious: shared ground at 0.55 of its value, so a site closed is worth banking; mine minus the opponents'
    mean; the four best movements judged with the best barrier after each (the whole turn)."""
    return decide(state, seat, rng, "banker", turn_lookahead=4)


def raider(state: R.DCState, seat: int, rng: np.random.Generator) -> list[R.Action]:
    """Denial: the leader's estimate weighs 1.6x its own."""
    return decide(state, seat, rng, "raider")


PLAYERS = {"territory": territory, "banker": banker, "raider": raider}

"""The two-camper return duel solved exactly: both campers home-bound, nobody home, each playing to win.

With two campers on the journey the game is a two-player, zero-sum game of perfect information with chance (the
dice), so it has a value and stationary optimal strategies; once both have turned back it is small enough to solve
outright. Each camper is (plates to the starting plate d, tokens or shortfall s); the markers enter only through
their difference, so one table per marker gap answers every such position:

* a failed roll passes the turn, so a position with X to move and the same position with Y to move form a
  two-state cycle; for each pair of announcements (a, b) its value is (S_a + f_a S_b) / (1 - f_a g_b) (S the
  success parts, f, g the chances to fail), and the value is max over a of min over b (a pure stationary saddle
  point, which perfect-information stochastic games have);
* an arrival ends the game when the arriving score passes the other's marker (rules `_furthest_ahead`: a tie
  does not); otherwise the other is the last camper, whose chance is the exact `last_camper_win_probability`;
* positions by d: X's moves lower dx, Y's lower dy, so (dx, dy) in order needs only solved cells and its own cycle.

Approximations, stated: the plates home are taken as normal (a special plate landed on is not modelled); a
shortfall beyond SHORTFALL_FLOOR counts as that floor. The tables (`return_duel.npy`, one announcement per
(gap, dx, dy, tokens x, tokens y), 3 MB) are derived by `python -m campsolver.solver.camper_tour.return_duel`;
`players.race` plays them in its duels (`duel_return_move`) and falls back to burning its tokens outside them.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    STARTING_PLATE,
    Announce,
    Camper,
    Pending,
    Phase,
    TourState,
)

#: Plates to the starting plate covered by the tables (a camper further out falls back to the rule).
MAX_DISTANCE = 40
#: Tokens in hand covered by the tables.
MAX_TOKENS = 25
#: Marker gaps (this camper's marker minus the other's) covered by the tables.
MAX_GAP = 40
#: A shortfall (tokens owed on the way home, each moving the marker back) beyond this counts as this.
SHORTFALL_FLOOR = 25
TABLE_FILE = Path(__file__).with_name("return_duel.npy")
#: Unpacked blocks kept in memory (27 KB each; all 3,240 would be 88 MB).
BLOCKS_KEPT = 512

_S = np.arange(-SHORTFALL_FLOOR, MAX_TOKENS + 1)  # s: tokens (>= 0) or minus the shortfall since the table's start
_NS = _S.size
_ZERO = SHORTFALL_FLOOR  # index of s = 0


def _success_matrix(announced: int) -> np.ndarray:
    """m[i, j]: the probability that announcing `announced` succeeds and takes s from index i to index j."""
    from campsolver.solver.camper_tour.duel import ROLLS  # the dice, written once (imported only to solve)

    m = np.zeros((_NS, _NS))
    for total, p in ROLLS:
        if total > announced:
            pay = total - announced
            for i in range(_NS):
                m[i, max(0, i - pay)] += p
    return m


@cache
def _success_matrices() -> tuple[np.ndarray, ...]:
    return (np.zeros((0, 0)), *(_success_matrix(a) for a in range(1, MAX_ANNOUNCEMENT + 1)))


def _last_camper(distance: int, s: np.ndarray, slack: np.ndarray) -> np.ndarray:
    """The last camper's exact chance to win, `distance` plates from home with s (tokens or -shortfall already
    in the slack) and a marker `slack` plates above the score to reach."""
    from campsolver.solver.camper_tour.players import last_camper_win_probability  # players imports this module

    shape = np.broadcast_shapes(s.shape, slack.shape)
    tokens = np.broadcast_to(np.maximum(0, s), shape).ravel().tolist()
    slacks = np.broadcast_to(slack, shape).ravel().tolist()
    position = distance + STARTING_PLATE
    values = [last_camper_win_probability(position, t, k) for t, k in zip(tokens, slacks, strict=True)]
    return np.array(values).reshape(shape)


def _arrival_x(gap: int, dy: int) -> np.ndarray:
    """(s_x after the move, s_y): X's chance when X reaches home and Y stands `dy` plates out."""
    sx, sy = _S[:, None], _S[None, :]
    owed_y = np.maximum(0, -sy)
    ahead = np.abs(sx) - owed_y < gap  # X's score above Y's marker as it stands: the game ends, X wins
    return np.where(ahead, 1.0, 1.0 - _last_camper(dy, sy, np.abs(sx) - owed_y - gap))


def _arrival_y(gap: int, dx: int) -> np.ndarray:
    """(s_x, s_y after the move): X's chance when Y reaches home and X stands `dx` plates out."""
    sx, sy = _S[:, None], _S[None, :]
    owed_x = np.maximum(0, -sx)
    ahead = np.abs(sy) - owed_x < -gap
    return np.where(ahead, 0.0, _last_camper(dx, sx, np.abs(sy) - owed_x + gap))


def solve(gap: int, max_distance: int = MAX_DISTANCE, max_dy: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(announcement, value) of X to move over (dx, dy, s_x, s_y) index arrays (d from 0; s index = s + floor),
    X's marker `gap` plates ahead of Y's. Index 0 of d is unused (home). `max_dy`: Y's distances solved (default
    `max_distance`; a cell needs only cells with smaller distances, so a smaller one answers those exactly)."""
    max_dy = max_distance if max_dy is None else max_dy
    from campsolver.solver.camper_tour.duel import FAIL  # P(2d6 <= a), written once (imported only to solve)

    shape = (max_distance + 1, max_dy + 1, _NS, _NS)
    policy = np.zeros(shape, dtype=np.int8)
    value = np.zeros(shape)
    success = _success_matrices()
    x_turn: dict[tuple[int, int], np.ndarray] = {}
    y_turn: dict[tuple[int, int], np.ndarray] = {}
    for dx in range(1, max_distance + 1):
        arrive_y = _arrival_y(gap, dx)
        for dy in range(1, max_dy + 1):
            xs = [a for a in range(1, min(MAX_ANNOUNCEMENT, dx) + 1) if dx - a != dy]
            ys = [b for b in range(1, min(MAX_ANNOUNCEMENT, dy) + 1) if dy - b != dx]
            arrive_x = _arrival_x(gap, dy) if dx <= MAX_ANNOUNCEMENT else None
            x_moves = np.stack([success[a] @ (arrive_x if a == dx else y_turn[dx - a, dy]) for a in xs])
            y_moves = np.stack([(arrive_y if b == dy else x_turn[dx, dy - b]) @ success[b].T for b in ys])
            f = FAIL[xs][:, None, None, None]
            g = FAIL[ys][None, :, None, None]
            pairs = (x_moves[:, None] + f * y_moves[None]) / (1.0 - f * g)
            worst = pairs.min(axis=1)
            v = worst.max(axis=0)
            x_turn[dx, dy] = v
            y_turn[dx, dy] = (FAIL[ys][:, None, None] * v[None] + y_moves).min(axis=0)
            policy[dx, dy] = np.asarray(xs, dtype=np.int8)[worst.argmax(axis=0)]
            value[dx, dy] = v
        for key in [k for k in x_turn if k[0] <= dx - MAX_ANNOUNCEMENT]:
            del x_turn[key], y_turn[key]
    return policy, value


def open_blocks(path: Path, limits: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """A table file, memory-mapped (nothing is read until a block is): a header (`limits`, then the block count,
    int64), the blocks' offsets (int64), then the zlib-compressed int8 blocks. None when the file is missing or its
    limits are not these."""
    if not path.exists():
        return None
    data = np.load(path, mmap_mode="r")
    size = 8 * (len(limits) + 1)
    header = np.frombuffer(data[:size].tobytes(), dtype="<i8")
    if tuple(header[: len(limits)]) != limits:
        return None
    count = int(header[len(limits)])
    offsets = np.frombuffer(data[size : size + 8 * (count + 1)].tobytes(), dtype="<i8")
    return data, offsets


def unpack(store: tuple[np.ndarray, np.ndarray] | None, index: int, shape: tuple[int, ...]) -> np.ndarray | None:
    """Block `index` of an open table file as an int8 array of `shape` (None without the file or the block)."""
    if store is None:
        return None
    data, offsets = store
    if index + 1 >= len(offsets):
        return None
    raw = zlib.decompress(data[offsets[index] : offsets[index + 1]].tobytes())
    return np.frombuffer(raw, dtype=np.int8).reshape(shape)


def write_blocks(path: Path, limits: tuple[int, ...], blocks: list[bytes]) -> None:
    """The table file `open_blocks` reads: the header, the offsets, the blocks."""
    start = 8 * (len(limits) + 1) + 8 * (len(blocks) + 1)
    offsets = start + np.cumsum([0] + [len(block) for block in blocks])
    header = np.array([*limits, len(blocks)], dtype="<i8")
    payload = header.tobytes() + offsets.astype("<i8").tobytes() + b"".join(blocks)
    np.save(path, np.frombuffer(payload, dtype=np.uint8))


def duel_pair(state: TourState, rival: int | None = None) -> tuple[Camper, Camper] | None:
    """(the mover, its rival) when they are the two campers left on the journey, nobody home (any others
    eliminated: they count for nothing), neither with an effect pending (a skipped turn or a choice is not the
    tables'); None otherwise. `rival`: play the duel against that seat whoever else is on the journey (the caller
    says why the others may be left out; moves are still checked legal on the whole table)."""
    me = state.mover
    if rival is not None:
        others = [state.campers[rival]]
    else:
        others = [c for i, c in enumerate(state.campers) if i != state.to_move and c.phase != Phase.ELIMINATED]
    if len(others) != 1 or me.pending != Pending.NONE or others[0].pending != Pending.NONE:
        return None
    return me, others[0]


@cache
def _store() -> tuple[np.ndarray, np.ndarray] | None:
    """The shipped tables: one (dy, tokens x, tokens y) block per (gap, dx) (`open_blocks`)."""
    return open_blocks(TABLE_FILE, (MAX_DISTANCE, MAX_TOKENS, MAX_GAP))


@lru_cache(maxsize=BLOCKS_KEPT)
def _block(gap: int, dx: int) -> np.ndarray | None:
    """Announcements over (dy - 1, tokens x, tokens y) for X `dx` plates out, X's marker `gap` ahead (~0.05 ms to
    unpack a 27 KB block: a hint's playouts meet many gaps, so blocks are unpacked one at a time, the most recent
    BLOCKS_KEPT kept)."""
    index = (gap + MAX_GAP) * MAX_DISTANCE + dx - 1
    return unpack(_store(), index, (MAX_DISTANCE, MAX_TOKENS + 1, MAX_TOKENS + 1))


def duel_return_move(state: TourState, rival: int | None = None) -> Announce | None:
    """The solved duel's announcement for the camper to move, when it and one other camper are the two left on the
    journey (`duel_pair`; or against `rival`), both home-bound, within the tables; None otherwise."""
    pair = duel_pair(state, rival)
    if pair is None or pair[0].phase != Phase.RETURN or pair[1].phase != Phase.RETURN:
        return None
    me, other = pair
    dx, dy = me.position - STARTING_PLATE, other.position - STARTING_PLATE
    gap = me.marker - other.marker
    if not (1 <= dx <= MAX_DISTANCE and 1 <= dy <= MAX_DISTANCE and abs(gap) <= MAX_GAP):
        return None
    if me.tokens > MAX_TOKENS or other.tokens > MAX_TOKENS:
        return None
    block = _block(gap, dx)
    if block is None:
        return None
    move = Announce(int(block[dy - 1, me.tokens, other.tokens]))
    return move if move.plates in state.legal_announcements() else None


def derive(gap: int, max_distance: int = MAX_DISTANCE) -> np.ndarray:
    """One gap's announcements over (dx - 1, dy - 1, tokens x, tokens y), as shipped."""
    return solve(gap, max_distance)[0][1:, 1:, _ZERO:, _ZERO:].copy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TABLE_FILE)
    args = parser.parse_args(argv)
    blocks = []
    for gap in range(-MAX_GAP, MAX_GAP + 1):
        table = derive(gap)
        blocks.extend(zlib.compress(table[dx].tobytes(), 9) for dx in range(MAX_DISTANCE))
        print(f"gap {gap}", file=sys.stderr, flush=True)
    write_blocks(args.out, (MAX_DISTANCE, MAX_TOKENS, MAX_GAP), blocks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

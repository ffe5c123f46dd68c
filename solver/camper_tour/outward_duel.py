"""The two-camper duel with one camper still outward and the other home-bound, solved exactly on an all-normal route.

Once one of the two campers left on the journey has turned back (nobody home, any others eliminated), the outward
one chooses each turn between turning back, which starts the solved return duel (`return_duel`), and going on; the
home-bound one races home. It is a two-player game of perfect information with dice, solved here on X's chance to
win (X outward, Y home-bound). It is zero-sum: with nobody home, a camper left alone on the journey wins for
certain (it turns back and announces 1, which never fails), so every game has a winner.

* X is (plates out P, tokens t_x), Y is (plates to the starting plate D, tokens or shortfall s_y), and Y's marker
  enters only through g = X's plate - Y's marker (X's marker if it turned back now minus Y's);
* X turning back is the return duel with X to move at marker gap g (its exact values, `return_duel.solve`);
  X going on k plates adds k to P and to g and pays the roll beyond k (paying its last token eliminates it:
  Y, left alone, wins);
* Y arriving ends the game when its score passes X's plate (rules `_furthest_ahead`); otherwise X is the last
  camper, still outward: going on or turning back, any failed roll eliminates it (`_last_camper_outward`, exact);
* X's moves raise P, Y's lower D, so (P descending, D ascending) needs only solved cells and the failed-roll cycle
  of each cell, solved in closed form as in `return_duel` (max over X's options of min over Y's).

Approximations, stated: every plate is normal (no special plate is modelled); X goes at most SOLVE_OUT plates out
while Y is home-bound (a move past it is not considered: near that horizon turning back is forced, so only cells up
to MAX_OUT, ten plates short of it, are served); g beyond +-MAX_GAP counts as +-MAX_GAP, a shortfall beyond
`return_duel.SHORTFALL_FLOOR` as that floor. Only X's choices are shipped (`outward_duel.npy`, per (g, P, D, t_x,
t_y)): Y's minimax announcements, played by the race rule when home-bound against a rival still outward, did worse
than its own rule against the sparring partners (docs/solvers/camper-tour.md). The tables are derived by
`python -m campsolver.solver.camper_tour.outward_duel`; `players.race` plays them.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
from campsolver.solver.camper_tour import return_duel
from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    PLATE_COUNT,
    STARTING_PLATE,
    Action,
    Announce,
    Camper,
    Phase,
    TourState,
    TurnBack,
)

#: Plates out (from the starting plate) covered by the tables.
MAX_OUT = return_duel.MAX_DISTANCE
#: Plates out solved: X at most this far while Y is home-bound (both at most this far both outward), so that no
#: served cell's choice is forced by the horizon (every announcement is at most MAX_ANNOUNCEMENT plates).
SOLVE_OUT = MAX_OUT + MAX_ANNOUNCEMENT
#: Y's plates home covered by the tables.
MAX_DISTANCE = return_duel.MAX_DISTANCE
#: Tokens in hand covered by the tables.
MAX_TOKENS = return_duel.MAX_TOKENS
#: X's plate minus Y's marker covered by the tables.
MAX_GAP = return_duel.MAX_GAP
#: The route the tables are solved for (X's last-camper walk outward may go to its end).
ROUTE = PLATE_COUNT
TABLE_FILE = Path(__file__).with_name("outward_duel.npy")
BLOCKS_KEPT = 512
SHORTFALL = return_duel.SHORTFALL_FLOOR
#: X's choice code for turning back (any other code is the announcement).
TURN_BACK = 0

_S = return_duel._S  # Y's s: tokens (>= 0) or minus the shortfall since the table's start
_NS = _S.size
_ZERO = return_duel._ZERO
_NG = 2 * MAX_GAP + 1
_NT = MAX_TOKENS + 1  # X's tokens 0..MAX_TOKENS (0 only as "eliminated")


def _last_camper_outward(route_plates: int, max_slack: int) -> np.ndarray:
    """W[P, t, k]: X's chance as the last camper, still outward P plates from the starting plate with t tokens and
    its plate k plates above the score to beat (k >= 0; each plate further out raises it by one; beyond `max_slack`
    it counts as `max_slack`): going on, a failed roll or paying its last token eliminates X; turning back, its
    chance is `last_camper_win_probability` (exact, all-normal return)."""
    from campsolver.solver.camper_tour.duel import ROLLS
    from campsolver.solver.camper_tour.players import last_camper_win_probability

    value = np.zeros((route_plates + 1, _NT, max_slack + 1))
    slacks = np.arange(max_slack + 1)
    for p in range(route_plates, 0, -1):
        for t in range(1, _NT):
            best = np.array([last_camper_win_probability(p + STARTING_PLATE, t, int(k)) for k in slacks])
            for a in range(1, min(MAX_ANNOUNCEMENT, route_plates - p) + 1):
                go = np.zeros(max_slack + 1)
                for total, prob in ROLLS:
                    if total > a and t - (total - a) > 0:
                        go += prob * value[p + a, t - (total - a), np.minimum(slacks + a, max_slack)]
                best = np.maximum(best, go)
            value[p, t] = best
    return value


def _x_success(announced: int) -> np.ndarray:
    """m[t, t']: the chance that X announcing `announced` outward succeeds and goes from t tokens to t' (> 0)."""
    from campsolver.solver.camper_tour.duel import ROLLS

    m = np.zeros((_NT, _NT))
    for total, p in ROLLS:
        if total > announced:
            pay = total - announced
            for t in range(1, _NT):
                if t - pay > 0:
                    m[t, t - pay] += p
    return m


@dataclass(frozen=True)
class Solution:
    """The solved duel over (P, D, g index, t_x, s_y index), P and D from 0 (index 0 unused): X's choice, Y's
    announcement, X's chance with X to move and with Y to move; and X's chance as the last camper outward
    (`_last_camper_outward`, over (P, t_x, slack))."""

    x_policy: np.ndarray
    y_policy: np.ndarray
    x_value: np.ndarray
    y_value: np.ndarray
    outward_last: np.ndarray


def solve(
    max_out: int = SOLVE_OUT, max_distance: int = SOLVE_OUT, route_plates: int = ROUTE - STARTING_PLATE
) -> Solution:
    """The duel solved (`Solution`). `route_plates`: the plates beyond the starting plate (X never goes past
    them)."""
    from campsolver.solver.camper_tour.duel import FAIL

    max_out = min(max_out, route_plates)
    duel = np.zeros((_NG, max_out + 1, max_distance + 1, _NT, _NS), dtype=np.float32)
    for gi in range(_NG):
        value = return_duel.solve(gi - MAX_GAP, max_out, max_distance)[1]
        duel[gi] = value[: max_out + 1, : max_distance + 1, _ZERO : _ZERO + _NT, :]
        print(f"return duel gap {gi - MAX_GAP}", file=sys.stderr, flush=True)
    max_slack = 2 * MAX_GAP + SHORTFALL
    outward_last = _last_camper_outward(route_plates, max_slack)
    y_success = return_duel._success_matrices()
    x_success = [np.zeros((0, 0)), *(_x_success(a) for a in range(1, MAX_ANNOUNCEMENT + 1))]
    g = np.arange(-MAX_GAP, MAX_GAP + 1)
    # Y arrives (after its roll, s_y as paid): the game ends (X loses) unless X's plate is not behind Y's score.
    slack = g[:, None] + np.abs(_S)[None, :]  # X's plate - Y's score, over (g, s_y)
    shape = (max_out + 1, max_distance + 1, _NG, _NT, _NS)
    x_policy = np.zeros(shape, dtype=np.int8)
    y_policy = np.zeros(shape, dtype=np.int8)
    x_value = np.zeros(shape, dtype=np.float32)
    y_value = np.zeros(shape, dtype=np.float32)
    y_turn: dict[tuple[int, int], np.ndarray] = {}
    for p in range(max_out, 0, -1):
        arrive = _arrival_values(outward_last[p], slack, max_slack)
        x_turn: dict[int, np.ndarray] = {}
        for d in range(1, max_distance + 1):
            xs = [a for a in range(1, MAX_ANNOUNCEMENT + 1) if p + a <= max_out and p + a != d]
            ys = [b for b in range(1, min(MAX_ANNOUNCEMENT, d) + 1) if d - b != p]
            back = duel[:, p, d].astype(np.float64)  # (g, t_x, s_y)
            back[:, 0, :] = 0.0
            y_moves = np.stack([(arrive if b == d else x_turn[d - b]) @ y_success[b].T for b in ys])  # (b, g, t_x, s_y)
            fy = FAIL[ys][:, None, None, None]
            if xs:
                x_moves = np.stack(
                    [
                        np.einsum(
                            "ij,gjs->gis", x_success[a], y_turn[p + a, d][np.minimum(np.arange(_NG) + a, _NG - 1)]
                        )
                        for a in xs
                    ]
                )
                fx = FAIL[xs][:, None, None, None, None]
                pairs = (x_moves[:, None] + fx * y_moves[None]) / (1.0 - fx * fy[None])
                worst = pairs.min(axis=1)
                go = worst.max(axis=0)
                choice = np.asarray(xs, dtype=np.int8)[worst.argmax(axis=0)]
                v = np.where(back >= go, back, go)
                x_policy[p, d] = np.where(back >= go, TURN_BACK, choice)
            else:
                v = back
                x_policy[p, d] = TURN_BACK
            v[:, 0, :] = 0.0
            x_turn[d] = v
            y_all = fy * v[None] + y_moves
            y_turn[p, d] = y_all.min(axis=0)
            y_value[p, d] = y_turn[p, d]
            y_policy[p, d] = np.asarray(ys, dtype=np.int8)[y_all.argmin(axis=0)]
            x_value[p, d] = v
        for key in [k for k in y_turn if k[0] >= p + MAX_ANNOUNCEMENT]:
            del y_turn[key]
        print(f"plates out {p}", file=sys.stderr, flush=True)
    return Solution(x_policy, y_policy, x_value, y_value, outward_last)


def _arrival_values(outward_last: np.ndarray, slack: np.ndarray, max_slack: int) -> np.ndarray:
    """(g, t_x, s_y): X's chance when Y reaches home, X outward with t_x tokens: X's last-camper walk with
    k = X's plate - Y's score (0 where Y's arrival ends the game)."""
    clipped = np.clip(slack, 0, max_slack)  # (g, s)
    values = outward_last[:, clipped]  # (t_x, g, s)
    return np.where((slack >= 0)[None], values, 0.0).transpose(1, 0, 2)


@dataclass(frozen=True)
class BothOut:
    """Both campers outward, over (P_a, P_b, t_a, t_b), P from 0 (index 0 unused): the mover a's choice (TURN_BACK
    or the announcement), a's chance with a to move and with b to move."""

    policy: np.ndarray
    a_value: np.ndarray
    b_value: np.ndarray


def solve_both_out(solution: Solution) -> BothOut:
    """Both campers outward (nobody home, others eliminated), each playing to win: a turning back becomes the
    home-bound camper of `solution` with its announcement home still to make (a's chance is one minus b's there:
    every game has a winner), b turning back likewise; an announcement out adds plates and pays the roll beyond them
    (paying the last token eliminates: the other one, left alone, wins). Cells by P_a + P_b descending; each cell's
    failed-roll cycle in closed form."""
    from campsolver.solver.camper_tour.duel import FAIL

    max_out = solution.x_value.shape[0] - 1
    y_value = solution.y_value
    x_success = [np.zeros((0, 0)), *(_x_success(a) for a in range(1, MAX_ANNOUNCEMENT + 1))]
    eliminated = [np.zeros(0), *(1.0 - m.sum(axis=1) - FAIL[a] for a, m in enumerate(x_success[1:], start=1))]
    shape = (max_out + 1, max_out + 1, _NT, _NT)
    policy = np.zeros(shape, dtype=np.int8)
    a_value = np.zeros(shape)
    b_value = np.zeros(shape)
    for total in range(2 * max_out, 1, -1):
        for pa in range(max(1, total - max_out), min(max_out, total - 1) + 1):
            pb = total - pa
            # a turns back: b outward (X) against a home-bound (Y) with a's announcement home to make.
            gap = min(max(pa - pb, -MAX_GAP), MAX_GAP)  # beyond +-MAX_GAP counted as +-MAX_GAP
            back_a = 1.0 - y_value[pb, pa, MAX_GAP - gap][:, _ZERO : _ZERO + _NT].T.astype(np.float64)
            back_b = y_value[pa, pb, MAX_GAP + gap][:, _ZERO : _ZERO + _NT].astype(np.float64)
            xs = [k for k in range(1, MAX_ANNOUNCEMENT + 1) if pa + k <= max_out and pa + k != pb]
            ys = [j for j in range(1, MAX_ANNOUNCEMENT + 1) if pb + j <= max_out and pb + j != pa]
            a_moves = [x_success[k] @ b_value[pa + k, pb] for k in xs]  # (t_a, t_b); a eliminated: 0
            b_moves = [a_value[pa, pb + j] @ x_success[j].T + eliminated[j][None, :] for j in ys]
            options_b = [(back_b, 0.0)] + [(b_moves[i], FAIL[j]) for i, j in enumerate(ys)]
            best = back_a.copy()
            choice = np.zeros((_NT, _NT), dtype=np.int8)
            for i, k in enumerate(xs):
                f = FAIL[k]
                worst = np.min([(a_moves[i] + f * s) / (1.0 - f * g) for s, g in options_b], axis=0)
                better = worst > best
                best = np.where(better, worst, best)
                choice = np.where(better, k, choice)
            best[0, :] = 0.0
            best[:, 0] = 0.0
            a_value[pa, pb] = best
            policy[pa, pb] = choice
            b_value[pa, pb] = np.min([s + g * best for s, g in options_b], axis=0)
            b_value[pa, pb][0, :] = 0.0
    return BothOut(policy, a_value, b_value)


@cache
def _store() -> tuple[np.ndarray, np.ndarray] | None:
    """The shipped tables (`return_duel.open_blocks`): X's choices, one (D, tokens x, tokens y) block per (g, P);
    then the both-outward mover's choices, one (P other, tokens, tokens other) block per P of the mover."""
    return return_duel.open_blocks(TABLE_FILE, (MAX_OUT, MAX_DISTANCE, MAX_GAP, ROUTE))


@lru_cache(maxsize=BLOCKS_KEPT)
def _block(gap: int, out: int) -> np.ndarray | None:
    """X's choices over (D - 1, tokens x, tokens y) for X `out` plates out, its plate `gap` beyond Y's marker
    (unpacked one at a time, the most recent BLOCKS_KEPT kept)."""
    return return_duel.unpack(_store(), (gap + MAX_GAP) * MAX_OUT + out - 1, (MAX_DISTANCE, _NT, MAX_TOKENS + 1))


@lru_cache(maxsize=MAX_OUT)
def _both_out_block(out: int) -> np.ndarray | None:
    """The both-outward mover's choices over (P other - 1, tokens, tokens other) for the mover `out` plates out."""
    return return_duel.unpack(_store(), _NG * MAX_OUT + out - 1, (MAX_OUT, _NT, _NT))


def _choice(state: TourState, code: int) -> Action | None:
    """A table's code as the move: TURN_BACK or a legal announcement (None if the announcement is not legal)."""
    if code == TURN_BACK:
        return TurnBack()
    return Announce(code) if code in state.legal_announcements() else None


def _pair(state: TourState, rival_phase: Phase, rival: int | None = None) -> tuple[Camper, Camper] | None:
    """(mover, rival) of a duel on the tables' route (`return_duel.duel_pair`, `rival` as there), the mover outward
    with at most MAX_TOKENS tokens and the rival in `rival_phase` with at most MAX_TOKENS."""
    pair = return_duel.duel_pair(state, rival) if state.config.plate_count == ROUTE else None
    if pair is None or pair[0].phase != Phase.OUTWARD or pair[1].phase != rival_phase:
        return None
    if pair[0].tokens > MAX_TOKENS or pair[1].tokens > MAX_TOKENS:
        return None
    return pair


def both_out_move(state: TourState) -> Action | None:
    """The solved duel's turn back or announcement for the camper to move when it and the one other camper left on
    the journey are both outward (each 1..MAX_OUT plates out), nobody home; None otherwise."""
    pair = _pair(state, Phase.OUTWARD)
    if pair is None:
        return None
    me, other = pair
    out, rival = me.position - STARTING_PLATE, other.position - STARTING_PLATE
    if not (1 <= out <= MAX_OUT and 1 <= rival <= MAX_OUT and me.tokens >= 1 and other.tokens >= 1):
        return None
    block = _both_out_block(out)
    return None if block is None else _choice(state, int(block[rival - 1, me.tokens, other.tokens]))


def outward_duel_move(state: TourState, rival: int | None = None) -> Action | None:
    """The solved duel's turn back or announcement for the camper to move when it is outward and the one other
    camper left on the journey (or `rival`, `return_duel.duel_pair`) is home-bound, nobody home, within the tables;
    None otherwise."""
    pair = _pair(state, Phase.RETURN, rival)
    if pair is None:
        return None
    me, other = pair
    out, home, gap = me.position - STARTING_PLATE, other.position - STARTING_PLATE, me.position - other.marker
    if not (1 <= out <= MAX_OUT and 1 <= home <= MAX_DISTANCE and abs(gap) <= MAX_GAP and me.tokens >= 1):
        return None
    block = _block(gap, out)
    return None if block is None else _choice(state, int(block[home - 1, me.tokens, other.tokens]))


def derive(
    max_out: int = SOLVE_OUT,
    max_distance: int = SOLVE_OUT,
    route_plates: int = ROUTE - STARTING_PLATE,
    solution: Solution | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """As shipped (the cells up to MAX_OUT plates out and MAX_DISTANCE home of a solve to `max_out`, `max_distance`):
    X's choices over (g index, P - 1, D - 1, tokens x, tokens y), and the both-outward mover's over (P - 1, P other
    - 1, tokens, tokens other) (only when `max_distance` reaches `max_out`: a turn back there needs the home-bound
    camper at every plate out; else empty). `solution`: that solve, if already made."""
    solution = solution or solve(max_out, max_distance, route_plates)
    out, home = min(MAX_OUT, max_out), min(MAX_DISTANCE, max_distance)
    ship = (slice(1, out + 1), slice(1, home + 1), slice(None), slice(None), slice(_ZERO, _ZERO + MAX_TOKENS + 1))
    x_choices = solution.x_policy[ship].transpose(2, 0, 1, 3, 4).copy()
    if max_distance < max_out:
        return x_choices, np.zeros((0, 0, _NT, _NT), dtype=np.int8)
    return x_choices, solve_both_out(solution).policy[1 : out + 1, 1 : out + 1].copy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TABLE_FILE)
    args = parser.parse_args(argv)
    table, both = derive()
    blocks = [zlib.compress(table[gi, out].tobytes(), 9) for gi in range(_NG) for out in range(MAX_OUT)]
    blocks += [zlib.compress(both[out].tobytes(), 9) for out in range(MAX_OUT)]
    return_duel.write_blocks(args.out, (MAX_OUT, MAX_DISTANCE, MAX_GAP, ROUTE), blocks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

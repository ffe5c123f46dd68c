"""Happy Campers ceiling bench: the exact optimum over the dice beside the clairvoyant maximum and the hint's own play.

    python -m bench.happy_campers_solo_ceiling [--single 8] [--solo 6] [--single-empty 9] [--solo-empty 6]
        [--games 150] [--budget 0.05] [--first-seed 6450000] [--cpsat 6] [--exact-cv-s 60] [--label NAME]

Positions: short games on the default 5x9 map, seeded. One map (the own-map hint's game): a game played by the
hint's rollout policy (shaped greedy) on seeded rolls, stopped at the first map with at most `--single-empty`
empty squares. Solo (two maps, the lower score counts): a solo game played by the solo rollout policy
(`policies.modes_solo_turn`) until both maps have at most `--solo-empty` empty squares, kept when at least
`MIN_TWO_MAP_ROLLS` of the 21 rolls still fit both maps. A position is before a roll; a seed whose game ends first
(or leaves too little choice) is skipped (and counted).

For each position:
- optimum: `solo_optimum.SingleOptimum` / `SoloOptimum`, exact expectimax over the dice (every roll, every
  legal drawing, memoised on canonical maps);
- E[clairvoyant]: the mean over the dice of the best score when the rolls are known in advance. Exact by
  `expected_*_clairvoyant` when it finishes within `--exact-cv-s` CPU seconds; always also estimated on the
  `--games` seeded roll sequences as optimum + mean(clairvoyant - optimal play) (each term >= 0; the optimal
  player's mean is the optimum exactly, so this is unbiased, with its standard error). One map: the first
  `--cpsat` sequences are also solved by `maximise.clairvoyant_max` (CP-SAT) and must be OPTIMAL and equal;
- hint: the hint (`hint.hint`, its own mode, `CpuBudget(--budget)` a call, seeded per call) plays each of the
  same roll sequences to the end. Its expected score is estimated as optimum - mean(regret), the regret of a
  game being the sum over its decisions of (best move's exact value - the hint's move's exact value), which
  has the hint's expected score as mean (the performance-difference identity) and a smaller spread than the
  plain mean of its scores (also given: `hint_mean`);
- the rollout policy's own play on the same sequences (regret the same way) for scale.

Seeds: positions from `--first-seed` (6,450,000 on, a range no test or other bench uses, below the 7,000,000+
report ranges); roll sequence g of position p from `rng_for(p, "solo-ceiling-rolls", g)`. CPU per hint call
(process time) mean and median are reported. Writes bench/results/happy_campers_solo_ceiling[_LABEL].json.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import statistics
import time
from typing import Any

import numpy as np
from campsolver.solver.core.budget import Budget, CpuBudget, SolveInterrupted
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import maximise, solo_optimum
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, hint, rollout_policy, turn_state
from campsolver.solver.happy_campers.modes import SoloDraw, SoloState, SoloStep, roll_distribution
from campsolver.solver.happy_campers.policies import (
    SOLO_NORMAL,
    FastMap,
    board_tables,
    candidate_placement,
    modes_solo_turn,
)
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Grid, can_draw, draw
from campsolver.solver.happy_campers.vector_rollout import choose_index

from bench.common import print_table, write_json

#: Rolls drawn per sequence (more than any short game can use).
SEQUENCE_ROLLS = 40
#: Position attempts per wanted position before giving up (a seed whose game ends early is skipped).
MAX_ATTEMPTS = 20


def empties(grid: Grid) -> int:
    return sum(1 for row in grid for v in row if v == 0)


def single_position(seed: int, max_empty: int) -> Grid | None:
    """The first map of a seeded shaped-greedy game with at most `max_empty` empty squares (None: the game ended
    before)."""
    rng = rng_for(seed, "solo-ceiling-single-position")
    fast = FastMap(board_tables(DEFAULT_COMPONENTS), frozenset())
    policy = rollout_policy()
    for _ in range(200):
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        chosen = choose_index(fast, roll, int(rng.integers(0, 2**31)), policy, DEFAULT_COMPONENTS)
        if chosen is None:
            return None
        fast.commit(*chosen)
        grid = fast.to_grid()
        if empties(grid) <= max_empty:
            return grid
    return None


#: A solo position must leave a choice: at least this many of the 21 rolls still give a drawing on both maps.
MIN_TWO_MAP_ROLLS = 3


def solo_position(seed: int, max_empty: int) -> SoloState | None:
    """Both maps of a seeded greedy solo game once each has at most `max_empty` empty squares (None: the game left
    the two-map phase before, or by then fewer than `MIN_TWO_MAP_ROLLS` rolls fit both maps)."""
    rng = rng_for(seed, "solo-ceiling-solo-position")
    tables = board_tables(DEFAULT_COMPONENTS)
    maps = [FastMap(tables, frozenset()), FastMap(tables, frozenset())]
    phase = SOLO_NORMAL
    for _ in range(200):
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        phase = modes_solo_turn(maps, phase, roll, int(rng.integers(0, 2**31)), DEFAULT_COMPONENTS)
        if phase != SOLO_NORMAL:
            return None
        grids = (maps[0].to_grid(), maps[1].to_grid())
        if max(empties(g) for g in grids) <= max_empty:
            state = SoloState.new(maps=grids)
            both = sum(1 for roll, _ in roll_distribution() if state.child(roll).step is SoloStep.FIRST_OF_TWO)
            return state if both >= MIN_TWO_MAP_ROLLS else None
    return None


def sequences(seed: int, games: int) -> list[list[tuple[int, int]]]:
    found = []
    for g in range(games):
        dice = rng_for(seed, "solo-ceiling-rolls", g).integers(1, 7, size=(SEQUENCE_ROLLS, 2))
        found.append([(int(a), int(b)) for a, b in dice])
    return found


def mean_se(values: list[float]) -> tuple[float, float]:
    arr = np.asarray(values, dtype=float)
    return float(arr.mean()), float(arr.std(ddof=1) / math.sqrt(len(arr))) if len(arr) > 1 else float("nan")


# ---------------------------------------------------------------------------------------------------------
# One map
# ---------------------------------------------------------------------------------------------------------


def play_single(
    solver: solo_optimum.SingleOptimum, grid: Grid, rolls: list[tuple[int, int]], chooser, cpu: list[float]
) -> tuple[int, float]:
    """(final score, regret) of `chooser(grid, roll, turn) -> placement` playing `rolls` from `grid`."""
    regret = 0.0
    for turn, roll in enumerate(rolls):
        if not can_draw(grid, roll):
            return solver.maps.final(solver.key(grid)), regret
        started = time.process_time()
        placement = chooser(grid, roll, turn)
        cpu.append(time.process_time() - started)
        after = draw(grid, placement)  # the rules model checks the move
        nexts = solver.maps.successors(solver.key(grid), roll)
        regret += max(solver._value(n) for n in nexts) - solver._value(solver.key(after))
        grid = after
    raise RuntimeError("the sequence ran out")


def single_row(seed: int, grid: Grid, args: argparse.Namespace) -> dict[str, Any]:
    started = time.process_time()
    solver = solo_optimum.single_optimum(grid, budget=CpuBudget(args.optimum_s))
    optimum = solver.value(grid)
    optimum_s = time.process_time() - started
    exact_cv = None
    with contextlib.suppress(SolveInterrupted, solo_optimum.TooLarge):
        exact_cv = solo_optimum.expected_single_clairvoyant(grid, budget=CpuBudget(args.exact_cv_s))
    policy = rollout_policy()
    hint_cpu: list[float] = []
    policy_cpu: list[float] = []
    cv_gaps, hint_regrets, hint_scores, policy_regrets = [], [], [], []
    cpsat_checked = cpsat_agree = 0
    for g, rolls in enumerate(sequences(seed, args.games)):
        best_play = solver.play(grid, rolls)
        clairvoyant = solo_optimum.single_clairvoyant(grid, rolls)
        cv_gaps.append(clairvoyant - best_play)
        if g < args.cpsat:
            prefix = rolls[: empties(grid) // 2 + 1]
            answer = maximise.clairvoyant_max(grid, prefix, budget=Budget(60.0))
            cpsat_checked += 1
            same = solo_optimum.single_clairvoyant(grid, prefix)
            cpsat_agree += answer.proof is Proof.OPTIMAL and answer.score == same

        def hinted(state: Grid, roll: tuple[int, int], turn: int, g: int = g):
            result = hint(
                turn_state(state, roll), CpuBudget(args.budget), options=HintOptions(seed=seed * 1000 + g * 40 + turn)
            )
            return result.best.move.placements[0]

        def shaped(state: Grid, roll: tuple[int, int], turn: int, g: int = g):
            fast = FastMap.from_grid(state, (), DEFAULT_COMPONENTS)
            key = int(rng_for(seed, "solo-ceiling-policy-keys", g, turn).integers(0, 2**31))
            mask, _around, element = choose_index(fast, roll, key, policy, DEFAULT_COMPONENTS)
            for shape_face, element_face in ((roll[0], roll[1]), (roll[1], roll[0])):
                for c in fast.candidates(shape_face, element_face, DEFAULT_COMPONENTS):
                    if c[0] == mask and c[2] == element:
                        return candidate_placement(c, DEFAULT_COMPONENTS.cols)
            raise AssertionError("the policy's drawing is not a candidate")

        score, regret = play_single(solver, grid, rolls, hinted, hint_cpu)
        hint_scores.append(score)
        hint_regrets.append(regret)
        policy_regrets.append(play_single(solver, grid, rolls, shaped, policy_cpu)[1])
    return finish_row(
        "one map",
        seed,
        (empties(grid),),
        solver.states,
        optimum,
        optimum_s,
        exact_cv,
        cv_gaps,
        hint_regrets,
        hint_scores,
        policy_regrets,
        hint_cpu,
        (cpsat_checked, cpsat_agree),
    )


# ---------------------------------------------------------------------------------------------------------
# Solo
# ---------------------------------------------------------------------------------------------------------


def play_solo(
    solver: solo_optimum.SoloOptimum, state: SoloState, rolls: list[tuple[int, int]], chooser, cpu: list[float]
) -> tuple[int, float]:
    """(final lower score, regret) of `chooser(state, roll, turn) -> tuple of placements` playing `rolls`."""
    regret = 0.0
    for turn, roll in enumerate(rolls):
        if state.over:
            return state.final_score(), regret
        turn_state = state.child(roll)
        if turn_state.over:
            return turn_state.final_score(), regret
        started = time.process_time()
        placements = chooser(state, roll, turn)
        cpu.append(time.process_time() - started)
        after = turn_state
        for map_index, placement in enumerate(placements):
            if placement is not None:
                after = after.child(resolved(after, map_index, placement))  # the rules model checks the move
        nexts = solver.successor_keys(solver.key(state), roll)
        regret += max(solver._value(k) for k in nexts) - solver._value(solver.key(after))
        state = after
    raise RuntimeError("the sequence ran out")


def solo_row(seed: int, state: SoloState, args: argparse.Namespace) -> dict[str, Any]:
    started = time.process_time()
    solver, _ = solo_optimum.solo_optimum(state.maps, budget=CpuBudget(args.optimum_s))
    optimum = solver.value(state)
    optimum_s = time.process_time() - started
    exact_cv = None
    with contextlib.suppress(SolveInterrupted, solo_optimum.TooLarge):
        exact_cv = solo_optimum.expected_solo_clairvoyant(state, budget=CpuBudget(args.exact_cv_s))
    hint_cpu: list[float] = []
    greedy_cpu: list[float] = []
    cv_gaps, hint_regrets, hint_scores, greedy_regrets = [], [], [], []
    for g, rolls in enumerate(sequences(seed, args.games)):
        best_play = solver.play(state, rolls)
        cv_gaps.append(solo_optimum.solo_clairvoyant(state, rolls, solver=solver) - best_play)

        def hinted(now: SoloState, roll: tuple[int, int], turn: int, g: int = g):
            result = hint(
                turn_state(
                    now.maps[0], roll, mode=HintMode.SOLO, second_grid=now.maps[1], solo_last_turn_map=now.last_turn_map
                ),
                CpuBudget(args.budget),
                options=HintOptions(seed=seed * 1000 + g * 40 + turn),
            )
            return result.best.move.placements

        def greedy(now: SoloState, roll: tuple[int, int], turn: int, g: int = g):
            maps = [FastMap.from_grid(m, (), DEFAULT_COMPONENTS) for m in now.maps]
            before = [m.masks.copy() for m in maps]
            phase = SOLO_NORMAL if now.last_turn_map is None else now.last_turn_map
            key = int(rng_for(seed, "solo-ceiling-greedy-keys", g, turn).integers(0, 2**31))
            modes_solo_turn(maps, phase, roll, key, DEFAULT_COMPONENTS)
            return tuple(drawn_cells(m, before[m], maps[m]) for m in (0, 1))

        score, regret = play_solo(solver, state, rolls, hinted, hint_cpu)
        hint_scores.append(score)
        hint_regrets.append(regret)
        greedy_regrets.append(play_solo(solver, state, rolls, greedy, greedy_cpu)[1])
    return finish_row(
        "solo",
        seed,
        tuple(empties(m) for m in state.maps),
        solver.states,
        optimum,
        optimum_s,
        exact_cv,
        cv_gaps,
        hint_regrets,
        hint_scores,
        greedy_regrets,
        hint_cpu,
        None,
    )


def drawn_cells(m: int, before: list[int], fast: FastMap) -> tuple[frozenset, int] | None:
    """(cells, element) the fast engine drew on map `m` this turn, None when nothing."""
    changed = [(fast.masks[e] & ~before[e], e) for e in range(1, 6) if fast.masks[e] != before[e]]
    if not changed:
        return None
    ((mask, element),) = changed
    cols = DEFAULT_COMPONENTS.cols
    return frozenset((i // cols, i % cols) for i in range(mask.bit_length()) if mask >> i & 1), element


def resolved(state: SoloState, map_index: int, move) -> SoloDraw:
    """The legal `SoloDraw` for a placement, or for (cells, element) (the option the flow allows)."""
    if not isinstance(move, tuple):
        return SoloDraw(map_index, move)
    cells, element = move
    for action in state.legal_actions():
        if action.map_index == map_index and action.placement.cells == cells and action.placement.element == element:
            return action
    raise AssertionError("the drawing is not legal now")


# ---------------------------------------------------------------------------------------------------------
# Rows and the table
# ---------------------------------------------------------------------------------------------------------


def finish_row(
    kind,
    seed,
    empty,
    states,
    optimum,
    optimum_s,
    exact_cv,
    cv_gaps,
    hint_regrets,
    hint_scores,
    policy_regrets,
    hint_cpu,
    cpsat,
) -> dict[str, Any]:
    gap, gap_se = mean_se(cv_gaps)
    regret, regret_se = mean_se(hint_regrets)
    policy_regret, policy_se = mean_se(policy_regrets)
    hint_mean, hint_mean_se = mean_se(hint_scores)
    row = {
        "kind": kind,
        "seed": seed,
        "empty": "/".join(map(str, empty)),
        "states": states,
        "optimum": optimum,
        "optimum_cpu_s": optimum_s,
        "E_clairvoyant": exact_cv if exact_cv is not None else optimum + gap,
        "E_clairvoyant_exact": exact_cv is not None,
        "E_clairvoyant_sampled": optimum + gap,
        "E_clairvoyant_sampled_se": gap_se,
        "hint": optimum - regret,
        "hint_se": regret_se,
        "hint_headroom": regret,
        "hint_mean": hint_mean,
        "hint_mean_se": hint_mean_se,
        "policy": optimum - policy_regret,
        "policy_se": policy_se,
        "games": len(hint_scores),
        "hint_calls": len(hint_cpu),
        "hint_cpu_mean_s": statistics.fmean(hint_cpu) if hint_cpu else None,
        "hint_cpu_median_s": statistics.median(hint_cpu) if hint_cpu else None,
    }
    if cpsat is not None:
        row["cpsat_checked"], row["cpsat_agree"] = cpsat
    print(
        f"  {kind} seed {seed}: optimum {optimum:.3f}, E[clairvoyant] {row['E_clairvoyant']:.3f}, "
        f"hint {row['hint']:.3f} +- {regret_se:.3f}",
        flush=True,
    )
    return row


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", type=int, default=8, help="one-map positions")
    parser.add_argument("--solo", type=int, default=6, help="solo positions")
    parser.add_argument("--single-empty", type=int, default=9)
    parser.add_argument("--solo-empty", type=int, default=6)
    parser.add_argument("--games", type=int, default=150, help="seeded roll sequences a position")
    parser.add_argument("--budget", type=float, default=0.05, help="CPU seconds a hint call")
    parser.add_argument("--first-seed", type=int, default=6_450_000)
    parser.add_argument("--cpsat", type=int, default=6, help="sequences a one-map position checked by CP-SAT")
    parser.add_argument("--exact-cv-s", type=float, default=60.0, help="CPU seconds for the exact E[clairvoyant]")
    parser.add_argument("--optimum-s", type=float, default=600.0, help="CPU seconds for the optimum")
    parser.add_argument("--label", default="")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    skipped = {"one map": 0, "solo": 0}
    seed = args.first_seed
    for kind, wanted, make, row_of, limit in (
        ("one map", args.single, single_position, single_row, args.single_empty),
        ("solo", args.solo, solo_position, solo_row, args.solo_empty),
    ):
        found = 0
        attempts = 0
        while found < wanted and attempts < wanted * MAX_ATTEMPTS:
            attempts += 1
            position = make(seed, limit)
            if position is None:
                skipped[kind] += 1
            else:
                rows.append(row_of(seed, position, args))
                found += 1
            seed += 1
    shown = [
        {
            k: row[k]
            for k in (
                "kind",
                "seed",
                "empty",
                "optimum",
                "E_clairvoyant",
                "E_clairvoyant_exact",
                "hint",
                "hint_se",
                "hint_headroom",
                "policy",
                "hint_cpu_mean_s",
                "hint_cpu_median_s",
            )
        }
        for row in rows
    ]
    print_table(
        f"Happy Campers ceilings (hint at CpuBudget {args.budget} s a call, {args.games} games a position)", shown
    )
    for kind in ("one map", "solo"):
        mine = [r for r in rows if r["kind"] == kind]
        if mine:
            print(
                f"{kind}: optimum - hint = {statistics.fmean(r['hint_headroom'] for r in mine):.3f} on average "
                f"over {len(mine)} positions; E[clairvoyant] - optimum = "
                f"{statistics.fmean(r['E_clairvoyant'] - r['optimum'] for r in mine):.3f}"
            )
    payload = {"args": vars(args), "skipped_seeds": skipped, "rows": rows}
    write_json("happy_campers_solo_ceiling" + (f"_{args.label}" if args.label else ""), payload)
    return payload


if __name__ == "__main__":
    main()

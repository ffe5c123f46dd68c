"""Happy Campers hint honesty bench: the ranking contract on the wire and the coverage of value +- 2 SE.

    python -m bench.happy_campers_hint_coverage [--budget 0.3] [--positions 80] [--first-seed 7000]
        [--reference 2000] [--contract 100] [--mode own|multiplayer] [--wall] [--top-only] [--label NAME]

- Contract: `--contract` seeded positions in every hint mode (own map, neighbour's map for either objective,
  solo, multi-player) answered by the service handler under a `CpuBudget(--budget)`; counts the answers whose
  ranked list breaks `ranking_contract_violations` and, among them, the rank/value inversions (a lower-ranked
  move with a higher value).
- Coverage: `--positions` seeded own-map positions on the default 5x9 map (2-9 random drawings, no card, a roll
  that can be drawn) hinted under `CpuBudget(--budget)`; every move listed with a standard error (the service
  reports one from 10 samples on) is checked against a reference: `--reference` rollouts of the hint's rollout
  policy from the map after the move, on futures from another seed stream. Covered: |value - reference| <=
  2 * sqrt(SE^2 + SE_ref^2) (also given without the reference's SE). Top move and all moves apart, with the
  Wilson 95% interval of the top move's coverage and every miss listed (value, reference, z, samples, estimate).
- `--mode multiplayer`: the same positions as your map in a two-player game (the other map from seed + 50,000, a
  plain roll), values the margin over the other player (the hint's default); the reference plays
  `multiplayer_rollout` (margin) from the maps after the move, the other map still to draw the roll.
- `--wall`: a wall-clock `Budget` instead of the CPU one (what the service gives a request; on a loaded machine
  the deadline then cuts more rollouts). `--top-only`: reference only the top move (a faster long run).

Seeds: positions from `--first-seed` (default 7000, a range no test or other bench uses: the tests use 0-199,
the quality bench 0-133). CPU budgets, so the machine's load does not change the sample counts much. Writes
bench/results/happy_campers_hint_coverage[_LABEL].json.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from typing import Any

import numpy as np
from campsolver.service.games import happy_campers as hc_service
from campsolver.service.games.shared import MIN_SAMPLES_FOR_STANDARD_ERROR, ranking_contract_violations
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, hint, rollout_policy, turn_state
from campsolver.solver.happy_campers.multiplayer_rollout import multiplayer_rollout
from campsolver.solver.happy_campers.policies import RANDOM, FastMap, board_tables, play_game, random_rolls, rollout
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Grid, can_draw, draw
from campsolver.solver.happy_campers.vector_rollout import supports as vector_supports
from campsolver.solver.happy_campers.vector_rollout import vector_rollout

from bench.common import print_table, write_json
from bench.openspiel import wilson
from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb

MODES = ("own", "neighbour_worst", "neighbour_best", "solo", "multiplayer")
Z = 2.0


def position(seed: int) -> tuple[Grid, tuple[int, int]]:
    """2-9 random drawings on the default map and a roll that can be drawn."""
    rng = rng_for(seed, "hint-coverage-bench-position")
    turns = 2 + int(rng.integers(0, 8))
    grid = play_game(None, random_rolls(seed, turns, "hint-coverage-bench"), (), policy=RANDOM, seed=seed).final_grid
    while True:
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if can_draw(grid, roll):
            return grid, roll


def contract_request(seed: int, budget_s: float) -> pb.HappyCampersServiceHintRequest:
    """Position `seed` in the mode `seed` picks (a double for the neighbour's map, a plain roll multi-player)."""
    mode = MODES[seed % len(MODES)]
    rng = rng_for(seed, "hint-contract-bench")
    grid, _ = position(seed)
    while True:
        a, b = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        if mode.startswith("neighbour"):
            b = a
        elif mode == "multiplayer" and a == b:
            continue
        if can_draw(grid, (a, b)):
            break
    request = pb.HappyCampersServiceHintRequest(
        map=hc_service.grid_to_rows(grid),
        roll=pb.HappyCampersRoll(first=a, second=b),
        options=common_pb2.SolveOptions(time_limit_seconds=budget_s, seed=seed),
    )
    if mode.startswith("neighbour"):
        request.mode = pb.HINT_MODE_NEIGHBOUR_MAP
        request.objective = pb.HINT_OBJECTIVE_OWNER_WORST if mode.endswith("worst") else pb.HINT_OBJECTIVE_OWNER_BEST
    elif mode == "solo":
        request.mode = pb.HINT_MODE_SOLO
        other, _ = position(seed + 50_000)
        request.second_map.extend(hc_service.grid_to_rows(other))
    elif mode == "multiplayer":
        request.mode = pb.HINT_MODE_MULTIPLAYER
        request.players = 2
    return request


def inversions(rankings: list[Any]) -> int:
    """Pairs of consecutive valued moves where the lower-ranked one shows the higher value."""
    valued = [r.value for r in rankings if r.HasField("value")]
    return sum(1 for x, y in itertools.pairwise(valued) if y > x + 1e-9)


def contract(count: int, first_seed: int, budget_s: float) -> dict[str, Any]:
    broken = inverted_lists = inverted_pairs = 0
    kinds: dict[str, int] = {}
    for seed in range(first_seed, first_seed + count):
        request = contract_request(seed, budget_s)
        response = hc_service.hint(request, CpuBudget(budget_s))
        rankings = [a.ranking for a in response.alternatives]
        problems = ranking_contract_violations(rankings)
        broken += bool(problems)
        pairs = inversions(rankings)
        inverted_lists += bool(pairs)
        inverted_pairs += pairs
        for problem in problems:
            key = problem.split(": ", 1)[-1].split(" ")[0] if ": " in problem else "rank/value order"
            kinds[key] = kinds.get(key, 0) + 1
    return {
        "hints": count,
        "budget_cpu_s": budget_s,
        "seeds": [first_seed, first_seed + count - 1],
        "hints_breaking_contract": broken,
        "hints_with_rank_value_inversion": inverted_lists,
        "inverted_pairs": inverted_pairs,
        "violation_kinds": kinds,
    }


def reference(
    grid: Grid, seed: int, count: int, other: Grid | None = None, roll: tuple[int, int] | None = None
) -> tuple[float, float]:
    """(mean, SE) of `count` rollouts of the hint's policy from `grid`, futures from an independent stream; with
    `other`, the two-player margin (`multiplayer_rollout`: `other` still draws `roll` this turn)."""
    tables = board_tables(DEFAULT_COMPONENTS)
    rng = rng_for(seed, "hint-coverage-bench-reference")
    dice = rng.integers(1, 7, size=(count, tables.max_turns(), 2), dtype=np.int64)
    keys = rng.integers(0, 2**31, size=(count, tables.max_turns()), dtype=np.int64)
    start = FastMap.from_grid(grid, (), DEFAULT_COMPONENTS)
    policy = rollout_policy()
    if other is not None:
        rival = FastMap.from_grid(other, (), DEFAULT_COMPONENTS)
        finals = np.array(
            [
                multiplayer_rollout(
                    [start.copy(), rival.copy()],
                    roll,
                    False,
                    dice[k],
                    keys[k],
                    policy,
                    (),
                    DEFAULT_COMPONENTS,
                    margin=True,
                )
                for k in range(count)
            ]
        )
    else:
        play = vector_rollout if vector_supports(start) else rollout
        finals = np.array([play(start.copy(), dice[k], keys[k], policy, DEFAULT_COMPONENTS) for k in range(count)])
    return float(finals.mean()), float(finals.std(ddof=1) / math.sqrt(count))


def multiplayer_position(seed: int) -> tuple[Grid, Grid, tuple[int, int]]:
    """Position `seed` as your map in a two-player game: the other map from seed + 50,000, a plain roll both maps
    can take."""
    grid, _ = position(seed)
    other, _ = position(seed + 50_000)
    rng = rng_for(seed, "hint-coverage-bench-multiplayer-roll")
    while True:
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if roll[0] != roll[1] and can_draw(grid, roll) and can_draw(other, roll):
            return grid, other, roll


def coverage(
    positions: int,
    first_seed: int,
    budget_s: float,
    ref_count: int,
    *,
    mode: str = "own",
    wall: bool = False,
    top_only: bool = False,
) -> tuple[dict[str, Any], list[dict]]:
    rows = []
    refs: dict[Grid, tuple[float, float]] = {}
    cpu: list[float] = []
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + positions):
        budget = Budget(budget_s) if wall else CpuBudget(budget_s)
        began = time.process_time()
        if mode == "multiplayer":
            grid, other, roll = multiplayer_position(seed)
            state = turn_state(grid, roll, (), mode=HintMode.MULTIPLAYER, other_grids=[other])
        else:
            (grid, roll), other = position(seed), None
            state = turn_state(grid, roll, ())
        result = hint(state, budget, options=HintOptions(seed=seed))
        cpu.append(time.process_time() - began)
        for a in result.alternatives:
            if a.value is None or (top_only and a.rank != 1):
                continue
            # (getattr: the bench also runs against the earlier engine, whose values came from `samples`)
            value_samples = getattr(a, "value_samples", a.samples)
            has_se = a.standard_error is not None and value_samples >= MIN_SAMPLES_FOR_STANDARD_ERROR
            row = {
                "seed": seed,
                "rank": a.rank,
                "value": a.value,
                "estimate": getattr(a, "estimate", ""),
                "value_samples": value_samples,
                "standard_error": a.standard_error if has_se else None,
                "interrupted": result.interrupted,
            }
            if has_se:
                after = draw(grid, a.move.placements[0])
                if after not in refs:
                    refs[after] = reference(after, seed, ref_count, other, roll if other is not None else None)
                truth, truth_se = refs[after]
                row.update(
                    reference=truth, reference_se=truth_se, z=(a.value - truth) / math.hypot(a.standard_error, truth_se)
                )
                row["covered"] = abs(a.value - truth) <= Z * math.hypot(a.standard_error, truth_se)
                row["covered_plain"] = abs(a.value - truth) <= Z * a.standard_error
            rows.append(row)
        if (seed - first_seed + 1) % 10 == 0:
            print(f"  {seed - first_seed + 1} positions, {time.perf_counter() - started:.0f} s", flush=True)

    def share(selected: list[dict], key: str) -> dict[str, Any]:
        hits = sum(r[key] for r in selected)
        low, high = wilson(hits, len(selected)) if selected else (None, None)
        return {
            "covered": hits,
            "total": len(selected),
            "share": hits / len(selected) if selected else None,
            "wilson_low": low,
            "wilson_high": high,
        }

    checked = [r for r in rows if "covered" in r]
    top = [r for r in checked if r["rank"] == 1]
    summary = {
        "mode": mode,
        "budget": "wall" if wall else "cpu",
        "positions": positions,
        "seeds": [first_seed, first_seed + positions - 1],
        "budget_s": budget_s,
        "reference_rollouts": ref_count,
        "valued_moves": len(rows),
        "valued_without_se": len(rows) - len(checked),
        "top_without_se": sum(1 for r in rows if r["rank"] == 1 and "covered" not in r),
        "hints_interrupted": len({r["seed"] for r in rows if r["interrupted"]}),
        "top": share(top, "covered"),
        "all": share(checked, "covered"),
        "top_without_reference_se": share(top, "covered_plain"),
        "all_without_reference_se": share(checked, "covered_plain"),
        "top_mean_z": float(np.mean([r["z"] for r in top])) if top else None,
        "top_sd_z": float(np.std([r["z"] for r in top], ddof=1)) if len(top) > 1 else None,
        "all_mean_z": float(np.mean([r["z"] for r in checked])) if checked else None,
        "top_estimates": {
            e: sum(1 for r in rows if r["rank"] == 1 and r["estimate"] == e) for e in ("fresh", "selection")
        },
        "top_misses": [
            {k: r[k] for k in ("seed", "value", "reference", "z", "value_samples", "estimate")}
            for r in top
            if not r["covered"]
        ],
        "hint_cpu_mean_s": float(np.mean(cpu)),
        "hint_cpu_median_s": float(np.median(cpu)),
    }
    return summary, rows


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.3, help="CPU seconds a hint")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--first-seed", type=int, default=7000)
    parser.add_argument("--reference", type=int, default=2000, help="rollouts a reference value")
    parser.add_argument("--contract", type=int, default=100, help="hints for the contract count (0: none)")
    parser.add_argument("--mode", choices=("own", "multiplayer"), default="own")
    parser.add_argument("--wall", action="store_true", help="a wall-clock budget (as the service) instead of CPU")
    parser.add_argument("--top-only", action="store_true", help="reference the top move only")
    parser.add_argument("--label", default="")
    args = parser.parse_args(argv)
    payload: dict[str, Any] = {"args": vars(args)}
    if args.contract:
        found = contract(args.contract, args.first_seed, args.budget)
        print_table(
            f"ranking contract on {args.contract} hints (every mode, CpuBudget {args.budget} s)",
            [{"figure": k, "value": v} for k, v in found.items()],
        )
        payload["contract"] = found
    if args.positions:
        summary, rows = coverage(
            args.positions,
            args.first_seed,
            args.budget,
            args.reference,
            mode=args.mode,
            wall=args.wall,
            top_only=args.top_only,
        )
        clock = "wall Budget" if args.wall else "CpuBudget"
        print_table(
            f"coverage of value +- {Z:g} SE ({args.mode}, {clock} {args.budget} s)",
            [{"figure": k, "value": v} for k, v in summary.items()],
        )
        payload["coverage"] = summary
        payload["rows"] = rows
    write_json("happy_campers_hint_coverage" + (f"_{args.label}" if args.label else ""), payload)
    return payload


if __name__ == "__main__":
    main()

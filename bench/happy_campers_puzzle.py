"""Happy Campers puzzle generation time per grade on the default 5x9 map (8 rolls), with the per-candidate cap.

Run: `python -m bench.happy_campers_puzzle [--seeds N] [--budget S] [--cap S] [--quick]`. Prints p50/p99
generation time per grade, candidates tried and candidates cut at their cap, and writes
bench/results/happy_campers_puzzle.json. A request that runs out of budget counts as a failure (its time is
the budget).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.happy_campers.puzzle import CANDIDATE_CAP_S, GRADES, NoPuzzleFound, generate

from bench.common import percentile, print_table, write_json

ROLLS = 8


def run(seeds: int, budget_s: float, cap_s: float, rolls: int = ROLLS) -> dict[str, object]:
    rows = []
    runs = []
    for grade in GRADES:
        times: list[float] = []
        failures = 0
        candidates: list[int] = []
        capped = 0
        for seed in range(seeds):
            started = time.monotonic()
            try:
                puzzle = generate(seed, Budget(budget_s), rolls=rolls, grade=grade, candidate_cap_s=cap_s)
            except (SolveInterrupted, NoPuzzleFound) as error:
                failures += 1
                elapsed = time.monotonic() - started
                times.append(elapsed)
                runs.append({"grade": grade.value, "seed": seed, "seconds": round(elapsed, 3), "failed": str(error)})
                continue
            elapsed = time.monotonic() - started
            times.append(elapsed)
            candidates.append(puzzle.stats.candidates)
            over = puzzle.stats.rejections.get("over its cap", 0)
            capped += over
            runs.append(
                {
                    "grade": grade.value,
                    "seed": seed,
                    "seconds": round(elapsed, 3),
                    "candidates": puzzle.stats.candidates,
                    "over_cap": over,
                    "optimum": puzzle.optimum,
                }
            )
        rows.append(
            {
                "grade": grade.value,
                "n": seeds,
                "failed": failures,
                "p50_s": round(percentile(times, 50), 2),
                "p99_s": round(percentile(times, 99), 2),
                "max_s": round(max(times), 2),
                "median_candidates": sorted(candidates)[len(candidates) // 2] if candidates else None,
                "over_cap": capped,
            }
        )
    return {"rolls": rolls, "budget_s": budget_s, "cap_s": cap_s, "rows": rows, "runs": runs}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=float, default=60.0, help="request budget per puzzle (s)")
    parser.add_argument("--cap", type=float, default=CANDIDATE_CAP_S, help="per-candidate cap (s)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    seeds = 3 if args.quick else args.seeds
    payload = run(seeds, args.budget, args.cap)
    print_table(
        f"puzzle generation, 5x9, {ROLLS} rolls, {seeds} seeds a grade, budget {args.budget:g} s, cap {args.cap:g} s",
        payload["rows"],  # type: ignore[arg-type]
    )
    write_json("happy_campers_puzzle", payload)


if __name__ == "__main__":
    main()

"""Deluxe Camping: the players' TOTAL objective against the OWN objective's board.

    python -m bench.deluxe_camping_total [--boards 20] [--seconds 10] [--label after]

For each seeded 10 x 10 setup (players 2, 3, 4 in turn, first turn), `maximise` with objective OWN (player 0)
and then with objective TOTAL, each under its own `CpuBudget` of `--seconds` (CPU seconds of this process, CP-SAT's
threads included, so the machine's load changes little). Per board: OWN's value, proof and the total of its
board; TOTAL's value, bound and proof; CPU and wall seconds of each. Summary: TOTAL proven share, the boards where
TOTAL is below the OWN board's total (and by how much). JSON in bench/results/deluxe_camping_total_<label>.json.
One process at a time (the machine has 2 shared cores).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from campsolver.solver.core.budget import CpuBudget
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Config, DCState

RESULTS = Path(__file__).resolve().parent / "results"


def seeded_board(seed: int) -> DCState:
    """Seeded default 10 x 10 setup; 2, 3 and 4 players in turn."""
    players = 2 + seed % 3
    return rules.random_setup(Config(players=players), rng_for(seed, "deluxe-camping total bench", players))


def _timed(state: DCState, objective: maxima.Objective, seconds: float) -> tuple[maxima.MaxResult, float, float]:
    cpu, wall = time.process_time(), time.monotonic()
    result = maxima.maximise(state, CpuBudget(seconds), player=0, objective=objective)
    return result, time.process_time() - cpu, time.monotonic() - wall


def run(boards: int, seconds: float) -> dict:
    rows = []
    for seed in range(boards):
        state = seeded_board(seed)
        own, own_cpu, own_wall = _timed(state, maxima.Objective.OWN, seconds)
        total, total_cpu, total_wall = _timed(state, maxima.Objective.TOTAL, seconds)
        own_board_total = sum(own.partition.scores) if own.partition else None
        row = {
            "seed": seed,
            "players": state.config.players,
            "own_value": own.value,
            "own_proof": own.proof.name if own.proof else None,
            "own_board_total": own_board_total,
            "own_cpu_s": round(own_cpu, 2),
            "own_wall_s": round(own_wall, 2),
            "total_value": total.value,
            "total_bound": total.bound,
            "total_proof": total.proof.name if total.proof else None,
            "total_cpu_s": round(total_cpu, 2),
            "total_wall_s": round(total_wall, 2),
            # No TOTAL board at all counts as the whole OWN board's total below it.
            "total_below_own_board": (0 if own_board_total is None else max(own_board_total - (total.value or 0), 0)),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    proven = sum(r["total_proof"] == Proof.OPTIMAL.name for r in rows)
    below = [r for r in rows if r["total_below_own_board"] > 0]
    return {
        "boards": boards,
        "seconds_cpu_budget": seconds,
        "total_proven": proven,
        "total_share_proven": proven / boards,
        "total_below_own_board": len(below),
        "total_below_own_board_points": [r["total_below_own_board"] for r in below],
        "own_proven": sum(r["own_proof"] == Proof.OPTIMAL.name for r in rows),
        "total_cpu_p50_s": sorted(r["total_cpu_s"] for r in rows)[boards // 2],
        "load_avg_1min_at_end": os.getloadavg()[0],
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--label", default="after")
    args = parser.parse_args()
    summary = run(args.boards, args.seconds)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"deluxe_camping_total_{args.label}.json"
    path.write_text(json.dumps(summary, indent=2) + "\n")
    print({k: v for k, v in summary.items() if k != "rows"})


if __name__ == "__main__":
    main()

"""Happy Campers clairvoyant proofs: is an open case missing its best map (the finder) or its bound?

For each case a 10-s proof table left open: a long solve (default 60 s) finds the best map it can; then a
fresh 10-s solve starts from that map (`clairvoyant_max(..., start_plays=...)`, no warm-start searches).
If the fresh solve proves it, a better finder would have closed the case ("finder"); if not, even the best
known map leaves CP-SAT's bound open ("bound"). The fresh solve gives its whole budget to CP-SAT (the
normal path spends about 30 % on the warm-start searches), so "finder" is what a perfect and free finder
would buy: an upper estimate of that lever.

Run: `python -m bench.happy_campers_finder_vs_bound [--table bench/results/X.json] [--long S] [--limit S]`
(default table: happy_campers_max_proofs_singles_s25_base.json, its open runs). Prints a table and writes
bench/results/happy_campers_finder_vs_bound.json. One solve at a time (2 CP-SAT workers).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.happy_campers.maximise import clairvoyant_max
from campsolver.solver.happy_campers.rules import Challenge

from bench.happy_campers_max import seeded_rolls

RESULTS_DIR = Path(__file__).resolve().parent / "results"
DEFAULT_TABLE = RESULTS_DIR / "happy_campers_max_proofs_singles_s25_base.json"
RESULTS = RESULTS_DIR / "happy_campers_finder_vs_bound.json"


def open_cases(table: Path) -> list[tuple[str, int, int]]:
    """(cards, rolls, seed) of every run the proof table left without a proof."""
    rows = json.loads(table.read_text())["rows"]
    return [
        (row["cards"], int(rolls), run["seed"])
        for row in rows
        for rolls, cell in row["cells"].items()
        for run in cell["runs"]
        if run["proof"] != Proof.OPTIMAL.name
    ]


def _summary(result, seconds: float) -> dict[str, object]:
    proof = result.proof.name if result.proof is not None else "NONE"
    return {"score": result.score, "bound": result.bound, "proof": proof, "seconds": round(seconds, 2)}


def measure(cards: str, rolls: int, seed: int, long_s: float, limit: float) -> dict[str, object]:
    challenges = [Challenge(card) for card in cards.split("+")]
    sequence = seeded_rolls(seed, rolls)
    started = time.monotonic()
    long = clairvoyant_max(None, sequence, challenges, budget=Budget(long_s))
    long_row = _summary(long, time.monotonic() - started)
    if not long.turns:  # nothing found in the long run (a heavy load): no map to start from
        return {"cards": cards, "rolls": rolls, "seed": seed, "long": long_row, "from_best_map": None, "lever": "none"}
    started = time.monotonic()
    resumed = clairvoyant_max(
        None, sequence, challenges, budget=Budget(limit), start_plays=[turn.placement for turn in long.turns]
    )
    resumed_row = _summary(resumed, time.monotonic() - started)
    lever = "finder" if resumed.proof is Proof.OPTIMAL else "bound"
    return {
        "cards": cards,
        "rolls": rolls,
        "seed": seed,
        "long": long_row,
        "from_best_map": resumed_row,
        "lever": lever,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE, help="proof table whose open runs to measure")
    parser.add_argument("--long", type=float, default=60.0, help="seconds of the long solve")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds of the solve from the best map")
    parser.add_argument("--max-cases", type=int, default=0, help="only the first N open cases (0: all)")
    args = parser.parse_args()
    cases = open_cases(args.table)
    if args.max_cases:
        cases = cases[: args.max_cases]
    print(f"{len(cases)} open cases of {args.table.name}: {args.long:g}-s solve, then {args.limit:g} s from its map")
    print(f"{'case':<24} {'long (score/bound)':<23} {'from its best map':<23} lever")
    rows = []
    for cards, rolls, seed in cases:
        row = measure(cards, rolls, seed, args.long, args.limit)
        rows.append(row)
        lg, fb = row["long"], row["from_best_map"]
        if fb is None:
            print(f"{cards + ' ' + str(rolls) + '/' + str(seed):<24} no map found in {lg['seconds']:.1f}s", flush=True)
            continue
        print(
            f"{cards + ' ' + str(rolls) + '/' + str(seed):<24} "
            f"{lg['score']:>3}/{lg['bound']:<3} {lg['proof'][:8]:>8} {lg['seconds']:5.1f}s "
            f"{fb['score']:>3}/{fb['bound']:<3} {fb['proof'][:8]:>8} {fb['seconds']:5.1f}s  {row['lever']}",
            flush=True,
        )
    finder = sum(row["lever"] == "finder" for row in rows)
    bound = sum(row["lever"] == "bound" for row in rows)
    print(f"finder {finder}/{len(rows)}, bound {bound}/{len(rows)}")
    RESULTS.write_text(
        json.dumps(
            {
                "table": args.table.name,
                "long_s": args.long,
                "limit_s": args.limit,
                "load_average": os.getloadavg(),
                "rows": rows,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

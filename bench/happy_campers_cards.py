"""Happy Campers challenge cards: clairvoyant maxima of one card at a time, proven within a CPU budget.

Per card (the seven that change the best map: Privacy, Quick Pee, Tent Together, River Town, Nature Reserve,
Dangerous Animals, The Great Divide) and roll count (10, 15, 20 known rolls from an empty 5x9 map): the share
proven OPTIMAL, the median CPU seconds to a proof (over the proven runs), and the median and largest gap
(bound - best map) of the runs left open. Every answer is the checked one `clairvoyant_max` returns (replayed
and scored by the rules model; OPTIMAL only from the solver's own statuses).

Seeds: 5,600,000 + i (`--first-seed`), rolls from `bench.happy_campers_max.seeded_rolls`; no test uses them.

Budgets are CPU seconds of this process (every thread, CP-SAT's workers included): the Python parts run on a
`CpuBudget`; each CP-SAT call gets a wall limit far above its share and is stopped by a watchdog thread when
the process's CPU time reaches the share (`cpu_limited_solve`), so a solve on a loaded machine gets the same
CPU as on a quiet one, only later. `--load N` runs N busy loops beside the bench (`tools.busy`).

Run: `python -m bench.happy_campers_cards [--seeds 10] [--cpu 10] [--rolls 10,15,20] [--cards privacy,...]
[--load 0] [--workers 2] [--tag after]`. Each run is appended to bench/results/happy_campers_cards_<tag>.jsonl
as it ends (a stopped bench resumes from it: runs already there are skipped); the table is printed and written
to bench/results/happy_campers_cards_<tag>.json. `--table-only` prints the table of an existing run file;
`--table-only --compare BEFORE_TAG` also pairs it with another run on the same seeds (`compare`: better / worse
maps, bound change, and of the open gaps the part the finder misses and the part left to the bound).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.happy_campers import maximise
from campsolver.solver.happy_campers.rules import Challenge

from bench.happy_campers_max import seeded_rolls

RESULTS_DIR = Path(__file__).resolve().parent / "results"
FIRST_SEED = 5_600_000
CARDS = (
    Challenge.PRIVACY,
    Challenge.QUICK_PEE,
    Challenge.TENT_TOGETHER,
    Challenge.RIVER_TOWN,
    Challenge.NATURE_RESERVE,
    Challenge.DANGEROUS_ANIMALS,
    Challenge.GREAT_DIVIDE,
)
ROLL_COUNTS = (10, 15, 20)
#: A CP-SAT call's wall limit, as a multiple of its CPU share: the watchdog stops it first unless the machine
#: gives this process less than 1/WALL_FACTOR of a core (a load of 25 on 2 cores left 1/13).
WALL_FACTOR = 50.0
#: How often the watchdog reads the process's CPU time.
WATCH_EVERY_S = 0.01


def cpu_limited_solve(real: Callable[..., Any]) -> Callable[..., Any]:
    """`core.cpsat.solve` with a CPU limit: on a `CpuBudget`, the call runs on a wall budget WALL_FACTOR times
    the CPU left and a watchdog cancels it (CP-SAT's `stop_search`) when this process has used that CPU."""

    @functools.wraps(real)
    def wrapped(model: Any, budget: Budget, *args: Any, **kwargs: Any) -> Any:
        if not budget.counts_cpu or budget.expired():
            return real(model, budget, *args, **kwargs)
        cpu_left = budget.remaining()
        wall = Budget(max(cpu_left * WALL_FACTOR, 0.01))
        budget.on_cancel(wall.cancel)
        done = threading.Event()
        started = time.process_time()

        def watch() -> None:
            while not done.wait(WATCH_EVERY_S):
                if time.process_time() - started >= cpu_left:
                    wall.cancel()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            return real(model, wall, *args, **kwargs)
        finally:
            done.set()
            watcher.join()

    return wrapped


@contextlib.contextmanager
def cpu_budgets() -> Iterator[None]:
    """Within the block, every CP-SAT call of the maximiser keeps to the CPU budget it is given."""
    real = maximise.solve
    patched = cpu_limited_solve(real)
    modules = [maximise]
    with contextlib.suppress(ImportError):  # modules that call `solve` themselves (not in every version)
        from campsolver.solver.happy_campers import max_levels

        modules.append(max_levels)
    with contextlib.suppress(ImportError):
        from campsolver.solver.happy_campers import max_portfolio  # type: ignore[attr-defined]

        modules.append(max_portfolio)
    saved = [(module, module.solve) for module in modules if hasattr(module, "solve")]
    try:
        for module, _ in saved:
            module.solve = patched if module.solve is real else cpu_limited_solve(module.solve)
        yield
    finally:
        for module, original in saved:
            module.solve = original


def _apply_settings(pairs: list[str]) -> dict[str, str]:
    """Set `solver.happy_campers.<module>.<NAME>` constants (ints, floats, True/False) for this run."""
    import importlib

    applied = {}
    for pair in pairs:
        target, value = pair.split("=", 1)
        module_name, name = target.rsplit(".", 1)
        module = importlib.import_module(f"campsolver.solver.happy_campers.{module_name}")
        current = getattr(module, name)
        if isinstance(current, bool):
            parsed: object = value.lower() in ("1", "true", "on")
        else:
            parsed = type(current)(value)
        setattr(module, name, parsed)
        applied[target] = value
    return applied


def run_one(card: Challenge, rolls: int, seed: int, cpu_s: float, workers: int) -> dict[str, Any]:
    """One clairvoyant maximum under a CPU budget, with what it proved and what it cost."""
    sequence = seeded_rolls(seed, rolls)
    wall0, cpu0 = time.monotonic(), time.process_time()
    with cpu_budgets():
        result = maximise.clairvoyant_max(None, sequence, [card], budget=CpuBudget(cpu_s), workers=workers)
    cpu = time.process_time() - cpu0
    return {
        "card": card.value,
        "rolls": rolls,
        "seed": seed,
        "score": result.score,
        "bound": result.bound,
        "proof": result.proof.name if result.proof is not None else None,
        "cpu_s": round(cpu, 3),
        "wall_s": round(time.monotonic() - wall0, 3),
        "load_1m": round(os.getloadavg()[0], 2),
    }


def _gap(run: dict[str, Any]) -> int | None:
    if run["proof"] == "OPTIMAL":
        return 0
    if run["score"] is None or run["bound"] is None:
        return None
    return int(run["bound"]) - int(run["score"])


def summarise(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (card, rolls): proven share, median CPU-s to proof, median and largest gap of open runs."""
    cells: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for run in runs:
        cells.setdefault((run["card"], run["rolls"]), []).append(run)
    order = {card.value: i for i, card in enumerate(CARDS)}
    rows = []
    for (card, rolls), cell in sorted(cells.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1])):
        proven = [r for r in cell if r["proof"] == "OPTIMAL"]
        gaps = [g for g in (_gap(r) for r in cell) if g is not None]
        open_gaps = [g for r in cell if r["proof"] != "OPTIMAL" and (g := _gap(r)) is not None]
        rows.append(
            {
                "card": card,
                "rolls": rolls,
                "proven": len(proven),
                "n": len(cell),
                "median_cpu_to_proof": round(statistics.median(r["cpu_s"] for r in proven), 2) if proven else None,
                "median_gap": statistics.median(gaps) if gaps else None,
                "median_open_gap": statistics.median(open_gaps) if open_gaps else None,
                "largest_gap": max(gaps) if gaps else None,
                "unanswered": sum(1 for r in cell if r["score"] is None),
                "median_cpu_s": round(statistics.median(r["cpu_s"] for r in cell), 2),
                "median_load_1m": round(statistics.median(r["load_1m"] for r in cell), 2),
            }
        )
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'card':<18} {'rolls':>5} {'proven':>8} {'cpu->proof':>10} {'gap med':>8} {'open med':>9}"
        f" {'gap max':>8} {'cpu med':>8} {'load':>5}"
    )
    for row in rows:
        print(
            f"{row['card']:<18} {row['rolls']:>5} {row['proven']:>3}/{row['n']:<4} {row['median_cpu_to_proof']!s:>10}"
            f" {row['median_gap']!s:>8} {row['median_open_gap']!s:>9} {row['largest_gap']!s:>8}"
            f" {row['median_cpu_s']!s:>8} {row['median_load_1m']!s:>5}"
        )
    proven = sum(r["proven"] for r in rows)
    total = sum(r["n"] for r in rows)
    print(f"overall {proven}/{total}")


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (card, rolls), over the seeds both runs hold: proven before/after, how often the after run's best map
    is worse / better than the before run's, the mean bound change (open or proven: a proof's bound is its score),
    and of the after run's open gaps the part the finder misses (the best map of either run minus the after run's)
    and the part left to the bound (its bound minus that best map): which side limits the rest."""
    key = lambda r: (r["card"], r["rolls"], r["seed"])  # noqa: E731
    old = {key(r): r for r in before}
    order = {card.value: i for i, card in enumerate(CARDS)}
    cells: dict[tuple[str, int], list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for run in after:
        if key(run) in old and run["score"] is not None and old[key(run)]["score"] is not None:
            cells.setdefault((run["card"], run["rolls"]), []).append((old[key(run)], run))
    rows = []
    for (card, rolls), pairs in sorted(cells.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1])):
        open_after = [(b, a) for b, a in pairs if a["proof"] != "OPTIMAL" and a["bound"] is not None]
        rows.append(
            {
                "card": card,
                "rolls": rolls,
                "n": len(pairs),
                "proven_before": sum(b["proof"] == "OPTIMAL" for b, _ in pairs),
                "proven_after": sum(a["proof"] == "OPTIMAL" for _, a in pairs),
                "worse_map": sum(a["score"] < b["score"] for b, a in pairs),
                "better_map": sum(a["score"] > b["score"] for b, a in pairs),
                "mean_bound_change": round(
                    statistics.mean(
                        (a["bound"] if a["bound"] is not None else a["score"])
                        - (b["bound"] if b["bound"] is not None else b["score"])
                        for b, a in pairs
                    ),
                    2,
                ),
                "open_finder_part": sum(max(b["score"], a["score"]) - a["score"] for b, a in open_after),
                "open_bound_part": sum(a["bound"] - max(b["score"], a["score"]) for b, a in open_after),
            }
        )
    return rows


def print_comparison(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'card':<18} {'rolls':>5} {'n':>3} {'proven b->a':>11} {'worse':>5} {'better':>6} {'bound d':>7}"
        f" {'finder':>6} {'bound':>5}"
    )
    for row in rows:
        print(
            f"{row['card']:<18} {row['rolls']:>5} {row['n']:>3} {row['proven_before']:>5}->{row['proven_after']:<5}"
            f" {row['worse_map']:>5} {row['better_map']:>6} {row['mean_bound_change']:>7}"
            f" {row['open_finder_part']:>6} {row['open_bound_part']:>5}"
        )


def read_runs(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=10, help="roll sequences per card and roll count")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--cpu", type=float, default=10.0, help="CPU seconds per maximum")
    parser.add_argument("--rolls", default=",".join(map(str, ROLL_COUNTS)))
    parser.add_argument("--cards", default="", help="card values, comma separated (default: all seven)")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers per solve")
    parser.add_argument("--load", type=int, default=0, help="busy loops beside the bench (tools.busy)")
    parser.add_argument("--tag", default="after", help="results file name: happy_campers_cards_<tag>")
    parser.add_argument("--table-only", action="store_true")
    parser.add_argument(
        "--compare",
        metavar="BEFORE_TAG",
        help="with --table-only: also pair this tag's runs with BEFORE_TAG's on the same seeds (compare)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=VALUE",
        help="set a constant of a solver/happy_campers module for an A/B run (e.g. maximise.IMPROVE_OR_PROVE=0)",
    )
    parser.add_argument("--first", type=int, default=0, help="skip this many (seed, rolls, card) cases")
    parser.add_argument("--every", type=int, default=1, help="run every k-th case only (parallel runs split work)")
    args = parser.parse_args(argv)
    settings = _apply_settings(args.set)
    jsonl = RESULTS_DIR / f"happy_campers_cards_{args.tag}.jsonl"
    if args.table_only:
        print_table(summarise(read_runs(jsonl)))
        if args.compare:
            print()
            print_comparison(
                compare(read_runs(RESULTS_DIR / f"happy_campers_cards_{args.compare}.jsonl"), read_runs(jsonl))
            )
        return
    cards = [Challenge(c) for c in args.cards.split(",") if c] or list(CARDS)
    counts = [int(x) for x in args.rolls.split(",")]
    done = {(r["card"], r["rolls"], r["seed"]) for r in read_runs(jsonl)}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    load_before = [round(x, 2) for x in os.getloadavg()]
    from tools.busy import busy_loops

    cases = [
        (card, count, seed)
        for seed in range(args.first_seed, args.first_seed + args.seeds)
        for count in counts
        for card in cards
    ][args.first :: args.every]
    with busy_loops(args.load, max_s=86_400.0) if args.load else contextlib.nullcontext():
        for card, count, seed in cases:
            if (card.value, count, seed) in done:
                continue
            run = run_one(card, count, seed, args.cpu, args.workers)
            run.update(workers=args.workers, cpu_budget_s=args.cpu, busy_loops=args.load, settings=settings)
            with jsonl.open("a") as out:
                out.write(json.dumps(run) + "\n")
            print(
                f"{card.value:<18} {count:>2} {seed} {run['score']!s:>4}/{run['bound']!s:<4} "
                f"{run['proof']!s:<20} cpu {run['cpu_s']:6.2f} wall {run['wall_s']:6.2f} load {run['load_1m']}",
                flush=True,
            )
    runs = read_runs(jsonl)
    rows = summarise(runs)
    print_table(rows)
    report = {
        "seeds": f"{args.first_seed}..{args.first_seed + args.seeds - 1}",
        "cpu_budget_s": args.cpu,
        "workers": args.workers,
        "busy_loops": args.load,
        "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "rows": rows,
    }
    (RESULTS_DIR / f"happy_campers_cards_{args.tag}.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()

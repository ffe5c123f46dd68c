"""Happy Campers maxima on the default 5x9 map: clairvoyant play, the absolute maximum, each card's maximum.

Run: `python -m bench.happy_campers_max [--seeds N] [--limit S] [--card-limit S] [--card-seeds N]
[--only-cards] [--proof-table [--part singles|pairs|all] [--pair-seeds N] [--rolls 10,15,20]
[--cards a,a+b] [--suffix S]] [--levels on|off] [--quick]`
(`python -m bench --only happy-campers-proofs` runs the proof table: each card alone and each pair).
Prints a table and writes bench/results/happy_campers_max.json (with `--only-cards`:
happy_campers_max_cards.json). Runs one solve at a time (2 CP-SAT workers), as the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.maximise import absolute_max, challenge_max, clairvoyant_max
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Challenge

RESULTS = Path(__file__).resolve().parent / "results" / "happy_campers_max.json"
CARD_RESULTS = RESULTS.with_name("happy_campers_max_cards.json")
ROLL_COUNTS = (10, 15, 20)
CARD_ROLLS = 15
#: The point-scoring cards, each measured alone in clairvoyant play.
SCORING_CARDS = (
    Challenge.PRIVACY,
    Challenge.QUICK_PEE,
    Challenge.TENT_TOGETHER,
    Challenge.RIVER_TOWN,
    Challenge.NATURE_RESERVE,
    Challenge.DANGEROUS_ANIMALS,
    Challenge.GREAT_DIVIDE,
)


def seeded_rolls(seed: int, count: int) -> list[tuple[int, int]]:
    rng = rng_for(seed, "bench.happy_campers_max", count)
    return [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(count, 2))]


def clairvoyant_with_cards(seeds: int, limit: float) -> list[dict[str, object]]:
    """Clairvoyant max with one point-scoring card at a time: proof share and median gap per card."""
    print(f"clairvoyant max with one card, {CARD_ROLLS} rolls, {seeds} seeds, {limit:g} s each")
    print(f"{'card':<18} {'optimal':>8} {'median gap':>11} {'median s':>9}")
    rows = []
    for card in SCORING_CARDS:
        runs = []
        for seed in range(seeds):
            started = time.monotonic()
            result = clairvoyant_max(None, seeded_rolls(seed, CARD_ROLLS), [card], budget=Budget(limit))
            runs.append(
                {
                    "seed": seed,
                    "score": result.score,
                    "bound": result.bound,
                    "proof": result.proof.value if result.proof else None,
                    "seconds": round(time.monotonic() - started, 3),
                }
            )
        optimal = sum(1 for r in runs if r["proof"] == Proof.OPTIMAL.value)
        gaps = [r["bound"] - r["score"] for r in runs if r["bound"] is not None and r["score"] is not None]
        row = {
            "card": card.value,
            "optimal_share": optimal / len(runs),
            "median_gap": statistics.median(gaps) if gaps else None,
            "median_s": round(statistics.median(r["seconds"] for r in runs), 2),
            "runs": runs,
        }
        rows.append(row)
        print(f"{card.value:<18} {optimal:>3}/{len(runs):<4} {row['median_gap']!s:>11} {row['median_s']:>9}")
    return rows


def proof_table(
    single_seeds: int,
    pair_seeds: int,
    limit: float,
    roll_counts: tuple[int, ...],
    part: str,
    only: frozenset[str] = frozenset(),
) -> list[dict[str, object]]:
    """Share of clairvoyant maxima proven OPTIMAL within `limit` s, per card set (`part`: "singles" = each
    point card alone, "pairs" = each pair, "all") and roll count, with the median seconds and the median
    gap (bound - score) of each cell; every answer is the checked, replayed one `clairvoyant_max` returns
    (the proof claim is CP-SAT's status). Seeds 0..n-1 of `seeded_rolls` per cell; the load average is
    recorded per cell, as timing on a shared machine depends on it."""
    import itertools
    import os

    card_sets: list[tuple[Challenge, ...]] = []
    if part in ("singles", "all"):
        card_sets += [(card,) for card in SCORING_CARDS]
    if part in ("pairs", "all"):
        card_sets += list(itertools.combinations(SCORING_CARDS, 2))
    if only:  # names as printed: "privacy", "privacy+quick_pee"
        card_sets = [cards for cards in card_sets if "+".join(card.value for card in cards) in only]
    print(f"clairvoyant proofs within {limit:g} s: proven/n, p50 s (n = {single_seeds} alone, {pair_seeds} pairs)")
    print(f"{'cards':<36}" + "".join(f"{f'{n} rolls':>18}" for n in roll_counts))
    rows = []
    for cards in card_sets:
        name = "+".join(card.value for card in cards)
        seeds = single_seeds if len(cards) == 1 else pair_seeds
        cells = {}
        for count in roll_counts:
            runs = []
            for seed in range(seeds):
                started = time.monotonic()
                cpu_started = time.process_time()
                result = clairvoyant_max(None, seeded_rolls(seed, count), cards, budget=Budget(limit))
                runs.append(
                    {
                        "seed": seed,
                        "score": result.score,
                        "bound": result.bound,
                        "proof": result.proof.value if result.proof else None,
                        "seconds": round(time.monotonic() - started, 3),
                        # CPU seconds of this process (CP-SAT's threads included) and CP-SAT's deterministic
                        # time: on a loaded machine the wall seconds buy far less search than on a quiet one.
                        "cpu_s": round(time.process_time() - cpu_started, 3),
                        "deterministic_time": round(result.stats.deterministic_time, 3),
                    }
                )
            gaps = [r["bound"] - r["score"] for r in runs if r["bound"] is not None and r["score"] is not None]
            cells[count] = {
                "proven": sum(1 for r in runs if r["proof"] == Proof.OPTIMAL.value),
                "n": seeds,
                "p50_s": round(statistics.median(r["seconds"] for r in runs), 2),
                "median_gap": statistics.median(gaps) if gaps else None,
                "p50_cpu_s": round(statistics.median(r["cpu_s"] for r in runs), 2),
                "p50_deterministic_time": round(statistics.median(r["deterministic_time"] for r in runs), 2),
                "load_average_1m": round(os.getloadavg()[0], 2),
                "runs": runs,
            }
        rows.append({"cards": name, "cells": cells})
        shown = ["{}/{} {:.1f}s".format(c["proven"], c["n"], c["p50_s"]) for c in cells.values()]
        print(f"{name:<36}" + "".join(f"{cell:>18}" for cell in shown), flush=True)
    total = sum(c["proven"] for r in rows for c in r["cells"].values())
    n = sum(c["n"] for r in rows for c in r["cells"].values())
    print(f"overall {total}/{n} = {total / max(n, 1):.3f}")
    return rows


def _parser() -> argparse.ArgumentParser:
    """The bench's options (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20, help="random roll sequences per length")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per clairvoyant solve")
    parser.add_argument("--card-limit", type=float, default=30.0, help="seconds per absolute/card solve")
    parser.add_argument("--card-seeds", type=int, default=10, help="sequences per card (clairvoyant with a card)")
    parser.add_argument("--only-cards", action="store_true", help="only the clairvoyant-with-a-card table")
    parser.add_argument("--proof-table", action="store_true", help="only the proof table by card set and rolls")
    parser.add_argument("--part", choices=("singles", "pairs", "all"), default="all", help="proof table rows")
    parser.add_argument("--pair-seeds", type=int, default=5, help="proof table: seeds per cell for pairs")
    parser.add_argument("--rolls", default="10,15,20", help="proof table: roll counts")
    parser.add_argument("--cards", default="", help="proof table: only these card sets (comma separated, a+b)")
    parser.add_argument("--suffix", default="", help="proof table: results file suffix (default: the part)")
    parser.add_argument("--quick", action="store_true", help="3 seeds, 5 s limits")
    parser.add_argument(
        "--levels", choices=("on", "off"), default=None, help="proof by card levels (maximise.LEVEL_PROOF) on or off"
    )
    return parser


def _write_proof_table(args: argparse.Namespace) -> None:
    """`--proof-table`: the table, with the load before and after, in happy_campers_max_proofs[SUFFIX].json."""
    import os

    counts = tuple(int(x) for x in args.rolls.split(","))
    load_before = os.getloadavg()
    only = frozenset(name for name in args.cards.split(",") if name)
    table = proof_table(args.card_seeds, args.pair_seeds, args.limit, counts, args.part, only)
    suffix = args.suffix or ("" if args.part == "all" else f"_{args.part}")
    path = RESULTS.with_name(f"happy_campers_max_proofs{suffix}.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "limit_s": args.limit,
        "workers": 2,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "rows": table,
    }
    path.write_text(json.dumps(report, indent=2))


def _write_card_table(args: argparse.Namespace) -> None:
    """`--only-cards`: clairvoyant play with one card at a time, in happy_campers_max_cards.json."""
    cards_report = {
        "map": "5x9 default components",
        "workers": 2,
        "limit_s": args.limit,
        "rolls": CARD_ROLLS,
        "clairvoyant_with_card": clairvoyant_with_cards(args.card_seeds, args.limit),
    }
    CARD_RESULTS.parent.mkdir(parents=True, exist_ok=True)
    CARD_RESULTS.write_text(json.dumps(cards_report, indent=2))


def clairvoyant_table(seeds: int, limit: float) -> list[dict[str, object]]:
    """Clairvoyant max without cards per roll count: median seconds, proof share, median score and gap."""
    rows = []
    print(f"clairvoyant max, {seeds} seeded sequences per length, {limit:g} s each")
    print(f"{'rolls':>5} {'median s':>9} {'optimal':>8} {'median score':>13} {'median gap':>11}")
    for count in ROLL_COUNTS:
        runs = []
        for seed in range(seeds):
            started = time.monotonic()
            result = clairvoyant_max(None, seeded_rolls(seed, count), budget=Budget(limit))
            elapsed = time.monotonic() - started
            runs.append(
                {
                    "seed": seed,
                    "score": result.score,
                    "bound": result.bound,
                    "proof": result.proof.value if result.proof else None,
                    "seconds": round(elapsed, 3),
                }
            )
        optimal = sum(1 for r in runs if r["proof"] == Proof.OPTIMAL.value)
        gaps = [r["bound"] - r["score"] for r in runs if r["bound"] is not None and r["score"] is not None]
        scores = [r["score"] for r in runs if r["score"] is not None]
        row = {
            "rolls": count,
            "median_s": round(statistics.median(r["seconds"] for r in runs), 2),
            "optimal_share": optimal / len(runs),
            "median_score": statistics.median(scores) if scores else None,
            "median_gap": statistics.median(gaps) if gaps else None,
            "runs": runs,
        }
        rows.append(row)
        print(
            f"{count:>5} {row['median_s']:>9} {optimal:>3}/{len(runs):<4} {row['median_score']!s:>13}"
            f" {row['median_gap']!s:>11}"
        )
    return rows


def maxima_table(limit: float) -> list[dict[str, object]]:
    """The absolute maximum without cards and each card's maximum: value, bound, proof and seconds."""
    print(f"\nabsolute and card maxima, {limit:g} s each")
    print(f"{'question':<22} {'value':>6} {'bound':>6} {'proof':<20} {'seconds':>8}")
    maxima = []
    questions = [("absolute (no cards)", None), *[(card.value, card) for card in Challenge]]
    for name, card in questions:
        started = time.monotonic()
        if card is None:
            result = absolute_max(DEFAULT_COMPONENTS, (), Budget(limit))
        else:
            result = challenge_max(card, DEFAULT_COMPONENTS, Budget(limit))
        elapsed = time.monotonic() - started
        proof = result.proof.value if result.proof else None
        row = {"question": name, "value": result.score, "bound": result.bound, "proof": proof}
        maxima.append({**row, "seconds": round(elapsed, 2)})
        print(f"{name:<22} {result.score!s:>6} {result.bound!s:>6} {proof!s:<20} {elapsed:>8.2f}")
    return maxima


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.quick:
        args.seeds, args.card_seeds, args.limit, args.card_limit = 3, 3, 5.0, 5.0

    if args.levels is not None:
        from campsolver.solver.happy_campers import maximise

        maximise.LEVEL_PROOF = args.levels == "on"
    if args.proof_table:
        _write_proof_table(args)
        return
    if args.only_cards:
        _write_card_table(args)
        return

    report: dict[str, object] = {"map": "5x9 default components", "workers": 2, "limit_s": args.limit}
    report["clairvoyant"] = clairvoyant_table(args.seeds, args.limit)
    print()
    report["clairvoyant_with_card"] = clairvoyant_with_cards(args.card_seeds, args.limit)
    report["maxima"] = maxima_table(args.card_limit)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2))
    print(f"\nwritten {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")


if __name__ == "__main__":
    main()

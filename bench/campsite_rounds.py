"""Campsite round maxima bench: the best solo round of a known deck order, proven or with its bound, per round length
at a fixed CPU budget, quiet or beside busy loops.

Seeds 5,500,000 + k (k = 0..n-1; no test uses them; `--first-seed` moves the range): the default deck shuffled by
`random.Random(seed)`, dealt as the service deals a round (order[0..1] start, order[2..4] the hand, then one draw a
turn). Each round is solved by `best_round` (what MaxScore runs) under a `CpuBudget` (process CPU seconds, every thread
counted), and the answer is replayed and scored by the rules model. Per length: proven share (EXACT or OPTIMAL), median
CPU seconds to a proof (proven rounds only), median and largest gap (bound - best), the root bound (the search's bound
before any card is laid) and the first bound the search reports after looking at every first card
(`round_search.root_bound`).

    python -m bench.campsite_rounds                       # 3-7 turns, 10 seeds, budgets 60 CPU-s (3-5), 120 (6-7)
    python -m bench.campsite_rounds --turns 4 5 --n 5 --busy 4 --tag loaded
    python -m bench.campsite_rounds --root-only            # root bounds only (cheap)
    python -m bench.campsite_rounds --root-only --joint 20  # and the joint relaxation's root bound (20 CPU-s)

Writes bench/results/campsite_rounds[_tag].json (every round, and the table) and prints the table. `--busy k` runs k
busy loops (`tools.busy`) beside the bench: the machine's other load is recorded (1-minute load average).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import time
from typing import Any

from campsolver.solver.campsite import best_round as rounds
from campsolver.solver.campsite import round_search
from campsolver.solver.campsite import rules as R
from campsolver.solver.core.budget import CpuBudget
from campsolver.solver.core.proof import Proof

from bench.common import percentile, print_table, write_json

FIRST_SEED = 5_500_000
#: CPU seconds per round by length (the issue's budgets: 60 for 4-5 turns, 120 for 7; 3 and 6 alike).
BUDGETS = {1: 60.0, 2: 60.0, 3: 60.0, 4: 60.0, 5: 60.0, 6: 120.0, 7: 120.0}


def deck_order(seed: int) -> list[R.Card]:
    order = list(R.default_deck())
    random.Random(seed).shuffle(order)
    return order


def replayed_score(order: list[R.Card], plays: list[tuple[R.Placement, R.Tent]]) -> int:
    """The round replayed through the rules model (hand, draws, legality, tokens) and scored."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2:5])
    drawn = 5
    used: set[R.Token] = set()
    for placement, tent in plays:
        if placement.card not in hand or tent.token in used:
            raise AssertionError("a card not in hand or a token used twice")
        hand.remove(placement.card)
        used.add(tent.token)
        hand.append(order[drawn])
        drawn += 1
        table = table.place(placement).pitch(tent)
    return R.player_scores(table, 1)[0]


def solve_one(seed: int, turns: int, budget_s: float) -> dict[str, Any]:
    order = deck_order(seed)
    started, cpu = time.monotonic(), time.process_time()
    result = rounds.best_round(order, turns, CpuBudget(budget_s))
    wall, used = time.monotonic() - started, time.process_time() - cpu
    score = replayed_score(order, result.plays) if result.plays else -1
    if score != result.score:
        raise AssertionError(f"seed {seed}: the answer says {result.score}, the rules model {score}")
    proven = result.proof in (Proof.EXACT, Proof.OPTIMAL)
    row = {
        "seed": seed,
        "turns": turns,
        "budget_cpu_s": budget_s,
        "score": result.score,
        "bound": result.bound,
        "gap": result.bound - result.score,
        "proof": result.proof.name,
        "proven": proven,
        "cpu_s": round(used, 2),
        "wall_s": round(wall, 2),
        "nodes": result.nodes,
        "note": result.note,
        "load_1min": os.getloadavg()[0],
    }
    print(row, flush=True)
    return row


def root_bounds(seed: int, turns: int, joint_s: float = 0.0) -> dict[str, Any]:
    """The search's bound before any card is laid, and (where the search offers it) after every first card is
    bounded, with the CPU seconds each took; with `joint_s`, also the joint relaxation's bound at the root (each card
    to come placed once for all tents, `round_joint`) within that many CPU seconds, and the smaller of the two."""
    order = deck_order(seed)
    cpu = time.process_time()
    root = round_search.root_bound(order, turns, CpuBudget(600))
    row: dict[str, Any] = {"seed": seed, "turns": turns, "root_bound": root, "root_cpu_s": time.process_time() - cpu}
    if joint_s:
        from campsolver.solver.campsite import round_joint

        cpu = time.process_time()
        joint = round_joint.root_joint_bound(order, turns, CpuBudget(joint_s))
        row["joint_budget_cpu_s"] = joint_s
        row["joint_bound"] = joint.bound
        row["joint_status"] = joint.status.name if hasattr(joint.status, "name") else int(joint.status)
        row["joint_lays"] = joint.lays
        row["joint_cpu_s"] = time.process_time() - cpu
        row["root_with_joint"] = root if joint.bound is None else min(root, joint.bound)
    first = getattr(round_search, "first_level_bound", None)
    if first is not None:
        cpu = time.process_time()
        row["first_level_bound"] = first(order, turns, CpuBudget(600))
        row["first_level_cpu_s"] = time.process_time() - cpu
    row["per_token_cap"] = rounds.upper_bound(order, turns)
    print(row, flush=True)
    return row


def summarise(rows: list[dict[str, Any]], turns: int) -> dict[str, Any]:
    mine = [r for r in rows if r["turns"] == turns]
    proven = [r for r in mine if r["proven"]]
    gaps = [r["gap"] for r in mine]
    return {
        "turns": turns,
        "n": len(mine),
        "budget_cpu_s": mine[0]["budget_cpu_s"] if mine else float("nan"),
        "proven": f"{len(proven)}/{len(mine)}",
        "proven_share": len(proven) / len(mine) if mine else float("nan"),
        "proof_cpu_p50_s": percentile([r["cpu_s"] for r in proven], 50) if proven else float("nan"),
        "gap_p50": percentile(gaps, 50),
        "gap_max": max(gaps) if gaps else float("nan"),
        "gap_le_3": sum(1 for g in gaps if g <= 3),
        "score_p50": percentile([r["score"] for r in mine], 50),
        "bound_p50": percentile([r["bound"] for r in mine], 50),
        "load_p50": percentile([r["load_1min"] for r in mine], 50),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--n", type=int, default=10, help="seeds per length (5,500,000 + 0..n-1)")
    parser.add_argument("--first", type=int, default=0, help="first seed offset")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="the range's first seed (no test's seed)")
    parser.add_argument("--budget", type=float, default=None, help="CPU seconds per round (default: by length)")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the bench (tools.busy)")
    parser.add_argument("--tag", default="", help="suffix of the JSON file")
    parser.add_argument("--root-only", action="store_true", help="root bounds only")
    parser.add_argument(
        "--joint", type=float, default=0.0, help="with --root-only: CPU seconds for the joint relaxation's root bound"
    )
    args = parser.parse_args(argv)
    seeds = [args.first_seed + args.first + k for k in range(args.n)]
    payload: dict[str, Any] = {
        "seeds": seeds,
        "busy_loops": args.busy,
        "load_1min_start": os.getloadavg()[0],
        "solver": rounds.__file__,
    }
    with contextlib.ExitStack() as stack:
        if args.busy:
            from tools.busy import busy_loops

            stack.enter_context(busy_loops(args.busy, max_s=6 * 3600))
        if args.root_only:
            roots = [root_bounds(seed, turns, args.joint) for turns in args.turns for seed in seeds]
            payload["root_bounds"] = roots
            print_table("root bounds", roots)
        else:
            rows = [solve_one(seed, turns, args.budget or BUDGETS[turns]) for turns in args.turns for seed in seeds]
            payload["rounds"] = rows
            payload["table"] = [summarise(rows, turns) for turns in args.turns]
            print_table(f"best solo round, seeds {seeds[0]}-{seeds[-1]}, busy loops {args.busy}", payload["table"])
    payload["load_1min_end"] = os.getloadavg()[0]
    write_json("campsite_rounds" + (f"_{args.tag}" if args.tag else ""), payload)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The exact best-response ceiling of a two-camper Camper Tour head-to-head against fixed players.

    python -m bench.camper_tour_ceiling [--opponents steady,dash,...|module:function,...] [--plates 72]
                                        [--tokens 25] [--out NAME]

For each opponent: the win probability of the exact best response to it (`solver.camper_tour.ceiling`), in seat 0
moving first, in seat 1 moving second, and their mean (what a seat-alternating row can at most show), with the
opponent states solved, the opponent calls made and the CPU seconds. An opponent is a name of this repository's
players (`players.PLAYERS`), of the sparring partners (`bench.camper_tour_sparring.PLAYERS`), or an import path
`package.module:function` (any function of the rules state returning a move, or (move, probability) pairs). The
route has no special plates (the exact case); the default table's specials would be left out anyway.
"""

from __future__ import annotations

import argparse
import importlib

from campsolver.solver.camper_tour.ceiling import ceiling_report
from campsolver.solver.camper_tour.duel import OpponentPolicy
from campsolver.solver.camper_tour.players import PLAYERS
from campsolver.solver.camper_tour.rules import all_normal

from bench.camper_tour_sparring import PLAYERS as SPARRING
from bench.common import print_table, write_json


def opponent(name: str) -> OpponentPolicy:
    if ":" in name:
        module, function = name.split(":")
        return getattr(importlib.import_module(module), function)
    if name in SPARRING:
        return SPARRING[name]
    if name in PLAYERS:
        return PLAYERS[name]
    raise SystemExit(f"unknown opponent {name!r}: one of {sorted(PLAYERS) + sorted(SPARRING)} or module:function")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default=",".join(SPARRING))
    parser.add_argument("--plates", type=int, default=72)
    parser.add_argument("--tokens", type=int, default=25)
    parser.add_argument(
        "--seat-symmetric",
        action="store_true",
        help="one solve for both seats (for players that read their own camper as state.mover)",
    )
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    config = all_normal(args.plates, args.tokens)
    rows = []
    for name in args.opponents.split(","):
        report = ceiling_report(opponent(name), config, seat_symmetric=args.seat_symmetric)
        row = {
            "opponent": name,
            "ceiling": report.value,
            "first": report.first,
            "second": report.second,
            "exact": report.exact,
            "plates": report.plates,
            "tokens": report.tokens,
            "opponent_states": report.opponent_states,
            "opponent_calls": report.opponent_calls,
            "cpu_seconds": report.cpu_seconds,
            "notes": list(report.notes),
        }
        rows.append(row)
        print(row, flush=True)
    title = f"Camper Tour best-response ceiling, 2 campers, {args.plates} plates, {args.tokens} tokens, no specials"
    print_table(
        title,
        [
            {
                "opponent": r["opponent"],
                "ceiling": f"{r['ceiling']:.4f}",
                "seat 0 first": f"{r['first']:.4f}",
                "seat 1 second": f"{r['second']:.4f}",
                "states": r["opponent_states"],
                "calls": r["opponent_calls"],
                "CPU-s": f"{r['cpu_seconds']:.0f}",
            }
            for r in rows
        ],
    )
    if args.out:
        write_json(args.out, {"plates": args.plates, "tokens": args.tokens, "rows": rows})


if __name__ == "__main__":
    main()

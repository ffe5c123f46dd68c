"""Camper Tour: the race rule with a solved duel phase against the same rule without it.

    python -m bench.camper_tour_solved_return [--change return|outward|both_out] [--games 300] [--first-seed 8700000]
        [--players dash,sprint]

Rule only, paired: each seed is played twice in each seat, once by `race` with one solved phase on and once with
it off (the other fields as shipped), against the same opponent (the sparring partners of
bench/camper_tour_sparring.py and this repository's announce-7 and greedy), the default 72-plate route with its
specials. `--change return`: both campers home-bound, the solved return duel (`DuelParameters.solved_return`,
`return_duel`) against burning the tokens home; `--change outward`: outward with the rival home-bound, the solved
duel (`DuelParameters.solved_outward`, `outward_duel`) against the rule's turn-back fields; `--change both_out`:
both outward, the solved duel (`DuelParameters.solved_both_out`, `outward_duel.both_out_move`; off as shipped)
against the rule. Development seeds only (8,600,000-8,999,999 and 9,400,000-9,599,999). Prints each opponent's
shares and the paired difference (on - off) with its standard error; writes
bench/results/camper_tour_solved_<change>.json.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

import numpy as np
from campsolver.solver.camper_tour import players as P
from campsolver.solver.camper_tour.rules import Config, TourState

from bench.camper_tour_sparring import PLAYERS
from bench.common import print_table, write_json

OPPONENTS = {**PLAYERS, "announce7": P.announce_seven, "greedy": P.greedy}
#: Each change: the rule with the solved phase off, and with it on (the other fields as shipped).
ARMS = {
    "return": (dataclasses.replace(P.DUEL, solved_return=False), dataclasses.replace(P.DUEL, solved_return=True)),
    "outward": (dataclasses.replace(P.DUEL, solved_outward=False), dataclasses.replace(P.DUEL, solved_outward=True)),
    "both_out": (
        dataclasses.replace(P.DUEL, solved_both_out=False),
        dataclasses.replace(P.DUEL, solved_both_out=True),
    ),
}


def paired(opponent: str, games: int, first_seed: int, change: str = "return") -> dict[str, Any]:
    """`games` seeds, each in both seats, both arms: the shares and the per-game paired difference (on - off)."""
    other = OPPONENTS[opponent]
    off_params, on_params = ARMS[change]

    def turned_off(state: TourState) -> Any:
        return P.race(state, duel=off_params)

    def turned_on(state: TourState) -> Any:
        return P.race(state, duel=on_params)

    differences, shares = [], [0.0, 0.0]
    for index in range(2 * games):
        seat = index % 2
        results = []
        for arm in (turned_off, turned_on):
            seats = [other, other]
            seats[seat] = arm
            final = P.play_game(Config(), seats, np.random.default_rng(first_seed + index // 2))
            winner = final.winner()
            results.append(1.0 if winner == seat else (0.5 if winner is None else 0.0))
        shares[0] += results[0]
        shares[1] += results[1]
        differences.append(results[1] - results[0])
    d = np.array(differences)
    return {
        "opponent": opponent,
        "games": len(d),
        "off": round(shares[0] / len(d), 3),
        "on": round(shares[1] / len(d), 3),
        "paired_difference": round(float(d.mean()), 4),
        "standard_error": round(float(d.std(ddof=1) / len(d) ** 0.5), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="seeds an opponent (each played in both seats)")
    parser.add_argument("--first-seed", type=int, default=8_700_000)
    parser.add_argument("--players", default=",".join(OPPONENTS))
    parser.add_argument("--change", choices=sorted(ARMS), default="return")
    args = parser.parse_args()
    rows = [paired(name, args.games, args.first_seed, args.change) for name in args.players.split(",")]
    print_table(f"race: the solved {args.change} phase on and off (rule only, paired)", rows)
    write_json(
        f"camper_tour_solved_{args.change}", {"change": args.change, "first_seed": args.first_seed, "rows": rows}
    )


if __name__ == "__main__":
    main()

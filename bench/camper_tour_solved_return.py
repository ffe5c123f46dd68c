"""Camper Tour: the race rule with the solved return duel against the same rule burning its tokens home.

    python -m bench.camper_tour_solved_return [--games 300] [--first-seed 8700000] [--players dash,sprint]

Rule only, paired: each seed is played twice in each seat, once by `race` as shipped (`DuelParameters.solved_return`,
`return_duel`) and once by `race` burning its tokens home, against the same opponent (the sparring partners of
bench/camper_tour_sparring.py and this repository's announce-7 and greedy), the default 72-plate route with its
specials. Development seeds only (8,600,000-8,999,999). Prints each opponent's shares and the paired difference with
its standard error; writes bench/results/camper_tour_solved_return.json.
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
BURNING = dataclasses.replace(P.DUEL, solved_return=False)


def burning_race(state: TourState) -> Any:
    return P.race(state, duel=BURNING)


def paired(opponent: str, games: int, first_seed: int) -> dict[str, Any]:
    """`games` seeds, each in both seats, both arms: the shares and the per-game paired difference."""
    other = OPPONENTS[opponent]
    differences, shares = [], [0.0, 0.0]
    for index in range(2 * games):
        seat = index % 2
        results = []
        for arm in (burning_race, P.race):
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
        "burning_home": round(shares[0] / len(d), 3),
        "solved_return": round(shares[1] / len(d), 3),
        "paired_difference": round(float(d.mean()), 4),
        "standard_error": round(float(d.std(ddof=1) / len(d) ** 0.5), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="seeds an opponent (each played in both seats)")
    parser.add_argument("--first-seed", type=int, default=8_700_000)
    parser.add_argument("--players", default=",".join(OPPONENTS))
    args = parser.parse_args()
    rows = [paired(name, args.games, args.first_seed) for name in args.players.split(",")]
    print_table("race: solved return duel against burning home (rule only, paired)", rows)
    write_json("camper_tour_solved_return", {"first_seed": args.first_seed, "rows": rows})


if __name__ == "__main__":
    main()

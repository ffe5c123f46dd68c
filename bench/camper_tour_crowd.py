"""Tuning the `race` rule of thumb (the win hint's baseline) against this repository's own players, rule only.

    python -m bench.camper_tour_crowd [--campers 3] [--games 120] [--first-seed 4100000] [--sets base,alone2]
                                      [--fields steady+sprint,...] [--out NAME]

Each parameter set plays `players.race` in one seat (rotated: game i, seat i % campers, seed first_seed + i //
campers) against a field of this repository's players: the sparring partners of bench/camper_tour_sparring.py
(steady, dash, far, shadow, careful, sprint, sentinel) and the fixed players of solver/camper_tour/players.py
(announce-7, greedy, and `race` itself with its defaults: a competent last camper). A field `a+b` seats a, b, a, ...
after the rule's seat. No search, no hint: the rule's own moves, so a game costs a few ms and a set hundreds of
games. Default specials, dice from `numpy.random.default_rng(seed)`. Tuning seeds only (below bench.arena's report
seeds, 7,000,000 on); the outside players of bench/opponents/ are never a field here. Prints a table (share per
field, Wilson 95%, the worst field and the mean), writes bench/results/<out>.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
from collections.abc import Callable

import numpy as np
from campsolver.solver.camper_tour import players as P
from campsolver.solver.camper_tour.rules import Action, Config, TourState

from bench.arena.cells import REPORT_FIRST_SEED
from bench.camper_tour_sparring import PLAYERS as SPARRING
from bench.common import print_table, wilson, write_json

Player = Callable[[TourState], Action]

#: This repository's players a field is made of (never the outside players).
FIELD_PLAYERS: dict[str, Player] = {**SPARRING, "announce-7": P.announce_seven, "greedy": P.greedy, "race": P.race}
FIELDS_3 = (
    "steady+sprint",
    "dash+careful",
    "sentinel+far",
    "shadow+steady",
    "announce-7+greedy",
    "sprint+sentinel",
    "careful+steady",
    "dash+announce-7",
)
FIELDS_2 = ("race", "steady", "dash", "shadow", "careful", "sprint", "sentinel", "announce-7", "greedy")

#: Parameter sets by name: crowd (3+ on the journey) and duel (2 on the journey) changes from the defaults.
SETS: dict[str, tuple[dict[str, object], dict[str, object]]] = {
    "base": ({}, {}),
    **{f"alone{m}": ({"alone_margin": m}, {}) for m in (0, 1, 2, 4, 6)},
    **{f"follow{m}": ({"follow_margin": m}, {}) for m in (0, 1, 2, 4, 6, 8)},
    **{f"follow{m}n2": ({"follow_margin": m, "follow_count": 2}, {}) for m in (0, 2, 4)},
    #: Following once at most one other camper is still outward (`follow_outward`) with the former per-plate
    #: reserve of 0.2 (`base` is follow4o1 with the reserve of 0.1 as shipped); `nofollow`: the rule before both.
    **{f"follow{m}o1": ({"follow_margin": m, "follow_outward": 1, "reserve_per_plate": 0.2}, {}) for m in (2, 4, 6)},
    "nofollow": ({"follow_margin": None, "follow_outward": None, "reserve_per_plate": 0.2}, {}),
}


def changes(name: str) -> tuple[dict[str, object], dict[str, object]]:
    """A named set of SETS, or changes written out: `alone_margin=1:d.out_announcement=5` (`d.`: a duel
    parameter, else a crowd one; values int, float or None)."""
    if name in SETS:
        return SETS[name]
    crowd: dict[str, object] = {}
    duel: dict[str, object] = {}
    for item in name.split(":"):
        key, value = item.split("=")
        parsed: object = None if value == "None" else (float(value) if "." in value else int(value))
        if key.startswith("d."):
            duel[key[2:]] = parsed
        else:
            crowd[key] = parsed
    return crowd, duel


def rule(name: str) -> Player:
    crowd_changes, duel_changes = changes(name)
    # The changes apply to the crowd parameters in use and to those against a slow field alike (`race` picks).
    crowd = dataclasses.replace(P.CROWD, **crowd_changes) if crowd_changes else None  # type: ignore[arg-type]
    slow = dataclasses.replace(P.AGAINST_SLOW, **crowd_changes) if crowd_changes else None  # type: ignore[arg-type]
    duel = dataclasses.replace(P.DUEL, **duel_changes) if duel_changes else None  # type: ignore[arg-type]

    def player(state: TourState) -> Action:
        return P.race(state, slow if crowd is not None and P.slow_field(state) else crowd, duel)

    return player


def share(player: Player, field: str, campers: int, games: int, first_seed: int) -> float:
    """The rule's win share against `field` (a tie for first shared)."""
    kinds = [FIELD_PLAYERS[k] for k in field.split("+")]
    wins = 0.0
    for i in range(games):
        seed = first_seed + i // campers
        if seed >= REPORT_FIRST_SEED:
            raise SystemExit(f"seed {seed} is a report seed (from {REPORT_FIRST_SEED} on): tuning seeds only")
        seat = i % campers
        others = [s for s in range(campers) if s != seat]
        seats: list[Player] = [player] * campers
        for k, s in enumerate(others):
            seats[s] = kinds[k % len(kinds)]
        final = P.play_game(Config(), seats, np.random.default_rng(seed))
        winner = final.winner()
        wins += 1.0 if winner == seat else (1.0 / campers if winner is None else 0.0)
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campers", type=int, default=3)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--first-seed", type=int, default=4_100_000)
    parser.add_argument("--sets", default="base")
    parser.add_argument("--fields", default="")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    fields = args.fields.split(",") if args.fields else list(FIELDS_3 if args.campers >= 3 else FIELDS_2)
    rows = []
    for name in args.sets.split(","):
        player = rule(name)
        shares = {}
        for field in fields:
            wins = share(player, field, args.campers, args.games, args.first_seed)
            shares[field] = (wins / args.games, wilson(wins, args.games))
        values = [s for s, _ in shares.values()]
        row = {
            "set": name,
            "changes": changes(name),
            "campers": args.campers,
            "games": args.games,
            "first_seed": args.first_seed,
            "shares": {f: s for f, (s, _) in shares.items()},
            "wilson95": {f: list(w) for f, (_, w) in shares.items()},
            "worst": min(values),
            "mean": statistics.fmean(values),
        }
        rows.append(row)
        print(
            f"{name:<14} "
            + " ".join(f"{f} {s:.3f}" for f, s in row["shares"].items())
            + f"  worst {row['worst']:.3f} mean {row['mean']:.3f}",
            flush=True,
        )
    print_table(
        f"race rule, {args.campers} campers, {args.games} games a field, seeds {args.first_seed}+",
        [{"set": r["set"], "worst": f"{r['worst']:.3f}", "mean": f"{r['mean']:.3f}"} for r in rows],
    )
    if args.out:
        write_json(args.out, {"rows": rows})


if __name__ == "__main__":
    main()

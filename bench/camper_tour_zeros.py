"""Why the Camper Tour win hint scores 0 in 3-camper games against outside players: each game's cause, sorted.

    python -m bench.camper_tour_zeros [--games 90] [--first-seed 3930000] [--hint-cpu 0.05]
                                      [--opponents steady,sprinter]

Games are played on the rules model: the hint in seat i % 3 (`hint` under a `CpuBudget`), the outside players
(`bench.opponents.camper_tour`) in the other seats in turn, dice from `numpy.random.default_rng(seed)`. For every
game: whether the hint won, how its journey ended (finished; eliminated by a failed roll as the last camper on the
journey; eliminated by running out of tokens outward; still outward or returning when another camper's arrival
ended the game), the plate it turned back on against the others', whether it was ever the last camper, and how
often the hint's answer was the `race` rule of thumb's own move. Tuning seeds only: seeds from
`bench.arena.cells.REPORT_FIRST_SEED` on are refused. Prints a table, writes bench/results/camper_tour_zeros.json.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

import numpy as np
from campsolver.solver.camper_tour import rules as R
from campsolver.solver.camper_tour.hint import HintOptions, hint
from campsolver.solver.camper_tour.players import race
from campsolver.solver.core.budget import CpuBudget
from campsolver.solver.core.game import sample_outcome

from bench.arena.cells import REPORT_FIRST_SEED
from bench.common import print_table, write_json
from bench.opponents.camper_tour import PLAYERS

CAMPERS = 3


def play(seed: int, hint_seat: int, opponents: list[str], hint_cpu: float) -> dict[str, Any]:
    """One game; what happened to the hint and why (see the module docstring)."""
    dice = np.random.default_rng(seed)
    their_rng = np.random.default_rng([seed, 1])
    others = [s for s in range(CAMPERS) if s != hint_seat]
    seats = {seat: PLAYERS[opponents[k % len(opponents)]] for k, seat in enumerate(others)}
    state = R.new_game(R.Config(), CAMPERS)
    turned: dict[int, int] = {}
    calls = same_as_race = 0
    last_camper = False
    cause = ""
    while not state.game_over:
        if state.current_player() < 0:
            before = state
            state = state.child(sample_outcome(state, dice))
            if (
                before.stage == R.Stage.ROLL
                and before.to_move == hint_seat
                and state.campers[hint_seat].phase == R.Phase.ELIMINATED
            ):
                cause = "last-camper failed roll" if before.last_camper_rule else "out of tokens outward"
            elif before.to_move == hint_seat and state.campers[hint_seat].phase == R.Phase.ELIMINATED and not cause:
                cause = "out of tokens outward"
            continue
        mover = state.to_move
        phases = [c.phase for c in state.campers]
        if mover == hint_seat:
            last_camper = last_camper or state.last_camper_rule
            calls += 1
            action = hint(state, CpuBudget(hint_cpu), options=HintOptions(seed=seed * 10_000 + calls)).best.action
            same_as_race += action == race(state)
            state = state.child(action)
        else:
            for action in seats[mover](state, mover, their_rng):
                state = state.child(action)
                if state.current_player() != mover or state.stage != R.Stage.DECIDE:
                    break
        for i, camper in enumerate(state.campers):
            if phases[i] == R.Phase.OUTWARD and camper.phase == R.Phase.RETURN:
                turned[i] = camper.marker
    camper = state.campers[hint_seat]
    if camper.phase == R.Phase.FINISHED:
        cause = "finished"
    elif camper.active:
        cause = f"still {camper.phase.value} at the end"
    return {
        "seed": seed,
        "hint_seat": hint_seat,
        "won": state.winner() == hint_seat,
        "score": camper.score,
        "cause": cause,
        "hint_turned_back_on": turned.get(hint_seat),
        "others_turned_back_on": [turned.get(i) for i in others],
        "was_last_camper": last_camper,
        "hint_calls": calls,
        "same_as_race": same_as_race,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=90)
    parser.add_argument("--first-seed", type=int, default=3_930_000)
    parser.add_argument("--hint-cpu", type=float, default=0.05)
    parser.add_argument("--opponents", default="steady,sprinter")
    args = parser.parse_args(argv)
    if args.first_seed + args.games // CAMPERS >= REPORT_FIRST_SEED:
        parser.error(f"--first-seed: tuning seeds only (below {REPORT_FIRST_SEED:,})")
    games = [
        play(args.first_seed + i // CAMPERS, i % CAMPERS, args.opponents.split(","), args.hint_cpu)
        for i in range(args.games)
    ]
    causes = Counter(g["cause"] for g in games)
    last = [g for g in games if g["was_last_camper"]]
    mine = [g["hint_turned_back_on"] for g in games if g["hint_turned_back_on"]]
    theirs = [p for g in games for p in g["others_turned_back_on"] if p]
    rows = [
        {"what": f"ended: {cause}", "games": n, "won": sum(g["won"] for g in games if g["cause"] == cause)}
        for cause, n in causes.most_common()
    ]
    rows += [
        {"what": "was the last camper on the journey", "games": len(last), "won": sum(g["won"] for g in last)},
        {"what": "all games", "games": len(games), "won": sum(g["won"] for g in games)},
    ]
    print_table(f"Camper Tour, {CAMPERS} campers, hint at {args.hint_cpu} CPU-s against {args.opponents}", rows)
    summary = {
        "hint_turn_back_plate_mean": statistics.mean(mine) if mine else None,
        "others_turn_back_plate_mean": statistics.mean(theirs) if theirs else None,
        "hint_calls": sum(g["hint_calls"] for g in games),
        "hint_answer_was_race_move": sum(g["same_as_race"] for g in games),
    }
    print(summary)
    write_json("camper_tour_zeros", {"args": vars(args), "rows": rows, "summary": summary, "games": games})


if __name__ == "__main__":
    main()

"""Coverage of the Camper Tour win-probability hint's value +- 2 SE against long-run references.

    python -m bench.camper_tour_coverage [--states 20] [--hint-seconds 1.0] [--reference 400]

Positions: seeded 2-4 camper games of the rules of thumb, cut at a decision (seeds from `SEED_BASE`, a range no
test or other bench uses). Each position is hinted under a `CpuBudget` (so the machine's load does not change the
figures); every move shown with a standard error is then played out `--reference` more times with the hint's
own playout model (the mover plays `race` after the move, the opponents the hint's models in turn) on dice
streams of their own: the long-run reference. A move is covered when |value - reference| <= 2 SE ("strict"),
and, allowing for the reference's own sampling error, when |value - reference| <= 2 sqrt(SE^2 + SE_ref^2)
("adjusted"). Figures for the answered (top) move and for all moves with a standard error; moves shown with a
value but too few playouts for a standard error are counted apart. Prints a table, writes
bench/results/camper_tour_coverage.json.
"""

from __future__ import annotations

import argparse
import random
import time

from campsolver.solver.camper_tour.hint import HintOptions, _playout, hint, opponent_models, win_standard_error
from campsolver.solver.camper_tour.players import announce_seven, greedy, race, solo_optimal
from campsolver.solver.camper_tour.rules import Config, TourState, new_game
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.seeding import rng_for

from bench.common import print_table, write_json

#: First seed of the coverage positions and of their reference dice (disjoint from the tests' and benches').
SEED_BASE = 8_100_000
#: The hint's value +- this many standard errors is the interval checked.
Z = 2.0


def positions(n: int, seed_base: int = SEED_BASE) -> list[TourState]:
    """n decision states with 2+ campers on the journey, from seeded games of the rules of thumb."""
    styles = (race, announce_seven, greedy, solo_optimal)
    found: list[TourState] = []
    g = 0
    while len(found) < n:
        rng = rng_for(seed_base + g, "camper-tour-coverage")
        g += 1
        campers = int(rng.integers(2, 5))
        players = [styles[int(rng.integers(len(styles)))] for _ in range(campers)]
        state, decisions = new_game(Config(), campers), 0
        stop = int(rng.integers(4, 120))
        while not state.game_over and (decisions < stop or state.current_player() < 0):
            if state.current_player() >= 0:
                state = state.child(players[state.to_move](state))
                decisions += 1
            else:
                state = state.child(sample_outcome(state, rng))
        if not state.game_over and sum(c.active for c in state.campers) >= 2:
            found.append(state)
    return found


def reference(state: TourState, action: object, playouts: int, seed: int) -> tuple[float, float]:
    """Long-run win rate of `action` under the hint's playout model, and its standard error."""
    models = opponent_models(state)
    budget = Budget(3600)
    wins = sum(
        _playout(
            state.child(action),
            state.to_move,
            models[i % len(models)],
            random.Random(f"camper-tour-coverage-reference:{seed}:{i}"),
            budget,
        )
        for i in range(playouts)
    )
    return wins / playouts, win_standard_error(wins, playouts)


def run(states: int = 20, hint_seconds: float = 1.0, playouts: int = 400) -> dict[str, object]:
    rows: list[dict[str, object]] = []
    started = time.process_time()
    for index, state in enumerate(positions(states)):
        seed = SEED_BASE + index
        result = hint(state, CpuBudget(hint_seconds), options=HintOptions(seed=seed))
        for rank, move in enumerate(result.moves, start=1):
            if not move.evaluated:
                continue
            row: dict[str, object] = {
                "position": index,
                "rank": rank,
                "move": str(move.action),
                "value": move.value,
                "samples": move.samples,
            }
            if move.samples >= 10:
                truth, truth_error = reference(state, move.action, playouts, seed)
                error = move.standard_error
                row.update(
                    se=error,
                    reference=truth,
                    reference_se=truth_error,
                    strict=abs(move.value - truth) <= Z * error,
                    adjusted=abs(move.value - truth) <= Z * (error**2 + truth_error**2) ** 0.5,
                )
            rows.append(row)
    with_se = [r for r in rows if "se" in r]
    top = [r for r in with_se if r["rank"] == 1]

    def share(items: list[dict[str, object]], key: str) -> str:
        return f"{sum(bool(r[key]) for r in items)}/{len(items)}" if items else "-"

    figures: dict[str, object] = {
        "seed_base": SEED_BASE,
        "seeds": f"{SEED_BASE}-{SEED_BASE + states - 1} (positions and reference dice)",
        "states": states,
        "hint_cpu_seconds": hint_seconds,
        "reference_playouts": playouts,
        "z": Z,
        "valued_moves": len(rows),
        "valued_without_se": len(rows) - len(with_se),
        "top_strict": share(top, "strict"),
        "top_adjusted": share(top, "adjusted"),
        "all_strict": share(with_se, "strict"),
        "all_adjusted": share(with_se, "adjusted"),
        "cpu_seconds": time.process_time() - started,
        "moves": rows,
    }
    print_table(
        "Camper Tour win-hint coverage of value +- 2 SE",
        [
            {
                "moves": "top (answered)",
                "with SE": len(top),
                "strict": figures["top_strict"],
                "adjusted": figures["top_adjusted"],
            },
            {
                "moves": "all valued with SE",
                "with SE": len(with_se),
                "strict": figures["all_strict"],
                "adjusted": figures["all_adjusted"],
            },
            {
                "moves": "valued, < 10 playouts (no SE)",
                "with SE": figures["valued_without_se"],
                "strict": "-",
                "adjusted": "-",
            },
        ],
    )
    write_json("camper_tour_coverage", figures)
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--hint-seconds", type=float, default=1.0)
    parser.add_argument("--reference", type=int, default=400)
    args = parser.parse_args()
    run(args.states, args.hint_seconds, args.reference)

"""Camper Tour benchmark: `python -m bench.camper_tour` prints a table, writes bench/results/camper_tour.json.

Figures: time for the whole solo policy (72 plates, 25 tokens; median of runs), the exact all-normal solo
expectation, the default special mix (Monte Carlo of the layout-aware policy with its standard error, and
the sampled clairvoyant upper estimate; no exact method is claimed), and in-process hint latency p50/p99
over seeded multi-camper states (`sample_hint_states` is reusable for the gRPC latency run), and the fixed-depth
search speed on `sample_hint_states(1, 20)` (`hint_search_speed`; `python -m bench.camper_tour --reference` also
times the generic expectimax on the same states, which takes minutes).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from campsolver.solver.camper_tour.hint import _SearchNode, hint, leaf_values
from campsolver.solver.camper_tour.rules import (
    Camper,
    Config,
    Phase,
    PlateKind,
    TourState,
    all_normal,
    new_game,
    position_state,
)
from campsolver.solver.camper_tour.search import search
from campsolver.solver.camper_tour.solo import KnownLayoutTables, SoloPosition, solve_solo
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.seeding import rng_for

RESULTS = Path(__file__).resolve().parent / "results" / "camper_tour.json"
HINT_BUDGET_S = 0.5
HINT_DEPTH = 2


def sample_hint_states(seed: int, n: int) -> list[TourState]:
    """Seeded decision states of 2-4 campers, reached by random play from the setup (default stack)."""
    states: list[TourState] = []
    index = 0
    while len(states) < n:
        rng = rng_for(seed, "camper-tour-hint-states", index)
        index += 1
        state = new_game(Config(), int(rng.integers(2, 5)))
        for _ in range(int(rng.integers(5, 120))):
            if state.current_player() < 0:
                if state.current_player() != -1:
                    break
                state = state.child(sample_outcome(state, rng))
            else:
                actions = state.legal_actions()
                state = state.child(actions[int(rng.integers(len(actions)))])
        while state.current_player() == -1:
            state = state.child(sample_outcome(state, rng))
        if state.current_player() >= 0 and sum(c.active for c in state.campers) >= 2:
            states.append(state)
    return states


def endgame_states(seed: int, n: int) -> list[TourState]:
    """Seeded two-camper return-journey races on a 72-plate all-normal route."""
    rng = rng_for(seed, "camper-tour-endgames")
    states = []
    while len(states) < n:
        p0, p1 = (int(x) for x in rng.choice(range(2, 30), size=2, replace=False))
        campers = [Camper(position=p, tokens=int(rng.integers(-2, 10)), phase=Phase.RETURN,
                          marker=p + int(rng.integers(0, 20))) for p in (p0, p1)]
        states.append(position_state(all_normal(), campers))
    return states


def hint_search_speed(depth: int = HINT_DEPTH, seed: int = 1, n: int = 20, *, reference: bool = False
                      ) -> dict[str, float]:
    """Median latency and successor states per second of the fixed-depth hint search (and of the generic one)."""
    figures: dict[str, float] = {}
    engines = [("fast", lambda s: search(s, depth)[1].successors)]
    if reference:
        engines.append(("generic", lambda s: expectimax(_SearchNode(s), max_depth=depth,
                                                        leaf_value=lambda node: leaf_values(node.state)).nodes))
    states = sample_hint_states(seed, n)
    for name, run in engines:
        latencies, nodes = [], 0
        for state in states:
            started = time.perf_counter()
            nodes += run(state)
            latencies.append(time.perf_counter() - started)
        figures[f"hint_{name}_depth{depth}_median_s"] = statistics.median(latencies)
        figures[f"hint_{name}_depth{depth}_max_s"] = max(latencies)
        figures[f"hint_{name}_depth{depth}_states_per_s"] = nodes / sum(latencies)
    return figures


def main(reference: bool = False) -> dict[str, object]:
    timings = []
    for _ in range(7):
        started = time.perf_counter()
        tables = KnownLayoutTables((PlateKind.NORMAL,) * 72, 25)
        timings.append(time.perf_counter() - started)
    exact = solve_solo(all_normal(), SoloPosition(), Budget(10))
    mixed = solve_solo(Config(), SoloPosition(), Budget(120), seed=1, max_samples=1000, clairvoyant_samples=40)
    latencies = []
    depths = []
    for state in sample_hint_states(2024, 40) + endgame_states(2024, 20):
        started = time.perf_counter()
        result = hint(state, Budget(HINT_BUDGET_S), max_depth=HINT_DEPTH)
        latencies.append(time.perf_counter() - started)
        depths.append(result.depth)
    figures: dict[str, object] = {
        "solo_policy_72x25_median_s": statistics.median(timings),
        "solo_all_normal_72_25_expected_score": exact.value,
        "solo_all_normal_proof": exact.proof.value,
        "solo_all_normal_check": tables.outward_value(0, 25),
        "solo_default_specials_estimate": mixed.value,
        "solo_default_specials_standard_error": mixed.standard_error,
        "solo_default_specials_clairvoyant_upper_estimate": mixed.upper_estimate,
        "solo_default_specials_clairvoyant_standard_error": mixed.upper_standard_error,
        "solo_default_specials_proof": mixed.proof.value,
        "solo_default_specials_samples": mixed.samples,
        "hint_states": len(latencies),
        "hint_budget_s": HINT_BUDGET_S,
        "hint_max_depth": HINT_DEPTH,
        "hint_latency_p50_s": float(np.percentile(latencies, 50)),
        "hint_latency_p99_s": float(np.percentile(latencies, 99)),
        "hint_depth_reached_mean": float(np.mean(depths)),
        **hint_search_speed(reference=reference),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value:.6g}" if isinstance(value, float) else f"{key:<{width}}  {value}")
    return figures


# --- head to head: the win-probability hint against fixed players -----------------------------------------

HEAD_TO_HEAD_RESULTS = Path(__file__).resolve().parent / "results" / "camper_tour_head_to_head.json"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return (centre - half, centre + half)


def head_to_head(config: Config, campers: int, opponent: str, games: int, hint_seconds: float,
                 seed: int = 0) -> dict[str, object]:
    """`games` seeded games: the hint (WIN_PROBABILITY, `hint_seconds` a move, rank-1 move) in one seat, the
    opponent's rule in every other; the hint's seat rotates game by game."""
    from campsolver.solver.camper_tour.hint import Objective
    from campsolver.solver.camper_tour.players import PLAYERS

    rival = PLAYERS[opponent]
    wins = 0
    for g in range(games):
        seat = g % campers
        rng = rng_for(seed, "camper-tour-h2h", campers, opponent, g)
        state = new_game(config, campers)
        while not state.game_over:
            if state.current_player() >= 0:
                if state.to_move == seat:
                    action = hint(state, Budget(hint_seconds), objective=Objective.WIN_PROBABILITY,
                                  seed=g).best.action
                else:
                    action = rival(state)
                state = state.child(action)
            else:
                state = state.child(sample_outcome(state, rng))
        wins += state.winner() == seat
    low, high = wilson(wins, games)
    return {"campers": campers, "specials": config.has_specials, "opponent": opponent, "games": games,
            "hint_seconds": hint_seconds, "wins": wins, "win_rate": wins / games, "wilson95": [low, high],
            "fair_share": 1 / campers}


def head_to_head_main(games: int, hint_seconds: float, campers_list: tuple[int, ...] = (2, 3)) -> None:
    rows = []
    for campers in campers_list:
        for config in (all_normal(), Config()):
            for opponent in ("announce-7", "greedy", "solo-optimal"):
                row = head_to_head(config, campers, opponent, games, hint_seconds)
                rows.append(row)
                low, high = row["wilson95"]  # type: ignore[misc]
                print(f"| {campers} | {'default' if row['specials'] else 'none'} | {opponent} | {games} | "
                      f"{row['win_rate']:.3f} | [{low:.3f}, {high:.3f}] | {row['fair_share']:.2f} |", flush=True)
                HEAD_TO_HEAD_RESULTS.parent.mkdir(parents=True, exist_ok=True)
                HEAD_TO_HEAD_RESULTS.write_text(json.dumps(rows, indent=2))


BASELINE_RESULTS = Path(__file__).resolve().parent / "results" / "camper_tour_racer_baseline.json"


def baseline_main(games: int) -> None:
    """The hint's own baseline without playouts: the `racer` rule in one seat (rotated), the opponent's rule
    in the others, `games` seeded games a pairing (fast: no search)."""
    from campsolver.solver.camper_tour.players import PLAYERS, racer

    rows = []
    for campers in (2, 3):
        for config in (all_normal(), Config()):
            for opponent in ("announce-7", "greedy", "solo-optimal"):
                wins = 0
                for g in range(games):
                    seat = g % campers
                    players = [PLAYERS[opponent]] * campers
                    players[seat] = racer
                    rng = rng_for(0, "camper-tour-baseline", campers, opponent, g)
                    state = new_game(config, campers)
                    while not state.game_over:
                        if state.current_player() >= 0:
                            state = state.child(players[state.to_move](state))
                        else:
                            state = state.child(sample_outcome(state, rng))
                    wins += state.winner() == seat
                low, high = wilson(wins, games)
                rows.append({"campers": campers, "specials": config.has_specials, "opponent": opponent,
                             "games": games, "wins": wins, "win_rate": wins / games, "wilson95": [low, high]})
                print(f"| {campers} | {'default' if config.has_specials else 'none'} | {opponent} | {games} | "
                      f"{wins / games:.3f} | [{low:.3f}, {high:.3f}] |", flush=True)
    BASELINE_RESULTS.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if "--head-to-head" in arguments:
        games = int(arguments[arguments.index("--games") + 1]) if "--games" in arguments else 400
        seconds = float(arguments[arguments.index("--hint-seconds") + 1]) if "--hint-seconds" in arguments else 0.2
        head_to_head_main(games, seconds)
    elif "--racer-baseline" in arguments:
        baseline_main(int(arguments[arguments.index("--games") + 1]) if "--games" in arguments else 402)
    else:
        main(reference="--reference" in arguments)

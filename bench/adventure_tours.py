"""Adventure Tours benchmark: `python -m bench.adventure_tours [--games N] [--budget S] [--quick]`.

Prints tables and writes bench/results/adventure_tours.json:
- hint latency by budget over seeded positions (p50 / p99 wall time, p99 and max overrun past the budget);
- 3-player whole games (3 rounds, basic game), seats rotated (the hint sits in seat g mod 3 of game g), the hint
  against two random-legal players and against two greedy players (`policies.greedy_action`), and greedy
  against two random players for reference: win rate (ties count as wins: "more than one winner") with a
  95% Wilson interval, and the mean money margin over the best opponent.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours.information import observe
from campsolver.solver.adventure_tours.policies import greedy_action, random_action
from campsolver.solver.adventure_tours.rules import Config, State, new_game
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for

from bench.common import percentile, print_table, write_json

Player = Callable[[State, Any], list[Any]]  # returns the actions to take now (a hint's play is several)


def hint_player(budget_s: float) -> Player:
    def play(state: State, rng: Any) -> list[Any]:
        mover = state.current_player()
        result = hints.hint(
            observe(state, mover), Budget(budget_s), options=hints.HintOptions(seed=int(rng.integers(2**31)))
        )
        return list(result.best.play)

    return play


def greedy_player(state: State, rng: Any) -> list[Any]:
    return [greedy_action(state)]


def random_player(state: State, rng: Any) -> list[Any]:
    return [random_action(state, rng)]


def play_game(players: list[Player], seed: int) -> tuple[int, ...]:
    """One whole game; returns the money of each seat."""
    rng = rng_for(seed, "adventure-tours bench game")
    state = new_game(Config(len(players)))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
            continue
        mover = state.current_player()
        for action in players[mover](state, rng):
            if state.current_player() != mover:
                break
            state = state.child(action)
    return state.totals


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def tournament(
    name: str, hero: Player, villain: Player, games: int, seed: int, progress: Callable[[dict], None] | None = None
) -> dict[str, Any]:
    """`games` seeded games (seat of the hero rotated); `progress` gets the running row every 10 games."""
    results: list[tuple[bool, bool, int]] = []
    started = time.monotonic()
    for g in range(games):
        seat = g % 3
        players = [villain, villain, villain]
        players[seat] = hero
        totals = play_game(players, seed * 100_000 + g)
        best_other = max(t for q, t in enumerate(totals) if q != seat)
        results.append((totals[seat] >= best_other, totals[seat] > best_other, totals[seat] - best_other))
        if progress is not None and (g + 1) % 10 == 0:
            progress(_row(name, results, started))
    return _row(name, results, started)


def _row(name: str, results: list[tuple[bool, bool, int]], started: float) -> dict[str, Any]:
    games = len(results)
    wins = sum(r[0] for r in results)
    strict = sum(r[1] for r in results)
    margins = [r[2] for r in results]
    low, high = wilson(wins, games)
    return {
        "pairing": name,
        "games": games,
        "win_rate": wins / games,
        "ci95_low": low,
        "ci95_high": high,
        "strict_wins": strict / games,
        "mean_margin": statistics.fmean(margins),
        "margin_se": statistics.stdev(margins) / math.sqrt(games) if games > 1 else float("nan"),
        "seconds": time.monotonic() - started,
    }


def sample_positions(seed: int, n: int) -> list[State]:
    """Seeded decision states of 3-player rounds, reached by greedy play for a random number of steps."""
    states = []
    index = 0
    while len(states) < n:
        rng = rng_for(seed, "adventure-tours positions", index)
        index += 1
        state = new_game(Config(3, rounds=1))
        for _ in range(int(rng.integers(0, 60))):
            if state.current_player() == TERMINAL:
                break
            if state.current_player() == CHANCE:
                state = state.child(sample_outcome(state, rng))
            else:
                state = state.child(greedy_action(state))
        while state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
        if state.current_player() >= 0:
            states.append(state)
    return states


def latency(budgets: list[float], positions: list[State]) -> list[dict[str, Any]]:
    rows = []
    for budget_s in budgets:
        times, overruns, exact = [], [], 0
        for i, state in enumerate(positions):
            started = time.monotonic()
            result = hints.hint(
                observe(state, state.current_player()), Budget(budget_s), options=hints.HintOptions(seed=i)
            )
            wall = time.monotonic() - started
            times.append(wall)
            overruns.append(max(wall - budget_s, 0.0))
            exact += result.proof.value == "EXACT"
        rows.append(
            {
                "budget_s": budget_s,
                "n": len(positions),
                "p50_ms": percentile([t * 1000 for t in times], 50),
                "p99_ms": percentile([t * 1000 for t in times], 99),
                "p99_overrun_ms": percentile([o * 1000 for o in overruns], 99),
                "max_overrun_ms": max(overruns) * 1000,
                "exact": exact,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per pairing")
    parser.add_argument("--budget", type=float, default=0.05, help="hint budget per decision in games (s)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="latency,games")
    parser.add_argument("--pairings", default="greedy,random,reference", help="which tournaments to play")
    parser.add_argument("--out", default="adventure_tours", help="JSON file name under bench/results")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.positions = 30, 10
    payload: dict[str, Any] = {"games_per_pairing": args.games, "hint_budget_s": args.budget}
    if "latency" in args.only:
        rows = latency([0.05, 0.2, 1.0], sample_positions(args.seed, args.positions))
        print_table("Adventure Tours hint latency by budget (in-process)", rows)
        payload["latency"] = rows
    if "games" in args.only:
        hero = hint_player(args.budget)
        pairings = args.pairings.split(",")
        rows: list[dict[str, Any]] = []

        def progress(row: dict[str, Any]) -> None:
            # Partial results survive an interrupted run (a shared machine may not finish 300 games in time).
            print(f"  {row['pairing']}: {row['games']} games, win rate {row['win_rate']:.3f}", flush=True)
            write_json(args.out, {**payload, "games": [*rows, {**row, "partial": True}]})

        plan = [
            ("greedy", "hint vs 2 greedy", hero, greedy_player),
            ("random", "hint vs 2 random", hero, random_player),
            ("reference", "greedy vs 2 random", greedy_player, random_player),
        ]
        for key, name, first, others in plan:
            if key in pairings:
                rows.append(tournament(name, first, others, args.games, args.seed, progress))
        print_table(f"Adventure Tours 3-player games, seats rotated, hint budget {args.budget} s per decision", rows)
        payload["games"] = rows
    write_json(args.out, payload)


if __name__ == "__main__":
    main()

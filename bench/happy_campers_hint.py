"""Happy Campers hint bench: rollout speed, hint latency and hint quality.

    python -m bench.happy_campers_hint [--games 100] [--hint-budget 0.2] [--max-time 10] [--quick]

- Rollouts per second of the greedy and random policies on the default 5x9 map (whole games).
- Hint latency (p50/p99 wall time) at the default 1 s budget on a fixed set of positions.
- Hint quality: `--games` seeded roll sequences (40 rolls each, the game ends at the first roll that fits
  nowhere); the hint policy calls `hint` at every roll with `--hint-budget` seconds and draws the top move.
  Compared on the same sequences with the greedy and random policies and with the clairvoyant optimum
  (`maximise.clairvoyant_max`, `--max-time` seconds per game, one CP-SAT worker: the share proven optimal
  is reported). Every game is replayed through the rules model (`policies.play_game` style checks).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import DEFAULT_HINT_TIME_S, hint
from campsolver.solver.happy_campers.policies import (
    GREEDY,
    RANDOM,
    FastMap,
    board_tables,
    play_game,
    random_rolls,
    rollout,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Grid,
    Placement,
    can_draw,
    draw,
    empty_grid,
    score,
)

from bench.common import RESULTS_DIR, print_table, summary_ms, write_json

ROLLS_PER_GAME = 40


def rollout_rate(policy_name: str, cards: tuple[Challenge, ...], seconds: float = 2.0) -> float:
    policy = GREEDY if policy_name == "greedy" else RANDOM
    tables = board_tables(DEFAULT_COMPONENTS)
    rng = rng_for(0, "bench-rollout-rate", policy_name)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        dice = rng.integers(1, 7, size=(tables.max_turns(), 2))
        keys = rng.integers(0, 2**31, size=tables.max_turns())
        rollout(FastMap(tables, frozenset(cards)), dice, keys, policy, DEFAULT_COMPONENTS)
        count += 1
    return count / (time.perf_counter() - started)


def latency_positions(count: int) -> list[tuple[Grid, tuple[int, int], tuple[Challenge, ...]]]:
    """Empty maps and mid-game maps (random play), assorted rolls (a 6-6 among them) and cards."""
    card_sets: list[tuple[Challenge, ...]] = [(), (Challenge.PRIVACY,), (Challenge.RIVER_TOWN, Challenge.QUICK_PEE)]
    positions = []
    for i in range(count):
        turns = [0, 3, 6, 9][i % 4]
        cards = card_sets[i % len(card_sets)]
        grid = play_game(None, random_rolls(i, turns, "latency"), cards, policy="random", seed=i).final_grid
        roll = random_rolls(i, 1, "latency-roll")[0] if i % 7 else (6, 6)
        if can_draw(grid, roll):
            positions.append((grid, roll, cards))
    return positions


def play_with_hints(rolls: list[tuple[int, int]], hint_budget: float, seed: int) -> tuple[int, list[float], int]:
    """One game drawing the top hinted move each roll; returns (rules score, hint wall times, interrupted)."""
    grid = empty_grid()
    times = []
    interrupted = 0
    for turn, roll in enumerate(rolls):
        if not can_draw(grid, roll):
            break
        result = hint(grid, roll, (), budget=Budget(hint_budget), seed=seed * 1000 + turn)
        times.append(result.wall_time_s)
        interrupted += result.interrupted
        best: Placement = result.best.move.placements[0]
        grid = draw(grid, best)  # the rules model checks the hinted move
    return score(grid).total, times, interrupted


def _paired_ratio(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Hint over clairvoyant, sum(hint) / sum(clairvoyant) over the same games, with a paired 95% interval
    (delta method on d_i = hint_i - R * clairvoyant_i: SE(R) = sd(d) / (sqrt(n) * mean(clairvoyant)))."""
    if len(rows) < 2:
        return {"hint_over_clairvoyant": None, "hint_over_clairvoyant_ci95": None}
    h = np.array([r["hint"] for r in rows], dtype=float)
    c = np.array([r["clairvoyant"] for r in rows], dtype=float)
    ratio = float(h.mean() / c.mean())
    se = float(np.std(h - ratio * c, ddof=1) / (np.sqrt(len(rows)) * c.mean()))
    return {
        "hint_over_clairvoyant": ratio,
        "hint_over_clairvoyant_ci95": [ratio - 1.96 * se, ratio + 1.96 * se],
        "hint_over_clairvoyant_n": len(rows),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hint-budget", type=float, default=0.2)
    parser.add_argument("--max-time", type=float, default=10.0)
    parser.add_argument("--latency-positions", type=int, default=30)
    parser.add_argument("--skip-max", action="store_true", help="do not run the clairvoyant maximiser")
    parser.add_argument("--quick", action="store_true", help="10 games, 8 latency positions, 3 s maximiser")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.latency_positions, args.max_time = 10, 8, 3.0
    payload: dict[str, Any] = {"args": vars(args)}

    rates = [
        {"policy": name, "cards": "none" if not cards else "+".join(c.value for c in cards),
         "rollouts_per_s": rollout_rate(name, cards)}
        for name in ("greedy", "random")
        for cards in ((), (Challenge.PRIVACY, Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER))
    ]
    print_table("rollouts per second, default 5x9 map, whole games from an empty map", rates)
    payload["rollout_rates"] = rates

    walls = []
    rollouts = []
    interrupted = 0
    for grid, roll, cards in latency_positions(args.latency_positions):
        result = hint(grid, roll, cards, budget=Budget(DEFAULT_HINT_TIME_S), seed=1)
        walls.append(result.wall_time_s)
        rollouts.append(result.rollouts)
        interrupted += result.interrupted
    latency = {
        "budget_s": DEFAULT_HINT_TIME_S, **summary_ms(walls), "max_ms": max(walls) * 1000,
        "mean_rollouts": statistics.fmean(rollouts), "interrupted": interrupted,
    }
    print_table("hint latency at the default budget", [latency])
    payload["latency"] = latency

    try:
        from campsolver.solver.happy_campers.maximise import clairvoyant_max
    except ImportError as error:  # the maximiser is another engineer's module
        clairvoyant_max = None
        payload["maximiser_error"] = repr(error)
    rows = []
    hint_times: list[float] = []
    hint_interrupted = 0
    started = time.perf_counter()
    for game in range(args.games):
        rolls = random_rolls(game, ROLLS_PER_GAME, "bench-quality")
        hinted, times, stopped = play_with_hints(rolls, args.hint_budget, game)
        hint_times.extend(times)
        hint_interrupted += stopped
        row: dict[str, Any] = {
            "game": game,
            "hint": hinted,
            "greedy": play_game(None, rolls, (), policy="greedy", seed=game).score,
            "random": play_game(None, rolls, (), policy="random", seed=game).score,
        }
        if clairvoyant_max is not None and not args.skip_max:
            try:
                best = clairvoyant_max(None, rolls, (), DEFAULT_COMPONENTS, Budget(args.max_time), workers=1)
                row["clairvoyant"] = best.score
                row["clairvoyant_bound"] = best.bound
                row["proof"] = best.proof.name if best.proof is not None else "NONE"
            except Exception as error:  # report, do not hide: the maximiser may still be landing
                row["clairvoyant_error"] = repr(error)
        rows.append(row)
        if game % 10 == 9:
            print(f"  {game + 1} games, {time.perf_counter() - started:.0f} s", flush=True)

    def mean_of(key: str) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return float(np.mean(values)) if values else None

    def se_of(key: str) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else None

    if not rows:  # --games 0: refresh speed and latency, keep the quality figures of the last full run
        previous = RESULTS_DIR / "happy_campers_hint.json"
        kept = json.loads(previous.read_text()) if previous.exists() else {}
        kept.update({k: v for k, v in payload.items() if k != "args"}, latency_args=vars(args))
        write_json("happy_campers_hint", kept)
        return kept
    diffs = [r["hint"] - r["greedy"] for r in rows]
    proven = [r for r in rows if r.get("proof") == "OPTIMAL"]
    summary = {
        "games": len(rows),
        "hint_budget_s": args.hint_budget,
        "hint_mean": mean_of("hint"),
        "hint_se": se_of("hint"),
        "greedy_mean": mean_of("greedy"),
        "random_mean": mean_of("random"),
        "hint_minus_greedy": float(np.mean(diffs)),
        "hint_minus_greedy_se": float(np.std(diffs, ddof=1) / np.sqrt(len(diffs))) if len(diffs) > 1 else None,
        "clairvoyant_mean": mean_of("clairvoyant"),
        "clairvoyant_proven_optimal_share": len(proven) / len(rows) if rows and "proof" in rows[0] else None,
        "hint_over_clairvoyant_on_proven": (
            float(np.mean([r["hint"] for r in proven]) / np.mean([r["clairvoyant"] for r in proven]))
            if proven else None
        ),
        **_paired_ratio([r for r in rows if r.get("clairvoyant") is not None]),
        "hint_above_proven_optimum": sum(1 for r in proven if r["hint"] > r["clairvoyant"]),
        "hint_calls": len(hint_times),
        "hint_call_p50_ms": summary_ms(hint_times)["p50_ms"] if hint_times else None,
        "hint_call_p99_ms": summary_ms(hint_times)["p99_ms"] if hint_times else None,
        "hint_calls_interrupted": hint_interrupted,
        "wall_s": time.perf_counter() - started,
    }
    print_table(f"hint quality over {len(rows)} seeded games (hint budget {args.hint_budget} s/roll)", [summary])
    payload["quality"] = summary
    payload["games"] = rows
    write_json("happy_campers_hint", payload)
    return payload


if __name__ == "__main__":
    main()

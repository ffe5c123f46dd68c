"""Happy Campers hint bench: rollout speed, hint latency and hint quality.

    python -m bench.happy_campers_hint [--games 100] [--hint-budget 0.3] [--processes 2] [--max-time 10]
        [--skip-latency] [--schedule-only] [--label NAME] [--quick] [--variant NAME:CONSTANT=VALUE,...]

- Rollouts per second of greedy, random and shaped greedy (Python and the hint's vector engine) on the
  default 5x9 map (whole games).
- Hint latency (p50/p99 wall time) at the default 1 s budget on a fixed set of positions.
- Hint quality: `--games` seeded roll sequences (40 rolls each, the game ends at the first roll that fits
  nowhere); the hint policy calls `hint` at every roll with `--hint-budget` seconds and draws the top move
  (games spread over `--processes` worker processes). Compared on the same sequences with shaped greedy,
  greedy, random and the clairvoyant optimum (`maximise.clairvoyant_max`, `--max-time` seconds per game,
  one CP-SAT worker; cached per seed in bench/results/happy_campers_clairvoyant_cache.json with its rolls
  and proof, so re-runs only solve new seeds). Paired by seed: mean per-game ratio hint/clairvoyant and
  mean difference with 95% t intervals (and the ratio of sums, delta method). Time per roll: wall time
  around each hint call (p50, p99, overrun beyond the budget), CPU time per call, calls interrupted by
  the deadline, and the load average before and after. Every hinted move is drawn through `rules.draw`.
  `--schedule-only` lifts the deadline (the time limit still fixes the schedule): the quality an unloaded
  machine gets, with the CPU time per call to show it fits the budget.
- `--variant` (repeatable): every game is also played by the hint with some `hint` module constants changed
  (e.g. `policy:ROLLOUT_CROWD_WEIGHT=0.5,ROLLOUT_EXPOSURE_WEIGHT=1.5` or
  `deep2x:NOMINAL_ROLLOUTS_PER_SECOND=1200,ROLLOUTS_PER_RACED=48`), right after the hint on the same rolls,
  so the variants share the machine's load; a table gives each one's ratio over the clairvoyant optimum with
  its 95% interval, its paired difference to the hint with a 95% t interval, and its CPU time per call.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import time
from typing import Any

import numpy as np
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import DEFAULT_HINT_TIME_S, HintOptions, hint, turn_state
from campsolver.solver.happy_campers.policies import (
    GREEDY,
    RANDOM,
    SHAPED_GREEDY,
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
from campsolver.solver.happy_campers.vector_rollout import supports as vector_supports
from campsolver.solver.happy_campers.vector_rollout import vector_rollout

from bench.common import RESULTS_DIR, print_table, summary_ms, write_json

ROLLS_PER_GAME = 40
#: The issue's per-roll thinking time for the quality comparison.
DEFAULT_QUALITY_BUDGET_S = 0.3
#: Two worker processes (the machine has two cores, shared).
DEFAULT_PROCESSES = 2
Z95 = 1.959964


def rollout_rate(policy_name: str, cards: tuple[Challenge, ...], seconds: float = 2.0) -> float:
    """Whole games a second (wall clock) of one policy; "shaped-vector" is the hint's engine (`vector_rollout`,
    Python path when a card adds points)."""
    policy = {"greedy": GREEDY, "random": RANDOM}.get(policy_name, SHAPED_GREEDY)
    tables = board_tables(DEFAULT_COMPONENTS)
    rng = rng_for(0, "bench-rollout-rate", policy_name)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        dice = rng.integers(1, 7, size=(tables.max_turns(), 2))
        keys = rng.integers(0, 2**31, size=tables.max_turns())
        start = FastMap(tables, frozenset(cards))
        if policy_name == "shaped-vector" and vector_supports(start):
            vector_rollout(start, dice, keys, SHAPED_GREEDY, DEFAULT_COMPONENTS)
        else:
            rollout(start, dice, keys, policy, DEFAULT_COMPONENTS)
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


def parse_variant(text: str) -> tuple[str, dict[str, float | int]]:
    """`NAME:CONSTANT=VALUE,CONSTANT=VALUE` -> (NAME, {CONSTANT: VALUE}); the constants are `hint` module
    constants (`NOMINAL_ROLLOUTS_PER_SECOND`, `ROLLOUTS_PER_RACED`, ...), set for that variant's calls only."""
    import campsolver.solver.happy_campers.hint as hint_module

    name, _, assignments = text.partition(":")
    settings: dict[str, float | int] = {}
    for item in filter(None, assignments.split(",")):
        key, _, value = item.partition("=")
        if not hasattr(hint_module, key):
            raise SystemExit(f"--variant {text!r}: the hint module has no constant {key!r}")
        current = getattr(hint_module, key)
        settings[key] = type(current)(float(value)) if isinstance(current, int | float) else value
    return name or "hint", settings


class _Variant:
    """Sets a variant's hint constants for the duration of a `with` block (one worker process)."""

    def __init__(self, settings: dict[str, Any]) -> None:
        import campsolver.solver.happy_campers.hint as hint_module

        self.module = hint_module
        self.settings = settings
        self.saved: dict[str, Any] = {}

    def __enter__(self) -> None:
        for key, value in self.settings.items():
            self.saved[key] = getattr(self.module, key)
            setattr(self.module, key, value)

    def __exit__(self, *exc: object) -> None:
        for key, value in self.saved.items():
            setattr(self.module, key, value)


def play_with_hints(
    rolls: list[tuple[int, int]], hint_budget: float, seed: int, schedule_only: bool = False
) -> tuple[int, list[float], int, list[float]]:
    """One game drawing the top hinted move each roll.

    Returns (rules score, wall time of each hint call measured around the call, calls interrupted by the
    deadline, CPU time of each call). `schedule_only`: the budget's time limit sets the hint's fixed
    schedule as usual but its deadline is lifted, so the hint always completes the schedule (what an
    unloaded machine computes in time; the CPU time per call says whether it fits the budget).
    """
    grid = empty_grid()
    times = []
    cpu = []
    interrupted = 0
    for turn, roll in enumerate(rolls):
        if not can_draw(grid, roll):
            break
        wall_start = time.monotonic()
        cpu_start = time.process_time()
        budget = Budget(hint_budget)
        if schedule_only:
            budget.deadline = math.inf
        result = hint(turn_state(grid, roll, ()), budget, options=HintOptions(seed=seed * 1000 + turn))
        times.append(time.monotonic() - wall_start)
        cpu.append(time.process_time() - cpu_start)
        interrupted += result.interrupted
        best: Placement = result.best.move.placements[0]
        grid = draw(grid, best)  # the rules model checks the hinted move
    return score(grid).total, times, interrupted, cpu


def _paired_ratio(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Hint over clairvoyant on the same games (paired by seed), three ways, each with a 95% interval:
    the mean of the per-game ratios hint_i / clairvoyant_i (t interval), the mean difference
    hint_i - clairvoyant_i (t interval), and sum(hint) / sum(clairvoyant) (delta method on
    d_i = hint_i - R * clairvoyant_i: SE(R) = sd(d) / (sqrt(n) * mean(clairvoyant)))."""
    if len(rows) < 2:
        return {"hint_over_clairvoyant": None, "hint_over_clairvoyant_ci95": None}
    h = np.array([r["hint"] for r in rows], dtype=float)
    c = np.array([r["clairvoyant"] for r in rows], dtype=float)
    n = len(rows)
    t95 = _t975(n - 1)
    ratio = float(h.mean() / c.mean())
    se = float(np.std(h - ratio * c, ddof=1) / (np.sqrt(n) * c.mean()))
    per_game = h / np.where(c > 0, c, np.nan)
    per_game = per_game[~np.isnan(per_game)]
    per_game_mean = float(per_game.mean())
    per_game_se = float(per_game.std(ddof=1) / np.sqrt(len(per_game)))
    diff = h - c
    diff_se = float(diff.std(ddof=1) / np.sqrt(n))
    return {
        "hint_over_clairvoyant": ratio,
        "hint_over_clairvoyant_ci95": [ratio - 1.96 * se, ratio + 1.96 * se],
        "hint_over_clairvoyant_n": n,
        "per_game_ratio_mean": per_game_mean,
        "per_game_ratio_ci95": [per_game_mean - t95 * per_game_se, per_game_mean + t95 * per_game_se],
        "per_game_ratio_n": len(per_game),
        "hint_minus_clairvoyant": float(diff.mean()),
        "hint_minus_clairvoyant_ci95": [float(diff.mean()) - t95 * diff_se, float(diff.mean()) + t95 * diff_se],
    }


def _t975(df: int) -> float:
    """Student t 97.5% quantile (Cornish-Fisher expansion around the normal; exact to 1e-3 from df = 5)."""
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def _variant_summary(name: str, played: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One variant's paired ratio over the clairvoyant optimum, mean CPU a call and interrupted calls."""
    paired = _paired_ratio(
        [
            {"hint": p["score"], "clairvoyant": r["clairvoyant"]}
            for p, r in zip(played, rows, strict=True)
            if r.get("clairvoyant") is not None
        ]
    )
    cpu = [t for p in played for t in p["cpu"]]
    diff = np.array([p["score"] - r["hint"] for p, r in zip(played, rows, strict=True)], dtype=float)
    half = _t975(len(diff) - 1) * float(diff.std(ddof=1) / np.sqrt(len(diff))) if len(diff) > 1 else math.nan
    return {
        "variant": name,
        "games": len(played),
        "mean": float(np.mean([p["score"] for p in played])),
        "ratio": paired.get("hint_over_clairvoyant"),
        "ratio_ci95": paired.get("hint_over_clairvoyant_ci95"),
        "minus_hint": float(diff.mean()),
        "minus_hint_ci95": [float(diff.mean()) - half, float(diff.mean()) + half],
        "cpu_ms_per_call": float(np.mean(cpu)) * 1000 if cpu else None,
        "interrupted": sum(p["interrupted"] for p in played),
    }


CLAIRVOYANT_CACHE = "happy_campers_clairvoyant_cache"


def _load_cache() -> dict[str, Any]:
    path = RESULTS_DIR / f"{CLAIRVOYANT_CACHE}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _clairvoyant(game: int, rolls: list[tuple[int, int]], max_time: float, cache: dict[str, Any]) -> dict[str, Any]:
    """The clairvoyant optimum of one seeded game: from the cache when the same rolls were proven optimal,
    else a fresh CP-SAT max (one worker; on a loaded machine `--max-time` may not suffice: the row then
    has no optimum and the game is left out of the paired ratio, and the count says so)."""
    entry = cache.get(str(game))
    if entry is not None and entry.get("rolls") == [list(r) for r in rolls] and entry.get("proof") == "OPTIMAL":
        return {**entry, "cached": True}
    from campsolver.solver.happy_campers.maximise import clairvoyant_max

    started = time.process_time()
    best = clairvoyant_max(None, rolls, (), DEFAULT_COMPONENTS, Budget(max_time), workers=1)
    return {
        "rolls": [list(r) for r in rolls],
        "score": best.score,
        "bound": best.bound,
        "proof": best.proof.name if best.proof is not None else "NONE",
        "max_time_s": max_time,
        "cpu_s": time.process_time() - started,
        "cached": False,
    }


def play_one(
    args: tuple[int, float, float, bool, dict[str, Any], bool, list[tuple[str, dict[str, Any]]]],
) -> dict[str, Any]:
    """One seeded game for every player (hint, each variant, shaped greedy, greedy, random) and its
    clairvoyant optimum. Variants play the same rolls right after the hint, so they share the load."""
    game, hint_budget, max_time, skip_max, cache, schedule_only, variants = args
    rolls = random_rolls(game, ROLLS_PER_GAME, "bench-quality")
    hinted, times, stopped, cpu = play_with_hints(rolls, hint_budget, game, schedule_only)
    variant_rows: dict[str, Any] = {}
    for name, settings in variants:
        with _Variant(settings):
            played, v_times, v_stopped, v_cpu = play_with_hints(rolls, hint_budget, game, schedule_only)
        variant_rows[name] = {"score": played, "times": v_times, "cpu": v_cpu, "interrupted": v_stopped}
    row: dict[str, Any] = {
        "game": game,
        "hint": hinted,
        "variants": variant_rows,
        "shaped_greedy": play_game(None, rolls, (), policy=SHAPED_GREEDY, seed=game).score,
        "greedy": play_game(None, rolls, (), policy="greedy", seed=game).score,
        "random": play_game(None, rolls, (), policy="random", seed=game).score,
        "hint_times": times,
        "hint_cpu": cpu,
        "hint_interrupted": stopped,
    }
    if not skip_max:
        optimum = _clairvoyant(game, rolls, max_time, cache)
        if optimum["score"] is None:
            optimum["proof"] = "NONE"
        row["clairvoyant"] = optimum["score"]
        row["clairvoyant_bound"] = optimum["bound"]
        row["proof"] = optimum["proof"]
        row["clairvoyant_entry"] = optimum
    return row


def _parser() -> argparse.ArgumentParser:
    """The bench's options (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="seed of the first game (fresh seeds for comparing variants: the constants were tuned on 0..29)",
    )
    parser.add_argument("--hint-budget", type=float, default=DEFAULT_QUALITY_BUDGET_S)
    parser.add_argument("--processes", type=int, default=DEFAULT_PROCESSES, help="worker processes for the games")
    parser.add_argument("--skip-latency", action="store_true", help="no rollout-rate and latency sections")
    parser.add_argument(
        "--schedule-only",
        action="store_true",
        help="lift the hint deadline (the time limit still sets the schedule): load-independent quality",
    )
    parser.add_argument("--label", default="", help="suffix of the results file (happy_campers_hint_LABEL.json)")
    parser.add_argument("--max-time", type=float, default=10.0)
    parser.add_argument("--latency-positions", type=int, default=30)
    parser.add_argument("--skip-max", action="store_true", help="do not run the clairvoyant maximiser")
    parser.add_argument("--quick", action="store_true", help="10 games, 8 latency positions, 3 s maximiser")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:CONSTANT=VALUE,...",
        help="also play every game with these hint module constants (repeatable; same rolls, same load)",
    )
    return parser


def _speed_and_latency(payload: dict[str, Any], latency_positions_count: int) -> None:
    """The rollout rates and the hint's latency at the default budget: printed and put in `payload`."""
    rates = [
        {
            "policy": name,
            "cards": "none" if not cards else "+".join(c.value for c in cards),
            "rollouts_per_s": rollout_rate(name, cards),
        }
        for name in ("greedy", "random", "shaped", "shaped-vector")
        for cards in ((), (Challenge.PRIVACY, Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER))
    ]
    print_table("rollouts per second, default 5x9 map, whole games from an empty map", rates)
    payload["rollout_rates"] = rates

    walls = []
    rollouts = []
    interrupted = 0
    for grid, roll, cards in latency_positions(latency_positions_count):
        result = hint(turn_state(grid, roll, cards), Budget(DEFAULT_HINT_TIME_S), options=HintOptions(seed=1))
        walls.append(result.wall_time_s)
        rollouts.append(result.rollouts)
        interrupted += result.interrupted
    latency = {
        "budget_s": DEFAULT_HINT_TIME_S,
        **summary_ms(walls),
        "max_ms": max(walls) * 1000,
        "mean_rollouts": statistics.fmean(rollouts),
        "interrupted": interrupted,
    }
    print_table("hint latency at the default budget", [latency])
    payload["latency"] = latency


def _play_games(
    args: argparse.Namespace, cache: dict[str, Any], variants: list[tuple[str, dict[str, Any]]], started: float
) -> list[dict[str, Any]]:
    """Every seeded game (`play_one`) over the worker processes, with a progress line every ten games."""
    jobs = [
        (game, args.hint_budget, args.max_time, args.skip_max, cache, args.schedule_only, variants)
        for game in range(args.first_game, args.first_game + args.games)
    ]
    rows: list[dict[str, Any]] = []
    context = multiprocessing.get_context("fork")
    with context.Pool(max(1, args.processes)) as pool:
        for row in pool.imap(play_one, jobs):
            rows.append(row)
            if variants:  # one line a game, so a long comparison can be read before it ends
                print(
                    f"  game {row['game']}: hint {row['hint']} "
                    + " ".join(f"{k} {v['score']}" for k, v in row["variants"].items()),
                    flush=True,
                )
            if len(rows) % 10 == 0:
                print(f"  {len(rows)} games, {time.perf_counter() - started:.0f} s, load {os.getloadavg()}", flush=True)
    return rows


def _store_clairvoyant(rows: list[dict[str, Any]], cache: dict[str, Any]) -> None:
    """Move each game's clairvoyant entry into the cache (its row keeps whether it came from there) and write
    the proven ones back."""
    for row in rows:
        entry = row.pop("clairvoyant_entry")
        cache[str(row["game"])] = {k: v for k, v in entry.items() if k != "cached"}
        row["clairvoyant_cached"] = entry["cached"]
    write_json(CLAIRVOYANT_CACHE, {k: v for k, v in cache.items() if v.get("proof") == "OPTIMAL"})


def _mean_of(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return float(np.mean(values)) if values else None


def _se_of(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else None


def _quality_summary(
    rows: list[dict[str, Any]],
    args: argparse.Namespace,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
    started: float,
) -> dict[str, Any]:
    """The quality figures of the games: means, paired ratios over the clairvoyant optimum, time per call."""
    hint_times = [t for r in rows for t in r["hint_times"]]
    hint_cpu = [t for r in rows for t in r["hint_cpu"]]
    hint_interrupted = sum(r["hint_interrupted"] for r in rows)
    overruns = [max(t - args.hint_budget, 0.0) for t in hint_times]
    diffs = [r["hint"] - r["greedy"] for r in rows]
    proven = [r for r in rows if r.get("proof") == "OPTIMAL"]
    return {
        "games": len(rows),
        "hint_budget_s": args.hint_budget,
        "hint_mean": _mean_of(rows, "hint"),
        "hint_se": _se_of(rows, "hint"),
        "greedy_mean": _mean_of(rows, "greedy"),
        "random_mean": _mean_of(rows, "random"),
        "hint_minus_greedy": float(np.mean(diffs)),
        "hint_minus_greedy_se": float(np.std(diffs, ddof=1) / np.sqrt(len(diffs))) if len(diffs) > 1 else None,
        "clairvoyant_mean": _mean_of(rows, "clairvoyant"),
        "clairvoyant_proven_optimal_share": len(proven) / len(rows) if rows and "proof" in rows[0] else None,
        "hint_over_clairvoyant_on_proven": (
            float(np.mean([r["hint"] for r in proven]) / np.mean([r["clairvoyant"] for r in proven]))
            if proven
            else None
        ),
        **_paired_ratio([r for r in rows if r.get("clairvoyant") is not None]),
        "hint_above_proven_optimum": sum(1 for r in proven if r["hint"] > r["clairvoyant"]),
        "shaped_greedy_mean": _mean_of(rows, "shaped_greedy"),
        "hint_calls": len(hint_times),
        "hint_call_mean_ms": float(np.mean(hint_times)) * 1000 if hint_times else None,
        "hint_call_cpu_mean_ms": float(np.mean(hint_cpu)) * 1000 if hint_cpu else None,
        "overrun_p99_ms": summary_ms(overruns)["p99_ms"] if overruns else None,
        "overrun_max_ms": max(overruns) * 1000 if overruns else None,
        "processes": args.processes,
        "schedule_only": args.schedule_only,
        "load_average_before": list(load_before),
        "load_average_after": list(load_after),
        "hint_call_p50_ms": summary_ms(hint_times)["p50_ms"] if hint_times else None,
        "hint_call_p99_ms": summary_ms(hint_times)["p99_ms"] if hint_times else None,
        "hint_calls_interrupted": hint_interrupted,
        "wall_s": time.perf_counter() - started,
    }


def _variants_table(rows: list[dict[str, Any]], variants: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The hint and each variant on the same games: paired ratio over the clairvoyant optimum, difference to
    the hint, CPU a call."""
    table = [
        _variant_summary(
            "hint",
            [
                {
                    "score": r["hint"],
                    "times": r["hint_times"],
                    "cpu": r["hint_cpu"],
                    "interrupted": r["hint_interrupted"],
                }
                for r in rows
            ],
            rows,
        )
    ]
    table += [_variant_summary(name, [r["variants"][name] for r in rows], rows) for name, _ in variants]
    for entry, (_, settings) in zip(table[1:], variants, strict=True):
        entry["settings"] = settings
    return table


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = _parser().parse_args(argv)
    if args.quick:
        args.games, args.latency_positions, args.max_time = 10, 8, 3.0
    payload: dict[str, Any] = {"args": vars(args)}
    if not args.skip_latency:
        _speed_and_latency(payload, args.latency_positions)

    load_before = os.getloadavg()
    cache = {} if args.skip_max else _load_cache()
    variants = [parse_variant(text) for text in args.variant]
    started = time.perf_counter()
    rows = _play_games(args, cache, variants, started)
    load_after = os.getloadavg()
    if not args.skip_max and rows:
        _store_clairvoyant(rows, cache)
    if not rows:  # --games 0: refresh speed and latency, keep the quality figures of the last full run
        previous = RESULTS_DIR / "happy_campers_hint.json"
        kept = json.loads(previous.read_text()) if previous.exists() else {}
        kept.update({k: v for k, v in payload.items() if k != "args"}, latency_args=vars(args))
        write_json("happy_campers_hint", kept)
        return kept
    summary = _quality_summary(rows, args, load_before, load_after, started)
    print_table(
        f"hint quality over {len(rows)} seeded games (hint budget {args.hint_budget} s/roll)",
        [{"figure": key, "value": value} for key, value in summary.items()],
    )
    payload["quality"] = summary
    if variants:
        table = _variants_table(rows, variants)
        print_table("variants on the same games (paired by seed; ratio of sums over the clairvoyant optimum)", table)
        payload["variants"] = table
    payload["games"] = rows
    write_json("happy_campers_hint" + (f"_{args.label}" if args.label else ""), payload)
    return payload


if __name__ == "__main__":
    main()

"""Deluxe Camping benchmark: `python -m bench.deluxe_camping [--quick]` prints tables and writes
bench/results/deluxe_camping.json.

Figures:
- max: share of seeded default boards (10 x 10, random setup, first turn) proven OPTIMAL within 10 s for 2, 3 and
  4 players (own score and margin of player 0), proof wall time p50/p90 and CPU time p50 (the machine is shared:
  wall time under load is several times the CPU time), every unproven gap, the load average.
- overrun: every seeded board solved under a 0.3 s limit (every solve is stopped by it): wall clock measured
  outside the solver minus the limit, p50/p99/max.
- leaf: CPU a securable leaf before (a fresh `maximise` a leaf) and after (`leaf_model`: a re-used model), the
  values compared (`--only leaf`, not in the default run).
- hint: latency p50/p99 at the 1 s default over seeded positions, and its overrun.
- self-play: the hint (at `--hint-seconds` a decision) against a random-legal player and against a greedy
  player (each decision maximising its immediately allotted points, ties at random), seats rotated (the hint's
  seat is the seed modulo the players), win rate with ties counted half and a 95% Wilson interval, the hint's
  CPU and wall time per decision and the share of decisions its budget cut short. `--log` appends one JSON line
  a game (how it ended included), so seeds can be split over processes and summarised with `--merge`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from pathlib import Path

import numpy as np
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import leaf_model, rules
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping.players import greedy_player, random_player
from campsolver.solver.deluxe_camping.rules import Config, DCState, Stage

from bench.common import percentile, print_table

RESULTS = Path(__file__).resolve().parent / "results" / "deluxe_camping.json"
PROOF_LIMIT_S = 10.0


def seeded_board(players: int, seed: int) -> DCState:
    return rules.random_setup(Config(players=players), rng_for(seed, "deluxe-camping bench", players))


#: Limit of the overrun runs: short enough that every solve is stopped by it (the overrun is measured there).
OVERRUN_LIMIT_S = 0.3


def bench_max(boards: int, objectives: tuple[maxima.Objective, ...] = (maxima.Objective.OWN,)) -> list[dict]:
    rows = []
    for objective in objectives:
        for players in (2, 3, 4):
            times, cpu, gaps, proven = [], [], [], 0
            for seed in range(boards):
                state = seeded_board(players, seed)
                started, cpu_started = time.monotonic(), time.process_time()
                result = maxima.maximise(state, Budget(PROOF_LIMIT_S), player=0, objective=objective)
                wall = time.monotonic() - started
                if result.proof is Proof.OPTIMAL:
                    proven += 1
                    times.append(wall)
                    cpu.append(time.process_time() - cpu_started)
                elif result.value is not None and result.bound is not None:
                    gaps.append(result.bound - result.value)
            rows.append(
                {
                    "objective": objective.value,
                    "players": players,
                    "boards": boards,
                    "proven": proven,
                    "share_proven": proven / boards,
                    "proof_p50_s": percentile(times, 50) if times else float("nan"),
                    "proof_p90_s": percentile(times, 90) if times else float("nan"),
                    "proof_cpu_p50_s": percentile(cpu, 50) if cpu else float("nan"),
                    "unproven_gaps": gaps,
                    "load_avg_1min": os.getloadavg()[0],
                }
            )
    return rows


def bench_overrun(boards: int) -> dict:
    """Wall clock minus the limit for solves the limit stops (a short limit on every seeded board)."""
    overruns = []
    for players in (2, 3, 4):
        for seed in range(boards):
            state = seeded_board(players, seed)
            started = time.monotonic()
            maxima.maximise(state, Budget(OVERRUN_LIMIT_S), player=0)
            overruns.append(time.monotonic() - started - OVERRUN_LIMIT_S)
    return {
        "solves": len(overruns),
        "limit_s": OVERRUN_LIMIT_S,
        "overrun_p50_ms": percentile(overruns, 50) * 1000,
        "overrun_p99_ms": percentile(overruns, 99) * 1000,
        "overrun_max_ms": max(overruns) * 1000,
        "load_avg_1min": os.getloadavg()[0],
    }


def bench_hint_latency(positions: int, seconds: float = 1.0) -> dict:
    latencies, overruns, cpu, complete = [], [], [], 0
    for seed in range(positions):
        rng = rng_for(seed, "deluxe-camping hint latency")
        state = rules.random_setup(Config(players=2 + seed % 3), rng)
        for _ in range(int(rng.integers(0, 30))):
            if state.stage is Stage.OVER:
                break
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
        if state.stage is Stage.OVER:
            continue
        started, cpu_started = time.monotonic(), time.process_time()
        result = hints.hint(state, Budget(seconds), options=hints.HintOptions(leaf=LEAF[0]))
        wall = time.monotonic() - started
        cpu.append(time.process_time() - cpu_started)
        complete += not result.interrupted
        latencies.append(wall)
        overruns.append(wall - seconds)
    return {
        "positions": len(latencies),
        "budget_s": seconds,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "overrun_p99_ms": max(percentile(overruns, 99) * 1000, 0.0),
        "cpu_p50_ms": percentile(cpu, 50) * 1000,
        "cpu_p99_ms": percentile(cpu, 99) * 1000,
        "searched_to_the_end": complete,
        "leaf": LEAF[0].value,
        "load_avg_1min": os.getloadavg()[0],
    }


#: The old securable leaf (before model re-use): a fresh `maximise` a leaf, this limit (hint.py's LEAF_LIMIT_S).
OLD_LEAF_LIMIT_S = 0.25


def leaf_positions(count: int) -> list[tuple[DCState, list[DCState]]]:
    """Seeded 2-player positions at a free-barrier decision (greedy against greedy, 4 to 40 turns in), each
    with the leaves a hint reaches from it: the mover's barrier (the first four legal ones), then the next
    player staying put and placing the first legal barrier."""
    found: list[tuple[DCState, list[DCState]]] = []
    seed = 0
    while len(found) < count:
        rng = rng_for(seed, "deluxe-camping leaf cost")
        state = rules.random_setup(Config(players=2), rng)
        stop = int(rng.integers(4, 40))
        for _ in range(stop):
            if state.stage is Stage.OVER:
                break
            state = state.child(greedy_player(state, rng))
        seed += 1
        if state.stage is not Stage.BARRIER:
            continue
        leaves = []
        for edge in state.legal_barriers()[:4]:
            leaf = state.child(rules.Barrier(edge))
            if leaf.stage is Stage.MOVE:
                leaf = leaf.child(rules.Move(()))
                if leaf.stage is Stage.BARRIER and leaf.legal_barriers():
                    leaf = leaf.child(rules.Barrier(leaf.legal_barriers()[0]))
            if leaf.stage is not Stage.OVER:
                leaves.append(leaf)
        if leaves:
            found.append((state, leaves))
    return found


def bench_leaf_cost(count: int) -> list[dict]:
    """CPU a securable leaf, before (a fresh `maximise` a leaf, every case of the pain-in-the-neck split built,
    `OLD_LEAF_LIMIT_S`) and after (`leaf_model`: one model a position re-used with the leaf's barriers fixed,
    CP-SAT capped at `hint.LEAF_CAP_S`, and at the old limit for comparison); the values compared."""
    positions = leaf_positions(count)
    rows = []
    values: dict[str, list[int]] = {}
    for name, cap in (
        ("before: fresh maximise", OLD_LEAF_LIMIT_S),
        ("after: re-used model", hints.LEAF_CAP_S),
        ("after: re-used model, old limit", OLD_LEAF_LIMIT_S),
    ):
        leaf_model.clear_cache()
        cpu, proven, reused, builds, improved, found = [], 0, 0, [], 0, []
        for state, leaves in positions:
            me = state.to_move
            for leaf in leaves:
                started = time.process_time()
                if name.startswith("before"):
                    result = maxima.maximise(leaf, Budget(cap), player=me, objective=maxima.Objective.MARGIN, workers=1)
                    value, is_proven = result.value, result.proof is Proof.OPTIMAL
                else:
                    leaf_value = leaf_model.securable_value(leaf, me, maxima.Objective.MARGIN, Budget(cap), base=state)
                    value, is_proven = (None, False) if leaf_value is None else (leaf_value.value, leaf_value.proven)
                    if leaf_value is not None:
                        reused += leaf_value.reused
                        improved += leaf_value.improved
                        if not leaf_value.reused:
                            builds.append(leaf_value.build_s)
                cpu.append(time.process_time() - started)
                proven += is_proven
                found.append(-(10**9) if value is None else value)
        values[name] = found
        rows.append(
            {
                "leaf": name,
                "limit_s": cap,
                "leaves": len(cpu),
                "positions": len(positions),
                "cpu_p50_ms": percentile(cpu, 50) * 1000,
                "cpu_p90_ms": percentile(cpu, 90) * 1000,
                "cpu_mean_ms": statistics.fmean(cpu) * 1000,
                "proven": proven,
                "reused": reused,
                "build_cpu_p50_ms": percentile(builds, 50) * 1000 if builds else float("nan"),
                "improved_on_first_solution": improved,
                "load_avg_1min": os.getloadavg()[0],
            }
        )
    before = values["before: fresh maximise"]
    for row in rows:
        mine = values[row["leaf"]]
        row["value_vs_before"] = {
            "higher": sum(a > b for a, b in zip(mine, before, strict=True)),
            "equal": sum(a == b for a, b in zip(mine, before, strict=True)),
            "lower": sum(a < b for a, b in zip(mine, before, strict=True)),
        }
    return rows


# --- players ----------------------------------------------------------------------------------------------


#: Per hint decision in self-play: (CPU seconds, wall seconds, interrupted, stage, securable leaves solved,
#: of those proven, reply plies of the deepest complete iteration, leaves served by a re-used model, CPU
#: seconds in securable leaves).
HINT_DECISIONS: list[tuple] = []
#: The hint's leaf model in self-play and latency runs (`--leaf`).
LEAF: list[hints.Leaf] = [hints.DEFAULT_LEAF]


#: `--cpu-budget`: the hint's budget counts the process's CPU seconds (`CpuBudget`), so each decision gets what
#: the same budget gives on an idle core whatever the load (the hint is single-threaded, CP-SAT one worker).
#: Logs of the capped search (two reply plies) ran with `fixed_effort`: a 60 s budget it never reached.
CPU_BUDGET: list[bool] = [False]


def hint_player(state: DCState, rng: np.random.Generator, seconds: float) -> rules.Action:
    cpu, wall = time.process_time(), time.monotonic()
    budget = CpuBudget(seconds) if CPU_BUDGET[0] else Budget(seconds)
    result = hints.hint(state, budget, options=hints.HintOptions(leaf=LEAF[0]))
    HINT_DECISIONS.append(
        (
            time.process_time() - cpu,
            time.monotonic() - wall,
            result.interrupted,
            state.stage.value,
            result.leaves_solved,
            result.leaves_proven,
            result.reply_plies,
            result.leaves_reused,
            result.leaf_cpu_s,
        )
    )
    return result.choices[0].choice


def wilson(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval for a win rate over n games (ties counted half), sound at 0% and 100%."""
    if n == 0:
        return float("nan"), float("nan")
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def play(players: list, seed: int, seconds: float) -> DCState:
    """One seeded game to the end; the final position."""
    rng = rng_for(seed, "deluxe-camping self-play")
    state = rules.random_setup(Config(players=len(players)), rng)
    while state.stage is not Stage.OVER:
        state = state.child(players[state.to_move](state, rng, seconds))
    return state


def bench_self_play(players: int, opponent: str, games: range, seconds: float, log: Path | None = None) -> dict:
    """Games `games` (seeds; the hint's seat is the seed modulo the players, so any run of consecutive seeds
    rotates the seats). With `log`, one JSON line a game is appended as it ends (several processes can split
    the seeds and `--merge` adds their lines up)."""
    opponent_player = {"random": random_player, "greedy": greedy_player}[opponent]
    lines = []
    for game in games:
        seat = game % players
        table = [opponent_player] * players
        table[seat] = hint_player
        HINT_DECISIONS.clear()
        final = play(table, game, seconds)
        scores = final.scores()
        line = {
            "players": players,
            "opponent": opponent,
            "game": game,
            "seat": seat,
            "scores": list(scores),
            # How the game ended: barriers left, squares in regions allotted to nobody, who had stopped.
            "supply_left": final.supply_left,
            "open_squares": sum(len(site.squares) for site in final.sites if site.allotted_to is None),
            "stopped": [final.stopped(p) for p in range(players)],
            "hint_s_per_decision": seconds,
            "leaf": LEAF[0].value,
            "decisions": [list(d) for d in HINT_DECISIONS],
            # The search's settings (logs before iterative deepening have none: one reply ply).
            "max_reply_plies": hints.MAX_REPLY_PLIES,
            "leaf_cap_s": hints.LEAF_CAP_S,
            "budget_clock": "cpu" if CPU_BUDGET[0] else "wall",
            "load_avg_1min": os.getloadavg()[0],
        }
        lines.append(line)
        if log is not None:
            with log.open("a") as out:
                out.write(json.dumps(line) + "\n")
    return summarise(lines)[0]


def summarise(lines: list[dict]) -> list[dict]:
    """Win rate (ties half) with a 95% Wilson interval, margins and hint effort, per (players, opponent, leaf
    model); lines from before the leaf option are the estimate's."""

    def key_of(line: dict) -> tuple:
        if line.get("fixed_effort"):
            effort = "full search"
        else:
            effort = f"{line['hint_s_per_decision']:g} s {line.get('budget_clock', 'wall')}"
        if "max_reply_plies" not in line:
            search = "one reply ply"
        elif line["max_reply_plies"] is None:
            search = "deepening, as deep as the budget allows"
        else:
            search = f"deepening, at most {line['max_reply_plies']} reply plies"
        return line["players"], line["opponent"], line.get("leaf", hints.Leaf.ESTIMATE.value), effort, search

    rows = []
    for key in sorted({key_of(line) for line in lines}):
        mine = [line for line in lines if key_of(line) == key]
        outcomes, margins = [], []
        for line in mine:
            scores, seat = line["scores"], line["seat"]
            best_other = max(s for p, s in enumerate(scores) if p != seat)
            margins.append(scores[seat] - best_other)
            outcomes.append(1.0 if scores[seat] > best_other else 0.5 if scores[seat] == best_other else 0.0)
        decisions = [d for line in mine for d in line["decisions"]]
        mean = statistics.fmean(outcomes)
        low, high = wilson(mean, len(outcomes))
        rows.append(
            {
                "players": key[0],
                "opponent": key[1],
                "leaf": key[2],
                "effort": key[3],
                "search": key[4],
                "games": len(mine),
                "hint_budget_s": mine[0]["hint_s_per_decision"],
                "wins": sum(o == 1.0 for o in outcomes),
                "ties": sum(o == 0.5 for o in outcomes),
                "win_rate": mean,
                "wilson95_low": low,
                "wilson95_high": high,
                "mean_margin": statistics.fmean(margins),
                "hint_cpu_p50_s": percentile([d[0] for d in decisions], 50),
                "hint_cpu_p99_s": percentile([d[0] for d in decisions], 99),
                "hint_cpu_over_1s_share": statistics.fmean(d[0] > 1.0 for d in decisions),
                "hint_wall_p50_s": percentile([d[1] for d in decisions], 50),
                "hint_interrupted_share": statistics.fmean(d[2] for d in decisions),
                "hint_wall_p99_s": percentile([d[1] for d in decisions], 99),
                # On the budget's clock: wall seconds, or CPU seconds with `--cpu-budget`.
                "hint_overrun_p99_ms": max(
                    percentile(
                        [
                            d[0 if mine[0].get("budget_clock") == "cpu" else 1] - mine[0]["hint_s_per_decision"]
                            for d in decisions
                        ],
                        99,
                    )
                    * 1000,
                    0.0,
                ),
                "leaves_proven_share": (
                    sum(d[5] for d in decisions if len(d) > 4) / max(sum(d[4] for d in decisions if len(d) > 4), 1)
                ),
                # Decisions whose deepest complete iteration reached two reply plies (logs since deepening).
                "two_reply_plies_share": (
                    statistics.fmean(d[6] >= 2 for d in decisions if len(d) > 6)
                    if any(len(d) > 6 for d in decisions)
                    else float("nan")
                ),
                "reply_plies_p50": (
                    percentile([d[6] for d in decisions if len(d) > 6], 50)
                    if any(len(d) > 6 for d in decisions)
                    else float("nan")
                ),
                "leaf_cpu_p50_ms": (
                    percentile([d[8] / d[4] * 1000 for d in decisions if len(d) > 8 and d[4]], 50)
                    if any(len(d) > 8 and d[4] for d in decisions)
                    else float("nan")
                ),
                "load_avg_mean": statistics.fmean(line["load_avg_1min"] for line in mine),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--boards", type=int, default=None)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--hint-seconds", type=float, default=None)
    parser.add_argument("--only", default="max,overrun,hint,self-play")
    parser.add_argument("--pairings", default="2:greedy,2:random,4:greedy,4:random")
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--game-step", type=int, default=1, help="seed stride (split seeds over processes)")
    parser.add_argument("--log", default=None, help="append one JSON line a game to this file")
    parser.add_argument(
        "--cpu-budget",
        action="store_true",
        help="self-play: the hint's budget counts CPU seconds (an idle core's budget under any load)",
    )
    parser.add_argument("--merge", default=None, help="comma-separated game logs: summarise them instead")
    parser.add_argument(
        "--leaf",
        default=hints.DEFAULT_LEAF.value,
        choices=[leaf.value for leaf in hints.Leaf],
        help="the hint's leaf model (self-play and latency)",
    )
    args = parser.parse_args(argv)
    LEAF[0] = hints.Leaf(args.leaf)
    CPU_BUDGET[0] = args.cpu_budget
    boards = args.boards or (6 if args.quick else 20)
    games = args.games or (12 if args.quick else 200)
    seconds = args.hint_seconds or (0.3 if args.quick else 1.0)
    report: dict = {"quick": args.quick}
    if RESULTS.exists():
        previous = json.loads(RESULTS.read_text())
        report.update({k: v for k, v in previous.items() if k != "quick"})  # figures of the other parts
    parts = args.only.split(",")
    if "max" in parts:
        report["max"] = bench_max(boards, (maxima.Objective.OWN, maxima.Objective.MARGIN))
        print_table(f"max: player 0's objective proven within {PROOF_LIMIT_S:g} s (default board)", report["max"])
    if "overrun" in parts:
        report["max_overrun"] = bench_overrun(boards)
        print_table(f"max: overrun of solves stopped by a {OVERRUN_LIMIT_S:g} s limit", [report["max_overrun"]])
    if "leaf" in parts:
        report["leaf_cost"] = bench_leaf_cost(boards)
        print_table("securable leaf cost (2 players, margin, one worker)", report["leaf_cost"])
    if "hint" in parts:
        # One entry per leaf model (the estimate's keeps its old key).
        key = "hint_latency" if LEAF[0] is hints.Leaf.ESTIMATE else f"hint_latency_{LEAF[0].value}"
        report[key] = bench_hint_latency(boards)
        print_table(f"hint latency (1 s budget, {LEAF[0].value} leaves)", [report[key]])
    if "self-play" in parts:
        rows = []
        log = Path(args.log) if args.log else None
        for pairing in args.pairings.split(","):
            players, opponent = pairing.split(":")
            seeds = range(args.first_game, args.first_game + games, args.game_step)
            rows.append(bench_self_play(int(players), opponent, seeds, seconds, log))
            print_table("self-play (so far)", rows)
        report["self_play"] = rows
    if args.merge:
        lines = [json.loads(x) for name in args.merge.split(",") for x in Path(name).read_text().splitlines()]
        report["self_play"] = summarise(lines)
        print_table("self-play (merged logs)", report["self_play"])
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {RESULTS}")


if __name__ == "__main__":
    main()

"""Campsite bench: best-turn proof times (exact and CP-SAT), best-round proofs, hint latency, hint vs greedy in 2- and
4-player games (seats rotated, 95% Wilson intervals), solo hint vs the best round found, and time-limit overruns.

    python -m bench.campsite [--quick] [--games2 N] [--games4 N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from campsolver.solver.campsite import best_round as rounds
from campsolver.solver.campsite import best_turn as cpsat_turn
from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import round_cpsat, round_search
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.evaluate import best_turn_search
from campsolver.solver.campsite.players import greedy_policy, hint_policy
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.proof import Proof

from bench.common import percentile, print_table, summary_ms, write_json

Policy = Callable[[R.CampsiteState, Budget], tuple[R.Placement, R.Tent]]


def seeded_table(seed: int, cards: int, players: int = 2) -> tuple[R.Table, tuple[R.Card, ...], tuple[R.Token, ...]]:
    """A table of `cards` cards reached by random play (one tent per card after the start, seats in turn)."""
    rng = random.Random(seed)
    deck = list(R.default_deck())
    rng.shuffle(deck)
    table = R.starting_table(deck[0], deck[1])
    used: dict[int, set[R.Token]] = {p: set() for p in range(players)}
    for k in range(cards - 2):
        table = table.place(rng.choice(table.legal_placements([deck[2 + k]])))
        seat = k % players
        left = [t for t in R.Token if t not in used[seat]]
        if left:
            token = rng.choice(left)
            used[seat].add(token)
            table = table.pitch(R.Tent(seat, token, *rng.choice(table.free_squares())))
    hand = tuple(deck[cards : cards + 3])
    tokens = tuple(t for t in R.Token if t not in used[0]) or tuple(R.Token)
    return table, hand, tokens


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


# --- best turn --------------------------------------------------------------------------------------------------


def bench_best_turn(n: int, cards: int) -> dict:
    exact_s, exact_cpu_s, cpsat_total_s, cpsat_solve_s = [], [], [], []
    proven = agree = 0
    for seed in range(n):
        table, hand, tokens = seeded_table(1000 + seed, cards)
        started = time.monotonic()
        cpu = time.process_time()
        search = best_turn_search(table, hand, tokens, 0, 2, Budget(30))
        exact_s.append(time.monotonic() - started)
        exact_cpu_s.append(time.process_time() - cpu)
        started = time.monotonic()
        found = cpsat_turn.best_turn(table, hand, tokens, 0, Budget(30), seed=seed)
        cpsat_total_s.append(time.monotonic() - started)
        cpsat_solve_s.append(found.wall_time_s)
        proven += found.proof is Proof.OPTIMAL
        agree += (not search.interrupted) and found.score == search.plays[0].score
    return {
        "cards": cards,
        "n": n,
        "exact_p50_ms": percentile(exact_s, 50) * 1000,
        "exact_p99_ms": percentile(exact_s, 99) * 1000,
        "exact_cpu_p50_ms": percentile(exact_cpu_s, 50) * 1000,
        "cpsat_p50_ms": percentile(cpsat_total_s, 50) * 1000,
        "cpsat_solve_p50_ms": percentile(cpsat_solve_s, 50) * 1000,
        "cpsat_optimal_share": proven / n,
        "exact_equals_cpsat": agree / n,
    }


# --- best round ---------------------------------------------------------------------------------------------


def bench_round_cpsat(n: int, turns: int, limit_s: float) -> dict:
    """The whole-round CP-SAT model (`round_cpsat`, whole reachable window) on the seeded orders of the round table
    (seeds 5000..), warm-started with the beam search's round: share proven OPTIMAL, CP-SAT's own bound against the
    branch and bound's root bound, model size. One row per round length."""
    load_at_start = os.getloadavg()[0]
    times, cpu_times, cp_gaps, bb_bounds, cp_bounds, lays, builds = [], [], [], [], [], [], []
    proven = 0
    for seed in range(n):
        order = list(R.default_deck())
        random.Random(5000 + seed).shuffle(order)
        warm = rounds.best_round(order, turns, Budget(limit_s), exact=False)
        started = time.monotonic()
        cpu = time.process_time()
        found = round_cpsat.solve_round(order, turns, Budget(limit_s), warm=warm.plays)
        times.append(time.monotonic() - started)
        cpu_times.append(time.process_time() - cpu)
        proven += found.proof is Proof.OPTIMAL
        score = max(found.score, warm.score)
        cp_bounds.append(found.bound if found.bound is not None else float("nan"))
        cp_gaps.append(cp_bounds[-1] - score)
        bb_bounds.append(round_search.root_bound(order, turns, Budget(limit_s)))
        lays.append(found.placements)
        builds.append(found.build_s)
        print(seed, found.score, found.bound, found.status, round(times[-1], 2), flush=True)
    row = {
        "engine": "cp-sat whole round",
        "turns": turns,
        "n": n,
        "limit_s": limit_s,
        "proven_share": proven / n,
        "p50_s": percentile(times, 50),
        "cpu_p50_s": percentile(cpu_times, 50),
        "build_p50_s": percentile(builds, 50),
        "placement_booleans_p50": percentile(lays, 50),
        "cpsat_bound_p50": percentile(cp_bounds, 50),
        "bb_root_bound_p50": percentile(bb_bounds, 50),
        "median_gap_cpsat_bound_to_best": percentile(cp_gaps, 50),
        "load_1min_start": load_at_start,
        "load_1min": os.getloadavg()[0],
    }
    print(row, flush=True)
    return row


def bench_best_round(n: int, turns: int, limit_s: float) -> dict:
    """Seeded deck orders (seeds 5000..): beam warm start + exact branch and bound; proven share within the limit.
    Each row is printed as soon as it is done (a long run shows progress)."""
    load_at_start = os.getloadavg()[0]
    times, cpu_times, gaps, proven_times, proven_cpu = [], [], [], [], []
    exact = 0
    improved = 0
    for seed in range(n):
        order = list(R.default_deck())
        random.Random(5000 + seed).shuffle(order)
        started = time.monotonic()
        cpu = time.process_time()
        result = rounds.best_round(order, turns, Budget(limit_s))
        times.append(time.monotonic() - started)
        cpu_times.append(time.process_time() - cpu)
        if result.proof in (Proof.EXACT, Proof.OPTIMAL):
            exact += 1
            proven_times.append(times[-1])
            proven_cpu.append(cpu_times[-1])
        improved += "improved" in result.note
        gaps.append(result.bound - result.score)
    row = {
        "turns": turns,
        "n": n,
        "limit_s": limit_s,
        "p50_s": percentile(times, 50),
        "cpu_p50_s": percentile(cpu_times, 50),
        "proven_share": exact / n,
        "proven_p50_s": percentile(proven_times, 50) if proven_times else float("nan"),
        "proven_p90_s": percentile(proven_times, 90) if proven_times else float("nan"),
        "proven_cpu_p50_s": percentile(proven_cpu, 50) if proven_cpu else float("nan"),
        "bb_improved_beam": improved,
        "median_gap_to_bound": percentile(gaps, 50),
        "load_1min_start": load_at_start,
        "load_1min": os.getloadavg()[0],
    }
    print(row, flush=True)
    return row


# --- policies and games ---------------------------------------------------------------------------------------


def play(players: list[Policy], seed: int) -> list[int]:
    rng = random.Random(seed)
    state = R.new_game(len(players))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            pile = sorted(state.pile)
            state = state.child(pile[rng.randrange(len(pile))])
            continue
        placement, tent = players[state.to_move](state, Budget(10))
        state = state.child(R.PlayCard(placement)).child(R.PitchTent(tent.token, tent.row, tent.col))
    return list(state.totals)


def head_to_head(seats: int, games: int, log: str | None = None, first: int = 0) -> dict:
    """The hint policy in one seat (rotated), greedy in the others; a win is a strictly highest total, a tie for
    first counts 1/k. With `log`, each game's totals are appended there as it ends (a long run can be cut short and
    summarised with `summarise_games`); `first` continues a run (games first..first+games-1)."""
    wins = 0.0
    margins = []
    for game in range(first, first + games):
        hint_seat = game % seats
        policies: list[Policy] = [greedy_policy] * seats
        policies[hint_seat] = hint_policy
        totals = play(policies, seed=70_000 + game // seats)  # each deal is played from every seat
        best = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == best]
        if hint_seat in leaders:
            wins += 1 / len(leaders)
        margins.append(totals[hint_seat] - max(t for i, t in enumerate(totals) if i != hint_seat))
        if log is not None:
            with open(log, "a") as handle:
                entry = {"seats": seats, "game": game, "hint_seat": hint_seat, "totals": totals}
                handle.write(json.dumps(entry) + "\n")
    return _h2h_row(seats, wins, margins)


def _h2h_row(seats: int, wins: float, margins: list[float]) -> dict:
    games = len(margins)
    low, high = wilson(wins, games)
    mean = sum(margins) / games
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(games - 1, 1))
    return {
        "players": seats,
        "games": games,
        "hint_win_rate": wins / games,
        "ci95_low": low,
        "ci95_high": high,
        "fair_share": 1 / seats,
        "mean_margin": mean,
        "margin_ci95": 1.96 * sd / math.sqrt(games),
    }


def summarise_games(log: str) -> list[dict]:
    """Head-to-head rows from a game log written by `head_to_head` (however many games it holds)."""
    rows = []
    games: dict[int, list[dict]] = {}
    with open(log) as handle:
        for line in handle:
            entry = json.loads(line)
            games.setdefault(entry["seats"], []).append(entry)
    for seats, entries in sorted(games.items()):
        wins = 0.0
        margins = []
        for entry in entries:
            totals, seat = entry["totals"], entry["hint_seat"]
            leaders = [i for i, t in enumerate(totals) if t == max(totals)]
            wins += 1 / len(leaders) if seat in leaders else 0.0
            margins.append(totals[seat] - max(t for i, t in enumerate(totals) if i != seat))
        rows.append(_h2h_row(seats, wins, margins))
    return rows


def solo_vs_best(n: int, turns: int = R.TURNS_PER_ROUND, limit_s: float = 20.0) -> dict:
    """Solo round of `turns` turns with a known order: the hint policy's score against the best round found by
    `best_round` (proven optimal when its proof is EXACT) and its proven bound."""
    hint_scores, best_scores, bounds = [], [], []
    proven = 0
    for seed in range(n):
        order = list(R.default_deck())
        random.Random(9000 + seed).shuffle(order)
        table = R.starting_table(order[0], order[1])
        hand = list(order[2:5])
        tokens = set(R.Token)
        drawn = 5
        for turn in range(turns):
            state = hints.seat_state(table, hand, tokens, 0, 1, order)
            options = hints.HintOptions(top=1, cards_to_come=turns - turn - 1)
            best = hints.hint(state, Budget(10), options=options).choices[0]
            table = table.place(best.placement).pitch(best.tent)
            hand.remove(best.placement.card)
            hand.append(order[drawn])
            drawn += 1
            tokens.discard(best.tent.token)
        hint_scores.append(R.player_scores(table, 1)[0])
        found = rounds.best_round(order, turns, Budget(limit_s))
        proven += found.proof is Proof.EXACT
        best_scores.append(found.score)
        bounds.append(found.bound)
    return {
        "turns": turns,
        "n": n,
        "optimum_proven": proven,
        "hint_mean": sum(hint_scores) / n,
        "best_found_mean": sum(best_scores) / n,
        "bound_mean": sum(bounds) / n,
        "hint_over_best_found": sum(hint_scores) / max(sum(best_scores), 1),
        "hint_over_bound": sum(hint_scores) / max(sum(bounds), 1),
        "load_1min": os.getloadavg()[0],
    }


# --- latency and overruns ------------------------------------------------------------------------------------


def hint_latency(n: int) -> dict:
    times, cpu_times = [], []
    for seed in range(n):
        table, hand, tokens = seeded_table(3000 + seed, 25)
        started = time.monotonic()
        cpu = time.process_time()
        state = hints.seat_state(table, hand, tokens, 0, 2, R.default_deck())
        hints.hint(state, Budget(10), options=hints.HintOptions(top=20, cards_to_come=10))
        times.append(time.monotonic() - started)
        cpu_times.append(time.process_time() - cpu)
    return {
        "what": "hint, 3-card hand, 25-card table",
        **summary_ms(times),
        "cpu_p50_ms": percentile(cpu_times, 50) * 1000,
    }


def overruns(n: int) -> dict:
    """Time over the limit for solves given limits shorter than they need (hint, exact max, CP-SAT max, rounds),
    with the worst case per kind."""
    over: dict[str, list[float]] = {}
    for seed in range(n):
        table, hand, tokens = seeded_table(4000 + seed, 25)
        for limit, kind in ((0.05, "hint"), (0.05, "exact"), (0.5, "cp-sat")):
            budget = Budget(limit)
            started = time.monotonic()
            if kind == "hint":
                hints.hint(hints.seat_state(table, hand, tokens, 0, 2, R.default_deck()), budget)
            elif kind == "exact":
                best_turn_search(table, hand, tokens, 0, 2, budget)
            else:
                _cpsat_or_interrupt(table, hand, tokens, budget)
            over.setdefault(kind, []).append(max(time.monotonic() - started - limit, 0.0))
        order = list(R.default_deck())
        random.Random(seed).shuffle(order)
        for limit, turns in ((0.5, 7), (2.0, 3)):  # the beam warm start, then the branch and bound interrupted
            budget = Budget(limit)
            started = time.monotonic()
            rounds.best_round(order, turns, budget)
            over.setdefault(f"round{turns}", []).append(max(time.monotonic() - started - limit, 0.0))
    every = [x for values in over.values() for x in values]
    return {
        "solves": len(every),
        "p50_over_ms": percentile(every, 50) * 1000,
        "p99_over_ms": percentile(every, 99) * 1000,
        "max_over_ms": max(every) * 1000,
        **{f"max_{kind}_ms": max(values) * 1000 for kind, values in over.items()},
    }


def _cpsat_or_interrupt(table, hand, tokens, budget):
    from campsolver.solver.core.budget import SolveInterrupted

    try:
        return cpsat_turn.best_turn(table, hand, tokens, 0, budget)
    except SolveInterrupted:
        return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games2", type=int, default=None)
    parser.add_argument("--games4", type=int, default=None)
    parser.add_argument("--turns", default="2,3,7", help="round lengths of the round table")
    parser.add_argument("--first-game", type=int, default=0, help="continue a head-to-head log from this game")
    parser.add_argument(
        "--only", choices=["round", "round_cpsat", "h2h", "speed", "solo"], default=None, help="run one table only"
    )
    parser.add_argument("--rounds", type=int, default=20, help="seeded deck orders per round length")
    args = parser.parse_args(argv)
    if args.only == "round":
        lengths = [int(t) for t in args.turns.split(",")]
        table = [bench_best_round(args.rounds, t, 30.0) for t in lengths]
        print_table("best solo round (known order), 30 s limit", table)
        suffix = "" if lengths == [2, 3, 7] else "_" + "_".join(map(str, lengths))
        write_json("campsite_round" + suffix, {"best_round": table})
        return
    if args.only == "round_cpsat":
        lengths = [int(t) for t in args.turns.split(",")]
        table = [bench_round_cpsat(args.rounds, t, 30.0) for t in lengths]
        print_table("best solo round by the whole-round CP-SAT model, 30 s limit", table)
        write_json("campsite_round_cpsat_" + "_".join(map(str, lengths)), {"round_cpsat": table})
        return
    if args.only == "solo":
        table = [solo_vs_best(args.rounds, 2, 30.0), solo_vs_best(max(args.rounds // 2, 1), R.TURNS_PER_ROUND, 30.0)]
        print_table("solo round: hint policy vs the best round (proven optimal when EXACT) and its bound", table)
        write_json("campsite_solo", {"solo": table})
        return
    if args.only == "speed":
        speed = {
            "best_turn": [bench_best_turn(20, cards) for cards in (10, 25)],
            "hint_latency": [hint_latency(20)],
            "overruns": [overruns(10)],
        }
        for rows in speed.values():
            for row in rows:
                row["load_1min"] = os.getloadavg()[0]
        print_table("best turn: exact enumeration vs CP-SAT (ms)", speed["best_turn"])
        print_table("hint latency", speed["hint_latency"])
        print_table("time-limit overruns", speed["overruns"])
        write_json("campsite_speed", speed)
        return
    if args.only == "h2h":
        log = str(Path(__file__).parent / "results" / "campsite_h2h_games.jsonl")
        first = args.first_game
        table = [head_to_head(4, args.games4 or 48, log, first), head_to_head(2, args.games2 or 48, log, first)]
        if first:
            table = summarise_games(log)  # every game in the log, this run's and the earlier ones
        for row in table:
            row["load_1min"] = os.getloadavg()[0]
        print_table("hint vs greedy (hint in one seat, rotated)", table)
        write_json("campsite_h2h", {"head_to_head": table})
        return
    quick = args.quick
    results: dict = {}
    results["best_turn"] = [bench_best_turn(5 if quick else 10, cards) for cards in (10, 25)]
    print_table("best turn: exact enumeration vs CP-SAT (ms)", results["best_turn"])
    results["best_round"] = [
        bench_best_round(2 if quick else 4, 1, 30.0),
        bench_best_round(2 if quick else 4, 7, 30.0),
    ]
    print_table("best solo round (known order)", results["best_round"])
    results["hint_latency"] = [hint_latency(5 if quick else 10)]
    print_table("hint latency", results["hint_latency"])
    results["overruns"] = [overruns(3 if quick else 6)]
    print_table("time-limit overruns", results["overruns"])
    results["solo"] = [solo_vs_best(2 if quick else 4, 2, 30.0), solo_vs_best(2 if quick else 4)]
    print_table("solo round: hint policy vs best found (beam) and bound", results["solo"])
    games2 = args.games2 if args.games2 is not None else (4 if quick else 24)
    games4 = args.games4 if args.games4 is not None else (4 if quick else 12)
    results["head_to_head"] = [head_to_head(2, games2), head_to_head(4, games4)]
    print_table("hint vs greedy (hint in one seat, rotated)", results["head_to_head"])
    write_json("campsite", results)


if __name__ == "__main__":
    main()

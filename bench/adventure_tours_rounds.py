"""Where an Adventure Tours hint's points go against a table: `python -m bench.adventure_tours_rounds`.

Plays whole 3-player games (basic game, 3 rounds) of the hint (at `--hint-cpu` CPU-s a call, rollout model
`--rollout`, `--no-halving` for the race alone) against two copies of one player or two kinds `a+b` (`greedy`,
`patient`: the repository's rules of thumb; `hint`, `hint<K>x`: the same hint at K x its budget, asked at every
decision; `out:<style>`: an outside player of `bench.opponents`, for diagnosis only: never a tuning objective),
seats rotated (game i: seed
first + i // 3, the hint in seat i % 3), chance drawn from a generator seeded by the game's seed. Per round it
records the scores, who ended the round, the plays (member or equipment, the card's demand and money), and at each
of the hint's regular plays the value it gave its best play beside the round margin that followed (money after
the round minus the best opponent's: the quantity the value estimates, under the hint's model).

Prints the win share (Wilson 95%), mean money, round scores by who ended the round, members and equipment a round,
the mean estimate against the mean realised margin per round, and the hint's CPU a call (mean, median); writes
bench/results/adventure_tours_rounds.json (or `--out`). Seeds from 7,000,000 on are the arena's report seeds: refused.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import rules as A
from campsolver.solver.adventure_tours.information import observe
from campsolver.solver.adventure_tours.policies import greedy_action, patient_action
from campsolver.solver.core.budget import CpuBudget
from campsolver.solver.core.game import CHANCE

from bench.common import RESULTS_DIR, wilson

#: Seeds from here on are the arena's report seeds (bench.arena.cells.REPORT_FIRST_SEED): never played here.
REPORT_SEEDS = 7_000_000
ROLLOUTS: dict[str, Any] = {"default": hints.ROLLOUT_POLICY, "greedy": greedy_action, "patient": patient_action}
Player = Callable[[A.State, int, np.random.Generator], list[Any]]


def opponent(name: str, cpu: float = 0.05, seed_offset: int = 5_000) -> Player:
    """One opponent kind: a rule of thumb, the hint itself (`hint`, or `hint<K>x` at K x `cpu`, its calls seeded
    apart from the hint's own) or an outside player."""
    if name == "greedy":
        return lambda s, p, rng: [greedy_action(s)]
    if name == "patient":
        return lambda s, p, rng: [patient_action(s)]
    if name == "hint" or (name.startswith("hint") and name.endswith("x")):
        factor = 1.0 if name == "hint" else float(name[4:-1])
        calls = iter(range(10**9))

        def hinted(s: A.State, p: int, rng: np.random.Generator) -> list[Any]:
            seed = int(rng.integers(2**31)) * 10_000 + seed_offset + next(calls)
            budget = CpuBudget(cpu * factor)
            return list(hints.hint(observe(s, p), budget, options=hints.HintOptions(seed=seed)).best.play)

        return hinted
    if name.startswith("out:"):
        from bench.opponents import PLAYERS

        return PLAYERS["adventure_tours"][name[4:]]
    raise ValueError(f"opponent {name!r}: greedy, patient, hint, hint<K>x or out:<style>")


def field(names: str, cpu: float) -> dict[int, Player]:
    """Two opponents from `a+b` (or two copies of `a`), keyed by their order after the hint's seat."""
    kinds = names.split("+")
    return {k: opponent(kinds[k % len(kinds)], cpu) for k in range(2)}


def play_game(
    seed: int, hint_seat: int, others: dict[int, Player], cpu: float, rollout: Any, halving: bool = True
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    rngs = {p: np.random.default_rng([seed, p, 23]) for p in range(3)}
    state = A.new_game(A.Config(3))
    rounds: list[dict[str, Any]] = []
    plays: dict[int, list[tuple[int, int, bool]]] = {p: [] for p in range(3)}
    estimates: list[tuple[int, float]] = []
    cpu_calls: list[float] = []
    calls = 0

    def advance(action: Any) -> None:
        nonlocal state, plays
        before = state
        if before.current_player() != CHANCE and before.pending[0].kind == "play":
            cfg = before.config
            plays[before.current_player()].append((cfg.demand[action.card], cfg.money[action.card], action.member))
        state = before.child(action)
        if state.over or state.round_index != before.round_index:
            rounds.append(
                {
                    "scores": list(state.last_round),
                    "ender": state.ender,
                    "totals": list(state.totals),
                    "plays": {str(p): plays[p] for p in range(3)},
                }
            )
            plays = {p: [] for p in range(3)}

    while not state.over:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            weights = np.array([float(w) for _, w in outcomes])
            advance(outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][0])
            continue
        mover = state.current_player()
        if mover == hint_seat:
            calls += 1
            started = time.process_time()
            result = hints.hint(
                observe(state, mover),
                CpuBudget(cpu),
                options=hints.HintOptions(seed=seed * 10_000 + calls, policy=rollout, halving=halving),
            )
            cpu_calls.append(time.process_time() - started)
            if state.pending[0].kind == "play" and result.best.samples + (result.method == "expectimax") > 0:
                estimates.append((state.round_index, result.best.value))
            line = list(result.best.play)
        else:
            line = list(others[(mover - hint_seat) % 3 - 1](state, mover, rngs[mover]))[:1]
        for action in line:  # a play is replayed while it is the mover's and legal
            if state.over or state.current_player() != mover or action not in state.legal_actions():
                break
            advance(action)
    return {
        "seed": seed,
        "hint_seat": hint_seat,
        "totals": list(state.totals),
        "rounds": rounds,
        "estimates": estimates,
        "hint_cpu": cpu_calls,
    }


def summarise(games: list[dict[str, Any]]) -> dict[str, Any]:
    share = 0.0
    by_ender: dict[str, list[tuple[int, int]]] = {"hint": [], "opponent": []}
    members: dict[str, list[int]] = {"hint": [], "opponent": []}
    equipment: dict[str, list[int]] = {"hint": [], "opponent": []}
    member_money: dict[str, list[int]] = {"hint": [], "opponent": []}
    error: dict[int, list[tuple[float, float]]] = {}
    for game in games:
        h, totals = game["hint_seat"], game["totals"]
        winners = [p for p in range(3) if totals[p] == max(totals)]
        share += 1 / len(winners) if h in winners else 0.0
        for index, rnd in enumerate(game["rounds"]):
            best_other = max(rnd["scores"][p] for p in range(3) if p != h)
            by_ender["hint" if rnd["ender"] == h else "opponent"].append((rnd["scores"][h], best_other))
            for p in range(3):
                who = "hint" if p == h else "opponent"
                row = rnd["plays"][str(p)]
                members[who].append(sum(1 for *_, m in row if m))
                equipment[who].append(sum(1 for *_, m in row if not m))
                member_money[who] += [money for _, money, m in row if m]
            margin = rnd["totals"][h] - max(rnd["totals"][p] for p in range(3) if p != h)
            error.setdefault(index, []).extend((value, margin) for r, value in game["estimates"] if r == index)
    n = len(games)
    low, high = wilson(share, n)
    cpu = [c for g in games for c in g["hint_cpu"]]

    def mean(values: list[float]) -> float:
        return statistics.fmean(values) if values else float("nan")

    return {
        "games": n,
        "share": share / n,
        "wilson95": [low, high],
        "money": {
            "hint": mean([g["totals"][g["hint_seat"]] for g in games]),
            "opponent": mean([t for g in games for p, t in enumerate(g["totals"]) if p != g["hint_seat"]]),
        },
        "rounds_by_ender": {
            who: {"rounds": len(rows), "hint": mean([a for a, _ in rows]), "best_opponent": mean([b for _, b in rows])}
            for who, rows in by_ender.items()
        },
        "a_round": {
            who: {
                "members": mean(members[who]),
                "equipment": mean(equipment[who]),
                "member_money": mean(member_money[who]),
            }
            for who in members
        },
        "estimate_vs_margin": {
            str(r): {"calls": len(rows), "estimate": mean([v for v, _ in rows]), "realised": mean([m for _, m in rows])}
            for r, rows in sorted(error.items())
        },
        "hint_cpu_s": {"mean": mean(cpu), "median": statistics.median(cpu) if cpu else float("nan"), "calls": len(cpu)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponent", default="greedy", help="greedy, patient, hint, hint<K>x or out:<style>; a+b for two kinds"
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=4_300_000)
    parser.add_argument("--hint-cpu", type=float, default=0.05)
    parser.add_argument("--rollout", default="default", choices=sorted(ROLLOUTS))
    parser.add_argument("--no-halving", action="store_true", help="the hint samples every play alike (the race)")
    parser.add_argument("--out", default=str(RESULTS_DIR / "adventure_tours_rounds.json"))
    args = parser.parse_args(argv)
    if args.first_seed + (args.games + 2) // 3 > REPORT_SEEDS:
        parser.error(f"seeds from {REPORT_SEEDS:,} on are the arena's report seeds")
    others = field(args.opponent, args.hint_cpu)
    play = functools.partial(
        play_game, others=others, cpu=args.hint_cpu, rollout=ROLLOUTS[args.rollout], halving=not args.no_halving
    )
    games = [play(args.first_seed + i // 3, i % 3) for i in range(args.games)]
    summary = summarise(games)
    print(
        json.dumps(
            {
                "opponent": args.opponent,
                "rollout": args.rollout,
                "first_seed": args.first_seed,
                "hint_cpu": args.hint_cpu,
                **summary,
            },
            indent=1,
        )
    )
    Path(args.out).write_text(json.dumps({"args": vars(args), "summary": summary, "games": games}) + "\n")


if __name__ == "__main__":
    main()

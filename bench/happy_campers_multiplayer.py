"""Happy Campers multi-player head to head: the hint in one seat against simple players in the others.

    python -m bench.happy_campers_multiplayer [--players 2,4] [--opponents greedy,random] [--games 200]
        [--hint-budget 0.1] [--rollouts N] [--seat hint] [--value margin] [--processes 2] [--label NAME]

Every game is the rules model's multi-player game (`modes.MultiplayerState`: plain rolls on your own map,
doubles on a neighbour's map, a player who cannot draw is out and the others get the bonus turn), no
challenge card, seeded rolls. Game g plays roll sequence g // players with the measured seat at
g % players, so every roll sequence is played once from every seat (seats rotated, paired by rolls).

Seats:
- hint: a plain roll on its own map is `hint(mode=MULTIPLAYER)` (the others' maps as they stood when the
  dice were rolled, since the game is simultaneous; the bonus turn said), a double on a neighbour's map is
  `hint(mode=NEIGHBOUR_MAP)` with the default objective (hurt the owner); it draws the top move.
- shaped: the hint's rollout policy alone (shaped greedy; on a neighbour's map the drawing worst for the
  owner by that evaluation), a reference for what the search adds.
- greedy: `policies.GREEDY` on its own map; on a neighbour's map the drawing with the lowest greedy gain for
  the owner (hostile).
- random: a uniformly random legal drawing everywhere.

Every drawing goes through `MultiplayerState.child` (the rules model refuses an illegal one) and the scores
are `MultiplayerState.final_scores`. Per pairing: wins (strictly above every opponent), ties (level with the
best opponent), the win rate counting a tie as half a win with its 95% Wilson interval, the strict win rate
with its own, the mean margin over the best opponent with a 95% t interval, and the equal-chance share
1 / players for reference. `--rollouts N` fixes the hint's effort (N rollouts a call, time limit only a
safety stop) so the figures do not depend on the machine's load; otherwise the time schedule of
`--hint-budget` applies (a loaded machine then cuts calls short: the count of interrupted calls says so).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import time
from typing import Any

import numpy as np
from campsolver.clients.batch.tournament import wilson
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, MultiplayerValue, hint, turn_state
from campsolver.solver.happy_campers.modes import MultiplayerState
from campsolver.solver.happy_campers.policies import (
    GREEDY,
    SHAPED_GREEDY,
    FastMap,
    candidate_of,
)
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Placement

from bench.common import print_table, write_json

#: Seats the measured player can take and opponents it can face.
SEAT_PLAYERS = ("hint", "shaped", "greedy", "random")
OPPONENTS = ("greedy", "random")
DEFAULT_PLAYERS = (2, 4)
DEFAULT_GAMES = 200
#: Small per-call hint budget: a 4-player rollout plays four maps, and hundreds of games must fit.
DEFAULT_HINT_BUDGET_S = 0.1
#: Rolls drawn per game; far more than any game lasts (each map takes a shape every turn it is in).
ROLLS_PER_GAME = 120
#: Student t 97.5% quantile approximated by the normal one above this many games (the samples are large).
Z95 = 1.959964


def _choose(
    name: str,
    state: MultiplayerState,
    seat: int,
    target: int,
    keys: np.random.Generator,
    args: dict[str, Any],
    turn_maps: tuple,
    seed: int,
    turn: int,
) -> tuple[Placement, int]:
    """The drawing seat `seat` makes on map `target` now, and whether a hint call was interrupted (0/1)."""
    legal = state.legal_actions()
    components = state.components
    cards = state.challenges
    own = target == seat
    if name == "random":
        return legal[int(keys.integers(len(legal)))], 0
    if name == "hint":
        budget = Budget(args["hint_budget"])
        rollouts = args["rollouts"]
        if rollouts is not None:
            budget = Budget(args["safety_s"])
        if own:
            players = state.players
            others = [turn_maps[(seat + k) % players] for k in range(1, players)]  # left neighbour first
            result = hint(
                turn_state(
                    state.maps[target],
                    state.roll,
                    cards,
                    components,
                    mode=HintMode.MULTIPLAYER,
                    other_grids=others,
                    bonus_turn=state.bonus_turn,
                ),
                budget,
                options=HintOptions(seed=seed * 1000 + turn, rollouts=rollouts, multiplayer_value=args["value"]),
            )
        else:
            result = hint(
                turn_state(state.maps[target], state.roll, cards, components, mode=HintMode.NEIGHBOUR_MAP),
                budget,
                options=HintOptions(seed=seed * 1000 + turn, rollouts=rollouts),
            )
        assert result.best is not None
        return result.best.move.placements[0], int(result.interrupted)
    policy = GREEDY if name == "greedy" else SHAPED_GREEDY
    fast = FastMap.from_grid(state.maps[target], cards, components)
    candidates = [candidate_of(p, components) for p in legal]
    values = policy.values(fast, candidates) if name == "shaped" else fast.gains(candidates)
    target_value = max(values) if own else min(values)  # on a neighbour's map: the worst for its owner
    ties = [i for i, v in enumerate(values) if v == target_value]
    return legal[ties[int(keys.integers(len(ties)))]], 0


def play_one(job: tuple[int, int, str, str, dict[str, Any]]) -> dict[str, Any]:
    """One seeded game: the measured player in seat `game % players`, the opponent everywhere else."""
    game, players, seat_player, opponent, args = job
    seed = game // players
    seat = game % players
    rolls = rng_for(seed, "happy-campers-multiplayer-rolls", players).integers(1, 7, size=(ROLLS_PER_GAME, 2))
    keys = rng_for(seed, "happy-campers-multiplayer-keys", players, seat, seat_player, opponent)
    state = MultiplayerState.new(players, (), DEFAULT_COMPONENTS)
    names = [seat_player if i == seat else opponent for i in range(players)]
    calls = interrupted = 0
    cpu = 0.0
    turn = 0
    while not state.over:
        if turn >= ROLLS_PER_GAME:
            raise RuntimeError("the game outlasted its seeded rolls")
        state = state.child((int(rolls[turn, 0]), int(rolls[turn, 1])))
        turn_maps = state.maps  # what every player sees when the dice are rolled (simultaneous drawing)
        while not state.over and state.roll is not None:
            drawer = state.current_player()
            target = state.to_draw[0]
            started = time.process_time()
            placement, stopped = _choose(names[drawer], state, drawer, target, keys, args, turn_maps, seed, turn)
            if names[drawer] == "hint":
                calls += 1
                interrupted += stopped
                cpu += time.process_time() - started
            state = state.child(placement)  # the rules model checks the drawing
        turn += 1
    scores = state.final_scores()
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return {
        "game": game,
        "players": players,
        "seat": seat,
        "seat_player": seat_player,
        "opponent": opponent,
        "scores": list(scores),
        "margin": scores[seat] - best_other,
        "win": scores[seat] > best_other,
        "tie": scores[seat] == best_other,
        "turns": turn,
        "hint_calls": calls,
        "hint_interrupted": interrupted,
        "hint_cpu_s": cpu,
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rate (a tie half a win) and strict win rate with 95% Wilson intervals, mean margin with a 95% t
    interval (normal quantile: the samples are hundreds)."""
    n = len(rows)
    wins = sum(r["win"] for r in rows)
    ties = sum(r["tie"] for r in rows)
    margins = [r["margin"] for r in rows]
    mean_margin = statistics.fmean(margins)
    se = statistics.stdev(margins) / math.sqrt(n) if n > 1 else math.nan
    calls = sum(r["hint_calls"] for r in rows)
    first = rows[0]
    return {
        "players": first["players"],
        "seat": first["seat_player"],
        "opponents": first["opponent"],
        "games": n,
        "wins": wins,
        "ties": ties,
        "win_rate": (wins + ties / 2) / n,
        "win_rate_ci95": list(wilson(wins + ties / 2, n)),
        "strict_win_rate": wins / n,
        "strict_win_rate_ci95": list(wilson(wins, n)),
        "equal_share": 1 / first["players"],
        "mean_margin": mean_margin,
        "mean_margin_ci95": [mean_margin - Z95 * se, mean_margin + Z95 * se],
        "mean_score": statistics.fmean(r["scores"][r["seat"]] for r in rows),
        "opponent_mean_score": statistics.fmean(s for r in rows for i, s in enumerate(r["scores"]) if i != r["seat"]),
        "hint_calls": calls,
        "hint_interrupted": sum(r["hint_interrupted"] for r in rows),
        "hint_cpu_ms_per_call": 1000 * sum(r["hint_cpu_s"] for r in rows) / calls if calls else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default=",".join(map(str, DEFAULT_PLAYERS)), help="player counts, e.g. 2,4")
    parser.add_argument("--opponents", default=",".join(OPPONENTS), help="greedy and/or random")
    parser.add_argument("--seat", default="hint", choices=SEAT_PLAYERS, help="the measured player")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pairing (seats rotated)")
    parser.add_argument("--hint-budget", type=float, default=DEFAULT_HINT_BUDGET_S, help="seconds per hint call")
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        help="fixed rollouts per hint call (load-independent); the time limit is then only a safety stop",
    )
    parser.add_argument("--safety-s", type=float, default=10.0, help="the safety time limit with --rollouts")
    parser.add_argument("--value", default=MultiplayerValue.MARGIN.value, choices=[v.value for v in MultiplayerValue])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--max-minutes", type=float, default=None, help="stop each pairing after this long")
    parser.add_argument("--label", default="", help="suffix of the results file")
    parser.add_argument("--quick", action="store_true", help="2 players, 8 games per pairing, 16 rollouts")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.games, args.rollouts = "2", 8, 16
    settings = {
        "hint_budget": args.hint_budget,
        "rollouts": args.rollouts,
        "safety_s": args.safety_s,
        "value": args.value,
    }
    payload: dict[str, Any] = {"args": vars(args), "load_average_before": list(os.getloadavg())}
    table = []
    games: list[dict[str, Any]] = []
    name = "happy_campers_multiplayer" + (f"_{args.label}" if args.label else "")
    context = multiprocessing.get_context("fork")
    for players in (int(p) for p in args.players.split(",")):
        for opponent in args.opponents.split(","):
            if opponent not in OPPONENTS:
                parser.error(f"unknown opponent {opponent!r}")
            jobs = [(g, players, args.seat, opponent, settings) for g in range(args.games)]
            started = time.perf_counter()
            rows = []
            with context.Pool(max(1, args.processes)) as pool:  # leaving it stops unfinished games
                for row in pool.imap(play_one, jobs):
                    rows.append(row)
                    if args.max_minutes is not None and time.perf_counter() - started > 60 * args.max_minutes:
                        break
            # Whole rotations only, so every roll sequence counts once from every seat.
            rows = rows[: len(rows) - len(rows) % players]
            if not rows:
                continue
            summary = summarise(rows)
            summary["wall_s"] = time.perf_counter() - started
            summary["load_average_after"] = list(os.getloadavg())
            table.append(summary)
            games.extend(rows)
            print(
                f"  {players} players vs {opponent}: {len(rows)} games, win rate {summary['win_rate']:.3f}, "
                f"margin {summary['mean_margin']:+.2f}, load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            # Written after every pairing, so a run stopped later keeps the pairings it finished.
            write_json(name, {**payload, "table": table, "games": games})
    print_table(
        f"Happy Campers multi-player head to head ({args.seat} in one seat, seats rotated, "
        + (f"{args.rollouts} rollouts a hint call)" if args.rollouts else f"{args.hint_budget} s a hint call)"),
        [
            {
                k: (round(v, 3) if isinstance(v, float) else v)
                for k, v in row.items()
                if k not in ("load_average_after", "ties")
            }
            for row in table
        ],
    )
    payload["table"] = table
    payload["games"] = games
    payload["load_average_after"] = list(os.getloadavg())
    write_json(name, payload)
    return payload


if __name__ == "__main__":
    main()

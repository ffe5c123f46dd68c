"""Hint trust bench for Adventure Tours, Campsite and Deluxe Camping:
`python -m bench.hint_trust [--only contract,deadline,coverage] [--positions N] [--budget S]`.

Prints tables and writes bench/results/hint_trust.json:
- contract: seeded positions, each game's Hint handler (the answer a client gets on the wire), how many listings
  break `service.games.shared.ranking_contract_violations` (rank order = value order, loss = best - value, no
  standard error from fewer than 10 samples, a move without a value carries a note), at a CPU budget;
- deadline: the same positions at tiny wall-clock budgets: how many calls raise (DEADLINE_EXCEEDED on the
  wire) or answer with no move, and the p99 overrun past the budget;
- coverage (Adventure Tours, the one of the three whose values are sampled): value +- 2 SE against a long-run
  reference value of the same play (many more common worlds), for the top move and over every valued move, at
  CPU budgets, on the seed range `COVERAGE_SEEDS` (never used by the tests or the other benches).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from campsolver.service.games import adventure_tours as at_service
from campsolver.service.games import campsite as cs_service
from campsolver.service.games import deluxe_camping as dc_service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.solver.adventure_tours import hint as at_hints
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Config as ATConfig
from campsolver.solver.adventure_tours.rules import State as ATState
from campsolver.solver.adventure_tours.rules import new_game
from campsolver.solver.campsite import rules as cs_rules
from campsolver.solver.core.budget import Budget, CpuBudget, SolveInterrupted, freeze_long_lived_objects
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.deluxe_camping import rules as dc_rules
from campsolver.solver.deluxe_camping.rules import Config as DCConfig
from campsolver.solver.deluxe_camping.rules import Stage

from bench.common import RESULTS_DIR, percentile, print_table, write_json
from campsolver.v1 import adventure_tours_pb2 as at_pb
from campsolver.v1 import campsite_pb2 as cs_pb
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc_pb

#: Seeds of the coverage measurement: a range no test or other bench uses (tests use 0-999, benches 0-100,000).
COVERAGE_SEEDS = range(7_340_000, 7_340_000 + 10_000)


# --- seeded positions (requests as a client sends them) -------------------------------------------------------


def at_position(seed: int) -> ATState:
    """A 3-player one-round position at a player's regular play, reached by greedy play for a seeded while."""
    index = 0
    while True:
        rng = rng_for(seed, "hint-trust adventure-tours", index)
        index += 1
        state = new_game(ATConfig(3, rounds=1))
        stop = int(rng.integers(0, 40))
        steps = 0
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.child(sample_outcome(state, rng))
                continue
            step = state.step()
            if steps >= stop and step is not None and step.kind == "play" and not state.extra_turns:
                return state
            state = state.child(greedy_action(state))
            steps += 1


def at_request(seed: int, seconds: float) -> at_pb.AdventureToursServiceHintRequest:
    state = at_position(seed)
    message = at_service.state_to_proto(state)
    del message.pile[:]
    for q, player in enumerate(message.players):
        if q != state.to_move:
            player.hand_size = len(player.hand)
            del player.hand[:]
    return at_pb.AdventureToursServiceHintRequest(
        state=message, options=common_pb2.SolveOptions(time_limit_seconds=seconds, seed=seed)
    )


def cs_request(seed: int, seconds: float) -> cs_pb.CampsiteServiceHintRequest:
    """A 2-4 player table of 3-14 cards reached by random play (bench.campsite.seeded_table's way)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    cards = rng.randint(3, 14)
    deck = list(cs_rules.default_deck())
    rng.shuffle(deck)
    table = cs_rules.starting_table(deck[0], deck[1])
    used: dict[int, set[cs_rules.Token]] = {p: set() for p in range(players)}
    for k in range(cards - 2):
        table = table.place(rng.choice(table.legal_placements([deck[2 + k]])))
        seat = k % players
        left = [t for t in cs_rules.Token if t not in used[seat]]
        if left and table.free_squares():
            token = rng.choice(left)
            used[seat].add(token)
            table = table.pitch(cs_rules.Tent(seat, token, *rng.choice(table.free_squares())))
    player = (cards - 2) % players
    tokens = [t for t in cs_rules.Token if t not in used[player]] or list(cs_rules.Token)
    turn = cs_pb.CampsiteTurnState(
        table=cs_service.table_to_proto(table),
        hand=[cs_service.card_to_proto(c) for c in deck[cards : cards + 3]],
        tokens=[cs_service.TOKEN_TO_PROTO[t] for t in tokens if t not in used[player]],
        player=player,
        players=players,
    )
    return cs_pb.CampsiteServiceHintRequest(state=turn, options=common_pb2.SolveOptions(time_limit_seconds=seconds))


def dc_request(seed: int, seconds: float) -> dc_pb.DeluxeCampingServiceHintRequest:
    """A 2-4 player position a seeded number of random turns after the reveal."""
    index = 0
    while True:
        rng = rng_for(seed, "hint-trust deluxe-camping", index)
        index += 1
        state = dc_rules.random_setup(DCConfig(players=2 + seed % 3), rng)
        for _ in range(int(rng.integers(0, 30))):
            if state.stage is Stage.OVER:
                break
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
        if state.stage in (Stage.MOVE, Stage.BARRIER):
            return dc_pb.DeluxeCampingServiceHintRequest(
                state=dc_service.state_to_proto(state), options=common_pb2.SolveOptions(time_limit_seconds=seconds)
            )


GAMES: dict[str, tuple[Callable[[int, float], Any], Callable[[Any, Budget], Any]]] = {
    "adventure_tours": (at_request, at_service.hint),
    "campsite": (cs_request, cs_service.hint),
    "deluxe_camping": (dc_request, dc_service.hint),
}


def _alternatives(response: Any) -> list[common_pb2.RankedAlternative]:
    return [a.ranking for a in response.alternatives]


# --- contract ---------------------------------------------------------------------------------------------------


def contract(games: list[str], positions: int, seconds: float, first_seed: int = 0) -> list[dict[str, Any]]:
    rows = []
    for game in games:
        make, handler = GAMES[game]
        broken, examples, empty = 0, [], 0
        for seed in range(first_seed, first_seed + positions):
            request = make(seed, seconds)
            response = handler(request, CpuBudget(seconds))
            problems = ranking_contract_violations(_alternatives(response))
            empty += not response.alternatives
            if problems:
                broken += 1
                if len(examples) < 3:
                    examples.append(f"seed {seed}: {problems[0]}")
        rows.append(
            {
                "game": game,
                "hints": positions,
                "cpu_budget_s": seconds,
                "broken": broken,
                "empty": empty,
                "examples": examples,
            }
        )
    return rows


# --- deadline ---------------------------------------------------------------------------------------------------


def deadline(games: list[str], positions: int, budgets: list[float], first_seed: int = 0) -> list[dict[str, Any]]:
    rows = []
    for game in games:
        make, handler = GAMES[game]
        for seconds in budgets:
            raised, empty, overruns = 0, 0, []
            for seed in range(first_seed, first_seed + positions):
                request = make(seed, seconds)
                started = time.monotonic()
                try:
                    response = handler(request, Budget(seconds))
                    empty += not response.alternatives
                except SolveInterrupted:
                    raised += 1
                overruns.append(max(time.monotonic() - started - seconds, 0.0) * 1000)
            rows.append(
                {
                    "game": game,
                    "budget_s": seconds,
                    "hints": positions,
                    "deadline_exceeded": raised,
                    "no_move": empty,
                    "overrun_p99_ms": percentile(overruns, 99),
                    "overrun_max_ms": max(overruns),
                }
            )
    return rows


# --- coverage (Adventure Tours) ---------------------------------------------------------------------------------


def _reference(request: Any, seed: int, worlds: int) -> dict[tuple, float]:
    """Each play's long-run value: `worlds` common worlds, no screening, a seed apart from the hint's."""
    parsed = at_service.parse_state(request.state)
    obs = at_service.observation(parsed)
    plays = at_hints.enumerate_plays(at_hints.public_state(obs), obs.player)
    ranked, _, _ = at_hints.sampled_values(
        obs, plays, at_hints.Objective.MARGIN, Budget(3600), seed + 10**9, max_samples=worlds, screen=False
    )
    return {r.play: r.value for r in ranked}


def _reference_cache(reference_worlds: int) -> tuple[Path, dict[str, dict[str, float]]]:
    path = RESULTS_DIR / f"hint_trust_at_references_{reference_worlds}.json"
    return path, (json.loads(path.read_text()) if path.exists() else {})


def coverage(positions: int, budgets: list[float], reference_worlds: int) -> list[dict[str, Any]]:
    """Coverage of value +- 2 SE as reported, and with the small-sample widening undone ("plain": the sample's
    own SE), against references cached in bench/results (computed once per seed and world count)."""
    rows = []
    seeds = list(COVERAGE_SEEDS)[:positions]
    path, references = _reference_cache(reference_worlds)
    for seconds in budgets:
        # covered as reported, covered plain, n, covered allowing for the reference's own SE
        counts = {"top": [0, 0, 0, 0], "all": [0, 0, 0, 0]}
        no_se = 0
        for seed in seeds:
            request = at_request(seed, seconds)
            response = at_service.hint(request, CpuBudget(seconds))
            if response.proof == common_pb2.PROOF_STATUS_EXACT:
                continue
            key = str(seed)
            if key not in references:
                parsed = at_service.parse_state(request.state)
                obs = at_service.observation(parsed)
                view = at_hints.public_state(obs)
                references[key] = {
                    at_service.move_to_proto(view, p).SerializeToString(deterministic=True).hex(): v
                    for p, v in _reference(request, seed, reference_worlds).items()
                }
                path.write_text(json.dumps(references))
            truth = references[key]
            for position, alternative in enumerate(response.alternatives):
                ranking = alternative.ranking
                if not ranking.HasField("value"):
                    continue
                if not ranking.HasField("standard_error"):
                    no_se += 1
                    continue
                error = abs(ranking.value - truth[alternative.move.SerializeToString(deterministic=True).hex()])
                plain = ranking.standard_error * 2.0 / at_hints._t_quantile(ranking.samples - 1)
                # The reference is itself a mean of `reference_worlds` worlds: its SE, from the per-world spread
                # the hint saw, widens the band in the adjusted count (v - reference has both variances).
                reference_se = plain * math.sqrt(ranking.samples / reference_worlds)
                adjusted = math.sqrt(ranking.standard_error**2 + reference_se**2)
                for name in ("all", "top") if position == 0 else ("all",):
                    counts[name][0] += error <= 2 * ranking.standard_error + 1e-12
                    counts[name][1] += error <= 2 * plain + 1e-12
                    counts[name][2] += 1
                    counts[name][3] += error <= 2 * adjusted + 1e-12
        row: dict[str, Any] = {
            "game": "adventure_tours",
            "cpu_budget_s": seconds,
            "seeds": f"{seeds[0]}-{seeds[-1]}",
            "reference_worlds": reference_worlds,
        }
        for name, (covered, covered_plain, n, covered_adjusted) in counts.items():
            row[f"{name}_n"] = n
            row[f"{name}_rate"] = covered / n if n else float("nan")
            row[f"{name}_rate_plain_se"] = covered_plain / n if n else float("nan")
            row[f"{name}_rate_ref_adjusted"] = covered_adjusted / n if n else float("nan")
        row["valued_without_se"] = no_se
        rows.append(row)
    return rows


def _chunks(text: str) -> Iterator[str]:
    return (part for part in text.split(",") if part)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="contract,deadline,coverage")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--budget", type=float, default=0.3, help="CPU seconds a contract hint")
    parser.add_argument("--deadlines", default="0.01,0.05,0.1", help="wall-clock budgets of the deadline runs")
    parser.add_argument("--deadline-positions", type=int, default=40)
    parser.add_argument("--coverage-positions", type=int, default=60)
    parser.add_argument("--coverage-budgets", default="0.05,0.3")
    parser.add_argument("--reference-worlds", type=int, default=300)
    parser.add_argument("--out", default="hint_trust")
    args = parser.parse_args(argv)
    freeze_long_lived_objects()  # as the service's workers do: no full collection walks the imports mid-hint
    games = list(_chunks(args.games))
    only = set(_chunks(args.only))
    out: dict[str, Any] = {}
    if "contract" in only:
        out["contract"] = contract(games, args.positions, args.budget)
        print_table("ranking contract (listings broken of hints)", out["contract"])
    if "deadline" in only:
        out["deadline"] = deadline(games, args.deadline_positions, [float(x) for x in _chunks(args.deadlines)])
        print_table("tiny deadlines (wall clock)", out["deadline"])
    if "coverage" in only and "adventure_tours" in games:
        out["coverage"] = coverage(
            args.coverage_positions, [float(x) for x in _chunks(args.coverage_budgets)], args.reference_worlds
        )
        print_table("coverage of value +- 2 SE (Adventure Tours)", out["coverage"])
    write_json(args.out, out)


if __name__ == "__main__":
    main()

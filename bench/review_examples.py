"""Seeded whole games of every title reviewed by the Review RPC: the examples of docs/review.md, and what a review
costs.

Each game is played through the service's NewGame and Play (as a thin client plays it: a move and a seed a call),
by a plain player (Camper Tour: the race rule of thumb; Campsite: best immediate gain; Adventure Tours: the greedy
rule; Happy Campers: the hint's second choice; Deluxe Camping: the bench's greedy player), with one deliberately bad
move, then reviewed in-process at the default CPU budget a decision (a generous deadline: the whole game). Prints each
game's totals and writes them to bench/results/review_examples.json.

    python -m bench.review_examples [--games camper-tour,campsite] [--out bench/results/review_examples.json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from campsolver.service import dispatch
from campsolver.service.games import review as review_service
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget
from google.protobuf import json_format

from campsolver.v1 import common_pb2

#: (players, NewGame seed, the record step of the deliberate bad move) per game.
GAMES: dict[str, tuple[int, int, int]] = {
    "camper-tour": (2, 3, 2),
    "campsite": (2, 2, 3),
    "happy-campers": (2, 4, 8),
    "adventure-tours": (3, 5, 0),
    "deluxe-camping": (2, 6, 25),
}


def _service(game: str) -> Any:
    import importlib

    from campsolver.service.registry import GAME_TABLE

    return importlib.import_module(f"campsolver.service.games.{GAME_TABLE[game][2]}")


def players_of(game: str) -> tuple[Callable[[Any], tuple[Any, ...]], Callable[[Any], tuple[Any, ...]]]:
    """(the plain player, the bad move) of a game, each a rules state -> one decision's actions."""
    if game == "camper-tour":
        from campsolver.solver.camper_tour.players import race
        from campsolver.solver.camper_tour.rules import TurnBack

        return (lambda s: (race(s),)), (lambda s: (TurnBack(),))
    if game == "campsite":
        from campsolver.solver.campsite import hint as cs_hints
        from campsolver.solver.campsite import rules as cs

        def greedy(s: Any) -> tuple[Any, ...]:
            seat = s.to_move
            placement, tent = cs_hints.greedy_play(s.table, s.hands[seat], s.tokens[seat], seat, s.players, Budget(5.0))
            return (cs.PlayCard(placement), cs.PitchTent(tent.token, tent.row, tent.col))

        def first(s: Any) -> tuple[Any, ...]:
            card = s.legal_actions()[0]
            return (card, s.child(card).legal_actions()[0])

        return greedy, first
    if game == "adventure-tours":
        from campsolver.solver.adventure_tours.hint import HintOptions, Objective, hint
        from campsolver.solver.adventure_tours.information import observe
        from campsolver.solver.adventure_tours.policies import greedy_action
        from campsolver.solver.adventure_tours.review import AdventureToursReview
        from campsolver.solver.core.budget import CpuBudget

        continues = AdventureToursReview(Objective.MARGIN, lambda *a: "").continues

        def worst(s: Any) -> tuple[Any, ...]:  # the play a well-sampled hint of its own values lowest
            result = hint(observe(s, s.current_player()), CpuBudget(2.0), options=HintOptions(seed=99, max_samples=60))
            return min((p for p in result.plays if p.samples), key=lambda p: p.value).play

        return (lambda s: review_service.first_moves(s, continues, greedy_action)), worst
    if game == "happy-campers":
        from campsolver.solver.core import review as core
        from campsolver.solver.core.budget import CpuBudget
        from campsolver.solver.happy_campers.review import HappyCampersReview

        def ranking(s: Any) -> Any:
            return HappyCampersReview(solo=False).rank(
                core.Decision(0, s.current_player(), s, (), s), CpuBudget(0.5), 3, ()
            )

        def second(s: Any) -> tuple[Any, ...]:  # a fair player: the hint's second valued choice
            valued = [c for c in ranking(s).choices if c.value is not None]
            return valued[min(1, len(valued) - 1)].actions

        return second, (lambda s: ranking(s).choices[-1].actions)  # the bad move: the screen's worst
    if game == "deluxe-camping":
        from campsolver.solver.deluxe_camping.players import greedy_player

        rng = np.random.default_rng(4)
        return (lambda s: (greedy_player(s, rng),)), (lambda s: (s.legal_actions()[-1],))
    raise KeyError(game)


def play(game: str) -> Any:
    """The seeded game's record through NewGame and Play (each step its move, seed and answered state)."""
    players, seed, bad_at = GAMES[game]
    commands = games()[game].commands
    codec = _service(game).REVIEW_CODEC
    choose, bad = players_of(game)
    new = dispatch.run(commands["new"], commands["new"].request_type(players=players, seed=seed), Budget(10))
    record = type(commands["review"].request_type().record)(start=new.state)
    state_proto = new.state
    while True:
        state = codec.parse_state(state_proto, "state")
        if state.current_player() < 0:
            return record
        index = len(record.steps)
        actions = bad(state) if index == bad_at else choose(state)
        move = codec.move_to_proto(state, actions)
        played = dispatch.run(
            commands["play"], commands["play"].request_type(state=state_proto, move=move, seed=1000 + index), Budget(10)
        )
        record.steps.add(move=move, seed=1000 + index, state=played.state)
        state_proto = played.state


def review(game: str, record: Any) -> dict[str, Any]:
    command = games()[game].commands["review"]
    request = command.request_type(record=record, options=common_pb2.SolveOptions(seed=1))
    started, cpu = time.monotonic(), time.process_time()
    response = dispatch.run(command, request, Budget(600.0))
    wall, cpu = time.monotonic() - started, time.process_time() - cpu
    steps = response.review.steps
    bad_at = GAMES[game][2]
    bad = next(s.decision for s in steps if s.WhichOneof("kind") == "decision" and s.record_step == bad_at)
    decisions = [s.decision for s in steps if s.WhichOneof("kind") == "decision"]
    return {
        "game": game,
        "players": GAMES[game][0],
        "new_game_seed": GAMES[game][1],
        "review_seed": 1,
        "record_steps": len(record.steps),
        "decisions": len(decisions),
        "ranked": sum(
            d.status in (common_pb2.REVIEW_STATUS_REVIEWED, common_pb2.REVIEW_STATUS_VALUE_MISSING) for d in decisions
        ),
        "decision_cpu_s": response.review.decision_cpu_seconds,
        "unit": response.review.unit,
        "complete": response.review.complete,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "bad_move": {
            "record_step": bad_at,
            "played": bad.played,
            "best": bad.best,
            "loss": bad.loss,
            "mark": common_pb2.ReviewMark.Name(bad.mark),
        },
        "players_review": [
            json_format.MessageToDict(p, always_print_fields_with_no_presence=True) for p in response.review.players
        ],
        "end_scores": list(response.review.end.scores),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--out", default="bench/results/review_examples.json")
    args = parser.parse_args()
    rows = []
    for game in args.games.split(","):
        row = review(game, play(game))
        rows.append(row)
        totals = "; ".join(
            f"player {p['player']}: total loss {p['totalLoss']:.3f} over {p['reviewed']} reviewed, "
            f"accuracy {p.get('accuracy', float('nan')):.0f}%, {p['mistakes']} mistakes, "
            f"{p['blunders']} blunders"
            for p in row["players_review"]
        )
        print(
            f"{game}: {row['decisions']} decisions ({row['ranked']} ranked), {row['cpu_s']} CPU-s, complete "
            f"{row['complete']}; bad move {row['bad_move']['played']!r} loss {row['bad_move']['loss']:.3f} "
            f"{row['bad_move']['mark']}; {totals}",
            flush=True,
        )
    out = Path(args.out)
    kept = json.loads(out.read_text())["rows"] if out.exists() else []  # other games' rows of an earlier run stay
    done = {row["game"] for row in rows}
    merged = [row for row in kept if row["game"] not in done] + rows
    merged.sort(key=lambda row: list(GAMES).index(row["game"]))
    out.write_text(json.dumps({"rows": merged}, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""Camper Tour: an example request for every RPC (`campsolver camper-tour <command> --example`, the tests)."""

from __future__ import annotations

from typing import Any

from campsolver.service.games import shared
from campsolver.service.games.camper_tour.convert import move_to_proto, state_from_proto, state_to_proto
from campsolver.service.games.camper_tour.handlers import new_game
from campsolver.solver.camper_tour.rules import Announce
from campsolver.solver.core.budget import Budget

from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2


def example_record(moves: int = 8, seed: int = 1) -> pb.CamperTourRecord:
    """A short seeded two-camper game as a NewGame/Play client keeps it: the start and `moves` Play calls, each
    the race rule of thumb's move (the first camper's third one a deliberate 10) and its seed."""
    from campsolver.solver.camper_tour.players import race

    start = state_from_proto(new_game(pb.CamperTourServiceNewGameRequest(players=2, seed=seed), Budget(1.0)).state)
    record = pb.CamperTourRecord(start=state_to_proto(start))
    state = start
    for step in range(moves):
        if state.game_over:
            break
        action = race(state)
        if step == 4 and Announce(10) in state.legal_actions():
            action = Announce(10)
        state = shared.resolve_chance(state.child(action), shared.seeded_rng(step + 1))
        record.steps.add(move=move_to_proto(action), seed=step + 1)
    return record


ALL_NORMAL_RULES = pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0)


def _example_state() -> pb.CamperTourState:
    return pb.CamperTourState(
        rules=ALL_NORMAL_RULES,
        campers=[
            pb.Camper(position=30, phase=pb.CAMPER_PHASE_RETURN, marker=41, tokens=9),
            pb.Camper(position=24, phase=pb.CAMPER_PHASE_OUTWARD, tokens=20),
        ],
        to_move=0,
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.CamperTourServiceHintRequest(
        state=_example_state(), options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    ),
    "MaxScore": lambda: pb.CamperTourServiceMaxScoreRequest(rules=ALL_NORMAL_RULES),
    "GeneratePuzzle": lambda: pb.CamperTourServiceGeneratePuzzleRequest(
        seed=7, options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    ),
    "Score": lambda: pb.CamperTourServiceScoreRequest(
        state=pb.CamperTourState(
            rules=ALL_NORMAL_RULES,
            campers=[
                pb.Camper(position=0, phase=pb.CAMPER_PHASE_FINISHED, marker=50, tokens=0, arrival=1),
                pb.Camper(position=12, phase=pb.CAMPER_PHASE_RETURN, marker=58, tokens=6),
            ],
            to_move=1,
        )
    ),
    "LegalMoves": lambda: pb.CamperTourServiceLegalMovesRequest(state=_example_state()),
    "NewGame": lambda: pb.CamperTourServiceNewGameRequest(players=2, seed=1),
    "Play": lambda: pb.CamperTourServicePlayRequest(
        state=_example_state(), move=move_to_proto(state_from_proto(_example_state()).legal_actions()[0]), seed=1
    ),
    "Review": lambda: pb.CamperTourServiceReviewRequest(
        record=example_record(),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
        options=common_pb2.SolveOptions(seed=1),
    ),
}

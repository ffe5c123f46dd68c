"""Deluxe Camping: an example request for every RPC (`campsolver deluxe-camping <command> --example`, the tests)."""

from __future__ import annotations

from typing import Any

from campsolver.service.games import review as reviews
from campsolver.service.games.deluxe_camping.convert import move_to_proto, state_from_proto, state_to_proto
from campsolver.service.games.deluxe_camping.handlers import REVIEW_CODEC
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.review import DeluxeCampingReview
from campsolver.solver.deluxe_camping.rules import Config

from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as pb


def example_state() -> pb.DeluxeCampingState:
    """A seeded 2-player opening on the default board, right after the reveal."""
    from campsolver.solver.core.seeding import rng_for

    return state_to_proto(rules.random_setup(Config(), rng_for(8, "deluxe-camping example")))


def _example_play() -> pb.DeluxeCampingServicePlayRequest:
    state = state_from_proto(example_state())
    return pb.DeluxeCampingServicePlayRequest(
        state=example_state(), move=move_to_proto(state.config, state.legal_actions()[0]), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.DeluxeCampingServiceHintRequest(
        state=example_state(), options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    ),
    "MaxScore": lambda: pb.DeluxeCampingServiceMaxScoreRequest(
        state=example_state(), options=common_pb2.SolveOptions(time_limit_seconds=5.0)
    ),
    "GeneratePuzzle": lambda: pb.DeluxeCampingServiceGeneratePuzzleRequest(
        seed=2, options=common_pb2.SolveOptions(time_limit_seconds=60.0)
    ),
    "Score": lambda: pb.DeluxeCampingServiceScoreRequest(state=example_state()),
    "LegalMoves": lambda: pb.DeluxeCampingServiceLegalMovesRequest(state=example_state()),
    "NewGame": lambda: pb.DeluxeCampingServiceNewGameRequest(players=2, seed=1),
    "Play": lambda: _example_play(),
    "Review": lambda: pb.DeluxeCampingServiceReviewRequest(
        record=example_record(),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.2),
        options=common_pb2.SolveOptions(seed=1),
    ),
}


def example_record(decisions: int = 4) -> pb.DeluxeCampingRecord:
    """The first turns of the seeded two-player opening of the other examples (right after the reveal), as a
    Play client keeps them: each decision the first legal movement or barrier, and a seed."""
    start = state_from_proto(example_state())
    return reviews.seeded_record(
        pb.DeluxeCampingRecord(), start, REVIEW_CODEC, DeluxeCampingReview().continues, decisions
    )

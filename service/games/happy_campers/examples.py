"""Happy Campers: an example request for every RPC (`campsolver happy-campers <command> --example`, the tests)."""

from __future__ import annotations

from typing import Any

from campsolver.service.games import review as reviews
from campsolver.service.games.happy_campers.convert import game_from_proto, placement_to_proto
from campsolver.service.games.happy_campers.handlers import REVIEW_CODEC, new_game
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers.review import HappyCampersReview

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb


def _example_score() -> pb.HappyCampersServiceScoreRequest:
    return pb.HappyCampersServiceScoreRequest(
        map=["TTTWW~~~~", "TTAAWE~..", "TTAAEEE..", ".........", "........."],
        challenges=[pb.CHALLENGE_PRIVACY, pb.CHALLENGE_RIVER_TOWN],
    )


def _example_legal() -> pb.HappyCampersServiceLegalMovesRequest:
    return pb.HappyCampersServiceLegalMovesRequest(
        map=[".........", "...TT....", "...AA....", ".........", "........."],
        roll=pb.HappyCampersRoll(first=4, second=2),
    )


def _example_max() -> pb.HappyCampersServiceMaxScoreRequest:
    rolls = [(4, 2), (1, 5), (3, 3), (2, 6), (5, 4), (1, 3), (6, 2), (4, 5), (2, 1), (3, 5)]
    return pb.HappyCampersServiceMaxScoreRequest(
        rolls=[pb.HappyCampersRoll(first=a, second=b) for a, b in rolls],
        challenges=[pb.CHALLENGE_PRIVACY],
        options=common_pb2.SolveOptions(time_limit_seconds=5.0),
    )


def _example_hint() -> pb.HappyCampersServiceHintRequest:
    return pb.HappyCampersServiceHintRequest(
        map=[".........", "...TT....", "...AA~~..", "....WE...", "........."],
        roll=pb.HappyCampersRoll(first=4, second=2),
        challenges=[pb.CHALLENGE_TENT_TOGETHER],
        options=common_pb2.SolveOptions(time_limit_seconds=1.0, seed=1),
    )


def _example_play() -> pb.HappyCampersServicePlayRequest:
    game = new_game(pb.HappyCampersServiceNewGameRequest(players=2, seed=1), Budget(1.0)).state
    first = game_from_proto(game).legal_actions()[0]
    return pb.HappyCampersServicePlayRequest(
        state=game, move=pb.HappyCampersHintMove(placements=[placement_to_proto(first)]), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": _example_hint,
    "GeneratePuzzle": lambda: pb.HappyCampersServiceGeneratePuzzleRequest(
        seed=2, rolls=6, options=common_pb2.SolveOptions(time_limit_seconds=60.0)
    ),
    "MaxScore": _example_max,
    "Score": _example_score,
    "LegalMoves": _example_legal,
    "NewGame": lambda: pb.HappyCampersServiceNewGameRequest(players=2, seed=1, challenges=[pb.CHALLENGE_PRIVACY]),
    "Play": lambda: _example_play(),
    "Review": lambda: pb.HappyCampersServiceReviewRequest(
        record=example_record(),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
        options=common_pb2.SolveOptions(seed=1),
    ),
}


def example_record(decisions: int = 4, seed: int = 1) -> pb.HappyCampersRecord:
    """A seeded two-player game's first drawings as a NewGame/Play client keeps them: each the first legal drawing,
    and the seed of the roll after it."""
    start = game_from_proto(new_game(pb.HappyCampersServiceNewGameRequest(players=2, seed=seed), Budget(1.0)).state)
    return reviews.seeded_record(
        pb.HappyCampersRecord(), start, REVIEW_CODEC, HappyCampersReview(solo=False).continues, decisions
    )

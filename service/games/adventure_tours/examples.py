"""Adventure Tours: an example request for every RPC (`campsolver adventure-tours <command> --example`, the tests)."""

from __future__ import annotations

from typing import Any

from campsolver.service.games import review as reviews
from campsolver.service.games.adventure_tours.convert import game_state_from_proto, state_to_proto, step_to_proto
from campsolver.service.games.adventure_tours.handlers import REVIEW_CODEC, new_game
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import puzzle as puzzles
from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.review import AdventureToursReview
from campsolver.solver.core.budget import Budget

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2


def example_state(*, hidden: bool) -> pb.AdventureToursState:
    """A late-round 3-player position (the seed-3 puzzle's); `hidden`: other hands given by size only."""
    state = puzzles.candidate(3, 5)
    assert state is not None
    message = state_to_proto(state)
    message.round = 1
    if hidden:
        del message.pile[:]
        for q, player in enumerate(message.players):
            if q != state.to_move:
                player.hand_size = len(player.hand)
                del player.hand[:]
    return message


def _example_max() -> pb.AdventureToursServiceMaxScoreRequest:
    return pb.AdventureToursServiceMaxScoreRequest(
        state=example_state(hidden=False), options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    )


def _example_play() -> pb.AdventureToursServicePlayRequest:
    game = new_game(pb.AdventureToursServiceNewGameRequest(players=3, seed=1), Budget(1.0)).state
    state = game_state_from_proto(game)
    return pb.AdventureToursServicePlayRequest(
        state=game, move=pb.AdventureMove(steps=[step_to_proto(state.legal_actions()[0])]), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.AdventureToursServiceHintRequest(
        state=example_state(hidden=True), options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    ),
    "MaxScore": _example_max,
    "GeneratePuzzle": lambda: pb.AdventureToursServiceGeneratePuzzleRequest(
        seed=3, options=common_pb2.SolveOptions(time_limit_seconds=20.0)
    ),
    "Score": lambda: pb.AdventureToursServiceScoreRequest(state=example_state(hidden=True)),
    "LegalMoves": lambda: pb.AdventureToursServiceLegalMovesRequest(state=example_state(hidden=True)),
    "NewGame": lambda: pb.AdventureToursServiceNewGameRequest(players=3, seed=1),
    "Play": lambda: _example_play(),
    "Review": lambda: pb.AdventureToursServiceReviewRequest(
        record=example_record(),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
        options=common_pb2.SolveOptions(seed=1),
    ),
}


def example_record(decisions: int = 4, seed: int = 1) -> pb.AdventureToursRecord:
    """A seeded three-player game's first plays as a NewGame/Play client keeps them: each the greedy rule's play
    and the seed of the draws after it."""
    start = game_state_from_proto(
        new_game(pb.AdventureToursServiceNewGameRequest(players=3, seed=seed), Budget(1.0)).state
    )
    adapter = AdventureToursReview(hints.Objective.MARGIN, puzzles.play_label)
    return reviews.seeded_record(
        pb.AdventureToursRecord(), start, REVIEW_CODEC, adapter.continues, decisions, choose=greedy_action
    )

"""Campsite: an example request for every RPC (`campsolver campsite <command> --example`, the tests)."""

from __future__ import annotations

from typing import Any

from campsolver.service.games import review as reviews
from campsolver.service.games.campsite.convert import game_from_proto, play_label, play_to_proto
from campsolver.service.games.campsite.handlers import REVIEW_CODEC, new_game
from campsolver.solver.campsite import rules
from campsolver.solver.campsite.review import CampsiteReview
from campsolver.solver.campsite.rules import Tent
from campsolver.solver.core.budget import Budget

from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2


def _card(text: str) -> pb.CampsiteCard:
    return pb.CampsiteCard(text=text)


def example_turn() -> pb.CampsiteTurnState:
    """A small table: the two starting cards, one more card, a tent of each seat; seat 0 to play."""
    return pb.CampsiteTurnState(
        table=pb.CampsiteTable(
            placements=[
                pb.CampsitePlacement(card=_card("DW ##./... x2"), row=0, col=0),
                pb.CampsitePlacement(card=_card("MW ..#/#.."), row=0, col=3),
                pb.CampsitePlacement(card=_card("FT ###/.#."), row=2, col=1, rotation=0),
            ],
            tents=[
                pb.CampsiteTent(player=0, token=pb.TENT_TOKEN_WATER, row=1, col=1),
                pb.CampsiteTent(player=1, token=pb.TENT_TOKEN_MEADOW, row=1, col=4),
            ],
        ),
        hand=[_card("WP #.#/##."), _card("DM .#./###"), _card("FT #../... x2")],
        player=0,
        players=2,
    )


def _example_play() -> pb.CampsiteServicePlayRequest:
    game = new_game(pb.CampsiteServiceNewGameRequest(players=2, seed=1), Budget(1.0)).state
    state = game_from_proto(game)
    card = next(a for a in state.legal_actions() if isinstance(a, rules.PlayCard))
    laid = state.child(card)
    tent = laid.legal_actions()[0]
    return pb.CampsiteServicePlayRequest(
        state=game, move=play_to_proto(card.placement, Tent(laid.to_move, tent.token, tent.row, tent.col)), seed=1
    )


EXAMPLES: dict[str, Any] = {
    "Hint": lambda: pb.CampsiteServiceHintRequest(
        state=example_turn(), top=5, options=common_pb2.SolveOptions(time_limit_seconds=5.0)
    ),
    "MaxScore": lambda: pb.CampsiteServiceMaxScoreRequest(
        turn=example_turn(), options=common_pb2.SolveOptions(time_limit_seconds=10.0)
    ),
    "GeneratePuzzle": lambda: pb.CampsiteServiceGeneratePuzzleRequest(
        seed=7, options=common_pb2.SolveOptions(time_limit_seconds=20.0)
    ),
    "Score": lambda: pb.CampsiteServiceScoreRequest(table=example_turn().table, players=2),
    "LegalMoves": lambda: pb.CampsiteServiceLegalMovesRequest(state=example_turn()),
    "NewGame": lambda: pb.CampsiteServiceNewGameRequest(players=2, seed=1),
    "Play": lambda: _example_play(),
    "Review": lambda: pb.CampsiteServiceReviewRequest(
        record=example_record(),
        review=common_pb2.ReviewOptions(decision_cpu_seconds=0.3),
        options=common_pb2.SolveOptions(seed=1),
    ),
}


def example_record(decisions: int = 4, seed: int = 1) -> pb.CampsiteRecord:
    """A seeded two-player game's first turns as a NewGame/Play client keeps them: each turn the first legal card
    placement and tent, and the seed of its draw."""
    start = game_from_proto(new_game(pb.CampsiteServiceNewGameRequest(players=2, seed=seed), Budget(1.0)).state)
    return reviews.seeded_record(
        pb.CampsiteRecord(), start, REVIEW_CODEC, CampsiteReview(True, play_label).continues, decisions
    )

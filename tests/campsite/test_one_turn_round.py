"""A one-turn solo round enumerates every legal play, so with the time to finish it is a proof: EXACT, within its
bound, and the score the best of every (placement, token, square) played through the rules model. Found by
the mutation run: the finished one-turn round labelled FEASIBLE_WITH_BOUND (a lost proof), and the service's
method label read off the wrong turn count, survived every test."""

from __future__ import annotations

import pytest
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.best_round import best_round
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

from tests.campsite.test_best_round import dense_order, replay_score


@pytest.mark.parametrize("seed", [0, 3])
def test_a_finished_one_turn_round_is_exact_and_the_best_play(seed: int) -> None:
    order = dense_order(seed)
    tokens = [R.Token.WATER, R.Token.FOREST]
    result = best_round(order, 1, Budget(120), hand_size=2, tokens=tokens)
    table = R.starting_table(order[0], order[1])
    best = max(R.player_scores(table.place(p).pitch(t), 1)[0] for p, t in R.iter_turn_plays(table, order[2:4], tokens))
    assert (result.proof, result.interrupted) == (Proof.EXACT, False)
    assert result.score == best <= result.bound
    assert replay_score(order, result.plays, 2, tokens) == result.score


def test_the_service_names_a_one_turn_round_an_exact_enumeration() -> None:
    """On the wire the stats say how the round was found: a finished one-turn round by exact enumeration, as EXACT."""
    from campsolver.service.games import campsite as cs_service

    from campsolver.v1 import common_pb2
    from tests.test_proof_claims import _cs_round_request

    response = cs_service.max_score(_cs_round_request(1, seed=4), Budget(60))
    assert (response.proof, response.stats.method) == (common_pb2.PROOF_STATUS_EXACT, "exact enumeration")

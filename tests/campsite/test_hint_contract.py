"""Campsite hints as a client gets them: ranks agree with the values shown (loss = best - value), every play
legal by the rules model, and at a tiny deadline still a ranked answer (not DEADLINE_EXCEEDED, not empty); a
tiny-deadline MaxScore answers its best play so far with a bound."""

from __future__ import annotations

import re

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import campsite as service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.solver.campsite.hint import MAX_WORLDS

from bench.hint_trust import cs_request
from campsolver.v1 import campsite_pb2 as pb
from campsolver.v1 import common_pb2


def _check_legal(turn: service.Turn, play: pb.CampsitePlay) -> None:
    placement = service.placement_from_proto(play.placement, "placement")
    tent = service.tent_from_proto(play.tent, "tent")
    assert placement.card in turn.hand and tent.token in turn.tokens and tent.player == turn.player
    turn.table.place(placement).pitch(tent)  # raises IllegalMove if the rules model refuses it


@pytest.mark.parametrize("seconds", [0.001, 0.05, 0.5])
def test_seeded_hints_keep_the_ranking_contract_and_answer_in_time(client: CampsolverClient, seconds: float) -> None:
    for seed in range(6):
        request = cs_request(seed, seconds)
        response = client.campsite.hint(request, timeout=30)
        assert response.alternatives, f"seed {seed}: no play at {seconds} s"
        assert ranking_contract_violations([a.ranking for a in response.alternatives]) == [], f"seed {seed}"
        turn = service.Turn(request.state, "state")
        for alternative in response.alternatives:
            _check_legal(turn, alternative.play)
        if response.stats.fallback:  # no time left to search: the one-ply ranking of every play
            assert response.stats.interrupted and response.alternatives[0].ranking.note.startswith("one-ply")
        # A look-ahead that played deals is interrupted exactly when the budget ended it before its last deal.
        deals = re.search(r"looked ahead in (\d+) sampled deals", response.stats.method)
        if deals:
            assert response.stats.interrupted == (int(deals.group(1)) < MAX_WORLDS), response.stats.method


def test_a_tiny_deadline_max_answers_best_so_far_with_a_sound_bound(client: CampsolverClient) -> None:
    request = pb.CampsiteServiceMaxScoreRequest(
        turn=cs_request(4, 0.0).state, options=common_pb2.SolveOptions(time_limit_seconds=0.001)
    )
    cut = client.campsite.max_score(request, timeout=10)
    request.options.time_limit_seconds = 20
    full = client.campsite.max_score(request, timeout=30)
    assert full.proof == common_pb2.PROOF_STATUS_EXACT
    assert cut.plays and cut.score <= full.score <= cut.stats.bound
    _check_legal(service.Turn(request.turn, "turn"), cut.plays[0])
    if cut.stats.interrupted:
        assert cut.proof == common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND


def test_the_turn_ceiling_is_never_below_the_best_play() -> None:
    from campsolver.solver.campsite.evaluate import best_turn_search, turn_upper_bound
    from campsolver.solver.core.budget import Budget

    for seed in range(12):
        turn = service.Turn(cs_request(seed, 0.0).state, "state")
        search = best_turn_search(turn.table, turn.hand, turn.tokens, turn.player, turn.players, Budget(30))
        assert not search.interrupted
        assert search.plays[0].score <= turn_upper_bound(turn.table, turn.hand, turn.tokens, turn.player), seed


@pytest.mark.parametrize("turns", [1, 7])
def test_a_tiny_deadline_round_max_answers_a_whole_round_with_its_bound(turns: int) -> None:
    import random

    from campsolver.solver.campsite import rules
    from campsolver.solver.core.budget import Budget

    deck = list(rules.default_deck())
    random.Random(turns).shuffle(deck)
    request = pb.CampsiteServiceMaxScoreRequest(
        round=pb.CampsiteRound(order=[service.card_to_proto(c) for c in deck[:12]], turns=turns),
        options=common_pb2.SolveOptions(time_limit_seconds=0.001),
    )
    response = service.max_score(request, Budget(0.001))
    assert len(response.plays) == turns
    assert response.score <= response.stats.bound
    table = rules.starting_table(deck[0], deck[1])
    for play in response.plays:  # the rules model replays the round
        table = table.place(service.placement_from_proto(play.placement, "p")).pitch(
            service.tent_from_proto(play.tent, "t")
        )
    assert rules.player_scores(table, 1)[0] == response.score
    if response.stats.interrupted:
        assert response.proof in (common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND, common_pb2.PROOF_STATUS_EXACT)

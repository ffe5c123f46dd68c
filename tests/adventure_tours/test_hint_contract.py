"""Adventure Tours hints as a client gets them: ranks agree with the values shown, no standard error from fewer
than 10 samples, every move legal, and an answer (not DEADLINE_EXCEEDED) at a tiny deadline."""

from __future__ import annotations

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.dispatch import MIN_SEARCH_S
from campsolver.service.games.shared import ranking_contract_violations

from bench.hint_trust import at_request
from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2


def _legal(client: CampsolverClient, request: pb.AdventureToursServiceHintRequest) -> set[bytes]:
    legal = client.adventure_tours.legal_moves(
        pb.AdventureToursServiceLegalMovesRequest(state=request.state), timeout=30
    )
    return {m.SerializeToString(deterministic=True) for m in legal.moves}


@pytest.mark.parametrize("seconds", [0.02, 0.1, 0.3])
def test_seeded_hints_keep_the_ranking_contract(client: CampsolverClient, seconds: float) -> None:
    """Every legal play listed, ranks by value; below `dispatch.MIN_SEARCH_S` the rule of thumb's answer (nothing
    sampled), above it the Monte Carlo path."""
    sampled = 0
    for seed in range(6):
        request = at_request(seed, seconds)
        response = client.adventure_tours.hint(request, timeout=30)
        rankings = [a.ranking for a in response.alternatives]
        assert ranking_contract_violations(rankings) == [], f"seed {seed}"
        legal = _legal(client, request)
        assert {a.move.SerializeToString(deterministic=True) for a in response.alternatives} == legal
        sampled += sum(r.sampled for r in rankings)
    if seconds >= 2 * MIN_SEARCH_S:
        assert sampled, "no sampled value in 6 positions: the Monte Carlo path went untested"


def test_a_tiny_deadline_still_answers_with_a_legal_move(client: CampsolverClient) -> None:
    request = at_request(3, 0.001)
    response = client.adventure_tours.hint(request, timeout=10)
    assert response.alternatives
    assert ranking_contract_violations([a.ranking for a in response.alternatives]) == []
    assert response.alternatives[0].move.SerializeToString(deterministic=True) in _legal(client, request)


def test_a_tiny_deadline_max_answers_best_so_far_with_its_bound(client: CampsolverClient) -> None:
    from campsolver.service.games.adventure_tours import EXAMPLES

    request = EXAMPLES["MaxScore"]()
    request.options.time_limit_seconds = 0.001
    response = client.adventure_tours.max_score(request, timeout=10)
    assert response.line, "no best-so-far line"
    assert response.stats.bound >= response.value
    assert response.proof in (common_pb2.PROOF_STATUS_EXACT, common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND)


def test_the_leaders_standard_error_allows_for_the_winners_curse() -> None:
    """Two plays equal in truth: the leader's SE is widened by the paired SE of the difference; a play clearly
    beaten does not widen it."""
    import random

    from campsolver.solver.adventure_tours import hint as hints

    rng = random.Random(5)
    worlds = [rng.gauss(0, 3) for _ in range(40)]
    tied = [[w + rng.gauss(0, 1) for w in worlds] for _ in range(2)]
    beaten = [w - 10 + rng.gauss(0, 1) for w in worlds]

    def ranked(samples: list[list[float]]) -> list[hints.RankedPlay]:
        return [
            hints.RankedPlay(
                choice=(), value=sum(s) / len(s), standard_error=hints.reported_standard_error(s), samples=len(s)
            )
            for s in samples
        ]

    close = ranked([*tied, beaten])
    leader = max(range(2), key=lambda i: close[i].value)
    own = close[leader].standard_error
    hints._widen_for_selection(close, [*tied, beaten])
    assert close[leader].standard_error > own
    assert close[1 - leader].standard_error == hints.reported_standard_error(tied[1 - leader])
    clear = ranked([tied[0], beaten])
    own = clear[0].standard_error
    hints._widen_for_selection(clear, [tied[0], beaten])
    assert clear[0].standard_error == own

"""What Happy Campers' MaxScore claims when CP-SAT finds no map before the deadline: the answer is the fallback
made before any search (the start map for the absolute maximum, the rule of thumb's play for the clairvoyant
one), and neither is a proof: HEURISTIC for the start map, FEASIBLE_WITH_BOUND with the analytic bound for the
play. The search is made to find nothing by answering its wait with "no result" (`_within` returning None, as at
a deadline), so the claim is tested without racing a clock. Found by the mutation run: the start-map fallback
labelled OPTIMAL survived every test."""

from __future__ import annotations

import pytest
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers import rules

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb


@pytest.fixture
def no_search_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hc_service, "_within", lambda budget, search: None)


def test_the_absolute_fallback_is_the_start_map_and_heuristic(no_search_result: None) -> None:
    start = [".........", "...TT....", "...AA....", ".........", "........."]
    request = pb.HappyCampersServiceMaxScoreRequest(start_map=start, mode=pb.MAX_MODE_ABSOLUTE)
    response = hc_service.max_score(request, Budget(5.0))
    assert list(response.final_map) == start
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    assert response.stats.interrupted


def test_the_clairvoyant_fallback_is_feasible_with_its_bound(no_search_result: None) -> None:
    request = hc_service._example_max()
    response = hc_service.max_score(request, Budget(5.0))
    assert response.proof == common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND
    assert response.stats.HasField("bound") and response.stats.bound >= response.score
    grid = hc_service.grid_from_rows(list(response.final_map), rules.DEFAULT_COMPONENTS, "final_map")
    challenges = [hc_service.CHALLENGE_FROM_PROTO[c] for c in request.challenges]
    assert rules.score(grid, challenges).total == response.score

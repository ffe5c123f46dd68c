"""What Happy Campers' MaxScore claims when CP-SAT finds no map before the deadline: the answer is the fallback
made before any search (the start map for the absolute maximum, the rule of thumb's play for the clairvoyant
one), and neither is a proof: HEURISTIC for the start map, FEASIBLE_WITH_BOUND with the analytic bound for the
play. The search is made to find nothing by answering its wait with "no result" (`_within` returning None, as at
a deadline), so the claim is tested without racing a clock. The same for an incomplete map found by a search
stopped before its proof. Found by the mutation run: the start-map fallback labelled OPTIMAL, and the incomplete
map's claim read off the wrong side of its bound test, survived every test."""

from __future__ import annotations

import dataclasses

import pytest
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from campsolver.solver.happy_campers import maximise, rules
from campsolver.solver.happy_campers.rules import Components
from ortools.sat.python import cp_model

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


def test_an_unclosed_incomplete_map_answer_is_feasible_with_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two rolls cannot complete a 3x4 map (no complete map: phase A infeasible), so the answer is an incomplete
    map worth 0 from phase B. With phase B's search stopped before its proof (its OPTIMAL read as FEASIBLE), the
    answer claims FEASIBLE_WITH_BOUND with the bound 0, never OPTIMAL nor a bare HEURISTIC."""
    real = maximise.solve
    statuses: list[int] = []

    def stopped_after_phase_a(model, budget, *args, **kwargs):
        result = real(model, budget, *args, **kwargs)
        statuses.append(result.status)
        if result.status == cp_model.OPTIMAL:  # only phase B finds a map here
            result = dataclasses.replace(result, status=cp_model.FEASIBLE, proof=Proof.FEASIBLE_WITH_BOUND)
        return result

    monkeypatch.setattr(maximise, "solve", stopped_after_phase_a)
    found = maximise.clairvoyant_max(None, [(1, 2), (3, 4)], (), Components(rows=3, cols=4), Budget(30.0))
    assert statuses[-1] == cp_model.OPTIMAL and cp_model.OPTIMAL not in statuses[:-1], statuses
    assert (found.score, found.proof, found.bound) == (0, Proof.FEASIBLE_WITH_BOUND, 0)

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
    monkeypatch.setattr(hc_service.handlers, "_within", lambda budget, search: None)


def test_the_absolute_fallback_is_the_start_map_and_heuristic(no_search_result: None) -> None:
    start = [".........", "...TT....", "...AA....", ".........", "........."]
    request = pb.HappyCampersServiceMaxScoreRequest(start_map=start, mode=pb.MAX_MODE_ABSOLUTE)
    response = hc_service.max_score(request, Budget(5.0))
    assert list(response.final_map) == start
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    assert response.stats.interrupted


def test_the_clairvoyant_fallback_is_feasible_with_its_bound(no_search_result: None) -> None:
    request = hc_service.examples._example_max()
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


# --- The start map as the absolute maximum's answer: OPTIMAL only on a closed search below ---------------------

#: An incomplete start map (no toilets, no water): untouched, it is a legal outcome worth 0.
INCOMPLETE_START = [".........", "...TT....", "...AA....", "...EE....", "........."]


def _search_below(monkeypatch: pytest.MonkeyPatch, proof: Proof, score: int, bound: int) -> list[int]:
    """Make `absolute_max`'s search answer a complete map worth `score` with `proof` and `bound`: the search below
    the start-map fallback stopped with only a bound (or closed), whatever the clock says. Returns the call log."""
    calls: list[int] = []

    def answered(problem, budget, builder, **kwargs):
        calls.append(1)
        grid = rules.parse_grid("TTWW~~AAE\nTTWW~~AAE\n.........\n.........\n.........")
        breakdown = rules.score(grid, problem.challenges, problem.components)
        return maximise.MaxResult(score, proof, bound, grid, (), breakdown, maximise.SolveStats(0.0, 0, 0, 1), problem)

    monkeypatch.setattr(maximise, "_maximise", answered)
    return calls


def test_the_start_map_is_not_called_optimal_when_the_search_below_had_only_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search found only a map worth -3 and proved the bound 5: the start map's 0 is the best known answer,
    but a map worth up to 5 may exist, so the answer is FEASIBLE_WITH_BOUND with the bound 5, in the library and
    on the wire (a server solving in this process). Forced by replacing the search's answer; the same start map
    with the search closed (OPTIMAL at -3: every complete map below 0) is OPTIMAL, so the forcing is what
    changed the claim."""
    from tests.conftest import serving

    calls = _search_below(monkeypatch, Proof.FEASIBLE_WITH_BOUND, -3, 5)
    start = rules.parse_grid("\n".join(INCOMPLETE_START))
    found = maximise.absolute_max(start_grid=start, budget=Budget(5.0))
    assert calls and found.grid == start and found.score == 0
    assert (found.proof, found.bound) == (Proof.FEASIBLE_WITH_BOUND, 5)
    request = pb.HappyCampersServiceMaxScoreRequest(start_map=INCOMPLETE_START, mode=pb.MAX_MODE_ABSOLUTE)
    with serving(workers=1, solve_in_process=True) as client:
        response = client.happy_campers.max_score(request, timeout=60)
        assert list(response.final_map) == INCOMPLETE_START and response.score == 0
        assert common_pb2.ProofStatus.Name(response.proof) == "PROOF_STATUS_FEASIBLE_WITH_BOUND"
        assert response.stats.bound == 5
        _search_below(monkeypatch, Proof.OPTIMAL, -3, -3)
        closed = client.happy_campers.max_score(request, timeout=60)
    assert common_pb2.ProofStatus.Name(closed.proof) == "PROOF_STATUS_OPTIMAL" and closed.score == 0

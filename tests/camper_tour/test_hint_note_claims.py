"""A Camper Tour hint's note says "exact" only when its answer is EXACT: a depth-limited expected-score search
(solo values at its leaves, HEURISTIC) says it is a depth-N search; an EXACT MaxScore states a standard error of 0.
Found by the mutation run: the two notes swapped, and the standard error's test inverted, survived every test."""

from __future__ import annotations

from campsolver.service.games import camper_tour as ct_service
from campsolver.solver.core.budget import CpuBudget

from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import common_pb2


def test_a_depth_limited_hint_does_not_call_itself_exact() -> None:
    request = ct_pb.CamperTourServiceHintRequest(
        state=ct_pb.CamperTourState(
            rules=ct_pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0),
            campers=[ct_pb.Camper(position=10, tokens=20), ct_pb.Camper(position=12, tokens=20)],
        ),
        depth=1,
        objective=common_pb2.OBJECTIVE_EXPECTED_SCORE,
    )
    response = ct_service.hint(request, CpuBudget(2.0))
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    assert "exact" not in response.note.lower() and "depth-1 search" in response.note, response.note


def test_an_exact_max_states_a_standard_error_of_zero() -> None:
    """An EXACT expected score is no estimate: its standard error is stated as 0 (the ranking contract)."""
    response = ct_service.max_score(ct_service.EXAMPLES["MaxScore"](), CpuBudget(5.0))
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    assert response.HasField("standard_error") and response.standard_error == 0.0

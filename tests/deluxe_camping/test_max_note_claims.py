"""A Deluxe Camping MaxScore's note matches its proof: an OPTIMAL answer states its value, an unproven one also its
proven bound. Found by the mutation run: the bound's test negated (the bound put on proven answers, left off
unproven ones) survived every test."""

from __future__ import annotations

from campsolver.service.games import deluxe_camping as dc_service
from campsolver.solver.core.budget import Budget

from campsolver.v1 import common_pb2


def test_an_optimal_max_note_states_no_open_bound() -> None:
    response = dc_service.max_score(dc_service.EXAMPLES["MaxScore"](), Budget(60.0))
    assert response.proof == common_pb2.PROOF_STATUS_OPTIMAL
    assert f": {response.value};" in response.note and "proven bound" not in response.note, response.note

"""A Deluxe Camping MaxScore without a partition says why, and only a proof may say that none exists: "no
partition exists" for an INFEASIBLE verdict, "no partition found within the budget" when the search found
nothing and proved nothing. The solver's answer is stood in for (`maxima.maximise` returning that verdict), so the
claim is tested without racing a clock. Found by the mutation run: the two notes swapped survived every test."""

from __future__ import annotations

import pytest
from campsolver.service.games import deluxe_camping as dc_service
from campsolver.solver.core.budget import Budget
from campsolver.solver.deluxe_camping import maximise as maxima

from campsolver.v1 import common_pb2


@pytest.mark.parametrize(
    ("proof", "wire", "note"),
    [
        (None, common_pb2.PROOF_STATUS_UNSPECIFIED, "no partition found within the budget"),
        (maxima.Proof.INFEASIBLE, common_pb2.PROOF_STATUS_INFEASIBLE, "no partition exists"),
    ],
)
def test_no_partition_is_a_proof_only_when_proven(
    monkeypatch: pytest.MonkeyPatch, proof: maxima.Proof | None, wire: int, note: str
) -> None:
    def answer(state, budget, *, player, objective, seed):
        return maxima.MaxResult(None, objective, player, None, None, proof, 0.0, 0, 0, proof is None)

    monkeypatch.setattr(dc_service.handlers.maxima, "maximise", answer)
    response = dc_service.max_score(dc_service.EXAMPLES["MaxScore"](), Budget(5.0))
    assert (response.proof, response.note) == (wire, note)

"""Running out of time while generating a puzzle is DEADLINE_EXCEEDED, never a bad-argument error."""

from __future__ import annotations

import pytest
from campsolver.service import dispatch
from campsolver.service.errors import DeadlineExceeded
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget

from campsolver.v1 import deluxe_camping_pb2 as pb


@pytest.mark.parametrize("seconds", [0.05, 0.3])
def test_a_tight_puzzle_budget_is_deadline_exceeded_not_a_bad_grade(seconds: float) -> None:
    command = games()["deluxe-camping"].commands["puzzle"]
    request = pb.DeluxeCampingServiceGeneratePuzzleRequest(seed=2)
    with pytest.raises(DeadlineExceeded):
        dispatch.run(command, request, Budget(seconds))


def test_candidates_left_undecided_for_lack_of_time_are_not_reported_as_no_puzzle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every candidate's solve stopped before a proof (as with a 2 s budget on a loaded machine, where 6 in 10 calls
    answered INVALID_ARGUMENT 'grade: no puzzle of that grade' though no grade was asked): DEADLINE_EXCEEDED."""
    from campsolver.solver.core.proof import Proof
    from campsolver.solver.deluxe_camping import maximise
    from campsolver.solver.deluxe_camping import puzzle as puzzles

    def out_of_time(state, budget, *, player, **_kwargs):  # type: ignore[no-untyped-def]
        return maximise.MaxResult(
            partition=None,
            objective=maximise.Objective.OWN,
            player=player,
            value=None,
            bound=99.0,
            proof=Proof.HEURISTIC,
            wall_time_s=0.0,
            branches=0,
            conflicts=0,
            interrupted=True,
        )

    monkeypatch.setattr(puzzles.maxima, "maximise", out_of_time)
    command = games()["deluxe-camping"].commands["puzzle"]
    with pytest.raises(DeadlineExceeded):
        dispatch.run(command, pb.DeluxeCampingServiceGeneratePuzzleRequest(seed=2), Budget(30))

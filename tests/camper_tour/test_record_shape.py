"""Every decision of a Camper Tour hint's game record is a move the rules know, read by the hint or not: an
announcement out of range at an index the hint does not read is INVALID_ARGUMENT naming that move's field."""

from __future__ import annotations

import pytest
from campsolver.service.errors import InvalidArgument
from campsolver.service.games import camper_tour as ct_service
from campsolver.solver.camper_tour.opponents import record_window

from campsolver.v1 import camper_tour_pb2 as ct
from tests.test_service_games import _solo_policy_record


def test_an_unread_decision_with_an_impossible_move_is_refused_by_its_field() -> None:
    history, state = _solo_policy_record(6)
    request = ct.CamperTourServiceHintRequest(state=state, history=history)
    rules_state = ct_service.convert._decision_state(state)
    read = ct_service.history_from_proto(request, rules_state)
    assert len(read) < len(history), "the case needs a decision the hint does not read"
    unread = next(
        i
        for i in range(len(history))
        if history[i].move.WhichOneof("choice") == "announce"
        and i not in record_window([d.state.to_move for d in history], rules_state)
    )
    request.history[unread].move.announce = 12
    with pytest.raises(InvalidArgument) as refused:
        ct_service.history_from_proto(request, rules_state)
    assert [v.field for v in refused.value.violations] == [f"history[{unread}].move.announce"]

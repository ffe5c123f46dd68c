"""Before one CLI call, Camper Tour builds the best response's tables (1-3 s, outside the call's time limit) only
for a request that can use them; a server builds everything before it reports SERVING."""

from __future__ import annotations

from unittest import mock

import pytest
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games.camper_tour import handlers

from campsolver.v1 import camper_tour_pb2 as ct
from tests.test_service_games import _solo_policy_record


def _hint(campers: int, with_record: bool) -> ct.CamperTourServiceHintRequest:
    history, state = _solo_policy_record(6)
    assert len(state.campers) == 3
    request = ct.CamperTourServiceHintRequest(state=state, history=history if with_record else [])
    del request.state.campers[campers:]
    return request


@pytest.mark.parametrize(
    ("request_", "builds"),
    [
        (None, True),  # the server's warm-up: everything
        (_hint(3, with_record=True), True),
        (_hint(3, with_record=False), False),
        (_hint(2, with_record=True), False),  # two campers: the last-camper rule decides, no best response
        (ct_service.EXAMPLES["Hint"](), False),
        (ct_service.EXAMPLES["MaxScore"](), False),
        (ct.CamperTourServiceReviewRequest(record=ct.CamperTourRecord(start=_hint(3, False).state)), True),
        (ct_service.EXAMPLES["Review"](), len(ct_service.EXAMPLES["Review"]().record.start.campers) >= 3),
    ],
)
def test_the_best_responses_tables_are_built_only_for_a_request_that_can_use_them(request_, builds) -> None:
    with mock.patch.object(handlers.best_response, "warm_up") as warm:
        if request_ is None:
            handlers.warm_up()
        else:
            handlers.warm_up(request_)
    assert warm.called is builds

"""Deluxe Camping hints as a client gets them: ranks agree with the values shown (values of a shallower kind
go to the note, not the value), every choice legal, and a tiny deadline still answers, the rule of thumb's
choice first and flagged when nothing was valued."""

from __future__ import annotations

from campsolver.clients.client import CampsolverClient
from campsolver.service.games import deluxe_camping as service
from campsolver.service.games.shared import ranking_contract_violations

from bench.hint_trust import dc_request


def test_seeded_hints_keep_the_ranking_contract(client: CampsolverClient) -> None:
    noted = 0
    for seed in range(5):
        request = dc_request(seed, 0.3)
        response = client.deluxe_camping.hint(request, timeout=30)
        assert ranking_contract_violations([a.ranking for a in response.alternatives]) == [], f"seed {seed}"
        state = service.state_from_proto(request.state)
        legal = {service.move_to_proto(state.config, a).SerializeToString(deterministic=True)
                 for a in state.legal_actions()}
        assert {a.move.SerializeToString(deterministic=True) for a in response.alternatives} == legal
        noted += sum("not comparable with the ranked values above" in a.ranking.note for a in response.alternatives)
    assert noted, "no shallower value moved to a note in 5 positions: that path went untested"


def test_a_tiny_deadline_still_answers(client: CampsolverClient) -> None:
    request = dc_request(1, 0.001)
    response = client.deluxe_camping.hint(request, timeout=10)
    assert response.alternatives
    assert ranking_contract_violations([a.ranking for a in response.alternatives]) == []
    first = response.alternatives[0].ranking
    assert first.HasField("value") or first.note.startswith("rule of thumb")

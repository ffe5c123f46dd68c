"""The hint contract a game client relies on, checked on the wire for every game.

- Ranks agree with what is shown: among the moves listed with a value, rank order is value order and
  loss = best - value; a move without a value says why; no standard error from too few samples.
- A hint always answers while a legal move exists: with no time to search it answers its rule of thumb's move,
  flagged in `stats.fallback`, and that move is legal.
"""

from __future__ import annotations

import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service import dispatch
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.service.registry import games

from campsolver.v1 import common_pb2

GAMES = list(games())
#: Seeds and budgets of the on-the-wire contract check (small: the per-game tests cover more positions).
SEEDS = (0, 1, 2)
TIME_LIMITS_S = (0.05, 0.3)
#: Games whose LegalMoves list moves of the same message type as the hint's alternatives.
SAME_MOVE_TYPE = {"deluxe-camping", "camper-tour", "adventure-tours"}


def _hint(client: CampsolverClient, game_name: str, request: object) -> object:
    service = getattr(client, game_name.replace("-", "_"))
    return service.hint(request, timeout=60)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("time_limit_s", TIME_LIMITS_S)
def test_ranks_agree_with_the_values_shown(client: CampsolverClient, game_name: str, time_limit_s: float) -> None:
    example = games()[game_name].commands["hint"].example
    assert example is not None
    for seed in SEEDS:
        request = example()
        request.options.CopyFrom(common_pb2.SolveOptions(time_limit_seconds=time_limit_s, seed=seed))
        response = _hint(client, game_name, request)
        rankings = [alternative.ranking for alternative in response.alternatives]
        assert rankings, f"{game_name} seed {seed}: no move listed"
        assert ranking_contract_violations(rankings) == [], f"{game_name} seed {seed} at {time_limit_s} s"


@pytest.mark.parametrize("game_name", GAMES)
def test_with_no_time_to_search_the_hint_answers_its_rule_of_thumb(client: CampsolverClient, game_name: str) -> None:
    command = games()[game_name].commands["hint"]
    assert command.example is not None
    request = command.example()
    response = dispatch.rule_of_thumb_answer(command, request, dispatch.NO_STEP)
    assert response is not None, f"{game_name}: the hint refuses to answer with an expired budget"
    assert response.stats.fallback == dispatch.NO_STEP and response.stats.interrupted
    rankings = [alternative.ranking for alternative in response.alternatives]
    assert rankings, f"{game_name}: the rule of thumb's answer lists no move"
    assert ranking_contract_violations(rankings) == []
    if game_name in SAME_MOVE_TYPE:
        service = getattr(client, game_name.replace("-", "_"))
        legal_type = games()[game_name].commands["legal"].request_type
        legal = service.legal_moves(legal_type(state=request.state), timeout=30)
        assert response.alternatives[0].move in list(legal.moves)

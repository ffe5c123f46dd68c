"""The hint's rule-of-thumb answer, which the service sends when no time is left to search (a loaded machine, a
short deadline): every legal choice listed exactly once and legal in the rules model, the rule of thumb's choice
first and flagged, no value anywhere, the ranking contract kept. The answer is written in place (`write_move`,
cached square names): those writers are checked against the messages built field by field.

Its CPU is a bench figure, not a test (`bench/deluxe_camping_fallback.py`)."""

from __future__ import annotations

import time

import pytest
from campsolver.service import dispatch
from campsolver.service.games import deluxe_camping as service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.service.registry import games
from campsolver.solver.core.budget import Budget
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Barrier, Config, DCState, Move, Place, Stage

from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as pb
from tests.deluxe_camping.test_hint_reply import position

VARIANT = Config(players=2, rows=7, cols=7, trailers=3, supply=30, strict_colours=True, optional_free_barrier=True)
#: (players, seed, random decisions, stage, config): 2-4 players, both turn stages, the variant with "no barrier".
CASES = [
    (2, 1, 0, Stage.MOVE, None),
    (2, 2, 9, Stage.BARRIER, None),
    (3, 3, 6, Stage.MOVE, None),
    (3, 4, 11, Stage.BARRIER, None),
    (4, 5, 4, Stage.MOVE, None),
    (4, 6, 13, Stage.BARRIER, None),
    (2, 7, 8, Stage.MOVE, VARIANT),
    (2, 8, 10, Stage.BARRIER, VARIANT),
]


def spent() -> Budget:
    now = time.monotonic()
    return Budget.until(now - 1.0, now)


def reference_move(config: Config, action: rules.Action) -> pb.DeluxeCampingMove:
    """The move message built field by field from the rules' squares (what `write_move` must equal)."""

    def square(s: int) -> pb.DeluxeCampingSquare:
        return pb.DeluxeCampingSquare(row=s // config.cols, col=s % config.cols)

    if isinstance(action, Move):
        steps = [pb.DeluxeCampingStep(**{"from": square(a), "to": square(b)}) for a, b in action.steps]
        return pb.DeluxeCampingMove(movement=pb.DeluxeCampingMovement(steps=steps))
    if isinstance(action, Barrier):
        if action.edge is None:
            return pb.DeluxeCampingMove(no_barrier=True)
        return pb.DeluxeCampingMove(barrier=pb.DeluxeCampingBarrier(a=square(action.edge[0]), b=square(action.edge[1])))
    assert isinstance(action, Place)
    return pb.DeluxeCampingMove(place=square(action.square))


def request_for(state: DCState) -> pb.DeluxeCampingServiceHintRequest:
    return pb.DeluxeCampingServiceHintRequest(
        state=service.state_to_proto(state), options=common_pb2.SolveOptions(time_limit_seconds=0.2)
    )


def assert_complete_and_legal(state: DCState, response: pb.DeluxeCampingServiceHintResponse) -> None:
    """Every legal choice once, parsed back to the rules' own action; the rule of thumb's first and flagged."""
    legal = state.legal_actions()
    listed = [service.move_from_proto(a.move, state.config, "move") for a in response.alternatives]
    assert len(listed) == len(legal) and set(listed) == set(legal)
    for alternative, action in zip(response.alternatives, listed, strict=True):
        assert alternative.move == reference_move(state.config, action)
        assert alternative.ranking.label == rules.describe_action(state.config, action)
        assert not alternative.ranking.HasField("value") and not alternative.ranking.HasField("loss")
        assert alternative.ranking.note
    assert listed[0] == hints.rule_of_thumb(state)
    assert response.alternatives[0].ranking.note.startswith("rule of thumb")
    assert all(a.ranking.note == "not evaluated: the budget ran out" for a in response.alternatives[1:])
    assert ranking_contract_violations([a.ranking for a in response.alternatives]) == []
    # The rules model takes the rule of thumb's move, and the game goes on from it.
    after = state.child(listed[0])
    assert after.stage in (Stage.MOVE, Stage.BARRIER, Stage.OVER)


@pytest.mark.parametrize(("players", "seed", "turns", "stage", "config"), CASES)
def test_the_rule_of_thumb_answer_lists_every_legal_choice(
    players: int, seed: int, turns: int, stage: Stage, config: Config | None
) -> None:
    state = position(players, seed, turns, stage, config)
    response = service.hint(request_for(state), spent())
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC and response.stats.interrupted
    assert response.stats.nodes == 0  # nothing was valued: no board, no search
    assert_complete_and_legal(state, response)
    if stage is Stage.MOVE:
        assert service.move_from_proto(response.alternatives[0].move, state.config, "move") == Move(())
    if config is VARIANT and stage is Stage.BARRIER:
        assert Barrier(None) in state.legal_actions()


def test_the_dispatcher_fallback_is_the_same_complete_answer() -> None:
    """What the server sends under load (`dispatch.rule_of_thumb_answer`): flagged, complete, legal."""
    command = games()["deluxe-camping"].commands["hint"]
    state = position(2, 11, 3, Stage.MOVE)
    response = dispatch.rule_of_thumb_answer(command, request_for(state), dispatch.NO_TIME)
    assert response is not None and response.stats.fallback == dispatch.NO_TIME
    assert_complete_and_legal(state, response)


def test_the_solver_fallback_builds_no_search() -> None:
    """A spent budget: the rule of thumb's result straight from the legal list, nothing valued."""
    state = position(3, 12, 5, Stage.MOVE)
    result = hints.hint(state, spent())
    assert result.interrupted and result.nodes == 0 and result.depth == 0
    assert result.choices[0].choice == hints.rule_of_thumb(state)
    assert sorted(map(repr, (m.choice for m in result.choices))) == sorted(map(repr, state.legal_actions()))
    assert result.choices[0].rule_of_thumb and not any(m.rule_of_thumb for m in result.choices[1:])
    assert all(m.value is None and m.kind is hints.ValueKind.NONE for m in result.choices)


@pytest.mark.parametrize(("players", "seed", "turns", "stage", "config"), CASES)
def test_written_moves_and_labels_equal_the_field_by_field_ones(
    players: int, seed: int, turns: int, stage: Stage, config: Config | None
) -> None:
    state = position(players, seed, turns, stage, config)
    for action in state.legal_actions():
        assert service.move_to_proto(state.config, action) == reference_move(state.config, action)
    places = [Place(s) for s in (0, state.config.squares - 1)]
    for action in places:
        assert service.move_to_proto(state.config, action) == reference_move(state.config, action)
        row, col = state.config.cell(action.square)
        assert rules.describe_action(state.config, action) == f"place at r{row}c{col}"

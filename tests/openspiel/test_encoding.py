"""Every legal action and chance outcome round-trips through the integer encoding, on random states of every game."""

from __future__ import annotations

import pytest
from campsolver.solver.core.game import CHANCE

import campsolver.openspiel as adapters
from tests.openspiel.helpers import CASES, load, random_adapter_states


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_action_round_trips(name: str, players: int) -> None:
    game = load(name, players)
    encoding = adapters.GAMES[name].ENCODING
    checked = 0
    for seed in range(2):
        for state in random_adapter_states(game, seed):
            rules_state = state.rules_state
            if state.is_terminal():
                continue
            if rules_state.current_player() == CHANCE:
                outcomes = [outcome for outcome, _ in rules_state.chance_outcomes()]
                ids = [encoding.encode_chance(rules_state, outcome) for outcome in outcomes]
                assert len(set(ids)) == len(ids)
                assert all(0 <= i < game.max_chance_outcomes() for i in ids)
                for outcome, action in zip(outcomes, ids, strict=True):
                    assert encoding.decode_chance(rules_state, action) == outcome
                continue
            moves = list(rules_state.legal_actions())
            ids = state.legal_actions()
            assert len(ids) == len(moves) == len(set(ids))
            decoded = [encoding.decode(rules_state, action) for action in ids]
            assert sorted(map(repr, decoded)) == sorted(map(repr, moves))
            for move in moves:
                action = encoding.encode(rules_state, move)
                assert 0 <= action < game.num_distinct_actions()
                assert encoding.decode(rules_state, action) == move
            strings = [state.action_to_string(state.current_player(), action) for action in ids]
            assert len(set(strings)) == len(strings) and all(strings)
            checked += len(ids)
    assert checked > 0

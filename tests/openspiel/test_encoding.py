"""Every legal action and chance outcome round-trips through the integer encoding, on random states of every game."""

from __future__ import annotations

import pytest
from campsolver.solver.core.game import CHANCE

import campsolver.openspiel as adapters
from tests.openspiel.helpers import CASES, load, random_adapter_states

#: Every how many states of a random game the whole legal set is checked (every state would cost minutes on
#: the big boards; the states in between still pass through the encoding as the game is played).
STRIDE = 4


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_action_round_trips(name: str, players: int) -> None:
    game = load(name, players)
    encoding = adapters.GAMES[name].ENCODING
    checked = 0
    seen = {True: 0, False: 0}  # chance and decision states met so far: every STRIDE-th of each is checked
    for state in random_adapter_states(game, seed=players):
        if state.is_terminal():
            continue
        kind = state.is_chance_node()
        seen[kind] += 1
        if (seen[kind] - 1) % STRIDE:
            continue
        rules_state = state.rules_state
        if rules_state.current_player() == CHANCE:
            outcomes = [outcome for outcome, _ in rules_state.chance_outcomes()]
            ids = [encoding.encode_chance(rules_state, outcome) for outcome in outcomes]
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < game.max_chance_outcomes() for i in ids)
            assert [encoding.decode_chance(rules_state, action) for action in ids] == outcomes
            exact = sorted((i, float(p)) for i, (_, p) in zip(ids, rules_state.chance_outcomes(), strict=True))
            assert state.chance_outcomes() == exact
            continue
        moves = list(rules_state.legal_actions())
        ids = state.legal_actions()
        assert len(ids) == len(moves) == len(set(ids))
        assert ids == sorted(encoding.encode(rules_state, move) for move in moves)  # a game's fast `legal_ids` too
        assert {encoding.decode(rules_state, action) for action in ids} == set(moves)
        for move in moves:
            action = encoding.encode(rules_state, move)
            assert 0 <= action < game.num_distinct_actions()
            assert encoding.decode(rules_state, action) == move
        assert all(state.action_to_string(state.current_player(), action) for action in ids[:50])
        checked += len(ids)
    assert checked > 0

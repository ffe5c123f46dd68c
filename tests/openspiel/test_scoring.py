"""A game played through the adapter scores exactly as the same game played through the rules model."""

from __future__ import annotations

import pytest
from campsolver.solver.core.game import CHANCE

import campsolver.openspiel as adapters
from campsolver.openspiel.common import win_returns
from tests.openspiel.helpers import CASES, load, play_rules_model


@pytest.mark.parametrize(("name", "players"), CASES)
def test_adapter_scores_as_the_rules_model(name: str, players: int) -> None:
    module = adapters.GAMES[name]
    for seed in range(1 if name == "campsolver_campsite" else 2):  # a Campsite game costs seconds
        scores_game = load(name, players, returns="scores")
        win_game = load(name, players)
        initial = scores_game.new_initial_state().rules_state
        taken = play_rules_model(initial, seed)
        encoding = module.ENCODING
        rules_state, by_scores, by_win = initial, scores_game.new_initial_state(), win_game.new_initial_state()
        for choice in taken:
            if rules_state.current_player() == CHANCE:
                action = encoding.encode_chance(rules_state, choice)
                assert by_scores.is_chance_node()
            else:
                action = encoding.encode(rules_state, choice)
                assert by_scores.current_player() == rules_state.current_player()
            by_scores.apply_action(action)
            by_win.apply_action(action)
            rules_state = rules_state.child(choice)
            assert by_scores.rules_state == rules_state
        assert by_scores.is_terminal() and by_win.is_terminal()
        expected = [float(x) for x in rules_state.returns()]
        assert by_scores.returns() == expected
        if players > 1:
            winners = win_game.winners(rules_state)
            assert by_win.returns() == win_returns(expected, winners)
            assert sum(by_win.returns()) == pytest.approx(1.0)

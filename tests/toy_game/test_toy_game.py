"""The toy game is played by the project's generic algorithms with no code of its own: the core's expectimax
values it exactly (a check by hand: a card from 1-5 is worth 3 on average; a die rerolled below 4 is worth
(4 + 5 + 6) / 6 + 3/6 x 3.5 = 4.25)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import CHANCE

from tests.toy_game.rules import GAME, KEEP, REROLL, HighRollSetup


def test_expectimax_values_the_solo_game_exactly() -> None:
    result = expectimax(GAME.new_initial_state(GAME.default_config(1)))
    assert result.exact
    assert result.values[0] == pytest.approx(float(Fraction(3) + Fraction(17, 4)))


def test_expectimax_rerolls_a_low_die_and_keeps_a_high_one() -> None:
    state = GAME.new_initial_state(HighRollSetup(players=1, deck=(2,)))
    state = state.child(2)  # the only card
    assert state.current_player() == CHANCE
    for face, best in ((1, REROLL), (3, REROLL), (4, KEEP), (6, KEEP)):
        result = expectimax(state.child(face))
        assert result.best(0).action == best, face


@pytest.mark.parametrize("players", range(GAME.min_players, GAME.max_players + 1))
def test_the_toy_game_passes_openspiels_own_conformance_test(players: int) -> None:
    """Step 4 of adding a game: its OpenSpiel adapter is an encoding and a start (`openspiel_adapter.py`)."""
    import pyspiel

    from campsolver.openspiel.common import top_scorers, win_returns
    from tests.toy_game import openspiel_adapter

    game = pyspiel.load_game(openspiel_adapter.SHORT_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False, mask_test=True)
    state = game.new_initial_state()
    while not state.is_terminal():  # the highest card left and a six each, kept at once
        state.apply_action(state.chance_outcomes()[-1][0] if state.is_chance_node() else state.legal_actions()[0])
    scores = [float(score) for score in GAME.final_scores(state.rules_state)]
    expected = scores if players == 1 else win_returns(scores, top_scorers(scores))
    assert state.returns() == expected

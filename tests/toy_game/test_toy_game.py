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

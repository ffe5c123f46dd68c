"""Each OpenSpiel adapter stands on its rules model's `Game`: the same name, the same players, the same start."""

from __future__ import annotations

import pytest

import campsolver.openspiel as adapters
from tests.openspiel.helpers import CASES, load
from tests.test_rules_conformance import same_state


@pytest.mark.parametrize("name", sorted(adapters.GAMES))
def test_the_adapter_is_named_and_seats_as_its_game(name: str) -> None:
    module = adapters.GAMES[name]
    game = module.RULES_GAME
    assert name == f"campsolver_{game.name}"
    assert (game.min_players, game.max_players) == (module.MIN_PLAYERS, module.MAX_PLAYERS)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_default_game_starts_where_its_rules_game_starts(name: str, players: int) -> None:
    game = adapters.GAMES[name].RULES_GAME
    adapter_start = load(name, players).new_initial_state().rules_state
    assert same_state(adapter_start, game.new_initial_state(game.default_config(players)))

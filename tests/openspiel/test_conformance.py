"""OpenSpiel's own conformance test (`pyspiel.random_sim_test`, with serialization) for every adapted game at
every player count it supports, plus the registration, game types and parameters it declares."""

from __future__ import annotations

import pyspiel
import pytest

import campsolver.openspiel as adapters
from tests.openspiel.helpers import CASES, load

#: Random games per case: enough to reach every kind of node, few enough to keep the default suite fast.
SIMS = 2
#: Games whose random game costs seconds of CPU (Campsite: up to 8 s at 6 players) play one.
HEAVY = {"campsolver_campsite", "campsolver_adventure_tours"}
#: Above this many action ids OpenSpiel's legal-action mask check (a vector of every id, at every state) costs
#: tens of seconds a game (Campsite at 3-6 players: 4-16 million ids); the default run leaves that one check
#: out there and `test_random_sim_test_with_mask_on_big_action_spaces` (slow) runs it.
MASK_TEST_LIMIT = 2_000_000


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_passes(name: str, players: int) -> None:
    game = load(name, players)
    mask = game.num_distinct_actions() <= MASK_TEST_LIMIT
    pyspiel.random_sim_test(game, num_sims=1 if name in HEAVY else SIMS, serialize=True, verbose=False, mask_test=mask)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players"), [case for case in CASES if load(*case).num_distinct_actions() > MASK_TEST_LIMIT]
)
def test_random_sim_test_with_mask_on_big_action_spaces(name: str, players: int) -> None:
    pyspiel.random_sim_test(load(name, players), num_sims=1, serialize=True, verbose=False, mask_test=True)


@pytest.mark.parametrize("name", sorted(adapters.GAMES))
def test_scores_returns_pass_too(name: str) -> None:
    """`returns=scores` makes the game general-sum with the final scores as returns; it conforms as well."""
    module = adapters.GAMES[name]
    game = load(name, max(2, module.MIN_PLAYERS), returns="scores")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "params"), [(name, params) for name, module in adapters.GAMES.items() for params in module.VARIANTS]
)
def test_random_sim_test_passes_with_rule_variants(name: str, params: dict[str, object]) -> None:
    """Each game's rule options and variants conform too (one random game each)."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_under_its_name() -> None:
    registered = set(pyspiel.registered_names())
    assert set(adapters.GAMES) <= registered
    for name in adapters.GAMES:
        assert name.startswith("campsolver_")
        game = pyspiel.load_game(name)
        game_type = game.get_type()
        assert game_type.short_name == name
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.utility_sum() == 1.0 and (game.min_utility(), game.max_utility()) == (0.0, 1.0)


def test_information_type_is_honest() -> None:
    imperfect = {name for name, module in adapters.GAMES.items() if module.HIDDEN_INFORMATION}
    for name in adapters.GAMES:
        information = pyspiel.load_game(name).get_type().information
        expected = (
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if name in imperfect
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        assert information == expected, name


@pytest.mark.parametrize("name", sorted(adapters.GAMES))
def test_bad_parameters_are_refused(name: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game(name, {"players": adapters.GAMES[name].MAX_PLAYERS + 1})
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game(name, {"returns": "margin"})

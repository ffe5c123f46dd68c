"""One conformance test for every game's rules model, through the shared protocols (`solver.core.game`).

Each game's `rules.py` exports a `GAME` (a `Game`) whose states are `GameState`s. Whatever the game, random play
with legal moves only reaches the end; every chance node's probabilities are exact fractions summing to exactly
1; a final state's `returns()` are the game's own score sheet (`GAME.final_scores`); and states survive the
round trips the project offers (pickle, deep copy and, where the service has one, the game's proto). The toy
game (tests/toy_game/) passes the same tests: that is what a sixth game must do (docs/architecture.md).
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from campsolver.solver.adventure_tours import rules as adventure_tours
from campsolver.solver.camper_tour import rules as camper_tour
from campsolver.solver.campsite import rules as campsite
from campsolver.solver.core.game import CHANCE, TERMINAL, Game, GameState
from campsolver.solver.deluxe_camping import rules as deluxe_camping
from campsolver.solver.happy_campers import rules as happy_campers

from tests.toy_game import rules as toy_game

#: Every game's `Game`, the toy game's last (adding a game is one line here).
GAMES: list[Game[Any, Any]] = [
    happy_campers.GAME,
    deluxe_camping.GAME,
    campsite.GAME,
    camper_tour.GAME,
    adventure_tours.GAME,
    toy_game.GAME,
]
CASES = [
    pytest.param(game, players, id=f"{game.name}-{players}")
    for game in GAMES
    for players in range(game.min_players, game.max_players + 1)
]
#: Random games a case: a Campsite game costs about a second, the others milliseconds.
SEEDS = {"campsite": 1}
DEFAULT_SEEDS = 3
#: No game here lasts this many nodes (chance included); a random game that does has not ended.
LONGEST = 20_000


Convert = Callable[[Any], Any]


def _every_state(state: Any) -> bool:
    return True


def _proto_round_trips() -> dict[str, tuple[Convert, Convert, Callable[[Any], bool]]]:
    """The games whose service converts a whole state to its proto and back, and the states the proto speaks of
    (imported here: tests may use the service; the rules models never do)."""
    from campsolver.service.games import adventure_tours as at_service
    from campsolver.service.games import camper_tour as ct_service
    from campsolver.service.games import campsite as cs_service
    from campsolver.service.games import deluxe_camping as dc_service

    return {
        "deluxe_camping": (dc_service.state_to_proto, dc_service.state_from_proto, _every_state),
        "camper_tour": (ct_service.state_to_proto, ct_service.state_from_proto, _between_decisions),
        "adventure_tours": (at_service.game_state_to_proto, at_service.game_state_from_proto, _every_state),
        "campsite": (cs_service.game_to_proto, cs_service.game_from_proto, _between_plays),
    }


def _between_decisions(state: camper_tour.TourState) -> bool:
    """Camper Tour's wire state is a decision (or the end): the server rolls and lays the plates itself."""
    return state.stage in (camper_tour.Stage.DECIDE, camper_tour.Stage.OVER)


def _between_plays(state: campsite.CampsiteState) -> bool:
    """Campsite's wire plays a card and its tent as one play: no state between the two."""
    return state.stage is not campsite.Stage.TENT


def same_state(again: Any, state: Any) -> bool:
    """Equal states. Adventure Tours compares its `Config` by identity (a game's states share one object): a
    copy with its own config is the same state when that config holds the same values."""
    if isinstance(state, adventure_tours.State) and again.config is not state.config:
        return vars(again.config) == vars(state.config) and replace(again, config=state.config) == state
    return bool(again == state) and hash(again) == hash(state)


def random_game(game: Game[Any, Any], players: int, seed: int) -> Iterator[GameState]:
    """Every state of one random game: decisions uniform among the legal ones, chance by its exact odds."""
    rng = random.Random(seed)
    state = game.new_initial_state(game.default_config(players))
    for _ in range(LONGEST):
        yield state
        player = state.current_player()
        if player == TERMINAL:
            return
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            choice = rng.choices([o for o, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            choice = rng.choice(list(state.legal_actions()))
        state = state.child(choice)
    raise AssertionError(f"{game.name}: a random game did not end in {LONGEST} nodes")


def _seeds(game: Game[Any, Any]) -> range:
    return range(SEEDS.get(game.name, DEFAULT_SEEDS))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_game_seats_its_players(game: Game[Any, Any], players: int) -> None:
    assert isinstance(game, Game)
    config = game.default_config(players)
    assert game.num_players(config) == players
    state = game.new_initial_state(config)
    assert isinstance(state, GameState)
    assert state.current_player() in (CHANCE, *range(players))
    assert game.new_initial_state(config) == state  # a start is a value: the same config, the same state
    hash(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_table_outside_the_range_is_refused(game: Game[Any, Any]) -> None:
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError):
            game.default_config(players)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_play_reaches_the_end_by_the_rules(game: Game[Any, Any], players: int) -> None:
    """Legal moves only; exact chance; the end's returns are the score sheet; `child` leaves its parent alone."""
    for seed in _seeds(game):
        state: GameState | None = None
        chance_nodes = decisions = 0
        for state in random_game(game, players, seed):
            player = state.current_player()
            key = hash(state)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes and not state.legal_actions()
                assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
                assert sum(p for _, p in outcomes) == 1  # exactly: Fractions, no rounding
                assert len({o for o, _ in outcomes}) == len(outcomes)
                chance_nodes += 1
            elif player != TERMINAL:
                assert 0 <= player < players
                legal = state.legal_actions()
                assert legal and not state.chance_outcomes()
                state.child(legal[-1])
                decisions += 1
            assert hash(state) == key  # children are new states: the parent is unchanged
        assert state is not None and state.current_player() == TERMINAL
        assert not state.legal_actions() and not state.chance_outcomes()
        returns = list(state.returns())
        assert len(returns) == players
        assert returns == [float(score) for score in game.final_scores(state)]
        assert chance_nodes and decisions  # every game here has both


@pytest.mark.parametrize(("game", "players"), CASES)
def test_states_survive_a_round_trip(game: Game[Any, Any], players: int) -> None:
    """Pickle and deep copy along a random game (every third state); the game's proto too where the service has one."""
    proto = _proto_round_trips().get(game.name)
    checked = 0
    for index, state in enumerate(random_game(game, players, seed=100)):
        copies = (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)) if index % 3 == 0 else ()
        for again in copies:
            assert same_state(again, state)
            assert again.current_player() == state.current_player()
            assert list(again.legal_actions()) == list(state.legal_actions())
        if proto is not None and index % 5 == 0 and proto[2](state):
            to_proto, from_proto, _ = proto
            assert same_state(from_proto(to_proto(state)), state), f"{game.name}: state {index} changed via proto"
            checked += 1
    assert proto is None or checked > 1

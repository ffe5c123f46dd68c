"""Hidden information: each player's information state and observation carry exactly what that player may know,
and the resampler draws the hidden part consistently with it."""

from __future__ import annotations

import random

import pyspiel
import pytest
from campsolver.solver.campsite import rules as cs

import campsolver.openspiel as adapters
from campsolver.openspiel import adventure_tours
from campsolver.openspiel.common import resampler
from tests.openspiel.helpers import load, random_adapter_states

HIDDEN = sorted(name for name, module in adapters.GAMES.items() if module.HIDDEN_INFORMATION)


def _deal(game: pyspiel.Game, cards: list[cs.Card]) -> pyspiel.State:
    state = game.new_initial_state()
    encoding = adapters.campsite.ENCODING
    for card in cards:
        state.apply_action(encoding.encode_chance(state.rules_state, card))
    return state


def test_campsite_other_players_cards_do_not_change_my_information_state() -> None:
    """Two deals equal but for one card in player 1's hand: player 0 cannot tell them apart, player 1 can."""
    game = load("campsolver_campsite", 2)
    deck = adapters.campsite.distinct_cards(game.new_initial_state().rules_state.deck)
    # Two starting cards, three to player 0, three to player 1 (the last one differs).
    first = _deal(game, list(deck[:8]))
    second = _deal(game, [*deck[:7], deck[8]])
    assert first.rules_state.hands[1] != second.rules_state.hands[1]
    assert first.rules_state.hands[0] == second.rules_state.hands[0]
    for state in (first, second):
        assert state.current_player() == 0
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.observation_string(0) == second.observation_string(0)
    assert first.information_state_string(1) != second.information_state_string(1)
    assert first.observation_string(1) != second.observation_string(1)
    # Player 0 sees its own cards and the starting cards, not player 1's.
    for card in first.rules_state.hands[0]:
        assert str(card) in first.observation_string(0)
    assert str(deck[7]) not in first.information_state_string(0)
    # The same holds after both play on: a public move is seen by both.
    move = first.legal_actions()[0]
    first.apply_action(move)
    second.apply_action(move)
    assert first.information_state_string(0) == second.information_state_string(0)


@pytest.mark.parametrize("name", HIDDEN)
def test_resampled_states_look_the_same_to_the_player(name: str) -> None:
    """The resampler keeps the mover's information state and observation, changes hidden cards, and the
    resampled state plays on to the end by the rules."""
    game = load(name, 3 if adapters.GAMES[name].MIN_PLAYERS <= 3 <= adapters.GAMES[name].MAX_PLAYERS else 2)
    rng = random.Random(7)
    changed = 0
    for index, state in enumerate(random_adapter_states(game, seed=3)):
        if state.is_terminal() or state.is_chance_node() or index % 3:
            continue
        player = state.current_player()
        for _ in range(2):
            sampler = pyspiel.UniformProbabilitySampler(rng.randrange(2**30), 0.0, 1.0)
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.legal_actions() == state.legal_actions()
            changed += other.rules_state != state.rules_state
        via_callback = resampler(state, player)
        assert via_callback.information_state_string(player) == state.information_state_string(player)
        # The resampled world is a legal state of the rules model: play it out.
        for _ in range(2000):
            if via_callback.is_terminal():
                break
            if via_callback.is_chance_node():
                actions, probs = zip(*via_callback.chance_outcomes(), strict=True)
                via_callback.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                via_callback.apply_action(rng.choice(via_callback.legal_actions()))
        assert via_callback.is_terminal()
        if changed >= 3:
            break
    assert changed >= 3, "the resampler never drew a different hidden part"


def _deal_kinds(game: pyspiel.Game, kinds: list[str]) -> pyspiel.State:
    """Deal Adventure Tours hands by card kind (the rules model offers one card of each kind left)."""
    state = game.new_initial_state()
    for wanted in kinds:
        rules_state = state.rules_state
        (card,) = [c for c, _ in rules_state.chance_outcomes() if adventure_tours.kind(rules_state, c) == wanted]
        state.apply_action(adventure_tours.ENCODING.encode_chance(rules_state, card))
    return state


def test_adventure_tours_other_players_cards_do_not_change_my_information_state() -> None:
    """Two deals equal but for player 1's first card: players 0 and 2 cannot tell them apart, player 1 can."""
    game = load("campsolver_adventure_tours", 3)
    labels = sorted({adventure_tours.kind(game.new_initial_state().rules_state, c) for c in range(102)})
    # Seats are dealt in turn (0, 1, 2, 0, ...); deal 18 cards, the second one (player 1's first) differs.
    kinds = labels[:18]
    other = [*kinds]
    other[1] = labels[20]
    first, second = _deal_kinds(game, kinds), _deal_kinds(game, other)
    assert first.current_player() == 0 and second.current_player() == 0
    assert first.rules_state.hands[1] != second.rules_state.hands[1]
    for player in (0, 2):
        assert first.information_state_string(player) == second.information_state_string(player)
        assert first.observation_string(player) == second.observation_string(player)
    assert first.information_state_string(1) != second.information_state_string(1)
    assert labels[20] not in first.observation_string(0) and labels[20] in second.observation_string(1)


@pytest.mark.parametrize("name", HIDDEN)
def test_observers_that_would_see_too_much_are_refused(name: str) -> None:
    """Only the player's own view is offered: a public-only or all-private observer has no honest string here."""
    game = load(name, adapters.GAMES[name].MIN_PLAYERS if name != "campsolver_campsite" else 2)
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=private)
        with pytest.raises(ValueError):
            game.make_py_observer(kind)
    own = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    state = game.new_initial_state()
    assert game.make_py_observer(own).string_from(state, 0) == state.information_state_string(0)

"""The `mcts` / `ismcts` tournament policies: OpenSpiel's bots at a fixed simulation count, on the rules state."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from campsolver.clients.batch import policies
from campsolver.clients.batch.jobs import JobConfig, _policies_for
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, sample_outcome

pytest.importorskip("pyspiel")


def test_mcts_policy_plays_a_seeded_camper_tour_game_to_its_end_the_same_way_twice(monkeypatch) -> None:
    """A whole game of `mcts` against the rule of thumb (a few simulations a decision to stay fast): every move
    goes through the rules model, the game ends with the rulebook's winner, and the same seed replays it."""
    monkeypatch.setattr(policies, "OPENSPIEL_SIMULATIONS", 2)
    params = {"seed": 5, "policies": ["mcts", "rule-of-thumb"]}
    first = policies.play_camper_tour(params, Budget(120))
    second = policies.play_camper_tour(params, Budget(120))
    assert first == second
    assert first["decisions"] > 1 and len(first["scores"]) == 2
    assert first["winner"] in (0, 1, None)


def _campsite_turn(seed: int) -> cs.CampsiteState:
    """A two-player Campsite state at a card decision a few turns into the first round (seeded random play)."""
    rng = random.Random(seed)
    chance = np.random.default_rng(seed)
    state = cs.new_game(2)
    decisions = 0
    while True:
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, chance))
            continue
        if state.stage is cs.Stage.CARD and decisions >= 4:
            return state
        actions = state.legal_actions()
        state = state.child(actions[rng.randrange(len(actions))])
        decisions += 1


def test_ismcts_policy_answers_a_legal_move_from_what_the_seat_may_know() -> None:
    """IS-MCTS through the adapter: a legal card for the mover, the same one again from the same seed, and the
    same one when only the opponent's hand and the pile differ (the bot never reads hidden cards)."""
    state = _campsite_turn(3)
    move = policies.openspiel_move("campsolver_campsite", 2, state, seed=11, simulations=2)
    assert move in state.legal_actions()
    assert policies.openspiel_move("campsolver_campsite", 2, state, seed=11, simulations=2) == move
    other = 1 - state.to_move
    unseen = list(state.hands[other]) + list(state.pile)
    random.Random(0).shuffle(unseen)
    size = len(state.hands[other])
    hands = list(state.hands)
    hands[other] = tuple(sorted(unseen[:size]))
    swapped = replace(state, hands=tuple(hands), pile=tuple(sorted(unseen[size:])))
    assert swapped.hands[other] != state.hands[other]
    assert policies.openspiel_move("campsolver_campsite", 2, swapped, seed=11, simulations=2) == move


def test_bot_policies_are_registered_but_played_only_when_named() -> None:
    for game, name in (
        ("camper-tour", "mcts"),
        ("deluxe-camping", "mcts"),
        ("campsite", "ismcts"),
        ("adventure-tours", "ismcts"),
    ):
        assert name in policies.POLICY_SETS[game].policies
        assert name not in _policies_for(JobConfig(job="tournament", games=(game,)), game)
        assert _policies_for(JobConfig(job="tournament", games=(game,), policies=(name, "random")), game) == (
            name,
            "random",
        )

"""Shared helpers of the OpenSpiel adapter tests: random play through the rules model and through the adapter."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyspiel
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome

import campsolver.openspiel as adapters

#: Every registered game and the player counts it supports (the conformance test runs each one).
PLAYER_COUNTS = {
    name: tuple(range(module.MIN_PLAYERS, module.MAX_PLAYERS + 1)) for name, module in adapters.GAMES.items()
}
CASES = [(name, players) for name, counts in PLAYER_COUNTS.items() for players in counts]


def load(name: str, players: int, **params: Any) -> pyspiel.Game:
    return pyspiel.load_game(name, {"players": players, **params})


def random_adapter_states(game: pyspiel.Game, seed: int, limit: int = 400) -> Iterator[pyspiel.State]:
    """The states of one random game played through OpenSpiel (uniform decisions, chance by its odds)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, weights=probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(action)


def play_rules_model(initial: Any, seed: int, limit: int = 5000) -> list[Any]:
    """A random game through the rules model alone: the list of moves and chance outcomes taken, in order."""
    rng = random.Random(seed)
    generator = np.random.default_rng(seed)
    state, taken = initial, []
    for _ in range(limit):
        player = state.current_player()
        if player == TERMINAL:
            return taken
        choice = sample_outcome(state, generator) if player == CHANCE else rng.choice(list(state.legal_actions()))
        taken.append(choice)
        state = state.child(choice)
    raise AssertionError("the random game did not end")

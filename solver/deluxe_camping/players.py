"""Baseline Deluxe Camping players: a uniformly random legal player and a one-step greedy player.

They live in the solver package (not in the bench) so the installed batch client's tournaments and the repo's
bench seat the same players: one definition. A player is called as `player(state, rng, seconds)`; the baselines
ignore `seconds` (the hint's time slice in the bench) and draw their ties from the seeded `rng`.
"""

from __future__ import annotations

import numpy as np
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import DCState


def random_player(state: DCState, rng: np.random.Generator, _: float = 0.0) -> rules.Action:
    """A uniformly random legal choice (seeded by `rng`)."""
    actions = state.legal_actions()
    return actions[int(rng.integers(len(actions)))]


def greedy_player(state: DCState, rng: np.random.Generator, _: float = 0.0) -> rules.Action:
    """Each decision: the choice with the most points allotted to the mover right after it (ties at random)."""
    player = state.to_move
    best: list[rules.Action] = []
    top = -1
    for action in state.legal_actions():
        points = state.child(action).scores()[player]
        if points > top:
            top, best = points, [action]
        elif points == top:
            best.append(action)
    return best[int(rng.integers(len(best)))]

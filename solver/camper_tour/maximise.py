"""Camper Tour's maximum: the most one camper can expect to score alone, with its proof.

The module to open for the game's maximum, as `maximise.py` is in every game. The work is the exact solo solver
(`solo`: a dynamic programme over (plate, tokens) where the layout is known, an exact stack expectimax where it
is small enough, and a labelled Monte Carlo estimate beyond), called here at call time (so a test that replaces
its parts reaches it). Races between campers have no maximum of this kind: their exact values are the hint's and
the two-camper best response's (`duel`, `ceiling`).
"""

from __future__ import annotations

from campsolver.solver.camper_tour import solo as _solo
from campsolver.solver.camper_tour.rules import Config, TourState
from campsolver.solver.camper_tour.solo import SoloAlternative, SoloPosition, SoloResult
from campsolver.solver.core.budget import Budget

__all__ = ["SoloAlternative", "SoloPosition", "SoloResult", "maximise", "solo_state"]


def maximise(config: Config, position: SoloPosition, budget: Budget, *, seed: int = 0) -> SoloResult:
    """Expected final score of optimal solo play from `position` and of every alternative (`solo.solve_solo`:
    EXACT when the state space allows, otherwise an estimate that says so)."""
    return _solo.solve_solo(config, position, budget, seed=seed)


def solo_state(config: Config, position: SoloPosition) -> TourState:
    """The rules model's state of a solo `position` (the moves a maximum ranks are that state's legal moves)."""
    return _solo.solo_state(config, position)

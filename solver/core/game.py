"""The game-state protocol every rules model implements, in the spirit of OpenSpiel.

A state is immutable and hashable, so search can memoise on it. It is exactly one of:
- a decision node: `current_player()` >= 0 chooses one of `legal_actions()`;
- a chance node: `current_player() == CHANCE`, nature picks from `chance_outcomes()` with exact
  probabilities (`fractions.Fraction`, summing to exactly 1);
- terminal: `current_player() == TERMINAL`, `returns()` gives each player's final utility.
`child(action_or_outcome)` returns the successor without touching the original.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

#: `current_player()` of a chance node.
CHANCE = -1
#: `current_player()` of a terminal state.
TERMINAL = -4


@runtime_checkable
class GameState(Protocol, Hashable):
    """What a rules model exposes to the generic algorithms (expectimax, simulation, tests)."""

    def current_player(self) -> int:
        """The player to move, `CHANCE`, or `TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """The actions open to the current player (empty unless a decision node)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        """(outcome, exact probability) pairs of a chance node; probabilities sum to 1."""
        ...

    def child(self, action: Any) -> GameState:
        """The successor after `action` (decision node) or `outcome` (chance node)."""
        ...

    def returns(self) -> Sequence[float]:
        """Final utility per player; meaningful only at terminal states."""
        ...


def is_terminal(state: GameState) -> bool:
    return state.current_player() == TERMINAL


def is_chance(state: GameState) -> bool:
    return state.current_player() == CHANCE


def sample_outcome(state: GameState, rng: Any) -> Any:
    """Draw one chance outcome with its exact probability (`rng` is a numpy Generator)."""
    outcomes = state.chance_outcomes()
    weights = [float(p) for _, p in outcomes]
    index = rng.choice(len(outcomes), p=weights)
    return outcomes[index][0]

"""The game-state protocol every rules model implements, in the spirit of OpenSpiel.

A state is immutable and hashable, so search can memoise on it. It is exactly one of:
- a decision node: `current_player()` >= 0 chooses one of `legal_actions()`;
- a chance node: `current_player() == CHANCE`, nature picks from `chance_outcomes()` with exact
  probabilities (`fractions.Fraction`, summing to exactly 1);
- terminal: `current_player() == TERMINAL`, `returns()` gives each player's final utility.
`child(action_or_outcome)` returns the successor without touching the original.

A `Game` stands beside the states: its `name`, the players it seats, and `new_initial_state(config)`, the
state a game starts from. Every game's `rules.py` exports one as `GAME` (with its state class named after the
game), so an algorithm, an adapter or a test takes any game the same way (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

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


ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT", bound=GameState)


@runtime_checkable
class Game(Protocol[ConfigT, StateT]):
    """A game as a whole: what it is called, whom it seats and how it starts (OpenSpiel's `Game`).

    `config` is the game's own configuration (its rules `Config`, or a small `<Game>Setup` where the rules
    model had none that names the players); `None` means the rulebook's default table.
    """

    #: Snake-case name, the package's (`happy_campers`); the OpenSpiel short name is `campsolver_<name>`.
    name: str
    #: Fewest and most players the rules model seats.
    min_players: int
    max_players: int

    def default_config(self, players: int) -> ConfigT:
        """The rulebook's default table for `players` (every option at its default)."""
        ...

    def num_players(self, config: ConfigT | None = None) -> int:
        """How many players `config` seats (the default table's when None)."""
        ...

    def new_initial_state(self, config: ConfigT | None = None) -> StateT:
        """The state the game starts from (a chance node where the game opens with a deal or a roll)."""
        ...

    def final_scores(self, state: StateT) -> Sequence[int]:
        """Each player's score by the rules model's scoring (at a terminal state the `returns()`)."""
        ...


@dataclass(frozen=True)
class GameSpec(Generic[ConfigT, StateT]):
    """A `Game` from plain functions: how most rules models declare theirs in a few lines."""

    name: str
    min_players: int
    max_players: int
    make_config: Callable[[int], ConfigT]
    players_of: Callable[[ConfigT], int]
    start: Callable[[ConfigT], StateT]
    scores: Callable[[StateT], Sequence[int]]
    default_players: int = 2

    def default_config(self, players: int) -> ConfigT:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name}: players must be {self.min_players}-{self.max_players}, got {players}")
        return self.make_config(players)

    def num_players(self, config: ConfigT | None = None) -> int:
        return self.players_of(config if config is not None else self.make_config(self.default_players))

    def new_initial_state(self, config: ConfigT | None = None) -> StateT:
        return self.start(config if config is not None else self.make_config(self.default_players))

    def final_scores(self, state: StateT) -> Sequence[int]:
        return self.scores(state)


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

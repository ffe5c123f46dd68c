"""High Roll, a toy dice-and-card game: the rules model of a sixth game in one short file.

Each player is dealt one card from a small deck (chance: any card left, equally likely). Then, in seat order,
each player rolls a die (chance, 1-6) and either keeps it or rerolls once, keeping the second roll. A player
scores their card plus their die; the highest score wins. It implements `GameState` and `Game` exactly as the
five games do, and passes the same conformance tests (tests/test_rules_conformance.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from campsolver.solver.core.game import CHANCE, TERMINAL, GameSpec

FACES = 6
KEEP, REROLL = "keep", "reroll"


@dataclass(frozen=True)
class HighRollSetup:
    """How many players (1-4) and the deck's cards."""

    players: int = 2
    deck: tuple[int, ...] = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class HighRollState:
    """A position: cards left to deal, each player's card and die (0: none yet), who rolls, and whether the
    roller has rerolled. Immutable and hashable like every rules state."""

    deck: tuple[int, ...]
    cards: tuple[int, ...]
    dice: tuple[int, ...]
    to_move: int = 0
    rerolled: bool = False
    rolling: bool = True

    def current_player(self) -> int:
        if 0 in self.cards or (self.to_move < len(self.dice) and self.rolling):
            return CHANCE
        return TERMINAL if self.to_move == len(self.dice) else self.to_move

    def legal_actions(self) -> list[str]:
        if self.current_player() < 0:
            return []
        return [KEEP] if self.rerolled else [KEEP, REROLL]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.current_player() != CHANCE:
            return []
        if 0 in self.cards:
            counts = Counter(self.deck)
            return [(card, Fraction(n, len(self.deck))) for card, n in sorted(counts.items())]
        return [(face, Fraction(1, FACES)) for face in range(1, FACES + 1)]

    def child(self, action: int | str) -> HighRollState:
        if 0 in self.cards:  # deal the next player's card
            if action not in self.deck:
                raise ValueError(f"card {action} is not in the deck")
            seat, deck = self.cards.index(0), list(self.deck)
            deck.remove(action)
            return replace(self, deck=tuple(deck), cards=_set(self.cards, seat, action))
        if self.current_player() == CHANCE:
            if action not in range(1, FACES + 1):
                raise ValueError(f"no die face {action}")
            return replace(self, dice=_set(self.dice, self.to_move, action), rolling=False)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}")
        if action == REROLL:
            return replace(self, rerolled=True, rolling=True)
        return replace(self, to_move=self.to_move + 1, rerolled=False, rolling=True)

    def returns(self) -> list[float]:
        return [float(s) for s in scores(self)]


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def scores(state: HighRollState) -> tuple[int, ...]:
    """Card plus kept die (a player who has not rolled yet has their card only)."""
    return tuple(card + die for card, die in zip(state.cards, state.dice, strict=True))


def new_game(setup: HighRollSetup) -> HighRollState:
    if len(setup.deck) < setup.players:
        raise ValueError(f"a deck of {len(setup.deck)} cannot deal {setup.players} players")
    empty = (0,) * setup.players
    return HighRollState(deck=tuple(sorted(setup.deck)), cards=empty, dice=empty)


GAME: GameSpec[HighRollSetup, HighRollState] = GameSpec(
    name="high_roll",
    min_players=1,
    max_players=4,
    make_config=HighRollSetup,
    players_of=lambda setup: setup.players,
    start=new_game,
    scores=scores,
)

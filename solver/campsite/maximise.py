"""Campsite's maximum: the most a turn or a whole solo round can score, with its proof.

The module to open for the game's maximum, as `maximise.py` is in every game. Each route is done in the module
named for its method, and called here at call time (so a test that replaces a route's function reaches it):

- the best turn: `best_turn_search` (an exhaustive search over the rules model's placements, EXACT when it ends)
  or `best_turn_cpsat` (the turn's CP-SAT model, OPTIMAL from the solver's status); `turn_upper_bound` is the
  proven ceiling a stopped turn search reports;
- the best solo round of a known deck order: `best_round` (a beam search, then an exact best-first branch and
  bound under the round bound of `round_bound`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from campsolver.solver.campsite import best_round as _rounds
from campsolver.solver.campsite import best_turn as _cpsat_turn
from campsolver.solver.campsite import evaluate as _evaluate
from campsolver.solver.campsite.best_round import RoundResult
from campsolver.solver.campsite.best_turn import BestTurn
from campsolver.solver.campsite.evaluate import TurnSearch
from campsolver.solver.campsite.rules import Card, Table, Token
from campsolver.solver.core.budget import Budget

__all__ = [
    "BestTurn",
    "RoundResult",
    "TurnSearch",
    "best_round",
    "best_turn_cpsat",
    "best_turn_search",
    "turn_upper_bound",
]


def best_turn_search(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, players: int, budget: Budget
) -> TurnSearch:
    """The mover's best turn by exhaustive search (`evaluate.best_turn_search`)."""
    return _evaluate.best_turn_search(table, hand, tokens, player, players, budget)


def turn_upper_bound(table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int) -> int:
    """A proven ceiling on the mover's round score after one more turn (`evaluate.turn_upper_bound`)."""
    return _evaluate.turn_upper_bound(table, hand, tokens, player)


def best_turn_cpsat(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, budget: Budget, **options: int
) -> BestTurn:
    """The mover's best turn by the turn's CP-SAT model (`best_turn.best_turn`; `options`: seed, workers)."""
    return _cpsat_turn.best_turn(table, hand, tokens, player, budget, **options)


def best_round(order: Sequence[Card], turns: int, budget: Budget, **options: object) -> RoundResult:
    """The best `turns`-turn solo round of the deck `order` (`best_round.best_round`; `options`: hand_size,
    tokens, exact)."""
    return _rounds.best_round(order, turns, budget, **options)  # type: ignore[arg-type]

"""Happy Campers maxima with challenge cards: the card-free score of the same rolls as a cap and a hint.

The total of a complete map is its *base* score (largest clusters minus empty squares) plus the cards'
points. Every map that is complete under the cards in play is also complete without them (The Great
Divide only asks more), so the proven upper bound of the card-free clairvoyant problem over the same
rolls bounds the base score of every map the card problem can reach. CP-SAT's relaxation of the cluster
terms is weak (it is why the card-free model needed its own tight totals); handing it this cap as a
redundant constraint lets the card solve spend its time on the cards alone. The card-free optimum's own
play is also a candidate warm start: with Dangerous Animals or The Great Divide it often already meets
the card part of the cap (no edge tent; every element on both halves), and then cap == hint value is a
proof at CP-SAT's root.

The card-free solve is itself a checked `_maximise` call (its answer replayed and re-scored); only its
*bound* is used as a cut, and only when CP-SAT proved one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers.max_caps import most_squares
from campsolver.solver.happy_campers.max_problem import MaxProblem, MaxResult
from campsolver.solver.happy_campers.rules import Challenge, Placement

#: Cards that leave the base score unchanged and score no map-dependent points: with only these in play
#: the base problem *is* the problem, so no separate base solve is made.
NO_BASE_SOLVE_CARDS = frozenset({Challenge.NOISY_NEIGHBOURS, Challenge.FESTIVAL})
#: Share of the remaining budget the card-free solve may use (it usually closes in about a second).
BASE_SOLVE_SHARE = 0.3


@dataclass(frozen=True)
class BaseSolve:
    """The card-free solve of the same rolls: a proven cap on the base score (None if none was proven)
    and its best play (None if it found none)."""

    cap: int | None
    plays: tuple[Placement | None, ...] | None
    result: MaxResult | None


def base_problem(problem: MaxProblem) -> MaxProblem:
    """The same clairvoyant question without any challenge card."""
    return replace(problem, challenges=())


def needs_base_solve(problem: MaxProblem) -> bool:
    """Only short games: when the rolls can fill the map, the card-free bound is the square count, which
    the model already knows (clusters <= drawn squares), and the card-free solve would only cost time
    (measured: 3 s of a 10 s budget under load, and the card solve then found nothing)."""
    return (
        problem.kind == "clairvoyant"
        and not set(problem.challenges) <= NO_BASE_SOLVE_CARDS
        and most_squares(problem) < problem.components.cell_count
    )


def solve_base(problem: MaxProblem, budget: Budget, maximise: Callable[[MaxProblem, Budget], MaxResult]) -> BaseSolve:
    """Solve the card-free problem within a share of `budget` and read off its cap and play.

    `maximise` is the checked solve loop (passed in to keep this module free of the loop's imports). The
    cap is the card-free result's proven bound. It bounds the base score of complete maps: the result's
    bound is at least the complete-map phase's bound (it is max(0, that) when an incomplete outcome
    exists, and the optimum itself when proven), so it is valid for the complete-map model here.
    """
    if budget.expired():
        return BaseSolve(None, None, None)
    result = maximise(base_problem(problem), budget.limited(budget.remaining() * BASE_SOLVE_SHARE))
    plays = tuple(turn.placement for turn in result.turns) if result.turns else None
    return BaseSolve(result.bound, plays, result)

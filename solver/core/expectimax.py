"""Generic expectimax (max^n for several players) over any `GameState`.

Written once and used by every game's exact solver, hint search and brute-force test oracle:
- memoised on hashable states (a transposition table shared by the whole search);
- depth limited (decision plies) with a leaf evaluator at the frontier;
- time limited and cancellable through a `Budget`;
- returns the value of every root alternative, not only the best, so hints can rank them.

Retry outcomes: a chance outcome whose successor *is the very decision state that chose the action*
means "nothing happened, decide again" (e.g. a failed roll in a solo race with free failures). Under the
optimal stationary policy the same choice is made again, so the action's value is the expectation
conditioned on leaving the state: sum_{o != retry} p_o V_o / (1 - p_retry). An action whose every
outcome is a retry is treated as illegal (it can never make progress).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, TERMINAL, GameState

Values = tuple[float, ...]
LeafEvaluator = Callable[[GameState], Sequence[float]]

_CHECK_EVERY = 64
#: Progress (nodes, deepest decision ply reached) is reported every this many budget checks.
_REPORT_EVERY_CHECKS = 16


@dataclass(frozen=True)
class RootAlternative:
    """One action at the root with its value vector (one entry per player)."""

    action: Any
    values: Values


@dataclass
class ExpectimaxResult:
    """Outcome of a search: the root value, every root alternative, and how much work it took."""

    values: Values
    alternatives: list[RootAlternative]
    nodes: int
    exact: bool  # False when some leaf came from the evaluator instead of a terminal state

    def best(self, player: int) -> RootAlternative:
        return max(self.alternatives, key=lambda alt: alt.values[player])


@dataclass
class _Search:
    budget: Budget | None
    max_depth: int | None
    leaf_value: LeafEvaluator | None
    memo: dict[tuple[GameState, int], Values] = field(default_factory=dict)
    nodes: int = 0
    used_evaluator: bool = False
    ply: int = 0  # decision plies between the root and the node being searched
    deepest: int = 0  # the largest `ply` reached (the progress line's "depth")

    def tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes % _CHECK_EVERY == 1:
            self.budget.check()
            if self.nodes % (_CHECK_EVERY * _REPORT_EVERY_CHECKS) == 1:
                self.budget.report(depth=self.deepest, nodes=self.nodes)

    def depth_key(self, depth: int | None) -> int:
        return -1 if depth is None else depth

    def value(self, state: GameState, depth: int | None) -> Values:
        key = (state, self.depth_key(depth))
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.tick()
        player = state.current_player()
        if player == TERMINAL:
            result = tuple(float(r) for r in state.returns())
        elif player == CHANCE:
            result = self.chance_value(state, None, depth)
        elif depth is not None and depth <= 0:
            if self.leaf_value is None:
                raise ValueError("depth limit reached without a leaf evaluator")
            self.used_evaluator = True
            result = tuple(float(v) for v in self.leaf_value(state))
        else:
            result = self.decision_value(state, depth)[0]
        self.memo[key] = result
        return result

    def action_value(self, state: GameState, action: Any, depth: int | None) -> Values | None:
        """Value of playing `action` at decision node `state` (None if it can never progress)."""
        successor = state.child(action)
        next_depth = None if depth is None else depth - 1
        if successor.current_player() == CHANCE:
            return self.chance_value(successor, state, next_depth)
        return self.value(successor, next_depth)

    def chance_value(self, state: GameState, decider: GameState | None, depth: int | None) -> Values | None:
        total: list[float] | None = None
        progress = 0.0
        for outcome, probability in state.chance_outcomes():
            successor = state.child(outcome)
            if decider is not None and successor == decider:
                continue  # a retry: conditioned away below
            p = float(probability)
            progress += p
            v = self.value(successor, depth)
            if total is None:
                total = [p * x for x in v]
            else:
                for i, x in enumerate(v):
                    total[i] += p * x
        if total is None or progress <= 0.0:
            return None
        return tuple(x / progress for x in total)

    def decision_value(self, state: GameState, depth: int | None) -> tuple[Values, list[RootAlternative]]:
        player = state.current_player()
        alternatives: list[RootAlternative] = []
        self.ply += 1
        self.deepest = max(self.deepest, self.ply)
        try:
            for action in state.legal_actions():
                v = self.action_value(state, action, depth)
                if v is not None:
                    alternatives.append(RootAlternative(action, v))
        finally:
            self.ply -= 1
        if not alternatives:
            raise ValueError(f"decision state with no action that can progress: {state!r}")
        best = max(alternatives, key=lambda alt: alt.values[player])
        return best.values, alternatives


def expectimax(
    state: GameState,
    *,
    budget: Budget | None = None,
    max_depth: int | None = None,
    leaf_value: LeafEvaluator | None = None,
) -> ExpectimaxResult:
    """Solve `state` exactly (or to `max_depth` decision plies, scoring the frontier with `leaf_value`).

    Raises `SolveInterrupted` when the budget runs out or is cancelled.
    """
    search = _Search(budget=budget, max_depth=max_depth, leaf_value=leaf_value)
    player = state.current_player()
    if player == TERMINAL:
        values = tuple(float(r) for r in state.returns())
        return ExpectimaxResult(values, [], 1, True)
    if player == CHANCE:
        values = search.chance_value(state, None, max_depth)
        assert values is not None
        return ExpectimaxResult(values, [], search.nodes, not search.used_evaluator)
    values, alternatives = search.decision_value(state, max_depth)
    return ExpectimaxResult(values, alternatives, search.nodes, not search.used_evaluator)

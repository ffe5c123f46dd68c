"""Max: the best round for one player when everything is known (hands and the pile's order).

Exhaustive depth-first search over the rules model with a transposition table (exact values only) and a
bound: a player's round income can never exceed their members' money plus the money of every card in their
hand and in the pile (only those can still join them), so a subtree whose bound cannot beat the best line
found is cut. The value is EXACT when the search finishes; when the budget runs out, the best line found and
the root bound are returned (FEASIBLE_WITH_BOUND).

Who decides the other players' choices:
- COOPERATIVE: every decision of every player serves the objective (the theoretical maximum a designer asks
  for: what the table could at best give this player);
- GREEDY: the other players follow the greedy policy (puzzles: "they play the rule of thumb; find your line").
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass

from campsolver.solver.adventure_tours.policies import greedy_action
from campsolver.solver.adventure_tours.rules import Action, State
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import CHANCE
from campsolver.solver.core.proof import Proof

_CHECK_EVERY = 256


class MaxObjective(enum.Enum):
    INCOME = "income"  # the player's round income (after the hand penalty)
    MARGIN = "margin"  # round income minus the best other round income


class Others(enum.Enum):
    COOPERATIVE = "cooperative"
    GREEDY = "greedy"


@dataclass
class MaxResult:
    value: float  # best found (the optimum when proof is EXACT)
    bound: float  # proven upper bound on the optimum (== value when EXACT)
    proof: Proof
    line: list[tuple[State, Action]]  # every decision along the best line, with the state it was taken at
    final: State  # the state at the round end along the line
    nodes: int
    states: int


def round_over(state: State, round_index: int) -> bool:
    return state.over or state.round_index != round_index


def round_value(state: State, player: int, objective: MaxObjective) -> int:
    scores = state.last_round
    if objective is MaxObjective.INCOME:
        return scores[player]
    others = [s for q, s in enumerate(scores) if q != player]
    return scores[player] - (max(others) if others else 0)


def value_bound(state: State, player: int, objective: MaxObjective) -> int:
    """No line gives a round value above this: the income bound, and for MARGIN that bound minus the lowest the
    best other round score can be (0 under the per-round floor; under the money-pile floor hand costs may take
    an opponent's round score down to minus the money they hold)."""
    bound = income_bound(state, player)
    others = [q for q in range(state.config.players) if q != player]
    if objective is MaxObjective.MARGIN and others:
        bound -= max(state.round_score_floor(q) for q in others)
    return bound


def income_bound(state: State, player: int) -> int:
    """No line can give `player` more than this round income: members already laid, plus every card in hand
    or pile (only those can still join them) whose demand some line could still meet. A colour's equipment
    can at most grow by every card of that colour in the player's hand, the pile and any tableau (steals)."""
    cfg = state.config
    money, colour, demand, value = cfg.money, cfg.colour, cfg.demand, cfg.value
    reachable = [*state.hands[player], *state.deck]
    ceiling = [state.equipment_level(player, k) for k in range(3)]
    for card in reachable:
        ceiling[colour[card]] += value[card]
    for q in range(cfg.players):
        for row in (state.members[q], state.equipment[q] if q != player else ()):
            for card in row:
                ceiling[colour[card]] += value[card]
    return state.income(player) + sum(money[c] for c in reachable if demand[c] <= ceiling[colour[c]])


class _Search:
    def __init__(self, root: State, player: int, objective: MaxObjective, others: Others, budget: Budget) -> None:
        if not root.deck_ordered:
            raise ValueError("max needs the pile's order (deck_ordered)")
        self.player = player
        self.objective = objective
        self.others = others
        self.budget = budget
        self.round_index = root.round_index
        self.memo: dict[State, tuple[int, Action | None]] = {}
        self.nodes = 0
        #: Incumbent: the best round value of any line reached so far (every line is a real line of play).
        self.best = -(10**9)
        self.best_line: list[tuple[State, Action]] = []
        self.best_final: State = root
        self.path: list[tuple[State, Action]] = []
        #: For progress reports: the root's upper bound and the deepest line (plies) the search has reached.
        self.root_bound = value_bound(root, player, objective)
        self.deepest = 0

    def bound(self, state: State) -> int:
        return value_bound(state, self.player, self.objective)

    def controlled(self, state: State) -> bool:
        return self.others is Others.COOPERATIVE or state.current_player() == self.player

    def value(self, state: State, alpha: int) -> tuple[int, bool]:
        """(value, exact). When not exact, the value is an upper bound no greater than `alpha`."""
        self.nodes += 1
        self.deepest = max(self.deepest, len(self.path))
        if self.nodes % _CHECK_EVERY == 0:
            self.budget.check()
            self.budget.report(
                best=self.best, bound=max(self.root_bound, self.best), depth=self.deepest, nodes=self.nodes
            )
        if round_over(state, self.round_index):
            value = round_value(state, self.player, self.objective)
            if value > self.best:
                self.best, self.best_line, self.best_final = value, list(self.path), state
            return value, True
        cached = self.memo.get(state)
        if cached is not None:
            return cached[0], True
        upper = self.bound(state)
        alpha = max(alpha, self.best)
        if upper <= alpha:
            return upper, False
        if state.current_player() == CHANCE:
            (outcome, _), *_ = state.chance_outcomes()
            value, exact = self.value(state.child(outcome), alpha)
            if exact:
                self.memo[state] = (value, None)
            return value, exact
        first = greedy_action(state)
        # The greedy choice first: a good incumbent early makes the bound cut more.
        actions = [first, *(a for a in state.legal_actions() if a != first)] if self.controlled(state) else [first]
        best_value, best_action, all_exact, pruned_max = -(10**9), None, True, -(10**9)
        for action in actions:
            self.path.append((state, action))
            try:
                value, exact = self.value(state.child(action), max(alpha, best_value))
            finally:
                self.path.pop()
            if exact:
                if value > best_value:
                    best_value, best_action = value, action
            else:
                all_exact = False
                pruned_max = max(pruned_max, value)
        if best_action is not None and (all_exact or best_value >= pruned_max):
            self.memo[state] = (best_value, best_action)
            return best_value, True
        return max(best_value, pruned_max), False

    def line(self, root: State) -> tuple[list[tuple[State, Action]], State]:
        state = root
        line: list[tuple[State, Action]] = []
        while not round_over(state, self.round_index):
            if state.current_player() == CHANCE:
                (outcome, _), *_ = state.chance_outcomes()
                state = state.child(outcome)
                continue
            _, action = self.memo[state]
            assert action is not None
            line.append((state, action))
            state = state.child(action)
        return line, state


def greedy_line_value(root: State, player: int, objective: MaxObjective) -> tuple[int, State]:
    """Everyone greedy: a first line (and a lower bound for the search)."""
    state = root
    while not round_over(state, root.round_index):
        if state.current_player() == CHANCE:
            (outcome, _), *_ = state.chance_outcomes()
            state = state.child(outcome)
        else:
            state = state.child(greedy_action(state))
    return round_value(state, player, objective), state


def maximise(
    root: State,
    player: int,
    budget: Budget,
    *,
    objective: MaxObjective = MaxObjective.INCOME,
    others: Others = Others.COOPERATIVE,
) -> MaxResult:
    """The best round value for `player` from `root` (pile order and all hands known)."""
    search = _Search(root, player, objective, others, budget)
    # The everyone-greedy line is a first incumbent (in GREEDY mode only when the player's own greedy
    # choices are a legal line, which they always are).
    search.best_line = _replay_greedy(root, player, others)
    search.best, search.best_final = _line_end(root, search.best_line, player, objective)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        value, exact = search.value(root, -(10**9))
        if exact and value >= search.best:
            line, final = search.line(root)
        else:
            # Every line was cut by the incumbent: the incumbent is optimal.
            value, line, final = search.best, search.best_line, search.best_final
        return MaxResult(
            value=value,
            bound=value,
            proof=Proof.EXACT,
            line=line,
            final=final,
            nodes=search.nodes,
            states=len(search.memo),
        )
    except SolveInterrupted:
        return MaxResult(
            value=search.best,
            bound=max(value_bound(root, player, objective), search.best),
            proof=Proof.FEASIBLE_WITH_BOUND,
            line=search.best_line,
            final=search.best_final,
            nodes=search.nodes,
            states=len(search.memo),
        )
    finally:
        sys.setrecursionlimit(limit)


def _line_end(root: State, line: list[tuple[State, Action]], player: int, objective: MaxObjective) -> tuple[int, State]:
    state = line[-1][0].child(line[-1][1]) if line else root
    while not round_over(state, root.round_index):
        (outcome, _), *_ = state.chance_outcomes()
        state = state.child(outcome)
    return round_value(state, player, objective), state


def _replay_greedy(root: State, player: int = -1, others: Others = Others.COOPERATIVE) -> list[tuple[State, Action]]:
    state, line = root, []
    while not round_over(state, root.round_index):
        if state.current_player() == CHANCE:
            (outcome, _), *_ = state.chance_outcomes()
            state = state.child(outcome)
        else:
            action = greedy_action(state)
            line.append((state, action))
            state = state.child(action)
    return line

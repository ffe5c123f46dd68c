"""Hints: every choice of the player to move ranked by a search over the legal moves.

A turn is two decisions (the movement, then the free barrier), so a hint is asked at either. Leaves are valued
by the *estimate* of `hint_search.estimate` (allotted sites exact, open territory by nearest piece, discounted by
the barriers it still needs); a game over is valued exactly. The search, all within the budget:

1. Every choice one turn deep: at a BARRIER decision every legal barrier; at a MOVE decision every movement
   followed by the mover's best free barrier among the best `BARRIER_CANDIDATES` at the stay-put position and
   the edges around the squares the movement reaches.
2. The `DEEPEN` best of those again, deeper and in order while the budget lasts: the mover's best free barrier
   among *all* legal ones after the movement, then the reply of the next player (staying put and placing their
   own best barrier for *their* objective, the margin over their best opponent), valued at the resulting
   position. Those choices are ranked first, by that value (the opponent's reply only lowers a value: deepened
   choices are compared with one another); the others follow by their one-turn value.

Why not the CP-SAT securable score at the leaves: it assumes the opponents let the mover enclose what they want
(one solve takes ~1 s on the default board, against ~1,000 leaves a hint values per second), so it would rank
greedy grabs first; the reply ply is what makes the hint see the opponent's barrier. Every value is an estimate:
the answer is HEURISTIC unless every choice ends the game (then EXACT).

Objective: the mover's margin over the best opponent (default; that is what wins) or the mover's own score.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.hint_search import edge_id, edge_ids, estimate
from campsolver.solver.deluxe_camping.rules import Action, Barrier, DCState, Edge, Move, Stage, neighbour_table

#: Free barriers tried after each movement in the one-turn pass (the best at the stay-put position), besides
#: the edges around the squares the movement reaches. The deepened choices try every legal barrier.
BARRIER_CANDIDATES = 3
#: Choices searched deeper (all barriers, then the next player's reply), best one-turn value first. Measured
#: CPU for the whole search on the default board at 4: 0.22-0.31 s for an opening movement (~3,500 leaves),
#: ~0.05 s for a barrier (~900 leaves).
DEEPEN = 4


class HintObjective(enum.Enum):
    MARGIN = "margin"
    OWN = "own"


def utility(scores: tuple[float, ...] | list[float], player: int, objective: HintObjective) -> float:
    if objective is HintObjective.OWN:
        return float(scores[player])
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))


def estimate_scores(state: DCState, extra: Edge | None = None) -> list[float]:
    """The estimate of a position (optionally with one more barrier), exact once the game is over."""
    if state.stage is Stage.OVER and extra is None:
        return [float(x) for x in state.scores()]
    squares = state.config.squares
    base = state._cache.get("barrier_ids")
    if base is None:
        base = state._cache["barrier_ids"] = edge_ids(squares, state.barriers)
    barriers = base if extra is None else base | {edge_id(squares, extra)}
    supply = state.supply_left - (extra is not None)
    return estimate(state.config, state.owner_at, barriers, state.pool, state.ice_creams, state.nuisance, supply)


def evaluate(state: DCState, player: int, objective: HintObjective) -> float:
    """The estimate of a position for `player` (exact scores once the game is over)."""
    return utility(estimate_scores(state), player, objective)


def territory_scores(state: DCState) -> tuple[int, ...]:
    """Per-player points of the nearest-piece partition of the whole board with an unlimited supply (the
    estimate without the discount); equal to the scores on a finished board."""
    values = estimate(
        state.config, state.owner_at, edge_ids(state.config.squares, state.barriers), state.pool,
        state.ice_creams, state.nuisance,
        len(rules.all_edges(state.config.rows, state.config.cols)),
    )
    return tuple(round(v) for v in values)


@dataclass
class RankedMove:
    action: Action
    value: float | None  # None: not evaluated before the budget ran out
    depth: int = 0  # 1: one turn deep; 2: with the next player's reply; 0: not evaluated
    exact: bool = False  # the value is a final score (the choice ends the game)


@dataclass
class HintResult:
    moves: list[RankedMove]  # best first; unevaluated last
    proof: Proof
    nodes: int
    wall_time_s: float
    interrupted: bool
    depth: int = 1  # the deepest level any choice reached


class _Search:
    """One hint: the mover, the objective, the node count and the budget."""

    def __init__(self, state: DCState, budget: Budget, objective: HintObjective) -> None:
        self.state = state
        self.budget = budget
        self.objective = objective
        self.me = state.to_move
        self.nodes = 0

    def value(self, state: DCState, extra: Edge | None = None, player: int | None = None,
              objective: HintObjective | None = None) -> float:
        self.nodes += 1
        return utility(estimate_scores(state, extra), self.me if player is None else player,
                       objective or self.objective)

    def best_barrier(self, state: DCState, edges: list[Edge], player: int,
                     objective: HintObjective) -> tuple[float, Edge | None]:
        """The best of `edges` for `player` at a BARRIER decision (value for that player and objective)."""
        best: tuple[float, Edge | None] = (float("-inf"), None)
        for edge in edges:
            self.budget.check()
            v = self.value(state, edge, player, objective)
            if v > best[0]:
                best = (v, edge)
        return best

    def reply(self, state: DCState) -> tuple[float, bool]:
        """The mover's value after the next player's reply (stay put, best barrier for their margin); exact
        when the game is over."""
        if state.stage is Stage.OVER:
            self.nodes += 1
            return utility([float(x) for x in state.scores()], self.me, self.objective), True
        other = state.to_move
        if other == self.me or state.stage is not Stage.MOVE:
            return self.value(state), False
        stay = state.child(Move(()))
        if stay.stage is Stage.BARRIER and stay.to_move == other:
            _, edge = self.best_barrier(stay, stay.legal_barriers(), other, HintObjective.MARGIN)
            if edge is not None:
                after = stay.child(Barrier(edge))
                if after.stage is Stage.OVER:
                    return utility([float(x) for x in after.scores()], self.me, self.objective), True
                return self.value(stay, edge), False
        return self.value(stay), stay.stage is Stage.OVER


def hint(state: DCState, budget: Budget, objective: HintObjective = HintObjective.MARGIN) -> HintResult:
    """Rank every legal choice of the player to move (see the module docstring)."""
    if state.stage not in (Stage.MOVE, Stage.BARRIER):
        raise ValueError(f"no hint at stage {state.stage.value}: hints are for the turns (move, barrier)")
    started = time.monotonic()
    search = _Search(state, budget, objective)
    actions = state.legal_actions()
    shallow: dict[int, float] = {}
    exact: set[int] = set()
    deep: dict[int, float] = {}
    interrupted = False
    try:
        if state.stage is Stage.BARRIER:
            for i, action in enumerate(actions):
                budget.check()
                assert isinstance(action, Barrier)
                shallow[i] = search.value(state, action.edge)
        else:
            _rank_movements(search, actions, shallow, exact)
        budget.report(depth=1, samples=search.nodes, best=max(shallow.values(), default=None))
        order = sorted(shallow, key=lambda i: (-shallow[i], i))
        for i in order[:DEEPEN]:
            if budget.expired():
                break
            deep[i], is_exact = _deepen(search, actions[i])
            if is_exact:
                exact.add(i)
            else:
                exact.discard(i)
            budget.report(depth=2, samples=search.nodes, best=max(deep.values()))
    except SolveInterrupted:
        interrupted = True  # answer with what was valued (possibly nothing: every choice unevaluated)
    ranked = sorted(
        range(len(actions)),
        key=lambda i: (i not in deep, i not in shallow, -deep.get(i, shallow.get(i, 0.0)), i),
    )
    moves = [
        RankedMove(
            actions[i],
            deep.get(i, shallow.get(i)),
            depth=2 if i in deep else 1 if i in shallow else 0,
            exact=i in exact,
        )
        for i in ranked
    ]
    every_exact = len(exact) == len(actions)
    return HintResult(
        moves=moves,
        proof=Proof.EXACT if every_exact else Proof.HEURISTIC,
        nodes=search.nodes,
        wall_time_s=time.monotonic() - started,
        interrupted=interrupted,
        depth=2 if deep else 1,
    )


def _rank_movements(search: _Search, actions: list[Action], values: dict[int, float], exact: set[int]) -> None:
    """One turn deep for every movement: the movement, then the best screened free barrier."""
    state, me = search.state, search.me
    candidates = _barrier_candidates(search)
    table = neighbour_table(state.config.rows, state.config.cols)
    for i, action in enumerate(actions):
        search.budget.check()
        after = state.child(action)
        if after.stage is Stage.BARRIER and after.to_move == me:
            legal = set(after.legal_barriers())
            assert isinstance(action, Move)
            reached = {b for _, b in action.steps} - {a for a, _ in action.steps}
            near = [rules.edge_of(s, t) for s in reached for t in table[s]]
            tried = list(dict.fromkeys(e for e in [*candidates, *near] if e in legal))
            if not tried:
                tried = after.legal_barriers()[:BARRIER_CANDIDATES]
            values[i], _ = search.best_barrier(after, tried, me, search.objective)
        else:
            values[i] = search.value(after)
            if after.stage is Stage.OVER:
                exact.add(i)


def _deepen(search: _Search, action: Action) -> tuple[float, bool]:
    """A choice searched deeper: after a movement, the best of every legal free barrier; then the next
    player's reply. Returns the mover's value and whether it is exact (the game ended)."""
    state = search.state.child(action)
    if state.stage is Stage.BARRIER and state.to_move == search.me:
        _, edge = search.best_barrier(state, state.legal_barriers(), search.me, search.objective)
        if edge is not None:
            state = state.child(Barrier(edge))
    return search.reply(state)


def _barrier_candidates(search: _Search) -> list[Edge]:
    """The free barriers that are best if the mover stays put (a cheap screen for every movement); with at
    most a third of the budget, the best of those seen when it ends."""
    state, me = search.state, search.me
    stay = state.child(Move(()))
    if stay.stage is not Stage.BARRIER or stay.to_move != me:
        return []
    screen = search.budget.limited(search.budget.remaining() / 3)
    scored = []
    for edge in stay.legal_barriers():
        if screen.expired():
            break
        scored.append((search.value(stay, edge), edge))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [edge for _, edge in scored[:BARRIER_CANDIDATES]]


__all__ = [
    "BARRIER_CANDIDATES",
    "DEEPEN",
    "HintObjective",
    "HintResult",
    "RankedMove",
    "estimate_scores",
    "evaluate",
    "hint",
    "territory_scores",
    "utility",
]

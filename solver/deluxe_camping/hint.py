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

3. With `leaf=Leaf.SECURABLE`: the deepened choices again, in order while the budget lasts, valued by the
   CP-SAT securable-score model (`maximise.maximise`, the hint's objective, a short limit per leaf) at the very
   position the estimate search reached (after the mover's barrier and the next player's reply). Those choices
   are ranked first by that value (the estimate after the reply breaks ties: early in a game the securable
   margin is nearly the same everywhere, the mover walling every opponent into its own squares).

Every value says what it is (`ValueKind`): the final score when a choice ends the game; the securable optimum
(CP-SAT proved it); a securable partition's value with CP-SAT's bound (the leaf's limit stopped it); the
estimate after the next player's reply; the one-turn estimate (screened); none. The securable value assumes the
pieces stay put and the opponents let the mover place every barrier left: an optimistic leaf, not a forecast.
The answer is HEURISTIC unless every choice ends the game (then EXACT).

Objective: the mover's margin over the best opponent (default; that is what wins) or the mover's own score.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import maximise as maxima
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
#: Longest CP-SAT solve of one securable leaf. Measured on self-play positions of the default board, 2 players,
#: one worker: a partition is found in ~20 ms CPU (the first solution), proofs take ~0.1-0.25 s CPU.
LEAF_LIMIT_S = 0.25
#: Share of the budget for the estimate search when securable leaves follow (the rest is the leaves').
ESTIMATE_SHARE = 0.5
#: A leaf is not started with less than this left, nor given less: its first solutions (~20 ms CPU) are not
#: interruptible, and on a loaded machine (load 7 on 2 cores) 0.04 s let the hint overrun by ~70 ms.
LEAF_MIN_S = 0.12
#: Proven leaf values kept between hints (same position, player and objective: the same optimum).
LEAF_CACHE_SIZE = 4096


class HintObjective(enum.Enum):
    MARGIN = "margin"
    OWN = "own"


class Leaf(enum.Enum):
    """What values the deepened choices' leaves."""

    ESTIMATE = "estimate"  # the nearest-piece territory estimate (hint_search)
    SECURABLE = "securable"  # the CP-SAT securable-score model (maximise), then the estimate breaks ties


#: The default leaf (the self-play bench decides it: bench/results/deluxe_camping.json).
DEFAULT_LEAF = Leaf.ESTIMATE


class ValueKind(enum.Enum):
    """What a ranked choice's value is (values of different kinds are different quantities)."""

    EXACT = "exact"  # the choice (or the reply) ends the game: the final objective
    SECURABLE_OPTIMAL = "securable optimum"  # CP-SAT proved the securable value at the leaf
    SECURABLE_FOUND = "securable, best found"  # a securable partition's value (<= the optimum <= `bound`)
    SEARCHED = "estimate after the reply"  # territory estimate after the mover's barrier and the reply
    SCREENED = "estimate one turn deep"  # territory estimate before the next player's reply (screen)
    NONE = "not evaluated"  # the budget ran out first


_OBJECTIVE_TO_MAX = {HintObjective.MARGIN: maxima.Objective.MARGIN, HintObjective.OWN: maxima.Objective.OWN}
_LEAF_CACHE: dict[tuple, tuple[int, float]] = {}


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
    kind: ValueKind = ValueKind.NONE
    bound: float | None = None  # SECURABLE_FOUND: CP-SAT's upper bound of the securable value
    estimate: float | None = None  # the territory estimate (after the reply when searched)
    line: tuple[Action, ...] = ()  # the actions from the position to the leaf valued (searched or securable)


@dataclass
class HintResult:
    moves: list[RankedMove]  # best first; unevaluated last
    proof: Proof
    nodes: int
    wall_time_s: float
    interrupted: bool
    depth: int = 1  # the deepest level any choice reached
    leaf: Leaf = Leaf.ESTIMATE
    leaves_solved: int = 0  # securable leaves valued by CP-SAT (cache hits included)
    leaves_proven: int = 0  # of those, proven optimal


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

    def reply(self, state: DCState) -> tuple[float, bool, DCState, tuple[Action, ...]]:
        """The mover's value after the next player's reply (stay put, best barrier for their margin); exact
        when the game is over. Also the position reached and the reply's actions."""
        if state.stage is Stage.OVER:
            self.nodes += 1
            return utility([float(x) for x in state.scores()], self.me, self.objective), True, state, ()
        other = state.to_move
        if other == self.me or state.stage is not Stage.MOVE:
            return self.value(state), False, state, ()
        stay = state.child(Move(()))
        if stay.stage is Stage.BARRIER and stay.to_move == other:
            _, edge = self.best_barrier(stay, stay.legal_barriers(), other, HintObjective.MARGIN)
            if edge is not None:
                after = stay.child(Barrier(edge))
                line = (Move(()), Barrier(edge))
                if after.stage is Stage.OVER:
                    return utility([float(x) for x in after.scores()], self.me, self.objective), True, after, line
                return self.value(stay, edge), False, after, line
        return self.value(stay), stay.stage is Stage.OVER, stay, (Move(()),)


def hint(
    state: DCState,
    budget: Budget,
    objective: HintObjective = HintObjective.MARGIN,
    leaf: Leaf | None = None,
) -> HintResult:
    """Rank every legal choice of the player to move (see the module docstring)."""
    if state.stage not in (Stage.MOVE, Stage.BARRIER):
        raise ValueError(f"no hint at stage {state.stage.value}: hints are for the turns (move, barrier)")
    leaf = DEFAULT_LEAF if leaf is None else leaf
    started = time.monotonic()
    search = _Search(state, budget, objective)
    actions = state.legal_actions()
    shallow: dict[int, float] = {}
    exact: set[int] = set()
    deep: dict[int, float] = {}
    leaves: dict[int, tuple[DCState, tuple[Action, ...]]] = {}
    secured: dict[int, tuple[int, float, bool]] = {}  # value, bound, proven
    interrupted = False
    # With securable leaves the estimate search gets a share of the budget, so the leaves are not starved.
    phase = budget if leaf is Leaf.ESTIMATE else budget.sub_budget(ESTIMATE_SHARE)
    search.budget = phase
    try:
        if state.stage is Stage.BARRIER:
            for i, action in enumerate(actions):
                phase.check()
                assert isinstance(action, Barrier)
                shallow[i] = search.value(state, action.edge)
        else:
            _rank_movements(search, actions, shallow, exact)
        budget.report(depth=1, samples=search.nodes, best=max(shallow.values(), default=None))
        order = sorted(shallow, key=lambda i: (-shallow[i], i))
        for i in order[:DEEPEN]:
            if phase.expired():
                break
            deep[i], is_exact, reached, line = _deepen(search, actions[i])
            leaves[i] = (reached, line)
            if is_exact:
                exact.add(i)
            else:
                exact.discard(i)
            budget.report(depth=2, samples=search.nodes, best=max(deep.values()))
    except SolveInterrupted:
        interrupted = True  # answer with what was valued (possibly nothing: every choice unevaluated)
    search.budget = budget
    if leaf is Leaf.SECURABLE and not budget.expired():
        if not deep:  # the screen used the estimate's share: the leaves are the best screened choices' own
            for i in sorted(shallow, key=lambda i: (-shallow[i], i))[:DEEPEN]:
                leaves[i] = (state.child(actions[i]), ())
        try:
            _value_leaves(search, deep or {i: shallow[i] for i in leaves}, exact, leaves, secured)
        except SolveInterrupted:
            interrupted = True
    moves = [_ranked(i, actions[i], shallow, deep, exact, leaves, secured) for i in range(len(actions))]
    moves.sort(key=lambda m_i: (*_rank_key(m_i[0], leaf), m_i[1]))
    every_exact = len(exact) == len(actions)
    return HintResult(
        moves=[m for m, _ in moves],
        proof=Proof.EXACT if every_exact else Proof.HEURISTIC,
        nodes=search.nodes,
        wall_time_s=time.monotonic() - started,
        interrupted=interrupted,
        depth=2 if deep else 1,
        leaf=leaf,
        leaves_solved=len(secured),
        leaves_proven=sum(proven for _, _, proven in secured.values()),
    )


#: Ranking groups, best first. With securable leaves, the choices valued by the securable model (or exactly)
#: come first; the estimate-only groups follow as in the estimate search.
_GROUP = {
    ValueKind.EXACT: 0,
    ValueKind.SECURABLE_OPTIMAL: 0,
    ValueKind.SECURABLE_FOUND: 0,
    ValueKind.SEARCHED: 1,
    ValueKind.SCREENED: 2,
    ValueKind.NONE: 3,
}


def _ranked(
    i: int,
    action: Action,
    shallow: dict[int, float],
    deep: dict[int, float],
    exact: set[int],
    leaves: dict[int, tuple[DCState, tuple[Action, ...]]],
    secured: dict[int, tuple[int, float, bool]],
) -> tuple[RankedMove, int]:
    """One choice with its value and the kind of that value."""
    line = (action, *leaves[i][1]) if i in leaves else ()
    if i in deep:
        move = RankedMove(action, deep[i], depth=2, exact=i in exact, estimate=deep[i], line=line,
                          kind=ValueKind.EXACT if i in exact else ValueKind.SEARCHED)
    elif i in shallow:
        kind = ValueKind.EXACT if i in exact else ValueKind.SCREENED
        move = RankedMove(action, shallow[i], depth=1, exact=i in exact, kind=kind, estimate=shallow[i], line=line)
    else:
        return RankedMove(action, None), i
    if i in secured:
        value, bound, proven = secured[i]
        move.value = float(value)
        move.kind = ValueKind.SECURABLE_OPTIMAL if proven else ValueKind.SECURABLE_FOUND
        move.bound = bound
    return move, i


def comparison_group(move: RankedMove, leaf: Leaf) -> int:
    """Choices whose values are one quantity (ranked together, best first; groups in order): with estimate
    leaves, by search depth (searched, screened, unevaluated); with securable leaves, by value kind (securable
    or exact, searched, screened, unevaluated)."""
    if leaf is Leaf.ESTIMATE:
        return 2 - move.depth if move.value is not None else 3
    return _GROUP[move.kind]


def _rank_key(move: RankedMove, leaf: Leaf) -> tuple:
    """Group first, then best value first (with securable leaves the estimate breaks ties)."""
    tie = 0.0 if leaf is Leaf.ESTIMATE else -(move.estimate or 0.0)
    return (comparison_group(move, leaf), -(move.value or 0.0), tie)


def _value_leaves(
    search: _Search,
    deep: dict[int, float],
    exact: set[int],
    leaves: dict[int, tuple[DCState, tuple[Action, ...]]],
    secured: dict[int, tuple[int, float, bool]],
) -> None:
    """The deepened choices' leaves valued by the securable-score model, best estimate first, each with a share
    of what is left (at most `LEAF_LIMIT_S`); proven values are cached between hints."""
    budget = search.budget
    pending = [i for i in sorted(deep, key=lambda i: (-deep[i], i)) if i not in exact]
    for n, i in enumerate(pending):
        remaining = budget.remaining()
        if remaining < LEAF_MIN_S:
            break
        position = leaves[i][0]
        value = securable_leaf(position, search.me, search.objective,
                               budget.limited(min(LEAF_LIMIT_S, max(LEAF_MIN_S, remaining / (len(pending) - n)))))
        if value is not None:
            secured[i] = value
            budget.report(depth=3, samples=len(secured), best=max(v for v, _, _ in secured.values()),
                          bound=max(b for _, b, _ in secured.values()))


def securable_leaf(state: DCState, player: int, objective: HintObjective,
                   budget: Budget) -> tuple[int, float, bool] | None:
    """The securable value of a position for `player` (the hint's objective): (value of the best partition
    found, CP-SAT's bound, proven). None when no partition was found within `budget`. Every value is the rules
    model's score of a partition (maximise re-scores its answer)."""
    key = (state.config, state.pool, state.ice_creams, state.nuisance, state.bungalows, state.trailers,
           state.barriers, player, objective)
    if key in _LEAF_CACHE:
        value, bound = _LEAF_CACHE[key]
        return value, bound, True
    result = maxima.maximise(state, budget, player=player, objective=_OBJECTIVE_TO_MAX[objective], workers=1)
    if result.value is None:
        return None
    proven = result.proof is Proof.OPTIMAL
    bound = float(result.value) if proven else float("inf") if result.bound is None else float(result.bound)
    if proven:
        if len(_LEAF_CACHE) >= LEAF_CACHE_SIZE:
            _LEAF_CACHE.pop(next(iter(_LEAF_CACHE)))
        _LEAF_CACHE[key] = (result.value, bound)
    return result.value, bound, proven


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


def _deepen(search: _Search, action: Action) -> tuple[float, bool, DCState, tuple[Action, ...]]:
    """A choice searched deeper: after a movement, the best of every legal free barrier; then the next
    player's reply. Returns the mover's value, whether it is exact (the game ended), the position reached and
    the actions after `action` that reach it."""
    state = search.state.child(action)
    line: tuple[Action, ...] = ()
    if state.stage is Stage.BARRIER and state.to_move == search.me:
        _, edge = search.best_barrier(state, state.legal_barriers(), search.me, search.objective)
        if edge is not None:
            state = state.child(Barrier(edge))
            line = (Barrier(edge),)
    value, is_exact, reached, reply = search.reply(state)
    return value, is_exact, reached, line + reply


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
    "LEAF_LIMIT_S",
    "HintObjective",
    "HintResult",
    "Leaf",
    "RankedMove",
    "ValueKind",
    "comparison_group",
    "estimate_scores",
    "evaluate",
    "hint",
    "securable_leaf",
    "territory_scores",
    "utility",
]

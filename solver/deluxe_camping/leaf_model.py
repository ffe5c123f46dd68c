"""Cheap securable-score leaves for the hint: one CP-SAT model re-used for many positions.

The hint's leaves differ from one another by a few barriers (the search's replies stay put, so within one
candidate every leaf has the same pieces). Building the securable model (`maximise.build_owner_model`) costs
10-20 ms CPU a case and `maximise` builds up to four cases a leaf, so a fresh model a leaf spends most of a
short leaf budget building. Here one *owner-labelled* model (no split on the pain-in-the-neck: the exact
`max(worth - 10, 0)` form) is built for a base position with `extra_barriers`: every open edge carries a literal
"a barrier stands here". A later position with the same pieces, a superset of the base's barriers and the same
regions (no new site closed) is that model with those literals fixed (the supply constraint counts them and the
flow may not cross them): a cloned proto, a few domains set, the leaf's own first solution as the hint. The
site-size floors and the pain-in-the-neck's radius computed at the base stay valid (barriers only lengthen
paths), so the fixed model has exactly the leaf's optima.

Every value is the rules model's score of a returned board (`maximise.score_partition`); OPTIMAL only from
CP-SAT's status. Positions a cached model cannot serve get a model of their own (cached for the next leaves).
When every site cannot be allotted within the supply (late game), `maximise` itself answers (dead sites).
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping.rules import DCState, Edge
from ortools.sat.python import cp_model

#: Models kept between leaves and hints (least recently used dropped first). A 10 x 10 model is ~1 MB.
MODEL_CACHE_SIZE = 48
#: Models kept per piece placement (each serves positions with more barriers than its base).
MODELS_PER_PLACEMENT = 4


@dataclass
class LeafValue:
    """The securable value of one leaf for the hint's player and objective."""

    value: int  # the objective's value of the best board found (rules-scored)
    bound: float  # CP-SAT's proven upper bound (== value when proven)
    proven: bool
    added: frozenset[Edge]  # that board's added barriers
    improved: bool  # CP-SAT found a board better than the first solutions
    reused: bool  # a cached model served the leaf (no build)
    build_s: float  # CPU seconds spent building a model for this leaf (0 when reused)


class _Model:
    """One owner model with extra-barrier literals, for the positions `serves` accepts."""

    def __init__(self, base: DCState, player: int, objective: maxima.Objective) -> None:
        self.base = base
        self.model, self.handles = maxima.build_owner_model(
            base, player=player, objective=objective, extra_barriers=True
        )
        self.sites = len(base.sites)

    def serves(self, state: DCState) -> bool:
        """Same pieces (the cache key), a superset of the base's barriers on open edges, no new region."""
        extra = state.barriers - self.base.barriers
        return (
            self.base.barriers <= state.barriers
            and len(state.sites) == self.sites
            and all(edge in self.handles.extra for edge in extra)
            and state.supply_left == self.base.supply_left - len(extra)
        )


_MODELS: OrderedDict[tuple, list[_Model]] = OrderedDict()

#: Recent leaves' CPU outside CP-SAT's search (first solutions, clone, hint, re-scoring) and of model builds:
#: the hint foresees a leaf's uninterruptible work from their maxima (`expected_cpu`).
RECENT_LEAVES = 32
_OVERHEAD_CPU: deque[float] = deque(maxlen=RECENT_LEAVES)
_BUILD_CPU: deque[float] = deque(maxlen=RECENT_LEAVES)
#: Before any leaf was measured (default board, 2-4 players, one core): ~5-15 ms outside CP-SAT, builds ~15-30 ms.
DEFAULT_OVERHEAD_CPU_S = 0.015
DEFAULT_BUILD_CPU_S = 0.03


def expected_cpu(state: DCState, player: int, objective: maxima.Objective) -> float:
    """CPU seconds a leaf of `state` spends outside CP-SAT's (interruptible) search: the largest recent
    overhead, plus the largest recent build when no cached model serves it."""
    overhead = max(_OVERHEAD_CPU, default=DEFAULT_OVERHEAD_CPU_S)
    if has_model(state, player, objective):
        return overhead
    return overhead + max(_BUILD_CPU, default=DEFAULT_BUILD_CPU_S)


def _placement(state: DCState, player: int, objective: maxima.Objective) -> tuple:
    return (
        state.config,
        state.pool,
        state.ice_creams,
        state.nuisance,
        state.bungalows,
        state.trailers,
        player,
        objective,
    )


def model_for(
    state: DCState, player: int, objective: maxima.Objective, base: DCState | None = None
) -> tuple[_Model, bool, float]:
    """A model serving `state`: a cached one, else one built on `base` (when it serves `state`: the search
    passes the candidate's position before its barriers, so later leaves re-use it) or on `state`. Returns the
    model, whether it was cached, and the build's CPU seconds."""
    key = _placement(state, player, objective)
    models = _MODELS.get(key, [])
    for model in models:
        if model.serves(state):
            _MODELS.move_to_end(key)
            return model, True, 0.0
    started = time.process_time()
    model = None
    if base is not None and _placement(base, player, objective) == key:
        candidate = _Model(base, player, objective)
        if candidate.serves(state):
            model = candidate
    if model is None:
        model = _Model(state, player, objective)
    built = time.process_time() - started
    models = [*models[-(MODELS_PER_PLACEMENT - 1) :], model]
    _MODELS[key] = models
    _MODELS.move_to_end(key)
    while sum(len(v) for v in _MODELS.values()) > MODEL_CACHE_SIZE:
        _MODELS.popitem(last=False)
    return model, False, built


def has_model(state: DCState, player: int, objective: maxima.Objective) -> bool:
    """A cached model serves `state` (its leaf needs no build)."""
    return any(model.serves(state) for model in _MODELS.get(_placement(state, player, objective), []))


def clear_cache() -> None:
    _MODELS.clear()


def securable_value(
    state: DCState, player: int, objective: maxima.Objective, budget: Budget, base: DCState | None = None
) -> LeafValue | None:
    """The securable value of `state` for `player` within `budget` (one worker): the best of the first
    solutions (~1 ms) improved by CP-SAT on a re-used model while the budget lasts. None when no board was
    found (the budget too short for `maximise`'s dead-site model in a late position)."""
    started = time.process_time()
    firsts = maxima.first_solutions(state, player)
    best: tuple[int, frozenset[Edge], dict[int, int]] | None = None
    for labels in firsts:
        added = maxima.added_barriers(state, labels)
        value = maxima.objective_value(maxima.score_partition(state, added).scores, objective, player)
        if best is None or value > best[0]:
            best = (value, added, labels)
    if best is None:
        return _fresh(state, player, objective, budget)
    model, reused, built = model_for(state, player, objective, base)
    if not reused:
        _BUILD_CPU.append(built)
    blocked = frozenset(state.barriers - model.base.barriers)
    clone = model.model.clone()
    for edge, var in model.handles.extra.items():
        domain = clone.proto.variables[var.index].domain
        domain[0] = domain[1] = int(edge in blocked)
    clone.clear_hints()
    model.handles.add_hint(clone, maxima.owner_labels(state, best[2]), blocked)
    ceiling = float(maxima.ceiling(state, player))
    searching = time.process_time()
    result = cpsat.solve(clone, budget, workers=1, configure=maxima.OWNER_MODEL_CONFIGURE)
    searched = time.process_time() - searching
    if result.status == cp_model.INFEASIBLE:
        raise AssertionError("a rules-scored first solution fits the supply, yet CP-SAT calls the leaf infeasible")
    value, added, improved = best[0], best[1], False
    if result.has_solution:
        found = frozenset(e for e, var in model.handles.cut.items() if result.boolean(var)) - state.barriers
        scored = maxima.objective_value(maxima.score_partition(state, found).scores, objective, player)
        if scored != round(result.objective or 0):
            raise AssertionError(f"CP-SAT objective {result.objective} but the rules model scores {scored}")
        if scored > value:
            value, added, improved = scored, found, True
    proven = result.status == cp_model.OPTIMAL
    # CP-SAT's bound is read only when it reports a solution (stopped before one, e.g. in presolve, it may
    # report no proven bound at all); otherwise the obvious ceiling.
    bound = float(value) if proven else maxima.dual_bound(result) if result.has_solution else None
    bound = ceiling if bound is None else min(bound, ceiling)
    _OVERHEAD_CPU.append(time.process_time() - started - searched - built)
    return LeafValue(
        value=value,
        bound=max(bound, float(value)),
        proven=proven,
        added=added,
        improved=improved,
        reused=reused,
        build_s=built,
    )


def _fresh(state: DCState, player: int, objective: maxima.Objective, budget: Budget) -> LeafValue | None:
    """No first solution fits the supply: `maximise` (its dead-site model) answers."""
    result = maxima.maximise(state, budget, player=player, objective=objective, workers=1)
    if result.value is None or result.partition is None:
        return None
    proven = result.proof is Proof.OPTIMAL
    bound = (
        float(result.value)
        if proven
        else float(maxima.ceiling(state, player))
        if result.bound is None
        else float(result.bound)
    )
    return LeafValue(
        value=result.value,
        bound=bound,
        proven=proven,
        added=result.partition.added,
        improved=False,
        reused=False,
        build_s=0.0,
    )


__all__ = ["LeafValue", "clear_cache", "expected_cpu", "has_model", "model_for", "securable_value"]

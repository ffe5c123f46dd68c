"""Securable score: the best final partition of the board if every piece stays where it is (CP-SAT).

The question (issue 8): from a position, close the board into sites with the barriers still in the supply;
existing barriers are walls. A final board is a set of added barriers; its regions are the sites. Every region
must hold a trailer or bungalow (the rules never allow an empty site). A region with one player's pieces is
allotted and scores by the rulebook; a region with several players' pieces scores nothing (it is allowed: when
the supply is short, that is how the game ends).

Model (one builder, variables named for what they mean):
- *Roots*: every site holds a trailer or bungalow, so each site is labelled by the smallest piece index in it
  (symmetry broken: piece j's square carries a label k <= j, never a larger one). `label[s][k]` is a one-hot
  choice per square among the pieces of its current open region.
- *Dead sites*: a site whose pieces belong to several players (`dead[k]`), worth 0.
- *Connectivity*: single-commodity flow. Each root square may emit up to (squares - 1) units, every other square
  consumes one; flow runs only over barrier-free edges whose two squares carry the same label. A square
  labelled k can only be fed by a path of k-labelled squares from a source, and the one source labelled k is
  piece k itself, so every site is connected (exact, no relaxation).
- *Barriers*: an edge whose squares carry different labels needs a barrier unless it already has one; their
  count is at most the supply left.
- *Score*: per root, size, x2 with the pool, +5 per ice-cream stand, -10 with the pain-in-the-neck (not below 0).
Regions already allotted are fixed (no barrier may go inside them) and add a constant.

Objectives: one player's own score, that player's margin over the best opponent, or the players' total.
A first solution (nearest-piece partition merged per owner; for the total, each player's own-score board too) is
given as a hint when it fits the supply, and is the incumbent from the start.
"""

from __future__ import annotations

import enum
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import DCState, Edge, neighbour_table
from ortools.sat.python import cp_model


class Objective(enum.Enum):
    OWN = "own"  # the player's own final score
    MARGIN = "margin"  # the player's score minus the best opponent's
    TOTAL = "total"  # every player's score added


@dataclass(frozen=True)
class Partition:
    """A final board: the barriers added and the resulting per-player scores (by the rules model)."""

    added: frozenset[Edge]
    scores: tuple[int, ...]
    sites: tuple[frozenset[int], ...]


@dataclass
class MaxResult:
    partition: Partition | None
    objective: Objective
    player: int
    value: int | None  # the objective's value of `partition`
    bound: float | None
    proof: Proof | None
    wall_time_s: float
    branches: int
    conflicts: int
    interrupted: bool


def objective_value(scores: tuple[int, ...], objective: Objective, player: int) -> int:
    if objective is Objective.OWN:
        return scores[player]
    if objective is Objective.TOTAL:
        return sum(scores)
    others = [s for p, s in enumerate(scores) if p != player]
    return scores[player] - max(others)


def pieces(state: DCState) -> list[tuple[int, int]]:
    """(square, owner) of every trailer and bungalow, in a fixed order (bungalows first, then trailers)."""
    found = [(s, p) for p, s in enumerate(state.bungalows)]
    for p, squares in enumerate(state.trailers):
        found.extend((s, p) for s in squares)
    return found


def final_board(state: DCState, added: frozenset[Edge]) -> DCState:
    """The position with `added` barriers on it (the rules model scores it)."""
    return DCState(
        config=state.config,
        stage=rules.Stage.OVER,
        to_move=state.to_move,
        pool=state.pool,
        ice_creams=state.ice_creams,
        nuisance=state.nuisance,
        bungalows=state.bungalows,
        trailers=state.trailers,
        barriers=state.barriers | added,
    )


def score_partition(state: DCState, added: frozenset[Edge]) -> Partition:
    """Re-score a barrier set with the rules model (every solver answer goes through here)."""
    board = final_board(state, added)
    return Partition(added=added, scores=board.scores(), sites=tuple(site.squares for site in board.sites))


def greedy_labels(state: DCState) -> dict[int, int] | None:
    """A first solution: every open square to its nearest piece (breadth first, barriers as walls), the sites
    of one owner merged where they touch, labelled by their smallest piece index."""
    config = state.config
    table = neighbour_table(config.rows, config.cols)
    piece_list = pieces(state)
    owner_of_square = [-1] * config.squares
    queue: deque[int] = deque()
    for square, owner in piece_list:
        owner_of_square[square] = owner
        queue.append(square)
    while queue:
        s = queue.popleft()
        for t in table[s]:
            if owner_of_square[t] < 0 and rules.edge_of(s, t) not in state.barriers:
                owner_of_square[t] = owner_of_square[s]
                queue.append(t)
    if min(owner_of_square) < 0:
        return None
    index_of = {square: k for k, (square, _) in enumerate(piece_list)}
    labels: dict[int, int] = {}
    for start in range(config.squares):
        if start in labels:
            continue
        component = [start]
        seen = {start}
        i = 0
        while i < len(component):
            s = component[i]
            i += 1
            for t in table[s]:
                same_owner = owner_of_square[t] == owner_of_square[s]
                if t not in seen and same_owner and rules.edge_of(s, t) not in state.barriers:
                    seen.add(t)
                    component.append(t)
        root = min(index_of[s] for s in component if s in index_of)
        for s in component:
            labels[s] = root
    return labels


#: Search workers and parameters of the owner-labelled model (set here once). One worker with the full
#: linearization proves the cases of the nuisance split that the default two-worker portfolio cannot (measured:
#: bench/deluxe_camping.py, docs in the report of issue 8).
OWNER_MODEL_WORKERS = 1
OWNER_MODEL_CONFIGURE = cpsat.full_linearization

#: Integer objectives: a bound within this of an integer is that integer (CP-SAT reports bounds as floats).
BOUND_TOLERANCE = 1e-6

#: Kept back from the budget for CP-SAT's own stop latency and the re-scoring of its answer.
SOLVE_MARGIN_S = 0.05


def _solve_budget(budget: Budget) -> Budget:
    return budget.limited(max(budget.remaining() - SOLVE_MARGIN_S, 0.001))


def fits(state: DCState, labels: dict[int, int], supply: int | None) -> bool:
    """True when a labelling needs no more barriers than are available, none of them where the rules forbid
    one (the strict-colours variant: between two pieces of one player)."""
    available = state.supply_left if supply is None else supply
    needed = [
        (a, b)
        for a, b in rules.all_edges(state.config.rows, state.config.cols)
        if a in labels and b in labels and labels[a] != labels[b] and (a, b) not in state.barriers
    ]
    return len(needed) <= available and not any(_uncuttable(state, edge) for edge in needed)


def _uncuttable(state: DCState, edge: Edge) -> bool:
    """Under the strict-colours variant, no barrier may go between two adjacent pieces of one player."""
    if not state.config.strict_colours:
        return False
    owners = state.owner_at
    a, b = edge
    return a in owners and owners.get(b) == owners[a]


def isolation_labels(
    state: DCState, player: int, push_nuisance: bool = True, nuisance_owner: int | None = None
) -> dict[int, int] | None:
    """A first solution for one player's score: every opponent cluster (touching pieces of one owner) walled
    into its own squares, the pain-in-the-neck pushed into a touching opponent site (unless `push_nuisance` is
    False), the rest of the board to the player's nearest piece (squares the player cannot reach go to the
    nearest opponent site). With `nuisance_owner`, the pain-in-the-neck and a shortest path from it to that
    owner's nearest piece form that piece's site instead (kept apart when the owner is the player: a small
    site it sacrifices), so every case of the split on its site gets a first solution."""
    config = state.config
    table = neighbour_table(config.rows, config.cols)
    piece_list = pieces(state)
    index_at = {square: k for k, (square, _) in enumerate(piece_list)}
    open_squares = {s for s in range(config.squares) if state.allotted(s) is None}
    labels: dict[int, int] = {}

    def free(a: int, b: int) -> bool:
        return rules.edge_of(a, b) not in state.barriers

    for k, (square, owner) in enumerate(piece_list):
        if owner == player or square in labels or square not in open_squares:
            continue
        cluster = [square]
        labels[square] = k
        i = 0
        while i < len(cluster):
            s = cluster[i]
            i += 1
            for t in table[s]:
                if t in index_at and t not in labels and piece_list[index_at[t]][1] == owner and free(s, t):
                    labels[t] = k
                    cluster.append(t)
        root = min(index_at[s] for s in cluster)
        for s in cluster:
            labels[s] = root
    reserved: set[int] = set()  # roots of the player's sites that must not grow or merge
    if nuisance_owner is not None and state.nuisance in open_squares:
        path = _path_to_owner(state, table, state.nuisance, nuisance_owner)
        if path is None:
            return None
        root = labels.get(path[-1], index_at[path[-1]])
        for s in path:
            labels[s] = root
        if nuisance_owner == player:
            reserved.add(root)
    elif push_nuisance and state.nuisance in open_squares:
        for t in table[state.nuisance]:
            if t in labels and free(state.nuisance, t):
                labels[state.nuisance] = labels[t]
                break
    queue: deque[int] = deque()
    for k, (square, owner) in enumerate(piece_list):
        if owner == player and square in open_squares and labels.get(square) not in reserved:
            labels[square] = k
            queue.append(square)
    for phase in (0, 1):
        while queue:
            s = queue.popleft()
            for t in table[s]:
                if t in open_squares and t not in labels and free(s, t):
                    labels[t] = labels[s]
                    queue.append(t)
        if phase == 0:
            queue.extend(s for s in labels if piece_list[labels[s]][1] != player)
    if set(labels) != open_squares:
        return None
    # Merge the player's touching sites (fewer barriers, same points) under their smallest piece index.
    parent = {k: k for k in set(labels.values())}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, b in rules.all_edges(config.rows, config.cols):
        if a in labels and b in labels and free(a, b):
            ka, kb = find(labels[a]), find(labels[b])
            mergeable = ka not in reserved and kb not in reserved
            if ka != kb and mergeable and piece_list[ka][1] == player and piece_list[kb][1] == player:
                parent[max(ka, kb)] = min(ka, kb)
    return {s: find(k) for s, k in labels.items()}


def first_solutions(state: DCState, player: int, supply: int | None = None) -> list[dict[int, int]]:
    """The distinct piece-rooted first solutions that fit the supply (isolation of the opponents, with and
    without the pain-in-the-neck pushed, nearest piece, and one per owner of the pain-in-the-neck's site)."""
    candidates = [isolation_labels(state, player), isolation_labels(state, player, False), greedy_labels(state)]
    if _nuisance_open(state):
        owners = sorted(state.sites[state.region_of[state.nuisance]].owners)
        candidates.extend(isolation_labels(state, player, nuisance_owner=q) for q in owners)
    firsts: list[dict[int, int]] = []
    for labels in candidates:
        if labels is not None and fits(state, labels, supply) and labels not in firsts:
            firsts.append(labels)
    return firsts


def added_barriers(state: DCState, labels: dict[int, int]) -> frozenset[Edge]:
    """The barriers a labelling needs beyond those on the board."""
    return frozenset(
        (a, b)
        for a, b in rules.all_edges(state.config.rows, state.config.cols)
        if a in labels and b in labels and labels[a] != labels[b] and (a, b) not in state.barriers
    )


def maximise(
    state: DCState,
    budget: Budget,
    *,
    player: int | None = None,
    objective: Objective = Objective.OWN,
    seed: int = 0,
    workers: int | None = None,
    use_hint: bool = True,
    forbid: list[frozenset[Edge]] | None = None,
    supply: int | None = None,
) -> MaxResult:
    """Solve the securable-score model. `forbid` excludes barrier sets (puzzle uniqueness); `supply` overrides
    the barriers available (puzzles place exactly K); `workers` overrides the per-model worker counts.

    Every objective: the owner-labelled model, split exactly on the pain-in-the-neck's site (`nuisance_cases`),
    each case solved in turn, required to reach the best board found so far (the best first solution from the
    start). TOTAL first solves each player's OWN board (`OWN_WARM_START_SHARE` of the budget) and starts from
    the best of them. When every site cannot be allotted within the supply, the piece-rooted model with shared
    (dead) sites."""
    if state.stage not in (rules.Stage.MOVE, rules.Stage.BARRIER, rules.Stage.OVER):
        raise ValueError("the securable score is defined once the turns have started (after the reveal)")
    player = state.to_move if player is None else player
    firsts = first_solutions(state, player, supply) if use_hint else []
    spent = _Outcome()
    if objective is Objective.TOTAL and use_hint:
        # Warm start: the boards that maximise each owner's own score (cheap: the owner-labelled model proves
        # them in about a second) are first solutions of the total too; the best is the incumbent every case
        # must beat, so the total is never below the total of any OWN board found.
        firsts, spent = _own_boards_as_firsts(state, budget, player, firsts, seed, workers, forbid, supply)
    outcome = _solve_cases(state, budget, player, objective, firsts, seed, workers, forbid, supply)
    outcome.wall_time_s += spent.wall_time_s
    outcome.branches += spent.branches
    outcome.conflicts += spent.conflicts
    if outcome.infeasible:
        model, handles = build_model(
            state, player=player, objective=objective, forbid=forbid, supply=supply, allow_dead=True
        )
        if firsts:
            handles.add_hint(model, firsts[0])
        result = cpsat.solve(model, _solve_budget(budget), seed=seed, workers=workers or cpsat.DEFAULT_WORKERS)
        outcome = _single(state, handles, result, objective, player, spent=outcome)
    return MaxResult(
        partition=outcome.partition,
        objective=objective,
        player=player,
        value=outcome.value,
        bound=outcome.bound,
        proof=outcome.proof,
        wall_time_s=outcome.wall_time_s,
        branches=outcome.branches,
        conflicts=outcome.conflicts,
        interrupted=outcome.proof not in (Proof.OPTIMAL, Proof.INFEASIBLE),
    )


@dataclass
class _Outcome:
    """What one or several solves established (the best board rules-scored, the proof, the effort)."""

    partition: Partition | None = None
    value: int | None = None
    bound: float | None = None
    proof: Proof | None = None
    infeasible: bool = False
    wall_time_s: float = 0.0
    branches: int = 0
    conflicts: int = 0


def _rescored(
    state: DCState,
    handles: Handles | OwnerHandles,
    result: cpsat.CpSolveResult,
    objective: Objective,
    player: int,
    exact: bool,
) -> tuple[Partition, int]:
    """The solver's board re-scored by the rules model. A case model may value a board below the rules (a
    PAYS case charges a site worth under 10 the full penalty); it never values one above."""
    added = frozenset(e for e, var in handles.cut.items() if result.boolean(var))
    partition = score_partition(state, added)
    value = objective_value(partition.scores, objective, player)
    claimed = round(result.objective or 0)
    if value < claimed or (exact and value != claimed):
        raise AssertionError(f"CP-SAT objective {result.objective} but the rules model scores {value}")
    return partition, value


def _single(
    state: DCState,
    handles: Handles,
    result: cpsat.CpSolveResult,
    objective: Objective,
    player: int,
    spent: _Outcome | None = None,
) -> _Outcome:
    outcome = _Outcome(
        proof=result.proof,
        infeasible=result.status == cp_model.INFEASIBLE,
        wall_time_s=result.wall_time_s + (spent.wall_time_s if spent else 0.0),
        branches=result.branches + (spent.branches if spent else 0),
        conflicts=result.conflicts + (spent.conflicts if spent else 0),
        bound=result.bound,
    )
    if result.has_solution:
        outcome.partition, outcome.value = _rescored(state, handles, result, objective, player, exact=True)
    return outcome


def _close_by_bound(closed: set[int], open_bound: dict[int, float | None], best: int | None) -> None:
    """Close the cases whose proven bound (CP-SAT's, of a stopped solve) cannot beat the best board found:
    the best board is then optimal for them too."""
    if best is None:
        return
    for i, bound in list(open_bound.items()):
        if bound is not None and math.floor(bound + BOUND_TOLERANCE) <= best:
            closed.add(i)
            del open_bound[i]


def ceiling(state: DCState, player: int, objective: Objective = Objective.OWN) -> int:
    """A valid upper bound of the player's own score (so of the margin too, opponents never score below 0), or of
    the players' total: the points already allotted (the player's, or everyone's), plus every open square doubled
    and every open ice-cream stand."""
    open_squares = [s for s in range(state.config.squares) if state.allotted(s) is None]
    ice = sum(1 for s in state.ice_creams if state.allotted(s) is None)
    held = sum(state.scores()) if objective is Objective.TOTAL else state.scores()[player]
    return held + rules.POOL_FACTOR * len(open_squares) + rules.ICE_CREAM_BONUS * ice


def dual_bound(result: cpsat.CpSolveResult) -> float | None:
    """CP-SAT's proven bound of an unfinished solve (also without a solution); None when it never searched or
    has no finite bound."""
    if result.wall_time_s == 0.0 and result.branches == 0:
        return None  # the budget was spent before this solve started
    if result.status == cp_model.UNKNOWN and result.solver.response_proto.inner_objective_lower_bound == 0:
        # Stopped before any bound was computed (in presolve): CP-SAT then reports 0 (measured on Deluxe Camping
        # case models stopped after 0.1-0.3 s), which is no bound at all and once closed a case whose optimum was
        # above the incumbent. A genuine bound moves the inner bound off its default 0.
        return None
    bound = result.solver.best_objective_bound
    return bound if bound == bound and abs(bound) < float("inf") else None


def _nuisance_open(state: DCState) -> bool:
    """The pain-in-the-neck is on the board and not yet in an allotted site."""
    return 0 <= state.nuisance < state.config.squares and state.allotted(state.nuisance) is None


def nuisance_cases(state: DCState, player: int, objective: Objective) -> list[NuisanceCase | None]:
    """The exact split on the pain-in-the-neck's site (one case `None` when it is already allotted).

    OWN: the player's site holding it pays, or is tiny, or an opponent holds it (the opponents' scores are not
    read, so that case needs no valuation). MARGIN: for each owner of its region, its site pays or is tiny
    (an opponent's site cannot go plain: its score must not fall below the rules')."""
    if not _nuisance_open(state):
        return [None]
    owners = sorted(state.sites[state.region_of[state.nuisance]].owners)
    cases: list[NuisanceCase | None] = []
    for q in owners:
        if objective is Objective.OWN and q != player:
            continue
        cases.append(NuisanceCase(NuisanceMode.PAYS, (q,), plain=_plain_penalty(objective, player, q)))
        cases.append(NuisanceCase(NuisanceMode.TINY, (q,)))
    others = tuple(q for q in owners if q != player)
    if objective is Objective.OWN and others:
        cases.append(NuisanceCase(NuisanceMode.IGNORED, others))
    return cases


def case_of(state: DCState, labels: dict[int, int], player: int, objective: Objective) -> NuisanceCase | None:
    """The case of the split a piece-rooted board falls in (to hint the right case with it)."""
    if not _nuisance_open(state):
        return None
    piece_list = pieces(state)
    root = labels[state.nuisance]
    q = piece_list[root][1]
    site = [s for s, k in labels.items() if k == root]
    worth = rules.site_value(len(site), state.pool in site, sum(s in site for s in state.ice_creams), False)
    if objective is Objective.OWN and q != player:
        owners = sorted(state.sites[state.region_of[state.nuisance]].owners)
        return NuisanceCase(NuisanceMode.IGNORED, tuple(o for o in owners if o != player))
    if worth >= rules.NUISANCE_PENALTY:
        return NuisanceCase(NuisanceMode.PAYS, (q,), plain=_plain_penalty(objective, player, q))
    return NuisanceCase(NuisanceMode.TINY, (q,))


def _plain_penalty(objective: Objective, player: int, owner: int) -> bool:
    """Whether a PAYS case may charge the penalty as a constant on `owner` (the pain-in-the-neck in one of its
    plain sites): safe when a lower score for that owner can only lower the objective, so for the objective's
    own player, and for every owner under TOTAL (the sum is monotone in each score)."""
    return owner == player or objective is Objective.TOTAL


def _case_hint(state: DCState, labels: dict[int, int], case: NuisanceCase | None) -> dict[int, Label]:
    """Owner labels of a piece-rooted board for one case's model (plain-mode cases have no nuisance site)."""
    result = owner_labels(state, labels)
    if case is not None and (case.mode is NuisanceMode.IGNORED or case.plain):
        result = {s: (PLAIN, key[1]) if key[0] == NUISANCE_SITE else key for s, key in result.items()}
    return result


def _solve_cases(
    state: DCState,
    budget: Budget,
    player: int,
    objective: Objective,
    firsts: list[dict[int, int]],
    seed: int,
    workers: int | None,
    forbid: list[frozenset[Edge]] | None,
    supply: int | None,
) -> _Outcome:
    """Solve every case of the split; each case after the first must beat the best board so far (a case whose
    LP bound cannot is closed at once). Passes: the first gives each case an equal share of what is left, each
    later one shares what is left among the cases still open (a second pass gives them the rest of a wall-clock
    budget; a CPU budget on a loaded machine, whose CP-SAT limits are wall seconds, may leave more passes room).
    OPTIMAL only when every case is closed by CP-SAT."""
    cases = nuisance_cases(state, player, objective)
    hints: dict[NuisanceCase | None, tuple[int, dict[int, int]]] = {}
    fallback: tuple[int, Partition] | None = None  # the best first solution: the answer if CP-SAT finds none
    for labels in firsts:
        case = case_of(state, labels, player, objective)
        if case not in cases:
            continue
        added = added_barriers(state, labels)
        partition = score_partition(state, added)
        value = objective_value(partition.scores, objective, player)
        if case not in hints or value > hints[case][0]:
            hints[case] = (value, labels)
        if added not in (forbid or []) and (fallback is None or value > fallback[0]):
            fallback = (value, partition)
    order = sorted(cases, key=lambda c: (c not in hints, -hints[c][0] if c in hints else 0))
    outcome = _Outcome()
    # The best first solution is the incumbent from the start: every case must reach it (its own hint does, so
    # the hint stays feasible); a case that cannot is closed, the first solution then optimal for it.
    seeded = fallback is not None
    if fallback is not None:
        outcome.value, outcome.partition = fallback
    closed: set[int] = set()  # indices into `order` of the cases CP-SAT closed
    open_bound: dict[int, float | None] = {}
    build_s = 0.0  # wall time of the last model build: no case starts unless its build and stop fit the budget
    for attempt in range(MAX_CASE_PASSES):
        pending = [i for i in range(len(order)) if i not in closed]
        if not pending or budget.remaining() <= build_s + SOLVE_MARGIN_S:
            break
        for n, i in enumerate(pending):
            if budget.remaining() <= build_s + SOLVE_MARGIN_S:
                break
            case = order[i]
            at_least = None if outcome.value is None else outcome.value + (0 if seeded else 1)
            started = time.monotonic()
            model, handles = build_owner_model(
                state,
                player=player,
                objective=objective,
                forbid=forbid,
                supply=supply,
                case=case,
                at_least=at_least,
            )
            build_s = time.monotonic() - started
            share = max(budget.remaining() - SOLVE_MARGIN_S, 0.001) / (len(pending) - n)
            if case in hints:
                handles.add_hint(model, _case_hint(state, hints[case][1], case))
            result = cpsat.solve(
                model,
                budget.limited(share),
                seed=seed + attempt,
                workers=workers or OWNER_MODEL_WORKERS,
                configure=OWNER_MODEL_CONFIGURE,
            )
            outcome.wall_time_s += result.wall_time_s
            outcome.branches += result.branches
            outcome.conflicts += result.conflicts
            if result.has_solution:
                partition, value = _rescored(state, handles, result, objective, player, exact=case is None)
                if outcome.value is None or value > outcome.value:
                    outcome.partition, outcome.value = partition, value
                    seeded = False
            if result.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                closed.add(i)
                open_bound.pop(i, None)
            else:
                open_bound[i] = dual_bound(result)
            _close_by_bound(closed, open_bound, outcome.value)
    if len(closed) < len(order) and fallback is not None and (outcome.value is None or fallback[0] > outcome.value):
        outcome.value, outcome.partition = fallback
    _close_by_bound(closed, open_bound, outcome.value)
    if len(closed) == len(order):
        outcome.proof = Proof.OPTIMAL if outcome.value is not None else Proof.INFEASIBLE
        outcome.infeasible = outcome.value is None
        outcome.bound = float(outcome.value) if outcome.value is not None else None
    elif outcome.value is not None:
        # A case never started (or stopped without a dual bound) is bounded by the obvious ceiling.
        top = float(ceiling(state, player, objective))
        bounds = [open_bound.get(i) for i in range(len(order)) if i not in closed]
        outcome.bound = max([float(outcome.value), *[top if b is None else b for b in bounds]])
        outcome.proof = Proof.FEASIBLE_WITH_BOUND
    return outcome


#: Passes over the open cases of the nuisance split (see `_solve_cases`).
MAX_CASE_PASSES = 6

#: Share of the budget the TOTAL objective spends on its warm start (each owner's OWN board), split evenly.
OWN_WARM_START_SHARE = 0.2


def piece_labels_of(state: DCState, partition: Partition) -> dict[int, int] | None:
    """A final board as piece-rooted labels of the open squares (each site labelled by its smallest piece
    index); None when a site holds no piece (not a board every site of which is allotted)."""
    index_at = {square: k for k, (square, _) in enumerate(pieces(state))}
    labels: dict[int, int] = {}
    for site in partition.sites:
        roots = [index_at[s] for s in site if s in index_at]
        if not roots:
            return None
        root = min(roots)
        labels.update((s, root) for s in site if state.allotted(s) is None)
    return labels


def _own_boards_as_firsts(
    state: DCState,
    budget: Budget,
    player: int,
    firsts: list[dict[int, int]],
    seed: int,
    workers: int | None,
    forbid: list[frozenset[Edge]] | None,
    supply: int | None,
) -> tuple[list[dict[int, int]], _Outcome]:
    """The first solutions plus the board that maximises each player's own score (`player`'s first, each with
    an even share of `OWN_WARM_START_SHARE` of the budget), and the effort spent on them."""
    spent = _Outcome()
    players = state.config.players
    boards = list(firsts)
    share = budget.remaining() * OWN_WARM_START_SHARE / players
    for q in sorted(range(players), key=lambda q: q != player):  # the asking player's own board first
        if share <= 2 * SOLVE_MARGIN_S or budget.remaining() <= share:
            break
        own_firsts = first_solutions(state, q, supply)
        result = _solve_cases(state, budget.limited(share), q, Objective.OWN, own_firsts, seed, workers, forbid, supply)
        spent.wall_time_s += result.wall_time_s
        spent.branches += result.branches
        spent.conflicts += result.conflicts
        if result.partition is None:
            continue
        labels = piece_labels_of(state, result.partition)
        if labels is not None and labels not in boards and fits(state, labels, supply):
            boards.append(labels)
    return boards, spent


@dataclass
class Handles:
    label: dict[int, dict[int, cp_model.IntVar]]  # open square -> piece index -> literal
    cut: dict[Edge, cp_model.IntVar]  # open edge -> barrier added
    roots: list[int]

    def add_hint(self, model: cp_model.CpModel, labels: dict[int, int]) -> None:
        for square, options in self.label.items():
            for k, var in options.items():
                model.add_hint(var, labels.get(square) == k)
        for (a, b), var in self.cut.items():
            model.add_hint(var, labels.get(a) != labels.get(b))


@dataclass
class _PieceFrame:
    """What `build_model`'s constraint families share: the pieces, the open squares and the points already
    allotted (derived once from the state)."""

    state: DCState
    piece_list: list[tuple[int, int]]
    owner: list[int]  # piece index -> its player
    index_at: dict[int, int]  # square -> the index of the piece on it
    constant: list[int]  # player -> points of the sites already allotted
    open_squares: list[int]
    open_set: set[int]
    allow_dead: bool


def _piece_frame(state: DCState, allow_dead: bool) -> _PieceFrame:
    """The pieces in index order and the part of the board not yet allotted."""
    piece_list = pieces(state)
    sites = state.sites
    constant = [0] * state.config.players
    open_squares = [s for s in range(state.config.squares) if sites[state.region_of[s]].allotted_to is None]
    for site in sites:
        if site.allotted_to is not None:
            constant[site.allotted_to] += site.value
    return _PieceFrame(
        state=state,
        piece_list=piece_list,
        owner=[p for _, p in piece_list],
        index_at={square: k for k, (square, _) in enumerate(piece_list)},
        constant=constant,
        open_squares=open_squares,
        open_set=set(open_squares),
        allow_dead=allow_dead,
    )


def add_piece_labels(model: cp_model.CpModel, frame: _PieceFrame) -> dict[int, dict[int, cp_model.IntVar]]:
    """Exactly one site label per open square: a piece of its region (a piece's own square only a label
    k <= its index, and of its owner unless dead sites are allowed)."""
    region_of = frame.state.region_of
    region_pieces: dict[int, list[int]] = {}
    for k, (square, _) in enumerate(frame.piece_list):
        region_pieces.setdefault(region_of[square], []).append(k)
    owner, index_at = frame.owner, frame.index_at
    label: dict[int, dict[int, cp_model.IntVar]] = {}
    for s in frame.open_squares:
        options = region_pieces.get(region_of[s], [])
        if s in index_at:
            options = [k for k in options if k <= index_at[s] and (frame.allow_dead or owner[k] == owner[index_at[s]])]
        label[s] = {k: model.new_bool_var(f"square{s}_in_site{k}") for k in options}
        model.add_exactly_one(label[s].values())
    return label


def add_piece_roots(
    model: cp_model.CpModel, frame: _PieceFrame, label: dict[int, dict[int, cp_model.IntVar]]
) -> list[int]:
    """Piece k roots a site iff its own square carries label k; otherwise no square carries label k. Returns
    the pieces that may root a site."""
    roots = sorted({k for s in frame.open_squares for k in label[s]})
    for k in roots:
        home = frame.piece_list[k][0]
        own = label[home][k]
        for s in frame.open_squares:
            if k in label[s] and s != home:
                model.add_implication(label[s][k], own)
    return roots


def add_dead_sites(
    model: cp_model.CpModel, frame: _PieceFrame, label: dict[int, dict[int, cp_model.IntVar]], roots: list[int]
) -> dict[int, cp_model.IntVar]:
    """`dead[k]`: site k holds a piece of another player than its root's (worth 0); forced off without
    `allow_dead`."""
    owner = frame.owner
    dead = {k: model.new_bool_var(f"site{k}_dead") for k in roots}
    for k in roots:
        model.add_implication(dead[k], label[frame.piece_list[k][0]][k])
    mixers: dict[int, list[cp_model.IntVar]] = {k: [] for k in roots}
    for j, (square, p) in enumerate(frame.piece_list):
        if square not in label:
            continue
        for k, var in label[square].items():
            if k != j and owner[k] != p:
                model.add_implication(var, dead[k])
                mixers[k].append(var)
    for k in roots:
        # A site is dead only when another player's piece really is in it (a pure site is allotted).
        model.add_bool_or([dead[k].Not(), *mixers[k]])
        if not frame.allow_dead:
            model.add(dead[k] == 0)
    return dead


def add_piece_site_flow(
    model: cp_model.CpModel,
    frame: _PieceFrame,
    label: dict[int, dict[int, cp_model.IntVar]],
    same: dict[Edge, cp_model.IntVar],
) -> None:
    """Connectivity by single-commodity flow along barrier-free same-site edges: a root piece's square emits,
    every other open square consumes one unit."""
    state, open_squares, index_at = frame.state, frame.open_squares, frame.index_at
    capacity = max(len(open_squares) - 1, 1)
    inflow: dict[int, list] = {s: [] for s in open_squares}
    outflow: dict[int, list] = {s: [] for s in open_squares}
    for (a, b), var in same.items():
        if (a, b) in state.barriers:
            continue
        for u, v in ((a, b), (b, a)):
            f = model.new_int_var(0, capacity, f"flow_{u}_{v}")
            model.add(f == 0).only_enforce_if(var.Not())
            outflow[u].append(f)
            inflow[v].append(f)
    for s in open_squares:
        if s in index_at and index_at[s] in label[s]:
            is_root = label[s][index_at[s]]
            model.add(sum(inflow[s]) - sum(outflow[s]) == 1).only_enforce_if(is_root.Not())
            model.add(sum(inflow[s]) == 0).only_enforce_if(is_root)
        else:
            model.add(sum(inflow[s]) - sum(outflow[s]) == 1)


def add_piece_site_values(
    model: cp_model.CpModel,
    frame: _PieceFrame,
    label: dict[int, dict[int, cp_model.IntVar]],
    roots: list[int],
    dead: dict[int, cp_model.IntVar],
) -> tuple[dict[int, cp_model.IntVar], dict[int, int]]:
    """Each site's value by the rulebook (0 when dead), with redundant bounds: the sizes cover the open squares
    and the pool doubles at most all of them. Returns each root's value variable and its upper bound."""
    site_value_of: dict[int, cp_model.IntVar] = {}
    site_top: dict[int, int] = {}
    doubles: list[cp_model.IntVar] = []
    sizes: list[cp_model.IntVar] = []
    for k in roots:
        size, doubled, value, top = _add_piece_site_value(model, frame, label, k, dead[k])
        doubles.append(doubled)
        sizes.append(size)
        site_value_of[k] = value
        site_top[k] = top
    model.add(sum(doubles) <= len(frame.open_squares))
    model.add(sum(sizes) == len(frame.open_squares))
    return site_value_of, site_top


def _add_piece_site_value(
    model: cp_model.CpModel,
    frame: _PieceFrame,
    label: dict[int, dict[int, cp_model.IntVar]],
    k: int,
    dead: cp_model.IntVar,
) -> tuple[cp_model.IntVar, cp_model.IntVar, cp_model.IntVar, int]:
    """Site k: size, x2 with the pool, +5 per ice-cream stand, -10 with the pain-in-the-neck, not below 0 and
    0 when dead. Returns (size, pool bonus, value, value's upper bound)."""
    state = frame.state
    members = [label[s][k] for s in frame.open_squares if k in label[s]]
    size = model.new_int_var(0, len(members), f"site{k}_size")
    model.add(size == sum(members))
    doubled = model.new_int_var(0, len(members), f"site{k}_pool_bonus")
    in_pool = label[state.pool].get(k) if state.pool in label else None
    if in_pool is not None:
        model.add(doubled == size).only_enforce_if(in_pool)
        model.add(doubled == 0).only_enforce_if(in_pool.Not())
    else:
        model.add(doubled == 0)
    ice_terms = [label[s][k] for s in set(state.ice_creams) if s in label and k in label[s]]
    nuisance = label[state.nuisance].get(k) if state.nuisance in label else None
    top = 2 * len(members) + rules.ICE_CREAM_BONUS * len(ice_terms)
    raw = model.new_int_var(-rules.NUISANCE_PENALTY, top, f"site{k}_raw")
    model.add(
        raw
        == size
        + doubled
        + rules.ICE_CREAM_BONUS * sum(ice_terms)
        - (rules.NUISANCE_PENALTY * nuisance if nuisance is not None else 0)
    )
    # Redundant linear bounds (the LP relaxation of the enforced equalities alone is very weak).
    model.add(doubled <= size)
    value = model.new_int_var(0, top, f"site{k}_value")
    model.add(value <= size + doubled + rules.ICE_CREAM_BONUS * sum(ice_terms))
    model.add(value <= top * (1 - dead))
    if in_pool is not None:
        model.add(doubled <= len(members) * in_pool)
    alive = model.new_int_var(0, top, f"site{k}_alive_value")
    model.add_max_equality(alive, [raw, 0])
    model.add(value == alive).only_enforce_if(dead.Not())
    model.add(value == 0).only_enforce_if(dead)
    return size, doubled, value, top


def add_piece_scores(
    model: cp_model.CpModel,
    frame: _PieceFrame,
    roots: list[int],
    site_value_of: dict[int, cp_model.IntVar],
    site_top: dict[int, int],
) -> tuple[list[cp_model.IntVar], list[int]]:
    """Each player's score: the points already allotted plus the values of the sites their pieces root.
    Returns the score variables and their upper bounds."""
    score, uppers = [], []
    for p in range(frame.state.config.players):
        terms = [site_value_of[k] for k in roots if frame.owner[k] == p]
        upper = frame.constant[p] + sum(site_top[k] for k in roots if frame.owner[k] == p)
        var = model.new_int_var(0, upper, f"player{p}_score")
        uppers.append(upper)
        model.add(var == frame.constant[p] + sum(terms))
        score.append(var)
    return score, uppers


def add_forbidden_barrier_sets(
    model: cp_model.CpModel, cut: dict[Edge, cp_model.IntVar], forbid: list[frozenset[Edge]] | None
) -> None:
    """Each excluded barrier set (puzzle uniqueness): at least one edge's barrier differs from it."""
    for excluded in forbid or []:
        model.add_bool_or([cut[e].Not() if e in excluded else cut[e] for e in cut])


def build_model(
    state: DCState,
    *,
    player: int,
    objective: Objective,
    forbid: list[frozenset[Edge]] | None = None,
    supply: int | None = None,
    allow_dead: bool = False,
) -> tuple[cp_model.CpModel, Handles]:
    """The piece-rooted model (see the module's docstring): every site labelled by its smallest piece, sites
    with several players' pieces allowed (worth 0) only with `allow_dead`. One `add_<family>` helper per block
    of constraints, in the order the model is built (the order fixes the variables' indices)."""
    model = cp_model.CpModel()
    frame = _piece_frame(state, allow_dead)
    label = add_piece_labels(model, frame)
    roots = add_piece_roots(model, frame, label)
    dead = add_dead_sites(model, frame, label, roots)
    same, cut = add_same_site_edges(model, frame, label)
    add_barrier_supply(model, cut, state.supply_left if supply is None else supply, extra_barriers=False)
    add_piece_site_flow(model, frame, label, same)
    site_value_of, site_top = add_piece_site_values(model, frame, label, roots, dead)
    score, uppers = add_piece_scores(model, frame, roots, site_value_of, site_top)
    _set_objective(model, score, uppers, objective, player, opponent_floor=0)
    add_forbidden_barrier_sets(model, cut, forbid)
    return model, Handles(label=label, cut=cut, roots=roots)


# --- owner-labelled model (every site allotted) ---------------------------------------------------------------

PLAIN, POOL_SITE, NUISANCE_SITE = "plain", "pool", "nuisance"
Label = tuple[str, int]  # (kind, owner)


class NuisanceMode(enum.Enum):
    """How the site holding the pain-in-the-neck is valued in one case of the split (see `nuisance_cases`)."""

    PAYS = "pays"  # worth at least 10 before the penalty: exactly worth - 10 (linear)
    TINY = "tiny"  # worth at most 9 before the penalty: exactly 0
    IGNORED = "ignored"  # held by a player whose score the objective does not read (OWN only): not valued


@dataclass(frozen=True)
class NuisanceCase:
    """One case of the exact split on the pain-in-the-neck's site: who owns it and how it is valued.

    max(0, worth - 10) is not concave, so an LP over the labels cannot see it (the bound ignores the penalty).
    Each case is linear; the optimum is the best case. `owners` is one player for PAYS and TINY, every
    opponent of the objective's player for IGNORED. `plain`: in a PAYS case the pain-in-the-neck may join a
    plain site of its owner (a constant -10 on that owner), which is safe when a lower score for that owner can
    only lower the objective (the objective's own player); otherwise its site is a separate *nuisance site*
    whose worth is constrained to at least 10."""

    mode: NuisanceMode
    owners: tuple[int, ...]
    plain: bool = False


@dataclass
class OwnerHandles:
    label: dict[int, dict[Label, cp_model.IntVar]]
    cut: dict[Edge, cp_model.IntVar]
    flow: dict[Edge, cp_model.IntVar]  # directed arc (u, v) -> flow
    same: dict[Edge, cp_model.IntVar]
    sources: dict[int, Label | None]  # square -> the label under which it is a source (None: always; owner -1: any)
    #: With `extra_barriers`: open edge -> "a barrier stands here" (fixed per solve: `leaf_model`), and the
    #: literal that this edge's barrier is paid from the supply (a cut edge without an extra barrier).
    extra: dict[Edge, cp_model.IntVar] = field(default_factory=dict)
    paid: dict[Edge, cp_model.IntVar] = field(default_factory=dict)

    def add_hint(
        self, model: cp_model.CpModel, labels: dict[int, Label], blocked: frozenset[Edge] = frozenset()
    ) -> None:
        """A complete first solution: labels, barriers, and the flow of a breadth-first tree per site (CP-SAT
        repairs a partial hint poorly on this model). `blocked`: extra barriers fixed in this solve."""
        for square, options in self.label.items():
            for key, var in options.items():
                model.add_hint(var, labels.get(square) == key)
        for (a, b), var in self.same.items():
            model.add_hint(var, labels.get(a) == labels.get(b))
        for edge, var in self.extra.items():
            model.add_hint(var, edge in blocked)
        for (a, b), var in self.paid.items():
            model.add_hint(var, (a, b) not in blocked and labels.get(a) != labels.get(b))
        arcs: dict[int, list[int]] = {}
        for u, v in self.flow:
            if rules.edge_of(u, v) not in blocked:
                arcs.setdefault(u, []).append(v)
        roots = [
            s
            for s, key in self.sources.items()
            if key is None or labels.get(s) == key or (key[1] < 0 and labels.get(s, ("", 0))[0] == key[0])
        ]
        parent: dict[int, int] = {s: -1 for s in roots}
        order = list(roots)
        i = 0
        while i < len(order):
            u = order[i]
            i += 1
            for v in arcs.get(u, []):
                if v not in parent and labels.get(v) == labels.get(u):
                    parent[v] = u
                    order.append(v)
        carried = {s: 1 for s in order}
        amount: dict[Edge, int] = {}
        for v in reversed(order):
            u = parent[v]
            if u >= 0:
                amount[(u, v)] = carried[v]
                carried[u] += carried[v]
        for arc, var in self.flow.items():
            model.add_hint(var, amount.get(arc, 0))


def owner_labels(state: DCState, piece_labels: dict[int, int]) -> dict[int, Label]:
    """A piece-rooted partition as owner labels: the pool's site, the pain-in-the-neck's site, plain sites."""
    owner = [p for _, p in pieces(state)]
    pool_root = piece_labels.get(state.pool)
    nuisance_root = piece_labels.get(state.nuisance)
    result: dict[int, Label] = {}
    for square, root in piece_labels.items():
        if root == pool_root:
            result[square] = (POOL_SITE, owner[root])
        elif root == nuisance_root:
            result[square] = (NUISANCE_SITE, owner[root])
        else:
            result[square] = (PLAIN, owner[root])
    return result


@dataclass
class _OwnerFrame:
    """What `build_owner_model`'s constraint families share: the open squares, the regions' owners and how
    the pain-in-the-neck may be labelled in this case of the split (derived once from the state)."""

    state: DCState
    case: NuisanceCase | None
    piece_list: list[tuple[int, int]]
    owner_at: dict[int, int]
    constant: list[int]
    open_squares: list[int]
    open_set: set[int]
    owners_in: dict[int, list[int]]
    nuisance_open: bool
    pool_region: int
    nuisance_region: int
    table: tuple
    nuisance_owners: list[int]
    nuisance_plain: bool
    nuisance_kind_owners: set[int]
    near_nuisance: set[int] | None


def _owner_frame(state: DCState, case: NuisanceCase | None) -> _OwnerFrame:
    """The open part of the board and the pain-in-the-neck's options: by default its own nuisance site or the
    pool site of any owner of its region; in a case of the split, only the case's owners, and a plain site where
    the case says so."""
    config = state.config
    piece_list = pieces(state)
    region_of = state.region_of
    sites = state.sites
    constant = [0] * config.players
    open_squares = [s for s in range(config.squares) if sites[region_of[s]].allotted_to is None]
    open_set = set(open_squares)
    for site in sites:
        if site.allotted_to is not None:
            constant[site.allotted_to] += site.value
    owners_in = {r: sorted(sites[r].owners) for r in set(region_of[s] for s in open_squares)}
    pool_open = state.pool in open_set
    nuisance_open = state.nuisance in open_set
    nuisance_region = region_of[state.nuisance] if nuisance_open else -1
    table = neighbour_table(config.rows, config.cols)
    nuisance_owners = owners_in[nuisance_region] if nuisance_open else []
    nuisance_plain = False
    if case is not None and nuisance_open:
        nuisance_owners = [q for q in nuisance_owners if q in case.owners]
        nuisance_plain = case.mode is NuisanceMode.IGNORED or (case.mode is NuisanceMode.PAYS and case.plain)
    near_nuisance: set[int] | None = None
    if case is not None and case.mode is NuisanceMode.TINY and nuisance_open:
        # A site worth at most 9 has at most 9 squares, all within 8 steps of the pain-in-the-neck.
        near_nuisance = _within(state, table, state.nuisance, rules.NUISANCE_PENALTY - 2)
    return _OwnerFrame(
        state=state,
        case=case,
        piece_list=piece_list,
        owner_at={square: p for square, p in piece_list},
        constant=constant,
        open_squares=open_squares,
        open_set=open_set,
        owners_in=owners_in,
        nuisance_open=nuisance_open,
        pool_region=region_of[state.pool] if pool_open else -1,
        nuisance_region=nuisance_region,
        table=table,
        nuisance_owners=nuisance_owners,
        nuisance_plain=nuisance_plain,
        nuisance_kind_owners=set() if nuisance_plain else set(nuisance_owners),
        near_nuisance=near_nuisance,
    )


def add_owner_labels(model: cp_model.CpModel, frame: _OwnerFrame) -> dict[int, dict[Label, cp_model.IntVar]]:
    """Exactly one (kind, owner) label per open square, among those its region's owners and its square allow."""
    state = frame.state
    label: dict[int, dict[Label, cp_model.IntVar]] = {}
    for s in frame.open_squares:
        region = state.region_of[s]
        owners = [frame.owner_at[s]] if s in frame.owner_at else frame.owners_in[region]
        if s == state.nuisance:
            owners = frame.nuisance_owners
        options: list[Label] = []
        for q in owners:
            if s != state.pool and (s != state.nuisance or frame.nuisance_plain):
                options.append((PLAIN, q))
            if region == frame.pool_region:
                options.append((POOL_SITE, q))
            if (
                region == frame.nuisance_region
                and s != state.pool
                and q in frame.nuisance_kind_owners
                and (frame.near_nuisance is None or s in frame.near_nuisance)
            ):
                options.append((NUISANCE_SITE, q))
        label[s] = {key: model.new_bool_var(f"square{s}_{key[0]}_{key[1]}") for key in options}
        model.add_exactly_one(label[s].values())
    return label


def _special_labels(
    frame: _OwnerFrame, label: dict[int, dict[Label, cp_model.IntVar]]
) -> list[tuple[int, Label, cp_model.IntVar]]:
    """(special square, its pool or nuisance label, the literal) for the pool and the pain-in-the-neck, if open."""
    state = frame.state
    found = []
    for special, kind in ((state.pool, POOL_SITE), (state.nuisance, NUISANCE_SITE)):
        if special not in frame.open_set:
            continue
        found += [(special, key, var) for key, var in label[special].items() if key[0] == kind]
    return found


def add_special_site_roots(
    model: cp_model.CpModel, frame: _OwnerFrame, label: dict[int, dict[Label, cp_model.IntVar]]
) -> None:
    """There is one pool site and one nuisance site, each rooted at its special square: a square joins q's pool
    (nuisance) site only if the special square itself is in it. Redundant with the flow in integers, but the LP
    otherwise spreads every square over several owners' pool sites and values the whole board doubled."""
    for special, key, var in _special_labels(frame, label):
        for s in frame.open_squares:
            if s != special and key in label[s]:
                model.add_implication(label[s][key], var)


def add_special_site_holders(
    model: cp_model.CpModel, frame: _OwnerFrame, label: dict[int, dict[Label, cp_model.IntVar]]
) -> dict[Label, tuple[cp_model.IntVar, int]]:
    """A pool or nuisance site holds a trailer or bungalow of its owner, so it spans at least the squares of a
    shortest path from its special square to one of them (a cut the flow's LP does not see): the floor of each
    such site that can exist, by its label."""
    site_floor: dict[Label, tuple[cp_model.IntVar, int]] = {}
    for special, key, var in _special_labels(frame, label):
        holders = [label[s][key] for s, p in frame.piece_list if s in label and key in label[s]]
        model.add_bool_or([var.Not(), *holders])
        distance = _distance_to_owner(frame.state, frame.table, special, key[1])
        if distance is None:
            model.add(var == 0)
        else:
            site_floor[key] = (var, distance + 1)
    return site_floor


def add_same_site_edges(
    model: cp_model.CpModel, frame: _OwnerFrame | _PieceFrame, label: dict[int, dict[Any, cp_model.IntVar]]
) -> tuple[dict[Edge, cp_model.IntVar], dict[Edge, cp_model.IntVar]]:
    """Per open edge inside a region, "both squares in one site" (equal labels), and "cut" for an edge with no
    barrier yet whose squares are in different sites (a barrier to add); an uncuttable edge is never cut. Both
    models share it: labels are owner labels or root pieces."""
    state = frame.state
    same: dict[Edge, cp_model.IntVar] = {}
    cut: dict[Edge, cp_model.IntVar] = {}
    for a, b in rules.all_edges(state.config.rows, state.config.cols):
        if a not in frame.open_set or b not in frame.open_set or state.region_of[a] != state.region_of[b]:
            continue
        var = model.new_bool_var(f"same_site_{a}_{b}")
        for key in set(label[a]) | set(label[b]):
            in_a, in_b = label[a].get(key), label[b].get(key)
            if in_a is not None and in_b is not None:
                model.add_bool_or([in_a.Not(), in_b.Not(), var])
                model.add_bool_or([var.Not(), in_a.Not(), in_b])
                model.add_bool_or([var.Not(), in_b.Not(), in_a])
            elif in_a is not None:
                model.add_implication(in_a, var.Not())
            else:
                model.add_implication(in_b, var.Not())
        same[(a, b)] = var
        if (a, b) not in state.barriers:
            cut[(a, b)] = var.Not()
            if _uncuttable(state, (a, b)):
                model.add(var == 1)
    return same, cut


def add_barrier_supply(
    model: cp_model.CpModel, cut: dict[Edge, cp_model.IntVar], available: int, *, extra_barriers: bool
) -> tuple[dict[Edge, cp_model.IntVar], dict[Edge, cp_model.IntVar]]:
    """The barriers added fit the supply. With `extra_barriers`, every open edge may carry a barrier placed after
    this position (fixed per solve by `leaf_model`): it blocks the flow and costs the supply whether or not the
    sites need it; a cut edge without one is paid. Returns the extra and paid literals (empty without)."""
    extra: dict[Edge, cp_model.IntVar] = {}
    paid: dict[Edge, cp_model.IntVar] = {}
    if not extra_barriers:
        model.add(sum(cut.values()) <= available)
        return extra, paid
    for edge, is_cut in cut.items():
        extra[edge] = model.new_bool_var(f"extra_barrier_{edge[0]}_{edge[1]}")
        paid[edge] = model.new_bool_var(f"paid_barrier_{edge[0]}_{edge[1]}")
        model.add_bool_or([is_cut.Not(), extra[edge], paid[edge]])
        model.add_implication(paid[edge], is_cut)
        model.add_implication(paid[edge], extra[edge].Not())
    model.add(sum(paid.values()) + sum(extra.values()) <= available)
    return extra, paid


def add_site_flow(
    model: cp_model.CpModel,
    frame: _OwnerFrame,
    label: dict[int, dict[Label, cp_model.IntVar]],
    same: dict[Edge, cp_model.IntVar],
    extra: dict[Edge, cp_model.IntVar],
) -> tuple[dict[Edge, cp_model.IntVar], dict[int, Label | None]]:
    """Connectivity by single-commodity flow: each site is fed by its source (a piece labelled plain, the pool
    square, the pain-in-the-neck's square in a nuisance site) along edges inside the site; every other square
    consumes one unit. Returns the arcs' flows and each source square's label."""
    state, open_squares, owner_at = frame.state, frame.open_squares, frame.owner_at
    capacity = max(len(open_squares) - 1, 1)
    inflow: dict[int, list] = {s: [] for s in open_squares}
    outflow: dict[int, list] = {s: [] for s in open_squares}
    flows: dict[Edge, cp_model.IntVar] = {}
    sources: dict[int, Label | None] = {}
    for (a, b), var in same.items():
        if (a, b) in state.barriers:
            continue
        for u, v in ((a, b), (b, a)):
            f = model.new_int_var(0, capacity, f"flow_{u}_{v}")
            model.add(f == 0).only_enforce_if(var.Not())
            if (a, b) in extra:
                model.add(f == 0).only_enforce_if(extra[(a, b)])
            outflow[u].append(f)
            inflow[v].append(f)
            flows[(u, v)] = f
    for s in open_squares:
        if s == state.pool:
            sources[s] = None
        elif s == state.nuisance:
            sources[s] = (NUISANCE_SITE, -1)
        elif s in owner_at and (PLAIN, owner_at[s]) in label[s]:
            sources[s] = (PLAIN, owner_at[s])
        source = _flow_source(model, frame, label, s)
        if source is None:
            model.add(sum(inflow[s]) == 0)
            continue
        model.add(sum(inflow[s]) - sum(outflow[s]) == 1).only_enforce_if(source.Not())
        model.add(sum(inflow[s]) == 0).only_enforce_if(source)
    return flows, sources


def _flow_source(
    model: cp_model.CpModel, frame: _OwnerFrame, label: dict[int, dict[Label, cp_model.IntVar]], s: int
) -> cp_model.IntVar | None:
    """The literal "square `s` roots its site and sends the flow" (None: the pool square, always a root; a
    constant 0 for a square without a piece)."""
    state, owner_at = frame.state, frame.owner_at
    if s == state.pool:
        return None
    if s == state.nuisance:
        return _any_true(model, [v for key, v in label[s].items() if key[0] == NUISANCE_SITE], f"root{s}")
    if s in owner_at:
        return label[s].get((PLAIN, owner_at[s]))
    return model.new_constant(0)


def add_owner_scores(
    model: cp_model.CpModel,
    frame: _OwnerFrame,
    label: dict[int, dict[Label, cp_model.IntVar]],
    site_floor: dict[Label, tuple[cp_model.IntVar, int]],
) -> tuple[list[cp_model.IntVar], list[int]]:
    """Each player's score: the points already allotted, plain squares (ice-cream stands worth more) and the
    values of their pool and nuisance sites. Returns the score variables and their upper bounds."""
    state, case = frame.state, frame.case
    ice = set(state.ice_creams)
    score, uppers = [], []
    for q in range(state.config.players):
        plain = [label[s][(PLAIN, q)] for s in frame.open_squares if (PLAIN, q) in label[s]]
        plain_ice = [label[s][(PLAIN, q)] for s in ice if s in label and (PLAIN, q) in label[s]]
        terms: list = [sum(plain), rules.ICE_CREAM_BONUS * sum(plain_ice)]
        upper = frame.constant[q] + len(plain) + rules.ICE_CREAM_BONUS * len(plain_ice)
        lower = 0
        pays_plain = case is not None and case.mode is NuisanceMode.PAYS and frame.nuisance_plain
        if pays_plain and q in frame.nuisance_owners:
            # The pain-in-the-neck is in one of q's sites, which pays (worth >= 10 is left free: a smaller site
            # scores more than this in truth, and the TINY case values it exactly).
            terms.append(-rules.NUISANCE_PENALTY)
            lower = -rules.NUISANCE_PENALTY
        for kind, factor in ((POOL_SITE, rules.POOL_FACTOR), (NUISANCE_SITE, 1)):
            site = _add_special_site_value(model, frame, label, site_floor, (kind, q), factor)
            if site is None:
                continue
            value, top, pays = site
            terms.append(value)
            upper += top
            if pays:
                lower = -rules.NUISANCE_PENALTY
        var = model.new_int_var(lower, upper, f"player{q}_score")
        model.add(var == frame.constant[q] + sum(terms))
        score.append(var)
        uppers.append(upper)
    return score, uppers


def _add_special_site_value(
    model: cp_model.CpModel,
    frame: _OwnerFrame,
    label: dict[int, dict[Label, cp_model.IntVar]],
    site_floor: dict[Label, tuple[cp_model.IntVar, int]],
    key: Label,
    factor: int,
) -> tuple[Any, int, bool] | None:
    """The value of owner `key[1]`'s pool or nuisance site `key` (None: no square can carry its label): its
    squares times `factor` plus the stands, less the pain-in-the-neck's penalty floored at 0 (or the case's
    valuation). Returns (value, upper bound, whether a case lets it pay the penalty below 0)."""
    state, case = frame.state, frame.case
    kind, q = key
    ice = set(state.ice_creams)
    members = [label[s][key] for s in frame.open_squares if key in label[s]]
    if not members:
        return None
    ice_terms = [label[s][key] for s in ice if s in label and key in label[s]]
    nuisance = label[state.nuisance].get(key) if frame.nuisance_open else None
    if key in site_floor:
        # Count only squares without the owner's pieces: those pieces are the owner's in any case, and the LP
        # would otherwise meet the floor by relabelling them instead of paying for a path.
        used, floor = site_floor[key]
        path = [label[s][key] for s in frame.open_squares if key in label[s] and frame.owner_at.get(s) != q]
        model.add(sum(path) >= (floor - 1) * used)
    top = factor * len(members) + rules.ICE_CREAM_BONUS * len(ice_terms)
    worth = factor * sum(members) + rules.ICE_CREAM_BONUS * sum(ice_terms)
    if case is not None:
        value = _case_site_value(model, case, worth, top, nuisance, f"{kind}_site_{q}")
        return value, top, nuisance is not None and case.mode is NuisanceMode.PAYS
    raw = model.new_int_var(-rules.NUISANCE_PENALTY, top, f"{kind}_site_raw_{q}")
    model.add(raw == worth - (rules.NUISANCE_PENALTY * nuisance if nuisance is not None else 0))
    value = model.new_int_var(0, top, f"{kind}_site_value_{q}")
    model.add_max_equality(value, [raw, 0])
    model.add(value <= worth)
    if nuisance is not None:
        # The LP of max(raw, 0) drops the penalty. Valid cut: value <= raw + 10 * tiny, where `tiny` may be 1
        # only for a site worth at most 9 before the penalty (the only sites the floor at 0 helps).
        tiny = model.new_bool_var(f"{kind}_site_tiny_{q}")
        model.add(value <= raw + rules.NUISANCE_PENALTY * tiny)
        model.add(worth <= rules.NUISANCE_PENALTY - 1 + top * (1 - tiny))
    return value, top, False


def build_owner_model(
    state: DCState,
    *,
    player: int,
    objective: Objective,
    forbid: list[frozenset[Edge]] | None = None,
    supply: int | None = None,
    case: NuisanceCase | None = None,
    at_least: int | None = None,
    extra_barriers: bool = False,
) -> tuple[cp_model.CpModel, OwnerHandles]:
    """Every final site allotted to one player. Squares are labelled by owner and kind instead of by root piece:
    one *pool site* (holding the pool) and one *nuisance site* (holding the pain-in-the-neck) per board, every
    other site *plain*. Touching plain sites of one owner are worth exactly their sum (no pool, no penalty), so
    merging them costs nothing and saves barriers: each optimum of the piece-rooted model has an owner-labelled
    twin of equal value for every objective, with none of the root symmetry.

    Connectivity: single-commodity flow as in the piece model; the sources are the pieces labelled plain, the
    pool square (root of the pool site) and the pain-in-the-neck's square when it is in a nuisance site. A pool
    or nuisance site must also hold a trailer or bungalow of its owner. One `add_<family>` helper per block of
    constraints, in the order the model is built (the order fixes the variables' indices)."""
    model = cp_model.CpModel()
    frame = _owner_frame(state, case)
    label = add_owner_labels(model, frame)
    add_special_site_roots(model, frame, label)
    site_floor = add_special_site_holders(model, frame, label)
    same, cut = add_same_site_edges(model, frame, label)
    available = state.supply_left if supply is None else supply
    extra, paid = add_barrier_supply(model, cut, available, extra_barriers=extra_barriers)
    flows, sources = add_site_flow(model, frame, label, same, extra)
    score, uppers = add_owner_scores(model, frame, label, site_floor)
    model.add(sum(v for s in frame.open_squares for v in label[s].values()) == len(frame.open_squares))
    goal = _set_objective(model, score, uppers, objective, player)
    if at_least is not None:
        model.add(goal >= at_least)
    add_forbidden_barrier_sets(model, cut, forbid)
    return model, OwnerHandles(label=label, cut=cut, flow=flows, same=same, sources=sources, extra=extra, paid=paid)


def _path_to_owner(state: DCState, table: tuple, start: int, owner: int) -> list[int] | None:
    """A shortest barrier-free path from `start` to a piece of `owner` that crosses no other player's piece
    (start first, the piece's square last); None when there is none."""
    owners = state.owner_at
    parent = {start: -1}
    queue: deque[int] = deque([start])
    while queue:
        s = queue.popleft()
        if owners.get(s) == owner:
            path = [s]
            while parent[path[-1]] >= 0:
                path.append(parent[path[-1]])
            return path[::-1]
        for t in table[s]:
            if t in parent or rules.edge_of(s, t) in state.barriers or (t in owners and owners[t] != owner):
                continue
            parent[t] = s
            queue.append(t)
    return None


def _distance_to_owner(state: DCState, table: tuple, start: int, owner: int) -> int | None:
    """Steps from `start` to the nearest piece of `owner` through barrier-free edges, never through a square
    holding another player's piece (it cannot be in the owner's site); None when there is no such path."""
    owners = state.owner_at
    seen = {start: 0}
    queue: deque[int] = deque([start])
    while queue:
        s = queue.popleft()
        if owners.get(s) == owner:
            return seen[s]
        for t in table[s]:
            if t in seen or rules.edge_of(s, t) in state.barriers:
                continue
            if t in owners and owners[t] != owner:
                continue
            seen[t] = seen[s] + 1
            queue.append(t)
    return None


def _any_true(model: cp_model.CpModel, literals: list, name: str) -> cp_model.IntVar:
    var = model.new_bool_var(name)
    if not literals:
        model.add(var == 0)
        return var
    model.add_max_equality(var, literals)
    return var


def _set_objective(
    model: cp_model.CpModel,
    score: list,
    uppers: list[int],
    objective: Objective,
    player: int,
    *,
    opponent_floor: int = -rules.NUISANCE_PENALTY,
) -> cp_model.LinearExprT:
    """Set the objective and return its expression (a case of the split may require it above an incumbent).
    `opponent_floor`: the lowest score an opponent can have (below 0 only when a plain site pays the penalty)."""
    if objective is Objective.OWN:
        goal = score[player]
    elif objective is Objective.TOTAL:
        goal = sum(score)
    else:
        best_other = model.new_int_var(opponent_floor, max(uppers), "best_opponent_score")
        model.add_max_equality(best_other, [score[p] for p in range(len(score)) if p != player])
        goal = score[player] - best_other
    model.maximize(goal)
    return goal


def _case_site_value(
    model: cp_model.CpModel,
    case: NuisanceCase,
    worth: cp_model.LinearExprT,
    top: int,
    holds_nuisance: cp_model.IntVar | None,
    name: str,
) -> cp_model.LinearExprT:
    """The value of a pool or nuisance site in one case of the split: linear in every case.

    worth = the site's points before the penalty; `holds_nuisance` = the pain-in-the-neck is in this site."""
    if holds_nuisance is None or case.mode is NuisanceMode.IGNORED or case.plain:
        return worth  # no penalty here (IGNORED, or a plain-mode PAYS case charges a constant to the owner)
    if case.mode is NuisanceMode.PAYS:
        model.add(worth >= rules.NUISANCE_PENALTY * holds_nuisance)
        return worth - rules.NUISANCE_PENALTY * holds_nuisance
    # TINY: the site holding the pain-in-the-neck is worth at most 9 and scores 0; any other site its worth.
    value = model.new_int_var(0, top, f"{name}_value")
    model.add(worth <= rules.NUISANCE_PENALTY - 1).only_enforce_if(holds_nuisance)
    model.add(value == 0).only_enforce_if(holds_nuisance)
    model.add(value == worth).only_enforce_if(holds_nuisance.Not())
    model.add(value <= worth)
    model.add(value <= top * (1 - holds_nuisance))
    model.add(value >= worth - top * holds_nuisance)
    return value


def _within(state: DCState, table: tuple, start: int, steps: int) -> set[int]:
    """Squares at most `steps` barrier-free steps from `start`."""
    seen = {start: 0}
    queue: deque[int] = deque([start])
    while queue:
        s = queue.popleft()
        if seen[s] == steps:
            continue
        for t in table[s]:
            if t not in seen and rules.edge_of(s, t) not in state.barriers:
                seen[t] = seen[s] + 1
                queue.append(t)
    return set(seen)

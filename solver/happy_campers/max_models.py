"""Happy Campers maxima: one CP-SAT model builder per question (clairvoyant forced play; absolute / card
maxima over drawable maps), with the scoring objective, symmetry breaking and play hints. Solving,
warm starts and proof claims live in `maximise`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.cpsat import CpSolveResult
from campsolver.solver.core.geometry import Cell, neighbours, orientations
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.max_assignment import AssignmentProgramme
from campsolver.solver.happy_campers.max_caps import clairvoyant_card_caps, divide_crossing_columns, most_squares
from campsolver.solver.happy_campers.max_card_cuts import TurnVars, add_card_cuts
from campsolver.solver.happy_campers.max_nature import caps_for
from campsolver.solver.happy_campers.max_problem import (
    MODEL_ELEMENTS,
    MaxProblem,
    Mode,
    ModelMismatch,
    Roll,
    TurnPlay,
    _Built,
    _fixed_cells,
    _placement_table,
    _roll_pairs,
)
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    FESTIVAL_POINTS,
    Challenge,
    Components,
    Element,
    Option,
    Placement,
    roll_options,
)
from ortools.sat.python import cp_model

DECISION_STRATEGY = True

_T = TypeVar("_T")

#: The budget whose cancellation abandons a model still being built. The builders are plain functions of the
#: problem (called through several layers); the search sets this around its work so that a caller who answered
#: without waiting (the service at its deadline) does not leave a long build running in the worker.
_BUILD_BUDGET: ContextVar[Budget | None] = ContextVar("happy_campers_build_budget", default=None)


@contextmanager
def builds_abandoned_on_cancel(budget: Budget) -> Iterator[None]:
    """Within this block, a model build stops (`SolveInterrupted("cancelled")`) once `budget` is cancelled."""
    token = _BUILD_BUDGET.set(budget)
    try:
        yield
    finally:
        _BUILD_BUDGET.reset(token)


def abandons_builds_on_cancel(search: Callable[..., _T]) -> Callable[..., _T]:
    """`search(problem, budget, ...)` with every model build inside it abandoned once `budget` is cancelled."""

    @functools.wraps(search)
    def run(problem: MaxProblem, budget: Budget, *args: Any, **kwargs: Any) -> _T:
        with builds_abandoned_on_cancel(budget):
            return search(problem, budget, *args, **kwargs)

    return run


def _abandon_if_cancelled() -> None:
    """Checked once a turn by the builders: a few microseconds against milliseconds of model building."""
    budget = _BUILD_BUDGET.get()
    if budget is not None and budget.cancelled:
        raise SolveInterrupted("cancelled")


#: Add the per-turn card cuts of `max_card_cuts` to the clairvoyant model.
CARD_CUTS = True
#: Add the per-roll assignment bound (`max_assignment`) to the clairvoyant model as `objective <= bound`.
ASSIGNMENT_BOUND = True
#: Bound Nature Reserve's part of the score by the shipped roll-independent caps (`max_nature`).
NATURE_CAPS = True


def clairvoyant_nature_caps(problem: MaxProblem) -> dict[int, int] | None:
    """The shipped Nature Reserve caps when they hold for this problem: Nature Reserve in play, an empty start
    map (the caps hold for maps drawn from an empty map) and the components they were derived for."""
    if Challenge.NATURE_RESERVE not in problem.challenges or any(v for row in problem.start_grid for v in row):
        return None
    return caps_for(problem.components)


@functools.lru_cache(maxsize=4)
def _programme_of(problem: MaxProblem, nature_key: tuple[tuple[int, int], ...] | None) -> AssignmentProgramme:
    return AssignmentProgramme(problem, dict(nature_key) if nature_key is not None else None)


def cached_programme(problem: MaxProblem, nature_caps: dict[int, int] | None) -> AssignmentProgramme:
    """`max_assignment.AssignmentProgramme`, built once per problem (the model is built several times)."""
    return _programme_of(problem, tuple(sorted(nature_caps.items())) if nature_caps else None)


def _add_assignment_fixing(
    model: cp_model.CpModel,
    programme: AssignmentProgramme,
    turn_vars: Sequence[TurnVars],
    active: Sequence[cp_model.IntVar],
    pairs_per_turn: Sequence[dict[int, set[int]]],
    table: dict[frozenset[Cell], set[int]],
    floor: int,
) -> int:
    """Forbid every drawing (turn, squares, element), and every ending, through which no complete final map
    scores `floor` or more by the per-roll assignment bound (`AssignmentProgramme.best_through`). Every map
    scoring at least `floor` stays (the programme bounds each map through its own drawings), so the maximum is
    unchanged whenever some map reaches `floor` (the warm start's, for instance). Returns how many drawings
    were forbidden."""
    forbidden = 0
    for t, turn in enumerate(turn_vars):
        best: dict[tuple[int, int, tuple[int, ...]], int] = {}
        for cells, allowed in turn.candidates.items():
            shapes = [s for s in sorted(table[cells]) if s in pairs_per_turn[t]]
            dead = []
            for e in sorted(allowed):
                shape = next(s for s in shapes if e in pairs_per_turn[t][s])
                key = programme.key_of(cells, e, shape)
                if key not in best:
                    best[key] = programme.best_through(t, key)
                if best[key] < floor:
                    dead.append(e)
            if len(dead) == len(allowed):
                model.add(turn.use[cells] == 0)
            else:
                for e in dead:
                    model.add_bool_or([turn.use[cells].Not(), turn.element[e].Not()])
            forbidden += len(dead)
    n_turns = len(active)
    for t in range(n_turns + 1):
        if programme.best_stopping(t) >= floor:
            continue
        # The game may not end with exactly rolls 0..t-1 drawn.
        clause = [active[t]] if t < n_turns else []
        if t > 0:
            clause.append(active[t - 1].Not())
        model.add_bool_or(clause)
    return forbidden


def _grid_symmetries(rows: int, cols: int) -> list[Callable[[Cell], Cell]]:
    """The map's flips that every challenge card respects (left/right, top/bottom, half turn).

    Quarter turns are left out: River Town and The Great Divide single out left and right.
    """
    return [
        lambda rc: (rc[0], cols - 1 - rc[1]),
        lambda rc: (rows - 1 - rc[0], rc[1]),
        lambda rc: (rows - 1 - rc[0], cols - 1 - rc[1]),
    ]


def _scoring_objective(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    problem: MaxProblem,
    card_caps: dict[Challenge, int] | None = None,
    *,
    card_cuts: Callable[[cpsat_map.CardTerms], None] | None = None,
    parts: dict[str, cp_model.LinearExprT] | None = None,
    nature_caps: dict[int, int] | None = None,
    floor: int | None = None,
) -> cp_model.LinearExprT:
    """The full score of a complete map (clusters, empty squares, every card in play).

    `card_caps` are redundant upper bounds on single cards' points (valid for every map of the problem);
    CP-SAT's relaxation does not find them, and with them a perfect map meeting every cap is proven at once.
    `card_cuts` adds redundant cuts on the card terms
    (`max_card_cuts`). `parts`, when given, receives "bonus": the capped cards' points (the objective's part
    that the proof by card levels, `max_levels`, splits on). `nature_caps` (drawn squares -> cap, `max_nature`)
    bounds Nature Reserve's part of the score (clusters - empty + its card) by the number of drawn squares;
    with `floor` too (the model need only keep maps scoring `floor` or more) it also limits the empty squares that
    are not isolated (`_add_nature_floor_cut`).
    """
    sizes = cpsat_map.largest_cluster_sizes(model, mv)
    terms = _card_terms(model, mv, problem.challenges, problem.festival_won)
    for card, cap in (card_caps or {}).items():
        model.add(terms.by_card[card.value] <= cap)
    if card_cuts is not None:
        card_cuts(terms)
    n = len(mv.cells)
    if Challenge.QUICK_PEE in problem.challenges and QUICK_PEE_CLUSTER_CUT:
        _add_toilet_cluster_cut(model, mv, terms.by_card[Challenge.QUICK_PEE.value], sizes)
    # Named totals with tight domains: the objective bound then follows by propagation alone
    # (clusters <= drawn squares), instead of the useless "every element's cluster could be the whole map".
    drawn = model.new_int_var(0, n, "drawn_total")
    model.add(drawn == sum(mv.filled))
    clustered = model.new_int_var(0, n, "clustered_total")
    model.add(clustered == sum(sizes))
    model.add(clustered <= drawn)
    if parts is not None:
        parts["bonus"] = sum(terms.by_card[card.value] for card in (card_caps or {}))
    if nature_caps and Challenge.NATURE_RESERVE in problem.challenges:
        _add_nature_caps(model, drawn, clustered, terms.by_card[Challenge.NATURE_RESERVE.value], n, nature_caps)
        if floor is not None and NATURE_FLOOR_CUT:
            others = sum(cap for card, cap in (card_caps or {}).items() if card is not Challenge.NATURE_RESERVE)
            if Challenge.FESTIVAL in problem.challenges and problem.festival_won:
                others += FESTIVAL_POINTS
            fixed = {i for i, cell in enumerate(mv.cells) if problem.start_grid[cell[0]][cell[1]]}
            _add_nature_floor_cut(model, mv, terms.isolated, drawn, fixed, nature_caps, floor - others)
    return clustered + cpsat_map.EMPTY_POINTS * (n - drawn) + sum(terms.by_card.values())


def _add_nature_caps(
    model: cp_model.CpModel,
    drawn: cp_model.IntVar,
    clustered: cp_model.IntVar,
    nature: cp_model.LinearExprT,
    n: int,
    caps: dict[int, int],
) -> None:
    """clusters - empty + Nature Reserve <= cap[drawn squares] (`max_nature`; a drawn count with no cap entry
    has no such map at all, so it gets the plain 2n - D)."""
    table = [caps.get(d, 2 * n - d) for d in range(n + 1)]
    cap = model.new_int_var(min(table), max(table), "nature_cap")
    model.add_element(drawn, table, cap)
    model.add(clustered + cpsat_map.EMPTY_POINTS * (n - drawn) + nature <= cap)


#: With a floor (the fixing's level), limit Nature Reserve's non-isolated empty squares (`_add_nature_floor_cut`).
NATURE_FLOOR_CUT = True


def nature_non_isolated_limit(caps: dict[int, int], n: int, level: int) -> int | None:
    """The most empty squares that are not isolated on any map whose Nature Reserve part (clusters - empty +
    3 x isolated) reaches `level`, by the caps (drawn squares -> the most that part can be, `max_nature`).

    A map with D drawn squares and I isolated empty squares has part <= D - (n - D) + 3 I (clusters <= D), and
    part <= cap[D]. Part >= level thus needs cap[D] >= level and I >= (level - 2D + n) / 3, so the other
    n - D - I empty squares number at most n - D - ceil((level - 2D + n) / 3). The most over such D; None when
    no D qualifies (no map reaches `level`)."""
    limits = [n - d - -((-(level - 2 * d + n)) // 3) for d, cap in caps.items() if cap >= level]
    return max(0, max(limits)) if limits else None


def _add_nature_floor_cut(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    isolated: Sequence[cp_model.IntVar],
    drawn: cp_model.IntVar,
    fixed: set[int],
    caps: dict[int, int],
    level: int,
) -> None:
    """Keep only maps whose Nature Reserve part can reach `level`: at most `nature_non_isolated_limit` empty
    squares are not isolated. At most one means none (an empty square that is not isolated has an empty
    neighbour, which is not isolated either): then no two neighbouring squares are both empty and every empty
    square is isolated. Near the top (the 5x9 map: level 56 and up) this pins the map's shape to a lattice of
    single holes, which the plain model only learns by search."""
    n = len(mv.cells)
    limit = nature_non_isolated_limit(caps, n, level)
    if limit is None:
        model.add_bool_or([])  # no map reaches the level
        return
    model.add((n - drawn) - sum(isolated) <= limit)
    if limit > 1:
        return
    for i in range(n):
        if i in fixed:
            continue
        model.add_bool_or([mv.filled[i], isolated[i]])
        for j in mv.neighbour_indices(i):
            if j > i and j not in fixed:
                model.add_bool_or([mv.filled[i], mv.filled[j]])


#: Add Quick Pee's cluster cut (`_add_toilet_cluster_cut`).
QUICK_PEE_CLUSTER_CUT = True


def _add_toilet_cluster_cut(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    quick_pee: cp_model.LinearExprT,
    sizes: Sequence[cp_model.LinearExprT],
) -> None:
    """Quick Pee against the toilet cluster: lines with a toilet + counted toilets <= 2 x toilets + 1.

    Why it holds on every map: a connected set of m squares spans h rows and w columns with h + w <= m + 1
    (a spanning tree has m - 1 edges, and each row or column beyond the first needs one), so the counted
    cluster reaches at most m + 1 lines; every other toilet square (S = T - m of them, all stray) adds at
    most its own row and column. Lines <= m + 1 + 2 (T - m), i.e. lines + m <= 2 T + 1. Why it is needed:
    the relaxation's fractional connectivity lets one cluster of T toilets touch every row and column,
    while a real cluster meeting all 5 rows and 9 columns of the default map needs 13 squares; with fewer
    toilets a map must trade lines for stray squares, which only this cut tells the relaxation.
    """
    toilet_k = mv.elements.index(int(Element.TOILETS))
    toilets = sum(mv.cell_element[i][toilet_k] for i in range(len(mv.cells)))
    model.add(quick_pee + sizes[toilet_k] <= 2 * toilets + 1)


def _card_terms(
    model: cp_model.CpModel, mv: cpsat_map.MapVars, cards: Iterable[Challenge], festival_won: bool
) -> cpsat_map.CardTerms:
    return cpsat_map.challenge_terms(
        model,
        mv,
        [card.value for card in cards],
        tree=int(Element.TREES),
        toilet=int(Element.TOILETS),
        water=int(Element.WATER),
        tent=int(Element.TENTS),
        festival_won=festival_won,
    )


@dataclass
class _ClairvoyantFrame:
    """What the clairvoyant model's constraint families share: the problem, the model and its map, the squares
    drawn before the first roll, every position of every shape, and the per-turn variables as they are added."""

    problem: MaxProblem
    model: cp_model.CpModel
    mv: cpsat_map.MapVars
    #: square -> element of the start map's drawn squares.
    fixed: dict[Cell, int]
    #: cell set -> shapes (by index) it is a position of, over the squares empty at the start.
    table: dict[frozenset[Cell], set[int]]
    #: per turn: shape index -> the elements the roll allows with it.
    pairs_per_turn: list[dict[int, set[int]]]
    #: the map flips that leave the start map unchanged (the first drawing is kept to orbit minima).
    symmetries: list[Callable[[Cell], Cell]]
    #: active[t]: turn t draws (the active turns form a prefix).
    active: list[cp_model.IntVar]
    turn_vars: list[TurnVars] = field(default_factory=list)
    #: cover[t][i]: turn t draws square i (only for squares some candidate of turn t covers).
    cover: list[dict[int, cp_model.IntVar]] = field(default_factory=list)
    #: drawn[t]: squares drawn on turn t.
    turn_sizes: list[cp_model.IntVar] = field(default_factory=list)

    @property
    def pre(self) -> set[Cell]:
        return set(self.fixed)

    @property
    def start_empty(self) -> bool:
        return not self.fixed

    @property
    def n_turns(self) -> int:
        return len(self.problem.rolls)

    @property
    def element_index(self) -> dict[int, int]:
        return {e: k for k, e in enumerate(MODEL_ELEMENTS)}


def _clairvoyant_frame(problem: MaxProblem) -> _ClairvoyantFrame:
    """The model with its map variables and the `active[t]` prefix of drawing turns."""
    comp = problem.components
    model = cp_model.CpModel()
    fixed = _fixed_cells(problem.start_grid)
    mv = cpsat_map.new_map_vars(model, comp.rows, comp.cols, MODEL_ELEMENTS, fixed)
    pre = set(fixed)
    active = [model.new_bool_var(f"active_{t}") for t in range(len(problem.rolls))]
    for t in range(1, len(problem.rolls)):
        model.add_implication(active[t], active[t - 1])
    return _ClairvoyantFrame(
        problem,
        model,
        mv,
        fixed,
        _placement_table(comp, pre),
        [_roll_pairs(roll, comp) for roll in problem.rolls],
        _first_turn_symmetries(problem, pre),
        active,
    )


def add_turn_drawings(frame: _ClairvoyantFrame) -> dict[int, int]:
    """Each turn draws one candidate cell set with one element when active, nothing otherwise; returns each
    element's square cap (its start squares plus, per turn offering it, the largest set it may take)."""
    element_cap = {e: sum(1 for v in frame.fixed.values() if v == e) for e in MODEL_ELEMENTS}
    for t, pairs in enumerate(frame.pairs_per_turn):
        _abandon_if_cancelled()
        candidates = _turn_candidates(frame, t, pairs)
        turn_elements = set().union(*candidates.values()) if candidates else set()
        for e in turn_elements:
            element_cap[e] += max(len(cells) for cells, allowed in candidates.items() if e in allowed)
        turn = add_turn_choice(frame, t, candidates, turn_elements)
        frame.turn_vars.append(turn)
        frame.cover.append(add_turn_cover(frame, t, turn))
    return element_cap


def _turn_candidates(frame: _ClairvoyantFrame, t: int, pairs: dict[int, set[int]]) -> dict[frozenset[Cell], set[int]]:
    """Cell set -> the elements turn t may draw on it (first turn: orbit minima only)."""
    candidates: dict[frozenset[Cell], set[int]] = {}
    for cells, shapes in frame.table.items():
        allowed = set().union(*(pairs[s] for s in shapes if s in pairs))
        if allowed:
            candidates[cells] = allowed
    if t == 0 and frame.symmetries:
        candidates = {cells: e for cells, e in candidates.items() if _is_orbit_minimum(cells, frame.symmetries)}
    return candidates


def add_turn_choice(
    frame: _ClairvoyantFrame, t: int, candidates: dict[frozenset[Cell], set[int]], turn_elements: set[int]
) -> TurnVars:
    """`use[t][P]` and `element[t][e]`: one of each exactly when the turn is active, the element one the cell
    set allows, and the squares drawn capped by the largest set the element allows."""
    model = frame.model
    use_t = {cells: model.new_bool_var(f"use_{t}_{sorted(cells)}") for cells in candidates}
    el_t = {e: model.new_bool_var(f"element_{t}_{e}") for e in sorted(turn_elements)}
    model.add(sum(use_t.values()) == frame.active[t])
    model.add(sum(el_t.values()) == frame.active[t])
    # Redundant but strong for the relaxation: the squares drawn this turn are capped by the largest
    # shape that the chosen element allows (picking the element a big shape does not offer costs squares).
    largest = max((len(cells) for cells in candidates), default=0)
    drawn_t = model.new_int_var(0, largest, f"drawn_{t}")
    model.add(drawn_t == sum(len(cells) * var for cells, var in use_t.items()))
    model.add(
        drawn_t
        <= sum(max(len(cells) for cells, allowed in candidates.items() if e in allowed) * el for e, el in el_t.items())
    )
    frame.turn_sizes.append(drawn_t)
    for cells, allowed in candidates.items():
        if allowed != turn_elements:
            model.add_bool_or([use_t[cells].Not(), *[el_t[e] for e in sorted(allowed)]])
    return TurnVars(candidates, use_t, el_t)


def add_turn_cover(frame: _ClairvoyantFrame, t: int, turn: TurnVars) -> dict[int, cp_model.IntVar]:
    """`cover[t][i]`: turn t draws square i, which then holds the turn's element."""
    model, mv, element_index = frame.model, frame.mv, frame.element_index
    cover_t: dict[int, cp_model.IntVar] = {}
    by_cell: dict[int, list[cp_model.IntVar]] = {}
    for cells, var in turn.use.items():
        for cell in cells:
            by_cell.setdefault(mv.index[cell], []).append(var)
    for i, vars_i in by_cell.items():
        covered = model.new_bool_var(f"cover_{t}_{i}")
        model.add(sum(vars_i) == covered)
        cover_t[i] = covered
        for e, el in turn.element.items():
            model.add_bool_or([covered.Not(), el.Not(), mv.cell_element[i][element_index[e]]])
    return cover_t


def add_square_counts(frame: _ClairvoyantFrame, element_cap: dict[int, int]) -> None:
    """A square is filled exactly when drawn at the start or by one turn; each element's squares are capped; the
    filled squares are the start's plus every turn's."""
    model, mv, pre = frame.model, frame.mv, frame.pre
    n = len(mv.cells)
    element_index = frame.element_index
    for i in range(n):
        covers = [frame.cover[t][i] for t in range(frame.n_turns) if i in frame.cover[t]]
        model.add(mv.filled[i] == (1 if mv.cells[i] in pre else 0) + sum(covers))
    for e in MODEL_ELEMENTS:
        model.add(sum(mv.cell_element[i][element_index[e]] for i in range(n)) <= element_cap[e])
    model.add(sum(mv.filled) == len(pre) + sum(frame.turn_sizes))


def add_adjacency_in_order(frame: _ClairvoyantFrame) -> None:
    """Every drawing after the first touches a square drawn before it: `before[i]` = square i drawn before the
    current turn (a constant where known, else a literal)."""
    model, mv, pre = frame.model, frame.mv, frame.pre
    rows, cols = frame.problem.components.rows, frame.problem.components.cols
    before: list[cp_model.LinearExprT] = [1 if cell in pre else 0 for cell in mv.cells]
    for t in range(frame.n_turns):
        _abandon_if_cancelled()
        if t > 0 or not frame.start_empty:
            for cells, var in frame.turn_vars[t].use.items():
                around = {mv.index[nb] for cell in cells for nb in neighbours(cell, rows, cols)} - {
                    mv.index[cell] for cell in cells
                }
                if any(isinstance(before[j], int) and before[j] == 1 for j in around):
                    continue
                lits = [before[j] for j in around if not isinstance(before[j], int)]
                model.add_bool_or([var.Not(), *lits])
        before = _drawn_after_turn(frame, t, before)


def _drawn_after_turn(
    frame: _ClairvoyantFrame, t: int, before: list[cp_model.LinearExprT]
) -> list[cp_model.LinearExprT]:
    """`before` for turn t + 1: drawn before turn t or on it."""
    cover_t = frame.cover[t]
    after: list[cp_model.LinearExprT] = []
    for i in range(len(frame.mv.cells)):
        if i not in cover_t:
            after.append(before[i])
        elif isinstance(before[i], int) and before[i] == 0:
            after.append(cover_t[i])
        else:
            drawn = frame.model.new_bool_var(f"before_{t + 1}_{i}")
            frame.model.add(drawn == before[i] + cover_t[i])
            after.append(drawn)
    return after


def add_ending_rule(frame: _ClairvoyantFrame) -> None:
    """The ending: the first unused roll must fit nowhere on the final map (`fits[s]` forced true where a
    position of shape s is empty and touches a drawn square)."""
    model, active, n_turns = frame.model, frame.active, frame.n_turns
    if not n_turns:
        return
    if frame.start_empty:
        # On an empty map the first drawing needs no neighbour: it is made whenever some position takes the roll.
        if frame.turn_vars[0].use:
            model.add(active[0] == 1)
        else:
            for t in range(n_turns):
                model.add(active[t] == 0)
    ending_shapes = set()
    for t in range(n_turns):
        if t > 0 or not frame.start_empty:
            ending_shapes.update(frame.pairs_per_turn[t])
    fits = {s: model.new_bool_var(f"fits_{s}") for s in sorted(ending_shapes)}
    add_fitting_shapes(frame, fits)
    add_first_unused_roll_fits_nowhere(frame, fits)


def add_first_unused_roll_fits_nowhere(frame: _ClairvoyantFrame, fits: dict[int, cp_model.IntVar]) -> None:
    """The first inactive turn t (active before it) requires `fits[s]` false for every shape s its roll offers."""
    active = frame.active
    for t in range(frame.n_turns):
        if t == 0 and frame.start_empty:
            continue
        for s in frame.pairs_per_turn[t]:
            clause = [active[t], fits[s].Not()]
            if t > 0:
                clause.append(active[t - 1].Not())
            frame.model.add_bool_or(clause)


def add_fitting_shapes(frame: _ClairvoyantFrame, fits: dict[int, cp_model.IntVar]) -> None:
    """`fits[s]` is true whenever some position of shape s is empty on the final map and touches a drawn square."""
    model, mv, pre = frame.model, frame.mv, frame.pre
    rows, cols = frame.problem.components.rows, frame.problem.components.cols
    for cells, shapes in frame.table.items():
        relevant = [s for s in shapes if s in fits]
        if not relevant:
            continue
        around = {nb for cell in cells for nb in neighbours(cell, rows, cols)} - cells
        if around & pre:
            touch_lits: list[cp_model.IntVar] = []
        else:
            touch = model.new_bool_var(f"touch_{sorted(cells)}")
            for nb in around:
                model.add_implication(mv.filled[mv.index[nb]], touch)
            touch_lits = [touch.Not()]
        for s in relevant:
            model.add_bool_or([*(mv.filled[mv.index[c]] for c in cells), *touch_lits, fits[s]])


def add_perfect_map(frame: _ClairvoyantFrame, targets: dict[Challenge, int] | None) -> None:
    """Feasibility: as many squares drawn as the rolls allow (every square when they can fill the map, else every
    roll its largest shape), every element one cluster (its squares connected), and every card in `targets` at its
    cap: exactly the maps whose total is the target value (`target_value`)."""
    model, mv, problem = frame.model, frame.mv, frame.problem
    n = len(mv.cells)
    reach = min(n, most_squares(problem))
    if reach == n:
        for filled in mv.filled:
            model.add(filled == 1)
    else:
        model.add(sum(mv.filled) == reach)
    for k, e in enumerate(mv.elements):
        cpsat_map.add_rooted_connectivity(model, mv, [row[k] for row in mv.cell_element], f"perfect_{e}")
    if Challenge.GREAT_DIVIDE in problem.challenges:
        # Redundant: one cluster per element with squares on both sides crosses the line, so each
        # element has a square in each crossing column (the 5x9 middle column: one of each element).
        rows, cols = problem.components.rows, problem.components.cols
        for c in divide_crossing_columns(cols):
            for k in range(len(mv.elements)):
                model.add_bool_or([mv.cell_element[mv.index[(r, c)]][k] for r in range(rows)])
    if targets:
        terms = _card_terms(model, mv, list(targets), problem.festival_won)
        for card, cap in targets.items():
            model.add(terms.by_card[card.value] >= cap)


def add_complete_objective(
    frame: _ClairvoyantFrame, parts: dict[str, cp_model.LinearExprT], cuts: bool | None, floor: int | None
) -> tuple[cp_model.LinearExprT, int | None]:
    """Maximise the full score, with the card caps and cuts, the Nature Reserve caps and the per-roll assignment
    bound (and its fixing at `floor`); returns the objective and the assignment bound (None when not added)."""
    model, mv, problem = frame.model, frame.mv, frame.problem

    card_caps = clairvoyant_card_caps(problem)

    def card_cuts(terms: cpsat_map.CardTerms) -> None:
        add_card_cuts(
            model, mv, frame.turn_vars, frame.fixed, problem.challenges, terms.by_card, terms.isolated, card_caps
        )

    use_cuts = CARD_CUTS if cuts is None else cuts
    nature_caps = clairvoyant_nature_caps(problem) if use_cuts and NATURE_CAPS else None
    objective = _scoring_objective(
        model,
        mv,
        problem,
        card_caps=card_caps,
        card_cuts=card_cuts if use_cuts else None,
        parts=parts,
        nature_caps=nature_caps,
        floor=floor,
    )
    assignment = None
    if use_cuts and ASSIGNMENT_BOUND:
        programme = cached_programme(problem, nature_caps)
        assignment = programme.bound()
        if assignment is None:
            model.add_bool_or([])  # no prefix of the rolls holds every element: no complete map
        else:
            model.add(objective <= assignment)
            if floor is not None:
                _add_assignment_fixing(
                    model, programme, frame.turn_vars, frame.active, frame.pairs_per_turn, frame.table, floor
                )
    model.maximize(objective)
    return objective, assignment


def add_turn_order_strategy(frame: _ClairvoyantFrame) -> None:
    """Search turn by turn: whether it draws, its element, its cell set."""
    order = []
    for t, turn in enumerate(frame.turn_vars):
        order.append(frame.active[t])
        order.extend(turn.element.values())
        order.extend(turn.use.values())
    frame.model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)


def _turn_reader(problem: MaxProblem, turn_vars: Sequence[TurnVars]) -> Callable[[CpSolveResult], tuple[TurnPlay, ...]]:
    """Read each turn's drawing (None after the end) from a solution."""

    def read_turns(result: CpSolveResult) -> tuple[TurnPlay, ...]:
        turns = []
        for t, roll in enumerate(problem.rolls):
            chosen = [cells for cells, var in turn_vars[t].use.items() if result.boolean(var)]
            if not chosen:
                turns.append(TurnPlay(t, roll, None))
                continue
            cells = chosen[0]
            e = next(e for e, var in turn_vars[t].element.items() if result.boolean(var))
            option = _option_for(roll, cells, e, problem.components)
            turns.append(TurnPlay(t, roll, Placement(cells, Element(e), option)))
        return tuple(turns)

    return read_turns


def _build_clairvoyant(
    problem: MaxProblem,
    mode: Mode,
    hint: Sequence[Placement | None] | None = None,
    *,
    cuts: bool | None = None,
    targets: dict[Challenge, int] | None = None,
    floor: int | None = None,
) -> _Built:
    """Forced play of a known roll sequence, with time-indexed adjacency and an exact ending rule.

    `floor` (complete mode): drop every drawing through which no map scores `floor` or more by the per-roll
    assignment bound (`_add_assignment_fixing`); the model then keeps exactly the maps it had that score at
    least `floor`, plus some below.

    Variables: `use[t][P]` (turn t draws cell set P), `element[t][e]`, `active[t]` (turn t draws; active
    turns form a prefix). Adjacency in order uses `before[c][t]` = square c drawn before turn t. The ending
    rule only needs the *final* map, because the map stops changing when the game ends: `fits[s]` is forced
    true whenever some position of shape s is empty and touches a drawn square of the final map, and the
    first inactive turn t requires `fits[s]` false for every shape s its roll offers.
    """
    frame = _clairvoyant_frame(problem)
    model, mv = frame.model, frame.mv
    element_cap = add_turn_drawings(frame)
    add_square_counts(frame, element_cap)
    add_adjacency_in_order(frame)
    add_ending_rule(frame)
    cpsat_map.add_completeness(model, mv, Challenge.GREAT_DIVIDE in problem.challenges, mode != "incomplete")
    objective = None
    assignment = None
    parts: dict[str, cp_model.LinearExprT] = {}
    if mode == "perfect":
        add_perfect_map(frame, targets)
    if mode == "complete":
        objective, assignment = add_complete_objective(frame, parts, cuts, floor)
    if DECISION_STRATEGY:
        add_turn_order_strategy(frame)
    if hint is not None:
        use = [turn.use for turn in frame.turn_vars]
        element = [turn.element for turn in frame.turn_vars]
        _add_play_hint(model, mv, hint, frame.symmetries, frame.active, use, element)
    _abandon_if_cancelled()  # the cuts and objective above take a good share of the build
    return _Built(
        model,
        objective,
        mv,
        _turn_reader(problem, frame.turn_vars),
        parts.get("bonus"),
        assignment,
        tuple(frame.active),
        tuple(frame.turn_vars),
    )


def _add_play_hint(
    model: cp_model.CpModel,
    mv: cpsat_map.MapVars,
    plays: Sequence[Placement | None],
    symmetries: Sequence[Callable[[Cell], Cell]],
    active: Sequence[cp_model.IntVar],
    use: Sequence[dict[frozenset[Cell], cp_model.IntVar]],
    element: Sequence[dict[int, cp_model.IntVar]],
) -> None:
    """Hint a whole legal play, first mapped by the flip that makes its first placement an orbit minimum
    (the model only keeps those first placements)."""
    flip: Callable[[Cell], Cell] = lambda rc: rc  # noqa: E731
    if symmetries and plays and plays[0] is not None:
        first = plays[0].cells
        best_key = sorted(first)
        for g in symmetries:
            key = sorted(g(cell) for cell in first)
            if key < best_key:
                best_key, flip = key, g
    k_of = {e: k for k, e in enumerate(mv.elements)}
    cell_value = [0] * len(mv.cells)
    for t, play in enumerate(plays):
        cells = frozenset(flip(cell) for cell in play.cells) if play is not None else None
        if cells is not None and cells not in use[t]:
            return  # not representable (should not happen): hinting nothing beats a wrong hint
        model.add_hint(active[t], play is not None)
        for candidate, var in use[t].items():
            model.add_hint(var, candidate == cells)
        for e, var in element[t].items():
            model.add_hint(var, play is not None and int(play.element) == e)
        if play is not None and cells is not None:
            for cell in cells:
                cell_value[mv.index[cell]] = int(play.element)
    for i, row in enumerate(mv.cell_element):
        for k, var in enumerate(row):
            if cell_value[i]:
                model.add_hint(var, k == k_of[cell_value[i]])


def _first_turn_symmetries(problem: MaxProblem, pre: set[Cell]) -> list[Callable[[Cell], Cell]]:
    """Map flips that leave the start map (and hence the whole problem) unchanged.

    Every card and the forced-play rules are invariant under these flips, so mapping a whole play through
    one of them gives a play with the same score: the first placement may be restricted to the smallest
    member of its orbit without losing the optimum.
    """
    rows, cols = problem.components.rows, problem.components.cols
    grid = problem.start_grid
    result = []
    for g in _grid_symmetries(rows, cols):
        if all(grid[r][c] == grid[g((r, c))[0]][g((r, c))[1]] for r in range(rows) for c in range(cols)):
            result.append(g)
    return result


def _is_orbit_minimum(cells: frozenset[Cell], symmetries: Sequence[Callable[[Cell], Cell]]) -> bool:
    key = sorted(cells)
    return all(key <= sorted(g(cell) for cell in cells) for g in symmetries)


def _option_for(roll: Roll, cells: frozenset[Cell], element: int, components: Components) -> Option:
    """The roll option that allows drawing this cell set with this element (an exact face preferred)."""
    shape = frozenset((r - min(r for r, _ in cells), c - min(c for _, c in cells)) for r, c in cells)
    fitting = []
    for option in roll_options(roll):
        shape_ok = any(
            shape in orientations(components.shapes[s]) for s in (components.shape_indices(option.shape_face))
        )
        element_ok = option.element_face == ANY_FACE or int(components.elements[option.element_face - 1]) == element
        if shape_ok and element_ok:
            fitting.append(option)
    if not fitting:
        raise ModelMismatch(f"no option of roll {roll} draws {sorted(cells)} with element {element}")
    fitting.sort(key=lambda o: len(components.shape_indices(o.shape_face)) + (o.element_face == ANY_FACE))
    return fitting[0]


def _build_absolute(problem: MaxProblem, mode: Mode) -> _Built:
    """Free drawing: the drawn squares are an exact cover by placements (each of one element), connected.

    A connected union of pieces can always be drawn one piece at a time with each piece touching an earlier
    one (order the pieces by a search over the piece adjacency graph), so connectivity is exactly what
    legality asks for. With a pre-drawn map, its squares are the roots of the connectivity tree.
    """
    if mode != "complete":
        raise ValueError("absolute maxima only need the complete-map model")
    comp = problem.components
    model = cp_model.CpModel()
    fixed = _fixed_cells(problem.start_grid)
    mv = cpsat_map.new_map_vars(model, comp.rows, comp.cols, MODEL_ELEMENTS, fixed)
    pre = set(fixed)
    table = _placement_table(comp, pre)
    piece = {
        (cells, k): model.new_bool_var(f"piece_{sorted(cells)}_{k}")
        for cells in table
        for k in range(len(MODEL_ELEMENTS))
    }
    by_cell: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    for (cells, k), var in piece.items():
        for cell in cells:
            by_cell.setdefault((mv.index[cell], k), []).append(var)
    for i, cell in enumerate(mv.cells):
        if cell in pre:
            continue
        for k in range(len(MODEL_ELEMENTS)):
            model.add(mv.cell_element[i][k] == sum(by_cell.get((i, k), [])))
    roots = [mv.index[cell] for cell in pre]
    cpsat_map.add_rooted_connectivity(model, mv, mv.filled, "drawn", fixed_roots=roots)
    cpsat_map.add_completeness(model, mv, Challenge.GREAT_DIVIDE in problem.challenges, True)
    if problem.kind == "challenge":
        assert problem.card is not None
        objective = _card_terms(model, mv, [problem.card], problem.festival_won).by_card[problem.card.value]
    else:
        objective = _scoring_objective(model, mv, problem)
    model.maximize(objective)

    def read_turns(result: CpSolveResult) -> tuple[TurnPlay, ...]:
        chosen = [(cells, k) for (cells, k), var in piece.items() if result.boolean(var)]
        ordered = _drawing_order(chosen, pre)
        turns = []
        for t, (cells, k) in enumerate(ordered):
            s = min(table[cells])
            option = Option(s + 1, ANY_FACE)
            turns.append(TurnPlay(t, (s + 1, ANY_FACE), Placement(cells, Element(MODEL_ELEMENTS[k]), option)))
        return tuple(turns)

    return _Built(model, objective, mv, read_turns)


def _drawing_order(pieces: list[tuple[frozenset[Cell], int]], pre: set[Cell]) -> list[tuple[frozenset[Cell], int]]:
    """Order connected pieces so that each touches the squares drawn before it (breadth-first)."""
    remaining = sorted(pieces, key=lambda p: sorted(p[0]))
    drawn = set(pre)
    ordered = []
    while remaining:
        for idx, (cells, k) in enumerate(remaining):
            touching = not drawn or any(
                (r + dr, c + dc) in drawn for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
            if touching:
                ordered.append((cells, k))
                drawn |= cells
                del remaining[idx]
                break
        else:
            raise ModelMismatch("the drawn pieces are not connected")
    return ordered

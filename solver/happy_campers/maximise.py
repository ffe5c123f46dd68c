"""Proven maximum scores for Happy Campers maps with CP-SAT.

Three questions, one machinery:

- `clairvoyant_max`: the best final score of one map when the whole roll sequence is known in advance,
  under forced play (a roll must be drawn whenever it can be; the first roll that fits nowhere ends the game);
- `absolute_max`: the best score over every map that some sequence of drawings can produce (free choice of
  shapes and elements, any number of turns);
- `challenge_max`: one challenge card's own best points over complete drawable maps (the card maxima).

Every model is built from `cpsat_map` (exact scoring) plus how squares get drawn. Because an incomplete
map scores 0 whatever else it holds, each question is split in two CP-SAT problems instead of one model
with an "is complete" switch (whose linear relaxation is useless): (A) maximise the full score over
complete maps; (B), only when A cannot beat 0, decide whether an incomplete outcome exists. The proof
claim combines the two solver statuses and is OPTIMAL only when every phase that matters was closed by
CP-SAT (OPTIMAL or INFEASIBLE).

Clairvoyant play starts CP-SAT from a legal play (`cpsat_warmstart`): a perfect map when the depth-first
search finds one within its share of the budget (then the hint already meets the root bound), else the
best greedy play. With point-scoring cards the model gets analytic caps on each card's points
(`clairvoyant_card_caps`, redundant constraints), and when only Dangerous Animals / Quick Pee score, the
search first aims at a perfect map meeting every cap: perfect value + caps bounds every map, so such a map
is proven at the root. The play fixes only the decisions, so a pinned copy of the model is solved first to
extend the hint to every variable (CP-SAT's own completion of a partial hint drifts badly on these models).

Every answer is replayed through the rules model before it is returned: each placement goes through
`rules.draw` in order, forced play is re-checked with `rules.can_draw`, and `rules.score` of the final map
must lie between the model's objective and its proven bound (and equal it when the proof is OPTIMAL).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import CpSolveResult, Proof, add_nogood, check_unique_optimum, solve
from campsolver.solver.core.geometry import Cell, border_cells, neighbours, orientations, placements
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play, perfect_play
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    ELEMENTS,
    FESTIVAL_POINTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    ScoreBreakdown,
    can_draw,
    draw,
    empty_grid,
    roll_options,
    score,
    validate_grid,
    validate_roll,
)
from ortools.sat.python import cp_model

Roll = tuple[int, int]
Mode = Literal["complete", "incomplete", "perfect"]

#: Randomised greedy plays tried for the clairvoyant warm start (each costs a few milliseconds a roll).
WARMSTART_ROLLOUTS = 8
DECISION_STRATEGY = True
#: Share of the remaining budget the perfect-map search may use before CP-SAT starts (it usually needs
#: milliseconds; when no perfect map exists it rarely finishes its tree, so the share is what it costs).
PERFECT_SEARCH_SHARE = 0.15
#: Share of what is then left for CP-SAT's perfect-map feasibility model (when the search found nothing).
PERFECT_MODEL_SHARE = 0.3
#: Share of the remaining budget for completing the hint (pinned solve; it usually takes well under a second).
HINT_COMPLETION_SHARE = 0.2
#: Cards whose points do not depend on the map (or that score none): with only these in play a perfect map
#: is a maximum. The Great Divide is left out: the search does not check its two-sided completeness (tried:
#: with a leaf check and a side-reachability prune it found no two-sided perfect map on 4 of 4 15-roll seeds).
MAP_INDEPENDENT_CARDS = frozenset({Challenge.NOISY_NEIGHBOURS, Challenge.FESTIVAL})
#: The element order used inside the CP-SAT models.
MODEL_ELEMENTS: tuple[int, ...] = tuple(int(e) for e in ELEMENTS)


class ModelMismatch(RuntimeError):
    """The rules model disagrees with a CP-SAT answer: a bug in the model, never a user error."""


# ---------------------------------------------------------------------------------------------------------
# Public results
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnPlay:
    """What happened to one roll: the placement drawn, or None when the game had already ended."""

    turn: int
    roll: Roll
    placement: Placement | None

    @property
    def option(self) -> Option | None:
        return self.placement.option if self.placement else None

    @property
    def element(self) -> Element | None:
        return self.placement.element if self.placement else None

    @property
    def cells(self) -> frozenset[Cell] | None:
        return self.placement.cells if self.placement else None


@dataclass(frozen=True)
class SolveStats:
    """Summed over the CP-SAT solves behind one answer."""

    wall_time_s: float
    branches: int
    conflicts: int
    solves: int


@dataclass(frozen=True)
class MaxProblem:
    """Everything needed to rebuild a model (used by `is_unique_optimum`)."""

    kind: Literal["clairvoyant", "absolute", "challenge"]
    components: Components
    challenges: tuple[Challenge, ...]
    start_grid: Grid
    rolls: tuple[Roll, ...] = ()
    festival_won: bool = True
    card: Challenge | None = None  # challenge_max only


@dataclass(frozen=True)
class MaxResult:
    """A maximum with its proof status.

    `score` is the rules model's score of `grid` (for `challenge_max`: the card's points on `grid`), `bound`
    a proven upper bound on the maximum (None when nothing was proven). `proof` is OPTIMAL only when CP-SAT
    closed every phase, FEASIBLE_WITH_BOUND when a bound was proven but the gap is open, HEURISTIC when no
    bound is known, INFEASIBLE when no map qualifies (challenge_max only), None when the budget ran out
    before any answer.
    """

    score: int | None
    proof: Proof | None
    bound: int | None
    grid: Grid | None
    turns: tuple[TurnPlay, ...]
    breakdown: ScoreBreakdown | None
    stats: SolveStats
    problem: MaxProblem

    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(t.placement for t in self.turns if t.placement is not None)


# ---------------------------------------------------------------------------------------------------------
# Model building
# ---------------------------------------------------------------------------------------------------------


@dataclass
class _Built:
    """A model plus how to read its answer back."""

    model: cp_model.CpModel
    objective: cp_model.LinearExprT | None
    mv: cpsat_map.MapVars
    read_turns: Callable[[CpSolveResult], tuple[TurnPlay, ...]]


def _fixed_cells(grid: Grid) -> dict[Cell, int]:
    return {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row) if v}


def _placement_table(components: Components, blocked: set[Cell]) -> dict[frozenset[Cell], set[int]]:
    """Every placement (cell set) of every shape that avoids `blocked`, with the shape indices giving it."""
    table: dict[frozenset[Cell], set[int]] = {}
    for s, shape in enumerate(components.shapes):
        for cells in placements(shape, components.rows, components.cols):
            if not cells & blocked:
                table.setdefault(frozenset(cells), set()).add(s)
    return table


def _roll_pairs(roll: Roll, components: Components) -> dict[int, set[int]]:
    """Shape index -> element values allowed with it by either option of the roll (face 6 expanded)."""
    allowed: dict[int, set[int]] = {}
    for option in roll_options(roll):
        shapes = components.shape_indices(option.shape_face)
        if option.element_face == ANY_FACE:
            elements = {int(e) for e in components.elements}
        else:
            elements = {int(components.elements[option.element_face - 1])}
        for s in shapes:
            allowed.setdefault(s, set()).update(elements)
    return allowed


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
) -> cp_model.LinearExprT:
    """The full score of a complete map (clusters, empty squares, every card in play).

    `card_caps` are redundant upper bounds on single cards' points (valid for every map of the problem);
    CP-SAT's relaxation does not find them, and with them a perfect map meeting every cap is proven at once.
    """
    sizes = cpsat_map.largest_cluster_sizes(model, mv)
    terms = _card_terms(model, mv, problem.challenges, problem.festival_won)
    for card, cap in (card_caps or {}).items():
        model.add(terms.by_card[card.value] <= cap)
    n = len(mv.cells)
    # Named totals with tight domains: the objective bound then follows by propagation alone
    # (clusters <= drawn squares), instead of the useless "every element's cluster could be the whole map".
    drawn = model.new_int_var(0, n, "drawn_total")
    model.add(drawn == sum(mv.filled))
    clustered = model.new_int_var(0, n, "clustered_total")
    model.add(clustered == sum(sizes))
    model.add(clustered <= drawn)
    return clustered + cpsat_map.EMPTY_POINTS * (n - drawn) + sum(terms.by_card.values())


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


def _build_clairvoyant(
    problem: MaxProblem, mode: Mode, hint: Sequence[Placement | None] | None = None
) -> _Built:
    """Forced play of a known roll sequence, with time-indexed adjacency and an exact ending rule.

    Variables: `use[t][P]` (turn t draws cell set P), `element[t][e]`, `active[t]` (turn t draws; active
    turns form a prefix). Adjacency in order uses `before[c][t]` = square c drawn before turn t. The ending
    rule only needs the *final* map, because the map stops changing when the game ends: `fits[s]` is forced
    true whenever some position of shape s is empty and touches a drawn square of the final map, and the
    first inactive turn t requires `fits[s]` false for every shape s its roll offers.
    """
    comp = problem.components
    rows, cols = comp.rows, comp.cols
    model = cp_model.CpModel()
    fixed = _fixed_cells(problem.start_grid)
    mv = cpsat_map.new_map_vars(model, rows, cols, MODEL_ELEMENTS, fixed)
    pre = set(fixed)
    start_empty = not pre
    table = _placement_table(comp, pre)
    n_turns = len(problem.rolls)
    k_of = {e: k for k, e in enumerate(MODEL_ELEMENTS)}

    active = [model.new_bool_var(f"active_{t}") for t in range(n_turns)]
    for t in range(1, n_turns):
        model.add_implication(active[t], active[t - 1])

    use: list[dict[frozenset[Cell], cp_model.IntVar]] = []
    element: list[dict[int, cp_model.IntVar]] = []
    cover: list[dict[int, cp_model.IntVar]] = []
    pairs_per_turn = [_roll_pairs(roll, comp) for roll in problem.rolls]
    symmetries = _first_turn_symmetries(problem, pre)
    element_cap = {e: sum(1 for v in fixed.values() if v == e) for e in MODEL_ELEMENTS}
    turn_sizes: list[cp_model.IntVar] = []
    for t, pairs in enumerate(pairs_per_turn):
        candidates: dict[frozenset[Cell], set[int]] = {}
        for cells, shapes in table.items():
            allowed = set().union(*(pairs[s] for s in shapes if s in pairs))
            if allowed:
                candidates[cells] = allowed
        if t == 0 and symmetries:
            candidates = {cells: e for cells, e in candidates.items() if _is_orbit_minimum(cells, symmetries)}
        turn_elements = set().union(*candidates.values()) if candidates else set()
        for e in turn_elements:
            element_cap[e] += max(len(cells) for cells, allowed in candidates.items() if e in allowed)
        use_t = {cells: model.new_bool_var(f"use_{t}_{sorted(cells)}") for cells in candidates}
        el_t = {e: model.new_bool_var(f"element_{t}_{e}") for e in sorted(turn_elements)}
        model.add(sum(use_t.values()) == active[t])
        model.add(sum(el_t.values()) == active[t])
        # Redundant but strong for the relaxation: the squares drawn this turn are capped by the largest
        # shape that the chosen element allows (picking the element a big shape does not offer costs squares).
        largest = max((len(cells) for cells in candidates), default=0)
        drawn_t = model.new_int_var(0, largest, f"drawn_{t}")
        model.add(drawn_t == sum(len(cells) * var for cells, var in use_t.items()))
        model.add(
            drawn_t
            <= sum(
                max(len(cells) for cells, allowed in candidates.items() if e in allowed) * el
                for e, el in el_t.items()
            )
        )
        turn_sizes.append(drawn_t)
        for cells, allowed in candidates.items():
            if allowed != turn_elements:
                model.add_bool_or([use_t[cells].Not(), *[el_t[e] for e in sorted(allowed)]])
        cover_t: dict[int, cp_model.IntVar] = {}
        by_cell: dict[int, list[cp_model.IntVar]] = {}
        for cells, var in use_t.items():
            for cell in cells:
                by_cell.setdefault(mv.index[cell], []).append(var)
        for i, vars_i in by_cell.items():
            cov = model.new_bool_var(f"cover_{t}_{i}")
            model.add(sum(vars_i) == cov)
            cover_t[i] = cov
            for e, el in el_t.items():
                model.add_bool_or([cov.Not(), el.Not(), mv.cell_element[i][k_of[e]]])
        use.append(use_t)
        element.append(el_t)
        cover.append(cover_t)

    n = len(mv.cells)
    for i in range(n):
        covers = [cover[t][i] for t in range(n_turns) if i in cover[t]]
        model.add(mv.filled[i] == (1 if mv.cells[i] in pre else 0) + sum(covers))
    for e in MODEL_ELEMENTS:
        model.add(sum(mv.cell_element[i][k_of[e]] for i in range(n)) <= element_cap[e])
    model.add(sum(mv.filled) == len(pre) + sum(turn_sizes))

    # Adjacency in drawing order: before[i] = square i drawn before the current turn.
    before: list[cp_model.LinearExprT] = [1 if cell in pre else 0 for cell in mv.cells]
    for t in range(n_turns):
        if t > 0 or not start_empty:
            for cells, var in use[t].items():
                around = {mv.index[nb] for cell in cells for nb in neighbours(cell, rows, cols)} - {
                    mv.index[cell] for cell in cells
                }
                if any(isinstance(before[j], int) and before[j] == 1 for j in around):
                    continue
                lits = [before[j] for j in around if not isinstance(before[j], int)]
                model.add_bool_or([var.Not(), *lits])
        nxt: list[cp_model.LinearExprT] = []
        for i in range(n):
            if i not in cover[t]:
                nxt.append(before[i])
            elif isinstance(before[i], int) and before[i] == 0:
                nxt.append(cover[t][i])
            else:
                b = model.new_bool_var(f"before_{t + 1}_{i}")
                model.add(b == before[i] + cover[t][i])
                nxt.append(b)
        before = nxt

    # The ending: the first unused roll must fit nowhere on the final map.
    if n_turns:
        if start_empty:
            if use[0]:
                model.add(active[0] == 1)
            else:
                for t in range(n_turns):
                    model.add(active[t] == 0)
        ending_shapes = set()
        for t in range(n_turns):
            if t > 0 or not start_empty:
                ending_shapes.update(pairs_per_turn[t])
        fits = {s: model.new_bool_var(f"fits_{s}") for s in sorted(ending_shapes)}
        for cells, shapes in table.items():
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
        for t in range(n_turns):
            if t == 0 and start_empty:
                continue
            for s in pairs_per_turn[t]:
                clause = [active[t], fits[s].Not()]
                if t > 0:
                    clause.append(active[t - 1].Not())
                model.add_bool_or(clause)

    cpsat_map.add_completeness(model, mv, Challenge.GREAT_DIVIDE in problem.challenges, mode != "incomplete")
    objective = None
    if mode == "perfect":
        # Feasibility: every square drawn and every element one cluster (its squares connected).
        for filled in mv.filled:
            model.add(filled == 1)
        for k, e in enumerate(mv.elements):
            cpsat_map.add_rooted_connectivity(model, mv, [row[k] for row in mv.cell_element], f"perfect_{e}")
    if mode == "complete":
        objective = _scoring_objective(model, mv, problem, card_caps=clairvoyant_card_caps(problem))
        model.maximize(objective)
    if DECISION_STRATEGY:
        order = []
        for t in range(n_turns):
            order.append(active[t])
            order.extend(element[t].values())
            order.extend(use[t].values())
        model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    if hint is not None:
        _add_play_hint(model, mv, hint, symmetries, active, use, element)

    def read_turns(result: CpSolveResult) -> tuple[TurnPlay, ...]:
        turns = []
        for t, roll in enumerate(problem.rolls):
            chosen = [cells for cells, var in use[t].items() if result.boolean(var)]
            if not chosen:
                turns.append(TurnPlay(t, roll, None))
                continue
            cells = chosen[0]
            e = next(e for e, var in element[t].items() if result.boolean(var))
            turns.append(TurnPlay(t, roll, Placement(cells, Element(e), _option_for(roll, cells, e, comp))))
        return tuple(turns)

    return _Built(model, objective, mv, read_turns)


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
            shape in orientations(components.shapes[s])
            for s in (components.shape_indices(option.shape_face))
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


# ---------------------------------------------------------------------------------------------------------
# Solving and checking
# ---------------------------------------------------------------------------------------------------------


@dataclass
class _Tally:
    wall: float = 0.0
    branches: int = 0
    conflicts: int = 0
    solves: int = 0
    results: list[CpSolveResult] = field(default_factory=list)

    def add(self, result: CpSolveResult) -> None:
        self.wall += result.wall_time_s
        self.branches += result.branches
        self.conflicts += result.conflicts
        self.solves += 1

    def stats(self) -> SolveStats:
        return SolveStats(self.wall, self.branches, self.conflicts, self.solves)


def _read_grid(mv: cpsat_map.MapVars, result: CpSolveResult) -> Grid:
    values = []
    for i in range(len(mv.cells)):
        value = 0
        for k, e in enumerate(mv.elements):
            if result.boolean(mv.cell_element[i][k]):
                value = e
        values.append(value)
    return tuple(tuple(values[r * mv.cols : (r + 1) * mv.cols]) for r in range(mv.rows))


def _replay(problem: MaxProblem, turns: Sequence[TurnPlay], model_grid: Grid) -> Grid:
    """Re-draw every placement with the rules model; check forced play and the final map."""
    comp = problem.components
    grid = problem.start_grid
    ended = False
    for turn in turns:
        if turn.placement is None:
            if problem.kind == "clairvoyant" and not ended and can_draw(grid, turn.roll, comp):
                raise ModelMismatch(f"turn {turn.turn}: roll {turn.roll} could be drawn but was skipped")
            ended = True
            continue
        if ended:
            raise ModelMismatch(f"turn {turn.turn}: drawn after the game ended")
        grid = draw(grid, turn.placement, comp)
    if grid != model_grid:
        raise ModelMismatch("replaying the placements does not give the model's map")
    return grid


def _points(problem: MaxProblem, grid: Grid) -> tuple[int, ScoreBreakdown]:
    breakdown = score(grid, problem.challenges, problem.components, festival_won=problem.festival_won)
    if problem.kind == "challenge":
        assert problem.card is not None
        return (breakdown.challenge_points.get(problem.card, 0) if breakdown.complete else 0), breakdown
    return breakdown.total, breakdown


def _checked_answer(
    problem: MaxProblem, built: _Built, result: CpSolveResult
) -> tuple[Grid, tuple[TurnPlay, ...], int, ScoreBreakdown]:
    model_grid = _read_grid(built.mv, result)
    turns = built.read_turns(result)
    grid = _replay(problem, turns, model_grid)
    value, breakdown = _points(problem, grid)
    if built.objective is not None:
        objective = round(result.objective) if result.objective is not None else None
        bound = result.bound
        if objective is not None and value < objective:
            raise ModelMismatch(f"rules score {value} below the model objective {objective}")
        if bound is not None and value > bound + 1e-6:
            raise ModelMismatch(f"rules score {value} above the proven bound {bound}")
    return grid, turns, value, breakdown


#: CP-SAT parameter overrides for these models (measured on random 15-roll sequences, see the bench):
#: presolve probing costs seconds on these models and buys nothing measurable.
SOLVER_PARAMETERS: dict[str, object] = {"cp_model_probing_level": 0}


def _configure(solver: cp_model.CpSolver) -> None:
    for name, value in SOLVER_PARAMETERS.items():
        setattr(solver.parameters, name, value)


def _closed(result: CpSolveResult) -> bool:
    return result.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


def _element_caps(problem: MaxProblem) -> dict[Element, int]:
    """Most squares of each element any play of the rolls can hold: the pre-drawn ones plus, per roll, the
    largest shape some option offers with that element."""
    comp = problem.components
    caps = {e: sum(1 for row in problem.start_grid for v in row if v == int(e)) for e in ELEMENTS}
    for roll in problem.rolls:
        best: dict[int, int] = {}
        for s, elements in _roll_pairs(roll, comp).items():
            for e in elements:
                best[e] = max(best.get(e, 0), len(comp.shapes[s]))
        for e, size in best.items():
            caps[Element(e)] += size
    return caps


def clairvoyant_card_caps(problem: MaxProblem) -> dict[Challenge, int]:
    """Analytic upper bounds on single cards' points over every final map of a clairvoyant problem.

    Privacy: trees on the edge <= min(edge squares, tree squares drawable). Dangerous Animals: at best only
    the pre-drawn edge tents cost. Quick Pee: one point per row and column. Tent Together: disjoint 2x2
    tent squares <= min(tent squares drawable / 4, (rows // 2) * (cols // 2)). River Town: disjoint rivers
    <= min(rows, water squares drawable / cols). Nature Reserve has no cap here (its isolated empty squares
    are what lets a map beat the perfect-map bound).
    """
    comp = problem.components
    rows, cols = comp.rows, comp.cols
    caps = _element_caps(problem)
    edge = border_cells(rows, cols)
    pre_edge_tents = sum(1 for r, c in edge if problem.start_grid[r][c] == int(Element.TENTS))
    by_card = {
        Challenge.PRIVACY: min(len(edge), caps[Element.TREES]),
        Challenge.DANGEROUS_ANIMALS: -pre_edge_tents,
        Challenge.QUICK_PEE: rows + cols,
        Challenge.TENT_TOGETHER: cpsat_map.TENT_SQUARE_POINTS
        * min(caps[Element.TENTS] // 4, (rows // 2) * (cols // 2)),
        Challenge.RIVER_TOWN: cpsat_map.RIVER_POINTS * min(rows, caps[Element.WATER] // cols),
    }
    return {card: cap for card, cap in by_card.items() if card in problem.challenges}


@dataclass(frozen=True)
class _Hint:
    """Where CP-SAT starts clairvoyant play, and whether CP-SAT proved that no perfect map exists."""

    plays: Sequence[Placement | None] | None
    no_perfect_map: bool


def _perfect_value(problem: MaxProblem) -> int:
    """A perfect map's score: every square counts, no empty square (plus a won Festival)."""
    festival = FESTIVAL_POINTS if Challenge.FESTIVAL in problem.challenges and problem.festival_won else 0
    return problem.components.cell_count + festival


def _clairvoyant_hint(problem: MaxProblem, budget: Budget, seed: int, workers: int, tally: _Tally) -> _Hint:
    """A legal play for CP-SAT to start from: a perfect map when one is found quickly, else the best greedy.

    Without point-scoring cards no map scores more than a perfect map (no empty square, one cluster per
    element), so a perfect play is a maximum and CP-SAT meets its root bound at once. Two searches look for
    one: the depth-first `perfect_play` (milliseconds on almost every random 15-roll sequence) and, when
    it neither finds one nor exhausts its tree, CP-SAT on the perfect-map feasibility model, which is
    better when the rolls leave no slack (every roll must draw its largest shape) and which can also prove
    that no perfect map exists: its INFEASIBLE status then caps the main model's objective below the
    perfect value, a cut the main solve could not derive quickly by itself.
    """
    no_perfect_map = False
    if set(problem.challenges) <= MAP_INDEPENDENT_CARDS:
        search = perfect_play(
            problem.start_grid,
            problem.rolls,
            problem.components,
            rng_for(seed, "happy_campers.maximise.perfect"),
            budget.limited(budget.remaining() * PERFECT_SEARCH_SHARE),
        )
        if search.plays is not None:
            return _Hint(search.plays, False)
        if not search.exhausted and not budget.expired():
            built = _build_clairvoyant(problem, "perfect")
            share = budget.limited(budget.remaining() * PERFECT_MODEL_SHARE)
            result = solve(built.model, share, workers=workers, configure=_configure)
            tally.add(result)
            if result.has_solution:
                return _Hint([turn.placement for turn in built.read_turns(result)], False)
            no_perfect_map = result.status == cp_model.INFEASIBLE
    elif _perfect_bound_holds(problem):
        return _card_perfect_hint(problem, budget, seed)
    return _greedy_hint(problem, seed, no_perfect_map)


def _perfect_bound_holds(problem: MaxProblem) -> bool:
    """Does "perfect value + every card's cap" bound every map? Not with Nature Reserve (isolated empty
    squares score) nor The Great Divide (the search does not check two-sided completeness)."""
    return not {Challenge.NATURE_RESERVE, Challenge.GREAT_DIVIDE} & set(problem.challenges)


def _card_perfect_hint(problem: MaxProblem, budget: Budget, seed: int) -> _Hint:
    """With point-scoring cards: first a perfect map whose cards meet their caps (proven at the root, as
    perfect value + caps bounds every map), else the greedy play.

    Tried: hinting any perfect map when none meets the caps (45 + a few card points, above the greedy
    play's total) made the final answers *worse* (Privacy 49 and 52 against 61 and 54 from the greedy
    hint, same 10 s): CP-SAT stays near a hint whose card score is poor.
    """
    caps = clairvoyant_card_caps(problem)
    comp = problem.components
    if not set(caps) <= set(CARD_TARGET_PRUNES):
        return _greedy_hint(problem, seed, False)
    target = sum(caps.values())
    cards = problem.challenges
    festival_won = problem.festival_won

    def card_points(grid: Grid) -> int:
        points = score(grid, cards, comp, festival_won=festival_won).challenge_points
        return sum(points.get(card, 0) for card in caps)

    viable = _card_viability(problem, caps)
    rng = rng_for(seed, "happy_campers.maximise.perfect_cards")
    search = perfect_play(
        problem.start_grid,
        problem.rolls,
        comp,
        rng,
        budget.limited(budget.remaining() * PERFECT_SEARCH_SHARE),
        accept=lambda grid: card_points(grid) >= target,
        viable=viable,
        prefer=_card_preference(problem, caps) if CARD_PREFERENCE else None,
    )
    if search.plays is not None:
        return _Hint(search.plays, False)
    return _greedy_hint(problem, seed, False)


def _greedy_hint(problem: MaxProblem, seed: int, no_perfect_map: bool) -> _Hint:
    warm = greedy_play(
        problem.start_grid,
        problem.rolls,
        problem.challenges,
        problem.components,
        rng_for(seed, "happy_campers.maximise.warmstart"),
        WARMSTART_ROLLOUTS,
        festival_won=problem.festival_won,
    )
    return _Hint(warm[1] if warm else None, no_perfect_map)


#: Cards whose cap the perfect-map search can aim at, with a prune of partial maps (`_card_viability`).
#: Privacy, Tent Together and River Town are left out: their caps (24 edge trees, 8 tent squares, full
#: rivers) are almost never met by a perfect map, so the search would only spend its share.
CARD_TARGET_PRUNES = (Challenge.DANGEROUS_ANIMALS, Challenge.QUICK_PEE)


#: Rank bonus, in the perfect-map search aimed at Quick Pee, per row or column a toilet move newly reaches.
QUICK_PEE_LINE_WEIGHT = 2.0
#: Measured on the bench's 10 Quick Pee seeds (15 rolls, 10 s): with the bonus 5/10 proven, median gap 1;
#: without it the aimed search rarely succeeds and only costs its share (1/10, gap 3.5; before: 3/10, gap 2).
CARD_PREFERENCE = True


def _card_preference(
    problem: MaxProblem, caps: dict[Challenge, int]
) -> Callable[[int, Element, dict[Element, int]], float] | None:
    """Move-order bonus toward the caps: Quick Pee prefers toilets in rows and columns without one yet
    (Dangerous Animals needs none: its prune already removes every edge tent)."""
    if Challenge.QUICK_PEE not in caps:
        return None
    rows, cols = problem.components.rows, problem.components.cols
    lines = [sum(1 << (r * cols + c) for c in range(cols)) for r in range(rows)]
    lines += [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]

    def prefer(mask: int, element: Element, masks: dict[Element, int]) -> float:
        if element != Element.TOILETS:
            return 0.0
        toilets = masks[Element.TOILETS]
        return QUICK_PEE_LINE_WEIGHT * sum(1 for line in lines if line & mask and not line & toilets)

    return prefer


def _card_viability(problem: MaxProblem, caps: dict[Challenge, int]) -> Callable[[int, dict[Element, int]], bool]:
    """A test of partial maps (drawn bitmask, bitmask per element) that every map meeting all caps passes.

    Cards' points never exceed their caps, so a map whose total meets the sum meets each cap: Dangerous
    Animals at its cap draws no new tent on the edge; Quick Pee at its cap (every row and column) leaves no
    line both without a toilet and without an empty square.
    """
    rows, cols = problem.components.rows, problem.components.cols
    edge_mask = sum(1 << (r * cols + c) for r, c in border_cells(rows, cols))
    start_edge_tents = sum(
        1 << (r * cols + c) for r, c in border_cells(rows, cols) if problem.start_grid[r][c] == int(Element.TENTS)
    )
    lines = [sum(1 << (r * cols + c) for c in range(cols)) for r in range(rows)]
    lines += [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
    check_tents = Challenge.DANGEROUS_ANIMALS in caps
    check_toilets = Challenge.QUICK_PEE in caps

    def viable(drawn: int, masks: dict[Element, int]) -> bool:
        if check_tents and masks[Element.TENTS] & edge_mask & ~start_edge_tents:
            return False
        if check_toilets:
            toilets = masks[Element.TOILETS]
            if any(not line & toilets and not line & ~drawn for line in lines):
                return False
        return True

    return viable


def _complete_hint(model: cp_model.CpModel, budget: Budget, workers: int, tally: _Tally) -> None:
    """Extend a partial hint (the play's decisions) to every variable of the model.

    CP-SAT completes a partial hint by its own search, and on these models that search often drifts far
    from the hinted play (a perfect play hinted without its cluster trees came back as a 36-point map).
    Solving a copy with the hinted variables pinned takes a fraction of a second and gives a full
    assignment, which the real solve then takes as its first solution. The copy's answer is only a hint:
    the proof still comes from the unpinned model's own status.
    """
    hinted = list(zip(model.proto.solution_hint.vars, model.proto.solution_hint.values, strict=True))
    if not hinted or budget.expired():
        return
    pinned = model.clone()
    for index, value in hinted:
        pinned.add(pinned.get_int_var_from_proto_index(index) == value)
    share = budget.limited(budget.remaining() * HINT_COMPLETION_SHARE)
    result = solve(pinned, share, workers=workers, configure=_configure)
    tally.add(result)
    if not result.has_solution:
        return
    solution = result.solver.response_proto.solution
    model.clear_hints()
    for index in range(len(model.proto.variables)):
        model.add_hint(model.get_int_var_from_proto_index(index), solution[index])


def _maximise(
    problem: MaxProblem,
    budget: Budget,
    builder: Callable[[MaxProblem, Mode], _Built],
    *,
    incomplete_phase: bool,
    workers: int,
    seed: int = 0,
) -> MaxResult:
    """Phase A (complete maps, maximise) and, if A cannot reach 0, phase B (an incomplete outcome?)."""
    tally = _Tally()
    if budget.expired():
        # CP-SAT ignores a stop request made before its search starts, so never start one.
        return MaxResult(None, None, None, None, (), None, tally.stats(), problem)
    if problem.kind == "clairvoyant":
        hint = _clairvoyant_hint(problem, budget, seed, workers, tally)
        built = _build_clairvoyant(problem, "complete", hint=hint.plays)
        if hint.no_perfect_map:
            assert built.objective is not None
            built.model.add(built.objective <= _perfect_value(problem) - 1)
        _complete_hint(built.model, budget, workers, tally)
    else:
        built = builder(problem, "complete")
    res_a = solve(built.model, budget, workers=workers, configure=_configure)
    tally.add(res_a)
    answer = None
    if res_a.has_solution:
        answer = _checked_answer(problem, built, res_a)
    # -inf: no complete map at all; None: nothing found and nothing proven.
    bound_a = float("-inf") if res_a.status == cp_model.INFEASIBLE else res_a.bound
    a_value = answer[2] if answer else None

    if (answer is not None and a_value is not None and a_value >= 0) or not incomplete_phase:
        if answer is None:
            proof = Proof.INFEASIBLE if res_a.status == cp_model.INFEASIBLE else None
            return MaxResult(None, proof, None, None, (), None, tally.stats(), problem)
        grid, turns, value, breakdown = answer
        proof = Proof.OPTIMAL if res_a.status == cp_model.OPTIMAL else Proof.FEASIBLE_WITH_BOUND
        bound = int(res_a.bound + 1e-6) if res_a.bound is not None else None
        if bound is None:
            proof = Proof.HEURISTIC
        return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)

    # Phase B: does some legal outcome leave the map incomplete (worth 0)?
    res_b = None
    answer_b = None
    if incomplete_phase and not budget.expired():
        built_b = builder(problem, "incomplete")
        res_b = solve(built_b.model, budget, workers=workers, configure=_configure)
        tally.add(res_b)
        if res_b.has_solution:
            answer_b = _checked_answer(problem, built_b, res_b)
            if answer_b[2] != 0:
                raise ModelMismatch("an incomplete map scored non-zero")
    closed = _closed(res_a) and res_b is not None and _closed(res_b)
    if answer_b is not None:
        grid, turns, value, breakdown = answer_b
        bound = None if bound_a is None else max(0, int(bound_a + 1e-6) if bound_a != float("-inf") else 0)
        proof = Proof.OPTIMAL if closed else (Proof.FEASIBLE_WITH_BOUND if bound is not None else Proof.HEURISTIC)
        return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)
    if answer is not None:
        grid, turns, value, breakdown = answer
        if closed:
            return MaxResult(value, Proof.OPTIMAL, value, grid, turns, breakdown, tally.stats(), problem)
        bound = None if bound_a is None else max(0, int(bound_a + 1e-6))
        proof = Proof.FEASIBLE_WITH_BOUND if bound is not None else Proof.HEURISTIC
        return MaxResult(value, proof, bound, grid, turns, breakdown, tally.stats(), problem)
    if res_b is not None and res_b.status == cp_model.INFEASIBLE and res_a.status == cp_model.INFEASIBLE:
        raise ModelMismatch("neither a complete nor an incomplete outcome exists")
    return MaxResult(None, None, None, None, (), None, tally.stats(), problem)


def _normalised_start(start_grid: Grid | None, components: Components) -> Grid:
    if start_grid is None:
        return empty_grid(components)
    return validate_grid(start_grid, components)


def clairvoyant_max(
    start_grid: Grid | None,
    rolls: Sequence[Roll],
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
) -> MaxResult:
    """The best final score of one map for a known roll sequence under forced single-map play."""
    problem = MaxProblem(
        kind="clairvoyant",
        components=components,
        challenges=tuple(sorted(set(challenges), key=lambda ch: ch.value)),
        start_grid=_normalised_start(start_grid, components),
        rolls=tuple(validate_roll(r) for r in rolls),
        festival_won=festival_won,
    )
    return _maximise(problem, budget or Budget(), _build_clairvoyant, incomplete_phase=True, workers=workers)


def absolute_max(
    components: Components = DEFAULT_COMPONENTS,
    challenges: Iterable[Challenge] = (),
    budget: Budget | None = None,
    start_grid: Grid | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
) -> MaxResult:
    """The best score over every map some sequence of legal drawings can produce from `start_grid`.

    An incomplete map scores 0; the start map itself (no further drawing) is incomplete exactly when some
    element is missing from it, and drawing never removes an element, so 0 is reachable iff the start map
    is incomplete.
    """
    problem = MaxProblem(
        kind="absolute",
        components=components,
        challenges=tuple(sorted(set(challenges), key=lambda ch: ch.value)),
        start_grid=_normalised_start(start_grid, components),
        festival_won=festival_won,
    )
    result = _maximise(problem, budget or Budget(), _build_absolute, incomplete_phase=False, workers=workers)
    start_points, start_breakdown = _points(problem, problem.start_grid)
    if start_breakdown.complete:
        return result
    # The untouched start map is a legal outcome worth 0.
    if result.score is not None and result.score >= 0:
        return result
    proof = Proof.OPTIMAL if result.proof in (Proof.OPTIMAL, Proof.INFEASIBLE) else Proof.FEASIBLE_WITH_BOUND
    bound = None if result.bound is None else max(result.bound, 0)
    if result.proof is Proof.INFEASIBLE:
        bound = 0
    if bound is None:
        proof = Proof.HEURISTIC
    return MaxResult(start_points, proof, bound, problem.start_grid, (), start_breakdown, result.stats, problem)


def challenge_max(
    card: Challenge,
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
    workers: int = 2,
) -> MaxResult:
    """One card's own best points over complete maps that legal drawing can produce (from an empty map).

    Completeness is required because an incomplete map scores 0 whatever the card says; that is how the
    printed maxima read (River Town: four rivers, 20, since five would leave no room for other elements).
    """
    problem = MaxProblem(
        kind="challenge",
        components=components,
        challenges=(card,),
        start_grid=empty_grid(components),
        festival_won=festival_won,
        card=card,
    )
    return _maximise(problem, budget or Budget(), _build_absolute, incomplete_phase=False, workers=workers)


# ---------------------------------------------------------------------------------------------------------
# Uniqueness
# ---------------------------------------------------------------------------------------------------------


_BUILDERS: dict[str, Callable[[MaxProblem, Mode], _Built]] = {
    "clairvoyant": _build_clairvoyant,
    "absolute": _build_absolute,
    "challenge": _build_absolute,
}


def is_unique_optimum(result: MaxResult, budget: Budget | None = None) -> bool | None:
    """Is `result.grid` the only final map reaching the proven optimum?

    "Same solution" means the same final map (element per square): two drawing orders or placement
    splits that end in the same map are one solution. Returns None when undecided (the result is not
    proven optimal, or the re-solve ran out of budget).
    """
    if result.proof is not Proof.OPTIMAL or result.score is None or result.grid is None:
        return None
    budget = budget or Budget()
    problem = result.problem
    optimum = result.score
    flat = [v for row in result.grid for v in row]
    built = _BUILDERS[problem.kind](problem, "complete")
    literals = [lit for row in built.mv.cell_element for lit in row]
    values = [flat[i] == e for i in range(len(flat)) for e in built.mv.elements]
    assert built.objective is not None
    check = check_unique_optimum(built.model, built.objective, optimum, literals, values, budget)
    if check.unique is not True:
        return check.unique
    if optimum < 0 or problem.kind == "challenge":
        return True
    # A score of 0 is also reached by every incomplete outcome.
    if problem.kind == "absolute":
        return not (
            optimum == 0 and problem.start_grid != result.grid and not _points(problem, problem.start_grid)[1].complete
        )
    if optimum > 0:
        return True
    built_b = _build_clairvoyant(problem, "incomplete")
    literals_b = [lit for row in built_b.mv.cell_element for lit in row]
    add_nogood(built_b.model, literals_b, values)
    other = solve(built_b.model, budget)
    if other.status == cp_model.INFEASIBLE:
        return True
    if other.has_solution:
        return False
    return None


# ---------------------------------------------------------------------------------------------------------
# Encoding check
# ---------------------------------------------------------------------------------------------------------


def model_score(
    grid: Grid,
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    budget: Budget | None = None,
    *,
    festival_won: bool = True,
) -> int | None:
    """What the CP-SAT scoring encoding says a fixed map is worth (None: the model calls it incomplete).

    Not an optimiser: every square is pinned, so this isolates the scoring encoding (clusters, rivers,
    tent squares, isolated empties, completeness) for tests against `rules.score`.
    """
    grid = validate_grid(grid, components, require_connected=False)
    problem = MaxProblem("absolute", components, tuple(challenges), grid, festival_won=festival_won)
    model = cp_model.CpModel()
    every_square = {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row)}
    mv = cpsat_map.new_map_vars(model, components.rows, components.cols, MODEL_ELEMENTS, every_square)
    cpsat_map.add_completeness(model, mv, Challenge.GREAT_DIVIDE in problem.challenges, True)
    objective = _scoring_objective(model, mv, problem)
    model.maximize(objective)
    result = solve(model, budget or Budget(), configure=_configure)
    if result.status == cp_model.INFEASIBLE:
        return None
    if result.status != cp_model.OPTIMAL:
        raise ModelMismatch("a fixed map should be scored to optimality at once")
    return round(result.objective)

"""CP-SAT building blocks for one Happy Campers map: cell elements, exact scoring, connectivity.

The two optimisers in `maximise.py` (clairvoyant play of a known roll sequence, and free drawing for the
absolute maximum) differ only in how squares get drawn. Everything that turns a final map into a score
lives here, so both share one exact encoding of the scoring rules:

- the largest cluster of each element is a *whole* connected component of that element, chosen by the
  maximiser (closure + a rooted parent tree with depths; the root is the component's lowest cell index,
  which removes the root symmetry without losing any solution);
- River Town is a unit node-capacity flow from the left border to the right border (Menger: its value is
  the maximum number of square-disjoint left-to-right water paths);
- Tent Together is a packing of pairwise disjoint all-tent 2x2 windows;
- Nature Reserve marks empty squares whose neighbours are all drawn;
- completeness (and The Great Divide's two-sided completeness) is either enforced ("complete" mode, the
  objective is the full score) or negated ("incomplete" mode, a feasibility problem worth 0 points).

Every indicator is only pushed *up to* what the map allows and the objective maximises it, so the
model's objective for an assignment never exceeds the true score of its map and equals it for the best
choice of clusters/paths/squares; the optimum therefore equals the true maximum.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from campsolver.solver.core.geometry import Cell, border_cells, neighbours
from ortools.sat.python import cp_model

#: Points per River Town river, per Tent Together square, for the Festival, and per Nature Reserve square.
RIVER_POINTS = 5
TENT_SQUARE_POINTS = 3
FESTIVAL_POINTS = 5
#: Nature Reserve: an isolated empty square scores +2 instead of -1. As in `rules.score`, the base -1 stays
#: in the empty-square points and the card adds the difference (+3) per isolated empty square.
NATURE_RESERVE_BONUS = 2 - (-1)
EMPTY_POINTS = -1


@dataclass
class MapVars:
    """The cell-level variables every Happy Campers map model shares."""

    rows: int
    cols: int
    elements: tuple[int, ...]  # the five real element values, in a fixed order
    cells: list[Cell]
    index: dict[Cell, int]
    #: cell_element[i][k]: square i holds element elements[k] in the final map.
    cell_element: list[list[cp_model.IntVar]]
    #: filled[i]: square i is drawn in the final map (exactly one element or none).
    filled: list[cp_model.IntVar]
    extra_objective: list[cp_model.LinearExprT] = field(default_factory=list)

    def neighbour_indices(self, i: int) -> list[int]:
        return [self.index[n] for n in neighbours(self.cells[i], self.rows, self.cols)]


def new_map_vars(
    model: cp_model.CpModel, rows: int, cols: int, elements: Sequence[int], fixed: dict[Cell, int]
) -> MapVars:
    """Create cell/element literals; `fixed` pins pre-drawn squares to their element."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    index = {cell: i for i, cell in enumerate(cells)}
    cell_element: list[list[cp_model.IntVar]] = []
    filled: list[cp_model.IntVar] = []
    for cell in cells:
        row_vars = [model.new_bool_var(f"elem_{cell}_{e}") for e in elements]
        fill = model.new_bool_var(f"filled_{cell}")
        model.add(sum(row_vars) == fill)
        if cell in fixed:
            for e, var in zip(elements, row_vars, strict=True):
                model.add(var == (1 if e == fixed[cell] else 0))
        cell_element.append(row_vars)
        filled.append(fill)
    return MapVars(rows, cols, tuple(elements), cells, index, cell_element, filled)


def add_rooted_connectivity(
    model: cp_model.CpModel,
    mv: MapVars,
    members: Sequence[cp_model.IntVar],
    name: str,
    *,
    fixed_roots: Iterable[int] = (),
    require_nonempty: bool = True,
) -> None:
    """Force the squares whose literal in `members` is true to be one orthogonally connected set.

    Every member except the root picks exactly one member neighbour as parent and sits one level deeper,
    so following parents always ends at the root. Without `fixed_roots`, the root is the member with the
    lowest index (a choice that exists for every non-empty set, hence no solution is lost). With
    `fixed_roots` (squares known to be members and already connected, e.g. a pre-drawn map), all of them
    are roots at depth 0.
    """
    n = len(members)
    fixed_roots = sorted(set(fixed_roots))
    depth = [model.new_int_var(0, n - 1, f"{name}_depth_{i}") for i in range(n)]
    if fixed_roots:
        is_root = [1 if i in fixed_roots else 0 for i in range(n)]
        for i in fixed_roots:
            model.add(depth[i] == 0)
    else:
        roots = [model.new_bool_var(f"{name}_root_{i}") for i in range(n)]
        is_root = roots
        if require_nonempty:
            model.add_exactly_one(roots)
        else:
            model.add_at_most_one(roots)
        for i in range(n):
            model.add_implication(roots[i], members[i])
            model.add(depth[i] == 0).only_enforce_if(roots[i])
            # The root is the lowest-index member: nothing below it, and every member has a root at or
            # below its own index.
            for j in range(i):
                model.add_implication(roots[i], members[j].Not())
            model.add_bool_or([members[i].Not(), *roots[: i + 1]])
    for v in range(n):
        arcs = []
        for u in mv.neighbour_indices(v):
            arc = model.new_bool_var(f"{name}_arc_{u}_{v}")
            model.add_implication(arc, members[u])
            model.add_implication(arc, members[v])
            model.add(depth[v] >= depth[u] + 1).only_enforce_if(arc)
            arcs.append(arc)
        root_v = is_root[v]
        if isinstance(root_v, int):
            if root_v:
                for arc in arcs:
                    model.add(arc == 0)
            else:
                model.add(sum(arcs) == members[v])
        else:
            model.add(sum(arcs) + root_v == members[v])


def largest_cluster_sizes(model: cp_model.CpModel, mv: MapVars) -> list[cp_model.LinearExprT]:
    """Per element, the size of one whole connected component of that element (the maximiser picks the
    largest). Requires every element to be present (complete mode)."""
    sizes = []
    n = len(mv.cells)
    for k, e in enumerate(mv.elements):
        member = [model.new_bool_var(f"cluster_{e}_{i}") for i in range(n)]
        for i in range(n):
            model.add_implication(member[i], mv.cell_element[i][k])
            # Closure: a cluster is a whole component, never a part of one (removes a huge symmetry).
            for j in mv.neighbour_indices(i):
                model.add_bool_or([member[i].Not(), mv.cell_element[j][k].Not(), member[j]])
        add_rooted_connectivity(model, mv, member, f"cl{e}")
        sizes.append(sum(member))
    return sizes


def side_columns(cols: int) -> tuple[range, range]:
    """The Great Divide's two halves; with an odd width the middle column belongs to both."""
    half = (cols + 1) // 2
    return range(0, half), range(cols - half, cols)


def presence_groups(mv: MapVars, great_divide: bool) -> list[list[int]]:
    """The square groups in which every element must appear for the map to be complete."""
    everything = list(range(len(mv.cells)))
    if not great_divide:
        return [everything]
    left, right = side_columns(mv.cols)
    return [
        [i for i, (_, c) in enumerate(mv.cells) if c in left],
        [i for i, (_, c) in enumerate(mv.cells) if c in right],
    ]


def add_completeness(model: cp_model.CpModel, mv: MapVars, great_divide: bool, complete: bool) -> None:
    """Complete mode: each element in each group. Incomplete mode: some element missing from some group."""
    groups = presence_groups(mv, great_divide)
    if complete:
        for group in groups:
            for k in range(len(mv.elements)):
                model.add_bool_or([mv.cell_element[i][k] for i in group])
        return
    missing = []
    for g, group in enumerate(groups):
        for k in range(len(mv.elements)):
            absent = model.new_bool_var(f"absent_{g}_{k}")
            for i in group:
                model.add_implication(absent, mv.cell_element[i][k].Not())
            missing.append(absent)
    model.add_bool_or(missing)


@dataclass(frozen=True)
class CardTerms:
    """The challenge-card parts of the objective, one linear expression per card (by card value)."""

    by_card: dict[str, cp_model.LinearExprT]
    isolated_empty_count: cp_model.LinearExprT | None
    #: Nature Reserve: per square, "an empty square whose neighbours are all drawn" (empty list otherwise).
    isolated: list[cp_model.IntVar] = field(default_factory=list)


def challenge_terms(
    model: cp_model.CpModel,
    mv: MapVars,
    card_values: Iterable[str],
    tree: int,
    toilet: int,
    water: int,
    tent: int,
    *,
    festival_won: bool = True,
) -> CardTerms:
    """Linear expressions for each card's points (card values are the `Challenge` enum values)."""
    k_of = {e: k for k, e in enumerate(mv.elements)}
    n = len(mv.cells)
    edge = border_cells(mv.rows, mv.cols)
    by_card: dict[str, cp_model.LinearExprT] = {}
    isolated_count = None
    isolated: list[cp_model.IntVar] = []
    for card in card_values:
        if card == "privacy":
            by_card[card] = sum(mv.cell_element[i][k_of[tree]] for i in range(n) if mv.cells[i] in edge)
        elif card == "dangerous_animals":
            by_card[card] = -sum(mv.cell_element[i][k_of[tent]] for i in range(n) if mv.cells[i] in edge)
        elif card == "quick_pee":
            lines = []
            for r in range(mv.rows):
                lines.append([mv.index[(r, c)] for c in range(mv.cols)])
            for c in range(mv.cols):
                lines.append([mv.index[(r, c)] for r in range(mv.rows)])
            indicators = []
            for line in lines:
                has = model.new_bool_var("toilet_line")
                model.add_bool_or([has.Not(), *[mv.cell_element[i][k_of[toilet]] for i in line]])
                indicators.append(has)
            by_card[card] = sum(indicators)
        elif card == "tent_together":
            windows = []
            covering: dict[int, list[cp_model.IntVar]] = {i: [] for i in range(n)}
            for r in range(mv.rows - 1):
                for c in range(mv.cols - 1):
                    square = model.new_bool_var(f"tent_sq_{r}_{c}")
                    for cell in ((r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)):
                        i = mv.index[cell]
                        model.add_implication(square, mv.cell_element[i][k_of[tent]])
                        covering[i].append(square)
                    windows.append(square)
            for squares in covering.values():
                if len(squares) > 1:
                    model.add_at_most_one(squares)
            by_card[card] = TENT_SQUARE_POINTS * sum(windows)
        elif card == "river_town":
            by_card[card] = RIVER_POINTS * _river_flow(model, mv, k_of[water])
        elif card == "nature_reserve":
            isolated = []
            for i in range(n):
                iso = model.new_bool_var(f"isolated_{i}")
                model.add_implication(iso, mv.filled[i].Not())
                for j in mv.neighbour_indices(i):
                    model.add_implication(iso, mv.filled[j])
                isolated.append(iso)
            isolated_count = sum(isolated)
            by_card[card] = NATURE_RESERVE_BONUS * isolated_count
        elif card == "festival":
            by_card[card] = FESTIVAL_POINTS if festival_won else 0
        else:  # noisy_neighbours, great_divide: no points of their own
            by_card[card] = 0
    return CardTerms(by_card, isolated_count, isolated)


def _river_flow(model: cp_model.CpModel, mv: MapVars, water_k: int) -> cp_model.LinearExprT:
    """Unit node-capacity flow through water squares from the left to the right border; its value is the
    number of square-disjoint left-to-right rivers (integral flows decompose into disjoint paths)."""
    n = len(mv.cells)
    inflow: dict[int, list[cp_model.IntVar]] = {i: [] for i in range(n)}
    outflow: dict[int, list[cp_model.IntVar]] = {i: [] for i in range(n)}
    sources = []
    for i, (r, c) in enumerate(mv.cells):
        if c == 0:
            src = model.new_bool_var(f"river_src_{r}")
            inflow[i].append(src)
            sources.append(src)
        if c == mv.cols - 1:
            snk = model.new_bool_var(f"river_snk_{r}")
            outflow[i].append(snk)
        for j in mv.neighbour_indices(i):
            # Never flow back into the left column or out of the right column: such steps are never needed
            # for a maximum flow (a path can be shortcut at its last left-column / first right-column square).
            if mv.cells[j][1] == 0 or mv.cells[i][1] == mv.cols - 1:
                continue
            arc = model.new_bool_var(f"river_{i}_{j}")
            outflow[i].append(arc)
            inflow[j].append(arc)
    for i in range(n):  # only now are all arcs into square i known
        through = sum(inflow[i])
        model.add(through <= mv.cell_element[i][water_k])
        model.add(through == sum(outflow[i]))
    return sum(sources)


def border_indices(mv: MapVars) -> list[int]:
    edge = border_cells(mv.rows, mv.cols)
    return [i for i, cell in enumerate(mv.cells) if cell in edge]

"""Happy Campers clairvoyant maxima: the per-roll assignment bound.

Each roll draws exactly one shape with one element (one of its options), and a game draws a prefix of the
rolls. Forget where the shapes go and what a map must look like; keep only what each roll's choice adds up
to: the drawn squares D (never more than the map's), which elements are present (completeness; with The
Great Divide, on which side), and per card the few counts its points are bounded by. The most any final
map can then score is the most, over every prefix and every option per roll, of an analytic value of these
counts:

    base          2 D - n                 (largest clusters <= drawn squares, each empty square -1)
    Privacy       + min(edge squares, pre-drawn edge trees + sum over tree drawings of the most edge squares
                  the shape can cover)
    Quick Pee     + min(lines, toilet squares + 1) with lines = min(rows + cols, sum over toilet drawings of
                  the rows + columns the shape spans): the cluster cut (lines + toilet cluster <= 2 toilets + 1)
                  folded into the base
    Tent Together + 3 min(tent squares // 4, (rows // 2) (cols // 2))
    River Town    + 5 min(rows, water squares // cols)
    Dangerous Animals  - pre-drawn edge tents;   Festival + 5 when won
    Nature Reserve     the base and the card together at most min(2 n - D, NR cap for D squares): every
                  empty square at best isolated (+2), and the shipped roll-independent cap (`max_nature`)

A reachability programme over these counts (numpy boolean arrays, one axis per count, saturating at the
value's cap) takes milliseconds to a few tenths of a second. The bound is the exact maximum of the relaxation,
so every final map of the clairvoyant problem scores at most it (tests check it against the exhaustive oracle
and against random legal plays). `maximise` adds it to the main model as a constraint (CP-SAT's relaxation
cannot see that a roll's shape and element are one choice) and reports it when it is below CP-SAT's bound.

When a count's axis would make the state space too large (cards combined), the card falls back to its plain
cap (`max_caps.clairvoyant_card_caps`): still a bound, only looser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from campsolver.solver.core.geometry import border_cells
from campsolver.solver.happy_campers import cpsat_map
from campsolver.solver.happy_campers.max_caps import clairvoyant_card_caps
from campsolver.solver.happy_campers.max_problem import MaxProblem, _fixed_cells, _placement_table, _roll_pairs
from campsolver.solver.happy_campers.rules import (
    ELEMENTS,
    FESTIVAL_POINTS,
    Challenge,
    Element,
    Grid,
    divide_sides,
)

#: The largest state array (booleans) the programme builds; beyond it, cards fall back to their plain caps.
MAX_STATES = 3_000_000


@dataclass(frozen=True)
class _Count:
    """One count the programme tracks: its cap (the axis saturates there) and what a drawing adds to it."""

    name: str
    cap: int
    start: int
    add: Callable[[int, int], int]  # (shape index, element value) -> increment
    #: A hard limit (a state past the cap is impossible) rather than a saturating count.
    hard: bool = False


@dataclass(frozen=True)
class AssignmentBound:
    """The bound (None: no prefix of the rolls can hold every element, so no complete map exists) and the size
    of the programme's state space."""

    value: int | None
    states: int
    counts: tuple[str, ...]


def _shape_facts(problem: MaxProblem) -> tuple[dict[int, int], dict[int, int], dict[int, tuple[bool, bool, bool]]]:
    """Per shape index, over its positions clear of the pre-drawn squares: the most edge squares, the most rows +
    columns spanned, and whether it can lie left only / right only / across The Great Divide's line."""
    comp = problem.components
    rows, cols = comp.rows, comp.cols
    pre = set(_fixed_cells(problem.start_grid))
    edge = border_cells(rows, cols)
    left, right = (set(side) for side in divide_sides(cols))
    edge_most: dict[int, int] = {}
    lines_most: dict[int, int] = {}
    sides: dict[int, list[bool]] = {}
    for cells, shapes in _placement_table(comp, pre).items():
        on_edge = len(cells & edge)
        lines = len({r for r, _ in cells}) + len({c for _, c in cells})
        columns = {c for _, c in cells}
        in_left, in_right = bool(columns & left), bool(columns & right)
        for s in shapes:
            edge_most[s] = max(edge_most.get(s, 0), on_edge)
            lines_most[s] = max(lines_most.get(s, 0), lines)
            where = sides.setdefault(s, [False, False, False])
            where[0] |= in_left and not in_right
            where[1] |= in_right and not in_left
            where[2] |= in_left and in_right
    return edge_most, lines_most, {s: (w[0], w[1], w[2]) for s, w in sides.items()}


def _saturating_shift(array: np.ndarray, axis: int, step: int, cap: int, *, hard: bool = False) -> np.ndarray:
    """The array with index i moved to min(i + step, cap) along `axis` (booleans OR-ed where they meet); with
    `hard`, indices past the cap are dropped instead."""
    if step == 0:
        return array
    out = np.zeros_like(array)
    src = [slice(None)] * array.ndim
    dst = [slice(None)] * array.ndim
    if step <= cap:
        src[axis] = slice(0, cap + 1 - step)
        dst[axis] = slice(step, cap + 1)
        out[tuple(dst)] = array[tuple(src)]
    if hard:
        return out
    src[axis] = slice(max(cap + 1 - step, 0), cap + 1)
    dst[axis] = slice(cap, cap + 1)
    out[tuple(dst)] |= array[tuple(src)].any(axis=axis, keepdims=True)
    return out


def _set_bits(array: np.ndarray, axis: int, bits: int, width: int) -> np.ndarray:
    """The array with mask index m moved to m | bits along `axis` (a mask of `width` bits)."""
    out = array
    for b in range(width):
        if not bits >> b & 1:
            continue
        shape = list(out.shape)
        # Split the mask axis into (high bits, bit b, low bits) and fold bit b's 0 half into its 1 half.
        split = [*shape[:axis], (1 << width) >> (b + 1), 2, 1 << b, *shape[axis + 1 :]]
        view = out.reshape(split)
        moved = np.zeros_like(view)
        index_one = [slice(None)] * len(split)
        index_one[axis + 1] = 1
        index_zero = list(index_one)
        index_zero[axis + 1] = 0
        moved[tuple(index_one)] = view[tuple(index_zero)] | view[tuple(index_one)]
        out = moved.reshape(shape)
    return out


class AssignmentProgramme:
    """The reachability programme of one clairvoyant problem (module doc), with what the fixing needs: the states
    each prefix of rolls reaches, and per state the most the rest of the rolls can still make of it.

    A state is (drawn squares, elements present bit mask, the counts); `moves[t]` are roll t's drawings as
    (squares, mask bits, increment per count) with each shape's most favourable increments. A real placement
    maps to its own key (`key_of`: its actual edge squares, lines, side of the line), never above its shape's.
    """

    def __init__(self, problem: MaxProblem, nature_caps: dict[int, int] | None = None) -> None:
        self.problem = problem
        comp = problem.components
        rows, cols, n = comp.rows, comp.cols, comp.cell_count
        self.n = n
        cards = set(problem.challenges)
        fixed = _fixed_cells(problem.start_grid)
        self.edge = edge = border_cells(rows, cols)
        edge_most, lines_most, sides_of = _shape_facts(problem)
        size = {s: len(shape) for s, shape in enumerate(comp.shapes)}
        caps = clairvoyant_card_caps(problem)
        nature = Challenge.NATURE_RESERVE in cards
        self.divide = divide = Challenge.GREAT_DIVIDE in cards
        trees, toilets = int(Element.TREES), int(Element.TOILETS)
        water, tents = int(Element.WATER), int(Element.TENTS)

        def pre_count(element: int, region: set | None = None) -> int:
            return sum(1 for cell, v in fixed.items() if v == element and (region is None or cell in region))

        def squares_of(element: int) -> Callable[[int, int], int]:
            return lambda s, e: size[s] if e == element else 0

        def capped(name: str, cap: int, start: int, add: Callable[[int, int], int]) -> _Count:
            return _Count(name, cap, min(start, cap), add)

        counts: list[_Count] = []
        if Challenge.PRIVACY in cards:
            on_edge = lambda s, e: edge_most.get(s, 0) if e == trees else 0  # noqa: E731
            counts.append(capped("edge_trees", len(edge), pre_count(trees, edge), on_edge))
        if Challenge.QUICK_PEE in cards:
            line_cap = rows + cols
            pre_cells = [cell for cell, v in fixed.items() if v == toilets]
            pre_lines = len({r for r, _ in pre_cells}) + len({c for _, c in pre_cells})
            counts.append(
                capped("toilet_lines", line_cap, pre_lines, lambda s, e: lines_most.get(s, 0) if e == toilets else 0)
            )
            if not nature:  # the cluster cut is folded into the base, which Nature Reserve replaces
                counts.append(capped("toilets", line_cap - 1, pre_count(toilets), squares_of(toilets)))
        if Challenge.TENT_TOGETHER in cards:
            counts.append(capped("tents", 4 * (rows // 2) * (cols // 2), pre_count(tents), squares_of(tents)))
        if Challenge.RIVER_TOWN in cards:
            counts.append(capped("water", cols * rows, pre_count(water), squares_of(water)))
        if divide:
            # Drawings across the line each hold a square of a crossing column (odd width: the shared middle
            # column; even: each of the two), so at most `rows` of them: a hard limit, advanced by the drawings.
            counts.append(_Count("crossing", rows, 0, lambda s, e: 0, hard=True))

        self.width = width = 2 * len(ELEMENTS) if divide else len(ELEMENTS)
        self.bit_of = bit_of = {int(e): k for k, e in enumerate(ELEMENTS)}
        dims = [n + 1, 1 << width, *(c.cap + 1 for c in counts)]
        # Too big a state space: drop counts (their cards fall back to the plain caps), most costly first.
        while counts and int(np.prod(dims)) > MAX_STATES:
            drop = max(range(len(counts)), key=lambda i: (counts[i].name != "crossing", counts[i].cap))
            counts.pop(drop)
            dims = [n + 1, 1 << width, *(c.cap + 1 for c in counts)]
        self.counts, self.dims = counts, dims
        self.names = names = [c.name for c in counts]
        self.left_cols, self.right_cols = (set(side) for side in divide_sides(cols))

        start_mask = 0
        for cell, v in fixed.items():
            start_mask |= self._bits(v, {cell[1]})
        self.start = (len(fixed), start_mask, *(c.start for c in counts))

        crossing_axis = names.index("crossing") if "crossing" in names else None
        self.moves: list[list[tuple[int, int, tuple[int, ...]]]] = []
        for roll in problem.rolls:
            moves: set[tuple[int, int, tuple[int, ...]]] = set()
            for s, elements in _roll_pairs(roll, comp).items():
                if s not in sides_of:
                    continue  # the shape fits nowhere clear of the pre-drawn squares
                for e in elements:
                    k = bit_of[e]
                    incs = tuple(c.add(s, e) for c in counts)
                    if not divide:
                        moves.add((size[s], 1 << k, incs))
                        continue
                    only_left, only_right, across = sides_of[s]
                    if only_left:
                        moves.add((size[s], 1 << k, incs))
                    if only_right:
                        moves.add((size[s], 1 << (len(ELEMENTS) + k), incs))
                    if across:
                        crossed = list(incs)
                        if crossing_axis is not None:
                            crossed[crossing_axis] = 1
                        moves.add((size[s], (1 << k) | (1 << (len(ELEMENTS) + k)), tuple(crossed)))
            if not moves:
                break  # this roll fits nowhere: every game ends here at the latest
            self.moves.append(sorted(moves))
        self.full_mask = (1 << width) - 1
        value = _values(problem, counts, caps, dims, nature_caps)
        # The value of stopping in each state: the analytic value when every element is present, else none.
        self.stop_value = np.full(dims, NO_VALUE, dtype=np.int16)
        self.stop_value[:, self.full_mask] = value
        self._reach: list[np.ndarray] | None = None
        self._to_go: list[np.ndarray] | None = None

    def _bits(self, element: int, columns: set[int]) -> int:
        k = self.bit_of[element]
        if not self.divide:
            return 1 << k
        bits = 1 << k if columns & self.left_cols else 0
        return bits | (1 << (len(ELEMENTS) + k) if columns & self.right_cols else 0)

    @property
    def states(self) -> int:
        return int(np.prod(self.dims))

    def _push(self, state: np.ndarray, move: tuple[int, int, tuple[int, ...]]) -> np.ndarray:
        """The states one drawing leads to from `state` (a boolean array)."""
        squares, bits, incs = move
        moved = np.zeros_like(state)
        if squares > self.n:
            return moved
        moved[squares:] = state[: self.n + 1 - squares]
        moved = _set_bits(moved, 1, bits, self.width)
        for axis, step in enumerate(incs):
            moved = _saturating_shift(moved, 2 + axis, step, self.counts[axis].cap, hard=self.counts[axis].hard)
        return moved

    def _pull(self, values: np.ndarray, move: tuple[int, int, tuple[int, ...]]) -> np.ndarray:
        """Per state, the value `values` gives the state one drawing leads to (NO_VALUE where it leads nowhere)."""
        squares, bits, incs = move
        out = np.full_like(values, NO_VALUE)
        if squares > self.n:
            return out
        out[: self.n + 1 - squares] = values[squares:]
        out = np.take(out, np.arange(1 << self.width) | bits, axis=1)
        for axis, step in enumerate(incs):
            if step == 0:
                continue
            cap = self.counts[axis].cap
            index = np.arange(cap + 1) + step
            over = index > cap
            out = np.take(out, np.minimum(index, cap), axis=2 + axis)
            if self.counts[axis].hard and over.any():
                where = [slice(None)] * out.ndim
                where[2 + axis] = over
                out[tuple(where)] = NO_VALUE
        return out

    def reach(self) -> list[np.ndarray]:
        """reach[t]: the states some choice of drawings for rolls 0..t-1 leads to."""
        if self._reach is None:
            state = np.zeros(self.dims, dtype=bool)
            state[self.start] = True
            found = [state]
            for moves in self.moves:
                nxt = np.zeros_like(state)
                for move in moves:
                    nxt |= self._push(state, move)
                state = nxt
                found.append(state)
                if not state.any():
                    break
            self._reach = found
        return self._reach

    def bound(self) -> int | None:
        """The most any complete final map scores (None: no prefix of the rolls holds every element)."""
        best = NO_VALUE
        for state in self.reach():
            if state.any():
                best = max(best, int(self.stop_value[state].max()))
        return None if best == NO_VALUE else best

    def to_go(self) -> list[np.ndarray]:
        """to_go[t]: per state before roll t, the most a complete final map can score from there."""
        if self._to_go is None:
            values = self.stop_value.copy()
            found = [values]
            for moves in reversed(self.moves):
                best = self.stop_value.copy()
                for move in moves:
                    np.maximum(best, self._pull(values, move), out=best)
                values = best
                found.append(values)
            found.reverse()
            self._to_go = found
        return self._to_go

    def key_of(
        self, cells: frozenset, element: int, shape_index: int | None = None
    ) -> tuple[int, int, tuple[int, ...]]:
        """The drawing of these squares with this element, as a move of the programme (its actual counts)."""
        comp = self.problem.components
        columns = {c for _, c in cells}
        incs = []
        for count in self.counts:
            if count.name == "edge_trees":
                incs.append(len(cells & self.edge) if element == int(Element.TREES) else 0)
            elif count.name == "toilet_lines":
                lines = len({r for r, _ in cells}) + len(columns)
                incs.append(lines if element == int(Element.TOILETS) else 0)
            elif count.name == "crossing":
                incs.append(1 if columns & self.left_cols and columns & self.right_cols else 0)
            else:
                incs.append(count.add(shape_index if shape_index is not None else _shape_of(cells, comp), element))
        return (len(cells), self._bits(element, columns), tuple(incs))

    def best_through(self, turn: int, key: tuple[int, int, tuple[int, ...]]) -> int:
        """The most a complete final map scores when roll `turn` is drawn as `key` (NO_VALUE: never)."""
        reach, to_go = self.reach(), self.to_go()
        # `reach` stops at the first roll no state survives (every choice overfills the map): nothing after it.
        if turn >= len(self.moves) or turn >= len(reach) or turn + 1 >= len(to_go) or not reach[turn].any():
            return NO_VALUE
        after = self._push(reach[turn], key)
        return int(to_go[turn + 1][after].max()) if after.any() else NO_VALUE

    def state_of(self, grid: Grid, pieces_across: int = 0) -> tuple[int, ...]:
        """The programme's state of a (partly drawn) map: its drawn squares, elements present (per side with The
        Great Divide) and its actual counts (each capped), `pieces_across` drawings across the line."""
        cells = [(r, c, v) for r, row in enumerate(grid) for c, v in enumerate(row) if v]
        mask = 0
        for _, c, v in cells:
            mask |= self._bits(v, {c})
        toilets = [(r, c) for r, c, v in cells if v == int(Element.TOILETS)]
        actual = {
            "edge_trees": sum(1 for r, c, v in cells if v == int(Element.TREES) and (r, c) in self.edge),
            "toilet_lines": len({r for r, _ in toilets}) + len({c for _, c in toilets}),
            "toilets": len(toilets),
            "tents": sum(1 for _, _, v in cells if v == int(Element.TENTS)),
            "water": sum(1 for _, _, v in cells if v == int(Element.WATER)),
            "crossing": pieces_across,
        }
        return (len(cells), mask, *(min(actual[c.name], c.cap) for c in self.counts))

    def to_go_of(self, turn: int, state: tuple[int, ...]) -> int:
        """The most a complete final map can score from `state` before roll `turn` (NO_VALUE: none can)."""
        to_go = self.to_go()
        if turn >= len(to_go):
            return int(self.stop_value[state])
        return int(to_go[turn][state])

    def best_stopping(self, turn: int) -> int:
        """The most a complete final map scores when the game ends with rolls 0..turn-1 drawn."""
        reach = self.reach()
        if turn >= len(reach) or not reach[turn].any():
            return NO_VALUE
        return int(self.stop_value[reach[turn]].max())


#: "No complete map": below every score.
NO_VALUE = -30_000


def _shape_of(cells: frozenset, components) -> int:
    """The index of the shape these squares draw (the first that matches)."""
    from campsolver.solver.core.geometry import normalise, orientations

    shape = normalise(cells)
    for s, candidate in enumerate(components.shapes):
        if shape in orientations(candidate):
            return s
    raise ValueError("the squares are no shape of the components")


def assignment_bound(problem: MaxProblem, nature_caps: dict[int, int] | None = None) -> AssignmentBound:
    """The per-roll assignment bound on every complete final map of a clairvoyant problem (module doc).

    `nature_caps` (drawn squares -> the most Nature Reserve's base-and-card total of any drawable map with that
    many drawn squares, `max_nature`) tightens the bound with Nature Reserve in play; without it only 2n - D
    bounds that part."""
    programme = AssignmentProgramme(problem, nature_caps)
    return AssignmentBound(programme.bound(), programme.states, tuple(programme.names))


def _values(
    problem: MaxProblem,
    counts: list[_Count],
    caps: dict[Challenge, int],
    dims: list[int],
    nature_caps: dict[int, int] | None,
) -> np.ndarray:
    """The analytic value of every complete state (axes: drawn squares, then the counts)."""
    comp = problem.components
    rows, cols, n = comp.rows, comp.cols, comp.cell_count
    cards = set(problem.challenges)
    shape = [dims[0], *dims[2:]]
    grids = np.meshgrid(*(np.arange(d) for d in shape), indexing="ij")
    drawn = grids[0]
    at = {c.name: grids[1 + i] for i, c in enumerate(counts)}
    if Challenge.NATURE_RESERVE in cards:
        # Every empty square at best isolated: clusters - empty + 3 isolated <= D - E + 3 E = 2n - D.
        value = 2 * n - drawn
        if nature_caps:
            table = np.array([nature_caps.get(d, 2 * n - d) for d in range(n + 1)])
            value = np.minimum(value, table[drawn])
    else:
        value = 2 * drawn - n
    if Challenge.PRIVACY in cards:
        cap = caps[Challenge.PRIVACY]
        value = value + (np.minimum(at["edge_trees"], cap) if "edge_trees" in at else cap)
    if Challenge.QUICK_PEE in cards:
        lines = at.get("toilet_lines", caps[Challenge.QUICK_PEE])
        lines = np.minimum(lines, caps[Challenge.QUICK_PEE])
        if "toilets" in at:
            lines = np.minimum(lines, at["toilets"] + 1)
        value = value + lines
    if Challenge.TENT_TOGETHER in cards:
        if "tents" in at:
            squares = np.minimum(at["tents"] // 4, (rows // 2) * (cols // 2))
            value = value + np.minimum(cpsat_map.TENT_SQUARE_POINTS * squares, caps[Challenge.TENT_TOGETHER])
        else:
            value = value + caps[Challenge.TENT_TOGETHER]
    if Challenge.RIVER_TOWN in cards:
        if "water" in at:
            rivers = np.minimum(at["water"] // cols, rows)
            value = value + np.minimum(cpsat_map.RIVER_POINTS * rivers, caps[Challenge.RIVER_TOWN])
        else:
            value = value + caps[Challenge.RIVER_TOWN]
    if Challenge.DANGEROUS_ANIMALS in cards:
        value = value + caps[Challenge.DANGEROUS_ANIMALS]
    if Challenge.FESTIVAL in cards and problem.festival_won:
        value = value + FESTIVAL_POINTS
    return value

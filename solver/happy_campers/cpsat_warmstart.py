"""Legal plays that give CP-SAT a good first solution (a hint) for clairvoyant play.

Two sources, both playing only through the rules model's drawings, so every hint is a legal forced play:

- `perfect_play`: a depth-first search for a *perfect* final map (no empty square, one cluster per
  element). Such a map scores the number of squares, the plain upper bound without point-scoring cards, so
  it is a maximum; CP-SAT then only has to certify it. On random 15- and 20-roll sequences on the 5x9 map a
  perfect map nearly always exists and the search finds one in well under a second, where CP-SAT's own
  search needed 2-10 s (finding, not proving, was what cost the time: the bound 45 is known at the root).
- `greedy_play`: randomised greedy plays, each move chosen by a cheap local score (big shapes, growing an
  element's existing cluster, bringing in a missing element, not leaving lonely empty squares); they
  usually land within a few points of the optimum when no perfect map is found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.geometry import Cell, mask_cells, neighbours
from campsolver.solver.happy_campers.policies import BoardTables, board_tables, clusters_of, dilate
from campsolver.solver.happy_campers.rules import (
    ELEMENTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    elements_for_face,
    fill,
    legal_placements,
    placed_shapes,
    roll_options,
    score,
    shapes_for_face,
)

#: Weights of the local move score (tuned by hand on random 15-roll sequences).
SQUARE_WEIGHT = 3.0
SAME_ELEMENT_CONTACT_WEIGHT = 1.5
NEW_ELEMENT_BONUS = 12.0
DETACHED_ELEMENT_PENALTY = 6.0
LONELY_EMPTY_PENALTY = 4.0
NOISE = 2.5
#: Multipliers of the card move terms, cycled over the rollouts (0: a card-blind rollout).
BONUS_SCALES = (1.0, 0.5, 2.0, 0.0)


def _move_value(grid: Grid, placement: Placement, components: Components) -> float:
    rows, cols = components.rows, components.cols
    element = int(placement.element)
    cells = placement.cells
    present = any(v == element for row in grid for v in row)
    contacts = 0
    around: set[Cell] = set()
    for cell in cells:
        for nb in neighbours(cell, rows, cols):
            if nb in cells:
                continue
            around.add(nb)
            if grid[nb[0]][nb[1]] == element:
                contacts += 1
    value = SQUARE_WEIGHT * len(cells) + SAME_ELEMENT_CONTACT_WEIGHT * contacts
    if not present:
        value += NEW_ELEMENT_BONUS
    elif contacts == 0:
        value -= DETACHED_ELEMENT_PENALTY
    lonely = 0
    for r, c in around:
        if grid[r][c] != Element.EMPTY:
            continue
        if all(grid[nr][nc] != Element.EMPTY or (nr, nc) in cells for nr, nc in neighbours((r, c), rows, cols)):
            lonely += 1
    return value - LONELY_EMPTY_PENALTY * lonely


def greedy_play(
    start: Grid,
    rolls: Sequence[tuple[int, int]],
    challenges: Sequence[Challenge],
    components: Components,
    rng: np.random.Generator,
    rollouts: int,
    *,
    festival_won: bool = True,
    bonus: Callable[[Grid, Placement], float] | None = None,
    budget: Budget | None = None,
    guide: Callable[[int, Grid, Sequence[Placement]], Sequence[float | None]] | None = None,
) -> tuple[int, list[Placement | None]] | None:
    """The best of `rollouts` randomised greedy forced plays: (rules score, placement per roll).

    `bonus` (the cards' move terms, `card_moves`) is added to each move's value with a weight that varies
    over the rollouts (`BONUS_SCALES`), as the right balance of squares against card points differs
    from one roll sequence to the next. With a `budget`, no new rollout starts once it has expired (the
    first one always finishes). `guide(turn, map, moves)` adds a term per move, or None for a move it rules
    out (the rest are chosen among; if it rules out every move, all stay: the roll must be drawn)."""
    best: tuple[int, list[Placement | None]] | None = None
    for rollout in range(rollouts):
        if rollout and budget is not None and budget.expired():
            break
        scale = BONUS_SCALES[rollout % len(BONUS_SCALES)] if bonus is not None else 0.0
        grid = start
        plays: list[Placement | None] = []
        ended = False
        for roll in rolls:
            if ended:
                plays.append(None)
                continue
            moves = legal_placements(grid, roll, components)
            if not moves:
                ended = True
                plays.append(None)
                continue
            noise = rng.random(len(moves)) * NOISE
            values = [_move_value(grid, m, components) + noise[i] for i, m in enumerate(moves)]
            if scale:
                assert bonus is not None
                values = [v + scale * bonus(grid, m) for v, m in zip(values, moves, strict=True)]
            if guide is not None:
                terms = guide(len(plays), grid, moves)
                if any(term is not None for term in terms):
                    values = [v + term if term is not None else -np.inf for v, term in zip(values, terms, strict=True)]
            chosen = moves[int(np.argmax(values))]
            grid = fill(grid, chosen.cells, chosen.element)
            plays.append(chosen)
        total = score(grid, challenges, components, festival_won=festival_won).total
        if best is None or total > best[0]:
            best = (total, plays)
    return best


# ---------------------------------------------------------------------------------------------------------
# Perfect maps: every square drawn, every element one cluster
# ---------------------------------------------------------------------------------------------------------

#: Move ordering of the perfect-map search: touching the own element is good, leaving empty squares
#: around the new piece is bad (a tight fill leaves no holes), the noise varies the restarts.
PERFECT_SAME_CONTACT_WEIGHT = 3.0
PERFECT_EMPTY_AROUND_WEIGHT = 2.0
PERFECT_DETACHED_PENALTY = 8.0
PERFECT_NOISE = 3.0
#: Empty pockets up to this size are checked for an exact tiling by the shapes still to come.
SMALL_POCKET = 8
#: Node limit of the restarts: this unit times the Luby sequence 1, 1, 2, 1, 1, 2, 4, ... The time to find
#: a perfect map is heavy-tailed (most restarts succeed in a few hundred nodes, a few get lost in a dead
#: subtree); doubling limits let one unlucky restart eat the whole share, Luby keeps most restarts short.
PERFECT_RESTART_UNIT_NODES = 100


class _Deadline(Exception):
    """The perfect-map search ran out of its time share."""


def _reachable_fills(rolls: Sequence[tuple[int, int]], components: Components) -> list[int]:
    """reach[t] bit s: drawing rolls t, t+1, ... (some prefix of them, one option each) can cover exactly s
    squares. A perfect map needs the empty squares left before turn t to be such a sum."""
    reach = [1] * (len(rolls) + 1)
    for t in range(len(rolls) - 1, -1, -1):
        options = roll_options(rolls[t])
        sizes = {len(shape) for option in options for shape in shapes_for_face(option.shape_face, components)}
        after = 0
        for size in sizes:
            after |= reach[t + 1] << size
        reach[t] = 1 | after
    return reach


def perfect_play(
    start: Grid,
    rolls: Sequence[tuple[int, int]],
    components: Components,
    rng: np.random.Generator,
    budget: Budget,
    *,
    accept: Callable[[Grid], bool] | None = None,
    viable: Callable[[int, dict[Element, int], int], bool] | None = None,
    prefer: Callable[[int, Element, dict[Element, int]], float] | None = None,
    collect: Callable[[tuple[Placement | None, ...]], bool] | None = None,
    split: frozenset[Element] = frozenset(),
) -> PerfectSearch:
    """A legal forced play ending in a *perfect* map (no empty square, each element one cluster), if found.

    `accept` (a test of the final map) and `viable` (a test of a partial map: drawn-squares bitmask, bitmask
    per element, index of the next roll) narrow the search to perfect maps that also meet a challenge card's
    target; `exhausted` then says that no *such* perfect map exists. `viable` must only reject partial maps
    that no accepted map can grow from. `prefer` (move bitmask, element, current bitmask per element) adds to
    a move's rank, steering the search toward the target; it changes the order only, never what is found or pruned.
    `collect` (an anytime search) receives each accepted play; when it returns False the search goes on as if
    the map had been rejected (`accept` and `viable` may then tighten: a state that failed under a looser
    test fails under a tighter one, so the failed-state memo stays valid), and it ends with no play when the
    budget runs out or the tree is exhausted. Elements in `split` may end in several clusters (the map is then
    full but not perfect: its score is what `accept` judges).

    A perfect map scores the number of squares, which is also an upper bound on every map's score without
    point-scoring cards, so such a play is optimal; CP-SAT then only has to certify it. The search is a
    depth-first search over the rolls in order with randomised restarts (failed states are remembered
    across restarts). Every pruning rule is a necessary condition for a perfect finish: the empty squares
    must be exactly the squares of a prefix of the remaining rolls (one option each); every empty pocket
    must be at least the smallest shape and, when small, exactly tileable by the shapes still offered; an
    element's clusters must still be joinable through empty pockets; every missing element must still be
    offered. It stops when `budget` expires or is cancelled; `exhausted` says the whole tree was searched
    without success (no perfect map exists).
    """
    tests = _PerfectTests(accept, viable, prefer, collect, split)
    return _PerfectSearcher(start, rolls, components, rng, budget, tests).run()


@dataclass(frozen=True)
class _PerfectTests:
    """The caller's narrowing of the perfect-map search (see `perfect_play`)."""

    accept: Callable[[Grid], bool] | None
    viable: Callable[[int, dict[Element, int], int], bool] | None
    prefer: Callable[[int, Element, dict[Element, int]], float] | None
    collect: Callable[[tuple[Placement | None, ...]], bool] | None
    split: frozenset[Element]


#: A way to draw a roll, legality aside: (squares bitmask, neighbours bitmask, element, option).
_Move = tuple[int, int, Element, Option]


def _roll_moves(rolls: Sequence[tuple[int, int]], components: Components) -> list[list[_Move]]:
    """moves[t]: every way to draw roll t (one per squares and element), legality aside."""
    rows, cols = components.rows, components.cols
    moves: list[list[_Move]] = []
    for roll in rolls:
        seen: set[tuple[int, Element]] = set()
        found = []
        for option in roll_options(roll):
            for shape in shapes_for_face(option.shape_face, components):
                for placed in placed_shapes(shape, rows, cols):
                    for element in elements_for_face(option.element_face, components):
                        if (placed.mask, element) not in seen:
                            seen.add((placed.mask, element))
                            found.append((placed.mask, placed.neighbour_mask, element, option))
        moves.append(found)
    return moves


def _offered_from(moves: list[list[_Move]]) -> list[set[Element]]:
    """offered_from[t]: the elements some roll from turn t on may draw."""
    offered_from = [set[Element]() for _ in range(len(moves) + 1)]
    for t in range(len(moves) - 1, -1, -1):
        offered_from[t] = {m[2] for m in moves[t]} | offered_from[t + 1]
    return offered_from


def _shapes_from(rolls: Sequence[tuple[int, int]], components: Components) -> list[frozenset[int]]:
    """shapes_from[t]: the shapes (by index) some roll from turn t on offers."""
    shapes_from = [frozenset[int]() for _ in range(len(rolls) + 1)]
    for t in range(len(rolls) - 1, -1, -1):
        offered = {s for option in roll_options(rolls[t]) for s in components.shape_indices(option.shape_face)}
        shapes_from[t] = shapes_from[t + 1] | offered
    return shapes_from


class _PerfectSearcher:
    """One run of `perfect_play`: the move tables, the pruning tests, and the depth-first search with restarts."""

    def __init__(
        self,
        start: Grid,
        rolls: Sequence[tuple[int, int]],
        components: Components,
        rng: np.random.Generator,
        budget: Budget,
        tests: _PerfectTests,
    ) -> None:
        self.rolls, self.rng, self.budget, self.tests = rolls, rng, budget, tests
        self.tables = board_tables(components)
        self.joined = [e for e in ELEMENTS if e not in tests.split]
        self.rows, self.cols = components.rows, components.cols
        self.min_size = min(len(s) for s in components.shapes)
        self.start_drawn = 0
        self.start_masks = dict.fromkeys(ELEMENTS, 0)
        for r, row in enumerate(start):
            for c, v in enumerate(row):
                if v:
                    self.start_drawn |= 1 << (r * self.cols + c)
                    self.start_masks[Element(v)] |= 1 << (r * self.cols + c)
        self.reach = _reachable_fills(rolls, components)
        self.moves = _roll_moves(rolls, components)
        self.offered_from = _offered_from(self.moves)
        self.shapes_from = _shapes_from(rolls, components)
        # Every position of each shape by its lowest square.
        self.by_lowest: dict[tuple[int, int], list[int]] = {}
        for s, positions in enumerate(self.tables.positions):
            for mask, _ in positions:
                self.by_lowest.setdefault(((mask & -mask).bit_length() - 1, s), []).append(mask)
        self.tileable_memo: dict[tuple[int, frozenset[int]], bool] = {}
        self.failed: set[tuple[int, int, tuple[int, ...]]] = set()
        self.restart_nodes = 0
        self.node_limit = 0
        self.nodes = 0

    def run(self) -> PerfectSearch:
        """Restart with Luby node limits until a play is found, the tree is exhausted or the budget ends."""
        restart = 0
        while not self.budget.expired():
            restart += 1
            self.restart_nodes, self.node_limit = 0, PERFECT_RESTART_UNIT_NODES * _luby(restart)
            plays: list[Placement | None] = []
            try:
                start_drawn, start_masks = self.start_drawn, self.start_masks
                if not self.dead(0, start_drawn, start_masks) and self.search(0, start_drawn, start_masks, plays):
                    return PerfectSearch(tuple(plays), False, self.nodes)
                return PerfectSearch(None, True, self.nodes)
            except _Restart:
                continue
            except _Deadline:
                break
        return PerfectSearch(None, False, self.nodes)

    def tileable(self, pocket: int, shapes: frozenset[int]) -> bool:
        """Can the shapes (each any number of times) cover exactly this small pocket?"""
        if not pocket:
            return True
        key = (pocket, shapes)
        if key not in self.tileable_memo:
            lowest = (pocket & -pocket).bit_length() - 1
            self.tileable_memo[key] = any(
                mask & pocket == mask and self.tileable(pocket & ~mask, shapes)
                for s in shapes
                for mask in self.by_lowest.get((lowest, s), ())
            )
        return self.tileable_memo[key]

    def dead(self, t: int, drawn: int, masks: dict[Element, int]) -> bool:
        """No perfect finish from this partial map before turn t (see `perfect_play`'s pruning rules)."""
        tables = self.tables
        empty = tables.full & ~drawn
        if not self.reach[t] >> empty.bit_count() & 1:
            return True
        missing = [e for e in ELEMENTS if not masks[e]]
        # Each missing element needs a turn of its own (one element per drawing).
        if len(missing) > len(self.rolls) - t or any(e not in self.offered_from[t] for e in missing):
            return True
        pockets = clusters_of(empty, tables)
        for pocket in pockets:
            size = pocket.bit_count()
            if size < self.min_size or (size <= SMALL_POCKET and not self.tileable(pocket, self.shapes_from[t])):
                return True
        for e in self.joined:
            parts = clusters_of(masks[e], tables)
            if len(parts) > 1 and not _joinable(parts, pockets, tables):
                return True
        return False

    def finished(self, t: int, masks: dict[Element, int], plays: list[Placement | None]) -> bool:
        """The map is full: whether it ends the search (perfect, accepted and collected); `plays` completed if so."""
        tables, tests = self.tables, self.tests
        if not all(masks[e] for e in ELEMENTS) or not all(len(clusters_of(masks[e], tables)) == 1 for e in self.joined):
            return False
        if tests.accept is not None and not tests.accept(_masks_grid(masks, self.rows, self.cols)):
            return False
        if tests.collect is not None and not tests.collect((*plays, *[None] * (len(self.rolls) - t))):
            return False  # recorded; the search goes on for a better map
        plays.extend([None] * (len(self.rolls) - t))
        return True

    def search(self, t: int, drawn: int, masks: dict[Element, int], plays: list[Placement | None]) -> bool:
        """Depth-first from turn t; True once `plays` holds a play that ends the search."""
        if drawn == self.tables.full:
            return self.finished(t, masks, plays)
        if t == len(self.rolls):
            return False
        key = (t, drawn, tuple(masks[e] for e in ELEMENTS))
        if key in self.failed:
            return False
        self.restart_nodes += 1
        self.nodes += 1
        if self.restart_nodes > self.node_limit:
            raise _Restart
        if self.nodes % 64 == 0 and self.budget.expired():
            raise _Deadline
        viable = self.tests.viable
        for _, mask, element, option in self.ranked(t, drawn, masks):
            new_masks = dict(masks)
            new_masks[element] |= mask
            new_drawn = drawn | mask
            if viable is not None and not viable(new_drawn, new_masks, t + 1):
                continue
            if new_drawn != self.tables.full and self.dead(t + 1, new_drawn, new_masks):
                continue
            plays.append(Placement(mask_cells(mask, self.cols), element, option))
            if self.search(t + 1, new_drawn, new_masks, plays):
                return True
            plays.pop()
        self.failed.add(key)
        return False

    def ranked(self, t: int, drawn: int, masks: dict[Element, int]) -> list[tuple[float, int, Element, Option]]:
        """Turn t's legal moves, best first: touching the own element, few empty squares around, noise."""
        split, prefer = self.tests.split, self.tests.prefer
        ranked = []
        for mask, around, element, option in self.moves[t]:
            if mask & drawn or (drawn and not around & drawn):
                continue
            same = (around & masks[element]).bit_count()
            value = PERFECT_SAME_CONTACT_WEIGHT * same - PERFECT_EMPTY_AROUND_WEIGHT * (around & ~drawn).bit_count()
            if masks[element] and not same and element not in split:
                value -= PERFECT_DETACHED_PENALTY
            if prefer is not None:
                value += prefer(mask, element, masks)
            ranked.append((value + PERFECT_NOISE * self.rng.random(), mask, element, option))
        ranked.sort(key=lambda item: -item[0])
        return ranked


@dataclass(frozen=True)
class PerfectSearch:
    """What `perfect_play` found: a play per roll (None for rolls after the end), or None."""

    plays: tuple[Placement | None, ...] | None
    exhausted: bool  # the search tree was explored completely: no perfect map exists
    nodes: int


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _joinable(parts: list[int], pockets: list[int], tables: BoardTables) -> bool:
    """Can the clusters `parts` of one element still become one? Only through empty pockets: they must be
    linked in the graph whose nodes are the clusters and the pockets, with an edge where they touch."""
    reach_mask = 0
    linked = parts[0]
    grown = True
    while grown:
        grown = False
        around = dilate(linked, tables)
        for pocket in pockets:
            if pocket & around and not pocket & reach_mask:
                reach_mask |= pocket
                linked |= pocket
                grown = True
        around = dilate(linked, tables)
        for part in parts:
            if part & around and not part & linked:
                linked |= part
                grown = True
    return all(part & linked for part in parts)


class _Restart(Exception):
    """The current restart used up its node limit."""


def _masks_grid(masks: dict[Element, int], rows: int, cols: int) -> Grid:
    """The map that per-element square bitmasks describe."""
    values = [0] * (rows * cols)
    for element, mask in masks.items():
        while mask:
            low = mask & -mask
            values[low.bit_length() - 1] = int(element)
            mask ^= low
    return tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows))

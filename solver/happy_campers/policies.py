"""Fast play policies for Happy Campers: a bitmask map engine, `greedy` and `random`, and `play_game`.

Why a second representation of the map: hints are Monte-Carlo estimates, and their cost is almost all
rollouts (whole games played to the end by a policy). The rules model (`rules.py`) is the reference and
stays readable; this module keeps the same facts as Python-int bitmasks (bit r * cols + c) so a legality
test is two ANDs and the score is kept incrementally:

- legal positions come from the rules model's own placement tables (`rules.placed_shapes`: mask and the
  mask of the squares around the shape), so legality is by construction the rules model's;
- each element keeps its list of cluster masks; drawing merges the clusters the shape touches, so the
  largest cluster of an element after a drawing is `max(old largest, shape + touched clusters)`;
- challenge points are popcounts on masks, plus the rules model's cached Tent Together / River Town
  functions (`max_disjoint_tent_squares`, `max_disjoint_rivers`) for the two combinatorial cards.

`FastMap.final_score()` equals `rules.score(...).total` (pinned by a property test); `play_game` replays
every drawing through `rules.draw` and returns the rules model's own score, so nothing here is trusted
without the reference.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.geometry import mask_cells
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.modes import SOLO_DOUBLE_GAP
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    ELEMENTS,
    EMPTY_SQUARE_POINTS,
    FESTIVAL_POINTS,
    NATURE_RESERVE_SINGLE_EMPTY_POINTS,
    RIVER_POINTS,
    TENT_SQUARE_POINTS,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    ScoreBreakdown,
    divide_sides,
    draw,
    max_disjoint_rivers,
    max_disjoint_tent_squares,
    placed_shapes,
    score,
    validate_grid,
    validate_roll,
)

Roll = tuple[int, int]

#: Greedy shaping: what a missing element costs an incomplete map in the immediate evaluation. An
#: incomplete map scores 0, so a missing element is worth roughly "everything else"; a flat penalty of a
#: few points keeps greedy from postponing the fifth element while still letting it grow clusters.
DEFAULT_MISSING_PENALTY = 6.0

#: Element indices used by the fast engine (Element values 1..5).
_ELEMENT_VALUES: tuple[int, ...] = tuple(int(e) for e in ELEMENTS)

# A candidate drawing in the fast engine: (mask, around_mask, element, shape_face, element_face).
Candidate = tuple[int, int, int, int, int]


# ---------------------------------------------------------------------------------------------------------
# Board tables (per component set, cached)
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardTables:
    """Everything about a map size and shape set that rollouts need, precomputed once."""

    rows: int
    cols: int
    full: int
    edge: int
    not_first_col: int
    not_last_col: int
    row_masks: tuple[int, ...]
    col_masks: tuple[int, ...]
    side_masks: tuple[int, int]
    # positions[shape index] = ((mask, around), ...) from the rules model's placement tables.
    positions: tuple[tuple[tuple[int, int], ...], ...]
    min_shape_cells: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def max_turns(self) -> int:
        """No game can last longer: every turn draws at least one shape of the smallest size."""
        return 2 * (self.cells // self.min_shape_cells) + 3


@lru_cache(maxsize=16)
def board_tables(components: Components = DEFAULT_COMPONENTS) -> BoardTables:
    rows, cols = components.rows, components.cols
    full = (1 << (rows * cols)) - 1
    edge = 0
    row_masks = []
    col_masks = [0] * cols
    for r in range(rows):
        row_mask = 0
        for c in range(cols):
            bit = 1 << (r * cols + c)
            row_mask |= bit
            col_masks[c] |= bit
            if r in (0, rows - 1) or c in (0, cols - 1):
                edge |= bit
        row_masks.append(row_mask)
    sides = []
    for side in divide_sides(cols):
        mask = 0
        for c in side:
            mask |= col_masks[c]
        sides.append(mask)
    positions = tuple(
        tuple((p.mask, p.neighbour_mask) for p in placed_shapes(shape, rows, cols)) for shape in components.shapes
    )
    return BoardTables(
        rows=rows,
        cols=cols,
        full=full,
        edge=edge,
        not_first_col=full & ~col_masks[0],
        not_last_col=full & ~col_masks[cols - 1],
        row_masks=tuple(row_masks),
        col_masks=tuple(col_masks),
        side_masks=(sides[0], sides[1]),
        positions=positions,
        min_shape_cells=min(len(s) for s in components.shapes),
    )


def cells_mask(cells: Iterable[tuple[int, int]], cols: int) -> int:
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * cols + c)
    return mask


def dilate(mask: int, tables: BoardTables) -> int:
    """The squares orthogonally next to `mask` (and `mask` itself), kept on the map."""
    cols = tables.cols
    return (
        mask
        | ((mask << 1) & tables.not_first_col)
        | ((mask >> 1) & tables.not_last_col)
        | ((mask << cols) & tables.full)
        | (mask >> cols)
    )


def clusters_of(mask: int, tables: BoardTables) -> list[int]:
    """Split a mask into its orthogonal components (bitmask flood fill)."""
    found = []
    while mask:
        seed = mask & -mask
        grown = seed
        while True:
            nxt = dilate(grown, tables) & mask
            if nxt == grown:
                break
            grown = nxt
        found.append(grown)
        mask &= ~grown
    return found


# ---------------------------------------------------------------------------------------------------------
# The fast map
# ---------------------------------------------------------------------------------------------------------


class FastMap:
    """A mutable bitmask map with incremental clusters and the challenge counters the evaluations need."""

    __slots__ = (
        "cards",
        "clusters",
        "drawn",
        "flags",
        "largest",
        "masks",
        "rivers",
        "tables",
        "tent_squares",
        "toilet_cols",
        "toilet_rows",
    )

    def __init__(self, tables: BoardTables, cards: frozenset[Challenge]) -> None:
        self.tables = tables
        self.cards = cards
        self.flags = _CardFlags.of(cards)
        self.drawn = 0
        self.masks = [0] * 6
        self.clusters: list[list[int]] = [[] for _ in range(6)]
        self.largest = [0] * 6
        self.tent_squares = 0
        self.rivers = 0
        self.toilet_rows = 0  # bit r set when row r holds a toilet
        self.toilet_cols = 0

    @classmethod
    def from_grid(cls, grid: Grid, challenges: Iterable[Challenge], components: Components) -> FastMap:
        tables = board_tables(components)
        fast = cls(tables, frozenset(challenges))
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if value:
                    fast.masks[value] |= 1 << (r * tables.cols + c)
        for value in _ELEMENT_VALUES:
            fast.drawn |= fast.masks[value]
            fast.clusters[value] = clusters_of(fast.masks[value], tables)
            fast.largest[value] = max((m.bit_count() for m in fast.clusters[value]), default=0)
        fast._recount_cards()
        return fast

    def _recount_cards(self) -> None:
        tables = self.tables
        toilets = self.masks[Element.TOILETS]
        self.toilet_rows = sum(1 << r for r, m in enumerate(tables.row_masks) if m & toilets)
        self.toilet_cols = sum(1 << c for c, m in enumerate(tables.col_masks) if m & toilets)
        self.tent_squares = (
            _tent_squares(self.masks[Element.TENTS], tables) if Challenge.TENT_TOGETHER in self.cards else 0
        )
        self.rivers = _rivers(self.masks[Element.WATER], tables) if Challenge.RIVER_TOWN in self.cards else 0

    def copy(self) -> FastMap:
        other = FastMap.__new__(FastMap)
        other.tables = self.tables
        other.cards = self.cards
        other.flags = self.flags
        other.drawn = self.drawn
        other.masks = self.masks.copy()
        other.clusters = [list(c) for c in self.clusters]
        other.largest = self.largest.copy()
        other.tent_squares = self.tent_squares
        other.rivers = self.rivers
        other.toilet_rows = self.toilet_rows
        other.toilet_cols = self.toilet_cols
        return other

    def to_grid(self) -> Grid:
        cols = self.tables.cols
        flat = [0] * self.tables.cells
        for value in _ELEMENT_VALUES:
            mask = self.masks[value]
            index = 0
            while mask:
                if mask & 1:
                    flat[index] = value
                mask >>= 1
                index += 1
        return tuple(tuple(flat[r * cols : (r + 1) * cols]) for r in range(self.tables.rows))

    # --- moves -------------------------------------------------------------------------------------------

    def candidates(self, shape_face: int, element_face: int, components: Components) -> list[Candidate]:
        """Every legal drawing of one option (face 6 expanded), as fast-engine candidates."""
        drawn = self.drawn
        shape_indices = components.shape_indices(shape_face)
        elements = _ELEMENT_VALUES if element_face == ANY_FACE else (int(components.elements[element_face - 1]),)
        found: list[Candidate] = []
        for shape_index in shape_indices:
            table = self.tables.positions[shape_index]
            fitting = [p for p in table if not p[0] & drawn and p[1] & drawn] if drawn else table
            for element in elements:
                found.extend((mask, around, element, shape_face, element_face) for mask, around in fitting)
        return found

    def can_draw_option(self, shape_face: int, components: Components) -> bool:
        drawn = self.drawn
        shape_indices = components.shape_indices(shape_face)
        if not drawn:
            return True
        for shape_index in shape_indices:
            for mask, around in self.tables.positions[shape_index]:
                if not mask & drawn and around & drawn:
                    return True
        return False

    def roll_candidates(self, roll: Roll, components: Components) -> list[Candidate]:
        a, b = roll
        found = self.candidates(a, b, components)
        if a != b:
            found.extend(self.candidates(b, a, components))
        return found

    def commit(self, mask: int, around: int, element: int) -> None:
        """Draw a candidate (legality was checked when it was generated)."""
        merged = mask
        keep = []
        for cluster in self.clusters[element]:
            if cluster & around:
                merged |= cluster
            else:
                keep.append(cluster)
        keep.append(merged)
        self.clusters[element] = keep
        size = merged.bit_count()
        if size > self.largest[element]:
            self.largest[element] = size
        self.drawn |= mask
        self.masks[element] |= mask
        if element == Element.TOILETS:
            self.toilet_rows |= _rows_of(mask, self.tables)
            self.toilet_cols |= _cols_of(mask, self.tables)
        elif element == Element.TENTS and Challenge.TENT_TOGETHER in self.cards:
            self.tent_squares = _tent_squares(self.masks[element], self.tables)
        elif element == Element.WATER and Challenge.RIVER_TOWN in self.cards:
            self.rivers = _rivers(self.masks[element], self.tables)

    # --- evaluation --------------------------------------------------------------------------------------

    def missing(self) -> int:
        """Elements still missing (Great Divide: counted on each side)."""
        masks = self.masks
        if Challenge.GREAT_DIVIDE in self.cards:
            left, right = self.tables.side_masks
            return sum((not masks[v] & left) + (not masks[v] & right) for v in _ELEMENT_VALUES)
        return sum(1 for v in _ELEMENT_VALUES if not masks[v])

    def card_points(self) -> int:
        """Challenge points of the current map, exactly as `rules.score` counts them (single map)."""
        cards = self.cards
        if not cards:
            return 0
        tables = self.tables
        masks = self.masks
        points = 0
        if Challenge.PRIVACY in cards:
            points += (masks[Element.TREES] & tables.edge).bit_count()
        if Challenge.DANGEROUS_ANIMALS in cards:
            points -= (masks[Element.TENTS] & tables.edge).bit_count()
        if Challenge.QUICK_PEE in cards:
            points += self.toilet_rows.bit_count() + self.toilet_cols.bit_count()
        if Challenge.TENT_TOGETHER in cards:
            points += TENT_SQUARE_POINTS * self.tent_squares
        if Challenge.RIVER_TOWN in cards:
            points += RIVER_POINTS * self.rivers
        if Challenge.NATURE_RESERVE in cards:
            points += (NATURE_RESERVE_SINGLE_EMPTY_POINTS - EMPTY_SQUARE_POINTS) * _isolated_empty(self.drawn, tables)
        if Challenge.FESTIVAL in cards:
            points += FESTIVAL_POINTS
        return points

    def raw_score(self) -> int:
        """The score as if the map were complete (clusters, empty squares, challenge points)."""
        empty = self.tables.cells - self.drawn.bit_count()
        return sum(self.largest) + EMPTY_SQUARE_POINTS * empty + self.card_points()

    def final_score(self) -> int:
        """`rules.score(grid).total` for this map: 0 unless complete."""
        return self.raw_score() if self.missing() == 0 else 0

    def evaluation(self, missing_penalty: float = DEFAULT_MISSING_PENALTY) -> float:
        """Greedy's immediate evaluation: the real score when complete, shaped by missing elements if not."""
        missing = self.missing()
        return float(self.raw_score()) if missing == 0 else self.raw_score() - missing_penalty * missing

    def gain(self, candidate: Candidate, missing_penalty: float = DEFAULT_MISSING_PENALTY) -> float:
        """evaluation(after drawing the candidate) - evaluation(now), computed without drawing it."""
        return self.gains((candidate,), missing_penalty)[0]

    def gains(self, candidates: Sequence[Candidate], missing_penalty: float = DEFAULT_MISSING_PENALTY) -> list[float]:
        """`gain` of every candidate in one loop (lookups hoisted: this is the rollouts' inner loop)."""
        masks = self.masks
        sized_clusters = [[(c, c.bit_count()) for c in clusters] for clusters in self.clusters]
        largest = self.largest
        cards = self.cards
        if Challenge.GREAT_DIVIDE in cards:
            left, right = self.tables.side_masks
            divide = True
        else:
            left = right = 0
            divide = False
        # Cards whose points cannot change with a drawing (Festival is a constant on one map) need no work.
        card_gain = self._card_gain if any(c not in _NO_CARD_POINTS for c in cards) else None
        isolated_now = _isolated_empty(self.drawn, self.tables) if self.flags.nature_reserve else 0
        found = []
        for mask, around, element, _, _ in candidates:
            size = mask.bit_count()
            merged = size
            for cluster, cluster_size in sized_clusters[element]:
                if cluster & around:
                    merged += cluster_size
            grow = merged - largest[element]
            gain = size + grow if grow > 0 else size  # filled empty squares + larger cluster
            old = masks[element]
            # evaluation = raw - penalty * missing, so filling a gap is worth the penalty exactly
            if divide:
                newly = (not old & left and bool(mask & left)) + (not old & right and bool(mask & right))
                if newly:
                    gain += missing_penalty * newly
            elif not old:
                gain += missing_penalty
            if card_gain is not None:
                gain += card_gain(mask, element, isolated_now)
            found.append(gain)
        return found

    def _card_gain(self, mask: int, element: int, isolated_now: int) -> int:
        """Change of `card_points()` if the candidate were drawn (flags hoisted into `_CardFlags`)."""
        flags = self.flags
        tables = self.tables
        gain = 0
        if element == Element.TREES:
            if flags.privacy:
                gain += (mask & tables.edge).bit_count()
        elif element == Element.TENTS:
            if flags.dangerous_animals:
                gain -= (mask & tables.edge).bit_count()
            if flags.tent_together:
                gain += TENT_SQUARE_POINTS * (_tent_squares(self.masks[element] | mask, tables) - self.tent_squares)
        elif element == Element.TOILETS:
            if flags.quick_pee:
                gain += (_rows_of(mask, tables) & ~self.toilet_rows).bit_count()
                gain += (_cols_of(mask, tables) & ~self.toilet_cols).bit_count()
        elif element == Element.WATER and flags.river_town:
            gain += RIVER_POINTS * (_rivers(self.masks[element] | mask, tables) - self.rivers)
        if flags.nature_reserve:
            bonus = NATURE_RESERVE_SINGLE_EMPTY_POINTS - EMPTY_SQUARE_POINTS
            gain += bonus * (_isolated_empty(self.drawn | mask, tables) - isolated_now)
        return gain


@dataclass(frozen=True)
class _CardFlags:
    """Which cards are in play, as plain booleans (set lookups of enums are slow in the inner loop)."""

    privacy: bool
    dangerous_animals: bool
    quick_pee: bool
    tent_together: bool
    river_town: bool
    nature_reserve: bool

    @classmethod
    def of(cls, cards: frozenset[Challenge]) -> _CardFlags:
        return cls(
            privacy=Challenge.PRIVACY in cards,
            dangerous_animals=Challenge.DANGEROUS_ANIMALS in cards,
            quick_pee=Challenge.QUICK_PEE in cards,
            tent_together=Challenge.TENT_TOGETHER in cards,
            river_town=Challenge.RIVER_TOWN in cards,
            nature_reserve=Challenge.NATURE_RESERVE in cards,
        )


_NO_CARD_POINTS = (Challenge.NOISY_NEIGHBOURS, Challenge.GREAT_DIVIDE, Challenge.FESTIVAL)


def _rows_of(mask: int, tables: BoardTables) -> int:
    return sum(1 << r for r, m in enumerate(tables.row_masks) if m & mask)


def _cols_of(mask: int, tables: BoardTables) -> int:
    return sum(1 << c for c, m in enumerate(tables.col_masks) if m & mask)


def _isolated_empty(drawn: int, tables: BoardTables) -> int:
    """Empty squares none of whose neighbours is empty (Nature Reserve)."""
    empty = tables.full & ~drawn
    cols = tables.cols
    has_empty_neighbour = (
        ((empty << 1) & tables.not_first_col)
        | ((empty >> 1) & tables.not_last_col)
        | ((empty << cols) & tables.full)
        | (empty >> cols)
    )
    return (empty & ~has_empty_neighbour).bit_count()


def _tent_squares(mask: int, tables: BoardTables) -> int:
    cols = tables.cols
    # Quick exit (most calls): no 2x2 block of tents anywhere, so no Tent Together square.
    block = mask & (mask >> 1) & (mask >> cols) & (mask >> (cols + 1)) & tables.not_last_col
    if not block:
        return 0
    return max_disjoint_tent_squares(mask, tables.rows, tables.cols)


def _rivers(mask: int, tables: BoardTables) -> int:
    if not (mask & tables.col_masks[0] and mask & tables.col_masks[-1]):
        return 0
    return max_disjoint_rivers(mask, tables.rows, tables.cols)


# ---------------------------------------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------------------------------------


class Policy(Protocol):
    """Chooses one of the legal candidates; `key` is a random 32-bit number for tie-breaks / sampling."""

    name: str

    def choose(self, fast: FastMap, candidates: Sequence[Candidate], key: int) -> int: ...


@dataclass(frozen=True)
class GreedyPolicy:
    """Draw the move with the best immediate evaluation (`FastMap.evaluation`); ties broken by `key`."""

    missing_penalty: float = DEFAULT_MISSING_PENALTY
    name: str = "greedy"

    def choose(self, fast: FastMap, candidates: Sequence[Candidate], key: int) -> int:
        values = fast.gains(candidates, self.missing_penalty)
        best = max(values)
        ties = [index for index, value in enumerate(values) if value == best]
        return ties[key % len(ties)]


@dataclass(frozen=True)
class RandomPolicy:
    """Uniform over the listed legal drawings: the baseline any hint must beat."""

    name: str = "random"

    def choose(self, fast: FastMap, candidates: Sequence[Candidate], key: int) -> int:
        return key % len(candidates)


#: Shaped greedy's weights (points of immediate evaluation), tuned on 600 seeded whole games per setting
#: (default 5x9 map, no card): plain greedy 27.6, shaped 37.8-38.0 +- 0.18 around these values.
SHAPED_DEAD_WEIGHT = 2.0
SHAPED_EXPOSURE_WEIGHT = 1.0
SHAPED_SEAL_WEIGHT = 1.0
#: Per square the drawing takes from the room (empty squares next to) another element's largest cluster(s):
#: space that cluster could have grown into. 0.25 measured +0.39 +- 0.12 a game over 0 on 1,500 paired
#: seeded whole games (0.5: +0.34, 0.75: +0.30), the fragmentation greedy otherwise ignores until a seal.
SHAPED_CROWD_WEIGHT = 0.0


@dataclass(frozen=True)
class ShapedGreedyPolicy:
    """Greedy's immediate evaluation plus a look at what the drawing leaves for the rest of the game.

    Why: the hint's values are expected final scores under its rollout policy, so the rollout policy's
    blind spots are the hint's blind spots. Plain greedy only sees the score now; it happily leaves an
    isolated empty square (no shape fits there ever again: -1 at the end and a square no cluster gets) or
    walls in an element's largest cluster. The shaping terms, all bitmask counts on the map after the
    drawing, are:

    - `dead_weight` per new isolated empty square (an empty square with no empty neighbour);
    - `exposure_weight` per empty square next to the drawn shape (a snug drawing along edges, corners and
      earlier shapes keeps the empty region in one fillable piece);
    - `seal_weight` per other element whose largest cluster(s) lose their last empty neighbour (the
      element's best cluster can never grow again; with tied largest clusters, all of them);
    - `crowd_weight` per square taken from the room of another element's largest cluster(s) (the empty
      squares next to them): the softer form of a seal.

    Weights were tuned on seeded self-play (bench/happy_campers_hint.py `--policy-sweep`). Ties are broken
    by `key` as in greedy.
    """

    missing_penalty: float = DEFAULT_MISSING_PENALTY
    dead_weight: float = SHAPED_DEAD_WEIGHT
    exposure_weight: float = SHAPED_EXPOSURE_WEIGHT
    seal_weight: float = SHAPED_SEAL_WEIGHT
    crowd_weight: float = SHAPED_CROWD_WEIGHT
    name: str = "shaped-greedy"

    def choose(self, fast: FastMap, candidates: Sequence[Candidate], key: int) -> int:
        values = self.values(fast, candidates)
        best = max(values)
        ties = [index for index, value in enumerate(values) if value == best]
        return ties[key % len(ties)]

    def values(self, fast: FastMap, candidates: Sequence[Candidate]) -> list[float]:
        """Greedy's gain of every candidate minus the shaping terms (higher is better).

        The hot loop of the hint's rollouts: the shape terms depend on the squares only, so they are computed
        once per position and shared by the candidates that differ by element (face 6 lists five).
        """
        gains = fast.gains(candidates, self.missing_penalty)
        tables = fast.tables
        full = tables.full
        cols = tables.cols
        not_first = tables.not_first_col
        not_last = tables.not_last_col
        empty_now = full & ~fast.drawn
        isolated_now = empty_now & ~_neighbours_of(empty_now, tables)
        dead_weight = self.dead_weight
        exposure_weight = self.exposure_weight
        seal_weight = self.seal_weight
        crowd_weight = self.crowd_weight
        # The room each element's largest clusters (ties included) have to grow into: empty squares next to them.
        rooms: list[tuple[int, int]] = []
        if seal_weight or crowd_weight:
            for element in _ELEMENT_VALUES:
                largest = fast.largest[element]
                if not largest:
                    continue
                room = 0
                for cluster in fast.clusters[element]:
                    if cluster.bit_count() == largest:
                        room |= dilate(cluster, tables) & empty_now
                if room:
                    rooms.append((element, room))
        any_room = 0
        for _, room in rooms:
            any_room |= room
        shape_terms: dict[int, float] = {}
        values = []
        for (mask, around, element, _, _), gain in zip(candidates, gains, strict=True):
            terms = shape_terms.get(mask)
            if terms is None:
                empty = empty_now & ~mask
                exposed = around & empty
                # Only squares next to the shape can lose their last empty neighbour.
                neighbours = (
                    ((empty << 1) & not_first) | ((empty >> 1) & not_last) | ((empty << cols) & full) | (empty >> cols)
                )
                dead = (exposed & ~neighbours).bit_count() - (mask & isolated_now).bit_count()
                terms = dead_weight * dead + exposure_weight * exposed.bit_count()
                shape_terms[mask] = terms
            value = gain - terms
            if mask & any_room:
                for owner, room in rooms:
                    if owner != element:
                        if not room & ~mask:
                            value -= seal_weight
                        if crowd_weight:
                            value -= crowd_weight * (mask & room).bit_count()
            values.append(value)
        return values


def _neighbours_of(mask: int, tables: BoardTables) -> int:
    """Squares orthogonally next to a square of `mask` (those of `mask` included only if next to another)."""
    cols = tables.cols
    return (
        ((mask << 1) & tables.not_first_col)
        | ((mask >> 1) & tables.not_last_col)
        | ((mask << cols) & tables.full)
        | (mask >> cols)
    )


GREEDY = GreedyPolicy()
RANDOM = RandomPolicy()
SHAPED_GREEDY = ShapedGreedyPolicy()


class PolicyName(enum.Enum):
    GREEDY = "greedy"
    RANDOM = "random"


def policy_named(name: str | PolicyName | Policy) -> Policy:
    if isinstance(name, GreedyPolicy | RandomPolicy):
        return name
    value = PolicyName(name.value if isinstance(name, PolicyName) else name)
    return GREEDY if value is PolicyName.GREEDY else RANDOM


# ---------------------------------------------------------------------------------------------------------
# Rollouts (hot path for hints) and play_game (checked path)
# ---------------------------------------------------------------------------------------------------------


def rollout(fast: FastMap, dice: np.ndarray, keys: np.ndarray, policy: Policy, components: Components) -> int:
    """Play `fast` (mutated) to the end on the given future rolls; return the final score.

    Forced play: each roll is drawn if any option fits; the first roll that fits nowhere ends the game.
    `dice` is (turns, 2), `keys` is (turns,); the caller guarantees enough turns (`BoardTables.max_turns`).
    """
    choose = policy.choose
    for turn in range(len(dice)):
        roll = (int(dice[turn, 0]), int(dice[turn, 1]))
        candidates = fast.roll_candidates(roll, components)
        if not candidates:
            break
        mask, around, element, _, _ = candidates[choose(fast, candidates, int(keys[turn]))]
        fast.commit(mask, around, element)
    return fast.final_score()


def candidate_placement(candidate: Candidate, cols: int) -> Placement:
    mask, _, element, shape_face, element_face = candidate
    return Placement(mask_cells(mask, cols), Element(element), Option(shape_face, element_face))


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: the placements in order (one per drawn roll), the final map and its rules score."""

    final_grid: Grid
    placements: tuple[Placement, ...]
    rolls_used: int
    breakdown: ScoreBreakdown

    @property
    def score(self) -> int:
        return self.breakdown.total


def random_rolls(seed: int, count: int, *purpose: object) -> list[Roll]:
    """`count` seeded rolls of two fair dice (the bench's and the tests' roll sequences)."""
    dice = rng_for(seed, "happy-campers-rolls", *purpose).integers(1, 7, size=(count, 2))
    return [(int(a), int(b)) for a, b in dice]


def play_game(
    start_grid: Grid | None,
    rolls: Sequence[Roll],
    challenges: Iterable[Challenge] = (),
    components: Components = DEFAULT_COMPONENTS,
    policy: Policy | str = "greedy",
    *,
    seed: int = 0,
    budget: Budget | None = None,
) -> PlayedGame:
    """Play a known roll sequence under forced play with a policy; every drawing goes through `rules.draw`.

    The game ends at the first roll with no legal drawing (later rolls unused) or when the rolls run out.
    Tie-breaks of the policy come from `rng_for(seed, "play_game")`, so a game is reproducible.
    """
    chooser = policy_named(policy) if isinstance(policy, str) else policy
    challenge_tuple = tuple(challenges)
    grid = validate_grid(start_grid, components) if start_grid is not None else None
    fast = (
        FastMap.from_grid(grid, challenge_tuple, components)
        if grid is not None
        else FastMap(board_tables(components), frozenset(challenge_tuple))
    )
    reference = grid if grid is not None else fast.to_grid()
    keys = rng_for(seed, "play_game").integers(0, 2**31, size=max(len(rolls), 1))
    placements: list[Placement] = []
    used = 0
    for turn, roll in enumerate(rolls):
        if budget is not None:
            budget.check()
        roll = validate_roll(roll)
        candidates = fast.roll_candidates(roll, components)
        used = turn + 1
        if not candidates:
            break
        candidate = candidates[chooser.choose(fast, candidates, int(keys[turn]))]
        placement = candidate_placement(candidate, components.cols)
        reference = draw(reference, placement, components)  # the rules model decides legality
        fast.commit(candidate[0], candidate[1], candidate[2])
        placements.append(placement)
    breakdown = score(reference, challenge_tuple, components)
    return PlayedGame(reference, tuple(placements), used, breakdown)


# ---------------------------------------------------------------------------------------------------------
# Solo mode (two maps, the lower final score counts)
# ---------------------------------------------------------------------------------------------------------

#: Solo phase: both maps still play.
SOLO_NORMAL = -1
#: Solo phase: the game is over (no more drawing on either map).
SOLO_OVER = -2
# A phase k >= 0 means: map k gets exactly one more (bonus) turn, then the game is over.


def _best_single(fast: FastMap, candidates: Sequence[Candidate], key: int, penalty: float) -> tuple[int, float]:
    """Greedy's pick among one map's candidates and that map's evaluation after it."""
    values = fast.gains(candidates, penalty)
    best = max(values)
    ties = [index for index, value in enumerate(values) if value == best]
    return ties[key % len(ties)], best


# ---------------------------------------------------------------------------------------------------------
# Solo mode exactly as the rules model's `modes.SoloState` plays it (used by the hint engine)
# ---------------------------------------------------------------------------------------------------------
# These follow `modes.SoloState` step for step: the gap rule on doubles, and "the map not drawn on is out,
# the drawn map gets one more turn" whenever no assignment fits both maps.
# `tests/happy_campers/test_hint_agreement.py` pins them to `SoloState`.


def candidate_of(placement: Placement, components: Components = DEFAULT_COMPONENTS) -> Candidate:
    """The fast-engine candidate of a rules-model drawing (inverse of `candidate_placement`)."""
    tables = board_tables(components)
    mask = cells_mask(placement.cells, tables.cols)
    around = dilate(mask, tables) & ~mask
    option = placement.option
    return (mask, around, int(placement.element), option.shape_face, option.element_face)


def solo_candidates(
    fast: FastMap, shape_face: int, element_face: int, components: Components, double: bool, gap: int
) -> list[Candidate]:
    """`modes.SoloState.drawings` in the fast engine: the ordinary drawings of one option, plus on a double
    every detached position whose squares are all more than `gap` orthogonal steps from a drawn square
    (`modes.solo_double_placements`)."""
    found = fast.candidates(shape_face, element_face, components)
    drawn = fast.drawn
    if not double or not drawn:
        return found
    tables = fast.tables
    halo = drawn
    for _ in range(gap):
        halo = dilate(halo, tables)
    shape_indices = components.shape_indices(shape_face)
    elements = _ELEMENT_VALUES if element_face == ANY_FACE else (int(components.elements[element_face - 1]),)
    for shape_index in shape_indices:
        detached = [p for p in tables.positions[shape_index] if not p[0] & halo]
        for element in elements:
            found.extend((mask, around, element, shape_face, element_face) for mask, around in detached)
    return found


def modes_solo_turn(
    maps: list[FastMap],
    phase: int,
    roll: Roll,
    key: int,
    components: Components,
    penalty: float = DEFAULT_MISSING_PENALTY,
    gap: int = SOLO_DOUBLE_GAP,
) -> int:
    """Play one solo turn greedily as `modes.SoloState` allows it; return the new phase.

    Phases: SOLO_NORMAL, k >= 0 (map k has its one extra turn), SOLO_OVER. The flow:
    - extra turn (phase k): either option on map k by the ordinary rule (a double is a plain roll); if
      nothing fits, nothing is drawn; the game is over either way;
    - otherwise, if an assignment fits both maps (one option each; a double on both, gap rule), greedy draws
      the pair maximising (lower evaluation, sum of evaluations);
    - else one drawing (any option that fits, gap rule on a double) on one map: that map gets the extra
      turn and the other is out; if nothing fits anywhere the game is over.
    """
    if phase == SOLO_OVER:
        return SOLO_OVER
    if phase >= 0:
        fast = maps[phase]
        candidates = fast.roll_candidates(roll, components)
        if candidates:
            index, _ = _best_single(fast, candidates, key, penalty)
            fast.commit(*candidates[index][:3])
        return SOLO_OVER
    a, b = roll
    double = a == b
    options = ((a, b),) if double else ((a, b), (b, a))
    per_map = [[solo_candidates(fast, s, e, components, double, gap) for s, e in options] for fast in maps]
    evals = [fast.evaluation(penalty) for fast in maps]
    assignments = [(0, 0)] if double else [(0, 1), (1, 0)]
    best_pair = None
    best_value = (-1e18, -1e18)
    for i, j in assignments:
        if not (per_map[0][i] and per_map[1][j]):
            continue
        index0, gain0 = _best_single(maps[0], per_map[0][i], key, penalty)
        index1, gain1 = _best_single(maps[1], per_map[1][j], key >> 3, penalty)
        after = (evals[0] + gain0, evals[1] + gain1)
        value = (min(after), after[0] + after[1])
        if value > best_value:
            best_value = value
            best_pair = (per_map[0][i][index0], per_map[1][j][index1])
    if best_pair is not None:
        maps[0].commit(*best_pair[0][:3])
        maps[1].commit(*best_pair[1][:3])
        return SOLO_NORMAL
    best_single = None
    best_value = (-1e18, -1e18)
    for m in (0, 1):
        candidates = [c for per_option in per_map[m] for c in per_option]
        if not candidates:
            continue
        index, gain = _best_single(maps[m], candidates, key, penalty)
        after = [evals[0], evals[1]]
        after[m] += gain
        value = (min(after), after[0] + after[1])
        if value > best_value:
            best_value = value
            best_single = (m, candidates[index])
    if best_single is None:
        return SOLO_OVER
    maps[best_single[0]].commit(*best_single[1][:3])
    return best_single[0]


def modes_solo_rollout(
    maps: list[FastMap],
    phase: int,
    dice: np.ndarray,
    keys: np.ndarray,
    components: Components,
    penalty: float = DEFAULT_MISSING_PENALTY,
    gap: int = SOLO_DOUBLE_GAP,
) -> int:
    """`solo_rollout` with `modes_solo_turn`: play both maps (mutated) to the end; the lower final score."""
    for turn in range(len(dice)):
        if phase == SOLO_OVER:
            break
        phase = modes_solo_turn(
            maps, phase, (int(dice[turn, 0]), int(dice[turn, 1])), int(keys[turn]), components, penalty, gap
        )
    return min(maps[0].final_score(), maps[1].final_score())

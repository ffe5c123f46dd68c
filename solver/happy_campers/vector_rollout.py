"""Shaped-greedy rollouts with every candidate of a turn scored at once (numpy arrays of bitmasks).

Why: a hint's quality is bought with rollouts, and the Python loop of `ShapedGreedyPolicy.values` costs a
few microseconds per candidate (about 80 candidates a turn). Here the candidates of a roll are static
arrays (every position of every allowed shape and element, in the order `FastMap.roll_candidates` lists
them), so a turn is one legality filter and a few dozen array operations, whatever the number of
candidates.

Exactness: the values are the same small integers (weights and penalty are whole numbers in float64) in
the same candidate order, so the chosen drawing, tie-breaks included, is exactly `ShapedGreedyPolicy`'s:
`tests/happy_campers/test_vector_rollout.py` plays both on the same futures and compares every drawing.
Used when the map fits in 64 bits and no card adds points (`supports`); anything else takes the Python
path (`policies.rollout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from campsolver.solver.happy_campers.policies import (
    FastMap,
    ShapedGreedyPolicy,
    board_tables,
    dilate,
)
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DIE_FACES,
    ELEMENTS,
    Challenge,
    Components,
)

#: Bits in the array word: maps with more squares take the Python path.
WORD_BITS = 64
#: Cards that change no point of a single map (Noisy Neighbours changes doubles in the multi-player game;
#: Festival is a constant on one map): the vector path still applies.
POINTLESS_CARDS = frozenset({Challenge.NOISY_NEIGHBOURS, Challenge.FESTIVAL})

_U64 = np.uint64
_ELEMENT_VALUES = tuple(int(e) for e in ELEMENTS)


def supports(fast: FastMap) -> bool:
    """True when the vector path plays `fast` exactly like `ShapedGreedyPolicy` (small map, no scoring card)."""
    return fast.tables.cells <= WORD_BITS and fast.cards <= POINTLESS_CARDS


@dataclass(frozen=True)
class _RollArrays:
    """Every candidate of one ordered roll, legal or not, in `FastMap.roll_candidates` order."""

    masks: np.ndarray
    arounds: np.ndarray
    elements: np.ndarray
    sizes: np.ndarray
    int_masks: tuple[int, ...]
    int_arounds: tuple[int, ...]


@dataclass(frozen=True)
class _Board:
    full: np.uint64
    not_first: np.uint64
    not_last: np.uint64
    cols: np.uint64
    rolls: dict[tuple[int, int], _RollArrays]


@lru_cache(maxsize=8)
def _board(components: Components) -> _Board:
    tables = board_tables(components)
    rolls: dict[tuple[int, int], _RollArrays] = {}
    for a in DIE_FACES:
        for b in DIE_FACES:
            masks: list[int] = []
            arounds: list[int] = []
            elements: list[int] = []
            options = ((a, b),) if a == b else ((a, b), (b, a))
            for shape_face, element_face in options:
                chosen = _ELEMENT_VALUES if element_face == ANY_FACE else (int(components.elements[element_face - 1]),)
                for shape_index in components.shape_indices(shape_face):
                    table = tables.positions[shape_index]
                    for element in chosen:
                        for mask, around in table:
                            masks.append(mask)
                            arounds.append(around)
                            elements.append(element)
            mask_array = np.array(masks, dtype=_U64)
            rolls[(a, b)] = _RollArrays(
                mask_array,
                np.array(arounds, dtype=_U64),
                np.array(elements, dtype=np.int64),
                np.bitwise_count(mask_array).astype(np.int64),
                tuple(masks),
                tuple(arounds),
            )
    return _Board(_U64(tables.full), _U64(tables.not_first_col), _U64(tables.not_last_col), _U64(tables.cols), rolls)


def _neighbours(mask: np.ndarray | np.uint64, board: _Board) -> np.ndarray:
    one = _U64(1)
    return (
        ((mask << one) & board.not_first)
        | ((mask >> one) & board.not_last)
        | ((mask << board.cols) & board.full)
        | (mask >> board.cols)
    )


def choose_index(
    fast: FastMap, roll: tuple[int, int], key: int, policy: ShapedGreedyPolicy, components: Components
) -> tuple[int, int, int] | None:
    """The drawing `policy` makes for `roll` on `fast` as (mask, around, element), or None if nothing fits."""
    board = _board(components)
    arrays = board.rolls[roll]
    drawn = fast.drawn
    drawn_word = _U64(drawn)
    if drawn:
        legal = np.flatnonzero(((arrays.masks & drawn_word) == 0) & ((arrays.arounds & drawn_word) != 0))
        if not len(legal):
            return None
        masks = arrays.masks[legal]
        arounds = arrays.arounds[legal]
        elements = arrays.elements[legal]
        sizes = arrays.sizes[legal]
    else:
        legal = None
        masks, arounds, elements, sizes = arrays.masks, arrays.arounds, arrays.elements, arrays.sizes
    # Greedy's gain (no scoring card): filled squares, growth of the element's largest cluster, and the
    # missing-element penalty for a first square of an element. Clusters are stacked into one array so a
    # turn costs the same few array operations however many clusters the map has.
    cluster_masks: list[int] = []
    cluster_elements: list[int] = []
    cluster_sizes: list[int] = []
    largest = fast.largest
    room_masks: list[int] = []
    room_owners: list[int] = []
    empty_int = fast.tables.full & ~drawn
    seal = policy.seal_weight
    crowd = policy.crowd_weight
    for element in _ELEMENT_VALUES:
        size_largest = largest[element]
        room = 0
        for cluster in fast.clusters[element]:
            size = cluster.bit_count()
            cluster_masks.append(cluster)
            cluster_elements.append(element)
            cluster_sizes.append(size)
            if (seal or crowd) and size == size_largest:
                room |= dilate(cluster, fast.tables) & empty_int
        if room:
            room_masks.append(room)
            room_owners.append(element)
    base = np.array(
        [0.0] + [-largest[e] for e in _ELEMENT_VALUES], dtype=np.float64
    )  # merged - largest, before clusters
    values_grow = sizes + base[elements]
    if cluster_masks:
        stacked = np.array(cluster_masks, dtype=_U64)
        touching = ((arounds[:, None] & stacked[None, :]) != 0) & (
            elements[:, None] == np.array(cluster_elements, dtype=np.int64)[None, :]
        )
        values_grow = values_grow + touching @ np.array(cluster_sizes, dtype=np.float64)
    penalty = np.array(
        [0.0] + [policy.missing_penalty if not fast.masks[e] else 0.0 for e in _ELEMENT_VALUES], dtype=np.float64
    )
    values = sizes + np.maximum(values_grow, 0.0) + penalty[elements]
    # Shaping (see ShapedGreedyPolicy).
    empty_now = board.full & ~drawn_word
    isolated_now = empty_now & ~_neighbours(empty_now, board)
    empty = empty_now & ~masks
    exposed = arounds & empty
    dead = np.bitwise_count(exposed & ~_neighbours(empty, board)).astype(np.float64)
    if isolated_now:
        dead -= np.bitwise_count(masks & isolated_now)
    values -= policy.dead_weight * dead + policy.exposure_weight * np.bitwise_count(exposed)
    if room_masks:
        rooms = np.array(room_masks, dtype=_U64)
        other = elements[:, None] != np.array(room_owners, dtype=np.int64)[None, :]
        if seal:
            sealed = ((rooms[None, :] & ~masks[:, None]) == 0) & other
            values -= seal * sealed.sum(axis=1)
        if crowd:
            taken = np.bitwise_count(masks[:, None] & rooms[None, :]).astype(np.float64)
            values -= crowd * (taken * other).sum(axis=1)
    best = values.max()
    ties = np.flatnonzero(values == best)
    pick = int(ties[key % len(ties)])
    index = pick if legal is None else int(legal[pick])
    return arrays.int_masks[index], arrays.int_arounds[index], int(arrays.elements[index])


def vector_rollout(
    fast: FastMap, dice: np.ndarray, keys: np.ndarray, policy: ShapedGreedyPolicy, components: Components
) -> int:
    """`policies.rollout(fast, dice, keys, policy, components)` for a map `supports` accepts."""
    for turn in range(len(dice)):
        chosen = choose_index(fast, (int(dice[turn, 0]), int(dice[turn, 1])), int(keys[turn]), policy, components)
        if chosen is None:
            break
        fast.commit(*chosen)
    return fast.final_score()

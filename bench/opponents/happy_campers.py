"""Outside players for Happy Campers (the multi-player game), written from the rulebook
(/work/shared/rules/happy-campers.txt), the project's readings (docs/rules/happy-campers.md) and the rules-model
API (`solver/happy_campers/rules.py`, `solver/happy_campers/modes.py`) alone, without reading the hint's code,
notes or bench results; never tuned against the hint.

A decision is one drawing on the map due (`MultiplayerState.to_draw[0]`): on a plain roll the player's own map,
on a double a neighbour's map. Every legal drawing is judged one ply deep by a map evaluation on bitmasks (the
largest cluster of each element, the empty squares, the *dead* squares (empty pockets no shape can ever fill),
the elements still missing, the room each largest cluster has to grow); challenge cards, when in play, add their
points as the rules model counts them. On a neighbour's map every style draws what its own evaluation likes least
for the owner. The game ends for everybody once one map cannot take a roll (the others draw it and one bonus
turn), so the end can come early. The styles:

- `scorer`: the score if the game ended now (largest clusters, -1 an empty square), a missing element costing 9,
  a dead square 1 more.
- `builder`: long game: every element's largest cluster plus half the room it has to grow (at most 4 squares),
  empty squares at a third (they will mostly be filled), dead squares 2, a missing element 9; it keeps the map
  open.
- `closer`: tempo: the score now, dead squares 2.5, and the map kept compact (few separate empty pockets); once
  its map is complete and it leads every rival's score-now, it welcomes drawings that leave its map fewer places
  for the shapes (bringing the end, which is then in its favour).

Cost (2 players, no challenge cards, measured in the sanity games): median 0.5-0.7 ms a decision, mean ~1.4 ms,
at most ~30 ms (the first drawings on an empty map, a few hundred of them); with challenge cards the rules model's
scorer adds ~0.1 ms a drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from campsolver.solver.happy_campers import rules as H
from campsolver.solver.happy_campers.modes import MultiplayerState

ELEMENTS = tuple(int(e) for e in H.ELEMENTS)
MISSING_COST = 9.0


@dataclass(frozen=True)
class Geometry:
    rows: int
    cols: int
    full: int
    right: int
    down: int
    min_shape: int  # the fewest squares of any shape: a smaller empty pocket is dead
    shape_masks: tuple[int, ...]  # every position of every shape (for "room left")


@cache
def geometry(components: H.Components) -> Geometry:
    rows, cols = components.rows, components.cols
    full = (1 << (rows * cols)) - 1
    right = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))
    down = sum(1 << (r * cols + c) for r in range(rows - 1) for c in range(cols))
    masks = sorted({p.mask for shape in components.shapes for p in H.placed_shapes(shape, rows, cols)})
    return Geometry(rows, cols, full, right, down, min(len(s) for s in components.shapes), tuple(masks))


def _grow(f: int, geo: Geometry) -> int:
    r, d, cols = geo.right, geo.down, geo.cols
    return f | ((f & r) << 1) | ((f >> 1) & r) | ((f & d) << cols) | ((f >> cols) & d)


def _components(mask: int, geo: Geometry) -> list[int]:
    found = []
    while mask:
        part = mask & -mask
        while True:
            grown = _grow(part, geo) & mask
            if grown == part:
                break
            part = grown
        found.append(part)
        mask &= ~part
    return found


@dataclass
class Features:
    largest: dict[int, int]
    room: dict[int, int]  # empty squares next to each element's largest cluster
    empty: int
    dead: int
    pockets: int
    missing: int
    fits: int  # shape positions still open (a crude measure of how far the map is from full)


def element_masks(grid: H.Grid, geo: Geometry) -> dict[int, int]:
    masks = {e: 0 for e in (0, *ELEMENTS)}
    bit = 1
    for row in grid:
        for value in row:
            masks[value] |= bit
            bit <<= 1
    return masks


def features(masks: dict[int, int], geo: Geometry, count_fits: bool = False) -> Features:
    empty = masks[0]
    largest: dict[int, int] = {}
    room: dict[int, int] = {}
    for e in ELEMENTS:
        best, best_mask = 0, 0
        for part in _components(masks[e], geo):
            size = part.bit_count()
            if size > best:
                best, best_mask = size, part
        largest[e] = best
        room[e] = (_grow(best_mask, geo) & empty).bit_count() if best else 0
    dead = 0
    pockets = 0
    for part in _components(empty, geo):
        pockets += 1
        if part.bit_count() < geo.min_shape:
            dead += part.bit_count()
    fits = sum(1 for m in geo.shape_masks if m & empty == m) if count_fits else 0
    missing = sum(1 for e in ELEMENTS if not largest[e])
    return Features(largest, room, empty.bit_count(), dead, pockets, missing, fits)


def _challenge_points(grid: H.Grid, state: MultiplayerState) -> float:
    if not state.challenges:
        return 0.0
    breakdown = H.score(grid, state.challenges, state.components)
    return float(sum(breakdown.challenge_points.values()))


def _score_now(f: Features) -> float:
    return sum(f.largest.values()) - f.empty


def scorer_value(f: Features, context: dict[str, Any]) -> float:
    return _score_now(f) - MISSING_COST * f.missing - f.dead


def builder_value(f: Features, context: dict[str, Any]) -> float:
    growth = sum(min(4, f.room[e]) for e in ELEMENTS if f.largest[e])
    return sum(f.largest.values()) + 0.5 * growth - f.empty / 3 - 2.0 * f.dead - MISSING_COST * f.missing


def closer_value(f: Features, context: dict[str, Any]) -> float:
    value = _score_now(f) - MISSING_COST * f.missing - 2.5 * f.dead - 0.5 * max(0, f.pockets - 1)
    if context.get("ahead") and not f.missing:
        value -= 0.05 * f.fits  # fewer places left: the end (in its favour) comes sooner
    return value


STYLES = {"scorer": scorer_value, "builder": builder_value, "closer": closer_value}


def decide(state: MultiplayerState, seat: int, rng: np.random.Generator, style: str) -> list[H.Placement]:
    value_of = STYLES[style]
    legal = state.legal_actions()
    if len(legal) == 1:
        return [legal[0]]
    target = state.to_draw[0]
    own = target == seat
    geo = geometry(state.components)
    grid = state.maps[target]
    base = element_masks(grid, geo)
    context: dict[str, Any] = {}
    count_fits = False
    if style == "closer" and own:
        mine = features(base, geo)
        if not mine.missing:
            rivals = [
                _score_now(features(element_masks(state.maps[p], geo), geo))
                - MISSING_COST * features(element_masks(state.maps[p], geo), geo).missing
                for p in range(state.players)
                if p != seat
            ]
            context["ahead"] = _score_now(mine) > max(rivals)
            count_fits = bool(context["ahead"])
    values = []
    for placement in legal:
        mask = 0
        for r, c in placement.cells:
            mask |= 1 << (r * geo.cols + c)
        masks = dict(base)
        masks[0] &= ~mask
        masks[int(placement.element)] |= mask
        value = value_of(features(masks, geo, count_fits), context)
        if state.challenges:
            value += _challenge_points(H.fill(grid, placement.cells, placement.element), state)
        values.append(value if own else -value)
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - 1e-9]
    return [legal[ties[int(rng.integers(len(ties)))]]]


def scorer(state: MultiplayerState, seat: int, rng: np.random.Generator) -> list[H.Placement]:
    """The score if the game ended now, missing elements and dead squares penalised."""
    return decide(state, seat, rng, "scorer")


def builder(state: MultiplayerState, seat: int, rng: np.random.Generator) -> list[H.Placement]:
    """Largest clusters and their room to grow; empty squares cheap, dead ones dear."""
    return decide(state, seat, rng, "builder")


def closer(state: MultiplayerState, seat: int, rng: np.random.Generator) -> list[H.Placement]:
    """Compact maps; when complete and ahead, brings the end closer."""
    return decide(state, seat, rng, "closer")


PLAYERS = {"scorer": scorer, "builder": builder, "closer": closer}

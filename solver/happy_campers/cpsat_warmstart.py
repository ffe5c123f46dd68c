"""Greedy rollouts that give CP-SAT a good first solution (a hint) for clairvoyant play.

CP-SAT proves most bounds quickly once the drawn-squares totals are in the model; what costs time is
*finding* a map that reaches the bound. A few randomised greedy plays of the roll sequence, each move
chosen by a cheap local score (big shapes, growing an element's existing cluster, bringing in a missing
element, not leaving lonely empty squares), usually land within a few points of the optimum and let the
solver start from there. Only the rules model is used to play, so every hint is a legal play.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.core.geometry import Cell, neighbours
from solver.happy_campers.rules import (
    Challenge,
    Components,
    Element,
    Grid,
    Placement,
    fill,
    legal_placements,
    score,
)

#: Weights of the local move score (tuned by hand on random 15-roll sequences).
SQUARE_WEIGHT = 3.0
SAME_ELEMENT_CONTACT_WEIGHT = 1.5
NEW_ELEMENT_BONUS = 12.0
DETACHED_ELEMENT_PENALTY = 6.0
LONELY_EMPTY_PENALTY = 4.0
NOISE = 2.5


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
) -> tuple[int, list[Placement | None]] | None:
    """The best of `rollouts` randomised greedy forced plays: (rules score, placement per roll)."""
    best: tuple[int, list[Placement | None]] | None = None
    for _ in range(rollouts):
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
            chosen = moves[int(np.argmax(values))]
            grid = fill(grid, chosen.cells, chosen.element)
            plays.append(chosen)
        total = score(grid, challenges, components, festival_won=festival_won).total
        if best is None or total > best[0]:
            best = (total, plays)
    return best

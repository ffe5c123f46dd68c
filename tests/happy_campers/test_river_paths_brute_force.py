"""River Town's count of square-disjoint left-to-right water paths (`max_disjoint_rivers`, a max-flow) equals a
brute force on every water pattern of a 3x3 map and on seeded patterns of a 3x4 map: every simple path from a
left-border to a right-border water square, and the most of them that share no square. Written for a mutation
run's survivor (the max-flow's reverse edges given twice the capacity), which it does not kill: that mutant gave
the right count on every pattern tried (these and 510 random 4x4 to 5x5 ones)."""

from __future__ import annotations

import random

import pytest
from campsolver.solver.happy_campers.rules import max_disjoint_rivers


def brute_force(mask: int, rows: int, cols: int) -> int:
    water = {(r, c) for r in range(rows) for c in range(cols) if mask >> (r * cols + c) & 1}
    paths: list[frozenset] = []

    def extend(path: list, seen: set) -> None:
        r, c = path[-1]
        if c == cols - 1:
            paths.append(frozenset(path))
            return
        for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nxt in water and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                extend(path, seen)
                path.pop()
                seen.discard(nxt)

    for r in range(rows):
        if (r, 0) in water:
            extend([(r, 0)], {(r, 0)})

    def most(start: int, used: frozenset) -> int:
        best = 0
        for i in range(start, len(paths)):
            if not paths[i] & used:
                best = max(best, 1 + most(i + 1, used | paths[i]))
        return best

    return most(0, frozenset())


def test_every_3x3_water_pattern() -> None:
    wrong = {mask: (max_disjoint_rivers(mask, 3, 3), brute_force(mask, 3, 3)) for mask in range(1 << 9)}
    assert {m: pair for m, pair in wrong.items() if pair[0] != pair[1]} == {}


@pytest.mark.parametrize("seed", range(3))
def test_seeded_3x4_water_patterns(seed: int) -> None:
    rng = random.Random(seed)
    masks = [rng.getrandbits(12) | rng.getrandbits(12) for _ in range(60)]
    assert [max_disjoint_rivers(m, 3, 4) for m in masks] == [brute_force(m, 3, 4) for m in masks]

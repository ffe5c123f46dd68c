"""Instance builders shared by the Happy Campers maximum tests (`test_maximise`, `test_card_proofs`): tiny
maps, random rolls, and instances planted backwards from a perfect map, with the replay of a perfect-map play.
A test module imports these from here, never from another test module."""

from __future__ import annotations

from campsolver.solver.core.geometry import neighbours, placements
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import rules
from campsolver.solver.happy_campers.rules import Components

TINY_3x4 = Components(rows=3, cols=4)
TINY_4x4 = Components(rows=4, cols=4)


def random_rolls(rng, count: int) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(count, 2))]


def replay_plays(start: rules.Grid, rolls, plays, components: Components) -> rules.Grid:
    """Replay a perfect_play answer with the rules model, forced play included."""
    assert len(plays) == len(rolls)
    grid = start
    ended = False
    for roll, placement in zip(rolls, plays, strict=True):
        if placement is None:
            if not ended:
                assert not rules.can_draw(grid, roll, components)
            ended = True
            continue
        assert not ended
        assert placement.option in rules.roll_options(roll)
        grid = rules.draw(grid, placement, components)
    return grid


def random_tiling(rng, components: Components) -> list[tuple[frozenset, int]]:
    """A random tiling of the whole map by the five shapes: (cells, shape index) per piece."""
    rows, cols = components.rows, components.cols
    positions = [(cells, s) for s, shape in enumerate(components.shapes) for cells in placements(shape, rows, cols)]

    def fill(empty: set) -> list | None:
        if not empty:
            return []
        lowest = min(empty)
        options = [(cells, s) for cells, s in positions if lowest in cells and cells <= empty]
        for k in rng.permutation(len(options)):
            rest = fill(empty - options[k][0])
            if rest is not None:
                return [options[k], *rest]
        return None

    return fill({(r, c) for r in range(components.rows) for c in range(components.cols)})


#: Random tilings `planted_perfect_case` tries before it gives up.
PLANT_TILINGS = 500


def planted_perfect_case(seed: int, components: Components = TINY_4x4, challenges=(), tries: int = 200, bonus: int = 0):
    """A 4x4 instance built backwards from a perfect map: a random tiling, elements chosen so that each
    element is one cluster, the pieces in an order where each touches an earlier one, the first few
    pre-drawn and the rest as rolls. Every other instance has one roll replaced by a random roll, which
    often (not always) leaves no perfect finish, so both answers of the search get exercised. (Other
    `components` / `challenges`: the planted map must score the number of squares + `bonus` with those
    cards.)"""
    rng = rng_for(seed, "test_maximise", "planted")
    for _ in range(PLANT_TILINGS):
        pieces = random_tiling(rng, components)
        for _ in range(tries):
            elements = [rules.ELEMENTS[int(k)] for k in rng.integers(0, 5, size=len(pieces))]
            grid = rules.empty_grid(components)
            for (cells, _), element in zip(pieces, elements, strict=True):
                grid = rules.fill(grid, cells, element)
            if rules.score(grid, challenges, components).total == components.cell_count + bonus:
                break
        else:
            continue
        break
    else:  # a target no tiling meets (Quick Pee on 3x4) would otherwise loop for ever
        raise AssertionError(f"no planted map scores {components.cell_count + bonus} in {PLANT_TILINGS} tilings")
    order = [int(rng.integers(len(pieces)))]
    while len(order) < len(pieces):
        drawn = set().union(*(pieces[i][0] for i in order))
        around = {nb for cell in drawn for nb in neighbours(cell, components.rows, components.cols)}
        touching = [i for i in range(len(pieces)) if i not in order and pieces[i][0] & around]
        order.append(touching[int(rng.integers(len(touching)))])
    rolls = []
    for i in order:
        shape_face = pieces[i][1] + 1
        element_face = components.elements.index(elements[i]) + 1
        roll = [shape_face, element_face]
        if rng.random() < 0.2:
            roll[int(rng.integers(2))] = rules.ANY_FACE
        rolls.append(tuple(roll) if rng.random() < 0.5 else (roll[1], roll[0]))
    pre = int(rng.integers(1, len(order) - 1))
    start = rules.empty_grid(components)
    for i in order[:pre]:
        start = rules.fill(start, pieces[i][0], elements[i])
    rolls = rolls[pre:]
    if seed % 2:
        rolls[int(rng.integers(len(rolls)))] = random_rolls(rng, 1)[0]
    return start, rolls

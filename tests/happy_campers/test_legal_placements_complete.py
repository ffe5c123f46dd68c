"""The fast legality test (bitmasks of each shape's squares and of the squares around it) lists exactly the
drawings the rulebook's definition allows (`check_placement`: empty squares, orthogonally next to a drawn square),
on maps where the only drawn square sits above, below, left or right of the candidates, so each side of the
neighbour mask is needed. Found by the mutation run: the neighbour mask without the square above a shape left
every rules test passing."""

from __future__ import annotations

import pytest
from campsolver.solver.core.geometry import placements
from campsolver.solver.happy_campers.rules import (
    Components,
    Element,
    IllegalMove,
    Placement,
    check_placement,
    elements_for_face,
    empty_grid,
    fill,
    legal_placements,
    roll_options,
    shapes_for_face,
)

SMALL = Components(rows=4, cols=5)


def by_definition(grid, roll, components: Components) -> set[tuple[frozenset, Element]]:
    """Every drawing of the roll that check_placement accepts, from every position of every shape."""
    found = set()
    for option in roll_options(roll):
        for shape in shapes_for_face(option.shape_face, components):
            for cells in placements(shape, components.rows, components.cols):
                for element in elements_for_face(option.element_face, components):
                    try:
                        check_placement(grid, Placement(frozenset(cells), element, option), components)
                    except IllegalMove:
                        continue
                    found.add((frozenset(cells), element))
    return found


@pytest.mark.parametrize("drawn", [(0, 2), (3, 2), (1, 0), (2, 4), (1, 2)])
@pytest.mark.parametrize("roll", [(1, 1), (2, 3)])
def test_listed_drawings_are_exactly_the_rulebooks(drawn: tuple[int, int], roll: tuple[int, int]) -> None:
    grid = fill(empty_grid(SMALL), [drawn], Element.TENTS)
    listed = {(p.cells, p.element) for p in legal_placements(grid, roll, SMALL)}
    expected = by_definition(grid, roll, SMALL)
    assert expected, "the position allows some drawing"
    assert listed == expected

"""Quick Pee's cluster cut (`max_models._add_toilet_cluster_cut`) holds on every map, scored by the rules model.

The cut, lines with a toilet + largest toilet cluster <= 2 x toilets + 1, is a redundant constraint of the
clairvoyant model: if some map broke it, the model would cut that map off and its OPTIMAL could be wrong.
"""

from __future__ import annotations

from campsolver.solver.happy_campers import rules
from campsolver.solver.happy_campers.rules import Challenge, Element
from hypothesis import given, settings
from hypothesis import strategies as st

ROWS, COLS = rules.DEFAULT_COMPONENTS.rows, rules.DEFAULT_COMPONENTS.cols
# Toilets are drawn often (and empty squares often) so the maps range from a few scattered toilets to one
# long toilet cluster crossing the map.
SQUARE = st.sampled_from([Element.TOILETS] * 4 + [Element.EMPTY] * 2 + [Element.TREES, Element.WATER])


def _lines_and_toilets(grid: rules.Grid) -> tuple[int, int]:
    cells = [(r, c) for r in range(ROWS) for c in range(COLS) if grid[r][c] == Element.TOILETS]
    return len({r for r, _ in cells}) + len({c for _, c in cells}), len(cells)


@settings(max_examples=400, deadline=None)
@given(st.lists(SQUARE, min_size=ROWS * COLS, max_size=ROWS * COLS))
def test_toilet_lines_plus_counted_cluster_is_at_most_twice_the_toilets_plus_one(squares):
    grid = tuple(tuple(int(v) for v in squares[r * COLS : (r + 1) * COLS]) for r in range(ROWS))
    breakdown = rules.score(grid, [Challenge.QUICK_PEE])
    lines, toilets = _lines_and_toilets(grid)
    assert breakdown.challenge_points[Challenge.QUICK_PEE] == lines
    assert lines + breakdown.clusters[Element.TOILETS] <= 2 * toilets + 1


def test_a_straight_toilet_line_meets_the_cut_with_equality():
    """The cut is tight: one row of toilets (9 squares) reaches 1 + 9 lines, 10 + 9 = 2 x 9 + 1."""
    grid = tuple(tuple(int(Element.TOILETS if r == 2 else Element.TREES) for _ in range(COLS)) for r in range(ROWS))
    lines, toilets = _lines_and_toilets(grid)
    assert lines + rules.score(grid, [Challenge.QUICK_PEE]).clusters[Element.TOILETS] == 2 * toilets + 1

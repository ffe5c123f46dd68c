"""Hypothesis properties of the Happy Campers rules model, checked against independent recomputations."""

from __future__ import annotations

from itertools import combinations

from campsolver.solver.core.geometry import components as geometry_components
from campsolver.solver.core.geometry import is_connected
from campsolver.solver.happy_campers.rules import (
    ELEMENTS,
    Challenge,
    Components,
    Element,
    check_placement,
    divide_sides,
    draw,
    empty_grid,
    legal_placements,
    max_disjoint_rivers,
    max_disjoint_tent_squares,
    score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=40, deadline=None)
SIZES = st.tuples(st.integers(3, 6), st.integers(3, 7))
ROLLS = st.tuples(st.integers(1, 6), st.integers(1, 6))
ANY_SQUARE = st.integers(0, 5)


def grids(rows: int, cols: int, values=ANY_SQUARE):
    return st.lists(st.lists(values, min_size=cols, max_size=cols), min_size=rows, max_size=rows).map(
        lambda rows_: tuple(tuple(r) for r in rows_)
    )


@SETTINGS
@given(size=SIZES, data=st.data())
def test_random_play_never_overlaps_and_stays_connected(size, data):
    components = Components(rows=size[0], cols=size[1])
    grid = empty_grid(components)
    for _ in range(data.draw(st.integers(1, 8))):
        roll = data.draw(ROLLS)
        moves = legal_placements(grid, roll, components)
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        check_placement(grid, move, components)  # every listed move passes the independent check
        before = {(r, c) for r in range(size[0]) for c in range(size[1]) if grid[r][c]}
        assert not move.cells & before
        assert not before or any(
            (r + dr, c + dc) in before for r, c in move.cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        grid = draw(grid, move, components)
        after = {(r, c) for r in range(size[0]) for c in range(size[1]) if grid[r][c]}
        assert after == before | move.cells
        assert is_connected(after)
        assert all(grid[r][c] == move.element for r, c in move.cells)


def independent_score(grid, components: Components) -> tuple[dict, int]:
    largest = {}
    for element in ELEMENTS:
        cells = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == element]
        largest[element] = max((len(p) for p in geometry_components(cells)), default=0)
    empties = sum(v == 0 for row in grid for v in row)
    return largest, empties


@SETTINGS
@given(size=SIZES, data=st.data())
def test_score_is_largest_clusters_minus_empties_when_complete(size, data):
    rows, cols = size
    grid = data.draw(grids(rows, cols))
    components = Components(rows=rows, cols=cols)
    largest, empties = independent_score(grid, components)
    result = score(grid, (), components)
    assert result.clusters == largest
    assert result.empty_points == -empties
    complete = all(largest[e] > 0 for e in ELEMENTS)
    assert result.complete == complete
    assert result.total == (sum(largest.values()) - empties if complete else 0)


@SETTINGS
@given(size=SIZES, data=st.data())
def test_full_complete_map_scores_the_sum_of_largest_clusters(size, data):
    rows, cols = size
    grid = data.draw(grids(rows, cols, st.integers(1, 5)))
    flat = [v for row in grid for v in row]
    flat[:5] = [1, 2, 3, 4, 5]  # make sure every element is there
    grid = tuple(tuple(flat[r * cols : (r + 1) * cols]) for r in range(rows))
    components = Components(rows=rows, cols=cols)
    largest, _ = independent_score(grid, components)
    assert score(grid, (), components).total == sum(largest.values())


@SETTINGS
@given(size=SIZES, data=st.data())
def test_great_divide_only_ever_zeroes_a_score(size, data):
    rows, cols = size
    grid = data.draw(grids(rows, cols))
    components = Components(rows=rows, cols=cols)
    plain = score(grid, (), components)
    divided = score(grid, (Challenge.GREAT_DIVIDE,), components)
    left, right = divide_sides(cols)
    sides_ok = all(
        {grid[r][c] for r in range(rows) for c in side} >= {int(e) for e in ELEMENTS} for side in (left, right)
    )
    assert divided.complete == (plain.complete and sides_ok)
    assert divided.total == (plain.total if divided.complete else 0)


def brute_tent_squares(mask: int, rows: int, cols: int) -> int:
    corners = [
        (r, c)
        for r in range(rows - 1)
        for c in range(cols - 1)
        if all(mask >> ((r + dr) * cols + c + dc) & 1 for dr in (0, 1) for dc in (0, 1))
    ]
    for k in range(len(corners), 0, -1):
        for chosen in combinations(corners, k):
            if all(abs(a[0] - b[0]) > 1 or abs(a[1] - b[1]) > 1 for a, b in combinations(chosen, 2)):
                return k
    return 0


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), data=st.data())
def test_tent_together_matches_brute_force(rows, cols, data):
    mask = data.draw(st.integers(0, (1 << (rows * cols)) - 1))
    # Bias towards many tents so that squares actually appear.
    mask |= data.draw(st.integers(0, (1 << (rows * cols)) - 1))
    assert max_disjoint_tent_squares(mask, rows, cols) == brute_tent_squares(mask, rows, cols)


def brute_rivers(mask: int, rows: int, cols: int) -> int:
    """Every simple left-to-right water path, then the largest set of pairwise square-disjoint ones."""
    water = {(r, c) for r in range(rows) for c in range(cols) if mask >> (r * cols + c) & 1}
    paths: set[frozenset] = set()

    def extend(path: list, seen: set) -> None:
        r, c = path[-1]
        if c == cols - 1:
            paths.add(frozenset(path))
            return  # a river that reached the right border: longer ones only use more squares
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in water and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                extend(path, seen)
                path.pop()
                seen.remove(nxt)

    for r in range(rows):
        if (r, 0) in water:
            extend([(r, 0)], {(r, 0)})
    minimal = sorted(paths, key=len)

    def best(index: int, used: frozenset) -> int:
        top = 0
        for k in range(index, len(minimal)):
            if not minimal[k] & used:
                top = max(top, 1 + best(k + 1, used | minimal[k]))
        return top

    return best(0, frozenset())


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 3), cols=st.integers(1, 4), data=st.data())
def test_river_town_matches_brute_force(rows, cols, data):
    mask = data.draw(st.integers(0, (1 << (rows * cols)) - 1))
    mask |= data.draw(st.integers(0, (1 << (rows * cols)) - 1))
    assert max_disjoint_rivers(mask, rows, cols) == brute_rivers(mask, rows, cols)


@SETTINGS
@given(size=SIZES, data=st.data())
def test_per_square_challenges_match_a_direct_count(size, data):
    rows, cols = size
    grid = data.draw(grids(rows, cols))
    components = Components(rows=rows, cols=cols)
    result = score(
        grid,
        (Challenge.PRIVACY, Challenge.DANGEROUS_ANIMALS, Challenge.QUICK_PEE, Challenge.NATURE_RESERVE),
        components,
    )
    edge = [(r, c) for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)]
    assert result.challenge_points[Challenge.PRIVACY] == sum(grid[r][c] == Element.TREES for r, c in edge)
    assert result.challenge_points[Challenge.DANGEROUS_ANIMALS] == -sum(grid[r][c] == Element.TENTS for r, c in edge)
    toilets = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == Element.TOILETS]
    assert result.challenge_points[Challenge.QUICK_PEE] == len({r for r, _ in toilets}) + len({c for _, c in toilets})
    empties = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == 0]
    isolated = sum(1 for piece in geometry_components(empties) if len(piece) == 1)
    assert result.challenge_points[Challenge.NATURE_RESERVE] == 3 * isolated

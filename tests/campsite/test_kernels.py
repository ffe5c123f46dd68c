"""The compiled loops of the round bounds (`campsite.kernels`) compute exactly what the array expressions they
replaced computed: each is held equal to a plain numpy reference (the earlier code, kept here) on random inputs and
on the squares of random legal rounds. That the bounds built on them are bounds is tests/campsite/test_round_bound.py's
(against the rules model)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest
from campsolver.solver.campsite import round_board as B
from campsolver.solver.campsite import round_bound as RB
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.rules import FAIR_WEATHER_FACTOR, SURROUNDING, Token

from tests.campsite.test_round_board import picture_of
from tests.campsite.test_round_bound import random_round

_NEG = np.int16(-1000)
_TERRAIN_SHIFTS = np.arange(B.TERRAINS, dtype=np.uint8)


def reference_around(
    bits: np.ndarray, col: np.ndarray, fair_squares: np.ndarray, cov: np.ndarray, i0: int, i1: int, j0: int, j1: int
) -> B.Around:
    lead = bits.shape[:-2]
    h, w = i1 - i0, j1 - j0
    rows, cols = slice(i0 - 1, i1 + 1), slice(j0 - 1, j1 + 1)
    near_bits = bits[..., rows, cols]
    terrain = (near_bits[None] >> _TERRAIN_SHIFTS.reshape((B.TERRAINS,) + (1,) * near_bits.ndim)) & 1
    open_squares = (~col[..., rows, cols]).astype(np.uint16)
    near_fair = fair_squares[..., rows, cols]
    near_fair_coloured = near_fair & col[..., rows, cols]
    counts = np.zeros((B.TERRAINS, *lead, h, w), dtype=np.int16)
    seen = np.zeros((*lead, h, w), dtype=np.uint8)
    open_mask = np.zeros((*lead, h, w), dtype=np.uint16)
    fair = np.zeros((*lead, h, w), dtype=bool)
    fair_coloured = np.zeros((*lead, h, w), dtype=bool)
    for bit, (dr, dc) in enumerate(SURROUNDING):
        window = (Ellipsis, slice(1 + dr, 1 + dr + h), slice(1 + dc, 1 + dc + w))
        counts += terrain[window]
        seen |= near_bits[window]
        open_mask |= open_squares[window] << np.uint16(bit)
        fair |= near_fair[window]
        fair_coloured |= near_fair_coloured[window]
    centre = (Ellipsis, slice(i0, i1), slice(j0, j1))
    return B.Around(counts, seen, open_mask, fair, ~cov[centre], ~col[centre], fair_coloured)


def reference_potentials(
    tables: RB.CoverTables, tokens: Sequence[Token], key: tuple[int, ...], squares: RB.Squares
) -> np.ndarray:
    around = squares.around
    order = tables.order
    fair = around.fair
    plain_table, doubled_table = tables.for_set(key, squares)
    fair_to_come = any(order[i].fair_weather for i in key)
    plain, dbl = plain_table[:, squares.keys], doubled_table[:, squares.keys]
    if squares.room is not None:
        plain = np.where(plain >= 0, np.minimum(plain, squares.room), plain)
        dbl = np.where(dbl >= 0, np.minimum(dbl, squares.room), dbl)
    current = around.counts
    with_plain = np.where(plain >= 0, current + plain, _NEG)
    with_room = np.where(plain >= 0, current + np.minimum(plain, squares.open_count - 1), _NEG)
    kept_now = np.maximum(with_plain, FAIR_WEATHER_FACTOR * with_room)
    value = np.where(around.fair_coloured, FAIR_WEATHER_FACTOR * with_plain, np.where(fair, kept_now, with_plain))
    if fair_to_come:
        with_double = np.where(dbl >= 0, FAIR_WEATHER_FACTOR * (current + dbl), _NEG)
        value = np.maximum(value, with_double)
    terrain_values = np.maximum(value, 0)
    seen_count = B._POPCOUNT6[around.seen]
    rows = []
    for token in tokens:
        if token is Token.WILDERNESS:
            terrains = 0
            for i in key:
                terrains |= order[i].mask
            new = np.minimum(
                np.minimum(RB.TERRAINS_PER_SQUARE * squares.open_count, RB.TERRAINS_PER_SQUARE * len(key)),
                B._POPCOUNT6[np.uint8(terrains) & ~around.seen],
            )
            base = np.minimum(RB.WILDERNESS_CAP, seen_count + new)
            doubled = (fair | (squares.open_count > 0)) if fair_to_come else fair
            wild = np.where(doubled, FAIR_WEATHER_FACTOR * base, base)
            rows.append(np.where(around.bare, 0, wild) if not key else wild)
        else:
            rows.append(terrain_values[int(token)])
    return np.where(around.free, np.stack(rows), 0).astype(np.int16)


def reference_window_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    rows, cols = grid.shape[1] - height + 1, grid.shape[2] - width + 1
    out = np.zeros((grid.shape[0], rows, cols), dtype=grid.dtype)
    for i in range(rows):
        for j in range(cols):
            out[:, i, j] = grid[:, i : i + height, j : j + width].max(axis=(1, 2))
    return out


def assert_around_equal(found: B.Around, expected: B.Around) -> None:
    for field in ("counts", "seen", "open_mask", "fair", "bare", "free", "fair_coloured"):
        got, want = getattr(found, field), getattr(expected, field)
        assert got.shape == want.shape and got.dtype == want.dtype, field
        assert np.array_equal(got, want), field


@pytest.mark.parametrize("lead", [(), (3,), (2, 2)])
def test_neighbourhoods_equal_the_array_reference_on_random_squares(lead: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(lead))
    for _ in range(20):
        shape = (*lead, int(rng.integers(4, 12)), int(rng.integers(4, 12)))
        col = rng.random(shape) < 0.5
        bits = np.where(col, rng.integers(0, 64, shape), 0).astype(np.uint8)
        fair = rng.random(shape) < 0.2
        cov = col | (rng.random(shape) < 0.5)
        i0, j0 = int(rng.integers(1, 3)), int(rng.integers(1, 3))
        i1, j1 = shape[-2] - int(rng.integers(1, 3)), shape[-1] - int(rng.integers(1, 3))
        expected = reference_around(bits, col, fair, cov, i0, i1, j0, j1)
        assert_around_equal(B._around(bits, col, fair, cov, i0, i1, j0, j1), expected)


def test_window_and_outside_maxima_equal_the_reference_on_random_grids() -> None:
    rng = np.random.default_rng(5)
    for _ in range(30):
        grid = rng.integers(0, 40, (7, int(rng.integers(5, 14)), int(rng.integers(5, 14)))).astype(np.int16)
        for height, width in ((4, 5), (5, 4), (1, 1), (grid.shape[1], 3)):
            assert np.array_equal(RB.window_max(grid, height, width), reference_window_max(grid, height, width))
            found = RB.outside_max(grid, height, width)
            for i in range(grid.shape[1] - height + 1):
                for j in range(grid.shape[2] - width + 1):
                    mask = np.ones(grid.shape[1:], dtype=bool)
                    mask[i : i + height, j : j + width] = False
                    expected = grid[:, mask].max(axis=1) if mask.any() else np.zeros(7, dtype=np.int16)
                    assert found[:, i, j].tolist() == expected.tolist()


@pytest.mark.parametrize("seed", range(4))
def test_potentials_equal_the_array_reference_along_random_rounds(seed: int) -> None:
    """Card sets of up to three cards to come, every token: on the region of each prefix of a random round, and on
    the reaches of the next play's card at the legal corners (as a child's squares, and as a card laid ahead of its
    turn: `Squares.placed`, the squares open before it as the room)."""
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3
    plays = random_round(order, turns, rng)
    frame = B.Frame(turns)
    board = B.start_board(order, frame)
    tables = RB.CoverTables(order)
    tokens = list(R.Token)
    hand = [2, 3, 4]
    checked = 0
    for turn in range(turns):
        region = RB.Region(board)
        pool = hand + list(range(5 + turn, min(len(order), 5 + turns)))
        sets = sorted({tuple(sorted(c)) for size in range(4) for c in itertools.combinations(pool, size)})
        placement = plays[turn]
        index = next(i for i in hand if order[i] == placement.card)
        picture = picture_of(index, placement)
        corners = board.legal_corners(picture.shape)
        coloured = np.repeat(picture.coloured[None], corners.shape[0], axis=0)
        laid = B.stacked_reach(board, coloured, order[index], corners, 0)
        before = B.stacked_reach(board, np.zeros_like(coloured), order[index], corners, 0).open_mask
        for squares in (region.squares, RB.Squares.of(laid), RB.Squares.placed(laid, before)):
            for key in sets[:: max(1, len(sets) // 8)]:
                expected = reference_potentials(tables, tokens, key, squares)
                found = RB.potential_values(tables, tokens, key, squares)
                assert found.shape == expected.shape and found.dtype == expected.dtype
                assert np.array_equal(found, expected), (turn, key)
                checked += 1
        board.lay(picture, *frame.index((placement.row, placement.col)), turn + 1)
        hand.remove(index)
        hand.append(5 + turn)
    assert checked >= 60


def test_top_sums_and_pareto_rows_are_the_brute_force() -> None:
    """The largest entries summed per column (any count, ties and repeats included), and the rows kept as
    undominated: exactly the distinct rows no other row is at least everywhere."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        tokens, n = int(rng.integers(1, 8)), int(rng.integers(1, 30))
        values = rng.integers(0, 6, (tokens, n)).astype(np.int16)
        count = int(rng.integers(1, 9))
        brute = [sum(sorted(values[:, c].tolist(), reverse=True)[:count]) for c in range(n)]
        assert RB.top_sum(values, count).tolist() == brute
        assert int(RB.top_sum(values[:, 0], count)) == brute[0]
        rows = values.T.copy()
        distinct = {tuple(row) for row in rows.tolist()}
        undominated = {
            row for row in distinct if not any(other != row and all(map(int.__ge__, other, row)) for other in distinct)
        }
        kept = [tuple(row) for row in RB.pareto_rows(rows).tolist()]
        assert len(kept) == len(set(kept)) and set(kept) == undominated
        sums = [sum(row) for row in kept]
        assert sums == sorted(sums, reverse=True)  # largest sum first
    assert RB.top_sum(np.ones((3, 4), dtype=np.int16), 0).tolist() == [0, 0, 0, 0]
    with pytest.raises(TypeError):
        RB.top_sum(np.zeros((3, 2), dtype=np.int64), 2)  # potentials are int16: anything else is a caller's bug


def test_coupled_top_sums_are_the_brute_force() -> None:
    """For each row u: the largest over the option rows v of the `count` largest entries of max(u, v) summed, with
    entries at the no-cover value (NEG, far below zero), any count (0, up to and beyond the tokens) and no rows."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        tokens, n, m = int(rng.integers(1, 8)), int(rng.integers(0, 6)), int(rng.integers(1, 6))
        near = rng.integers(0, 9, (n, tokens)).astype(np.int16)
        options = rng.integers(0, 9, (m, tokens)).astype(np.int16)
        near[rng.random((n, tokens)) < 0.3] = _NEG
        options[rng.random((m, tokens)) < 0.3] = _NEG
        count = int(rng.integers(0, tokens + 3))
        brute = [
            max(sum(sorted(map(max, u, v), reverse=True)[:count]) for v in options.tolist()) for u in near.tolist()
        ]
        assert RB.coupled_top_sum(near, options, count).tolist() == brute
    with pytest.raises(ValueError):
        RB.coupled_top_sum(np.zeros((2, 3), dtype=np.int16), np.zeros((0, 3), dtype=np.int16), 2)

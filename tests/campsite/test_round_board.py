"""The round maximum's array table (`round_board`) is the rules model's table, seen faster: on random states reached
by legal play (random rounds through the rules model), every legal placement, the points of every token on every
free square, the laying turn of every square, and the squares a placement changes are the rules model's.
"""

from __future__ import annotations

import random

import numpy as np
from campsolver.solver.campsite import round_board as B
from campsolver.solver.campsite import rules as R
from hypothesis import given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=25, deadline=None)


def picture_of(index: int, placement: R.Placement) -> B.Picture:
    squares = tuple(sorted(R.Placement(placement.card, 0, 0, placement.rotation).squares().items()))
    return next(p for p in B.card_pictures(index, placement.card) if p.squares == squares)


def random_state(seed: int, turns: int, laid: int) -> tuple[list[R.Card], R.Table, B.Board, list[int], int]:
    """`laid` random legal placements of a solo round (rules model), mirrored on the board."""
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    frame = B.Frame(turns)
    board = B.start_board(order, frame)
    table = R.starting_table(order[0], order[1])
    hand, drawn = [2, 3, 4], 5
    for turn in range(1, laid + 1):
        placement = rng.choice(table.legal_placements([order[i] for i in hand]))
        index = next(i for i in hand if order[i] == placement.card)
        table = table.place(placement)
        board.lay(picture_of(index, placement), *frame.index((placement.row, placement.col)), turn)
        hand.remove(index)
        hand.append(drawn)
        drawn += 1
    return order, table, board, hand, drawn


def board_placements(board: B.Board, order: list[R.Card], hand: list[int]) -> set[tuple]:
    found = set()
    for index in hand:
        for picture in B.card_pictures(index, order[index]):
            for i, j in board.legal_corners(picture.shape).tolist():
                row, col = board.frame.cell(i, j)
                placement = R.Placement(order[index], row, col, picture.rotation)
                found.add(placement.signature())
    return found


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 7), data=st.data())
def test_legal_placements_are_the_rules_models(seed: int, turns: int, data: st.DataObject) -> None:
    laid = data.draw(st.integers(0, turns - 1))
    order, table, board, hand, _ = random_state(seed, turns, laid)
    theirs = {p.signature() for p in table.legal_placements([order[i] for i in hand])}
    assert board_placements(board, order, hand) == theirs
    # Every place a card may ever lie covers no coloured square: the legal corners are among them.
    for shape in (0, 1):
        legal = {tuple(c) for c in board.legal_corners(shape).tolist()}
        height, width = board.frame.shape
        anywhere = {tuple(c) for c in board.open_corners(shape, 0, height, 0, width).tolist()}
        assert legal <= anywhere


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 7), data=st.data())
def test_points_and_laying_turns_are_the_rules_models(seed: int, turns: int, data: st.DataObject) -> None:
    laid = data.draw(st.integers(0, turns))
    _, table, board, _, _ = random_state(seed, turns, laid)
    found = B.final_squares(board, list(R.Token))
    assert {cell for cell, _, _ in found} == set(table.free_squares())
    for cell, time, points in found:
        layer = table.grid[cell].layer
        assert time == max(0, layer - 1)  # layers 0 and 1 are the starting cards (turn 0)
        for token, value in zip(R.Token, points, strict=True):
            base, doubled = R.tent_points(table.grid, token, cell)
            assert value == base * (R.FAIR_WEATHER_FACTOR if doubled else 1)


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(2, 7), data=st.data())
def test_a_placement_changes_only_its_reach_and_reach_squares_are_a_recount(
    seed: int, turns: int, data: st.DataObject
) -> None:
    laid = data.draw(st.integers(0, turns - 1))
    order, table, board, hand, _ = random_state(seed, turns, laid)
    rng = random.Random(seed + 1)
    placement = rng.choice(table.legal_placements([order[i] for i in hand]))
    index = next(i for i in hand if order[i] == placement.card)
    picture = picture_of(index, placement)
    i, j = board.frame.index((placement.row, placement.col))
    (i0, i1, j0, j1), changed = board.reach_squares(picture, i, j, laid + 1, list(R.Token))
    after = table.place(placement)
    before = {cell: points for cell, _, points in B.final_squares(board, list(R.Token))}
    child = board.child(picture, i, j, laid + 1)
    full = {cell: (time, points) for cell, time, points in B.final_squares(child, list(R.Token))}
    assert {cell for cell, _, _ in changed} == {
        cell for cell in full if i0 <= cell[0] + board.frame.origin < i1 and j0 <= cell[1] + board.frame.origin < j1
    }
    for cell, time, points in changed:
        assert full[cell] == (time, points)
    for cell, (_, points) in full.items():
        inside = i0 <= cell[0] + board.frame.origin < i1 and j0 <= cell[1] + board.frame.origin < j1
        if not inside:
            assert before[cell] == points  # squares out of the reach keep their points
    assert set(full) == set(after.free_squares())
    # Many placements at once (the bound's stacked reaches) equal one at a time.
    stacked = B.stacked_reach(board, picture.coloured[None], placement.card, np.array([[i, j]]), 0)
    points = stacked.points(list(R.Token))
    for cell, _, values in changed:
        a, b = cell[0] + board.frame.origin - i0, cell[1] + board.frame.origin - j0
        assert points[:, 0, a, b].tolist() == values


def test_the_frame_holds_every_card_of_a_round() -> None:
    """Cards of a T-turn round lie within the starting box grown by 3 squares a turn: the frame's box."""
    rng = random.Random(7)
    for _ in range(20):
        _, table, board, _, _ = random_state(rng.randrange(10**6), 7, 7)
        assert all(board.frame.inside(cell) for placement in table.placements for cell in placement.squares())

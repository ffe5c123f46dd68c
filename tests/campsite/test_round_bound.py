"""The round search's bounds are bounds: along legal rounds (random ones, and strong ones where the bounds are nearly
tight), at every prefix, the node's own bound, its children's bounds and the highest bound among the root's children
are at least the best tents of the final table the round reaches (scored by the rules model through `round_board`,
itself held equal to the rules model), and the search never leaves out the placement the round made.
"""

from __future__ import annotations

import random

import pytest
from campsolver.solver.campsite import round_board as B
from campsolver.solver.campsite import round_bound as RB
from campsolver.solver.campsite import round_search as RS
from campsolver.solver.campsite import rules as R
from campsolver.solver.core.budget import Budget, CpuBudget

from tests.campsite.test_round_board import picture_of


def random_round(order: list[R.Card], turns: int, rng: random.Random) -> list[R.Placement]:
    table = R.starting_table(order[0], order[1])
    hand, drawn, plays = list(order[2:5]), 5, []
    for _ in range(turns):
        placement = rng.choice(table.legal_placements(hand))
        table = table.place(placement)
        hand.remove(placement.card)
        hand.append(order[drawn])
        drawn += 1
        plays.append(placement)
    return plays


def strong_round(order: list[R.Card], turns: int) -> list[R.Placement]:
    """A good round (the search's best within 4 CPU-s): where the bounds come closest to the value."""
    found = RS.search_round(order, turns, CpuBudget(4))  # CPU seconds: the same search on a loaded machine
    assert found.placements, "the search found no round"
    return found.placements


def final_value(order: list[R.Card], plays: list[R.Placement], turns: int, tokens: list[R.Token]) -> int:
    """The best tents of the final table (rules-model points, laying turns as played)."""
    frame = B.Frame(turns)
    board = B.start_board(order, frame)
    hand = [2, 3, 4]
    for turn, placement in enumerate(plays, start=1):
        index = next(i for i in hand if order[i] == placement.card)
        board.lay(picture_of(index, placement), *frame.index((placement.row, placement.col)), turn)
        hand.remove(index)
        hand.append(4 + turn)
    return RS.best_tents(B.final_squares(board, tokens), len(tokens), turns)


@pytest.mark.parametrize("seed", range(8))
def test_bounds_hold_along_legal_rounds(seed: int) -> None:
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3 + seed % 2
    plays = strong_round(order, turns) if seed % 2 else random_round(order, turns, rng)
    tokens = list(R.Token)
    value = final_value(order, plays, turns, tokens)
    assert value >= 0
    search = RS._Search(order, turns, 3, tokens, Budget(300))
    board, hand, drawn = RS._start(search)
    assert RS.root_bound(order, turns, Budget(60)) >= value
    assert RS.first_level_bound(order, turns, Budget(300)) >= value
    for depth, placement in enumerate(plays):
        left = turns - depth
        assert search.own_bound(board, hand, drawn, left) >= value, depth
        children = search.children(board, hand, drawn, left)  # best = -1: every legal placement, bounded
        key = search.card_key[next(i for i in hand if order[i] == placement.card)]
        picture = picture_of(key, placement)
        i, j = board.frame.index((placement.row, placement.col))
        mine = [c for c in children if search.card_key[c.index] == key and (c.i, c.j) == (i, j)
                and c.picture.squares == picture.squares]
        assert len(mine) == 1, (depth, placement.label())  # the round's placement is searched, once
        assert mine[0].bound >= value, (depth, mine[0].bound, value)
        index = mine[0].index
        board = board.child(mine[0].picture, i, j, depth + 1)
        hand = (*(h for h in hand if h != index), drawn)
        drawn += 1
    # The leaf: the search's exact score of the final table is the value.
    assert RS.best_tents(B.final_squares(board, tokens), len(tokens), turns) == value


@pytest.mark.parametrize("seed", range(6))
def test_each_token_potential_is_at_least_its_final_points(seed: int) -> None:
    """Per token, the best potential with the cards the round lays later is at least the token's best rules-model
    points on a free square of the final table, at every prefix."""
    rng = random.Random(100 + seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3 + seed % 3
    plays = random_round(order, turns, rng)
    final = R.table_from_placements([*R.starting_table(order[0], order[1]).placements, *plays])
    tokens = list(R.Token)
    best_final = []
    for token in tokens:
        points = [R.tent_points(final.grid, token, cell) for cell in final.free_squares()]
        best_final.append(max(base * (R.FAIR_WEATHER_FACTOR if doubled else 1) for base, doubled in points))
    search = RS._Search(order, turns, 3, tokens, Budget(300))
    board, hand, _ = RS._start(search)
    hand = list(hand)
    indices = []
    for placement in plays:
        index = next(i for i in hand if order[i] == placement.card)
        indices.append(index)
        hand.remove(index)
        hand.append(4 + len(indices) + 0)
    for depth in range(turns + 1):
        potentials = search.potentials(board)
        maxima = potentials.maxima(tuple(indices[depth:]))
        assert all(m >= f for m, f in zip(maxima.tolist(), best_final, strict=True)), (depth, maxima, best_final)
        if depth < turns:
            placement = plays[depth]
            corner = board.frame.index((placement.row, placement.col))
            board = board.child(picture_of(indices[depth], placement), *corner, depth + 1)


def test_outside_max_is_the_maximum_out_of_each_window() -> None:
    rng = random.Random(3)
    import numpy as np

    grid = np.array([[[rng.randrange(20) for _ in range(9)] for _ in range(7)] for _ in range(2)], dtype=np.int16)
    for height, width in ((4, 5), (5, 4), (7, 9)):
        found = RB.outside_max(grid, height, width)
        for i in range(7 - height + 1):
            for j in range(9 - width + 1):
                mask = np.ones((7, 9), dtype=bool)
                mask[i : i + height, j : j + width] = False
                expected = grid[:, mask].max(axis=1) if mask.any() else np.zeros(2)
                assert found[:, i, j].tolist() == expected.tolist()


def test_coupled_top_sum_and_pareto_rows_are_the_brute_force() -> None:
    import numpy as np

    rng = random.Random(5)
    for _ in range(20):
        near = np.array([[rng.randrange(10) for _ in range(5)] for _ in range(6)], dtype=np.int16)
        options = np.array([[rng.randrange(10) for _ in range(5)] for _ in range(9)], dtype=np.int16)
        turns = rng.randint(1, 5)
        brute = [max(sum(sorted(np.maximum(u, v).tolist())[5 - turns :]) for v in options) for u in near]
        assert RB.coupled_top_sum(near, options, turns).tolist() == brute
        assert RB.coupled_top_sum(near, RB.pareto_rows(options), turns).tolist() == brute

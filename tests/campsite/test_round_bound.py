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
    search = RS._Search(order, turns, 3, tokens, CpuBudget(300))
    board, hand, drawn = RS._start(search)
    assert RS.root_bound(order, turns, CpuBudget(60)) >= value
    assert RS.first_level_bound(order, turns, CpuBudget(300)) >= value
    for depth, placement in enumerate(plays):
        left = turns - depth
        assert search.own_bound(board, hand, drawn, left) >= value, depth
        children = search.children(board, hand, drawn, left)  # best = -1: every legal placement, bounded
        key = search.card_key[next(i for i in hand if order[i] == placement.card)]
        picture = picture_of(key, placement)
        i, j = board.frame.index((placement.row, placement.col))
        mine = [
            c
            for c in children
            if search.card_key[c.index] == key and (c.i, c.j) == (i, j) and c.picture.squares == picture.squares
        ]
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
    search = RS._Search(order, turns, 3, tokens, CpuBudget(300))
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


# --- The bound with each card to come laid once (`placed_card_bound`) against exhaustive optima --------------------


def _card_once_parts(order: list[R.Card], turns: int, hand_size: int, tokens: list[R.Token]):
    search = RS._Search(order, turns, hand_size, tokens, CpuBudget(300))  # CPU: never spent on a loaded machine
    board, hand, drawn = RS._start(search)
    pool = search.pool(hand, drawn, turns)
    pictures = {i: {shape: search.coloured[(i, shape)] for shape in search.by_shape[i]} for i in pool}
    return search, board, hand, drawn, pool, pictures


@pytest.mark.parametrize("seed", range(30))
def test_one_card_laid_in_one_place_bounds_the_best_turn_with_it(seed: int) -> None:
    """One turn, exhaustively: for every card of the hand, its bound laid in one place (every picture at every
    corner near the table, tokens on the squares it reaches or anywhere else) is at least the best turn with that
    card (the rules model's exact enumeration), and the node's bound at least the best turn."""
    from campsolver.solver.campsite.evaluate import best_turn_search

    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    tokens = rng.sample(list(R.Token), rng.randint(1, 7))
    search, board, hand, drawn, _pool, pictures = _card_once_parts(order, 1, 3, tokens)
    table = R.starting_table(order[0], order[1])
    potentials = search.potentials(board)
    corners = {shape: RB.near_corners(board, shape) for shape in (0, 1)}
    best = 0
    for index in hand:
        exact = best_turn_search(table, [order[index]], tokens, 0, 1, Budget(300))
        assert not exact.interrupted
        value = RB.fixed_card_values(potentials, board, index, [], pictures[index], corners, 1)
        assert value >= exact.plays[0].score, (index, value, exact.plays[0].score)
        best = max(best, exact.plays[0].score)
    assert search.own_bound(board, hand, drawn, 1) >= best


def _check_two_turns_card_once(seed: int) -> None:
    from tests.campsite.test_best_round import dense_order, exhaustive_two_turns

    rng = random.Random(seed)
    order = dense_order(seed) if seed % 2 else list(R.default_deck())
    if not seed % 2:
        rng.shuffle(order)
    tokens = rng.sample(list(R.Token), rng.randint(2, 3))
    optimum = exhaustive_two_turns(order, 1, tokens)
    search, board, hand, drawn, pool, pictures = _card_once_parts(order, 2, 1, tokens)
    potentials = search.potentials(board)
    corners = {shape: RB.near_corners(board, shape) for shape in (0, 1)}
    assert len(pool) == 2  # a hand of one and the one draw: both are laid
    for fixed in pool:
        free = [i for i in pool if i != fixed]
        value = RB.fixed_card_values(potentials, board, fixed, free, pictures[fixed], corners, 2)
        assert value >= optimum, (fixed, value, optimum)
    bound = search.own_bound(board, hand, drawn, 2)
    assert optimum <= bound <= RB.node_bound(potentials, pool, 2, 2)


@pytest.mark.parametrize("seed", [0, 1, 3])  # the cheap ones (default-deck seed 2's exhaustive search is ~15 CPU-s)
def test_the_card_once_bound_is_never_below_the_exhaustive_two_turn_optimum(seed: int) -> None:
    """Two-turn rounds with a hand of one (both cards are laid) and 2-3 tokens, the optimum by exhaustive search
    through the rules model (every first play, then the exact best second turn): each card's bound laid in one place
    for every tent, and the node's bound, are at least the optimum; the node's bound is never above the bound
    where each tent lays every card its own way."""
    _check_two_turns_card_once(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, *range(4, 24)])
def test_the_card_once_bound_is_never_below_the_exhaustive_two_turn_optimum_many_seeds(seed: int) -> None:
    _check_two_turns_card_once(seed)


# --- Each first card at its place (`first_card_bounds`, the search's caps on first-level branches) -----------------


def _check_first_card_caps(seed: int) -> None:
    """Two-turn rounds, a hand of two, 2-3 tokens: for every legal first placement, the best round that starts with it
    (every tent of turn 1 through the rules model, then the exact best second turn) is at most its capped bound, and
    the card's bound at any place is at most the node's own bound."""
    from campsolver.solver.campsite.evaluate import best_turn_search

    from tests.campsite.test_best_round import dense_order

    rng = random.Random(seed)
    order = dense_order(seed)
    tokens = rng.sample(list(R.Token), rng.randint(2, 3))
    search, board, hand, drawn, pool, pictures = _card_once_parts(order, 2, 2, tokens)
    table = R.starting_table(order[0], order[1])
    best_with: dict[tuple, int] = {}
    for placement, tent in R.iter_turn_plays(table, [order[i] for i in hand], tokens):
        after = table.place(placement).pitch(tent)
        rest = [order[i] for i in hand if order[i] != placement.card] + [order[drawn]]
        left = [t for t in tokens if t != tent.token]
        second = best_turn_search(after, rest, left, 0, 1, CpuBudget(900))  # CPU: never spent on a loaded machine
        assert not second.interrupted
        key = (placement.card, frozenset(placement.squares().items()))
        best_with[key] = max(best_with.get(key, -1), second.plays[0].score)
    children = search.children(board, hand, drawn, 2)
    capped = {child.picture.card: 0 for child in children}
    looked = 0
    for child in search.capped(board, hand, drawn, 2, children):
        cell = search.frame.cell(child.i, child.j)
        placement = R.Placement(child.picture.card, cell[0], cell[1], child.picture.rotation)
        key = (placement.card, frozenset(placement.squares().items()))
        assert child.bound >= best_with[key], (placement, child.bound, best_with[key])
        capped[placement.card] = max(capped[placement.card], child.bound)
        looked += 1
    assert looked == len(children) == len({k for k in best_with})  # every first placement, none dropped
    caps = RB.first_card_bounds(search.potentials(board), board, hand, pool, 2, 2, pictures)
    own = search.own_bound(board, hand, drawn, 2)
    assert max(caps.anywhere.values()) <= own
    assert max(best_with.values()) <= own


@pytest.mark.parametrize("seed", [0])  # ~11 CPU-s each (the exhaustive two-turn search)
def test_first_card_caps_are_never_below_the_best_round_starting_there(seed: int) -> None:
    _check_first_card_caps(seed)


@pytest.mark.slow
@pytest.mark.timeout(1200)  # 10-20 CPU-s each: over 300 s of wall time on the loaded 2-core machine
@pytest.mark.parametrize("seed", range(1, 12))
def test_first_card_caps_are_never_below_the_best_round_starting_there_many_seeds(seed: int) -> None:
    _check_first_card_caps(seed)

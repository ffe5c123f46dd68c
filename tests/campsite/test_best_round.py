"""The best solo round: the exact branch and bound against exhaustive search on short rounds and small hands.

The exhaustive search here plays every first turn (placement x token x square through the rules model) and
finishes with the exact best turn (`best_turn_search`, itself checked against the rulebook-only oracle in
test_best_turn.py); it shares nothing with the branch and bound's final-picture reading of a round.
"""

from __future__ import annotations

import itertools
import random

import pytest
from campsolver.solver.campsite import round_search as RS
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.best_round import best_round
from campsolver.solver.campsite.evaluate import best_turn_search
from campsolver.solver.campsite.round_search import INFEASIBLE, best_tents, search_round
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof


def exhaustive_two_turns(order: list[R.Card], hand_size: int, tokens: list[R.Token]) -> int:
    """Best 2-turn solo round: every first play, then the exact best second turn."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2 : 2 + hand_size])
    best = -1
    for placement, tent in R.iter_turn_plays(table, hand, tokens):
        after = table.place(placement).pitch(tent)
        rest = list(hand)
        rest.remove(placement.card)
        rest.append(order[2 + hand_size])
        left = [t for t in tokens if t != tent.token]
        second = best_turn_search(after, rest, left, 0, 1, Budget(900))
        assert not second.interrupted
        best = max(best, second.plays[0].score)
    return best


def replay_score(order: list[R.Card], plays, hand_size: int, tokens: list[R.Token]) -> int:
    """Replay the returned plays through the rules model (hand, draws, tokens, legality) and score the round."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2 : 2 + hand_size])
    drawn = 2 + hand_size
    left = set(tokens)
    for placement, tent in plays:
        assert placement.card in hand and tent.token in left
        hand.remove(placement.card)
        left.discard(tent.token)
        if drawn < len(order):
            hand.append(order[drawn])
            drawn += 1
        table = table.place(placement).pitch(tent)
    return R.player_scores(table, 1)[0]


def dense_order(seed: int) -> list[R.Card]:
    """A shuffled order of the default deck's cards with 4-5 coloured squares (few tent squares: a small tree)."""
    cards = [c for c in R.default_deck() if len(c.pattern) >= 4]
    random.Random(seed).shuffle(cards)
    return cards


def check_two_turn_round(order: list[R.Card], hand_size: int, tokens: list[R.Token]) -> None:
    result = best_round(order, 2, Budget(900), hand_size=hand_size, tokens=tokens)  # ~1 s CPU; slack for load
    assert result.proof is Proof.EXACT and result.bound == result.score
    assert replay_score(order, result.plays, hand_size, tokens) == result.score
    optimum = exhaustive_two_turns(order, hand_size, tokens)
    assert result.score == optimum
    # The branch and bound's root bound is a true bound, and without a warm start it finds the optimum itself.
    alone = search_round(order, 2, Budget(900), hand_size=hand_size, tokens=tokens)
    assert alone.complete and alone.best == optimum <= alone.bound


@pytest.mark.parametrize("seed", [0, 1])
def test_two_turn_round_equals_exhaustive_search(seed: int) -> None:
    tokens = [R.Token.WATER, R.Token.WILDERNESS] if seed % 2 else [R.Token.DESERT, R.Token.FOREST]
    check_two_turn_round(dense_order(seed), 1, tokens)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 10))
def test_two_turn_round_equals_exhaustive_search_many_seeds(seed: int) -> None:
    rng = random.Random(seed)
    order = dense_order(seed) if seed % 2 else list(R.default_deck())
    if not seed % 2:
        rng.shuffle(order)
    tokens = rng.sample(list(R.Token), 2)
    check_two_turn_round(order, 1 + seed % 2, tokens)


def brute_tents(values, count: int, turns: int) -> int:
    """Every choice of `turns` tokens on distinct squares, kept when the squares fit one tent a turn."""
    best = INFEASIBLE
    for cells in itertools.combinations(range(len(values)), turns):
        times = sorted(values[i][1] for i in cells)
        if any(time > k + 1 for k, time in enumerate(times)):
            continue
        for tokens in itertools.permutations(range(count), turns):
            best = max(best, sum(values[i][2][t] for i, t in zip(cells, tokens, strict=True)))
    return best


@pytest.mark.parametrize("seed", range(40))
def test_best_tents_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    turns = rng.randint(1, 4)
    count = rng.randint(turns, 5)
    cells = rng.randint(turns, 7)
    values = [
        ((k, 0), rng.randint(0, turns), [rng.choice([0, 1, 2, 4, 6, 8, 16]) for _ in range(count)])
        for k in range(cells)
    ]
    if sum(1 for v in values if v[1] == 0) == 0:
        values[0] = (values[0][0], 0, values[0][2])  # a round always has the starting cards' squares
    assert best_tents(values, count, turns) == brute_tents(values, count, turns)


def test_a_spent_budget_gives_no_proof_but_a_legal_round_within_its_bound() -> None:
    order = list(R.default_deck())
    random.Random(3).shuffle(order)
    result = best_round(order, 3, Budget(1.0))
    assert result.proof in (Proof.FEASIBLE_WITH_BOUND, Proof.HEURISTIC, Proof.EXACT)
    if result.proof is not Proof.EXACT:
        assert result.interrupted
    if result.plays:
        assert replay_score(order, result.plays, 3, list(R.Token)) == result.score
        assert result.score <= result.bound


# --- The geometric tent bound (tent_bound.py) and the node bound of round_search --------------------------------


def random_round(order: list[R.Card], turns: int, rng: random.Random) -> list[R.Placement]:
    """A legal placement sequence of a solo round (rules model), each card from the hand of the known order."""
    table = R.starting_table(order[0], order[1])
    hand = list(order[2:5])
    drawn = 5
    plays = []
    for _ in range(turns):
        placement = rng.choice(table.legal_placements(hand))
        table = table.place(placement)
        hand.remove(placement.card)
        hand.append(order[drawn])
        drawn += 1
        plays.append(placement)
    return plays


def final_points(grid: dict, token: R.Token, cell: R.Cell) -> int:
    base, doubled = R.tent_points(grid, token, cell)
    return base * (R.FAIR_WEATHER_FACTOR if doubled else 1)


@pytest.mark.parametrize("seed", range(16))
def test_node_bound_holds_along_legal_rounds(seed: int) -> None:
    """At every prefix of a legal round, each token's bound (with any `left` of the cards to come, and with the very
    cards that were laid) is at least that token's rules-model points on every free square of the final table, and
    the node bound is at least the best tents of the final table (`best_tents`, times as laid)."""
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3 + seed % 3
    if seed % 2:  # a strong round (the beam search's), where the bound is nearly tight
        beam = best_round(order, turns, Budget(60), exact=False)
        plays = [placement for placement, _ in beam.plays]
    else:
        plays = random_round(order, turns, rng)
    final = R.table_from_placements([*R.starting_table(order[0], order[1]).placements, *plays])
    search = RS._Search(order, turns, 3, list(R.Token), Budget(60))
    free = final.free_squares()
    best_final = [max(final_points(final.grid, token, cell) for cell in free) for token in search.tokens]
    # Which index of the order each play lays (the hand as the rules deal it).
    hand, drawn, indices = [2, 3, 4], 5, []
    for placement in plays:
        index = next(i for i in hand if order[i] == placement.card)
        indices.append(index)
        hand.remove(index)
        hand.append(drawn)
        drawn += 1
    top = RS.start_top(order)
    hand_now = (2, 3, 4)
    for depth in range(turns):
        left = turns - depth
        groups = search.configs(top)
        drawn_now = 5 + depth
        pool = search.future_cards(hand_now, drawn_now, left)
        assert set(indices[depth:]) <= set(pool)
        for cards in (pool, indices[depth:]):
            values = search.token_values(groups, cards, left)
            assert all(v >= a for v, a in zip(values, best_final, strict=True)), (depth, cards, values, best_final)
        assert search.node_bound(top, hand_now, drawn_now, left) >= RS.best_tents(
            RS.final_values(final_top(order, plays), search.tokens), len(search.tokens), turns
        )
        placement = plays[depth]
        card = placement.card
        before = search.cell_kinds(top)
        for cell, coloured in placement.squares().items():
            top[cell] = RS.Sq(coloured, card.mask if coloured else 0, card.fair_weather, depth + 1)
        hand_now = (*(i for i in hand_now if i != indices[depth]), drawn_now)
        # The incremental squares of a child (what the search uses one turn before the end) equal a full recount.
        rows = [r for r, _ in placement.squares()]
        cols = [c for _, c in placement.squares()]
        reach = [(r, c) for r in range(min(rows) - 1, max(rows) + 2) for c in range(min(cols) - 1, max(cols) + 2)]
        assert search.kinds_after(before, top, reach) == search.cell_kinds(top)


def final_top(order: list[R.Card], plays: list[R.Placement]) -> dict:
    top = RS.start_top(order)
    for turn, placement in enumerate(plays, start=1):
        card = placement.card
        for cell, coloured in placement.squares().items():
            top[cell] = RS.Sq(coloured, card.mask if coloured else 0, card.fair_weather, turn)
    return top


@pytest.mark.parametrize("seed", range(3))
def test_last_card_bound_from_the_parents_ranking_equals_a_full_recount(seed: int) -> None:
    """The children of a node two turns before the end take their last-card bound from the parent's ranked squares
    plus the squares their card reaches (`last_card_bound_after`): the same value as over all their squares."""
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3
    search = RS._Search(order, turns, 3, list(R.Token), Budget(60))
    top = RS.start_top(order)
    first = random_round(order, 1, rng)[0]
    index = next(i for i in (2, 3, 4) if order[i] == first.card)
    for cell, coloured in first.squares().items():
        top[cell] = RS.Sq(coloured, first.card.mask if coloured else 0, first.card.fair_weather, 1)
    hand = (*(i for i in (2, 3, 4) if i != index), 5)
    cells = search.cell_kinds(top)
    ranking = search.last_card_ranking(cells, (*hand, 6))
    children = search.children(top, hand)
    for child_index, picture, (row, col) in rng.sample(children, min(60, len(children))):
        child = dict(top)
        card = picture.card
        for (dr, dc), coloured in picture.squares:
            child[(row + dr, col + dc)] = RS.Sq(coloured, card.mask if coloured else 0, card.fair_weather, 2)
        rest = (*(i for i in hand if i != child_index), 6)
        height, width = (3, 2) if picture.rotation % 2 else (2, 3)
        reach = [(r, c) for r in range(row - 1, row + height + 1) for c in range(col - 1, col + width + 1)]
        child_cells = search.kinds_after(cells, child, reach)
        assert child_cells == search.cell_kinds(child)
        assert search.last_card_bound_after(ranking, child_cells, reach, rest) == search.last_card_bound(
            set(child_cells.values()), rest
        )

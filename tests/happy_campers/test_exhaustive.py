"""Exhaustive oracles: every answer replayed through the rules model, checked against plain recursions
written here with nothing but the public rules API, and against hand-counted tiny cases."""

from __future__ import annotations

from functools import cache

import pytest
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.exhaustive import OracleResult, absolute_max, clairvoyant_max
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    DOMINO,
    ELEMENTS,
    STRAIGHT_TROMINO,
    Challenge,
    Components,
    Element,
    Grid,
    Option,
    Placement,
    RulesError,
    can_draw,
    draw,
    empty_grid,
    legal_placements,
    parse_grid,
    roll_options,
    score,
)

C34 = Components(rows=3, cols=4)
C44 = Components(rows=4, cols=4)
C33 = Components(rows=3, cols=3)

SINGLE_CHALLENGES = [
    Challenge.PRIVACY,
    Challenge.QUICK_PEE,
    Challenge.TENT_TOGETHER,
    Challenge.NATURE_RESERVE,
    Challenge.RIVER_TOWN,
    Challenge.GREAT_DIVIDE,
    Challenge.DANGEROUS_ANIMALS,
    Challenge.FESTIVAL,
]


def random_rolls(seed: int, count: int) -> list[tuple[int, int]]:
    rng = rng_for(seed, "happy-campers-oracle-test")
    return [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(count, 2))]


def replay_clairvoyant(result: OracleResult, start: Grid, rolls, challenges, components) -> None:
    """The oracle's sequence must be forced-legal play of the rolls and must score what it claims."""
    grid = start
    for index, placement in enumerate(result.placements):
        assert placement.option in roll_options(rolls[index])
        assert placement in legal_placements(grid, rolls[index], components)
        grid = draw(grid, placement, components)
    used = len(result.placements)
    if used < len(rolls):  # stopping early is only allowed when the next roll cannot be drawn
        assert not can_draw(grid, rolls[used], components)
    assert grid == result.final_grid
    assert score(grid, challenges, components).total == result.score


def replay_absolute(result: OracleResult, start: Grid, challenges, components) -> None:
    grid = start
    for placement in result.placements:
        grid = draw(grid, placement, components)  # adjacency, emptiness, shape and element all checked
    assert grid == result.final_grid
    assert score(grid, challenges, components).total == result.score


def naive_clairvoyant(start: Grid, rolls, challenges, components) -> int:
    """Plain forced-play recursion over `legal_placements`, memoised on (map, roll index) only."""
    rolls = tuple(rolls)

    @cache
    def value(grid: Grid, index: int) -> int:
        moves = legal_placements(grid, rolls[index], components) if index < len(rolls) else []
        if not moves:
            return score(grid, challenges, components).total
        return max(value(draw(grid, move, components), index + 1) for move in moves)

    return value(start, 0)


# ----------------------------------------------------------------------------------------- clairvoyant


def test_clairvoyant_hand_case_five_dominoes_fill_a_2x5_map():
    # Each roll offers a domino of a new element (shape face 1); five dominoes tile the 2x5 map, one
    # cluster of 2 per element: 10 points, and no map can score more than its 10 squares.
    components = Components(rows=2, cols=5)
    rolls = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]
    result = clairvoyant_max(None, rolls, (), components)
    assert result.score == 10
    replay_clairvoyant(result, empty_grid(components), rolls, (), components)


def test_clairvoyant_four_rolls_cannot_bring_five_elements():
    rolls = [(1, 1), (2, 2), (3, 3), (4, 4)]  # trees, toilets, water, tents: entertainment never comes
    result = clairvoyant_max(None, rolls, (), C34)
    assert result.score == 0


def test_clairvoyant_game_ends_at_the_first_undrawable_roll():
    # Complete 3x4 map with a single hole at (2,3): no shape fits, so the score is the map's own:
    # clusters T4 + W2 + ~2 + A1 + E2 = 11, one empty square -> 10.
    start = parse_grid("TTWW\nTT~~\nAEE.")
    result = clairvoyant_max(start, [(1, 1), (2, 3)], (), C34)
    assert result.placements == ()
    assert result.score == 10
    replay_clairvoyant(result, start, [(1, 1), (2, 3)], (), C34)


def test_clairvoyant_rejects_a_detached_pre_drawn_map_and_big_maps():
    with pytest.raises(RulesError):
        clairvoyant_max(parse_grid("T...\n....\n..W."), [(1, 2)], (), C34)
    with pytest.raises(RulesError):
        clairvoyant_max(None, [(1, 2)], (), DEFAULT_COMPONENTS)


@pytest.mark.parametrize("seed", range(8))
def test_clairvoyant_matches_naive_recursion_on_3x3(seed):
    rng = rng_for(seed, "challenge-pick")
    challenges = (SINGLE_CHALLENGES[int(rng.integers(len(SINGLE_CHALLENGES)))],)
    rolls = random_rolls(seed, 4)
    start = empty_grid(C33)
    result = clairvoyant_max(start, rolls, challenges, C33)
    assert result.score == naive_clairvoyant(start, rolls, challenges, C33)
    replay_clairvoyant(result, start, rolls, challenges, C33)


@pytest.mark.parametrize("seed", range(6))
def test_clairvoyant_matches_naive_recursion_on_3x4_with_pre_drawn_squares(seed):
    start = parse_grid("....\n.TW.\n.~A.")
    challenges = ((), (Challenge.RIVER_TOWN,), (Challenge.NATURE_RESERVE, Challenge.PRIVACY))[seed % 3]
    rolls = random_rolls(100 + seed, 3)
    result = clairvoyant_max(start, rolls, challenges, C34)
    assert result.score == naive_clairvoyant(start, rolls, challenges, C34)
    replay_clairvoyant(result, start, rolls, challenges, C34)


@pytest.mark.parametrize("seed", range(18))
def test_clairvoyant_answers_replay_on_3x4(seed):
    count = 5 + seed % 3
    challenges = () if seed % 4 == 0 else (SINGLE_CHALLENGES[seed % len(SINGLE_CHALLENGES)],)
    start = empty_grid(C34)
    if seed % 2:
        start = draw(start, Placement(frozenset({(1, 1), (1, 2)}), _element(seed), Option(1, 6)), C34)
    rolls = random_rolls(seed, count)
    result = clairvoyant_max(start, rolls, challenges, C34)
    replay_clairvoyant(result, start, rolls, challenges, C34)
    # Free choice of every drawing can only do better than any roll sequence.
    assert result.score <= absolute_max(C34, challenges, start_grid=start).score


def _4x4_case(seed: int, challenges) -> None:
    start = draw(empty_grid(C44), Placement(frozenset({(1, 1), (1, 2)}), _element(seed), Option(1, 6)), C44)
    rolls = random_rolls(1000 + seed, 5 + seed % 2)
    result = clairvoyant_max(start, rolls, challenges, C44)
    replay_clairvoyant(result, start, rolls, challenges, C44)


@pytest.mark.parametrize("seed", range(8))
def test_clairvoyant_answers_replay_on_4x4_with_pre_drawn_squares(seed):
    cheap = [(), (Challenge.PRIVACY,), (Challenge.QUICK_PEE,), (Challenge.DANGEROUS_ANIMALS,), (Challenge.FESTIVAL,)]
    _4x4_case(seed, cheap[seed % len(cheap)])


@pytest.mark.parametrize("seed", range(6))
def test_clairvoyant_answers_replay_on_4x4_with_packing_challenges(seed):
    packing = [(Challenge.TENT_TOGETHER,), (Challenge.RIVER_TOWN,), (Challenge.GREAT_DIVIDE,)]
    _4x4_case(seed, packing[seed % len(packing)])


def _element(seed: int) -> Element:
    return ELEMENTS[seed % 5]


# -------------------------------------------------------------------------------------------- absolute


def test_absolute_max_hand_cases_without_challenges():
    # Every square drawn and each element one cluster: the score equals the number of squares, which
    # nothing can exceed (clusters are disjoint sets of drawn squares, empty squares cost).
    for components, expected in ((C34, 12), (C44, 16)):
        result = absolute_max(components)
        assert result.score == expected
        replay_absolute(result, empty_grid(components), (), components)


def test_absolute_max_great_divide_on_3x4_is_impossible():
    # Left half = columns 0-1 (6 squares). Five elements need five pieces with a square on the left; a
    # piece wholly on the left takes 2 of column 0's 3 squares (at most one such piece) and every other
    # piece needs its own square of column 1 (3 squares): at most 4 pieces, so never complete.
    assert absolute_max(C34, (Challenge.GREAT_DIVIDE,)).score == 0


def test_absolute_max_festival_adds_five_to_the_plain_maximum():
    assert absolute_max(C34, (Challenge.FESTIVAL,)).score == 12 + 5


@pytest.mark.parametrize("challenge", SINGLE_CHALLENGES)
def test_absolute_max_replays_for_each_challenge_on_3x4(challenge):
    result = absolute_max(C34, (challenge,))
    replay_absolute(result, empty_grid(C34), (challenge,), C34)


def test_absolute_max_with_pre_drawn_squares_keeps_them():
    start = parse_grid("....\n.TT.\n....")
    result = absolute_max(C34, (Challenge.PRIVACY,), start_grid=start)
    replay_absolute(result, start, (Challenge.PRIVACY,), C34)
    assert result.final_grid[1][1] == result.final_grid[1][2] == 1


def naive_absolute(components: Components, challenges) -> int:
    """Every map reachable by legal drawing sequences (free shape and element), searched plainly."""
    shapes_roll = [(6, 6)]
    start = empty_grid(components)
    seen = {start}
    stack = [start]
    best = 0
    while stack:
        grid = stack.pop()
        best = max(best, score(grid, challenges, components).total)
        for roll in shapes_roll:
            for move in legal_placements(grid, roll, components):
                child = draw(grid, move, components)
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return best


@pytest.mark.parametrize(
    "challenges",
    [(), (Challenge.NATURE_RESERVE,), (Challenge.RIVER_TOWN,), (Challenge.QUICK_PEE, Challenge.PRIVACY)],
)
def test_absolute_max_matches_plain_search_on_a_2x4_domino_map(challenges):
    # Dominoes and straight trominoes only keep the plain search over every reachable map small.
    components = Components(rows=2, cols=4, shapes=(DOMINO, DOMINO, DOMINO, DOMINO, STRAIGHT_TROMINO))
    result = absolute_max(components, challenges)
    assert result.score == naive_absolute(components, challenges)
    replay_absolute(result, empty_grid(components), challenges, components)


def test_absolute_max_matches_plain_search_on_2x4_with_tent_together():
    components = Components(rows=2, cols=4, shapes=(DOMINO, DOMINO, DOMINO, DOMINO, DOMINO))
    challenges = (Challenge.TENT_TOGETHER, Challenge.DANGEROUS_ANIMALS)
    assert absolute_max(components, challenges).score == naive_absolute(components, challenges)


def test_oracles_stop_when_cancelled():
    budget = Budget(30)
    budget.cancel()
    with pytest.raises(SolveInterrupted):
        absolute_max(C44, (Challenge.RIVER_TOWN,), budget=budget)
    with pytest.raises(SolveInterrupted):
        clairvoyant_max(None, random_rolls(3, 7), (Challenge.RIVER_TOWN,), C44, budget=budget)

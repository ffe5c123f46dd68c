"""Play policies and the fast bitmask engine, checked against the rules model (`rules.py`).

The fast engine is only trusted where these tests pin it to the reference: its legal drawings are the rules
model's, its incremental score is `rules.score`, greedy's pick maximises an evaluation computed from
`rules.score`'s breakdown, and `play_game` replays everything through `rules.draw`.
"""

from __future__ import annotations

import numpy as np
import pytest
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.policies import (
    DEFAULT_MISSING_PENALTY,
    GREEDY,
    RANDOM,
    FastMap,
    board_tables,
    candidate_placement,
    play_game,
    random_rolls,
    rollout,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    ELEMENTS,
    Challenge,
    Components,
    can_draw,
    can_draw_option,
    draw,
    empty_grid,
    legal_placements,
    roll_options,
    score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

CARD_SETS = st.lists(st.sampled_from(list(Challenge)), max_size=3, unique=True).map(tuple)
SMALL_MAP = Components(rows=4, cols=5)


def reference_evaluation(grid, challenges, components, penalty=DEFAULT_MISSING_PENALTY) -> float:
    """Greedy's evaluation rebuilt from the rules model's breakdown (independent of the fast engine)."""
    breakdown = score(grid, challenges, components)
    raw = sum(breakdown.clusters.values()) + breakdown.empty_points + sum(breakdown.challenge_points.values())
    if Challenge.GREAT_DIVIDE in challenges:
        from campsolver.solver.happy_campers.rules import divide_sides

        missing = sum(
            1
            for side in divide_sides(components.cols)
            for e in ELEMENTS
            if not any(grid[r][c] == e for r in range(components.rows) for c in side)
        )
    else:
        missing = sum(1 for e in ELEMENTS if breakdown.clusters[e] == 0)
    return float(raw) if missing == 0 else raw - penalty * missing


def random_position(seed: int, turns: int, challenges=(), components=DEFAULT_COMPONENTS):
    return play_game(None, random_rolls(seed, turns), challenges, components, RANDOM, seed=seed).final_grid


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 14), cards=CARD_SETS, small=st.booleans())
def test_fast_candidates_are_exactly_the_rules_models_legal_drawings(seed, turns, cards, small):
    components = SMALL_MAP if small else DEFAULT_COMPONENTS
    grid = random_position(seed, turns, cards, components)
    fast = FastMap.from_grid(grid, cards, components)
    roll = random_rolls(seed, 1, "roll")[0]
    ours = {candidate_placement(c, components.cols) for c in fast.roll_candidates(roll, components)}
    assert ours == set(legal_placements(grid, roll, components))
    for option in roll_options(roll):
        assert fast.can_draw_option(option.shape_face, components) == can_draw_option(grid, option, components)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), cards=CARD_SETS, small=st.booleans())
def test_incremental_score_equals_rules_score_along_a_whole_game(seed, cards, small):
    components = SMALL_MAP if small else DEFAULT_COMPONENTS
    tables = board_tables(components)
    rng = rng_for(seed, "test-rollout")
    dice = rng.integers(1, 7, size=(tables.max_turns(), 2))
    keys = rng.integers(0, 2**31, size=tables.max_turns())
    fast = FastMap(tables, frozenset(cards))
    final = rollout(fast, dice, keys, RANDOM if seed % 2 else GREEDY, components)
    grid = fast.to_grid()
    assert final == score(grid, cards, components).total
    rebuilt = FastMap.from_grid(grid, cards, components)
    assert rebuilt.largest == fast.largest
    assert sorted(map(sorted, rebuilt.clusters)) == sorted(map(sorted, fast.clusters))
    assert fast.evaluation() == pytest.approx(reference_evaluation(grid, cards, components))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 12), cards=CARD_SETS)
def test_gain_is_the_change_of_the_evaluation(seed, turns, cards):
    grid = random_position(seed, turns, cards)
    fast = FastMap.from_grid(grid, cards, DEFAULT_COMPONENTS)
    roll = random_rolls(seed, 1, "gain")[0]
    candidates = fast.roll_candidates(roll, DEFAULT_COMPONENTS)
    before = reference_evaluation(grid, cards, DEFAULT_COMPONENTS)
    for candidate, gain in list(zip(candidates, fast.gains(candidates), strict=True))[:25]:
        after = draw(grid, candidate_placement(candidate, DEFAULT_COMPONENTS.cols))
        assert gain == pytest.approx(reference_evaluation(after, cards, DEFAULT_COMPONENTS) - before)


@pytest.mark.parametrize("cards", [(), (Challenge.RIVER_TOWN, Challenge.PRIVACY), (Challenge.GREAT_DIVIDE,)])
def test_greedy_draws_a_move_with_the_best_rules_model_evaluation(cards):
    grid = random_position(11, 5, cards)
    roll = (3, 5)
    fast = FastMap.from_grid(grid, cards, DEFAULT_COMPONENTS)
    candidates = fast.roll_candidates(roll, DEFAULT_COMPONENTS)
    chosen = candidate_placement(candidates[GREEDY.choose(fast, candidates, 12345)], DEFAULT_COMPONENTS.cols)
    values = {
        p: reference_evaluation(draw(grid, p), cards, DEFAULT_COMPONENTS)
        for p in legal_placements(grid, roll, DEFAULT_COMPONENTS)
    }
    assert values[chosen] == pytest.approx(max(values.values()))


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_play_game_is_legal_forced_play_scored_by_the_rules_model(policy, seed):
    cards = (Challenge.QUICK_PEE,)
    rolls = random_rolls(seed, 40)
    game = play_game(None, rolls, cards, DEFAULT_COMPONENTS, policy, seed=seed)
    grid = empty_grid()
    drawn_rolls = rolls[: len(game.placements)]
    for roll, placement in zip(drawn_rolls, game.placements, strict=True):
        assert placement.option in roll_options(roll)
        grid = draw(grid, placement)
    assert grid == game.final_grid
    assert game.score == score(grid, cards).total
    # forced play: the game ended at the first roll that fits nowhere (or ran out of rolls)
    if game.rolls_used < len(rolls) or len(game.placements) < game.rolls_used:
        assert len(game.placements) == game.rolls_used - 1
        assert not can_draw(grid, rolls[game.rolls_used - 1])


def test_play_game_from_a_pre_drawn_map_and_same_seed_same_game():
    start = random_position(5, 4)
    rolls = random_rolls(9, 30)
    first = play_game(start, rolls, (), DEFAULT_COMPONENTS, "greedy", seed=4)
    again = play_game(start, rolls, (), DEFAULT_COMPONENTS, "greedy", seed=4)
    assert first == again
    grid = start
    for placement in first.placements:
        grid = draw(grid, placement)
    assert grid == first.final_grid


def test_greedy_beats_random_on_the_same_rolls():
    greedy = [play_game(None, random_rolls(s, 40), (), policy="greedy", seed=s).score for s in range(24)]
    uniform = [play_game(None, random_rolls(s, 40), (), policy="random", seed=s).score for s in range(24)]
    assert np.mean(greedy) > np.mean(uniform) + 5

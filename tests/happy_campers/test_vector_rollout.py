"""The vector rollout engine plays exactly the shaped-greedy policy, and the shaped policy's terms do what
they claim (no new isolated hole when a snug drawing exists)."""

from __future__ import annotations

import numpy as np
import pytest
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers.hint import rollout_policy
from campsolver.solver.happy_campers.policies import (
    GREEDY,
    SHAPED_GREEDY,
    FastMap,
    ShapedGreedyPolicy,
    board_tables,
    play_game,
    random_rolls,
    rollout,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    parse_grid,
    score,
)
from campsolver.solver.happy_campers.vector_rollout import choose_index, supports, vector_rollout

GAMES = 60


#: The default weights, a crowd term with the seal off, and crowd with seal (every branch of the room terms).
POLICIES = (
    SHAPED_GREEDY,
    ShapedGreedyPolicy(seal_weight=0.0, crowd_weight=0.75),
    ShapedGreedyPolicy(crowd_weight=0.25),
    rollout_policy(),  # the hint's
)


@pytest.mark.parametrize("policy", POLICIES, ids=["default", "crowd-no-seal", "crowd-and-seal", "hint-rollouts"])
@pytest.mark.parametrize("components", [DEFAULT_COMPONENTS, Components(rows=4, cols=6)])
def test_vector_rollout_draws_exactly_what_shaped_greedy_draws(
    components: Components, policy: ShapedGreedyPolicy
) -> None:
    tables = board_tables(components)
    rng = rng_for(5, "vector-rollout-test")
    dice = rng.integers(1, 7, size=(GAMES, tables.max_turns(), 2))
    keys = rng.integers(0, 2**31, size=(GAMES, tables.max_turns()))
    for game in range(GAMES):
        reference = FastMap(tables, frozenset())
        vector = FastMap(tables, frozenset())
        for turn in range(tables.max_turns()):
            roll = (int(dice[game, turn, 0]), int(dice[game, turn, 1]))
            candidates = reference.roll_candidates(roll, components)
            chosen = choose_index(vector, roll, int(keys[game, turn]), policy, components)
            if not candidates:
                assert chosen is None
                break
            mask, around, element, _, _ = candidates[policy.choose(reference, candidates, int(keys[game, turn]))]
            assert chosen == (mask, around, element)
            reference.commit(mask, around, element)
            vector.commit(*chosen)
        assert vector.final_score() == reference.final_score()
        assert reference.final_score() == score(reference.to_grid(), (), components).total


def test_vector_rollout_matches_python_rollout_from_a_drawn_map() -> None:
    grid = play_game(None, random_rolls(3, 6, "vector"), (), policy="greedy", seed=3).final_grid
    start = FastMap.from_grid(grid, (), DEFAULT_COMPONENTS)
    tables = board_tables(DEFAULT_COMPONENTS)
    rng = rng_for(6, "vector-rollout-test")
    for _ in range(20):
        dice = rng.integers(1, 7, size=(tables.max_turns(), 2))
        keys = rng.integers(0, 2**31, size=tables.max_turns())
        expected = rollout(start.copy(), dice, keys, SHAPED_GREEDY, DEFAULT_COMPONENTS)
        assert vector_rollout(start.copy(), dice, keys, SHAPED_GREEDY, DEFAULT_COMPONENTS) == expected


def test_supports_only_cardless_maps_that_fit_a_word() -> None:
    tables = board_tables(DEFAULT_COMPONENTS)
    assert supports(FastMap(tables, frozenset()))
    assert supports(FastMap(tables, frozenset({Challenge.NOISY_NEIGHBOURS, Challenge.FESTIVAL})))
    assert not supports(FastMap(tables, frozenset({Challenge.PRIVACY})))
    big = Components(rows=8, cols=9)
    assert not supports(FastMap(board_tables(big), frozenset()))


def test_zero_weights_reduce_to_greedy_gains() -> None:
    grid = play_game(None, random_rolls(4, 5, "vector"), (), policy="greedy", seed=4).final_grid
    fast = FastMap.from_grid(grid, (), DEFAULT_COMPONENTS)
    candidates = fast.roll_candidates((2, 6), DEFAULT_COMPONENTS)
    plain = ShapedGreedyPolicy(dead_weight=0.0, exposure_weight=0.0, seal_weight=0.0)
    assert plain.values(fast, candidates) == fast.gains(candidates)
    assert GREEDY.choose(fast, candidates, 7) == plain.choose(fast, candidates, 7)


def test_shaped_greedy_avoids_an_isolated_hole() -> None:
    # An entertainment domino on row 0 (touching no entertainment): greedy's gain is the same at
    # (0,2)-(0,3) and at (0,3)-(0,4), but the latter leaves (0,2) with no empty neighbour (row 1 is drawn).
    grid = parse_grid(
        """
        TT.......
        TTWW~~AAE
        .........
        .........
        .........
        """
    )
    fast = FastMap.from_grid(grid, (), DEFAULT_COMPONENTS)
    candidates = [c for c in fast.roll_candidates((1, 5), DEFAULT_COMPONENTS) if c[0] >> 9 == 0 and c[3] == 1]
    values = SHAPED_GREEDY.values(fast, candidates)
    by_cells = {c[0]: v for c, v in zip(candidates, values, strict=True)}
    snug = (1 << 2) | (1 << 3)
    hole = (1 << 3) | (1 << 4)
    assert snug in by_cells and hole in by_cells
    assert by_cells[snug] > by_cells[hole]
    assert fast.gains([next(c for c in candidates if c[0] == snug)]) == fast.gains(
        [next(c for c in candidates if c[0] == hole)]
    )


def test_shaped_greedy_beats_greedy_over_seeded_games() -> None:
    tables = board_tables(DEFAULT_COMPONENTS)
    rng = rng_for(8, "vector-rollout-strength")
    dice = rng.integers(1, 7, size=(GAMES, tables.max_turns(), 2))
    keys = rng.integers(0, 2**31, size=(GAMES, tables.max_turns()))
    shaped = [
        vector_rollout(FastMap(tables, frozenset()), dice[g], keys[g], SHAPED_GREEDY, DEFAULT_COMPONENTS)
        for g in range(GAMES)
    ]
    greedy = [rollout(FastMap(tables, frozenset()), dice[g], keys[g], GREEDY, DEFAULT_COMPONENTS) for g in range(GAMES)]
    diff = np.array(shaped, dtype=float) - np.array(greedy, dtype=float)
    assert diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(GAMES) > 0

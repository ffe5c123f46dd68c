"""Happy Campers hints: legality (rules model), ranking invariants, determinism, clear-cut positions, and an
exhaustive oracle (exact expectation under the same rollout policy) on a small map.

Expected values are never typed in: they come from `rules.score` of hand-built maps or from the oracle.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, HintResult, Objective, Stage, hint, turn_state
from campsolver.solver.happy_campers.modes import SoloState
from campsolver.solver.happy_campers.policies import (
    RANDOM,
    play_game,
    random_rolls,
)
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    DEFAULT_COMPONENTS,
    ELEMENTS,
    Challenge,
    Components,
    Element,
    Option,
    RulesError,
    can_draw,
    draw,
    legal_placements,
    legal_placements_for_option,
    parse_grid,
    roll_options,
    score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from .test_hint_agreement import replay_solo
from .test_hint_policies import reference_evaluation

#: Enough time that the fixed schedule (not the deadline) decides the sample counts in these tests.
GENEROUS = 30.0


def mid_game(seed: int, turns: int = 5, challenges=(), components=DEFAULT_COMPONENTS):
    return play_game(None, random_rolls(seed, turns), challenges, components, RANDOM, seed=seed).final_grid


def assert_ranking_invariants(result: HintResult, maximise: bool = True, positive_se: bool = True) -> None:
    """Ranks follow the values shown (in the objective's direction), loss = distance to the top (>= 0), the top
    move is the race's pick with a fresh (or flagged) value, SE > 0 where sampled (unless the position has no
    randomness left, e.g. every move fills the map), moves without a value last and unsampled ones flagged."""
    valued = [a for a in result.alternatives if a.value is not None]
    unvalued = [a for a in result.alternatives if a.value is None]
    assert result.alternatives[: len(valued)] == tuple(valued), "valued moves come first"
    values = [a.value for a in valued]
    assert values == sorted(values, reverse=maximise), "rank order is value order"
    top = valued[0]
    assert top.stage in (Stage.FINALIST, Stage.ONLY_MOVE) and top.estimate in ("fresh", "selection")
    assert all(a.estimate == ("paired" if a.position_class != top.position_class else top.estimate) for a in valued)
    for a in valued:
        assert a.loss == pytest.approx(top.value - a.value if maximise else a.value - top.value, abs=1e-9)
        assert a.loss >= 0 and a.value_samples >= 1
        assert a.standard_error is None or (a.standard_error >= 0 and math.isfinite(a.standard_error))
        if top.estimate == "selection":
            assert a.standard_error is None  # a value that may read high claims no standard error
        elif a.value_samples >= 2 and positive_se:
            assert a.standard_error > 0
    for a in unvalued:
        assert a.stage is Stage.SCREENED_OUT or result.ranked_by_screen
    assert [a.rank for a in result.alternatives] == list(range(1, len(result.alternatives) + 1))


@pytest.mark.parametrize("roll", [(2, 4), (6, 6), (3, 3), (6, 1)])
def test_every_legal_move_is_listed_once_legal_and_ranked(roll):
    grid = mid_game(3)
    result = hint(turn_state(grid, roll, ()), Budget(GENEROUS), options=HintOptions(seed=7, rollouts=300))
    listed = [a.move.placements[0] for a in result.alternatives]
    for placement in listed:
        draw(grid, placement)  # raises IllegalMove if the rules model refuses it
    assert Counter(listed) == Counter(legal_placements(grid, roll))
    assert not result.blocked and not result.interrupted
    assert_ranking_invariants(result)
    assert result.rollouts > 0


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 5000),
    turns=st.integers(0, 10),
    roll=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    cards=st.lists(st.sampled_from(list(Challenge)), max_size=2, unique=True).map(tuple),
)
def test_hint_invariants_on_random_positions(seed, turns, roll, cards):
    grid = mid_game(seed, turns, cards)
    drawable = [(a, b) for a in range(1, 7) for b in range(a, 7) if can_draw(grid, (a, b))]
    assert drawable, "random play stops at the first roll that cannot be drawn: the map still has room"
    blocked = [(a, b) for a in range(1, 7) for b in range(a, 7) if (a, b) not in drawable]
    if blocked:  # a roll that fits nowhere: the hint says so and lists nothing
        stopped = hint(
            turn_state(grid, blocked[0], cards), Budget(GENEROUS), options=HintOptions(seed=seed, rollouts=60)
        )
        assert stopped.blocked and stopped.alternatives == ()
    if not can_draw(grid, roll):  # generate only usable cases: the next roll that can be drawn
        roll = drawable[sum(roll) % len(drawable)]
    result = hint(turn_state(grid, roll, cards), Budget(GENEROUS), options=HintOptions(seed=seed, rollouts=60))
    assert not result.blocked
    assert Counter(a.move.placements[0] for a in result.alternatives) == Counter(legal_placements(grid, roll))
    assert_ranking_invariants(result, positive_se=False)  # a random position may leave no randomness


def test_same_seed_same_answer_other_seed_other_futures():
    grid = mid_game(4)
    first = hint(
        turn_state(grid, (1, 5), (Challenge.PRIVACY,)), Budget(GENEROUS), options=HintOptions(seed=3, rollouts=250)
    )
    again = hint(
        turn_state(grid, (1, 5), (Challenge.PRIVACY,)), Budget(GENEROUS), options=HintOptions(seed=3, rollouts=250)
    )
    other = hint(
        turn_state(grid, (1, 5), (Challenge.PRIVACY,)), Budget(GENEROUS), options=HintOptions(seed=4, rollouts=250)
    )
    assert [(a.move, a.value, a.samples) for a in first.alternatives] == [
        (a.move, a.value, a.samples) for a in again.alternatives
    ]
    assert [a.value for a in first.alternatives] != [a.value for a in other.alternatives]


def test_schedule_follows_the_time_limit_not_the_clock():
    # The planned effort is a pure function of the time limit (so a seed gives one answer on any machine);
    # the clock only ever cuts a schedule short, and then the result says so.
    from campsolver.solver.happy_campers.hint import HintOptions, planned_rollouts, turn_state

    assert planned_rollouts(1.2, (), False) > planned_rollouts(0.3, (), False) > 0
    assert planned_rollouts(0.3, (), False) == planned_rollouts(0.3, (), False)
    assert planned_rollouts(1.2, (), True) < planned_rollouts(1.2, (), False)  # two maps: two rollouts each
    small = hint(turn_state(mid_game(8), (2, 3), ()), Budget(0.3), options=HintOptions(seed=1))
    # On an overloaded machine even the move listing can eat a 0.3 s deadline: then it must say so.
    assert small.alternatives and (small.rollouts > 0 or small.interrupted)


def test_the_only_completing_move_with_no_turn_left_ranks_first():
    # Entertainment is missing and the only room left is a domino-shaped hole: after this roll the map is
    # full, so the entertainment domino scores the full map and every other drawing leaves it at 0.
    grid = parse_grid(
        """
        TTTTTTTTT
        WWWWWWWWW
        ~~~~~~~~~
        AAAAAAA..
        AAAAAAAAA
        """
    )
    result = hint(turn_state(grid, (1, 6), ()), Budget(GENEROUS), options=HintOptions(seed=2, rollouts=200))
    best = result.best.move.placements[0]
    assert best.element is Element.ENTERTAINMENT
    full_score = score(draw(grid, best)).total
    assert full_score > 0
    assert result.best.value == pytest.approx(full_score)
    for a in result.alternatives[1:]:
        placement = a.move.placements[0]
        if placement.element is Element.ENTERTAINMENT:
            continue
        assert a.value == pytest.approx(score(draw(grid, placement)).total) == 0
        assert a.loss == pytest.approx(full_score)


def test_a_blocked_roll_says_so():
    grid = parse_grid(
        """
        TTTTTTTTT
        WWWWWWWWW
        ~~~~~~~~~
        AAAAAA.A.
        AAAAAAAAE
        """
    )
    assert not can_draw(grid, (1, 1))
    result = hint(turn_state(grid, (1, 1), ()), Budget(1.0), options=HintOptions(seed=0))
    assert result.blocked and result.alternatives == () and result.best is None


def test_symmetric_moves_share_a_position_class_and_tie_exactly():
    result = hint(turn_state(None, (1, 2), ()), Budget(GENEROUS), options=HintOptions(seed=5, rollouts=300))
    by_class: dict[int, set] = {}
    for a in result.alternatives:
        by_class.setdefault(a.position_class, set()).add((a.value, a.tie_group, a.samples))
    assert all(len(stats) == 1 for stats in by_class.values())
    assert result.position_classes < result.legal_moves  # the flips of the 5x9 rectangle were merged
    groups: dict[int, set] = {}
    for a in result.alternatives:
        groups.setdefault(a.tie_group, set()).add(a.value)
    assert all(len(values) == 1 for values in groups.values())


def test_a_cancelled_budget_returns_every_move_unsampled_and_says_interrupted():
    budget = Budget(5.0)
    budget.cancel()
    grid = mid_game(2)
    result = hint(turn_state(grid, (4, 2), ()), budget, options=HintOptions(seed=0))
    assert result.interrupted and result.rollouts == 0
    assert len(result.alternatives) == len(legal_placements(grid, (4, 2)))
    assert all(a.value is None for a in result.alternatives)
    scores = [a.screen_value for a in result.alternatives]
    assert scores == sorted(scores, reverse=True)


# --- neighbour's map ------------------------------------------------------------------------------------


@pytest.mark.parametrize("objective", [Objective.OWNER_WORST, Objective.OWNER_BEST])
def test_neighbour_map_ranks_for_the_chosen_objective(objective):
    grid = mid_game(6)
    result = hint(
        turn_state(grid, (2, 2), (), mode=HintMode.NEIGHBOUR_MAP),
        Budget(GENEROUS),
        options=HintOptions(seed=1, objective=objective, rollouts=300),
    )
    for a in result.alternatives:
        assert a.move.placements[0].option == Option(2, 2)
        draw(grid, a.move.placements[0])
    assert_ranking_invariants(result, maximise=objective is Objective.OWNER_BEST)


def test_neighbour_map_with_noisy_neighbours_allows_any_shape_with_the_rolled_element():
    grid = mid_game(6)
    cards = (Challenge.NOISY_NEIGHBOURS,)
    result = hint(
        turn_state(grid, (3, 3), cards, mode="neighbour_map"),
        Budget(GENEROUS),
        options=HintOptions(seed=1, rollouts=200),
    )
    listed = {a.move.placements[0] for a in result.alternatives}
    assert listed == set(legal_placements_for_option(grid, Option(ANY_FACE, 3)))
    assert {len(p.cells) for p in listed} > {2}  # more than the rolled shape
    assert {p.element for p in listed} == {Element.WATER}


def test_neighbour_map_needs_a_double():
    with pytest.raises(RulesError):
        hint(turn_state(mid_game(6), (2, 3), (), mode=HintMode.NEIGHBOUR_MAP), Budget(1.0))


# --- solo -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [(2, 4), (5, 5), (6, 3)])
def test_solo_pairs_are_legal_on_both_maps(roll):
    first, second = mid_game(10), mid_game(11)
    result = hint(
        turn_state(
            first,
            roll,
            (Challenge.PRIVACY,),
            mode=HintMode.SOLO,
            second_grid=second,
            second_challenges=(Challenge.QUICK_PEE,),
        ),
        Budget(GENEROUS),
        options=HintOptions(seed=3, rollouts=300),
    )
    assert result.alternatives
    turn = SoloState.new(((Challenge.PRIVACY,), (Challenge.QUICK_PEE,)), maps=(first, second)).child(roll)
    for a in result.alternatives:
        on_first, on_second = a.move.placements
        replay_solo(turn, a.move)  # legal in the rules model's solo flow (gap rule on doubles included)
        if roll[0] == roll[1]:
            assert on_first.option == on_second.option == Option(*roll)
        else:
            assert {on_first.option, on_second.option} == set(roll_options(roll))
    assert_ranking_invariants(result)
    # the value is the lower of the two maps' final scores: never above the smaller of the two maps' best
    # clairvoyant-free bound, the squares of one map plus its card's most points (Privacy: edge squares;
    # Quick Pee: rows + cols), and the top move's value is a finalist's fresh estimate
    edge = 2 * (DEFAULT_COMPONENTS.rows + DEFAULT_COMPONENTS.cols) - 4
    bound = min(DEFAULT_COMPONENTS.cell_count + edge, DEFAULT_COMPONENTS.cell_count + 14)
    assert result.best.value <= bound + 4 * result.best.standard_error
    assert result.best.stage in (Stage.FINALIST, Stage.ONLY_MOVE)


def test_solo_with_one_map_blocked_draws_on_the_other_and_ends():
    blocked_map = parse_grid(
        """
        TTTTTTTTT
        WWWWWWWWW
        ~~~~~~~~~
        AAAAAA.A.
        AAAAAAAAE
        """
    )
    other = mid_game(12)
    result = hint(
        turn_state(blocked_map, (2, 5), (), mode="solo", second_grid=other),
        Budget(GENEROUS),
        options=HintOptions(seed=0, rollouts=100),
    )
    assert result.blocked_maps == (0,) and result.game_ends_after and not result.blocked
    turn = SoloState.new(maps=(blocked_map, other)).child((2, 5))
    for a in result.alternatives:
        assert a.move.placements[0] is None
        draw(other, a.move.placements[1])
        assert replay_solo(turn, a.move).last_turn_map == 1  # map 2 gets its one extra turn
    assert len(result.alternatives) == len(legal_placements(other, (2, 5)))


# --- exhaustive oracle on a small map -------------------------------------------------------------------

SMALL = Components(rows=3, cols=4)


def reference_shaped_value(grid, placement, challenges, components) -> float:
    """The hint's rollout policy's value of a drawing (`policies.ShapedGreedyPolicy` with the weights of
    `hint.rollout_policy()`), rebuilt on the rules model's grid: greedy's evaluation after the drawing minus
    the dead-square, exposure, seal and crowd terms."""
    from campsolver.solver.happy_campers.hint import rollout_policy

    weights = rollout_policy()
    after = draw(grid, placement, components)
    rows, cols = components.rows, components.cols

    def around(r, c):
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
        return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols]

    def isolated(g):
        return sum(1 for r in range(rows) for c in range(cols) if not g[r][c] and all(g[x][y] for x, y in around(r, c)))

    exposed = {(x, y) for r, c in placement.cells for x, y in around(r, c) if not after[x][y]}
    sealed = 0
    crowded = 0
    for element in ELEMENTS:
        if element == placement.element:
            continue
        clusters = element_clusters(grid, element, components)
        if not clusters:
            continue
        largest = max(len(k) for k in clusters)
        room = {(x, y) for k in clusters if len(k) == largest for r, c in k for x, y in around(r, c) if not grid[x][y]}
        if room and room <= placement.cells:
            sealed += 1
        crowded += len(room & placement.cells)  # squares taken from the room that cluster could grow into
    return (
        reference_evaluation(after, challenges, components)
        - weights.dead_weight * (isolated(after) - isolated(grid))
        - weights.exposure_weight * len(exposed)
        - weights.seal_weight * sealed
        - weights.crowd_weight * crowded
    )


def element_clusters(grid, element, components) -> list[set]:
    """Orthogonal clusters of one element (rules-model grid, plain flood fill)."""
    seen: set = set()
    found = []
    for r in range(components.rows):
        for c in range(components.cols):
            if grid[r][c] != element or (r, c) in seen:
                continue
            stack, cluster = [(r, c)], set()
            seen.add((r, c))
            while stack:
                x, y = stack.pop()
                cluster.add((x, y))
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    inside = 0 <= nx < components.rows and 0 <= ny < components.cols
                    if inside and (nx, ny) not in seen and grid[nx][ny] == element:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            found.append(cluster)
    return found


def exact_greedy_value(grid, challenges, components, memo) -> Fraction:
    """Expected final score when uniformly random rolls are played by the hint's rollout policy (shaped
    greedy) with uniform tie-breaks.

    Built on the rules model only (legal drawings, scores, evaluation from the score breakdown)."""
    if grid in memo:
        return memo[grid]
    total = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            moves = legal_placements(grid, (a, b), components)
            if not moves:
                total += score(grid, challenges, components).total
                continue
            values = [reference_shaped_value(grid, m, challenges, components) for m in moves]
            best = max(values)
            ties = [m for m, v in zip(moves, values, strict=True) if v == best]
            total += sum(
                (exact_greedy_value(draw(grid, m, components), challenges, components, memo) for m in ties),
                Fraction(0),
            ) / len(ties)
    memo[grid] = total / 36
    return memo[grid]


def test_hint_values_match_the_exact_expectation_on_a_small_map():
    grid = parse_grid(
        """
        TT~.
        WA~.
        ....
        """
    )
    roll = (1, 5)  # domino with entertainment, or T-tetromino with trees
    memo: dict = {}
    exact = {p: exact_greedy_value(draw(grid, p, SMALL), (), SMALL, memo) for p in legal_placements(grid, roll, SMALL)}
    result = hint(turn_state(grid, roll, (), SMALL), Budget(GENEROUS), options=HintOptions(seed=9, rollouts=3000))
    assert not result.interrupted
    checked = 0
    for a in result.alternatives:
        if a.samples >= 200:
            truth = float(exact[a.move.placements[0]])
            assert abs(a.value - truth) <= 4.5 * a.standard_error + 0.25, (a.label, a.value, truth)
            checked += 1
    assert checked >= 2, "the finalists got their rollouts"
    best_exact = max(exact.values())
    hinted = exact[result.best.move.placements[0]]
    assert float(best_exact - hinted) <= max(4 * result.alternatives[1].loss_standard_error, 0.3)
    # the exact values differ between moves here, so the ranking has something to get right
    assert len(set(exact.values())) > 1


def test_neighbour_map_default_objective_hurts_the_owner():
    grid = mid_game(6)
    result = hint(
        turn_state(grid, (4, 4), (), mode=HintMode.NEIGHBOUR_MAP),
        Budget(GENEROUS),
        options=HintOptions(seed=2, rollouts=200),
    )
    assert result.objective is Objective.OWNER_WORST
    assert_ranking_invariants(result, maximise=False)


def test_solo_when_no_assignment_fits_both_maps_one_map_draws_and_gets_the_extra_turn():
    # Both maps only have room for a domino; roll (1, 4) = domino or 2x2 square: no pair of different options
    # fits. As in modes.SoloState, this is "can't draw on both": one domino on either map, the other map is
    # out and the drawn map gets one more turn (then the game is over).
    grid = parse_grid(
        """
        TTTTTTTTT
        WWWWWWWWW
        ~~~~~~~~~
        AAAAAAA..
        AAAAAAAAA
        """
    )
    result = hint(
        turn_state(grid, (1, 4), (), mode="solo", second_grid=grid),
        Budget(GENEROUS),
        options=HintOptions(seed=1, rollouts=100),
    )
    assert not result.blocked and result.game_ends_after and result.blocked_maps == ()
    assert result.alternatives
    turn = SoloState.new(maps=(grid, grid)).child((1, 4))
    drawn_on = set()
    for a in result.alternatives:
        drawn = [(i, p) for i, p in enumerate(a.move.placements) if p is not None]
        assert len(drawn) == 1
        map_index, placement = drawn[0]
        assert placement.option == Option(1, 4)
        draw(grid, placement)
        assert replay_solo(turn, a.move).last_turn_map == map_index
        drawn_on.add(map_index)
    assert drawn_on == {0, 1}


@pytest.mark.parametrize("crowd", [False, True], ids=["hint-weights", "crowd-term"])
@pytest.mark.parametrize("seed", range(6))
def test_shaped_values_match_the_rules_model_reference(seed, crowd, monkeypatch):
    """`ShapedGreedyPolicy.values` = greedy's gain minus the shaping terms, rebuilt here on the rules model's
    grid (up to the constant evaluation before the drawing); also with the crowd term switched on."""
    import campsolver.solver.happy_campers.hint as hint_module
    from campsolver.solver.happy_campers.hint import rollout_policy

    if crowd:
        monkeypatch.setattr(hint_module, "ROLLOUT_CROWD_WEIGHT", 0.5)
        monkeypatch.setattr(hint_module, "ROLLOUT_EXPOSURE_WEIGHT", 1.5)
    from campsolver.solver.happy_campers.policies import FastMap, candidate_of

    grid = mid_game(seed, turns=3 + seed)
    roll = ((1, 4), (2, 6), (3, 5), (6, 6), (4, 2), (5, 1))[seed]
    placements = legal_placements(grid, roll)
    fast = FastMap.from_grid(grid, (), DEFAULT_COMPONENTS)
    values = rollout_policy().values(fast, [candidate_of(p) for p in placements])
    reference = [reference_shaped_value(grid, p, (), DEFAULT_COMPONENTS) for p in placements]
    offset = reference[0] - values[0]
    assert all(abs(r - v - offset) < 1e-9 for r, v in zip(reference, values, strict=True))
    assert len(set(values)) > 1


class _StopsAfter(Budget):
    """A budget whose deadline strikes after `checks` budget checks (a loaded machine, reproducibly)."""

    def __init__(self, checks: int) -> None:
        super().__init__(60.0)
        self.left = checks

    def check(self) -> None:
        self.left -= 1
        if self.left < 0:
            from campsolver.solver.core.budget import SolveInterrupted

            raise SolveInterrupted("deadline")


def test_a_race_cut_after_a_few_futures_is_ordered_by_the_policys_evaluation():
    grid = mid_game(3)
    result = hint(turn_state(grid, (2, 5), ()), _StopsAfter(40), options=HintOptions(seed=4, rollouts=600))
    assert result.interrupted and 0 < result.rollouts <= 40
    raced = [a for a in result.alternatives if a.stage is Stage.FINALIST]
    assert raced and all(0 < a.samples < 6 for a in raced)
    assert result.alternatives[: len(raced)] == tuple(raced)
    screens = [a.screen_value for a in raced]
    assert screens == sorted(screens, reverse=True)
    assert result.ranked_by_screen
    assert any("ordered by the rollout policy's evaluation" in note for note in result.notes)
    # every raced move kept the same completed futures (one layer at a time)
    assert len({a.samples for a in raced}) == 1


def test_a_race_cut_late_still_ranks_by_the_sampled_values():
    grid = mid_game(3)
    result = hint(turn_state(grid, (2, 5), ()), _StopsAfter(400), options=HintOptions(seed=4, rollouts=2000))
    assert result.interrupted
    assert not result.ranked_by_screen
    assert not any("ordered by the rollout policy's evaluation" in note for note in result.notes)
    assert result.best is not None and result.best.value is not None


def test_a_cut_confirmation_keeps_the_top_value_fresh_or_claims_no_standard_error():
    """The deadline striking during the top move's confirmation: from 2 fresh rollouts on, the value is their mean
    (unbiased, with its standard error); below that it is the mean of the rollouts that chose the move (may read
    high: the winner's curse), and then neither it nor the values built on it claim a standard error."""
    grid = mid_game(3)
    full = hint(turn_state(grid, (2, 5), ()), Budget(GENEROUS), options=HintOptions(seed=4, rollouts=600))
    top = full.best
    assert top is not None and top.estimate == "fresh" and top.value_samples >= 10
    race = full.rollouts - top.value_samples  # one budget check a rollout
    for extra in (0, 1, 2, 5):
        result = hint(
            turn_state(grid, (2, 5), ()), _StopsAfter(race + extra), options=HintOptions(seed=4, rollouts=600)
        )
        best = result.best
        assert result.interrupted and best is not None and best.move == top.move
        assert_ranking_invariants(result)
        if extra >= 2:
            assert best.estimate == "fresh" and best.value_samples == extra and best.standard_error > 0
        else:
            assert best.estimate == "selection" and best.value_samples > extra
            assert all(a.standard_error is None for a in result.alternatives)
            assert all(a.loss_standard_error is not None for a in result.alternatives if a.value is not None)


def test_top_move_variance_uses_every_rollout_of_the_move_and_never_reads_below_the_pooled_spread():
    """A few fresh rollouts that missed the low tail read narrow: the top move's variance takes the race's
    rollouts of the move too and is floored at the pooled variance of all sampled moves."""
    from campsolver.solver.happy_campers.hint import VARIANCE_PRIOR_WEIGHT, _top_variance

    narrow = np.array([40.0, 41.0, 40.0, 41.0])
    assert _top_variance(narrow, None, 25.0) == 25.0
    wide_race = np.array([20.0, 40.0, 30.0, 50.0, 10.0])
    within = (3 * np.var(narrow, ddof=1) + 4 * np.var(wide_race, ddof=1)) / 7
    expected = (7 * within + VARIANCE_PRIOR_WEIGHT * 25.0) / (7 + VARIANCE_PRIOR_WEIGHT)
    assert _top_variance(narrow, wide_race, 25.0) == pytest.approx(expected)
    assert expected > 25.0


def test_hint_bench_variants_set_hint_constants_for_their_calls_only() -> None:
    """`bench.happy_campers_hint --variant NAME:CONSTANT=VALUE`: the value takes the constant's type, an
    unknown constant is refused, and the constant is restored after the variant's calls."""
    import campsolver.solver.happy_campers.hint as hint_module

    from bench.happy_campers_hint import _Variant, parse_variant

    name, settings = parse_variant("wide:ROLLOUTS_PER_RACED=12,ROLLOUT_CROWD_WEIGHT=0.5")
    assert name == "wide"
    assert settings == {"ROLLOUTS_PER_RACED": 12, "ROLLOUT_CROWD_WEIGHT": 0.5}
    assert type(settings["ROLLOUTS_PER_RACED"]) is int
    saved = hint_module.ROLLOUTS_PER_RACED
    with _Variant(settings):
        assert hint_module.ROLLOUTS_PER_RACED == 12
    restored = hint_module.ROLLOUTS_PER_RACED
    assert restored == saved
    with pytest.raises(SystemExit):
        parse_variant("bad:NO_SUCH_CONSTANT=1")


def test_each_paired_value_note_says_how_far_its_move_got_in_the_race():
    """A paired value's note says whether its move was a finalist or was halved out (and after which round): the
    two read differently (a finalist's shortfall rests on every finalist future). Found by the mutation run: the
    note's stage test read the other way round survived every test."""
    grid = mid_game(4)
    result = hint(
        turn_state(grid, (1, 5), (Challenge.PRIVACY,)), Budget(GENEROUS), options=HintOptions(seed=3, rollouts=250)
    )
    paired = [a for a in result.alternatives if a.estimate == "paired"]
    stages = Counter(a.stage for a in paired)
    assert stages[Stage.FINALIST] and stages[Stage.HALVED_OUT], stages
    for a in paired:
        if a.stage is Stage.FINALIST:
            assert "(a finalist;" in a.note and "halved out" not in a.note, a.note
        else:
            assert f"(halved out after round {a.stage_round};" in a.note and "finalist" not in a.note, a.note

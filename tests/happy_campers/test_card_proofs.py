"""Clairvoyant maxima with challenge cards: every cut, cap and target the card proofs rely on is checked
against the exhaustive oracle on tiny maps (many seeds), and the card-aware warm start's move terms
against hand-counted maps.

The cuts (`max_card_cuts`) and the target cut (`max_caps.target_value`) are upper bounds the solver is
told to trust; a cut that is too low would cut off the true optimum and CP-SAT would then "prove" a
smaller maximum. The strongest check of that: pin the oracle's optimal play in the model *with* the cuts;
it must stay feasible and score exactly the oracle's value.
"""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof, solve
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import card_moves, exhaustive, max_models, maximise, rules
from campsolver.solver.happy_campers.max_caps import clairvoyant_card_caps, target_value
from campsolver.solver.happy_campers.rules import Challenge, Components, Element, Option, Placement
from ortools.sat.python import cp_model

from tests.happy_campers.instances import TINY_3x4, TINY_4x4, planted_perfect_case, random_rolls, replay_plays

SOLVE_S = 30.0

#: Card sets whose model gets cuts (each card alone and mixed), plus the cards they are combined with.
CUT_CARD_SETS = [
    (Challenge.PRIVACY,),
    (Challenge.QUICK_PEE,),
    (Challenge.TENT_TOGETHER,),
    (Challenge.RIVER_TOWN,),
    (Challenge.PRIVACY, Challenge.TENT_TOGETHER),
    (Challenge.RIVER_TOWN, Challenge.QUICK_PEE),
    (Challenge.PRIVACY, Challenge.DANGEROUS_ANIMALS),
    (Challenge.NATURE_RESERVE,),
    (Challenge.NATURE_RESERVE, Challenge.QUICK_PEE),
]
#: Card sets with a target value (`maximise.TARGET_CARDS`).
TARGET_CARD_SETS = [
    (),
    (Challenge.DANGEROUS_ANIMALS,),
    (Challenge.GREAT_DIVIDE,),
    (Challenge.QUICK_PEE,),
    (Challenge.GREAT_DIVIDE, Challenge.DANGEROUS_ANIMALS),
]


def instance(seed: int, tag: str):
    rng = rng_for(seed, "test_card_proofs", tag)
    components = TINY_3x4 if seed % 2 == 0 else TINY_4x4
    rolls = random_rolls(rng, int(rng.integers(4, 7)))
    return components, rolls


def problem_of(components, rolls, challenges, start=None) -> maximise.MaxProblem:
    grid = start if start is not None else rules.empty_grid(components)
    return maximise.MaxProblem("clairvoyant", components, tuple(challenges), grid, rolls=tuple(rolls))


def oracle_plays(oracle: exhaustive.OracleResult, rolls) -> list[Placement | None]:
    return [*oracle.placements, *([None] * (len(rolls) - len(oracle.placements)))]


def pinned_objective(problem: maximise.MaxProblem, plays) -> tuple[int, float | None]:
    """Solve the complete-map model (with every cut) with the play's decisions pinned."""
    built = max_models._build_clairvoyant(problem, "complete", hint=plays, cuts=True)
    model = built.model
    hinted = list(zip(model.proto.solution_hint.vars, model.proto.solution_hint.values, strict=True))
    assert hinted, "the oracle's play must be representable in the model"
    for index, value in hinted:
        model.add(model.get_int_var_from_proto_index(index) == value)
    result = solve(model, Budget(SOLVE_S))
    return result.status, result.objective


@pytest.mark.slow
@pytest.mark.parametrize("challenges", CUT_CARD_SETS, ids=lambda cs: "+".join(c.value for c in cs))
def test_card_cuts_keep_the_oracle_optimum_feasible(challenges):
    """Would fail if any cut were too low: the oracle's optimal play, pinned in the model with the cuts,
    must be feasible and score exactly the oracle's maximum (complete maps only: an incomplete one is
    outside the complete-map model by design)."""
    checked = 0
    for seed in range(12):
        components, rolls = instance(seed, "cuts")
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, components)
        if not rules.score(oracle.final_grid, challenges, components).complete:
            continue
        status, objective = pinned_objective(problem_of(components, rolls, challenges), oracle_plays(oracle, rolls))
        assert status == cp_model.OPTIMAL, (seed, status)
        assert round(objective) == oracle.score, (seed, objective, oracle.score)
        checked += 1
    assert checked >= 4, checked


@pytest.mark.slow
@pytest.mark.parametrize("challenges", CUT_CARD_SETS[:4], ids=lambda cs: "+".join(c.value for c in cs))
def test_clairvoyant_with_cuts_matches_the_oracle(challenges):
    """End to end: the maximum (with cuts and the card-aware warm start) equals the oracle's, proven by
    CP-SAT's status, and the answer replays to its claimed score."""
    for seed in range(6):
        components, rolls = instance(seed, "end to end")
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, components)
        result = maximise.clairvoyant_max(None, rolls, challenges, components, Budget(SOLVE_S))
        assert result.proof is Proof.OPTIMAL and result.score == oracle.score == result.bound, seed
        grid = rules.empty_grid(components)
        for placement in result.placements:
            grid = rules.draw(grid, placement, components)
        assert rules.score(grid, challenges, components).total == result.score


@pytest.mark.slow
@pytest.mark.parametrize("challenges", TARGET_CARD_SETS, ids=lambda cs: "+".join(c.value for c in cs) or "none")
def test_target_value_bounds_the_oracle_and_the_target_model_is_exact(challenges):
    """`target_value` must bound every map (oracle <= target); the target feasibility model must find a
    map exactly when the oracle reaches the target, and its INFEASIBLE status (the solver's cut below the
    target) must only occur when the oracle stays below it. Short games (the rolls cannot fill the map)
    and full ones both occur. Quick Pee's target (a full map whose one toilet cluster meets every row and
    column, with every element drawn) is never reached by the random instances (on 3x4 it cannot be: the
    toilets need 6 squares and the four other elements 8, pieces being 2+ squares), so it also gets 4x4
    instances planted backwards from such a map (every other one with a roll replaced)."""
    cases = [(None, *instance(seed, "target")) for seed in range(14)]
    if Challenge.QUICK_PEE in challenges:
        lines = TINY_4x4.rows + TINY_4x4.cols
        for seed in range(4):
            start, rolls = planted_perfect_case(seed, TINY_4x4, (Challenge.QUICK_PEE,), tries=2000, bonus=lines)
            cases.append((start, TINY_4x4, rolls))
    outcomes = {True: 0, False: 0}
    for seed, (start, components, rolls) in enumerate(cases):
        problem = problem_of(components, rolls, challenges, start)
        caps = clairvoyant_card_caps(problem)
        target = target_value(problem, caps)
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, components)
        assert oracle.score <= target, (seed, oracle.score, target)
        built = max_models._build_clairvoyant(problem, "perfect", targets=caps)
        result = solve(built.model, Budget(SOLVE_S))
        assert result.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), seed
        reached = result.status == cp_model.OPTIMAL
        assert reached == (oracle.score == target), (seed, oracle.score, target, result.status)
        if reached:
            grid = start if start is not None else rules.empty_grid(components)
            for turn in built.read_turns(result):
                if turn.placement is not None:
                    grid = rules.draw(grid, turn.placement, components)
            assert rules.score(grid, challenges, components).total == target
        outcomes[reached] += 1
    assert outcomes[False] >= 1, outcomes
    if Challenge.GREAT_DIVIDE not in challenges:  # two-sided perfect maps are too rare on tiny maps
        assert outcomes[True] >= 1, outcomes


@pytest.mark.slow
@pytest.mark.parametrize("challenges", TARGET_CARD_SETS[1:3], ids=lambda cs: "+".join(c.value for c in cs))
def test_clairvoyant_with_target_cards_matches_the_oracle(challenges):
    # The Great Divide: 720 s for 6 seeds under a load average of 20 (the oracle and CP-SAT both work
    # harder with two-sided completeness), so 2 seeds keep it inside the 300 s test timeout.
    for seed in range(2 if Challenge.GREAT_DIVIDE in challenges else 6):
        components, rolls = instance(seed, "target end to end")
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, components)
        result = maximise.clairvoyant_max(None, rolls, challenges, components, Budget(SOLVE_S))
        assert result.proof is Proof.OPTIMAL and result.score == oracle.score, seed


# ---------------------------------------------------------------------------------------------------------
# The card-aware warm start's move terms, counted by hand
# ---------------------------------------------------------------------------------------------------------

T, W, LOO, E = Element.TREES, Element.WATER, Element.TOILETS, Element.TENTS
OPTION = Option(1, 1)


def grid_of(text: str) -> rules.Grid:
    symbols = {".": 0, "T": int(T), "O": int(LOO), "W": int(W), "A": int(E), "E": int(Element.ENTERTAINMENT)}
    return tuple(tuple(symbols[ch] for ch in line) for line in text.strip().split("\n"))


def term(card: Challenge, grid, cells, element) -> float:
    bonus = card_moves.card_bonus([card], TINY_4x4)
    assert bonus is not None
    return bonus(grid, Placement(frozenset(cells), element, OPTION))


def test_move_terms_count_what_each_card_scores():
    empty = rules.empty_grid(TINY_4x4)
    # Privacy: two edge squares of a tree domino on the top edge, none in the middle, none for water.
    assert term(Challenge.PRIVACY, empty, [(0, 1), (0, 2)], T) == 2 * card_moves.PRIVACY_WEIGHT
    assert term(Challenge.PRIVACY, empty, [(1, 1), (1, 2)], T) == 0
    assert term(Challenge.PRIVACY, empty, [(0, 1), (0, 2)], W) == 0
    # Dangerous Animals: minus the edge tents.
    assert (
        term(Challenge.DANGEROUS_ANIMALS, empty, [(0, 0), (1, 0), (2, 0)], E)
        == -3 * card_moves.DANGEROUS_ANIMALS_WEIGHT
    )
    # Quick Pee: a vertical toilet domino reaches 2 rows + 1 column; next to a toilet in row 0, 1 row.
    assert term(Challenge.QUICK_PEE, empty, [(0, 1), (1, 1)], LOO) == 3 * card_moves.QUICK_PEE_WEIGHT
    grid = grid_of("O...\n....\n....\n....")
    assert term(Challenge.QUICK_PEE, grid, [(0, 1), (1, 1)], LOO) == 2 * card_moves.QUICK_PEE_WEIGHT
    # Tent Together: a tent domino completing one 2x2 window.
    grid = grid_of("AA..\n....\n....\n....")
    assert term(Challenge.TENT_TOGETHER, grid, [(1, 0), (1, 1)], E) == card_moves.TENT_SQUARE_WEIGHT
    assert term(Challenge.TENT_TOGETHER, grid, [(1, 1), (1, 2)], E) == 0
    # River Town: water joining a water square in column 0 spans columns 0-2: two new columns.
    grid = grid_of("W...\n....\n....\n....")
    assert term(Challenge.RIVER_TOWN, grid, [(0, 1), (0, 2)], W) == 2 * card_moves.RIVER_COLUMN_WEIGHT
    # Nature Reserve: closing in the single empty square (0, 0).
    grid = grid_of(".T..\nT...\n....\n....")
    assert term(Challenge.NATURE_RESERVE, grid, [(1, 1), (2, 1)], W) == 0
    grid = grid_of(".T..\n....\n....\n....")
    assert term(Challenge.NATURE_RESERVE, grid, [(1, 0), (2, 0)], W) == card_moves.NATURE_RESERVE_WEIGHT
    # The Great Divide (4 columns: halves 0-1 and 2-3): water new on both halves, then on none.
    assert term(Challenge.GREAT_DIVIDE, empty, [(0, 1), (0, 2)], W) == 2 * card_moves.GREAT_DIVIDE_WEIGHT
    grid = grid_of("WW..\n..W.\n....\n....")
    assert term(Challenge.GREAT_DIVIDE, grid, [(3, 1), (3, 2)], W) == 0


def test_card_aware_greedy_plays_are_legal_forced_plays():
    """The warm start with card move terms still plays legally (each roll drawn while it fits)."""
    from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play

    cards = (Challenge.PRIVACY, Challenge.QUICK_PEE)
    bonus = card_moves.card_bonus(cards, rules.DEFAULT_COMPONENTS)
    for seed in range(3):
        rolls = random_rolls(rng_for(seed, "test_card_proofs", "greedy"), 15)
        total, plays = greedy_play(
            rules.empty_grid(), rolls, cards, rules.DEFAULT_COMPONENTS, rng_for(seed, "g"), 4, bonus=bonus
        )
        grid = rules.empty_grid()
        ended = False
        for roll, play in zip(rolls, plays, strict=True):
            if play is None:
                assert ended or not rules.can_draw(grid, roll)
                ended = True
                continue
            assert not ended and play.option in rules.roll_options(roll)
            grid = rules.draw(grid, play)
        assert rules.score(grid, cards).total == total


# ---------------------------------------------------------------------------------------------------------
# The Great Divide: the perfect-map search aimed at two-sided perfect maps
# ---------------------------------------------------------------------------------------------------------

#: Five rows: a two-sided perfect map needs one square of each element in the middle column.
TINY_5x3 = Components(rows=5, cols=3)


def test_divide_aimed_search_agrees_with_the_oracle():
    """The crossing-column prune must only cut maps that cannot end two-sided and perfect: the search finds a
    map exactly when the oracle's maximum is the number of squares (planted two-sided perfect maps, every
    other one with a roll replaced), exhausts its tree otherwise, and what it finds replays to that score."""
    divide = (Challenge.GREAT_DIVIDE,)
    counts = {True: 0, False: 0}
    for seed in range(12):
        start, rolls = planted_perfect_case(seed, TINY_5x3, divide, tries=2000)
        problem = maximise.MaxProblem("clairvoyant", TINY_5x3, divide, start, rolls=tuple(rolls))
        oracle = exhaustive.clairvoyant_max(start, rolls, divide, TINY_5x3)
        search = maximise._perfect_search(problem, Budget(SOLVE_S), seed, clairvoyant_card_caps(problem))
        reachable = oracle.score == TINY_5x3.cell_count
        counts[reachable] += 1
        if reachable:
            assert search.plays is not None, seed
            final = replay_plays(start, rolls, search.plays, TINY_5x3)
            assert rules.score(final, divide, TINY_5x3).total == TINY_5x3.cell_count
        else:
            assert search.plays is None and search.exhausted, (seed, oracle.score)
    assert counts[True] >= 3 and counts[False] >= 1, counts


def test_the_river_column_cut_is_added_where_water_is_scarce_and_keeps_the_oracles_rivers():
    """River Town's per-column cut (rivers <= each column's water squares), added when the rolls' water makes at
    most two rivers: where it is in the model of a tiny map, the oracle's optimal play pinned in it stays feasible at
    exactly the oracle's score, rivers included (fails if the cut were too low)."""
    challenges = (Challenge.RIVER_TOWN,)
    with_rivers = checked = 0
    for seed in range(24):
        components, rolls = instance(seed, "river columns")
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, components)
        breakdown = rules.score(oracle.final_grid, challenges, components)
        if not breakdown.complete:
            continue
        built = max_models._build_clairvoyant(problem_of(components, rolls, challenges), "complete", cuts=True)
        if not any(v.name.startswith("cut_col_0_water_") for v in built.model.proto.variables):
            continue  # water for more than two rivers: the cut is left out
        status, objective = pinned_objective(problem_of(components, rolls, challenges), oracle_plays(oracle, rolls))
        assert status == cp_model.OPTIMAL and round(objective) == oracle.score, (seed, status, objective, oracle.score)
        with_rivers += breakdown.challenge_points.get(Challenge.RIVER_TOWN, 0) > 0
        checked += 1
        if checked >= 4 and with_rivers >= 1:
            break
    assert checked >= 4 and with_rivers >= 1, (checked, with_rivers)


def test_the_river_column_cut_is_left_out_where_water_makes_more_than_two_rivers():
    from campsolver.solver.happy_campers import max_card_cuts

    from bench.happy_campers_max import seeded_rolls

    rolls = seeded_rolls(1, 20)  # the default 5 x 9 map: water for more than two rivers of 9 squares
    problem = maximise.MaxProblem(
        "clairvoyant", rules.DEFAULT_COMPONENTS, (Challenge.RIVER_TOWN,), rules.empty_grid(), rolls=tuple(rolls)
    )
    built = max_models._build_clairvoyant(problem, "complete", cuts=True)
    names = [v.name for v in built.model.proto.variables]
    assert max_card_cuts.RIVER_COLUMN_CUT and not any(name.startswith("cut_col_") for name in names)


@pytest.mark.parametrize(
    ("components", "start_text"),
    [(TINY_3x4, "WWWW\n....\n...."), (TINY_4x4, "WWWW\n....\n....\n....")],
    ids=["3x4", "4x4"],
)
def test_the_river_column_cut_counts_pre_drawn_water(monkeypatch, components, start_text):
    """From a map whose top row is already a river, the oracle's optimal play pinned in the model with the column
    cut stays feasible at exactly the oracle's score, rivers included (fails if a column's pre-drawn water squares
    were left out of the cut). The cut holds whatever the water; it is added here at any amount of it."""
    from campsolver.solver.happy_campers import max_card_cuts

    monkeypatch.setattr(max_card_cuts, "RIVER_COLUMN_CUT_MAX_RIVERS", 99)
    challenges = (Challenge.RIVER_TOWN,)
    start = grid_of(start_text)
    for seed in range(80):
        rng = rng_for(seed, "test_card_proofs", "river columns from a start")
        rolls = random_rolls(rng, int(rng.integers(3, 8)))
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, components)
        breakdown = rules.score(oracle.final_grid, challenges, components)
        if not breakdown.complete:
            continue
        problem = problem_of(components, rolls, challenges, start)
        built = max_models._build_clairvoyant(problem, "complete", cuts=True)
        assert any(v.name.startswith("cut_col_0_water_") for v in built.model.proto.variables), seed
        assert breakdown.challenge_points.get(Challenge.RIVER_TOWN, 0) > 0, seed
        status, objective = pinned_objective(problem, oracle_plays(oracle, rolls))
        assert status == cp_model.OPTIMAL and round(objective) == oracle.score, (seed, status, objective, oracle.score)
        return
    raise AssertionError("no complete map among the seeds")

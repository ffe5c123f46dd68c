"""CP-SAT maxima against the rules model and the brute-force oracles on tiny maps.

Every answer is replayed here through the rules model independently of the checks inside `maximise`:
each placement legal in order, forced play respected (a skipped roll really could not be drawn, and only
after the first such roll), the final map equal to the replay, and the claimed score equal to
`rules.score` of that map.
"""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, maximise, rules
from campsolver.solver.happy_campers.cpsat_warmstart import PerfectSearch, perfect_play
from campsolver.solver.happy_campers.maximise import (
    MaxResult,
    absolute_max,
    challenge_max,
    clairvoyant_max,
    is_unique_optimum,
    model_score,
)
from campsolver.solver.happy_campers.rules import Challenge, Components
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from tests.happy_campers.instances import (
    TINY_3x4,
    TINY_4x4,
    planted_perfect_case,
    random_rolls,
    replay_plays,
)

SOLVE_S = 30.0


def replay_clairvoyant(result: MaxResult, start: rules.Grid, rolls, components: Components) -> rules.Grid:
    """Re-draw the answer with the rules model; return the final map."""
    assert len(result.turns) == len(rolls)
    grid = start
    ended = False
    for turn, roll in zip(result.turns, rolls, strict=True):
        assert turn.roll == tuple(roll)
        if turn.placement is None:
            if not ended:
                assert not rules.can_draw(grid, roll, components), "a drawable roll was skipped"
            ended = True
            continue
        assert not ended, "a roll was drawn after the game ended"
        assert turn.placement.option in rules.roll_options(roll)
        grid = rules.draw(grid, turn.placement, components)
    assert grid == result.grid
    return grid


def predrawn_map(rng, components: Components, pieces: int) -> rules.Grid:
    """A legal pre-drawn map: `pieces` random legal drawings of random rolls from an empty map."""
    grid = rules.empty_grid(components)
    for _ in range(pieces):
        moves = rules.legal_placements(grid, random_rolls(rng, 1)[0], components)
        if moves:
            grid = rules.draw(grid, moves[int(rng.integers(len(moves)))], components)
    return grid


def clairvoyant_instance(seed: int):
    rng = rng_for(seed, "test_maximise", "clairvoyant")
    components = TINY_3x4 if seed % 2 == 0 else TINY_4x4
    rolls = random_rolls(rng, int(rng.integers(5, 8)))
    start = predrawn_map(rng, components, 1) if seed % 3 == 2 else rules.empty_grid(components)
    card_sets = [(), (), (Challenge.PRIVACY,), (Challenge.NATURE_RESERVE,), (Challenge.TENT_TOGETHER,)]
    challenges = card_sets[seed % len(card_sets)]
    if components is TINY_4x4 and Challenge.NATURE_RESERVE in challenges:
        challenges = ()  # the oracle's optimistic bound is loose there: minutes instead of milliseconds
    return components, start, rolls, challenges


def check_clairvoyant_seed(seed: int) -> tuple[bool, bool]:
    components, start, rolls, challenges = clairvoyant_instance(seed)
    oracle = exhaustive.clairvoyant_max(start, rolls, challenges, components)
    result = clairvoyant_max(start, rolls, challenges, components, Budget(SOLVE_S))
    assert result.proof is Proof.OPTIMAL, (seed, result.proof)
    assert result.score == oracle.score == result.bound, (seed, result.score, oracle.score)
    final = replay_clairvoyant(result, start, rolls, components)
    assert rules.score(final, challenges, components).total == result.score
    forced_end = any(t.placement is None for t in result.turns)
    return forced_end, result.score > 0


def test_clairvoyant_matches_oracle_on_tiny_maps():
    outcomes = [check_clairvoyant_seed(seed) for seed in range(14, 40)]
    # The instance set must exercise both early endings and real (positive) scores, else it proves little.
    assert sum(forced for forced, _ in outcomes) >= 3
    assert sum(positive for _, positive in outcomes) >= 3
    assert sum(not forced for forced, _ in outcomes) >= 2


@pytest.mark.slow
def test_clairvoyant_matches_oracle_on_many_tiny_maps():
    outcomes = [check_clairvoyant_seed(seed) for seed in [*range(14), *range(40, 90)]]
    assert sum(forced for forced, _ in outcomes) >= 10
    assert sum(positive for _, positive in outcomes) >= 10


def test_clairvoyant_with_cards_and_great_divide_matches_oracle():
    rng = rng_for(7, "test_maximise", "cards")
    card_sets = [
        (Challenge.RIVER_TOWN, Challenge.QUICK_PEE),
        (Challenge.GREAT_DIVIDE, Challenge.DANGEROUS_ANIMALS),
        (Challenge.FESTIVAL, Challenge.NATURE_RESERVE),
    ]
    for challenges in card_sets:
        rolls = random_rolls(rng, 6)
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, TINY_3x4)
        result = clairvoyant_max(None, rolls, challenges, TINY_3x4, Budget(SOLVE_S))
        assert result.proof is Proof.OPTIMAL
        assert result.score == oracle.score, challenges
        final = replay_clairvoyant(result, rules.empty_grid(TINY_3x4), rolls, TINY_3x4)
        assert rules.score(final, challenges, TINY_3x4).total == result.score


def test_game_ends_at_first_undrawable_roll_even_if_later_rolls_fit():
    # 2x2 squares first fill the 3x4 map's room for squares; a square then cannot be drawn, and the later
    # dominoes (which would fit) must stay unused.
    components = TINY_3x4
    start = rules.parse_grid("TTWW\nTTWW\n....")
    rolls = [(4, 4), (1, 1), (1, 1)]
    result = clairvoyant_max(start, rolls, (), components, Budget(SOLVE_S))
    assert [t.placement is None for t in result.turns] == [True, True, True]
    assert result.grid == start
    assert result.score == 0 and result.proof is Proof.OPTIMAL  # incomplete map


@pytest.mark.parametrize(
    "challenges",
    [
        (),
        (Challenge.PRIVACY,),
        (Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER),
        (Challenge.NATURE_RESERVE,),
        (Challenge.GREAT_DIVIDE, Challenge.QUICK_PEE),
        (Challenge.DANGEROUS_ANIMALS, Challenge.FESTIVAL),
    ],
)
def test_absolute_max_matches_oracle(challenges):
    oracle = exhaustive.absolute_max(TINY_3x4, challenges)
    result = absolute_max(TINY_3x4, challenges, Budget(SOLVE_S))
    assert result.proof is Proof.OPTIMAL
    assert result.score == oracle.score == result.bound
    grid = rules.empty_grid(TINY_3x4)
    for turn in result.turns:
        grid = rules.draw(grid, turn.placement, TINY_3x4)
    assert grid == result.grid
    assert rules.score(grid, challenges, TINY_3x4).total == result.score


def test_absolute_max_from_a_predrawn_map_matches_oracle():
    start = rules.parse_grid("....\n.EE.\n....")
    oracle = exhaustive.absolute_max(TINY_3x4, (Challenge.PRIVACY,), start_grid=start)
    result = absolute_max(TINY_3x4, (Challenge.PRIVACY,), Budget(SOLVE_S), start_grid=start)
    assert result.proof is Proof.OPTIMAL and result.score == oracle.score
    grid = start
    for turn in result.turns:
        grid = rules.draw(grid, turn.placement, TINY_3x4)
    assert grid == result.grid and rules.score(grid, (Challenge.PRIVACY,), TINY_3x4).total == result.score


def test_challenge_max_privacy_on_tiny_map_is_every_edge_square_but_room_for_four_elements():
    # 3x5: 12 edge squares around 3 inner ones. The other four elements need a piece (>= 2 squares) each,
    # 8 squares, of which at most 3 are inner: at least 5 edge squares are not trees, so at most 7 are.
    components = Components(rows=3, cols=5)
    result = challenge_max(Challenge.PRIVACY, components, Budget(SOLVE_S))
    assert result.proof is Proof.OPTIMAL
    breakdown = rules.score(result.grid, (Challenge.PRIVACY,), components)
    assert breakdown.complete
    assert breakdown.challenge_points[Challenge.PRIVACY] == result.score == 7


def test_uniqueness_matches_enumeration_of_optimal_final_maps():
    """is_unique_optimum against an exhaustive count of distinct optimal final maps."""
    checked = {True: 0, False: 0}
    for seed in range(60):
        rng = rng_for(seed, "test_maximise", "unique")
        rolls = random_rolls(rng, 2)
        # A well-filled lopsided start: mirror images are different maps and few finishes tie.
        start = predrawn_map(rng, TINY_4x4, 4)
        best, maps = optimal_final_maps(start, rolls, TINY_4x4)
        result = clairvoyant_max(start, rolls, (), TINY_4x4, Budget(SOLVE_S))
        assert result.score == best
        if best <= 0:
            continue
        unique = is_unique_optimum(result, Budget(SOLVE_S))
        assert unique == (len(maps) == 1), seed
        checked[unique] += 1
        if checked[True] and checked[False]:
            break
    assert checked[True] >= 1 and checked[False] >= 1


def optimal_final_maps(start, rolls, components):
    """(best score, set of distinct final maps reaching it) by plain enumeration of forced plays."""
    memo: dict = {}

    def go(grid, index):
        key = (grid, index)
        if key in memo:
            return memo[key]
        moves = rules.legal_placements(grid, rolls[index], components) if index < len(rolls) else []
        if not moves:
            answer = (rules.score(grid, (), components).total, {grid})
        else:
            best, maps = None, set()
            for move in moves:
                value, finals = go(rules.draw(grid, move, components), index + 1)
                if best is None or value > best:
                    best, maps = value, set(finals)
                elif value == best:
                    maps |= finals
            answer = (best, maps)
        memo[key] = answer
        return answer

    return go(start, 0)


def test_cancelled_budget_stops_without_claiming_optimality():
    rng = rng_for(3, "test_maximise", "cancel")
    rolls = random_rolls(rng, 20)
    budget = Budget(60)
    budget.cancel()
    result = clairvoyant_max(None, rolls, (), rules.DEFAULT_COMPONENTS, budget)
    # What a cancel guarantees (not a wall-clock figure, which races under load): no CP-SAT search ran.
    assert result.stats.solves == 0 and result.stats.branches == 0
    assert result.proof is not Proof.OPTIMAL
    if result.grid is not None:  # whatever was found is still a checked, legal play
        replay_clairvoyant(result, rules.empty_grid(), rolls, rules.DEFAULT_COMPONENTS)


# ---------------------------------------------------------------------------------------------------------
# The scoring encoding alone, against rules.score, on arbitrary (also disconnected) maps
# ---------------------------------------------------------------------------------------------------------

CARD_SETS = [
    (),
    (Challenge.PRIVACY, Challenge.QUICK_PEE),
    (Challenge.RIVER_TOWN,),
    (Challenge.TENT_TOGETHER, Challenge.DANGEROUS_ANIMALS),
    (Challenge.NATURE_RESERVE, Challenge.FESTIVAL),
    (Challenge.GREAT_DIVIDE,),
]


@st.composite
def maps_and_cards(draw):
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(3, 5))
    components = Components(rows=rows, cols=cols)
    # Bias towards water and tents so rivers and tent squares actually occur.
    values = st.sampled_from([0, 0, 1, 2, 3, 3, 3, 4, 4, 4, 5])
    grid = tuple(tuple(draw(values) for _ in range(cols)) for _ in range(rows))
    cards = draw(st.sampled_from(CARD_SETS))
    return components, grid, cards


@settings(max_examples=60, deadline=None)
@given(maps_and_cards())
def test_scoring_encoding_equals_rules_score(case):
    components, grid, cards = case
    breakdown = rules.score(grid, cards, components)
    value = model_score(grid, cards, components, Budget(SOLVE_S))
    if breakdown.complete:
        assert value == breakdown.total
    else:
        assert value is None


def test_scoring_encoding_on_rivers_and_tent_squares():
    grid = rules.parse_grid("~~~~\nAA~T\nAAWE\n~~~~")
    components = TINY_4x4
    cards = (Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER)
    breakdown = rules.score(grid, cards, components)
    assert breakdown.challenge_points[Challenge.RIVER_TOWN] == 10
    assert model_score(grid, cards, components) == breakdown.total


# ---------------------------------------------------------------------------------------------------------
# Perfect maps (every square drawn, one cluster per element): the search behind the clairvoyant hint
# ---------------------------------------------------------------------------------------------------------


def test_perfect_search_agrees_with_the_oracle_on_tiny_maps():
    """perfect_play finds a play exactly when the oracle's maximum is the number of squares (a perfect map),
    and it says so by exhausting its tree otherwise: its pruning never cuts a perfect finish."""
    counts = {True: 0, False: 0}
    for seed in range(40):
        start, rolls = planted_perfect_case(seed)
        oracle = exhaustive.clairvoyant_max(start, rolls, (), TINY_4x4)
        search = perfect_play(start, rolls, TINY_4x4, rng_for(seed, "test_maximise", "dfs"), Budget(SOLVE_S))
        perfect = oracle.score == TINY_4x4.cell_count
        counts[perfect] += 1
        if perfect:
            assert search.plays is not None, seed
            final = replay_plays(start, rolls, search.plays, TINY_4x4)
            assert rules.score(final, (), TINY_4x4).total == TINY_4x4.cell_count
        else:
            assert search.plays is None and search.exhausted, (seed, oracle.score)
    assert counts[True] >= 10 and counts[False] >= 3, counts


def test_clairvoyant_proves_a_perfect_map_on_the_default_map():
    rolls = random_rolls(rng_for(2, "test_maximise", "default perfect"), 15)
    result = clairvoyant_max(None, rolls, (), rules.DEFAULT_COMPONENTS, Budget(SOLVE_S))
    final = replay_clairvoyant(result, rules.empty_grid(), rolls, rules.DEFAULT_COMPONENTS)
    assert rules.score(final).total == result.score
    # The claim is CP-SAT's own status; 45 is also the plain upper bound (every square, one cluster each).
    assert result.proof is Proof.OPTIMAL and result.score == result.bound == rules.DEFAULT_COMPONENTS.cell_count


def test_perfect_search_returns_legal_perfect_plays_on_the_default_map():
    for seed in range(3):
        rolls = random_rolls(rng_for(seed, "test_maximise", "perfect default"), 15)
        search = perfect_play(rules.empty_grid(), rolls, rules.DEFAULT_COMPONENTS, rng_for(seed, "dfs"), Budget(20))
        assert search.plays is not None, seed
        final = replay_plays(rules.empty_grid(), rolls, search.plays, rules.DEFAULT_COMPONENTS)
        breakdown = rules.score(final)
        assert breakdown.empty_points == 0 and breakdown.total == rules.DEFAULT_COMPONENTS.cell_count


def test_perfect_search_stops_on_a_cancelled_budget():
    rolls = random_rolls(rng_for(5, "test_maximise", "perfect cancel"), 15)
    budget = Budget(60)
    budget.cancel()
    search = perfect_play(rules.empty_grid(), rolls, rules.DEFAULT_COMPONENTS, rng_for(5, "dfs"), budget)
    # A cancelled budget stops the search before its first node (an event, not a clock reading).
    assert search.plays is None and not search.exhausted
    assert search.nodes <= 1


def test_perfect_map_model_path_matches_the_oracle(monkeypatch):
    """When the depth-first search gives up, CP-SAT's perfect-map model either finds a perfect play or
    proves there is none, and that proof caps the main objective below the perfect value: the answers
    (score and OPTIMAL claim) must still match the oracle, on instances with and without perfect maps."""
    monkeypatch.setattr(maximise, "perfect_play", lambda *args: PerfectSearch(None, False, 0))
    perfect_models: list = []
    perfect_results = []
    real_build, real_solve = maximise._build_clairvoyant, maximise.solve

    def recording_build(problem, mode, hint=None, **kwargs):
        built = real_build(problem, mode, hint, **kwargs)
        if mode == "perfect":
            perfect_models.append(built.model)
        return built

    def recording_solve(model, budget, **kwargs):
        result = real_solve(model, budget, **kwargs)
        if any(model is perfect for perfect in perfect_models):
            perfect_results.append(result.status)
        return result

    monkeypatch.setattr(maximise, "_build_clairvoyant", recording_build)
    monkeypatch.setattr(maximise, "solve", recording_solve)
    cases = [planted_perfect_case(seed) for seed in (*range(8), 13, 21, 33)]  # 13, 21, 33: optimum 14 of 16
    cases += [(rules.empty_grid(TINY_4x4), random_rolls(rng_for(seed, "test_maximise", "cut"), 7)) for seed in range(6)]
    for start, rolls in cases:
        oracle = exhaustive.clairvoyant_max(start, rolls, (), TINY_4x4)
        result = clairvoyant_max(start, rolls, (), TINY_4x4, Budget(SOLVE_S))
        assert result.proof is Proof.OPTIMAL and result.score == oracle.score
        final = replay_clairvoyant(result, start, rolls, TINY_4x4)
        assert rules.score(final, (), TINY_4x4).total == result.score
    assert cp_model.INFEASIBLE in perfect_results and cp_model.OPTIMAL in perfect_results


# ---------------------------------------------------------------------------------------------------------
# Point-scoring cards: analytic caps and the perfect-map search aimed at them
# ---------------------------------------------------------------------------------------------------------

CAPPED_CARD_SETS = [
    (Challenge.PRIVACY,),
    (Challenge.DANGEROUS_ANIMALS,),
    (Challenge.QUICK_PEE,),
    (Challenge.TENT_TOGETHER,),
    (Challenge.RIVER_TOWN,),
    (Challenge.DANGEROUS_ANIMALS, Challenge.QUICK_PEE),
]


def clairvoyant_problem(start, rolls, challenges, components) -> maximise.MaxProblem:
    return maximise.MaxProblem("clairvoyant", components, tuple(challenges), start, rolls=tuple(rolls))


def test_card_caps_bound_the_card_points_of_random_plays():
    """Each cap must hold for every final map of the rolls: random forced plays (random legal moves) on
    tiny and default maps, from empty and pre-drawn starts, never score a card above its cap."""
    checked = 0
    for seed in range(60):
        rng = rng_for(seed, "test_maximise", "caps")
        components = (TINY_3x4, TINY_4x4, rules.DEFAULT_COMPONENTS)[seed % 3]
        start = predrawn_map(rng, components, 2) if seed % 2 else rules.empty_grid(components)
        rolls = random_rolls(rng, 12)
        cards = tuple(c for c in Challenge if c not in (Challenge.NATURE_RESERVE, Challenge.GREAT_DIVIDE))
        caps = maximise.clairvoyant_card_caps(clairvoyant_problem(start, rolls, cards, components))
        assert set(caps) == {c for c in cards if c not in (Challenge.FESTIVAL, Challenge.NOISY_NEIGHBOURS)}
        grid = start
        for roll in rolls:
            moves = rules.legal_placements(grid, roll, components)
            if not moves:
                break
            grid = rules.draw(grid, moves[int(rng.integers(len(moves)))], components)
        points = rules.score(grid, cards, components).challenge_points
        for card, cap in caps.items():
            assert points[card] <= cap, (seed, card, points[card], cap)
            checked += 1
    assert checked == 60 * 5


def test_card_target_search_agrees_with_the_oracle_on_tiny_maps():
    """With Dangerous Animals / Quick Pee, the search aimed at the caps finds a perfect map meeting them
    exactly when the oracle's maximum is squares + caps (such a map is the only way to score that: each card
    is at most its cap and the rest at most the squares), and exhausts its tree otherwise."""
    counts = {True: 0, False: 0}
    for seed in range(30):
        start, rolls = planted_perfect_case(seed)
        challenges = CAPPED_CARD_SETS[1 + seed % 3]
        problem = clairvoyant_problem(start, rolls, challenges, TINY_4x4)
        caps = maximise.clairvoyant_card_caps(problem)
        target = TINY_4x4.cell_count + sum(caps.values())
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, TINY_4x4)
        assert oracle.score <= target, seed

        def meets_caps(grid, challenges=challenges, caps=caps):
            points = rules.score(grid, challenges, TINY_4x4).challenge_points
            return all(points[card] >= cap for card, cap in caps.items())

        search = perfect_play(
            start,
            rolls,
            TINY_4x4,
            rng_for(seed, "test_maximise", "card dfs"),
            Budget(SOLVE_S),
            accept=meets_caps,
            viable=maximise._card_viability(problem, caps),
        )
        reachable = oracle.score == target
        counts[reachable] += 1
        if reachable:
            assert search.plays is not None, seed
            final = replay_plays(start, rolls, search.plays, TINY_4x4)
            assert rules.score(final, challenges, TINY_4x4).total == target
        else:
            assert search.plays is None and search.exhausted, (seed, oracle.score, target)
    assert counts[True] >= 3 and counts[False] >= 3, counts


@pytest.mark.parametrize("challenges", CAPPED_CARD_SETS[1:3])
def test_clairvoyant_with_capped_cards_matches_oracle(challenges):
    """The caps (redundant constraints) and the card-aimed hint never change the answer."""
    for seed in range(6):
        start, rolls = planted_perfect_case(seed + 40)
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, TINY_4x4)
        result = clairvoyant_max(start, rolls, challenges, TINY_4x4, Budget(SOLVE_S))
        assert result.proof is Proof.OPTIMAL and result.score == oracle.score == result.bound, seed
        final = replay_clairvoyant(result, start, rolls, TINY_4x4)
        assert rules.score(final, challenges, TINY_4x4).total == result.score


def test_clairvoyant_proves_dangerous_animals_on_the_default_map():
    """A perfect map with no tent on the edge scores 45 + 0, the caps' sum: OPTIMAL from CP-SAT's status."""
    rolls = random_rolls(rng_for(1, "test_maximise", "default cards"), 15)
    challenges = (Challenge.DANGEROUS_ANIMALS,)
    result = clairvoyant_max(None, rolls, challenges, rules.DEFAULT_COMPONENTS, Budget(SOLVE_S))
    final = replay_clairvoyant(result, rules.empty_grid(), rolls, rules.DEFAULT_COMPONENTS)
    assert rules.score(final, challenges).total == result.score
    assert result.proof is Proof.OPTIMAL and result.score == result.bound == rules.DEFAULT_COMPONENTS.cell_count


# ---------------------------------------------------------------------------------------------------------
# When OPTIMAL may be claimed: only when every phase's CP-SAT status closed it (mutation-checked rules)
# ---------------------------------------------------------------------------------------------------------

#: 4x4, start "TW~A" on the top row, one roll (1, 5): a domino of entertainment completes the map with 10
#: empty squares (1+1+1+1+2 - 10 = -4), the T-tetromino of trees leaves it incomplete (0). Optimum 0, from
#: the incomplete phase, so both phases run.
PHASES_MAP = "TW~A\n....\n....\n...."


def _downgraded(monkeypatch, which: str) -> list:
    """Make the CP-SAT solves of `which` models ("complete" or "incomplete") report FEASIBLE (as if the
    time limit had stopped them), keeping their solutions; returns the list of downgraded results."""
    import dataclasses

    real_build, real_solve = maximise._build_clairvoyant, maximise.solve
    marked: list = []
    downgraded: list = []

    def build(problem, mode, hint=None, **kwargs):
        built = real_build(problem, mode, hint, **kwargs)
        if mode == which:
            marked.append(built.model)
        return built

    def solve(model, budget, **kwargs):
        result = real_solve(model, budget, **kwargs)
        if any(model is m for m in marked) and result.status == cp_model.OPTIMAL:
            result = dataclasses.replace(result, status=cp_model.FEASIBLE, proof=Proof.FEASIBLE_WITH_BOUND)
            downgraded.append(result)
        return result

    monkeypatch.setattr(maximise, "_build_clairvoyant", build)
    monkeypatch.setattr(maximise, "solve", solve)
    return downgraded


def test_both_phases_closed_is_what_makes_the_incomplete_optimum_optimal():
    components = TINY_4x4
    start = rules.parse_grid(PHASES_MAP, components)
    honest = clairvoyant_max(start, [(1, 5)], (), components, Budget(SOLVE_S))
    assert honest.proof is Proof.OPTIMAL and honest.score == 0 and honest.bound == 0


@pytest.mark.parametrize("which", ["complete", "incomplete"])
def test_an_open_phase_never_claims_optimal(monkeypatch, which):
    components = TINY_4x4
    start = rules.parse_grid(PHASES_MAP, components)
    downgraded = _downgraded(monkeypatch, which)
    result = clairvoyant_max(start, [(1, 5)], (), components, Budget(SOLVE_S))
    assert downgraded, "the phase under test ran"
    assert result.proof is not Proof.OPTIMAL
    assert result.score == 0  # the answer itself is still the checked best found


def test_an_open_main_solve_never_claims_optimal_on_a_positive_optimum(monkeypatch):
    for seed in range(20):  # the first seeded sequence whose optimum is a positive complete map
        rolls = random_rolls(rng_for(seed, "test_maximise", "open main"), 8)
        honest = clairvoyant_max(None, rolls, (), TINY_4x4, Budget(SOLVE_S))
        if honest.score is not None and honest.score > 0:
            break
    assert honest.proof is Proof.OPTIMAL and honest.score > 0
    downgraded = _downgraded(monkeypatch, "complete")
    result = clairvoyant_max(None, rolls, (), TINY_4x4, Budget(SOLVE_S))
    assert downgraded
    if result.score is not None and result.score >= 0 and result.score == honest.score:
        assert result.proof is Proof.FEASIBLE_WITH_BOUND
    assert result.proof is not Proof.OPTIMAL

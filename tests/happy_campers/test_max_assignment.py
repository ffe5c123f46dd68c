"""The per-roll assignment bound (`max_assignment`) is a bound: no complete final map of forced play scores more.

It is added to the clairvoyant model as `objective <= bound`, so a bound that is too low would make CP-SAT "prove"
a smaller maximum. Checked against plain enumeration of every forced play on tiny maps (every card set the
maximiser meets), against random legal plays on the default map, and its pieces (the saturating shift, the mask
step) on small arrays. The shipped Nature Reserve caps (`max_nature`) are checked the same way in
test_max_nature.py."""

from __future__ import annotations

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, max_assignment, maximise, rules
from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play
from campsolver.solver.happy_campers.max_nature import caps_for
from campsolver.solver.happy_campers.max_problem import MaxProblem
from campsolver.solver.happy_campers.rules import Challenge, Components

from tests.happy_campers.instances import TINY_3x4, random_rolls

CARD_SETS = [
    (),
    (Challenge.PRIVACY,),
    (Challenge.QUICK_PEE,),
    (Challenge.TENT_TOGETHER,),
    (Challenge.RIVER_TOWN,),
    (Challenge.NATURE_RESERVE,),
    (Challenge.DANGEROUS_ANIMALS,),
    (Challenge.GREAT_DIVIDE,),
    (Challenge.FESTIVAL,),
    (Challenge.PRIVACY, Challenge.QUICK_PEE),
    (Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER),
    (Challenge.GREAT_DIVIDE, Challenge.QUICK_PEE),
    (Challenge.NATURE_RESERVE, Challenge.QUICK_PEE),
    (Challenge.GREAT_DIVIDE, Challenge.PRIVACY),
]


def problem_of(components: Components, rolls, challenges, start=None) -> MaxProblem:
    grid = start if start is not None else rules.empty_grid(components)
    return MaxProblem("clairvoyant", components, tuple(challenges), grid, rolls=tuple(rolls))


def best_complete(start: rules.Grid, rolls, challenges, components: Components) -> int | None:
    """The best rules score of a complete final map of forced play when the exhaustive oracle's maximum is one
    (above 0); None when the oracle's answer may be an incomplete map's 0."""
    oracle = exhaustive.clairvoyant_max(start, rolls, challenges, components)
    return oracle.score if oracle.score > 0 else None


DIVIDE_MAP = Components(rows=5, cols=3)
#: Card sets checked in the default run (the rest are `slow`).
QUICK_CARD_SETS = {(), (Challenge.PRIVACY,), (Challenge.NATURE_RESERVE,)}


@pytest.mark.parametrize(
    "challenges",
    [cs if cs in QUICK_CARD_SETS else pytest.param(cs, marks=pytest.mark.slow) for cs in CARD_SETS],
    ids=lambda cs: "+".join(c.value for c in cs) or "none",
)
def test_no_complete_map_of_forced_play_beats_the_bound_on_tiny_maps(challenges):
    """The exhaustive oracle's maximum (a complete map when above 0) is never above the bound."""
    rng = rng_for(3, "test_max_assignment", "+".join(c.value for c in challenges))
    checked = tight = 0
    # The Great Divide needs an element on both sides: a map whose middle column (both sides) is 5 squares tall.
    components = DIVIDE_MAP if Challenge.GREAT_DIVIDE in challenges else TINY_3x4
    # Sequences until 6 are checked (at most 30 drawn): with some cards most random sequences leave no complete
    # map, and six draws checked only 2 with The Great Divide and Quick Pee. Every card set reaches 6 within the 30.
    for _ in range(30):
        if checked >= 6:
            break
        for _attempt in range(500):  # rolls that could complete a map (else the oracle's answer is 0)
            rolls = random_rolls(rng, 5)
            bound = max_assignment.assignment_bound(problem_of(components, rolls, challenges))
            if bound.value is not None and bound.value > 0:
                break
        else:
            raise AssertionError("no roll sequence that could complete a map")
        best = best_complete(rules.empty_grid(components), rolls, challenges, components)
        if best is None:
            continue  # the oracle's answer may be an incomplete map (random plays cover the rest)
        assert bound.value is not None, (rolls, best)
        assert best <= bound.value, (rolls, best, bound)
        checked += 1
        tight += best == bound.value
    assert checked == 6, f"only {checked} sequences had a complete map"


def test_the_bound_says_no_complete_map_only_when_none_exists():
    """Two rolls hold at most two elements, and five rolls whose only way to all five elements draws 15 squares
    cannot fit on 12: no complete map, and the bound says so (the model is then infeasible at once). Five rolls
    that can bring all five elements in dominoes can; the oracle finds such a map."""
    assert max_assignment.assignment_bound(problem_of(TINY_3x4, [(1, 2), (3, 4)], ())).value is None
    too_big = [(1, 2), (3, 3), (4, 4), (5, 5), (1, 1)]
    assert max_assignment.assignment_bound(problem_of(TINY_3x4, too_big, ())).value is None
    assert exhaustive.clairvoyant_max(None, too_big, (), TINY_3x4).score == 0
    rolls = [(1, 2), (3, 1), (4, 1), (5, 1), (1, 1)]
    bound = max_assignment.assignment_bound(problem_of(TINY_3x4, rolls, ()))
    best = best_complete(rules.empty_grid(TINY_3x4), rolls, (), TINY_3x4)
    assert bound.value is not None and best is not None and best <= bound.value


def test_a_predrawn_start_map_is_counted():
    start = rules.parse_grid("TTWW\n~~AA\n....")
    rolls = [(1, 5), (1, 1)]
    best = best_complete(start, rolls, (Challenge.PRIVACY,), TINY_3x4)
    bound = max_assignment.assignment_bound(problem_of(TINY_3x4, rolls, (Challenge.PRIVACY,), start))
    assert best is not None and bound.value is not None and best <= bound.value


def random_play(grid: rules.Grid, rolls, components: Components, rng, challenges) -> rules.Grid:
    """A uniformly random legal play, or (every other call) a randomised greedy one, which completes more maps."""
    if Challenge.GREAT_DIVIDE in challenges:
        return side_seeking_play(grid, rolls, components, rng)
    if rng.random() < 0.5:
        found = greedy_play(grid, rolls, challenges, components, rng, 1)
        assert found is not None
        for play in found[1]:
            if play is not None:
                grid = rules.draw(grid, play, components)
        return grid
    for roll in rolls:
        moves = rules.legal_placements(grid, roll, components)
        if not moves:
            break
        move = moves[int(rng.integers(len(moves)))]
        grid = rules.fill(grid, move.cells, move.element)
    return grid


def side_seeking_play(grid: rules.Grid, rolls, components: Components, rng) -> rules.Grid:
    """A random legal play that prefers drawings bringing an element to a Great Divide side still without it (random
    plays almost never complete both sides)."""
    sides = rules.divide_sides(components.cols)
    for roll in rolls:
        moves = rules.legal_placements(grid, roll, components)
        if not moves:
            break

        def gain(move: rules.Placement, grid: rules.Grid = grid) -> int:
            return sum(
                1
                for side in sides
                if any(c in side for _, c in move.cells)
                and not any(grid[r][c] == move.element for r in range(components.rows) for c in side)
            )

        gains = [gain(m) for m in moves]
        best = [m for m, g in zip(moves, gains, strict=True) if g == max(gains)]
        move = best[int(rng.integers(len(best)))]
        grid = rules.fill(grid, move.cells, move.element)
    return grid


@pytest.mark.parametrize("card", [c for c in Challenge if c is not Challenge.NOISY_NEIGHBOURS], ids=lambda c: c.value)
def test_random_plays_on_the_default_map_stay_under_the_bound(card):
    """Random legal plays of 10-20 rolls (complete maps only) never score above the bound; Nature Reserve with
    the shipped caps."""
    rng = rng_for(11, "test_max_assignment", "default", card.value)
    components = rules.DEFAULT_COMPONENTS
    nature = caps_for(components) if card is Challenge.NATURE_RESERVE else None
    checked = 0
    for _ in range(12):
        rolls = random_rolls(rng, int(rng.integers(10, 21)))
        bound = max_assignment.assignment_bound(problem_of(components, rolls, (card,)), nature)
        for _ in range(3):
            final = random_play(rules.empty_grid(components), rolls, components, rng, (card,))
            breakdown = rules.score(final, (card,), components)
            if breakdown.complete:
                assert bound.value is not None and breakdown.total <= bound.value, (rolls, breakdown)
                checked += 1
    assert checked >= 10


def test_saturating_shift_and_mask_step():
    array = np.zeros((4, 5), dtype=bool)
    array[1, 0] = array[2, 3] = array[3, 4] = True
    shifted = max_assignment._saturating_shift(array, 1, 2, 4)
    assert {tuple(i) for i in np.argwhere(shifted)} == {(1, 2), (2, 4), (3, 4)}
    hard = max_assignment._saturating_shift(array, 1, 2, 4, hard=True)
    assert {tuple(i) for i in np.argwhere(hard)} == {(1, 2)}
    masks = np.zeros(8, dtype=bool)
    masks[[0b000, 0b010, 0b101]] = True
    moved = max_assignment._set_bits(masks, 0, 0b011, 3)
    assert set(np.flatnonzero(moved)) == {0b011, 0b111}


def test_best_through_after_every_choice_overfills_the_map():
    """Ten rolls on a 12-square map: after six drawings every choice has filled it, so the programme's reach stops
    early. `best_through` (the fixing's question, asked of every roll's drawings) answers "never" there instead of
    failing (it raised IndexError on the default map with 20 rolls), and never more than the bound elsewhere."""
    rng = rng_for(11, "test_max_assignment", "overfill")
    for _ in range(500):  # rolls that can complete a map (else there is no bound to compare with)
        programme = max_assignment.AssignmentProgramme(
            problem_of(TINY_3x4, random_rolls(rng, 10), (Challenge.PRIVACY,))
        )
        top = programme.bound()
        if top is not None:
            break
    assert top is not None
    assert len(programme.reach()) < len(programme.moves) + 1
    for t, moves in enumerate(programme.moves):
        for key in moves:
            value = programme.best_through(t, key)
            assert value <= top
            if t >= len(programme.reach()) - 1:
                assert value == max_assignment.NO_VALUE


@pytest.mark.parametrize(
    "challenges",
    [(Challenge.PRIVACY,), pytest.param((Challenge.NATURE_RESERVE,), marks=pytest.mark.slow)],
    ids=lambda cs: cs[0].value,
)
def test_fixing_at_the_optimum_keeps_it_on_tiny_maps(challenges):
    """Started from the exhaustive oracle's best play, the maximiser removes every drawing that cannot reach that
    score (the fixing at the warm start's score) and must still prove exactly the oracle's maximum, with rolls
    left over after the map is full."""
    rng = rng_for(5, "test_max_assignment", "fixing", challenges[0].value)
    checked = 0
    for _ in range(60):
        rolls = random_rolls(rng, 8)
        oracle = exhaustive.clairvoyant_max(None, rolls, challenges, TINY_3x4)
        if oracle.score <= 0:
            continue  # no complete map: nothing to fix at
        plays = [*oracle.placements, *([None] * (len(rolls) - len(oracle.placements)))]
        found = maximise.clairvoyant_max(None, rolls, challenges, TINY_3x4, Budget(60.0), start_plays=plays)
        assert found.score == oracle.score and found.proof is Proof.OPTIMAL, (rolls, found.score, oracle.score)
        checked += 1
        if checked == 2:
            break
    assert checked == 2

"""The exact ceilings of short Happy Campers games (`solo_optimum`), checked exhaustively on small maps.

- The optimum over the dice equals the generic `core.expectimax` run on the rules model's own `GameState`s
  (`solo_optimum.SingleMapState` for one map, `modes.SoloState` for solo), move by move.
- The clairvoyant maximum of one roll sequence equals the brute-force oracle and CP-SAT (`maximise`) for one
  map, and a plain recursion over `SoloState` for solo; its exact mean equals the mean over every sequence.
- optimum <= E[clairvoyant], and every player's exact expected score (the hint's, greedy's, random tie-breaks
  aside) <= optimum, with optimum - player = the expected sum of the player's per-move regrets (the identity
  the ceiling bench estimates the hint's score with).

Positions are hand-made 3x4 maps with a few empty squares left (random play rarely completes a 3x4 map).
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.happy_campers import exhaustive, maximise, solo_optimum
from campsolver.solver.happy_campers.hint import HintMode, HintOptions, hint, turn_state
from campsolver.solver.happy_campers.modes import SoloDraw, SoloState, roll_distribution
from campsolver.solver.happy_campers.policies import random_rolls
from campsolver.solver.happy_campers.rules import (
    Challenge,
    Components,
    can_draw,
    draw,
    fill,
    legal_placements,
    parse_grid,
    score,
)

SMALL = Components(rows=3, cols=4)
ROLLS = roll_distribution()
TOLERANCE = 1e-9


#: Hand-made 3x4 positions with a few empty squares; "e" and "f" miss an element (the optimum must still draw it),
#: the others hold every element (a score at stake).
POSITIONS = {
    name: parse_grid(text.replace(" ", "\n"))
    for name, text in (
        ("a", "TTW. ~AAE E..."),
        ("b", "T.W. T~~E AA.."),
        ("c", "TT.. W~.. WAE."),
        ("d", "TTWW ~AAE ...."),
        ("e", "TTW. ~AA. ...."),
        ("f", ".TT. W~~A W..A"),
        ("g", "TTW. ~A.. E..."),
        ("h", "T.W. T~~E AA.."),
    )
}


def empties(grid) -> int:
    return sum(1 for row in grid for v in row if v == 0)


# ---------------------------------------------------------------------------------------------------------
# The optimum is the generic expectimax on the rules model
# ---------------------------------------------------------------------------------------------------------

ONE_MAP_CASES = [
    pytest.param("g", (), marks=pytest.mark.slow),  # 1,400 generic nodes, half a minute on a loaded machine
    ("b", (Challenge.PRIVACY,)),
    ("c", (Challenge.QUICK_PEE,)),
    ("d", (Challenge.DANGEROUS_ANIMALS, Challenge.NATURE_RESERVE)),
    ("a", (Challenge.GREAT_DIVIDE,)),
    ("f", (Challenge.TENT_TOGETHER, Challenge.RIVER_TOWN)),
]


@pytest.mark.parametrize(("name", "cards"), ONE_MAP_CASES)
def test_one_map_optimum_is_the_generic_expectimax_on_the_rules_model(name, cards):
    grid = POSITIONS[name]
    solver = solo_optimum.single_optimum(grid, cards, SMALL)
    reference = expectimax(solo_optimum.SingleMapState(grid, cards, SMALL))
    assert abs(solver.value(grid) - reference.values[0]) < TOLERANCE
    # Every move of a roll, valued alike (the optimal move is the best of them).
    roll = max((r for r, _ in ROLLS), key=lambda r: len(legal_placements(grid, r, SMALL)))
    decision = solo_optimum.SingleMapState(grid, cards, SMALL, roll)
    by_move = {alt.action: alt.values[0] for alt in expectimax(decision).alternatives}
    mine = solver.move_values(grid, roll)
    assert set(mine) == set(by_move) and len(mine) > 1
    for placement, value in mine.items():
        assert abs(value - by_move[placement]) < TOLERANCE


def solo_positions():
    """(maps, cards, gap, last_turn_map): tiny solo positions; one with a detached piece, one with the stricter gap
    rule, one in the extra turn, one with different cards on the two maps."""
    detached = parse_grid("TTAA\nW..A\n~.EE")
    p = POSITIONS
    return [
        ((p["g"], p["h"]), ((), ()), 1, None),
        ((detached, p["a"]), ((), ()), 1, None),
        ((p["b"], detached), ((), ()), 2, None),
        ((p["e"], p["c"]), ((), ()), 1, 0),
        ((p["f"], p["a"]), ((Challenge.PRIVACY,), ()), 1, None),
    ]


@pytest.mark.parametrize("case", [pytest.param(0, marks=pytest.mark.slow), 1, 2, 3, 4])
def test_solo_optimum_is_the_generic_expectimax_on_solo_state(case):
    maps, cards, gap, last = solo_positions()[case]
    solver, state = solo_optimum.solo_optimum(maps, cards, SMALL, double_gap=gap, last_turn_map=last)
    assert abs(solver.value(state) - expectimax(state).values[0]) < TOLERANCE
    # Move by move after a roll: each rules-model move's value is the value of its state's key.
    roll = max((r for r, _ in ROLLS), key=lambda r: len(state.child(r).legal_actions()))
    decision = state.child(roll)
    mine = solver.move_values(state, roll)
    afters = []
    for first in decision.legal_actions():
        middle = decision.child(first)
        # a two-map turn is two drawings: map 0's, then map 1's
        afters.extend([middle.child(a) for a in middle.legal_actions()] if middle.current_player() == 0 else [middle])
    assert {solver.key(after) for after in afters} == set(mine)
    for after in afters[:: max(1, len(afters) // 12)]:
        assert abs(mine[solver.key(after)] - expectimax(after).values[0]) < TOLERANCE
    assert abs(max(mine.values()) - expectimax(decision).values[0]) < TOLERANCE


# ---------------------------------------------------------------------------------------------------------
# Clairvoyant maxima
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_one_map_clairvoyant_is_the_oracles_and_cpsats_maximum(seed):
    cards = ((), (Challenge.PRIVACY,), (Challenge.RIVER_TOWN,), ())[seed]
    grid = POSITIONS["cdef"[seed]]
    rolls = random_rolls(seed, empties(grid) // 2 + 1, "solo-optimum-clairvoyant")
    mine = solo_optimum.single_clairvoyant(grid, rolls, cards, SMALL)
    assert mine == exhaustive.clairvoyant_max(grid, rolls, cards, SMALL).score
    answer = maximise.clairvoyant_max(grid, rolls, cards, SMALL, Budget(60))
    assert answer.proof is Proof.OPTIMAL and answer.score == mine


def brute_solo_clairvoyant(state: SoloState, rolls) -> int:
    """The best lower score over every play of `rolls` through `SoloState` itself."""
    if state.over:
        return state.final_score()
    if state.current_player() == 0:
        return max(brute_solo_clairvoyant(state.child(a), rolls) for a in state.legal_actions())
    (roll, *rest) = rolls
    return brute_solo_clairvoyant(state.child(roll), rest)


@pytest.mark.parametrize("case", [0, 1, 3, 4])
def test_solo_clairvoyant_is_a_plain_search_over_solo_state(case):
    maps, cards, gap, last = solo_positions()[case]
    state = SoloState.new(cards, SMALL, maps, gap, last)
    solver = solo_optimum.SoloOptimum(cards, SMALL, double_gap=gap)
    for k in range(3):
        rolls = random_rolls(case * 10 + k, 8, "solo-optimum-solo-clairvoyant")
        assert solo_optimum.solo_clairvoyant(state, rolls, solver=solver) == brute_solo_clairvoyant(state, rolls)


def test_expected_clairvoyant_is_the_mean_over_every_roll_sequence():
    # Room for at most two drawings, so every game is over within three rolls: 21^3 weighted sequences.
    grid = parse_grid(
        """
        TTW.
        ~AAE
        E...
        """
    )
    assert empties(grid) == 4

    @cache
    def best(g, rolls) -> int:
        if not can_draw(g, rolls[0], SMALL):
            return score(g, (), SMALL).total
        return max(best(draw(g, p, SMALL), rolls[1:]) for p in legal_placements(g, rolls[0], SMALL))

    total = 0.0
    for sequence in itertools.product(ROLLS, repeat=3):
        p = 1.0
        for _, q in sequence:
            p *= float(q)
        total += p * best(grid, tuple(r for r, _ in sequence))
    assert abs(solo_optimum.expected_single_clairvoyant(grid, (), SMALL) - total) < TOLERANCE


# ---------------------------------------------------------------------------------------------------------
# players <= optimum <= E[clairvoyant]
# ---------------------------------------------------------------------------------------------------------


def one_map_hint(grid, roll):
    result = hint(turn_state(grid, roll, (), SMALL), Budget(60), options=HintOptions(seed=3, rollouts=48))
    assert not result.interrupted
    return result.best.move.placements[0]


def exact_one_map_player(solver, grid, choose, memo) -> tuple[float, float]:
    """(expected final score, expected sum of regrets) of `choose(grid, roll)`, exactly over the dice."""
    if grid in memo:
        return memo[grid]
    value = regret = 0.0
    for roll, p in ROLLS:
        if not can_draw(grid, roll, SMALL):
            value += float(p) * score(grid, (), SMALL).total
            continue
        placement = choose(grid, roll)
        after = draw(grid, placement, SMALL)
        here = solver.move_values(grid, roll)
        v, r = exact_one_map_player(solver, after, choose, memo)
        value += float(p) * v
        regret += float(p) * (max(here.values()) - here[placement] + r)
    memo[grid] = (value, regret)
    return memo[grid]


def greedy_choice(grid, roll):
    """Highest immediate score (complete or not), first in the rules model's order: a deterministic player."""
    moves = legal_placements(grid, roll, SMALL)
    return max(moves, key=lambda p: score(fill(grid, p.cells, p.element), (), SMALL, festival_won=True).total)


@pytest.mark.parametrize("name", ["g", "e"])
def test_one_map_players_sit_below_the_optimum_below_the_clairvoyant_mean(name):
    grid = POSITIONS[name]
    solver = solo_optimum.single_optimum(grid, (), SMALL)
    optimum = solver.value(grid)
    clairvoyant = solo_optimum.expected_single_clairvoyant(grid, (), SMALL)
    assert optimum <= clairvoyant + TOLERANCE
    for choose in (one_map_hint, greedy_choice):
        value, regret = exact_one_map_player(solver, grid, choose, {})
        assert value <= optimum + TOLERANCE
        assert abs((optimum - value) - regret) < 1e-7  # the identity the ceiling bench relies on


def exact_solo_hint(solver, state: SoloState, memo) -> tuple[float, float]:
    key = (state.maps, state.last_turn_map, state.over)
    if key in memo:
        return memo[key]
    if state.over:
        return float(state.final_score()), 0.0
    value = regret = 0.0
    for roll, p in ROLLS:
        turn = state.child(roll)
        if turn.over:
            value += float(p) * turn.final_score()
            continue
        result = hint(
            turn_state(
                state.maps[0],
                roll,
                (),
                SMALL,
                mode=HintMode.SOLO,
                second_grid=state.maps[1],
                solo_last_turn_map=state.last_turn_map,
            ),
            Budget(60),
            options=HintOptions(seed=5, rollouts=48),
        )
        after = turn
        for map_index, placement in enumerate(result.best.move.placements):
            if placement is not None:
                after = after.child(SoloDraw(map_index, placement))
        here = solver.move_values(state, roll)
        v, r = exact_solo_hint(solver, after, memo)
        value += float(p) * v
        regret += float(p) * (max(here.values()) - here[solver.key(after)] + r)
    memo[key] = (value, regret)
    return memo[key]


def test_solo_hint_sits_below_the_optimum_below_the_clairvoyant_mean():
    maps, cards, _, _ = solo_positions()[0]
    solver, state = solo_optimum.solo_optimum(maps, cards, SMALL)
    optimum = solver.value(state)
    assert optimum <= solo_optimum.expected_solo_clairvoyant(state) + TOLERANCE
    value, regret = exact_solo_hint(solver, state, {})
    assert value <= optimum + TOLERANCE
    assert abs((optimum - value) - regret) < 1e-7


def test_a_game_too_large_is_refused_not_run_for_hours():
    with pytest.raises(solo_optimum.TooLarge):
        solo_optimum.single_optimum(None, (), SMALL, max_states=300)

"""`clairvoyant_max(..., start_plays=...)`: a caller's warm start changes where CP-SAT starts, never the
answer: from a poor play or from the optimum, the value and the OPTIMAL claim match the exhaustive oracle;
a play that is not legal for the rolls is refused by name."""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, rules
from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play
from campsolver.solver.happy_campers.maximise import clairvoyant_max
from campsolver.solver.happy_campers.rules import ELEMENTS, Challenge, Placement

from tests.happy_campers.instances import TINY_4x4, planted_perfect_case, replay_plays

SOLVE_S = 30.0
CARD_SETS = [(), (Challenge.TENT_TOGETHER,), (Challenge.PRIVACY,)]


@pytest.mark.parametrize("challenges", CARD_SETS)
def test_a_start_from_a_greedy_or_the_best_play_gives_the_oracles_answer(challenges):
    for seed in range(4):
        start, rolls = planted_perfect_case(seed + 70)
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, TINY_4x4)
        rng = rng_for(seed, "test_start_plays", "greedy")
        greedy = greedy_play(start, rolls, challenges, TINY_4x4, rng, 1)
        assert greedy is not None
        first = clairvoyant_max(start, rolls, challenges, TINY_4x4, Budget(SOLVE_S), start_plays=greedy[1])
        assert first.proof is Proof.OPTIMAL and first.score == oracle.score == first.bound, seed
        best = [turn.placement for turn in first.turns]
        again = clairvoyant_max(start, rolls, challenges, TINY_4x4, Budget(SOLVE_S), start_plays=best)
        assert again.proof is Proof.OPTIMAL and again.score == oracle.score, seed
        for answer in (first, again):
            final = replay_plays(start, rolls, [turn.placement for turn in answer.turns], TINY_4x4)
            assert rules.score(final, challenges, TINY_4x4).total == answer.score


def _legal_start():
    start, rolls = planted_perfect_case(71)
    greedy = greedy_play(start, rolls, (), TINY_4x4, rng_for(0, "test_start_plays", "bad"), 1)
    assert greedy is not None
    return start, rolls, list(greedy[1])


def test_start_plays_of_the_wrong_length_are_refused():
    start, rolls, plays = _legal_start()
    with pytest.raises(ValueError, match=r"start_plays: .* plays for .* rolls"):
        clairvoyant_max(start, rolls, (), TINY_4x4, Budget(5.0), start_plays=plays[:-1])


def test_a_start_play_with_an_element_the_roll_does_not_offer_is_refused():
    start, rolls, plays = _legal_start()
    turn = next(t for t, play in enumerate(plays) if play is not None)
    offered = {
        p.element
        for p in rules.legal_placements(
            replay_plays(start, rolls[:turn], plays[:turn], TINY_4x4), rolls[turn], TINY_4x4
        )
        if p.cells == plays[turn].cells
    }
    other = next(e for e in ELEMENTS if e not in offered)
    plays[turn] = Placement(plays[turn].cells, other, plays[turn].option)
    with pytest.raises(ValueError, match=rf"start_plays\[{turn}\]"):
        clairvoyant_max(start, rolls, (), TINY_4x4, Budget(5.0), start_plays=plays)


def test_a_start_play_that_skips_a_drawable_roll_is_refused():
    start, rolls, plays = _legal_start()
    turn = next(t for t, play in enumerate(plays) if play is not None)
    plays[turn] = None
    with pytest.raises(ValueError, match=rf"start_plays\[{turn}\]: roll .* can be drawn"):
        clairvoyant_max(start, rolls, (), TINY_4x4, Budget(5.0), start_plays=plays)


def test_a_start_play_under_an_option_the_roll_does_not_have_is_refused():
    start, rolls, plays = _legal_start()
    turn = next(t for t, play in enumerate(plays) if play is not None)
    options = set(rules.roll_options(rolls[turn]))
    foreign = next(
        rules.Option(shape, element)
        for shape in range(1, 7)
        for element in range(1, 7)
        if rules.Option(shape, element) not in options
    )
    plays[turn] = Placement(plays[turn].cells, plays[turn].element, foreign)
    with pytest.raises(ValueError, match=rf"start_plays\[{turn}\]: not a legal drawing"):
        clairvoyant_max(start, rolls, (), TINY_4x4, Budget(5.0), start_plays=plays)

"""Quick Pee after an ascent that misses the caps (`maximise.ASCENT_TARGET_MODEL`): CP-SAT's target
feasibility model runs, and the clairvoyant maximum still equals the exhaustive oracle, whether the model
finds a map at the target (proven at the root) or proves that none exists (the cut below the target)."""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, max_ascent, maximise, rules
from campsolver.solver.happy_campers.rules import Challenge

from tests.happy_campers import instances
from tests.happy_campers.instances import TINY_3x4, TINY_4x4

CARD_SETS = [(Challenge.QUICK_PEE,), (Challenge.QUICK_PEE, Challenge.DANGEROUS_ANIMALS)]


@pytest.mark.parametrize("challenges", CARD_SETS, ids=lambda cs: "+".join(c.value for c in cs))
def test_the_target_model_after_a_missed_ascent_keeps_the_oracles_answer(challenges, monkeypatch):
    """The ascent is made to find nothing, so every fill-able instance takes the target-model path; both
    of its outcomes (a map at the target, no such map) must occur and give the oracle's maximum."""
    calls: list[maximise._Hint] = []
    real = maximise._target_model_play

    def spied(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(maximise, "perfect_card_ascent", lambda problem, budget, seed: None)
    monkeypatch.setattr(maximise, "_target_model_play", spied)
    outcomes = set()
    for start, rolls, components in _instances():
        problem = maximise.MaxProblem("clairvoyant", components, challenges, start, rolls=tuple(rolls))
        if not max_ascent.ascent_applies(problem):
            continue
        before = len(calls)
        result = maximise.clairvoyant_max(start, rolls, challenges, components, Budget(60.0))
        assert len(calls) == before + 1, rolls
        oracle = exhaustive.clairvoyant_max(start, rolls, challenges, components)
        assert result.proof is Proof.OPTIMAL and result.score == oracle.score == result.bound, rolls
        grid = instances.replay_plays(start, rolls, [turn.placement for turn in result.turns], components)
        assert rules.score(grid, challenges, components).total == result.score
        outcomes.add("found" if calls[-1].plays is not None else ("none" if calls[-1].no_perfect_map else "open"))
    assert {"found", "none"} <= outcomes, outcomes
    # Not with The Great Divide (measured: it found or refuted too rarely to pay for its share).
    with_divide = (*challenges, Challenge.GREAT_DIVIDE)
    before = len(calls)
    start, rolls, components = next(
        (start, rolls, components)
        for start, rolls, components in _instances()
        if max_ascent.ascent_applies(
            maximise.MaxProblem("clairvoyant", components, with_divide, start, rolls=tuple(rolls))
        )
    )
    maximise.clairvoyant_max(start, rolls, with_divide, components, Budget(5.0))
    assert len(calls) == before


def _instances():
    """Random 5-roll sequences on 3x4 (no map there meets Quick Pee's cap: the model proves none exists)
    and 4x4 instances planted from a perfect map with a toilet in every row and column (it finds one)."""
    for seed in range(4):
        yield rules.empty_grid(TINY_3x4), instances.random_rolls(rng_for(seed, "test_ascent_target_model"), 5), TINY_3x4
    for seed in (0, 2):
        start, rolls = instances.planted_perfect_case(seed, TINY_4x4, (Challenge.QUICK_PEE,), bonus=8)
        yield start, rolls, TINY_4x4

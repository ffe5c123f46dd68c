"""The maximiser's extra warm starts (`max_warmstarts`) are legal forced plays of the known rolls.

They are only hints (every answer is replayed and re-scored, a proof comes from CP-SAT alone), but a play that
broke forced play or a guided greedy whose reported score is not the rules score would mislead the choice of
warm start (`maximise._better_hint`) and the fixing at the warm start's score. Checked here on the default map:
each play replays through the rules model, the guided play's score is the rules score of its final map and never
above the per-roll assignment bound.
"""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import max_models, max_warmstarts, rules
from campsolver.solver.happy_campers.max_problem import MaxProblem
from campsolver.solver.happy_campers.rules import DEFAULT_COMPONENTS, Challenge

from tests.happy_campers.instances import random_rolls, replay_plays

CASES = [
    (3, (Challenge.PRIVACY,)),
    (5, (Challenge.NATURE_RESERVE,)),
    (8, (Challenge.DANGEROUS_ANIMALS, Challenge.QUICK_PEE)),
]
IDS = [f"{seed}-" + "+".join(c.value for c in cards) for seed, cards in CASES]


def problem_of(seed: int, challenges: tuple[Challenge, ...], count: int = 10) -> MaxProblem:
    rolls = random_rolls(rng_for(seed, "tests.max_warmstarts"), count)
    start = rules.empty_grid(DEFAULT_COMPONENTS)
    return MaxProblem("clairvoyant", DEFAULT_COMPONENTS, challenges, start, rolls=tuple(rolls))


@pytest.mark.parametrize(("seed", "challenges"), CASES, ids=IDS)
def test_guided_play_is_legal_and_scored_by_the_rules(seed: int, challenges: tuple[Challenge, ...]) -> None:
    problem = problem_of(seed, challenges)
    programme = max_models.cached_programme(problem, max_models.clairvoyant_nature_caps(problem))
    found = max_warmstarts.guided_plays(problem, programme, rng_for(seed, "guided"), 4, Budget(30.0))
    assert found is not None
    value, plays = found
    grid = replay_plays(problem.start_grid, problem.rolls, plays, DEFAULT_COMPONENTS)
    assert rules.score(grid, challenges, DEFAULT_COMPONENTS).total == value
    top = programme.bound()
    if rules.score(grid, challenges, DEFAULT_COMPONENTS).complete:
        assert top is not None and value <= top


@pytest.mark.parametrize(("seed", "challenges"), CASES[:1], ids=IDS[:1])
def test_players_plays_are_legal_forced_plays(seed: int, challenges: tuple[Challenge, ...]) -> None:
    problem = problem_of(seed, challenges)
    plays = max_warmstarts.policy_plays(problem, Budget(30.0), seed)
    assert len(plays) == max_warmstarts.POLICY_SEEDS + 1  # the shaped greedy's and the hint engine's
    for play in plays:
        assert len(play) == len(problem.rolls)
        replay_plays(problem.start_grid, problem.rolls, play, DEFAULT_COMPONENTS)

"""Sequential halving in the sampled hint: the schedule, the paired values of the plays it drops (against the exact
oracle where one exists), and the ranked list a client gets at a small budget (legal plays, value order)."""

from __future__ import annotations

import math

import pytest
from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours.information import observe, public_state
from campsolver.solver.adventure_tours.rules import Config, State, new_game
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.game import CHANCE, sample_outcome
from campsolver.solver.core.seeding import rng_for

from tests.adventure_tours.test_hint import tiny_position


def test_the_schedule_halves_down_to_two_plays_and_stays_off_when_worlds_are_plenty() -> None:
    points = hints.halving_schedule(13, 60)
    assert len(points) == 3  # 13 -> 7 -> 4 -> 2
    assert points == sorted(set(points)) and points[0] >= 1
    assert hints.halving_schedule(13, 13 * hints.HALVING_MAX_WORLDS) == []
    assert hints.halving_schedule(2, 5) == []
    # A budget for less than one world a stage still drops after every world.
    assert hints.halving_schedule(9, 3) == [1, 2, 3]


def dealt(seed: int) -> State:
    """A 3-player game just dealt (six cards a hand: a dozen plays or so)."""
    state = new_game(Config(3))
    rng = rng_for(seed, "deal")
    while state.current_player() == CHANCE:
        state = state.child(sample_outcome(state, rng))
    return state


def _forced(monkeypatch: pytest.MonkeyPatch, points: list[int]) -> None:
    monkeypatch.setattr(hints, "halving_schedule", lambda plays, rollouts_left: list(points))


def test_dropped_plays_get_paired_values_never_above_the_survivor_that_beat_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = dealt(1)
    obs = observe(state, state.current_player())
    plays = hints.enumerate_plays(public_state(obs), obs.player)
    assert len(plays) >= 5
    _forced(monkeypatch, [4, 8])
    ranked, _, interrupted = hints.sampled_values(
        obs, plays, hints.Objective.MARGIN, Budget(60), seed=3, max_samples=16, screen=False, halving=True
    )
    assert not interrupted
    first_cut = len(plays) - max(2, (len(plays) + 1) // 2)
    samples = sorted(r.samples for r in ranked)
    assert samples.count(4) == first_cut
    assert all(r.screened == (r.samples < 16) for r in ranked)
    survivors = [r for r in ranked if not r.screened]
    top = max(r.value for r in survivors)
    assert all(r.value <= top + 1e-9 for r in ranked)
    assert all(r.standard_error > 0 for r in ranked)


def test_halved_values_estimate_the_exact_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a position the exact expectimax values, every play's value (the paired estimate for the dropped ones)
    within 4 standard errors of the exact value."""
    state = tiny_position()
    obs = observe(state, 0)
    exact = {r.play: r.value for r in hints.hint(obs, Budget(30)).plays}
    plays = list(exact)
    assert len(plays) >= 3
    _forced(monkeypatch, [60])
    ranked, _, interrupted = hints.sampled_values(
        obs, plays, hints.Objective.MARGIN, Budget(60), seed=21, max_samples=240, screen=False, halving=True
    )
    assert not interrupted and any(r.screened for r in ranked)
    for r in ranked:
        assert math.isfinite(r.standard_error) and r.standard_error > 0
        assert abs(r.value - exact[r.play]) <= 4 * r.standard_error, (r.play, r.value, exact[r.play])


#: Small budgets tried in turn: the smallest at which the race alone gives every play RACE_SAMPLES samples is the one
#: judged (0.05 CPU-s gives one a play on a slow or shared core, too few to halve; two left no margin on a loaded
#: machine, where the halving run, timed on its own, could get one round only: a clean clone beside two other test
#: runs at load 5 failed so).
SMALL_BUDGETS = (0.05, 0.1, 0.2, 0.4)
RACE_SAMPLES = 3


def test_a_small_budget_halves_and_still_ranks_legal_plays_by_value() -> None:
    state = dealt(5)
    obs = observe(state, state.current_player())
    for seconds in SMALL_BUDGETS:
        off = hints.hint(obs, CpuBudget(seconds), options=hints.HintOptions(seed=2, halving=False))
        if min(r.samples for r in off.plays) >= RACE_SAMPLES:
            break
    assert min(r.samples for r in off.plays) >= RACE_SAMPLES, f"even {seconds} CPU-s gives a play too few samples"
    result = hints.hint(obs, CpuBudget(seconds), options=hints.HintOptions(seed=2))
    assert len({r.samples for r in off.plays}) <= 2  # the race alone samples every play alike at this budget
    assert len({r.samples for r in result.plays if r.samples}) >= 2, f"nothing was dropped at {seconds} CPU-s"
    valued = [r.value for r in result.plays if r.samples]
    assert valued == sorted(valued, reverse=True)
    assert all(abs(r.loss - (valued[0] - r.value)) < 1e-9 for r in result.plays if r.samples)
    for r in result.plays:
        hints.apply_play(state, r.play)  # every listed play legal on the true state


def test_a_sample_capped_call_plans_its_stages_from_the_cap_and_is_reproducible() -> None:
    """With time to spare and `max_samples` below `HALVING_MAX_WORLDS`, the stages come from the cap, not the clock:
    the same seed gives the same ranked list (the batch tournament's hint relies on it)."""
    obs = observe(dealt(7), dealt(7).current_player())
    options = hints.HintOptions(seed=9, max_samples=8)
    first = hints.hint(obs, Budget(60), options=options)
    second = hints.hint(obs, Budget(60), options=options)
    assert [(r.play, r.value, r.samples) for r in first.plays] == [(r.play, r.value, r.samples) for r in second.plays]
    assert len({r.samples for r in first.plays}) >= 2, "the cap below HALVING_MAX_WORLDS should plan stages"

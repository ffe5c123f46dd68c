"""Adventure Tours searches report progress through `Budget.report` (the CLI's progress line shows it)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours import maximise, puzzle
from campsolver.solver.adventure_tours.information import observe, unseen_pool
from campsolver.solver.adventure_tours.rules import Config, new_game
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.game import CHANCE, sample_outcome
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for


def listening(seconds: float) -> tuple[Budget, list[dict[str, Any]]]:
    budget = Budget(seconds)
    reports: list[dict[str, Any]] = []
    budget.progress = reports.append
    return budget, reports


def test_monte_carlo_hint_reports_the_samples_drawn() -> None:
    state = new_game(Config(3))
    rng = rng_for(0, "deal")
    while state.current_player() == CHANCE:
        state = state.child(sample_outcome(state, rng))
    obs = observe(state, state.current_player())
    assert len(unseen_pool(obs)) > hints.EXACT_POOL_LIMIT  # too many unseen cards: sampled, not exact
    budget, reports = listening(0.5)
    result = hints.hint(obs, budget)
    assert result.method == "monte-carlo"
    samples = [r["samples"] for r in reports if "samples" in r]
    assert samples and samples == sorted(samples) and samples[0] >= 1
    # The last report counts the worlds every surviving play was played on: the leader's sample size.
    assert samples[-1] == max(ranked.samples for ranked in result.plays)


def test_max_search_reports_depth_nodes_best_and_a_valid_bound() -> None:
    state = puzzle.candidate(3, 5)
    assert state is not None
    big = replace(state, deck=state.deck + tuple(state.discard[:12]), discard=state.discard[12:])
    budget, reports = listening(0.5)
    result = maximise.maximise(big, 0, budget)
    assert result.proof is Proof.FEASIBLE_WITH_BOUND, "the long pile must be cut by the budget"
    assert reports, "no progress reported in half a second of search"
    for report in reports:
        assert report["depth"] >= 1 and report["nodes"] >= 1
        assert report["best"] <= report["bound"]
        assert report["bound"] >= result.value  # any bound reported is a bound on the optimum found later
    nodes = [r["nodes"] for r in reports]
    assert nodes == sorted(nodes) and nodes[-1] <= result.nodes

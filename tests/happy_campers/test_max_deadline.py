"""Happy Campers MaxScore always answers before its deadline: with no time for CP-SAT it returns the rule of
thumb's play (replayed here through the rules model) with the analytic bound, under a wall-clock or a CPU-time
budget; the bound is checked against CP-SAT's proven optimum on small maps."""

from __future__ import annotations

import time

import numpy as np
import pytest
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.core.budget import Budget, CpuBudget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from campsolver.solver.happy_campers import max_models, maximise, rules
from campsolver.solver.happy_campers.rules import Challenge, Components

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb


def replayed_score(request: pb.HappyCampersServiceMaxScoreRequest, response) -> int:
    """The answer's placements drawn in order by the rules model, and the final map's rules score."""
    grid = rules.empty_grid()
    symbol = {hc_service.element_symbol(e): e for e in rules.ELEMENTS}
    for placement in response.placements:
        grid = rules.draw(
            grid,
            rules.Placement(
                cells=frozenset((c.row, c.col) for c in placement.cells),
                element=symbol[placement.element],
                option=rules.Option(placement.shape_face, placement.element_face),
            ),
        )
    assert hc_service.grid_to_rows(grid) == list(response.final_map)
    challenges = [hc_service.CHALLENGE_FROM_PROTO[c] for c in request.challenges]
    return rules.score(grid, challenges).total


@pytest.mark.parametrize("budget_type", [Budget, CpuBudget])
def test_a_tiny_deadline_max_answers_best_so_far_with_its_bound(budget_type) -> None:
    request = hc_service.examples._example_max()
    request.options.time_limit_seconds = 0.02
    started = time.monotonic()
    response = hc_service.max_score(request, budget_type(0.02))
    assert time.monotonic() - started < 1.0
    assert response.score == replayed_score(request, response)
    assert response.proof in (common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND, common_pb2.PROOF_STATUS_OPTIMAL)
    assert response.stats.HasField("bound") and response.stats.bound >= response.score


def test_a_tiny_deadline_absolute_max_answers_the_start_map() -> None:
    request = pb.HappyCampersServiceMaxScoreRequest(
        start_map=[".........", "...TT....", "...AA....", ".........", "........."],
        options=common_pb2.SolveOptions(time_limit_seconds=0.01),
    )
    response = hc_service.max_score(request, Budget(0.01))
    assert response.score == 0 and list(response.final_map) == list(request.start_map)  # incomplete: 0 points
    assert response.proof in (
        common_pb2.PROOF_STATUS_HEURISTIC,
        common_pb2.PROOF_STATUS_OPTIMAL,
        common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND,
    )


@pytest.mark.parametrize("seed", range(4))
def test_the_fallback_bound_is_at_least_the_proven_optimum(seed: int) -> None:
    components = Components(rows=3, cols=4)
    rng = np.random.default_rng(seed)
    rolls = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(6, 2))]
    cards = ((), (Challenge.PRIVACY,), (Challenge.QUICK_PEE,), (Challenge.RIVER_TOWN,))[seed]
    fallback = hc_service.handlers._best_so_far(True, rules.empty_grid(components), rolls, cards, components)
    proven = maximise.clairvoyant_max(None, rolls, cards, components, Budget(20.0))
    assert proven.proof is Proof.OPTIMAL
    assert fallback.score is not None and fallback.bound is not None
    assert fallback.score <= proven.score <= fallback.bound


def _long_clairvoyant_problem() -> maximise.MaxProblem:
    rng = np.random.default_rng(5)
    rolls = tuple((int(a), int(b)) for a, b in rng.integers(1, 7, size=(40, 2)))
    return maximise.MaxProblem(
        kind="clairvoyant",
        components=rules.DEFAULT_COMPONENTS,
        challenges=(),
        start_grid=rules.empty_grid(),
        rolls=rolls,
    )


def test_a_model_build_stops_once_its_search_budget_is_cancelled() -> None:
    problem = _long_clairvoyant_problem()
    cancelled = Budget(60)
    cancelled.cancel()
    with maximise.builds_abandoned_on_cancel(cancelled), pytest.raises(SolveInterrupted):
        maximise._build_clairvoyant(problem, "complete")
    # Outside such a block (or with a live budget) the same build completes.
    with maximise.builds_abandoned_on_cancel(Budget(60)):
        assert maximise._build_clairvoyant(problem, "complete").objective is not None


def test_the_service_leaves_no_search_running_after_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 40-roll MaxScore answered at a 0.2-s deadline: no model build the search left behind runs to its end
    after the answer's cancel (it stops at its next turn), and the search thread ends."""
    import threading

    builds: list[str] = []
    build = maximise._build_clairvoyant

    def watched(*args, **kwargs):
        try:
            built = build(*args, **kwargs)
        except SolveInterrupted:
            builds.append("abandoned")
            raise
        budget = max_models._BUILD_BUDGET.get()
        builds.append("finished after the cancel" if budget is not None and budget.cancelled else "finished")
        return built

    monkeypatch.setattr(maximise, "_build_clairvoyant", watched)
    request = hc_service.examples._example_max()
    del request.rolls[:]
    for a, b in np.random.default_rng(6).integers(1, 7, size=(40, 2)):
        request.rolls.add(first=int(a), second=int(b))
    response = hc_service.max_score(request, Budget(0.2))
    assert response.score == replayed_score(request, response)
    searches = [t for t in threading.enumerate() if t.name == "happy-campers-max"]
    # The search left behind is what the exit handler waits for (a process exiting inside CP-SAT aborts).
    assert set(searches) <= set(hc_service.handlers._LEFT_RUNNING)
    hc_service.handlers._wait_for_cancelled_searches()
    assert not any(t.is_alive() for t in searches)
    assert builds and "finished after the cancel" not in builds

"""The Happy Campers hint as a game client reads it on the wire: ranks agree with the values shown
(`ranking_contract_violations`), no standard error from fewer samples than can estimate one, every listed move
legal for the rules model, and an answer even when the deadline leaves almost no time.

Positions are seeded random play in every hint mode (own map, neighbour's map for either objective, solo,
multi-player), seeds 0-11 (the coverage bench uses other seeds, see bench/happy_campers_hint_coverage.py).
"""

from __future__ import annotations

import math
import time

import pytest
from campsolver.service.games import happy_campers as hc_service
from campsolver.service.games.shared import MIN_SAMPLES_FOR_STANDARD_ERROR, ranking_contract_violations
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import rules
from campsolver.solver.happy_campers.policies import RANDOM, play_game, random_rolls

from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as pb

MODES = ("own", "neighbour_worst", "neighbour_best", "solo", "multiplayer")


def seeded_request(seed: int, time_limit_s: float = 0.15) -> pb.HappyCampersServiceHintRequest:
    """Position `seed`: a few random drawings, a roll the mode allows that can be drawn, the mode by seed."""
    mode = MODES[seed % len(MODES)]
    rng = rng_for(seed, "hint-contract-position")
    grid = play_game(None, random_rolls(seed, 2 + seed % 6, "hint-contract"), (), policy=RANDOM, seed=seed).final_grid
    while True:
        a, b = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        if mode.startswith("neighbour"):
            b = a
        elif mode == "multiplayer" and a == b:
            continue
        if rules.can_draw(grid, (a, b)):
            break
    request = pb.HappyCampersServiceHintRequest(
        map=hc_service.grid_to_rows(grid),
        roll=pb.HappyCampersRoll(first=a, second=b),
        options=common_pb2.SolveOptions(time_limit_seconds=time_limit_s, seed=seed),
    )
    if mode.startswith("neighbour"):
        request.mode = pb.HINT_MODE_NEIGHBOUR_MAP
        request.objective = pb.HINT_OBJECTIVE_OWNER_WORST if mode.endswith("worst") else pb.HINT_OBJECTIVE_OWNER_BEST
    elif mode == "solo":
        request.mode = pb.HINT_MODE_SOLO
        other = play_game(None, random_rolls(seed + 100, 3, "hint-contract"), (), policy=RANDOM, seed=seed).final_grid
        request.second_map.extend(hc_service.grid_to_rows(other))
    elif mode == "multiplayer":
        request.mode = pb.HINT_MODE_MULTIPLAYER
        request.players = 2
    return request


def check_answer(request: pb.HappyCampersServiceHintRequest, response: pb.HappyCampersServiceHintResponse) -> None:
    rankings = [a.ranking for a in response.alternatives]
    assert rankings, "a position with a legal drawing gets a ranked answer"
    assert ranking_contract_violations(rankings) == []
    if request.mode in (pb.HINT_MODE_UNSPECIFIED, pb.HINT_MODE_OWN_MAP):
        grid = hc_service.grid_from_rows(request.map, rules.DEFAULT_COMPONENTS, "map")
        legal = rules.legal_placements(grid, (request.roll.first, request.roll.second))
        assert len(rankings) == len(legal)
        for alternative in response.alternatives:
            (placement,) = alternative.move.placements
            rules.draw(
                grid,
                rules.Placement(  # raises IllegalMove if the hinted drawing is not legal
                    cells=frozenset((c.row, c.col) for c in placement.cells),
                    element=next(e for e in rules.ELEMENTS if hc_service.element_symbol(e) == placement.element),
                    option=rules.Option(placement.shape_face, placement.element_face),
                ),
            )


@pytest.mark.parametrize("seed", range(12))
def test_wire_hints_keep_the_ranking_contract(client, seed: int) -> None:
    request = seeded_request(seed)
    response = client.happy_campers.hint(request, timeout=30)
    check_answer(request, response)


def test_no_standard_error_from_fewer_than_ten_samples_and_the_top_value_is_fresh() -> None:
    """A completed schedule (deadline lifted): moves halved out after a few rollouts show `samples` and no SE;
    the top move's value is the mean of fresh rollouts and carries an SE."""
    few_without_se = 0
    for seed in range(0, 12, 5):  # own-map positions
        request = seeded_request(seed, time_limit_s=0.3)
        budget = Budget(0.3)  # the time limit sets the schedule
        budget.deadline = math.inf
        response = hc_service.hint(request, budget)
        check_answer(request, response)
        top = response.alternatives[0].ranking
        assert top.HasField("standard_error") and top.samples >= MIN_SAMPLES_FOR_STANDARD_ERROR
        assert "fresh rollouts" in top.note
        for alternative in response.alternatives:
            r = alternative.ranking
            if r.HasField("value") and r.samples < MIN_SAMPLES_FOR_STANDARD_ERROR:
                assert not r.HasField("standard_error") and r.sampled and r.samples >= 1
                few_without_se += 1
    assert few_without_se > 0, "the race halves some moves out after a few rollouts"


@pytest.mark.parametrize("seed", range(5))
def test_a_tiny_deadline_still_answers_with_the_rule_of_thumb_flagged(seed: int) -> None:
    request = seeded_request(seed, time_limit_s=0.001)
    started = time.monotonic()
    response = hc_service.hint(request, Budget(0.001))
    assert time.monotonic() - started < 0.5
    check_answer(request, response)
    top = response.alternatives[0].ranking
    assert response.stats.interrupted
    assert not top.HasField("value") and top.note.startswith("the rule of thumb's move")


def test_a_tiny_wire_deadline_answers(client) -> None:
    """0.25 s on the wire leaves the hint 0.1 s after the server's margin: it answers, flagged if cut short."""
    for seed in (0, 5, 10):
        request = seeded_request(seed, time_limit_s=0.0)
        request.options.ClearField("time_limit_seconds")
        response = client.happy_campers.hint(request, timeout=0.25)
        check_answer(request, response)


def test_a_cpu_budget_is_honoured() -> None:
    """A CPU-time budget stops the hint near its CPU limit (the rollouts are timed on the budget's own clock)."""
    request = seeded_request(0, time_limit_s=0.2)
    budget = CpuBudget(0.2)
    started = time.process_time()
    response = hc_service.hint(request, budget)
    used = time.process_time() - started
    check_answer(request, response)
    assert used < 0.2 + 0.05
    assert response.stats.samples > 20  # not stopped early by a wall-clock reading

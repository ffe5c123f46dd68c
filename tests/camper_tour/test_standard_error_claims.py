"""A Camper Tour value states a standard error only where one means something: 0 for an exact value, the sampling
error of a playout or Monte Carlo mean with enough samples, and none at all for a value that is neither (a
depth-limited search, the best-response model, the solo look-ahead): a 0 there would claim an exact value.

Every kind of Camper Tour value the service answers, through its handlers: the hint by expected score (a
depth-limited search), by the best response to solo-policy campers (a model), solo (the look-ahead and the
Monte Carlo policy), MaxScore's answer and alternatives; and, so the test cannot pass by stating no standard
error anywhere, the exact answers that must state 0 and a sampled answer that must state its own.
"""

from __future__ import annotations

from typing import Any

import pytest
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games.shared import MIN_SAMPLES_FOR_STANDARD_ERROR
from campsolver.solver.camper_tour import best_response
from campsolver.solver.camper_tour.rules import all_normal
from campsolver.solver.core.budget import CpuBudget

from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import common_pb2
from tests.test_service_games import _solo_policy_record

EXACT = common_pb2.PROOF_STATUS_EXACT
ALL_NORMAL = ct_pb.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0)
SHORT_WITH_SPECIALS = ct_pb.CamperTourRules(
    plates=20, unexpected_comforts=2, mechanical_problem=2, village_festival=2, no_parking=2
)
SHORTER_WITH_SPECIALS = ct_pb.CamperTourRules(
    plates=12, unexpected_comforts=1, mechanical_problem=1, village_festival=1, no_parking=1
)


def _unfounded_errors(response: Any) -> list[str]:
    """Standard errors stated on values that are neither exact nor a mean of enough samples, and standard errors
    of exactly 0 on values that are not exact (a 0 claims what only an exact value may)."""
    found = []
    exact = response.proof == EXACT
    for alternative in response.alternatives:
        ranking = alternative.ranking
        if not ranking.HasField("standard_error") or exact:
            continue
        if not ranking.sampled or ranking.samples < MIN_SAMPLES_FOR_STANDARD_ERROR or ranking.standard_error <= 0:
            found.append(
                f"rank {ranking.rank} ({ranking.label}): value {ranking.value:.4f}, standard error "
                f"{ranking.standard_error} from {ranking.samples} samples"
            )
    top_level = "standard_error" in response.DESCRIPTOR.fields_by_name and response.HasField("standard_error")
    if top_level and not exact and response.stats.samples < MIN_SAMPLES_FOR_STANDARD_ERROR:
        found.append(f"the answer: standard error {response.standard_error} from {response.stats.samples} samples")
    return found


def _hint(state: ct_pb.CamperTourState, seconds: float, **fields: Any) -> ct_pb.CamperTourServiceHintResponse:
    request = ct_pb.CamperTourServiceHintRequest(
        state=state, options=common_pb2.SolveOptions(time_limit_seconds=seconds), **fields
    )
    return ct_service.hint(request, CpuBudget(seconds))


def _depth_limited() -> Any:
    state = ct_pb.CamperTourState(
        rules=ALL_NORMAL, campers=[ct_pb.Camper(position=10, tokens=20), ct_pb.Camper(position=12, tokens=20)]
    )
    return _hint(state, 2.0, depth=1, objective=common_pb2.OBJECTIVE_EXPECTED_SCORE)


def _best_response() -> Any:
    best_response.warm_up(all_normal())  # the route's tables, as the service builds them when it starts
    history, state = _solo_policy_record(6)
    response = _hint(state, 2.0, history=history)
    assert response.stats.method == "best-response-to-solo-policy"
    return response


def _solo_look_ahead() -> Any:
    state = ct_pb.CamperTourState(rules=SHORT_WITH_SPECIALS, campers=[ct_pb.Camper(position=3, tokens=20)])
    return _hint(state, 0.02)


def _solo_monte_carlo() -> Any:
    state = ct_pb.CamperTourState(rules=SHORT_WITH_SPECIALS, campers=[ct_pb.Camper(position=3, tokens=20)])
    return _hint(state, 0.5)


def _max(rules: ct_pb.CamperTourRules, seconds: float) -> Any:
    request = ct_pb.CamperTourServiceMaxScoreRequest(
        rules=rules, options=common_pb2.SolveOptions(time_limit_seconds=seconds)
    )
    return ct_service.max_score(request, CpuBudget(seconds))


#: The kinds whose values are no sample means at all: none may be flagged `sampled` either.
MODEL_VALUES = (
    "hint by expected score, depth-limited search",
    "hint by the best response to solo-policy campers",
    "solo hint, look-ahead",
    "MaxScore, look-ahead",
)
NEITHER = {
    "hint by expected score, depth-limited search": _depth_limited,
    "hint by the best response to solo-policy campers": _best_response,
    "solo hint, look-ahead": _solo_look_ahead,
    "solo hint, Monte Carlo policy": _solo_monte_carlo,
    "MaxScore, look-ahead": lambda: _max(SHORT_WITH_SPECIALS, 0.02),
    "MaxScore, Monte Carlo from few games": lambda: _max(ct_pb.CamperTourRules(), 0.3),
}


@pytest.mark.parametrize("kind", list(NEITHER))
def test_a_value_neither_sampled_nor_exact_states_no_standard_error(kind: str) -> None:
    response = NEITHER[kind]()
    assert response.proof != EXACT, f"{kind}: expected an inexact answer to check"
    assert any(a.ranking.HasField("value") for a in response.alternatives), f"{kind}: no value to check"
    assert _unfounded_errors(response) == [], kind
    if kind in MODEL_VALUES:
        assert not any(a.ranking.sampled for a in response.alternatives), f"{kind}: a model value called sampled"


def test_exact_values_state_zero_and_sampled_ones_their_own() -> None:
    """The other side of the contract: the checks above are not met by a service that never states one."""
    exact_hint = _hint(ct_pb.CamperTourState(rules=ALL_NORMAL, campers=[ct_pb.Camper(position=10, tokens=15)]), 1.0)
    assert exact_hint.proof == EXACT
    assert all(
        a.ranking.HasField("standard_error") and a.ranking.standard_error == 0.0
        for a in exact_hint.alternatives
        if a.ranking.HasField("value")
    )
    sampled = _max(SHORTER_WITH_SPECIALS, 1.0)
    assert sampled.proof != EXACT and sampled.stats.samples >= MIN_SAMPLES_FOR_STANDARD_ERROR
    assert sampled.HasField("standard_error") and sampled.standard_error > 0.0


@pytest.mark.parametrize(("samples", "stated"), [(9, False), (10, True), (44, True)])
def test_the_win_probability_note_states_a_standard_error_only_from_enough_playouts(
    monkeypatch: pytest.MonkeyPatch, samples: int, stated: bool
) -> None:
    """The note's claim follows the ranking's: from `MIN_SAMPLES_FOR_STANDARD_ERROR` playouts of the answered
    move its standard error, below that "too few" (found by the mutation run: the note's test inverted, and moved
    by one, survived)."""
    from campsolver.solver.camper_tour.hint import HintResult, RankedMove
    from campsolver.solver.core.proof import Proof

    state = ct_pb.CamperTourState(
        rules=ALL_NORMAL, campers=[ct_pb.Camper(position=10, tokens=20), ct_pb.Camper(position=12, tokens=20)]
    )
    legal = ct_service.state_from_proto(state).legal_actions()
    answered = RankedMove(choice=legal[0], value=0.5, loss=0.0, values=(0.5,), samples=samples, standard_error=0.1234)
    moves = (
        answered,
        *(RankedMove(choice=a, value=0.0, loss=0.5, values=(0.0,), evaluated=False) for a in legal[1:]),
    )
    result = HintResult(
        player=0,
        choices=moves,
        depth=0,
        proof=Proof.HEURISTIC,
        method=f"win-probability-playouts:{samples}",
        nodes=samples,
        wall_time_s=0.1,
        interrupted=False,
        samples=samples,
        opponents="the opponents, in turn, race",
    )
    monkeypatch.setattr(ct_service.handlers.hint_search, "hint", lambda *args, **kwargs: result)
    response = _hint(state, 1.0)
    assert (f"from {samples} playouts of the answered move (standard error 0.123)" in response.note) == stated
    assert ("too few for a standard error" in response.note) == (not stated)
    best = response.alternatives[0].ranking
    assert best.HasField("standard_error") == stated and best.samples == samples


@pytest.mark.parametrize("with_opponents", [False, True])
def test_a_puzzle_solution_calls_its_values_exact_only_when_its_proof_is(with_opponents: bool) -> None:
    """Camper Tour puzzles: solo endgames are valued exactly (EXACT); positions with an opponent by a depth-limited
    search (HEURISTIC), and the solution says which (found by the mutation run: the test inverted survived)."""
    request = ct_service.EXAMPLES["GeneratePuzzle"]()
    request.with_opponents = with_opponents
    response = ct_service.generate_puzzle(request, CpuBudget(60.0))
    puzzle = response.puzzle
    exact = puzzle.proof == EXACT
    assert exact == (not with_opponents)
    assert ("Values are exact" in puzzle.solution_text) == exact
    assert ("search (not proven)" in puzzle.solution_text) == (not exact)
    # The ranked alternatives say the same: standard error 0 on exact values, none on a search's.
    assert response.alternatives and all(a.ranking.HasField("standard_error") == exact for a in response.alternatives)
    if exact:  # unset on a search's values (checked above), where it would read as the default 0.0
        assert all(a.ranking.standard_error == 0.0 for a in response.alternatives)
    assert response.stats.method == ("exact solo" if exact else "expectimax")
    assert (response.stats.depth == 0) == exact


def test_the_solo_monte_carlo_hint_states_its_games_and_their_standard_error() -> None:
    """A solo hint that played its policy out says so: the games in `stats.samples`, their mean with its standard
    error in the note, and the ranked values called what they are (look-ahead estimates, not sampled)."""
    response = _solo_monte_carlo()
    assert response.stats.method == "solo:monte-carlo-policy"
    games = response.stats.samples
    assert games >= MIN_SAMPLES_FOR_STANDARD_ERROR
    assert f"over {games} games scores " in response.note and "standard error" in response.note
    assert "look-ahead estimates" in response.note and "search" not in response.note
    assert not any(a.ranking.sampled or a.ranking.samples for a in response.alternatives)

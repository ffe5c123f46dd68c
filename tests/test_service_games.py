"""Every game RPC through a real server, each answer re-checked by the rules model."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import happy_campers as hc_service
from campsolver.solver.camper_tour import rules as ct_rules
from campsolver.solver.happy_campers import exhaustive
from campsolver.solver.happy_campers import rules as hc_rules

from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as hc
from tests.timing import within_loaded


def hc_placement(message: hc.HappyCampersPlacement) -> hc_rules.Placement:
    symbol_to_element = {hc_service.element_symbol(e): e for e in hc_rules.ELEMENTS}
    return hc_rules.Placement(
        cells=frozenset((c.row, c.col) for c in message.cells),
        element=symbol_to_element[message.element],
        option=hc_rules.Option(message.shape_face, message.element_face),
    )


def test_happy_campers_hint_moves_are_legal_and_ranked(client: CampsolverClient) -> None:
    request = hc_service.EXAMPLES["Hint"]()
    response = client.happy_campers.hint(request, timeout=30)
    grid = hc_service.grid_from_rows(request.map, hc_rules.DEFAULT_COMPONENTS, "map")
    legal = hc_rules.legal_placements(grid, (request.roll.first, request.roll.second))
    assert len(response.alternatives) == len({(p.cells, p.element) for p in legal})
    values = [a.ranking.value for a in response.alternatives if a.ranking.HasField("value")]
    # Finalists (no "halved out" note) come first, sorted by value; moves dropped earlier follow them. A race
    # the deadline cut short (a loaded machine) is ordered by the rollout policy's evaluation and says so.
    finalists = [
        a.ranking.value
        for a in response.alternatives
        if a.ranking.HasField("value") and not a.ranking.note.startswith("halved out")
    ]
    assert values[: len(finalists)] == finalists
    if not any(a.ranking.note.startswith("ordered by the rollout policy") for a in response.alternatives):
        assert finalists == sorted(finalists, reverse=True)
    else:
        assert response.stats.interrupted
    for alternative in response.alternatives:
        (placement,) = alternative.move.placements
        hc_rules.draw(grid, hc_placement(placement))  # raises IllegalMove if the hint is not legal
        if alternative.ranking.HasField("value"):
            assert alternative.ranking.loss == pytest.approx(max(values[0] - alternative.ranking.value, 0.0))


@pytest.mark.parametrize("seed", range(4))
def test_happy_campers_max_matches_the_exhaustive_oracle(client: CampsolverClient, seed: int) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    rolls = [tuple(int(x) for x in rng.integers(1, 7, 2)) for _ in range(6)]
    components = hc_rules.Components(rows=3, cols=4)
    request = hc.HappyCampersServiceMaxScoreRequest(
        components=hc.HappyCampersComponents(rows=3, cols=4),
        rolls=[hc.HappyCampersRoll(first=a, second=b) for a, b in rolls],
        options=common_pb2.SolveOptions(time_limit_seconds=20),
    )
    response = client.happy_campers.max_score(request, timeout=30)
    oracle = exhaustive.clairvoyant_max(None, rolls, (), components)
    assert response.proof == common_pb2.PROOF_STATUS_OPTIMAL
    assert response.score == oracle.score
    grid = hc_rules.empty_grid(components)
    for placement in response.placements:
        grid = hc_rules.draw(grid, hc_placement(placement), components)
    assert hc_service.grid_to_rows(grid) == list(response.final_map)
    assert hc_rules.score(grid, (), components).total == response.score
    if response.ended_by_blocked_roll:
        blocked = rolls[response.rolls_used]
        assert not hc_rules.can_draw(grid, blocked, components)


def test_camper_tour_max_is_the_solo_value_and_hint_moves_are_legal(client: CampsolverClient) -> None:
    response = client.camper_tour.max_score(ct_service.EXAMPLES["MaxScore"](), timeout=30)
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    # The figure comes from the independent Fraction oracle (written from the rulebook, no package code).
    from tests.camper_tour.test_solo_oracle import make_oracle

    outward, _, _ = make_oracle(("normal",) * ct_rules.PLATE_COUNT, ct_rules.STARTING_TOKENS)
    independent = float(outward(0, ct_rules.STARTING_TOKENS))
    assert f"{independent:.6f}" == "69.894372"
    assert response.expected_score == pytest.approx(independent, abs=1e-9)
    assert response.alternatives[0].ranking.value == pytest.approx(response.expected_score, abs=1e-12)
    request = ct_service.EXAMPLES["Hint"]()
    hint = client.camper_tour.hint(request, timeout=30)
    state = ct_service.state_from_proto(request.state)
    legal = {ct_service.move_to_proto(a).SerializeToString(deterministic=True) for a in state.legal_actions()}
    assert hint.alternatives
    for alternative in hint.alternatives:
        assert alternative.move.SerializeToString(deterministic=True) in legal
        assert alternative.ranking.loss >= 0


def test_camper_tour_puzzle_is_reproducible_and_legal(client: CampsolverClient) -> None:
    request = ct.CamperTourServiceGeneratePuzzleRequest(seed=11)
    first = client.camper_tour.generate_puzzle(request, timeout=60)
    second = client.camper_tour.generate_puzzle(request, timeout=60)
    assert first.state == second.state and first.solution == second.solution
    assert first.puzzle.unique and first.puzzle.proof == common_pb2.PROOF_STATUS_EXACT
    state = ct_service.state_from_proto(first.state)
    assert first.solution.announce in {a.plates for a in state.legal_actions() if isinstance(a, ct_rules.Announce)}
    assert first.margin >= 0.25


def test_every_example_gets_the_same_answer_in_process_and_over_grpc(
    client: CampsolverClient, example_puzzles: dict[str, Any]
) -> None:
    """Every implemented RPC of every registered game (games merged later included), same request and seed; the
    in-process puzzles are the session's (the same request, budget and handler), made once for all tests."""
    from campsolver.service import dispatch

    from tests.example_answers import IMPLEMENTED, assert_same_answer, command_of

    assert IMPLEMENTED, "no implemented game registered"
    exact = []
    for game_name, cli_name in IMPLEMENTED:
        command = command_of(game_name, cli_name)
        assert command.example is not None, f"{game_name} {cli_name} needs an example request"
        request = command.example()
        if cli_name == "puzzle" and game_name in example_puzzles:
            local = example_puzzles[game_name]
        else:
            local = dispatch.run(command, request, dispatch.budget_for(request, None))
        remote = client.game(game_name).call(command.rpc_name, command.example(), timeout=300)
        assert isinstance(remote, command.response_type)
        assert remote.ByteSize() > 0, f"{game_name} {cli_name}: empty answer"
        if assert_same_answer(local, remote):
            exact.append((game_name, cli_name))
    # Budget-dependent answers (interrupted by their time limit) compare only proof and shape; most must not be.
    assert len(exact) >= 0.5 * len(IMPLEMENTED), f"only {exact} compared exactly"


def test_camper_tour_score_accepts_a_finished_game_and_rejects_absurd_campers(client: CampsolverClient) -> None:
    from campsolver.clients.client import CampsolverError

    finished = ct.CamperTourState(
        rules=ct_service.ALL_NORMAL_RULES,
        campers=[
            ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=48, tokens=0, arrival=1),
            ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=44, tokens=0, arrival=2),
        ],
    )
    response = client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=finished), timeout=10)
    assert list(response.scores) == [48, 44] and response.game_over and response.winner == 0
    legal = client.camper_tour.legal_moves(ct.CamperTourServiceLegalMovesRequest(state=finished), timeout=10)
    assert not legal.moves and legal.to_move == -1
    absurd = ct.CamperTourState(campers=[ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=-50, tokens=-2_000_000_000)])
    with pytest.raises(CampsolverError) as caught:
        client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=absurd), timeout=10)
    assert caught.value.violations[0].field == "state.campers[0].tokens"


CT_NORMAL = ct.CamperTourRules(unexpected_comforts=0, mechanical_problem=0, village_festival=0, no_parking=0)


def test_camper_tour_one_validation_for_all_five_rpcs(client: CampsolverClient) -> None:
    """Issue 7 section 5: a returner whose marker lies beyond the laid plates was INTERNAL for max and hint and
    accepted by Score and LegalMoves; every RPC now answers INVALID_ARGUMENT naming the field."""
    from campsolver.clients.client import CampsolverError

    bad = ct.CamperTourState(
        rules=CT_NORMAL,
        placed=[ct.PLATE_KIND_NORMAL] * 2,
        campers=[ct.Camper(position=2, phase=ct.CAMPER_PHASE_RETURN, marker=3, tokens=5)],
    )
    calls = [
        lambda: client.camper_tour.hint(ct.CamperTourServiceHintRequest(state=bad), timeout=10),
        lambda: client.camper_tour.max_score(ct.CamperTourServiceMaxScoreRequest(state=bad), timeout=10),
        lambda: client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=bad), timeout=10),
        lambda: client.camper_tour.legal_moves(ct.CamperTourServiceLegalMovesRequest(state=bad), timeout=10),
    ]
    for call in calls:
        with pytest.raises(CampsolverError) as caught:
            call()
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.violations[0].field == "state.campers[0].marker"
    # GeneratePuzzle takes no state: its only free fields are checked the same way.
    with pytest.raises(CampsolverError) as caught:
        client.camper_tour.generate_puzzle(ct.CamperTourServiceGeneratePuzzleRequest(seed=1, grade=99), timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.violations[0].field == "grade"


def test_camper_tour_score_shows_a_finished_game_by_the_arrival_rule(client: CampsolverClient) -> None:
    # One camper home with marker 40, another outward on plate 10: the arrival was furthest ahead, game over.
    state = ct.CamperTourState(
        rules=CT_NORMAL,
        campers=[
            ct.Camper(phase=ct.CAMPER_PHASE_FINISHED, marker=40, tokens=0, arrival=1),
            ct.Camper(position=10, phase=ct.CAMPER_PHASE_OUTWARD, tokens=12),
        ],
        to_move=1,
    )
    response = client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=state), timeout=10)
    assert response.game_over and response.winner == 0 and list(response.scores) == [40, 0]
    # ...but with the other camper out on plate 45 the game goes on, and it is that camper's move.
    state.campers[1].position = 45
    response = client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=state), timeout=10)
    assert not response.game_over
    legal = client.camper_tour.legal_moves(ct.CamperTourServiceLegalMovesRequest(state=state), timeout=10)
    assert legal.to_move == 1 and legal.moves
    # A request with more tokens than dealt is a state the supply can reach: accepted.
    state.campers[1].tokens = 27
    assert client.camper_tour.score(ct.CamperTourServiceScoreRequest(state=state), timeout=10).scores[0] == 40


@pytest.mark.timing
def test_camper_tour_max_keeps_its_time_limit_and_frees_its_worker(client: CampsolverClient) -> None:
    """Issue 7 section 5: `max` on a short route with specials answered after 6-13 s for a 0.2 s limit (the
    Monte Carlo loop never checked the budget). Now it stops at its limit (an answer or DEADLINE_EXCEEDED)."""
    import time

    from campsolver.clients.client import CampsolverError

    request = ct.CamperTourServiceMaxScoreRequest(
        rules=ct.CamperTourRules(plates=10, unexpected_comforts=2, village_festival=0, no_parking=1),
        options=common_pb2.SolveOptions(time_limit_seconds=0.2),
    )
    started = time.monotonic()
    try:
        client.camper_tour.max_score(request, timeout=30)
    except CampsolverError as error:
        assert error.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 3.0  # the limit is 0.2 s; 3 s leaves room for a loaded machine
    # the worker is free again: a quick call is answered at once
    assert client.camper_tour.legal_moves(ct_service.EXAMPLES["LegalMoves"](), timeout=10).moves


@pytest.mark.timing
def test_camper_tour_four_camper_hint_answers_before_the_client_deadline(client: CampsolverClient) -> None:
    """Issue 7 section 5: a 4-camper hint overran its deadline (clients got DEADLINE_EXCEEDED instead of the
    best answer so far). With no time limit of its own, the hint's budget is the deadline minus the margin."""
    state = ct.CamperTourState(
        rules=CT_NORMAL,
        campers=[
            ct.Camper(position=20, tokens=14),
            ct.Camper(position=24, tokens=12),
            ct.Camper(position=31, tokens=9),
            ct.Camper(position=27, tokens=11),
        ],
        to_move=0,
    )
    for objective in (common_pb2.OBJECTIVE_EXPECTED_SCORE, common_pb2.OBJECTIVE_WIN_PROBABILITY):
        response = client.camper_tour.hint(
            ct.CamperTourServiceHintRequest(state=state, objective=objective), timeout=1.5
        )
        assert response.alternatives and response.objective == objective
        assert within_loaded(response.stats.wall_time_seconds, 1.5), response.stats.wall_time_seconds


def test_camper_tour_hint_ranks_by_win_probability_by_default(client: CampsolverClient) -> None:
    request = ct_service.EXAMPLES["Hint"]()
    response = client.camper_tour.hint(request, timeout=30)
    assert response.objective == common_pb2.OBJECTIVE_WIN_PROBABILITY
    assert all(0.0 <= a.ranking.value <= 1.0 for a in response.alternatives)
    assert response.stats.samples > 0 and "playouts" in response.note
    # A value is a playout estimate with its samples and standard error, or absent with a note: a move the hint
    # did not compare must not read as "wins with probability 0".
    estimated = [a.ranking for a in response.alternatives if a.ranking.HasField("value")]
    assert estimated and all(r.sampled and r.samples > 0 and r.standard_error >= 0.0 for r in estimated)
    for ranking in (a.ranking for a in response.alternatives if not a.ranking.HasField("value")):
        assert not ranking.HasField("loss") and ranking.samples == 0 and "not compared" in ranking.note
    solo = ct.CamperTourServiceHintRequest(state=ct.CamperTourState(rules=CT_NORMAL, campers=[ct.Camper()]))
    assert client.camper_tour.hint(solo, timeout=30).objective == common_pb2.OBJECTIVE_EXPECTED_SCORE
    assert "in turn, race, announce-7, greedy and the solo optimum" in response.note
    # a slow field (every other camper at most half the mover's plate): the values are against solo campers
    slow = ct.CamperTourServiceHintRequest(
        state=ct.CamperTourState(
            rules=CT_NORMAL,
            campers=[
                ct.Camper(position=14, tokens=20),
                ct.Camper(position=6, tokens=24),
                ct.Camper(position=3, tokens=25),
            ],
        )
    )
    assert "the opponents the solo optimum (the field is slow" in client.camper_tour.hint(slow, timeout=30).note


def _solo_policy_record(decisions: int, seed: int = 11) -> tuple[list[ct.CamperTourDecision], ct.CamperTourState]:
    """A 3-camper all-normal game of the solo policy in every seat: its first `decisions` decisions as a
    history, and the next decision state of camper 0 after them."""
    import numpy as np
    from campsolver.solver.camper_tour.players import solo_optimal
    from campsolver.solver.core.game import sample_outcome

    rng = np.random.default_rng(seed)
    state = ct_rules.new_game(ct_rules.all_normal(), 3)
    history: list[ct.CamperTourDecision] = []
    while True:
        if state.current_player() >= 0:
            if len(history) >= decisions and state.to_move == 0:
                return history, ct_service.state_to_proto(state)
            action = solo_optimal(state)
            history.append(
                ct.CamperTourDecision(state=ct_service.state_to_proto(state), move=ct_service.move_to_proto(action))
            )
            state = state.child(action)
        else:
            state = state.child(sample_outcome(state, rng))


def test_camper_tour_hint_reads_the_opponents_from_the_history(client: CampsolverClient) -> None:
    """With a history showing both other campers playing the solo policy the hint ranks every legal move by the
    best response to them (values without samples, the note says which model); without it, by playouts."""
    history, state = _solo_policy_record(6)
    request = ct.CamperTourServiceHintRequest(
        state=state, history=history, options=common_pb2.SolveOptions(time_limit_seconds=1.0)
    )
    response = client.camper_tour.hint(request, timeout=30)
    assert response.stats.method == "best-response-to-solo-policy"
    assert "history shows every other camper playing the exact solo policy" in response.note
    legal = client.camper_tour.legal_moves(ct.CamperTourServiceLegalMovesRequest(state=state), timeout=10).moves
    assert len(response.alternatives) == len(legal)
    values = [a.ranking.value for a in response.alternatives]
    assert values == sorted(values, reverse=True) and all(0.0 <= v <= 1.0 for v in values)
    assert all(a.ranking.HasField("value") and not a.ranking.sampled for a in response.alternatives)
    without = client.camper_tour.hint(ct.CamperTourServiceHintRequest(state=state), timeout=30)
    assert without.stats.method.startswith("win-probability-playouts")


def test_camper_tour_hint_refuses_a_bad_history_naming_the_decision(client: CampsolverClient) -> None:
    from campsolver.clients.client import CampsolverError

    history, state = _solo_policy_record(6)

    def refused(bad: list[ct.CamperTourDecision]) -> tuple[grpc.StatusCode, str]:
        with pytest.raises(CampsolverError) as caught:
            client.camper_tour.hint(ct.CamperTourServiceHintRequest(state=state, history=bad), timeout=10)
        return caught.value.code, caught.value.violations[0].field

    illegal = [ct.CamperTourDecision(state=h.state, move=h.move) for h in history]
    illegal[2].move.CopyFrom(ct.CamperTourMove(turn_back=True))  # on the first plates: not legal
    assert refused(illegal) == (grpc.StatusCode.INVALID_ARGUMENT, "history[2].move")
    unset = list(history)
    unset[1] = ct.CamperTourDecision(state=history[1].state)
    assert refused(unset) == (grpc.StatusCode.INVALID_ARGUMENT, "history[1].move")
    two = ct.CamperTourState(rules=CT_NORMAL, campers=[ct.Camper(), ct.Camper()])
    other = [ct.CamperTourDecision(state=two, move=ct.CamperTourMove(announce=3))]
    assert refused(other) == (grpc.StatusCode.INVALID_ARGUMENT, "history[0].state.campers")
    assert refused((history * 200)[:1001]) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "history")

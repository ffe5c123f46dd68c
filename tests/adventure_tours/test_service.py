"""Every Adventure Tours RPC through a real gRPC server and through the CLI; answers re-checked by the rules
model; bad input is INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import json
import subprocess
import sys

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.games import adventure_tours as service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.solver.adventure_tours import maximise
from campsolver.solver.adventure_tours.rules import State
from campsolver.solver.core.game import CHANCE
from google.protobuf import json_format

from campsolver.v1 import adventure_tours_pb2 as pb
from campsolver.v1 import common_pb2


def full(message: pb.AdventureToursState) -> State:
    return service.full_state(service.parse_state(message, allow_small=True))


def replay_move(state: State, move: pb.AdventureMove) -> State:
    for step in move.steps:
        state = state.child(service.step_from_proto(step))  # raises IllegalAction if not legal
    return state


def test_hint_over_grpc_ranks_legal_plays(client: CampsolverClient) -> None:
    request = service.EXAMPLES["Hint"]()
    response = client.adventure_tours.hint(request, timeout=30)
    truth = full(service.EXAMPLES["MaxScore"]().state)  # the same table with every hand known
    assert response.alternatives and response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    values = [a.ranking.value for a in response.alternatives if a.ranking.HasField("value")]
    assert values == sorted(values, reverse=True)
    assert not ranking_contract_violations([a.ranking for a in response.alternatives])  # loss = best - value
    for alternative in response.alternatives:
        replay_move(truth, alternative.move)
        if alternative.ranking.samples >= 2:
            assert alternative.ranking.standard_error > 0
    legal = client.adventure_tours.legal_moves(service.EXAMPLES["LegalMoves"](), timeout=30)
    assert {m.SerializeToString(deterministic=True) for m in legal.moves} == {
        a.move.SerializeToString(deterministic=True) for a in response.alternatives
    }


def test_max_over_grpc_is_proven_and_its_line_replays(client: CampsolverClient) -> None:
    request = service.EXAMPLES["MaxScore"]()
    request.objective = pb.ADVENTURE_MAX_OBJECTIVE_MARGIN
    request.others = pb.ADVENTURE_OTHERS_GREEDY
    response = client.adventure_tours.max_score(request, timeout=30)
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    cut = service.full_state(service.parse_state(request.state, allow_small=True), need_order=True)
    for step in response.line:
        while cut.current_player() == CHANCE:
            cut = cut.child(cut.deck[0])
        assert step.player == cut.current_player()
        cut = cut.child(service.step_from_proto(step.step))
    while cut.current_player() == CHANCE:
        cut = cut.child(cut.deck[0])
    assert list(response.round_scores) == list(cut.last_round)
    assert response.value == maximise.round_value(cut, request.state.to_move, maximise.MaxObjective.MARGIN)


def test_solo_max_is_accepted(client: CampsolverClient) -> None:
    state = pb.AdventureToursState(
        players=[pb.AdventurePlayer(hand=[0, 1, 40])],
        pile=[2, 3],
        to_move=0,
        discard=[c for c in range(102) if c not in (0, 1, 2, 3, 40)],
    )
    response = client.adventure_tours.max_score(pb.AdventureToursServiceMaxScoreRequest(state=state), timeout=30)
    assert response.proof == common_pb2.PROOF_STATUS_EXACT
    assert response.value >= 0 and len(response.round_scores) == 1


def test_puzzle_over_grpc_is_reproducible_unique_and_pictured(client: CampsolverClient) -> None:
    import xml.etree.ElementTree as ET

    request = pb.AdventureToursServiceGeneratePuzzleRequest(seed=1)
    first = client.adventure_tours.generate_puzzle(request, timeout=60)
    second = client.adventure_tours.generate_puzzle(request, timeout=60)
    assert first.state == second.state and first.solution == second.solution
    assert first.puzzle.unique and first.puzzle.proof == common_pb2.PROOF_STATUS_EXACT
    assert first.margin >= 2
    assert first.alternatives[0].ranking.value - first.alternatives[1].ranking.value == first.margin
    state = full(first.state)
    replay_move(state, first.solution)
    for picture in (first.puzzle.svg, first.puzzle.solution_svg):
        assert ET.fromstring(picture).tag.endswith("svg")
    assert first.puzzle.question in first.puzzle.text
    assert first.solution.label not in first.puzzle.text and first.solution.label in first.puzzle.solution_text


def test_score_over_grpc(client: CampsolverClient) -> None:
    response = client.adventure_tours.score(service.EXAMPLES["Score"](), timeout=10)
    state = full(service.EXAMPLES["MaxScore"]().state)
    assert list(response.round_scores) == state.round_scores()
    assert list(response.incomes) == [state.income(q) for q in range(3)]


def invalid(client: CampsolverClient, rpc: str, request) -> str:
    with pytest.raises(CampsolverError) as caught:
        client.adventure_tours.call(rpc, request, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    return caught.value.violations[0].field


def test_bad_input_names_the_field(client: CampsolverClient) -> None:
    request = service.EXAMPLES["Hint"]()
    request.state.players[0].hand.append(500)
    assert invalid(client, "Hint", request) == f"state.players[0].hand[{len(request.state.players[0].hand) - 1}]"

    request = service.EXAMPLES["Score"]()
    request.state.players[1].hand_size = 90  # more hidden cards than there are cards off the table
    assert invalid(client, "Score", request) == "state.players"

    request = service.EXAMPLES["MaxScore"]()
    request.state.players[2].members.append(request.state.players[0].hand[0])
    assert invalid(client, "MaxScore", request).startswith("state.players[2].members[")

    request = service.EXAMPLES["MaxScore"]()
    request.player = 7  # a target player that does not exist
    assert invalid(client, "MaxScore", request) == "player"

    request = service.EXAMPLES["MaxScore"]()
    del request.state.pile[:]
    assert invalid(client, "MaxScore", request) == "state.pile"

    request = service.EXAMPLES["LegalMoves"]()
    request.state.to_move = 5
    assert invalid(client, "LegalMoves", request) == "state.to_move"

    request = service.EXAMPLES["Hint"]()
    request.state.players[1].board = 0
    assert invalid(client, "Hint", request) == "state.players[1].board"

    request = service.EXAMPLES["Hint"]()
    request.state.rules.deck.add(name="odd", colour=pb.ADVENTURE_COLOUR_RED, demand=1, money=1, value=1)
    assert invalid(client, "Hint", request) == "state.rules.deck[0].action"

    request = pb.AdventureToursServiceHintRequest(state=pb.AdventureToursState(players=[pb.AdventurePlayer()] * 2))
    assert invalid(client, "Hint", request) == "state.players"


@pytest.mark.slow  # the default suite runs every example through the CLI in tests/test_cli.py
@pytest.mark.parametrize("command", ["hint", "max", "puzzle", "score", "legal"])
def test_every_command_through_the_cli(command: str) -> None:
    example = subprocess.run(
        [sys.executable, "-m", "campsolver", "adventure-tours", "example", command],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = subprocess.run(
        [sys.executable, "-m", "campsolver", "adventure-tours", command, "--request", "-"],
        input=example,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer


def test_cli_bad_input_is_one_line_and_exit_2() -> None:
    request = service.EXAMPLES["Score"]()
    request.state.players[0].hand.append(-3)
    text = json_format.MessageToJson(request)
    result = subprocess.run(
        [sys.executable, "-m", "campsolver", "adventure-tours", "score", "--request", "-"],
        input=text,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "state.players[0].hand[" in result.stderr


def test_expert_boards_reach_the_legal_plays() -> None:
    from campsolver.solver.core.budget import Budget

    request = service.EXAMPLES["LegalMoves"]()
    request.state.rules.expert = True
    mover = request.state.to_move
    for q, player in enumerate(request.state.players):
        player.board = 1 if q == mover else 2 + q  # the arctic: optional draw and a gift after equipment
    response = service.legal_moves(request, Budget(10))
    gifts = [move for move in response.moves if len(move.steps) == 2 and move.steps[1].WhichOneof("choice") == "gift"]
    sponsors = {move.steps[0].play.card for move in response.moves if not move.steps[0].play.member}
    # Every equipment card: draw or not, times no gift or a gift to any player (yourself included).
    assert len(gifts) == len(sponsors) * 2 * (1 + len(request.state.players)) > 0


def test_score_accepts_a_finished_round() -> None:
    from campsolver.solver.core.budget import Budget

    request = service.EXAMPLES["Score"]()
    mover = request.state.players[request.state.to_move]
    request.state.discard.extend(mover.hand)
    del mover.hand[:]
    response = service.score(request, Budget(10))
    assert response.round_scores[request.state.to_move] == response.incomes[request.state.to_move]


def test_money_floor_default_and_variant_through_the_request_and_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """`rules.money_floor` reaches the rules model: unset is the money pile (hand costs eat money held), PER_ROUND
    the named variant; the CLI's JSON request carries it by name. Every figure re-checked by the rules model."""
    from campsolver.solver.adventure_tours.rules import MoneyFloor, money_change
    from campsolver.solver.core.budget import Budget

    from tests.test_cli import main_in_process

    request = service.EXAMPLES["Score"]()
    for q, player in enumerate(request.state.players):
        player.money = 20 + q
    results = {}
    for floor in (pb.ADVENTURE_MONEY_FLOOR_UNSPECIFIED, pb.ADVENTURE_MONEY_FLOOR_PER_ROUND):
        request.state.rules.money_floor = floor
        response = service.score(request, Budget(10))
        state = full(service.EXAMPLES["MaxScore"]().state)
        expected_floor = MoneyFloor.ROUND if floor == pb.ADVENTURE_MONEY_FLOOR_PER_ROUND else MoneyFloor.PILE
        hands = [len(p.hand) or p.hand_size for p in request.state.players]
        expected = [money_change(expected_floor, 20 + q, state.income(q), hands[q]) for q in range(3)]
        assert list(response.round_scores) == expected
        assert list(response.totals) == [20 + q + s for q, s in enumerate(expected)]
        code, out, _ = main_in_process(
            capsys, "adventure-tours", "score", "--request", "-", stdin=json_format.MessageToJson(request)
        )
        assert code == 0 and json.loads(out)["roundScores"] == expected
        results[floor] = expected
    # The example has hands bigger than incomes for someone: the two floors must differ there.
    assert results[pb.ADVENTURE_MONEY_FLOOR_UNSPECIFIED] != results[pb.ADVENTURE_MONEY_FLOOR_PER_ROUND]
    assert min(results[pb.ADVENTURE_MONEY_FLOOR_UNSPECIFIED]) < 0 == min(results[pb.ADVENTURE_MONEY_FLOOR_PER_ROUND])
    request.state.rules.money_floor = 9  # not a floor
    with pytest.raises(Exception, match="money_floor"):
        service.score(request, Budget(10))

"""Deluxe Camping through gRPC and the CLI: every command, answers re-checked by the rules model, bad input
named by field."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.games import deluxe_camping as service
from campsolver.service.games.shared import ranking_contract_violations
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import rules
from google.protobuf import json_format

from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as pb
from tests.timing import cpu_share_now, loaded, within_loaded

ROOT = Path(__file__).resolve().parents[2]
#: A hint budget that lets the search reach its leaves even on a loaded 2-core machine (the opening movement's
#: screen alone is ~0.3 s CPU).
SEARCHED_HINT_S = 5.0


def call(client: CampsolverClient, rpc: str, request):
    return client.game("deluxe-camping").call(rpc, request, timeout=60)


def searched_hint(client: CampsolverClient, request: pb.DeluxeCampingServiceHintRequest):
    """The hint's answer with SEARCHED_HINT_S of budget (long enough for the opening movement's search to reach
    its leaves on a loaded machine), its moves checked against the rules model's legal moves."""
    # A loaded machine gives the worker less CPU a wall second: the limit grows with the load (at most 6x), so the
    # search still reaches its leaves (a fixed 5 s answered "0 solved" beside load ~10 on 2 cores).
    request.options.time_limit_seconds = min(loaded(SEARCHED_HINT_S, cpu_share_now()), 6 * SEARCHED_HINT_S)
    response = call(client, "Hint", request)
    state = service.state_from_proto(request.state)
    moves = [service.move_from_proto(a.move, state.config, "move") for a in response.alternatives]
    assert set(moves) == set(state.legal_actions()) and len(moves) == len(set(moves))
    return response


def test_legal_moves_match_the_rules_model(client: CampsolverClient) -> None:
    request = service.EXAMPLES["LegalMoves"]()
    response = call(client, "LegalMoves", request)
    state = service.state_from_proto(request.state)
    assert response.to_move == state.to_move and response.stage == pb.DELUXE_CAMPING_STAGE_MOVE
    moves = [service.move_from_proto(m, state.config, "move") for m in response.moves]
    assert moves == state.legal_actions()


@pytest.mark.timing
def test_hint_moves_are_legal_ranked_and_the_best_is_first(client: CampsolverClient) -> None:
    request = service.EXAMPLES["Hint"]()
    response = call(client, "Hint", request)
    state = service.state_from_proto(request.state)
    legal = set(state.legal_actions())
    moves = [service.move_from_proto(a.move, state.config, "move") for a in response.alternatives]
    assert set(moves) == legal and len(moves) == len(legal)
    # Every choice says its kind; the first group (the ranking's own quantity) is best first with a value and a
    # loss against its best; the screened ones below a searched group give their one-turn value in the note only.
    assert all(a.ranking.note for a in response.alternatives)
    first = [a.ranking for a in response.alternatives if a.ranking.HasField("loss")]
    assert first and [r.value for r in first] == sorted((r.value for r in first), reverse=True)
    assert first[0].loss == 0 and all(r.loss == first[0].value - r.value for r in first)
    screened = [a.ranking for a in response.alternatives if "screened" in a.ranking.note]
    if "screened" not in response.alternatives[0].ranking.note:  # searched choices on top: another quantity
        assert all(not r.HasField("value") and "not comparable" in r.note for r in screened)
    else:
        assert all(r.HasField("value") for r in screened)
    assert ranking_contract_violations([a.ranking for a in response.alternatives]) == []
    assert response.proof == common_pb2.PROOF_STATUS_HEURISTIC
    assert within_loaded(response.stats.wall_time_seconds, 1.5), response.stats.wall_time_seconds


def test_max_partition_is_rescored_by_the_rules_model(client: CampsolverClient) -> None:
    request = service.EXAMPLES["MaxScore"]()
    response = call(client, "MaxScore", request)
    state = service.state_from_proto(request.state)
    added = frozenset(service.barrier_from_proto(b, state.config, "b") for b in response.barriers)
    board = maxima.final_board(state, added)
    assert list(board.scores()) == list(response.scores)
    assert response.value == response.scores[state.to_move]
    assert len(added) <= state.supply_left
    assert response.proof in (common_pb2.PROOF_STATUS_OPTIMAL, common_pb2.PROOF_STATUS_FEASIBLE_WITH_BOUND)
    if response.proof == common_pb2.PROOF_STATUS_OPTIMAL:
        assert response.stats.bound == response.value
    assert sum(len(site.squares) for site in response.sites) == state.config.squares


def test_max_margin_and_total_objectives(client: CampsolverClient) -> None:
    request = service.EXAMPLES["MaxScore"]()
    request.options.time_limit_seconds = 2.0
    for objective in (pb.DELUXE_CAMPING_MAX_OBJECTIVE_MARGIN, pb.DELUXE_CAMPING_MAX_OBJECTIVE_TOTAL):
        request.objective = objective
        response = call(client, "MaxScore", request)
        if objective == pb.DELUXE_CAMPING_MAX_OBJECTIVE_MARGIN:
            assert response.value == response.scores[0] - max(response.scores[1:])
        else:
            assert response.value == sum(response.scores)


def test_score_reports_sites_and_barriers_left(client: CampsolverClient) -> None:
    request = service.EXAMPLES["Score"]()
    response = call(client, "Score", request)
    state = service.state_from_proto(request.state)
    assert list(response.scores) == list(state.scores())
    assert response.barriers_left == state.supply_left and not response.game_over
    assert sum(len(site.squares) for site in response.sites) == state.config.squares


def test_state_round_trips_through_the_proto() -> None:
    state = service.state_from_proto(service.example_state())
    assert service.state_from_proto(service.state_to_proto(state)) == state
    barrier_stage = state.child(rules.Move(()))
    assert service.state_from_proto(service.state_to_proto(barrier_stage)) == barrier_stage


def test_every_stage_maps_to_the_proto_stage_of_its_name_and_back() -> None:
    """Each stage of the rules model, setup stages included, goes to the proto stage of the same name and back
    (the expectation from the names, not from the mapping: a swapped entry fails here)."""
    for stage in rules.Stage:
        number = service.STAGE_TO_PROTO[stage]
        assert pb.DeluxeCampingStage.Name(number) == f"DELUXE_CAMPING_STAGE_{stage.name}"
        assert service.STAGE_FROM_PROTO[number] is stage


@pytest.mark.timing
@pytest.mark.parametrize("leaf", [None, pb.DELUXE_CAMPING_HINT_LEAF_SECURABLE, pb.DELUXE_CAMPING_HINT_LEAF_ESTIMATE])
def test_hint_leaves_over_grpc_reply_search_by_default(client: CampsolverClient, leaf: int | None) -> None:
    """Unset, the hint is the reply search (territory estimate, the next player's best reply); the deepening
    search with CP-SAT securable-score leaves or estimate leaves is the option. Every move stays legal and every
    value says its kind."""
    request = service.EXAMPLES["Hint"]()
    if leaf is not None:
        request.leaf = leaf
    response = searched_hint(client, request)
    securable = leaf == pb.DELUXE_CAMPING_HINT_LEAF_SECURABLE
    assert ("CP-SAT securable-score model" in response.note) is securable
    assert ("estimate leaves" in response.stats.method) is (leaf == pb.DELUXE_CAMPING_HINT_LEAF_ESTIMATE)
    assert ("the next player's best reply" in response.stats.method) is (leaf is None)
    solved = re.search(r"\((\d+) solved", response.note)  # securable leaves solved by CP-SAT
    assert (solved is not None and int(solved.group(1)) > 0) is securable
    # the budget plus half a second of finishing work (stretched on a loaded machine)
    overrun = response.stats.wall_time_seconds - request.options.time_limit_seconds
    assert within_loaded(overrun, 0.5), response.stats.wall_time_seconds


def test_cli_hint_uses_the_reply_search_by_default() -> None:
    example = run_cli("deluxe-camping", "example", "hint")
    assert example.returncode == 0, example.stderr
    request = json.loads(example.stdout)
    assert "leaf" not in request  # the example leaves the leaf unset: the default
    request.setdefault("options", {})["timeLimitSeconds"] = SEARCHED_HINT_S
    result = run_cli("deluxe-camping", "hint", "--request", "-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert "after the next player's best reply" in answer["note"]
    assert any("after the next player's best reply" in a["ranking"]["note"] for a in answer["alternatives"])


def test_unknown_hint_leaf_names_the_field(client: CampsolverClient) -> None:
    request = service.EXAMPLES["Hint"]()
    request.leaf = 7  # proto3 enums are open: an unknown number reaches the server
    error = bad(client, "Hint", request)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.violations[0].field == "leaf"


@pytest.mark.parametrize("cap", [0, 1])
def test_hint_reply_plies_capped_by_the_request(client: CampsolverClient, cap: int) -> None:
    """`max_reply_plies` caps the deepening (0: the one-turn screen only) whatever the budget: with 5 s the
    search reaches the cap and stops there; the note and the depth say so, and every move is still the rules
    model's."""
    request = service.EXAMPLES["Hint"]()
    request.max_reply_plies = cap
    response = searched_hint(client, request)
    assert f"capped at {cap} by the request" in response.note
    reached = int(re.search(r": (\d+) reply ply\(ies\)", response.note).group(1))
    assert reached == cap and response.stats.depth == 1 + reached
    if cap == 0:  # no value is after a reply
        assert all(
            "after the next player's best reply" not in a.ranking.note
            for a in response.alternatives
            if a.ranking.HasField("value")
        )


@pytest.mark.parametrize(
    ("cap", "code"),
    [(-1, grpc.StatusCode.INVALID_ARGUMENT), (service.HINT_REPLY_PLIES_LIMIT + 1, grpc.StatusCode.RESOURCE_EXHAUSTED)],
)
def test_hint_reply_plies_out_of_range_names_the_field(
    client: CampsolverClient, cap: int, code: grpc.StatusCode
) -> None:
    request = service.EXAMPLES["Hint"]()
    request.max_reply_plies = cap
    error = bad(client, "Hint", request)
    assert error.code == code
    assert error.violations[0].field == "max_reply_plies"


def bad(client: CampsolverClient, rpc: str, request) -> CampsolverError:
    with pytest.raises(CampsolverError) as caught:
        call(client, rpc, request)
    return caught.value


def example_state() -> pb.DeluxeCampingState:
    return service.example_state()


def test_two_pieces_on_one_square_names_the_field(client: CampsolverClient) -> None:
    state = example_state()
    state.pool.CopyFrom(state.players[0].trailers[0])
    error = bad(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.violations[0].field == "state.players[0].trailers[0]"


def test_barrier_not_between_adjacent_squares_names_the_field(client: CampsolverClient) -> None:
    state = example_state()
    state.barriers.add(a=pb.DeluxeCampingSquare(row=0, col=0), b=pb.DeluxeCampingSquare(row=1, col=1))
    error = bad(client, "LegalMoves", pb.DeluxeCampingServiceLegalMovesRequest(state=state))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.violations[0].field == f"state.barriers[{len(state.barriers) - 1}]"


def test_illegal_setup_is_invalid(client: CampsolverClient) -> None:
    state = example_state()
    bungalow = state.players[0].bungalow
    state.pool.CopyFrom(pb.DeluxeCampingSquare(row=bungalow.row, col=(bungalow.col + 1) % 10))
    if (bungalow.col + 1) % 10 == 0:
        state.pool.col = bungalow.col - 1
    error = bad(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.violations[0].field.startswith("state")


def test_board_over_the_size_limit_is_resource_exhausted(client: CampsolverClient) -> None:
    state = example_state()
    state.rules.rows = 50
    error = bad(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state))
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error.violations[0].field == "state.rules.rows"


def test_off_board_square_and_bad_player_count(client: CampsolverClient) -> None:
    state = example_state()
    state.players[1].trailers[0].row = 10
    error = bad(client, "Hint", pb.DeluxeCampingServiceHintRequest(state=state))
    assert error.violations[0].field == "state.players[1].trailers[0].row"
    state = example_state()
    state.rules.players = 5
    error = bad(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state))
    assert error.violations[0].field == "state.rules.players"


NEIGHBOURS = """
+-----------+
|A a b . P .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|I . N . I .|
+ + + + + + +
|. . . . . B|
+-----------+
"""


def test_missing_automatic_barrier_and_missing_state(client: CampsolverClient) -> None:
    error = bad(client, "MaxScore", pb.DeluxeCampingServiceMaxScoreRequest())
    assert error.violations[0].field == "state"
    state = service.state_to_proto(rules.parse_board(NEIGHBOURS, add_automatic=True))
    assert call(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state)).barriers_left == 59
    del state.barriers[:]  # a trailer beside another player's trailer without the automatic barrier
    error = bad(client, "Score", pb.DeluxeCampingServiceScoreRequest(state=state))
    assert error.violations[0].field == "state"
    assert "without a barrier" in error.violations[0].description


def test_puzzle_barriers_limit(client: CampsolverClient) -> None:
    error = bad(client, "GeneratePuzzle", pb.DeluxeCampingServiceGeneratePuzzleRequest(seed=1, barriers=99))
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and error.violations[0].field == "barriers"


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "campsolver.clients.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("command", ["legal", pytest.param("max", marks=pytest.mark.slow)])
def test_every_command_through_the_cli(command: str) -> None:
    # Every command's example also runs through the CLI in tests/test_cli.py (all games); this adds the checks
    # that the output parses and, for `max`, a second path through a real solve.
    example = run_cli("deluxe-camping", "example", command)
    assert example.returncode == 0, example.stderr
    result = run_cli("deluxe-camping", command, "--request", "-", stdin=example.stdout)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)


def test_cli_bad_input_is_one_line_naming_the_field() -> None:
    state = json_format.MessageToDict(example_state())
    state["pool"] = state["players"][0]["trailers"][0]
    result = run_cli("deluxe-camping", "score", "--request", "-", stdin=json.dumps({"state": state}))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "INVALID_ARGUMENT" in lines[0] and "state.players[0].trailers[0]" in lines[0]


def test_free_barrier_variants_through_the_request_the_cli_and_the_hint(capsys: pytest.CaptureFixture[str]) -> None:
    """`rules.strict_colours` and `rules.optional_free_barrier` reach the rules model: LegalMoves lists no
    barrier between one player's own pieces under the first and a `no_barrier` move under the second (neither
    by default); the hint only ranks those legal moves (every alternative re-applied by the rules model); the
    CLI's JSON request carries both by name."""
    from campsolver.solver.core.budget import Budget

    from tests.deluxe_camping.test_rules import OWN_NEIGHBOURS
    from tests.test_cli import main_in_process

    position = rules.parse_board(OWN_NEIGHBOURS).child(rules.Move(()))
    owners = position.owner_at
    for strict in (False, True):
        for optional in (False, True):
            message = service.state_to_proto(position)
            message.rules.strict_colours, message.rules.optional_free_barrier = strict, optional
            state = service.state_from_proto(message)
            assert (state.config.strict_colours, state.config.optional_free_barrier) == (strict, optional)
            legal = service.legal_moves(pb.DeluxeCampingServiceLegalMovesRequest(state=message), Budget(10))
            moves = [service.move_from_proto(m, state.config, "move") for m in legal.moves]
            assert moves == state.legal_actions()
            own_edges = [
                m
                for m in moves
                if m.edge is not None and m.edge[0] in owners and owners.get(m.edge[1]) == owners[m.edge[0]]
            ]
            assert bool(own_edges) is not strict
            assert any(m.no_barrier for m in legal.moves) is optional
            request = pb.DeluxeCampingServiceHintRequest(
                state=message, options=common_pb2.SolveOptions(time_limit_seconds=1.0)
            )
            answer = service.hint(request, Budget(1.0))
            ranked = [service.move_from_proto(a.move, state.config, "move") for a in answer.alternatives]
            assert ranked and set(ranked) <= set(moves)
            for action in ranked:
                state.child(action)  # raises IllegalAction when the variant forbids it
            code, out, _ = main_in_process(
                capsys,
                "deluxe-camping",
                "legal",
                "--request",
                "-",
                stdin=json_format.MessageToJson(pb.DeluxeCampingServiceLegalMovesRequest(state=message)),
            )
            assert code == 0 and len(json.loads(out)["moves"]) == len(moves)
            assert any("noBarrier" in m for m in json.loads(out)["moves"]) is optional

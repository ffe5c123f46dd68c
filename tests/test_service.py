"""The service against a real server on loopback: health, reflection, errors, deadlines, cancels, draining.

Nothing here waits on the clock: tests wait on the server's own solver-slot gate (`SolveGate.wait_busy`) or
on what the wire shows (health answers), and time bounds are what the behaviour guarantees (a deadline).
"""

from __future__ import annotations

import dataclasses
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.errors import ERROR_DOMAIN
from campsolver.service.games import camper_tour as camper_tour_service
from campsolver.service.registry import games
from campsolver.service.server import REFLECTION_V1_SERVICE, CampsolverServer, ServerConfig
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2

from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import common_pb2
from campsolver.v1 import deluxe_camping_pb2 as dc
from campsolver.v1 import happy_campers_pb2 as hc

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=2))
    running.start()
    yield running
    running.stop(grace_s=2.0)


@pytest.fixture(scope="module")
def client(server: CampsolverServer) -> Iterator[CampsolverClient]:
    with CampsolverClient(server.address) as connected:
        connected.wait_ready()
        yield connected


def health_of(channel: grpc.Channel, name: str) -> int:
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status


def test_health_is_serving_exactly_for_implemented_games(client: CampsolverClient) -> None:
    assert health_of(client.channel, "") == health_pb2.HealthCheckResponse.SERVING
    for game in games().values():
        serving = health_pb2.HealthCheckResponse
        expected = serving.SERVING if game.implemented else serving.NOT_SERVING
        assert health_of(client.channel, game.service_full_name) == expected, game.cli_name


def _reflect(channel: grpc.Channel, service: str) -> list[reflection_pb2.ServerReflectionResponse]:
    method = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="campsolver.v1.CamperTourService"),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=service),
    ]
    return list(method(iter(requests), timeout=5))


@pytest.mark.parametrize("service", ["grpc.reflection.v1alpha.ServerReflection", REFLECTION_V1_SERVICE])
def test_reflection_v1_and_v1alpha_list_and_describe_services(client: CampsolverClient, service: str) -> None:
    responses = _reflect(client.channel, service)
    listed = {s.name for s in responses[0].list_services_response.service}
    assert {game.service_full_name for game in games().values()} <= listed
    assert {"grpc.health.v1.Health", REFLECTION_V1_SERVICE, "grpc.reflection.v1alpha.ServerReflection"} <= listed
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in responses[1].file_descriptor_response.file_descriptor_proto
    ]
    methods = {m.name for f in files for s in f.service if s.name == "CamperTourService" for m in s.method}
    assert methods >= {"Hint", "MaxScore", "GeneratePuzzle", "Score", "LegalMoves"}
    # Every service it lists, itself included, can be described (grpcurl describe).
    described = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in responses[2].file_descriptor_response.file_descriptor_proto
    ]
    assert responses[2].WhichOneof("message_response") == "file_descriptor_response"
    package, _, name = service.rpartition(".")
    assert any(f.package == package and any(s.name == name for s in f.service) for f in described)


def test_bad_request_is_invalid_argument_with_field_violations_and_error_info(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceLegalMovesRequest(roll=hc.HappyCampersRoll(first=0, second=3))
    with pytest.raises(grpc.RpcError) as raw:
        client.happy_campers._stub.LegalMoves(request, timeout=10)
    status = next(
        status_pb2.Status.FromString(v) for k, v in raw.value.trailing_metadata() if k == "grpc-status-details-bin"
    )
    infos = [d for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)]
    assert len(infos) == 1
    info = error_details_pb2.ErrorInfo()
    infos[0].Unpack(info)
    assert (info.domain, info.reason, info.metadata["field"]) == (ERROR_DOMAIN, "INVALID_FIELD", "roll.first")
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.legal_moves(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in caught.value.violations] == ["roll.first"]
    assert caught.value.reason == "INVALID_FIELD"


@pytest.mark.parametrize(
    "payload",
    [
        b"\xff\xff\xff\xff",  # not a protobuf at all
        hc.HappyCampersServiceScoreRequest(map=["x"]).SerializeToString().replace(b"x", b"\xff"),  # bad UTF-8
        b"\x0a\x05\xff\xfe\xfd\xfc\xfb\x12\x99",  # truncated
    ],
)
def test_bytes_that_are_not_a_request_are_invalid_argument(client: CampsolverClient, payload: bytes) -> None:
    raw = client.channel.unary_unary("/campsolver.v1.HappyCampersService/Score")
    with pytest.raises(grpc.RpcError) as caught:
        raw(payload, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "HappyCampersServiceScoreRequest" in caught.value.details()
    assert CampsolverError.from_rpc_error(caught.value).reason == "MALFORMED_REQUEST"
    assert client.happy_campers.score(hc.HappyCampersServiceScoreRequest(), timeout=10).score.total == 0


def test_unknown_enum_number_names_the_field_and_the_valid_names(client: CampsolverClient) -> None:
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(hc.HappyCampersServiceScoreRequest(challenges=[1, 99]), timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.violations[0].field == "challenges[1]"
    assert "CHALLENGE_PRIVACY" in caught.value.violations[0].description


def test_oversized_request_is_resource_exhausted(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceScoreRequest(map=["." * 1000] * 5000)  # about 5 MB
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_time_limit_beyond_the_cap_is_resource_exhausted(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceScoreRequest()
    request.options.time_limit_seconds = 10_000
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert caught.value.violations[0].field == "options.time_limit_seconds"
    assert caught.value.reason == "LIMIT_EXCEEDED"


@pytest.fixture
def campsite_unimplemented(monkeypatch: pytest.MonkeyPatch) -> Iterator[CampsolverServer]:
    """Every game is implemented now, so the UNIMPLEMENTED path is exercised on a registry with one game's handler
    module removed (as a game looks before its issue lands)."""
    from campsolver.service import registry

    pb2_name, service_name, _handlers = registry.GAME_TABLE["campsite"]
    monkeypatch.setitem(registry.GAME_TABLE, "campsite", (pb2_name, service_name, ""))
    registry._load_game.cache_clear()
    registry.games.cache_clear()
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    try:
        yield running
    finally:
        running.stop(grace_s=2.0)
        monkeypatch.undo()
        registry._load_game.cache_clear()
        registry.games.cache_clear()


def test_unimplemented_game_answers_unimplemented_naming_it(campsite_unimplemented: CampsolverServer) -> None:
    assert not games()["campsite"].implemented
    command = games()["campsite"].commands["hint"]
    with CampsolverClient(campsite_unimplemented.address) as unimplemented:
        unimplemented.wait_ready()
        with pytest.raises(CampsolverError) as caught:
            unimplemented.game("campsite").call("Hint", command.request_type(), timeout=10)
        assert caught.value.code == grpc.StatusCode.UNIMPLEMENTED
        assert "campsite" in caught.value.message
        not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
        assert health_of(unimplemented.channel, games()["campsite"].service_full_name) == not_serving


def test_unexpected_exception_is_internal_and_the_server_keeps_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    score = games()["happy-campers"].commands["score"]
    real = score.handler
    assert real is not None

    def sometimes_broken(request: hc.HappyCampersServiceScoreRequest, budget: object) -> object:
        if list(request.map) == ["boom"]:
            raise ZeroDivisionError("a bug in a handler")
        return real(request, budget)

    broken = dataclasses.replace(score, handler=sometimes_broken)
    monkeypatch.setitem(games()["happy-campers"].commands, "score", broken)
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    try:
        with CampsolverClient(running.address) as connected:
            with pytest.raises(CampsolverError) as caught:
                connected.happy_campers.score(hc.HappyCampersServiceScoreRequest(map=["boom"]), timeout=10)
            assert caught.value.code == grpc.StatusCode.INTERNAL
            assert "ZeroDivisionError" not in caught.value.message and "a bug" not in caught.value.message
            assert caught.value.reason == "INTERNAL"
            # The same RPC, and the server as a whole, still answer.
            ok = connected.happy_campers.score(
                hc.HappyCampersServiceScoreRequest(map=["TTW~AE...", *["........."] * 4]), timeout=10
            )
            assert ok.score.total != 0 or ok.score.details
            assert health_of(connected.channel, "") == health_pb2.HealthCheckResponse.SERVING
    finally:
        running.stop(grace_s=1.0)


# --- deadlines, cancellation, busy slots (Camper Tour's deepening hint search is long and interruptible) -----


def long_hint_request(time_limit_s: float) -> ct.CamperTourServiceHintRequest:
    request = camper_tour_service.EXAMPLES["Hint"]()
    request.depth = 40
    # The deepening expectimax runs until its budget ends; the default win-probability hint may stop early.
    request.objective = common_pb2.OBJECTIVE_EXPECTED_SCORE
    request.options.time_limit_seconds = time_limit_s
    return request


@pytest.fixture
def single_slot_server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    yield running
    running.stop(grace_s=2.0)


def test_request_deadline_bounds_the_solve(client: CampsolverClient) -> None:
    # An answer at all proves the server replied inside the client's 4 s deadline (otherwise the client gets
    # DEADLINE_EXCEEDED): its budget is the time remaining minus a margin, so the deepening search stops early.
    response = client.camper_tour.hint(long_hint_request(60.0), timeout=4.0)
    assert response.stats.interrupted, "a 40-ply search cannot finish in four seconds"
    assert response.alternatives


def test_busy_server_answers_cheap_calls_at_once_and_solves_unavailable(single_slot_server: CampsolverServer) -> None:
    gate = single_slot_server.gate
    with CampsolverClient(single_slot_server.address) as connected:
        connected.wait_ready()
        running = connected.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
        try:
            assert gate.wait_busy(1, timeout_s=60), "the long hint never took the solver slot"
            # Cheap calls and refused requests do not queue behind the running solve.
            assert connected.camper_tour.legal_moves(camper_tour_service.EXAMPLES["LegalMoves"](), timeout=30).moves
            too_big = hc.HappyCampersServiceMaxScoreRequest(components=hc.HappyCampersComponents(rows=13, cols=13))
            with pytest.raises(CampsolverError) as caught:
                connected.happy_campers.max_score(too_big, timeout=30)
            assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            # A real solve waits for the slot for its whole (short) budget, then is told the server is busy;
            # a hint answers its rule of thumb's move instead, flagged.
            max_request = camper_tour_service.EXAMPLES["MaxScore"]()
            max_request.options.time_limit_seconds = 0.3
            with pytest.raises(CampsolverError) as caught:
                connected.camper_tour.max_score(max_request, timeout=60)
            assert caught.value.code == grpc.StatusCode.UNAVAILABLE
            assert caught.value.reason == "SOLVER_SLOTS_BUSY"
            assert connected.camper_tour.hint(long_hint_request(0.3), timeout=60).stats.fallback
            assert not running.done(), "the long hint still holds the slot"
        finally:
            running.cancel()


def test_cancelled_call_stops_its_solve_and_frees_the_slot(single_slot_server: CampsolverServer) -> None:
    gate = single_slot_server.gate
    with CampsolverClient(single_slot_server.address) as connected:
        connected.wait_ready()
        future = connected.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
        assert gate.wait_busy(1, timeout_s=60)
        assert future.cancel()
        # The 60 s search must stop on the cancel: the slot frees long before its budget would end.
        assert gate.wait_idle(timeout_s=30), "the cancelled search kept its solver slot"
        response = connected.camper_tour.hint(long_hint_request(5.0), timeout=60)
        assert response.alternatives


def test_budget_shorter_than_any_answer_is_the_servers_deadline_exceeded(client: CampsolverClient) -> None:
    # The client allows 60 s; the request's own time limit is 0.05 s. The DEADLINE_EXCEEDED must come from the
    # server (its message names the budget), not from the client's deadline.
    # A puzzle needs a proven unique optimum: no best-so-far answer exists within 0.05 s.
    request = dc.DeluxeCampingServiceGeneratePuzzleRequest(seed=2)
    request.options.time_limit_seconds = 0.05
    with pytest.raises(CampsolverError) as caught:
        client.deluxe_camping.generate_puzzle(request, timeout=60)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "budget" in caught.value.message


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_sigterm_announces_not_serving_on_the_wire_then_drains_and_exits() -> None:
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "campsolver",
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--drain-announce-seconds",
            "3",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and "listening on" in process.stdout.readline()
        with CampsolverClient(f"127.0.0.1:{port}") as connected:
            connected.wait_ready()
            in_flight = connected.camper_tour.call_future("Hint", long_hint_request(2.0), timeout=60)
            assert health_of(connected.channel, "") == health_pb2.HealthCheckResponse.SERVING
            process.send_signal(signal.SIGTERM)
            seen = []
            while not seen or seen[-1] != health_pb2.HealthCheckResponse.NOT_SERVING:
                seen.append(health_of(connected.channel, ""))  # each answer is an event on the wire
                assert len(seen) < 10_000, "health never said NOT_SERVING after SIGTERM"
            assert health_of(connected.channel, "campsolver.v1.CamperTourService") == (
                health_pb2.HealthCheckResponse.NOT_SERVING
            )
            # During the announce period new calls are still accepted and answered.
            score = connected.camper_tour.score(camper_tour_service.EXAMPLES["Score"](), timeout=10)
            assert score.scores
            assert in_flight.result().alternatives  # the in-flight call still gets its answer
        assert process.wait(timeout=60) == 0
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()


def test_port_in_use_is_one_line(server: CampsolverServer) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "campsolver", "serve", "--port", str(server.port)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot listen" in lines[0] and str(server.port) in lines[0], result.stderr


def test_happy_campers_size_limits_and_invalid_maps(client: CampsolverClient) -> None:
    too_big = hc.HappyCampersServiceScoreRequest(components=hc.HappyCampersComponents(rows=40))
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.score(too_big, timeout=10)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert caught.value.violations[0].field == "components.rows"
    # A pre-drawn map larger than the board is invalid input, naming the map.
    oversized_map = hc.HappyCampersServiceMaxScoreRequest(start_map=["........."] * 6)
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.max_score(oversized_map, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.violations[0].field == "start_map"
    not_a_polyomino = hc.HappyCampersServiceLegalMovesRequest(
        components=hc.HappyCampersComponents(
            shapes=[hc.HappyCampersShape(rows=rows) for rows in (["#.#"], ["##"], ["###"], ["##", "##"], ["#"])]
        ),
        roll=hc.HappyCampersRoll(first=1, second=2),
    )
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.legal_moves(not_a_polyomino, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.violations[0].field == "components.shapes[0]"
    disconnected = hc.HappyCampersServiceLegalMovesRequest(
        map=["T........", ".........", "........E", ".........", "........."],
        roll=hc.HappyCampersRoll(first=1, second=2),
    )
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.legal_moves(disconnected, timeout=10)
    assert caught.value.violations[0].field == "map"


def test_a_refused_solve_is_unavailable_even_if_its_handler_swallows_the_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that catches the interruption and returns a partial answer must not pass it off as an answer."""
    score = games()["happy-campers"].commands["score"]

    def solver_that_returns_whatever(request: hc.HappyCampersServiceScoreRequest, budget) -> object:
        budget.remaining()  # the first look at the budget waits for a solver slot
        return hc.HappyCampersServiceScoreResponse()

    monkeypatch.setitem(
        games()["happy-campers"].commands, "score", dataclasses.replace(score, handler=solver_that_returns_whatever)
    )
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    try:
        with CampsolverClient(running.address) as connected:
            holder = connected.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
            try:
                assert running.gate.wait_busy(1, timeout_s=60)
                request = hc.HappyCampersServiceScoreRequest()
                request.options.time_limit_seconds = 0.3
                with pytest.raises(CampsolverError) as caught:
                    connected.happy_campers.score(request, timeout=60)
                assert caught.value.code == grpc.StatusCode.UNAVAILABLE
            finally:
                holder.cancel()
    finally:
        running.stop(grace_s=1.0)

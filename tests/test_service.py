"""The service against a real server on loopback: health, reflection, errors, deadlines, cancels."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from campsolver.v1 import happy_campers_pb2 as hc


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


def test_every_service_reports_serving(client: CampsolverClient) -> None:
    stub = health_pb2_grpc.HealthStub(client.channel)
    names = ["", *(game.service_full_name for game in games().values())]
    for name in names:
        response = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING, name


def test_reflection_lists_and_describes_services(client: CampsolverClient) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="campsolver.v1.CamperTourService"),
    ]
    responses = list(stub.ServerReflectionInfo(iter(requests), timeout=5))
    listed = {s.name for s in responses[0].list_services_response.service}
    assert {game.service_full_name for game in games().values()} <= listed
    assert "grpc.health.v1.Health" in listed
    files = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in
             responses[1].file_descriptor_response.file_descriptor_proto]
    methods = {m.name for f in files for s in f.service if s.name == "CamperTourService" for m in s.method}
    assert methods >= {"Hint", "MaxScore", "GeneratePuzzle", "Score", "LegalMoves"}


def test_bad_request_is_invalid_argument_with_field_violations(client: CampsolverClient) -> None:
    request = hc.HappyCampersServiceLegalMovesRequest(roll=hc.HappyCampersRoll(first=0, second=3))
    with pytest.raises(CampsolverError) as caught:
        client.happy_campers.legal_moves(request, timeout=10)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in caught.value.violations] == ["roll.first"]


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


def test_unimplemented_game_answers_unimplemented(client: CampsolverClient) -> None:
    from campsolver.v1 import adventure_tours_pb2

    with pytest.raises(CampsolverError) as caught:
        client.adventure_tours.hint(adventure_tours_pb2.AdventureToursServiceHintRequest(), timeout=10)
    assert caught.value.code == grpc.StatusCode.UNIMPLEMENTED


def test_server_survives_errors(client: CampsolverClient) -> None:
    response = client.happy_campers.score(
        hc.HappyCampersServiceScoreRequest(map=["TTW~AE...", ".........", ".........", ".........", "........."]),
        timeout=10,
    )
    assert response.score.complete


# --- deadlines and cancellation (Camper Tour's deepening hint search is a long, interruptible solve) -----

from campsolver.service.games import camper_tour as camper_tour_service  # noqa: E402

from campsolver.v1 import camper_tour_pb2 as ct  # noqa: E402


def long_hint_request(time_limit_s: float) -> ct.CamperTourServiceHintRequest:
    request = camper_tour_service.EXAMPLES["Hint"]()
    request.depth = 40
    request.options.time_limit_seconds = time_limit_s
    return request


@pytest.fixture
def single_slot_server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=1))
    running.start()
    yield running
    running.stop(grace_s=2.0)


def test_request_deadline_bounds_the_solve(client: CampsolverClient) -> None:
    import time

    # The server must answer before the client's 2 s deadline: its budget is the time remaining minus a margin,
    # so the deepening search stops and returns its deepest completed depth, flagged as interrupted.
    started = time.monotonic()
    response = client.camper_tour.hint(long_hint_request(60.0), timeout=2.0)
    assert response.stats.interrupted, "a 40-ply search cannot finish in two seconds"
    assert response.alternatives
    assert time.monotonic() - started < 2.0


def test_cancelled_call_stops_its_solve_and_frees_the_slot(single_slot_server: CampsolverServer) -> None:
    import time

    with CampsolverClient(single_slot_server.address) as connected:
        connected.wait_ready()
        future = connected.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
        time.sleep(0.5)
        assert future.cancel()
        # With one solve slot, this only answers quickly if the cancelled search really stopped.
        started = time.monotonic()
        quick = camper_tour_service.EXAMPLES["LegalMoves"]()
        response = connected.camper_tour.legal_moves(quick, timeout=20)
        assert response.moves
        assert time.monotonic() - started < 10.0


def test_budget_shorter_than_any_answer_is_the_servers_deadline_exceeded(client: CampsolverClient) -> None:
    # The client allows 60 s; the request's own time limit is 0.05 s. The DEADLINE_EXCEEDED must come from the
    # server (its message names the budget), not from the client's deadline.
    request = ct.CamperTourServiceMaxScoreRequest()  # default specials on 72 plates: Monte Carlo, seconds of work
    request.options.time_limit_seconds = 0.05
    with pytest.raises(CampsolverError) as caught:
        client.camper_tour.max_score(request, timeout=60)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "budget" in caught.value.message


def test_sigterm_drains_in_flight_calls_then_exits() -> None:
    import signal
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "campsolver.clients.cli", "serve", "--port", str(port), "--workers", "1"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "listening on" in process.stdout.readline()
        with CampsolverClient(f"127.0.0.1:{port}") as connected:
            connected.wait_ready()
            future = connected.camper_tour.call_future("Hint", long_hint_request(1.5), timeout=30)
            time.sleep(0.3)
            process.send_signal(signal.SIGTERM)
            response = future.result()  # the in-flight call still gets its answer
            assert response.alternatives
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()


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

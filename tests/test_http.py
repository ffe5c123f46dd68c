"""The HTTP side against a real server on loopback: every game over Connect JSON, Connect binary, gRPC-Web and gRPC
gives the same answer and the same errors; the timeout header is the solve budget; a disconnect stops the solve;
CORS is closed unless configured; health, drain and TLS as over gRPC.

As in test_service.py, nothing waits on the clock: tests wait on the solver-slot gate or on answers.
"""

from __future__ import annotations

import json
import signal
import socket
import ssl
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.clients.http_client import PROTOCOLS, HttpCampsolverClient
from campsolver.service.registry import GAME_TABLE, games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import json_format

from tests.test_client import _self_signed
from tests.test_service import long_hint_request

HEALTH = "/grpc.health.v1.Health/Check"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=2))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


@pytest.fixture(scope="module")
def grpc_client(server: CampsolverServer) -> Iterator[CampsolverClient]:
    with CampsolverClient(server.address) as connected:
        connected.wait_ready()
        yield connected


def post_json(
    url: str, body: dict | bytes, headers: dict[str, str] | None = None, context: ssl.SSLContext | None = None
) -> tuple[int, dict, dict[str, str]]:
    """A plain Connect JSON call, as the web table's `fetch` makes it: status, JSON body, headers."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60, context=context) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


@pytest.mark.parametrize("game_name", list(GAME_TABLE))
def test_every_protocol_gives_the_grpc_answer(
    server: CampsolverServer, grpc_client: CampsolverClient, game_name: str
) -> None:
    assert server.http is not None
    command = games()[game_name].by_rpc("Score")
    request = command.example()
    expected = grpc_client.game(game_name).call("Score", request, timeout=30)
    assert expected.ByteSize(), "the example position has a score"
    new_game = games()[game_name].by_rpc("NewGame").request_type(seed=11, want_picture=True)
    expected_game = grpc_client.game(game_name).call("NewGame", new_game, timeout=30)
    assert expected_game.picture_svg.startswith("<svg")
    for protocol in PROTOCOLS:
        with HttpCampsolverClient(server.http.url, protocol) as client:
            assert client.call(game_name, "Score", request, timeout=30) == expected, protocol
            assert client.call(game_name, "NewGame", new_game, timeout=30) == expected_game, protocol
    # The browser's way: a plain POST of proto3 JSON to /SERVICE/METHOD.
    status, body, _ = post_json(
        f"{server.http.url}/{games()[game_name].service_full_name}/Score",
        json.loads(json_format.MessageToJson(request)),
    )
    assert status == 200
    assert json_format.ParseDict(body, command.response_type()) == expected


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_errors_carry_the_grpc_code_reason_and_field_violations(
    server: CampsolverServer, grpc_client: CampsolverClient, protocol: str
) -> None:
    assert server.http is not None
    request = long_hint_request(1.0)
    request.options.time_limit_seconds = -1.0
    with pytest.raises(CampsolverError) as over_grpc:
        grpc_client.camper_tour.hint(request, timeout=30)
    with HttpCampsolverClient(server.http.url, protocol) as client, pytest.raises(CampsolverError) as over_http:
        client.call("camper-tour", "Hint", request, timeout=30)
    assert over_http.value.code == over_grpc.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert over_http.value.reason == over_grpc.value.reason == "INVALID_FIELD"
    assert over_http.value.violations == over_grpc.value.violations
    assert over_http.value.violations[0].field == "options.time_limit_seconds"
    assert over_http.value.message == over_grpc.value.message


def test_json_that_is_no_request_is_invalid_argument_naming_what_is_wrong(server: CampsolverServer) -> None:
    assert server.http is not None
    url = f"{server.http.url}/{games()['camper-tour'].service_full_name}/Score"
    status, body, _ = post_json(url, {"stat": {}})  # a misspelt field is refused, not a silent default
    assert status == 400 and body["code"] == "invalid_argument"
    assert "stat" in body["message"]
    status, body, _ = post_json(url, b"{not json")
    assert status == 400 and body["code"] == "invalid_argument"
    reasons = [d["type"] for d in body["details"]]
    assert reasons == ["google.rpc.ErrorInfo"]


@pytest.mark.parametrize("protocol", ["connect-json", "grpc-web"])
def test_the_timeout_header_is_the_solve_budget(server: CampsolverServer, protocol: str) -> None:
    assert server.http is not None
    # A 40-ply search with 60 s asked for, and a 3 s deadline in the timeout header (Connect-Timeout-Ms, or
    # grpc-timeout): an answer at all (the client would fail at its deadline) proves the budget came from it.
    with HttpCampsolverClient(server.http.url, protocol) as client:  # type: ignore[arg-type]
        response = client.call("camper-tour", "Hint", long_hint_request(60.0), timeout=3.0)
    assert response.stats.interrupted and response.alternatives


def _raw_post(port: int, path: str, body: bytes) -> socket.socket:
    """An HTTP/1.1 Connect binary call left open (the test closes it to disconnect)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/proto\r\n"
        f"Connect-Protocol-Version: 1\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    connection.sendall(head.encode() + body)
    return connection


def test_a_client_that_disconnects_stops_its_solve_and_frees_the_slot() -> None:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    try:
        assert running.http is not None and running.http.wait_started()
        path = f"/{games()['camper-tour'].service_full_name}/Hint"
        connection = _raw_post(running.http.port, path, long_hint_request(60.0).SerializeToString())
        assert running.gate.wait_busy(1, timeout_s=60), "the HTTP hint never took the (shared) solver slot"
        connection.close()
        assert running.gate.wait_idle(timeout_s=30), "the disconnected call kept solving"
        with CampsolverClient(running.address) as connected:  # and gRPC solves go on
            assert connected.camper_tour.hint(long_hint_request(0.5), timeout=30).alternatives
    finally:
        running.stop(grace_s=1.0)


def _preflight(url: str, origin: str) -> dict[str, str]:
    request = urllib.request.Request(
        url,
        method="OPTIONS",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,connect-protocol-version",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return {k.lower(): v for k, v in error.headers.items()}


def test_cors_allows_only_configured_origins(server: CampsolverServer) -> None:
    assert server.http is not None
    path = f"/{games()['camper-tour'].service_full_name}/Score"
    assert "access-control-allow-origin" not in _preflight(server.http.url + path, "https://games.example")
    _, _, headers = post_json(server.http.url + path, {}, {"Origin": "https://games.example"})
    assert "access-control-allow-origin" not in {k.lower() for k in headers}
    allowing = CampsolverServer(
        ServerConfig(port=0, http_port=0, workers=1, solve_in_process=True, cors_origins=("https://games.example",))
    )
    allowing.start()
    try:
        assert allowing.http is not None and allowing.http.wait_started()
        allowed = _preflight(allowing.http.url + path, "https://games.example")
        assert allowed["access-control-allow-origin"] == "https://games.example"
        assert "connect-protocol-version" in allowed["access-control-allow-headers"].lower()
        assert "access-control-allow-origin" not in _preflight(allowing.http.url + path, "https://other.example")
    finally:
        allowing.stop(grace_s=1.0)


def test_health_over_http_follows_the_servers_and_drain_says_not_serving() -> None:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1, solve_in_process=True))
    running.start()
    try:
        assert running.http is not None and running.http.wait_started()
        url = running.http.url + HEALTH
        assert post_json(url, {})[1] == {"status": "SERVING"}
        assert post_json(url, {"service": "campsolver.v1.CampsiteService"})[1] == {"status": "SERVING"}
        status, body, _ = post_json(url, {"service": "no.such.Service"})
        assert status == 404 and body["code"] == "not_found"
        running.announce_draining()
        assert post_json(url, {})[1] == {"status": "NOT_SERVING"}
        # Still accepting calls while draining is announced.
        score_path = f"/{games()['camper-tour'].service_full_name}/Score"
        request = games()["camper-tour"].by_rpc("Score").example()
        assert post_json(running.http.url + score_path, json.loads(json_format.MessageToJson(request)))[0] == 200
    finally:
        running.stop(grace_s=1.0)


def test_tls_on_the_http_port_with_the_grpc_certificate(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    running = CampsolverServer(
        ServerConfig(port=0, http_port=0, workers=1, tls_cert_chain=cert, tls_private_key=key, solve_in_process=True)
    )
    running.start()
    try:
        assert running.http is not None and running.http.wait_started()
        assert running.http.url.startswith("https://")
        trusted = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        url = f"https://localhost:{running.http.port}{HEALTH}"
        assert post_json(url, {}, context=trusted)[1] == {"status": "SERVING"}
        with pytest.raises((urllib.error.URLError, ConnectionError)):  # plaintext clients are not answered in the clear
            urllib.request.urlopen(f"http://localhost:{running.http.port}/", timeout=10)
    finally:
        running.stop(grace_s=1.0)


def test_the_web_table_is_served_at_the_root(server: CampsolverServer) -> None:
    assert server.http is not None
    with urllib.request.urlopen(server.http.url + "/", timeout=30) as response:
        assert response.status == 200
        assert "text/html" in response.headers["Content-Type"]
        assert b"campsolver" in response.read()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_sigterm_drains_the_http_port_too() -> None:
    port, http_port = _free_port(), _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "campsolver",
            "serve",
            "--port",
            str(port),
            "--http-port",
            str(http_port),
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
        assert f"http://127.0.0.1:{http_port}" in process.stdout.readline()
        url = f"http://127.0.0.1:{http_port}"
        with CampsolverClient(f"127.0.0.1:{port}") as connected:
            connected.wait_ready()  # the HTTP side answers health from the same servicer
        assert post_json(url + HEALTH, {})[1] == {"status": "SERVING"}
        # A solve in flight over HTTP when SIGTERM comes still gets its answer.
        with HttpCampsolverClient(url) as client:
            in_flight = threading.Thread(
                target=lambda: answers.append(client.call("camper-tour", "Hint", long_hint_request(2.0), timeout=60))
            )
            answers: list = []
            in_flight.start()
            process.send_signal(signal.SIGTERM)
            seen = []
            while not seen or seen[-1] != {"status": "NOT_SERVING"}:
                seen.append(post_json(url + HEALTH, {})[1])
                assert len(seen) < 10_000, "HTTP health never said NOT_SERVING after SIGTERM"
            in_flight.join(timeout=60)
            assert answers and answers[0].alternatives
        assert process.wait(timeout=60) == 0
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()


def test_cli_refuses_cors_without_http_and_a_path_for_an_origin(capsys: pytest.CaptureFixture[str]) -> None:
    from campsolver.clients import cli

    assert cli.main(["serve", "--port", "0", "--cors-origin", "https://a.example"]) == cli.EXIT_BAD_INPUT
    assert "--cors-origin: only with --http-port" in capsys.readouterr().err
    assert cli.main(["serve", "--port", "0", "--http-port", "0", "--cors-origin", "https://a.example/x"]) == 2
    assert "is not an origin" in capsys.readouterr().err
    assert cli.main(["serve", "--port", "0", "--http-port", "70000"]) == cli.EXIT_BAD_INPUT
    assert "--http-port" in capsys.readouterr().err


def test_native_grpc_on_the_http_port_is_told_where_to_go(server: CampsolverServer) -> None:
    assert server.http is not None
    url = f"{server.http.url}/{games()['camper-tour'].service_full_name}/Score"
    request = urllib.request.Request(url, data=b"\0\0\0\0\0", headers={"Content-Type": "application/grpc"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 415
    assert "gRPC port" in refused.value.read().decode()

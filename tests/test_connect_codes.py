"""Every gRPC status code the service can answer reaches a Connect JSON, Connect binary and gRPC-Web client as that
code, with its message, ErrorInfo reason and field violations, as a gRPC client reads them.

Two halves:
- the mapping: the real HTTP application (`service.http_server.HttpServer` on uvicorn, over loopback) whose call
  path raises each of the service's errors in turn: every status code, and an unexpected exception, which must be
  INTERNAL with no detail. Checked through the Connect project's client, and on the wire (the Connect JSON body's
  `code` name, gRPC-Web's `grpc-status` number), so a map that sends one code as another fails;
- the service: a real server (one worker process) made to answer each code it can for real, over the three HTTP
  protocols and over gRPC, with the same code, reason, message and violations everywhere: INVALID_ARGUMENT (a
  field, bytes that are no message), RESOURCE_EXHAUSTED (a time limit past the cap), UNAVAILABLE (every solver
  slot busy; the workers still starting), DEADLINE_EXCEEDED (a puzzle with no time to find one), INTERNAL (the
  solver process killed mid-solve), NOT_FOUND (health of an unknown service).

CANCELLED has no client that could read it for real (a cancelled call's client is gone), so only the mapping half
covers it; UNIMPLEMENTED is read for real from an unknown procedure, as gRPC answers one.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import struct
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.clients.http_client import PROTOCOLS, HttpCampsolverClient
from campsolver.service import dispatch
from campsolver.service.errors import FieldViolation, RequestError
from campsolver.service.http_server import HttpConfig, HttpServer
from campsolver.service.metrics import Metrics
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig, failure_status
from campsolver.solver.core.budget import Budget
from google.protobuf import json_format
from google.rpc import status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from tests.test_service import long_hint_request

#: Every code a status can carry but OK; Connect spells CANCELLED with one L.
ERROR_CODES = [code for code in grpc.StatusCode if code is not grpc.StatusCode.OK]


def connect_name(code: grpc.StatusCode) -> str:
    return "canceled" if code is grpc.StatusCode.CANCELLED else code.name.lower()


def _error_with(code: grpc.StatusCode) -> RequestError:
    """A service error of `code` naming one field (as the handlers raise them)."""
    kind = type(f"Error{code.name}", (RequestError,), {"code": code, "reason": f"REASON_{code.name}"})
    return kind(f"because {code.name.lower()}", [FieldViolation("options.seed", f"field at fault for {code.name}")])


# --- the mapping: the real HTTP application, its call path raising each error ---------------------------------------


class _Raising:
    """The HTTP server's call path (`server.answer`), raising whatever the test puts in `error`."""

    def __init__(self) -> None:
        self.error: BaseException = RuntimeError("no error chosen")
        self.lock = threading.Lock()

    def __call__(self, command: Any, request: Any, raw: bytes, budget: Budget, *call_info: Any) -> bytes:
        raise self.error


@pytest.fixture(scope="module")
def raising() -> Iterator[tuple[HttpServer, _Raising]]:
    call_path = _Raising()
    server = HttpServer(
        HttpConfig(host="127.0.0.1", port=0),
        games(),
        call_path,
        failure_status,
        health.HealthServicer(),
        Metrics(lambda: (0, 0, 0), lambda: 0),
    )
    server.start()
    assert server.wait_started()
    yield server, call_path
    server.stop(grace_s=1.0)


SCORE = ("camper-tour", "Score")


def _score_request() -> Any:
    return games()[SCORE[0]].by_rpc(SCORE[1]).example()


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("code", ERROR_CODES, ids=[code.name for code in ERROR_CODES])
def test_every_status_code_reaches_an_http_client_as_itself(
    raising: tuple[HttpServer, _Raising], code: grpc.StatusCode, protocol: str
) -> None:
    server, call_path = raising
    expected = _error_with(code)
    with call_path.lock:
        call_path.error = expected
        with HttpCampsolverClient(server.url, protocol) as client, pytest.raises(CampsolverError) as caught:  # type: ignore[arg-type]
            client.call(*SCORE, _score_request(), timeout=30)
    assert caught.value.code == code
    assert caught.value.message == expected.detail()
    assert caught.value.reason == expected.reason
    assert caught.value.violations == expected.violations


def _connect_json(url: str, path: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{url}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _grpc_web(url: str, path: str, message: bytes) -> dict[str, str]:
    """A raw gRPC-Web call (binary): the status fields from the trailers, wherever the server put them (a
    trailers-only answer in the headers, or the trailer frame after the body)."""
    frame = struct.pack(">BI", 0, len(message)) + message
    request = urllib.request.Request(
        f"{url}{path}", data=frame, headers={"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        headers = {k.lower(): v for k, v in response.headers.items()}
        body = response.read()
    fields = {k: v for k, v in headers.items() if k.startswith("grpc-")}
    offset = 0
    while offset + 5 <= len(body):
        flag, size = struct.unpack(">BI", body[offset : offset + 5])
        payload = body[offset + 5 : offset + 5 + size]
        offset += 5 + size
        if flag & 0x80:
            for line in payload.decode().split("\r\n"):
                if ":" in line:
                    key, value = line.split(":", 1)
                    fields[key.strip().lower()] = value.strip()
    return fields


@pytest.mark.parametrize("code", ERROR_CODES, ids=[code.name for code in ERROR_CODES])
def test_every_status_code_is_spelt_on_the_wire_as_each_protocol_says(
    raising: tuple[HttpServer, _Raising], code: grpc.StatusCode
) -> None:
    """The bytes, not only what the Connect client library makes of them: Connect JSON's error body names the code
    in snake case; gRPC-Web's trailers carry the gRPC number and the rich status in `grpc-status-details-bin`."""
    server, call_path = raising
    path = f"/{games()[SCORE[0]].service_full_name}/{SCORE[1]}"
    expected = _error_with(code)
    with call_path.lock:
        call_path.error = expected
        status, body = _connect_json(server.url, path, json.loads(json_format.MessageToJson(_score_request())))
        trailers = _grpc_web(server.url, path, _score_request().SerializeToString())
    assert body["code"] == connect_name(code) and body["message"] == expected.detail()
    assert status != 200
    assert trailers["grpc-status"] == str(code.value[0])
    packed = trailers["grpc-status-details-bin"]
    details = status_pb2.Status.FromString(base64.b64decode(packed + "=" * (-len(packed) % 4)))
    assert details.code == code.value[0] and details.message == expected.detail()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_unexpected_exception_is_internal_and_tells_nothing(
    raising: tuple[HttpServer, _Raising], protocol: str
) -> None:
    server, call_path = raising
    with call_path.lock:
        call_path.error = KeyError("secret-internal-detail")
        with HttpCampsolverClient(server.url, protocol) as client, pytest.raises(CampsolverError) as caught:  # type: ignore[arg-type]
            client.call(*SCORE, _score_request(), timeout=30)
    assert caught.value.code == grpc.StatusCode.INTERNAL
    assert caught.value.reason == "INTERNAL"
    assert "secret" not in caught.value.message and "Traceback" not in caught.value.message
    assert caught.value.violations == []


# --- the service: each code answered for real, the same on every transport ------------------------------------------


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[CampsolverServer, CampsolverClient]]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    assert running.http is not None and running.http.wait_started()
    try:
        with CampsolverClient(running.address) as connected:
            connected.wait_ready()
            yield running, connected
    finally:
        running.stop(grace_s=2.0)


def _everywhere(
    server: CampsolverServer, client: CampsolverClient, game_name: str, rpc: str, request: Any, timeout: float = 30.0
) -> list[tuple[str, CampsolverError]]:
    """The error of one call over gRPC and over each HTTP protocol (a call that answers fails the test)."""
    assert server.http is not None
    caught: list[tuple[str, CampsolverError]] = []
    with pytest.raises(CampsolverError) as over_grpc:
        client.game(game_name).call(rpc, request, timeout=timeout)
    caught.append(("grpc", over_grpc.value))
    for protocol in PROTOCOLS:
        with HttpCampsolverClient(server.http.url, protocol) as http, pytest.raises(CampsolverError) as over_http:
            http.call(game_name, rpc, request, timeout=timeout)
        caught.append((protocol, over_http.value))
    return caught


def _all_say(caught: list[tuple[str, CampsolverError]], code: grpc.StatusCode, reason: str) -> CampsolverError:
    first = caught[0][1]
    for transport, error in caught:
        assert error.code == code, f"{transport}: {error.code.name}, not {code.name} ({error.message})"
        assert error.reason == reason, f"{transport}: reason {error.reason!r}"
        assert error.message == first.message, f"{transport}: {error.message!r} vs gRPC's {first.message!r}"
        assert error.violations == first.violations, transport
    return first


def test_invalid_argument_names_the_field_everywhere(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    request = long_hint_request(1.0)
    request.options.time_limit_seconds = -1.0
    error = _all_say(
        _everywhere(*served, "camper-tour", "Hint", request), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"
    )
    assert error.violations[0].field == "options.time_limit_seconds"


@pytest.mark.parametrize("protocol", ["connect-proto", "grpc-web"])
def test_bytes_that_are_no_message_are_invalid_argument(
    served: tuple[CampsolverServer, CampsolverClient], protocol: str
) -> None:
    server, _ = served
    assert server.http is not None
    path = f"/{games()['camper-tour'].service_full_name}/Score"
    garbage = b"\x0a\xff\xff\xff\xff\x0f"  # a length-delimited field longer than the message
    if protocol == "grpc-web":
        trailers = _grpc_web(server.http.url, path, garbage)
        assert trailers["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
        return
    request = urllib.request.Request(
        server.http.url + path, data=garbage, headers={"Content-Type": "application/proto"}
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    assert json.loads(caught.value.read())["code"] == "invalid_argument"


def test_resource_exhausted_for_a_time_limit_past_the_cap(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    request = long_hint_request(1.0)
    request.options.time_limit_seconds = dispatch.MAX_TIME_LIMIT_S + 1
    error = _all_say(
        _everywhere(*served, "camper-tour", "Hint", request), grpc.StatusCode.RESOURCE_EXHAUSTED, "LIMIT_EXCEEDED"
    )
    assert error.violations[0].field == "options.time_limit_seconds"


def _short_max() -> Any:
    """A MaxScore whose own time limit (0.3 s) ends long before the call's deadline (30 s): the service's answer
    comes, however loaded the machine, before any client gives up on its own."""
    request = games()["camper-tour"].by_rpc("MaxScore").example()
    request.options.time_limit_seconds = 0.3
    return request


def test_unavailable_while_every_solver_slot_is_busy(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    """The only slot held (taken here, as a long solve would hold it): a MaxScore has no rule-of-thumb answer and
    says UNAVAILABLE once its time limit passes without a slot (a client retries)."""
    server, client = served
    assert server.gate.wait_idle(timeout_s=60)
    holder = Budget(300.0)
    assert server.gate.acquire(holder)
    try:
        _all_say(
            _everywhere(server, client, "camper-tour", "MaxScore", _short_max()),
            grpc.StatusCode.UNAVAILABLE,
            "SOLVER_SLOTS_BUSY",
        )
    finally:
        server.gate.release()


def test_unavailable_while_the_solver_workers_start() -> None:
    """The ports open before the workers are ready: a solve asked for meanwhile is UNAVAILABLE on every transport."""
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.server.start()  # what `start` does first; the pool is not started
    assert running.http is not None
    running.http.start()
    try:
        assert running.http.wait_started() and running.pool is not None and not running.pool.ready.is_set()
        with CampsolverClient(running.address) as connected:
            _all_say(
                _everywhere(running, connected, "camper-tour", "MaxScore", _short_max()),
                grpc.StatusCode.UNAVAILABLE,
                "SOLVER_WORKERS_STARTING",
            )
    finally:
        running.stop(grace_s=1.0)


def test_deadline_exceeded_when_a_puzzle_has_no_time(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    """A puzzle asked for in 0.05 s: no puzzle is found in time, and the service (not the transport's own timer:
    the call's deadline is 30 s) says DEADLINE_EXCEEDED."""
    request = games()["campsite"].by_rpc("GeneratePuzzle").example()
    request.options.time_limit_seconds = 0.05
    _all_say(
        _everywhere(*served, "campsite", "GeneratePuzzle", request),
        grpc.StatusCode.DEADLINE_EXCEEDED,
        "SOLVE_BUDGET_SPENT",
    )


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_internal_when_the_solver_process_dies_mid_solve(
    served: tuple[CampsolverServer, CampsolverClient], protocol: str
) -> None:
    server, _ = served
    assert server.http is not None and server.pool is not None
    assert server.gate.wait_idle(timeout_s=60)
    outcome: dict[str, Any] = {}

    def call() -> None:
        with HttpCampsolverClient(server.http.url, protocol) as http:  # type: ignore[arg-type, union-attr]
            try:
                http.call("camper-tour", "Hint", long_hint_request(60.0), timeout=120)
            except CampsolverError as error:
                outcome["error"] = error

    caller = threading.Thread(target=call)
    caller.start()
    assert server.gate.wait_busy(1, timeout_s=60)
    (victim,) = server.pool.busy_pids()
    os.kill(victim, signal.SIGKILL)
    caller.join(timeout=120)
    error = outcome["error"]
    assert error.code == grpc.StatusCode.INTERNAL and error.reason == "INTERNAL"
    assert "Traceback" not in error.message
    assert server.gate.wait_idle(timeout_s=120)  # the worker is replaced before the next test


def test_not_found_for_the_health_of_an_unknown_service(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    server, client = served
    assert server.http is not None
    stub = health_pb2_grpc.HealthStub(client.channel)
    with pytest.raises(grpc.RpcError) as over_grpc:
        stub.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
    assert over_grpc.value.code() == grpc.StatusCode.NOT_FOUND
    status, body = _connect_json(server.http.url, "/grpc.health.v1.Health/Check", {"service": "no.such.Service"})
    assert status == 404 and body["code"] == "not_found"
    trailers = _grpc_web(
        server.http.url,
        "/grpc.health.v1.Health/Check",
        health_pb2.HealthCheckRequest(service="no.such.Service").SerializeToString(),
    )
    assert trailers["grpc-status"] == str(grpc.StatusCode.NOT_FOUND.value[0])


def test_an_unknown_procedure_is_unimplemented_everywhere(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    """gRPC answers a method it does not serve UNIMPLEMENTED; so does the HTTP port, in each protocol (it was the
    static files' 405 Method Not Allowed)."""
    server, client = served
    assert server.http is not None
    path = "/campsolver.v1.NoSuchService/Hint"
    call = client.channel.unary_unary(path)
    with pytest.raises(grpc.RpcError) as over_grpc:
        call(b"", timeout=10)
    assert over_grpc.value.code() == grpc.StatusCode.UNIMPLEMENTED
    status, body = _connect_json(server.http.url, path, {})
    assert status == 404 and body["code"] == "unimplemented" and path in body["message"]
    trailers = _grpc_web(server.http.url, path, b"")
    assert trailers["grpc-status"] == str(grpc.StatusCode.UNIMPLEMENTED.value[0])
    long_path = "/campsolver.v1.NoSuch/" + "X" * 5000
    status, body = _connect_json(server.http.url, long_path, {})
    assert status == 404 and body["code"] == "unimplemented" and len(body["message"]) < 200  # not echoed whole
    known = f"/{games()['camper-tour'].service_full_name}/NoSuchMethod"
    status, body = _connect_json(server.http.url, known, {})
    assert status == 404 and body["code"] == "unimplemented"
    # Not a procedure name (non-ASCII): the static files' answer, never a 500 from a header it cannot write.
    odd = urllib.request.Request(
        server.http.url + "/campsolver.v1.NoSuch/H%E4%B8%AD", data=b"", headers={"Content-Type": "application/grpc-web"}
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(odd, timeout=30)
    assert caught.value.code in (404, 405)
    native = urllib.request.Request(server.http.url + path, data=b"", headers={"Content-Type": "application/grpc"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(native, timeout=30)
    assert caught.value.code == 415  # native gRPC belongs on the gRPC port, known procedure or not


def test_a_json_value_of_the_wrong_type_names_its_field(served: tuple[CampsolverServer, CampsolverClient]) -> None:
    """Connect JSON `{"state": 5}` is MALFORMED_REQUEST naming `state` (a BadRequest violation), as the CLI names it;
    JSON that is not JSON names no field."""
    server, _ = served
    assert server.http is not None
    path = f"/{games()['camper-tour'].service_full_name}/Score"
    status, body = _connect_json(server.http.url, path, {"state": 5})
    assert status == 400 and body["code"] == "invalid_argument"
    assert body["message"].startswith("state: "), body["message"]
    kinds = [detail["type"] for detail in body.get("details", [])]
    assert "google.rpc.BadRequest" in kinds, kinds
    request = urllib.request.Request(
        server.http.url + path, data=b"{not json", headers={"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    answer = json.loads(caught.value.read())
    assert answer["code"] == "invalid_argument" and "is not a valid" in answer["message"]
    for top, kind in (([1], "an array"), (["state"], "an array"), (5, "a number"), (None, "null")):
        status, body = _connect_json(server.http.url, path, top)
        assert status == 400 and body["code"] == "invalid_argument"
        assert f"expected a JSON object (campsolver.v1.CamperTourServiceScoreRequest), got {kind}" in body["message"]
        assert "google.rpc.BadRequest" not in [d["type"] for d in body.get("details", [])]  # no field to name

"""The HTTP port closes what never completes: a request's headers must arrive within the header timeout (from the
connection's opening, not from each byte), its body within the body timeout of its headers, and at most
`max_connections` connections are open at once; a gRPC-Web frame flagged compressed with no grpc-encoding is a
client error. Each limit at its edge (a request just in time is answered) and past it (closed within the limit
plus scheduling slack, judged like the other timing tests: `tests/timing.py`).

Before: a Content-Length of 100 MB with 300 bytes sent, headers one byte every 0.1 s and a bare `GET /` line were
all still open after 70 s (`python -m bench.service_probes slow-http`).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from campsolver.service.http_server import BODY_TIMEOUT_S, HEADER_TIMEOUT_S
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig

from bench.service_probes import grpc_web_frame, grpc_web_status
from tests.timing import within_loaded

HEADER_S = 1.0
BODY_S = 1.5
MAX_CONNECTIONS = 4
#: Scheduling slack past a deadline before a close counts as late (stretched on a loaded machine).
SLACK_S = 1.0
SCORE = f"/{games()['camper-tour'].service_full_name}/Score"


def _server(**limits: float | int | None) -> CampsolverServer:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1, **limits))
    running.start()
    assert running.http is not None and running.http.wait_started()
    return running


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = _server(http_header_timeout_s=HEADER_S, http_body_timeout_s=BODY_S, http_max_connections=MAX_CONNECTIONS)
    yield running
    running.stop(grace_s=2.0)


def _connect(server: CampsolverServer) -> socket.socket:
    assert server.http is not None
    return socket.create_connection(("127.0.0.1", server.http.port), timeout=60)


def _seconds_until_closed(
    sock: socket.socket, feed: Callable[[socket.socket], None] | None = None, limit_s: float = 60.0
) -> tuple[float, bytes]:
    """Seconds from now until the server closes `sock` (while `feed` keeps sending on another thread), and what
    the server sent before."""
    began = time.monotonic()

    def keep_feeding() -> None:
        try:
            if feed is not None:
                feed(sock)
        except OSError:
            pass

    feeder = threading.Thread(target=keep_feeding, daemon=True)
    feeder.start()
    received = b""
    sock.settimeout(limit_s)
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return time.monotonic() - began, received


def _request(body: bytes = b"{}", content_length: int | None = None) -> tuple[bytes, bytes]:
    length = len(body) if content_length is None else content_length
    head = (
        f"POST {SCORE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()
    return head, body


def _closed_in_time(elapsed_s: float, limit_s: float) -> bool:
    return elapsed_s >= limit_s - 0.05 and within_loaded(elapsed_s, limit_s + SLACK_S)


@pytest.mark.timing
def test_a_bare_request_line_is_closed_at_the_header_timeout(server: CampsolverServer) -> None:
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        elapsed, received = _seconds_until_closed(sock)
    assert _closed_in_time(elapsed, HEADER_S), elapsed
    assert received == b""


@pytest.mark.timing
def test_headers_trickling_in_are_closed_at_the_header_timeout_not_reset_by_each_byte(server: CampsolverServer) -> None:
    head, _ = _request()

    def trickle(sock: socket.socket) -> None:
        for byte in head[:-4] + b"X-Slow: " + b"a" * 1000:
            sock.sendall(bytes([byte]))
            time.sleep(0.1)

    with _connect(server) as sock:
        elapsed, _ = _seconds_until_closed(sock, trickle)
    assert _closed_in_time(elapsed, HEADER_S), elapsed


@pytest.mark.timing
def test_a_body_that_stops_arriving_is_closed_at_the_body_timeout(server: CampsolverServer) -> None:
    head, _ = _request(content_length=100_000_000)
    with _connect(server) as sock:
        sock.sendall(head + b" " * 300)
        elapsed, received = _seconds_until_closed(sock)
    assert _closed_in_time(elapsed, BODY_S), elapsed
    assert received == b""  # nothing answered: the request never completed


def _answered(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_headers_and_body_that_arrive_within_their_timeouts_are_answered(server: CampsolverServer) -> None:
    example = games()["camper-tour"].by_rpc("Score").example()
    from google.protobuf import json_format

    head, body = _request(json_format.MessageToJson(example, indent=None).encode())
    with _connect(server) as sock:
        for part in (head[:20], head[20:]):  # the headers complete at about 0.6 of their timeout
            sock.sendall(part)
            time.sleep(0.3 * HEADER_S)
        for part in (body[:10], body[10:]):  # the body at about 0.6 of its own
            sock.sendall(part)
            time.sleep(0.3 * BODY_S)
        assert _answered(sock).startswith(b"HTTP/1.1 200")
        # The same connection's next request gets a fresh header deadline.
        time.sleep(0.6 * HEADER_S)
        sock.sendall(head + body)
        assert _answered(sock).startswith(b"HTTP/1.1 200")


def test_one_connection_past_the_cap_is_closed_as_it_opens(server: CampsolverServer) -> None:
    assert server.http is not None
    before = server.metrics.http_closed.labels("too_many_connections")._value.get()
    held = [_connect(server) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.2)  # the server has accepted them
        with _connect(server) as extra:
            elapsed, received = _seconds_until_closed(extra, limit_s=HEADER_S / 2)
        assert received == b"" and elapsed < HEADER_S / 2, elapsed
        assert server.metrics.http_closed.labels("too_many_connections")._value.get() == before + 1
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    with _connect(server) as sock:  # back under the cap: served
        head, body = _request()
        sock.sendall(head + body)
        assert _answered(sock).startswith(b"HTTP/1.1 ")


def test_closed_connections_are_counted_by_reason(server: CampsolverServer) -> None:
    counter = server.metrics.http_closed
    before = {reason: counter.labels(reason)._value.get() for reason in ("headers_timeout", "body_timeout")}
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        _seconds_until_closed(sock)
    head, _ = _request(content_length=1000)
    with _connect(server) as sock:
        sock.sendall(head)
        _seconds_until_closed(sock)
    assert counter.labels("headers_timeout")._value.get() == before["headers_timeout"] + 1
    assert counter.labels("body_timeout")._value.get() == before["body_timeout"] + 1


@pytest.mark.parametrize("encoding", [None, "identity"])
def test_a_grpc_web_frame_flagged_compressed_without_an_encoding_is_invalid_argument(
    server: CampsolverServer, encoding: str | None
) -> None:
    import base64
    import http.client
    from urllib.parse import unquote

    from campsolver.clients.base import read_error_details
    from google.rpc import status_pb2

    assert server.http is not None
    payload = games()["camper-tour"].by_rpc("Score").example().SerializeToString()
    headers = {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1"}
    if encoding:
        headers["grpc-encoding"] = encoding
    connection = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=30)
    connection.request("POST", SCORE, body=grpc_web_frame(payload, flags=1), headers=headers)
    response = connection.getresponse()
    fields = grpc_web_status({k.lower(): v for k, v in response.getheaders()}, response.read())
    connection.close()
    assert fields["grpc-status"] == "3"  # INVALID_ARGUMENT, not INTERNAL (13)
    assert "grpc-encoding" in unquote(fields["grpc-message"])
    status = status_pb2.Status.FromString(base64.b64decode(fields["grpc-status-details-bin"] + "=="))
    assert read_error_details((d.TypeName(), d.value) for d in status.details)[1] == "MALFORMED_REQUEST"
    # The same frame unflagged is answered.
    connection = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=30)
    connection.request("POST", SCORE, body=grpc_web_frame(payload), headers=headers)
    response = connection.getresponse()
    fields = grpc_web_status({k.lower(): v for k, v in response.getheaders()}, response.read())
    connection.close()
    assert fields["grpc-status"] == "0"


@pytest.mark.timing
def test_the_documented_defaults_close_a_bare_request_line_within_the_header_timeout() -> None:
    running = _server()
    try:
        assert running.http is not None
        assert (running.http.header_timeout_s, running.http.body_timeout_s) == (HEADER_TIMEOUT_S, BODY_TIMEOUT_S)
        with _connect(running) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\n")
            elapsed, _ = _seconds_until_closed(sock)
        assert _closed_in_time(elapsed, HEADER_TIMEOUT_S), elapsed
    finally:
        running.stop(grace_s=2.0)


@pytest.mark.slow
@pytest.mark.timing
def test_the_documented_default_body_timeout_closes_a_stalled_body() -> None:
    running = _server()
    try:
        head, _ = _request(content_length=100_000_000)
        with _connect(running) as sock:
            sock.sendall(head + b" " * 300)
            elapsed, _ = _seconds_until_closed(sock)
        assert _closed_in_time(elapsed, BODY_TIMEOUT_S), elapsed
    finally:
        running.stop(grace_s=2.0)

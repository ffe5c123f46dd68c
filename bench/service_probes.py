"""Bytes nobody sends: the service's answers to inputs a well-behaved client never sends, from outside.

    python -m bench.service_probes [errors] [slow-http] [grpc-web-compressed] [--label L]

A `campsolver serve` process (gRPC and HTTP ports, two solver workers) is started for the run; each probe prints
a table and everything goes to bench/results/service_probes[_L].json.

- `errors`: each game's large malformed request (about 60 KB, one bad item: `large_malformed_requests`) over
  gRPC (a default client: 16 KiB metadata hard limit), Connect JSON, Connect binary and gRPC-Web; plus, over
  Connect JSON, a 60 KB unknown field name. Per call: the code the client saw, the message length and the bytes
  of the error (gRPC: the trailing metadata; Connect: the JSON error body; gRPC-Web: every header and trailer).
- `slow-http`: connections that never complete a request, each timed until the server closes it (70 s at
  most): a Content-Length of 100 MB with 300 bytes sent, headers one byte every 0.1 s, a bare `GET /` line.
- `grpc-web-compressed`: a gRPC-Web frame with the compressed flag set and no `grpc-encoding` header.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import grpc
from campsolver.service.registry import games
from google.protobuf import json_format
from google.protobuf.message import Message

from bench.common import print_table, write_json
from bench.load import ROOT, free_port, load_average

#: Seconds a slow connection is watched before it counts as never closed.
SLOW_WATCH_S = 70.0
#: Bytes of the large requests.
LARGE_BYTES = 60_000


def large_malformed_requests() -> dict[str, tuple[str, Message, str]]:
    """Each game's large request (about 60 KB) with one bad item: game -> (RPC, request, the start of the field
    path the error must name).

    Where a game's message repeats what it was given (a card's rows, a shape's squares) the bad item is the large
    part; elsewhere the request is large with many good items and one bad one at the end."""
    from campsolver.solver.campsite import rules as cs_rules

    from campsolver.v1 import adventure_tours_pb2 as at
    from campsolver.v1 import campsite_pb2 as cs
    from campsolver.v1 import happy_campers_pb2 as hc

    requests: dict[str, tuple[str, Message, str]] = {}
    wide = "".join(chr(0x4E00 + i) for i in range(LARGE_BYTES // 3))  # distinct characters, 3 bytes each
    happy = hc.HappyCampersServiceNewGameRequest(players=2)
    happy.components.shapes.add(rows=[wide])
    requests["happy-campers"] = ("NewGame", happy, "components.shapes[0]")
    campsite = cs.CampsiteServiceNewGameRequest(players=2)
    for card in cs_rules.default_deck():
        campsite.deck.add(text=card.text())
    campsite.deck.add(rows=["#." * (LARGE_BYTES // 8)] * 4)
    requests["campsite"] = ("NewGame", campsite, f"deck[{len(campsite.deck) - 1}]")
    deluxe = games()["deluxe-camping"].by_rpc("Score").example()
    for index in range(LARGE_BYTES // 10):
        barrier = deluxe.state.barriers.add()
        barrier.a.row, barrier.a.col, barrier.b.row, barrier.b.col = 0, 0, 0, 1
        if index == LARGE_BYTES // 10 - 1:
            barrier.b.row = 10**6
    requests["deluxe-camping"] = ("Score", deluxe, "state.barriers")
    tour = games()["camper-tour"].by_rpc("Hint").example()
    for index in range(999):
        decision = tour.history.add()
        decision.state.CopyFrom(tour.state)
        if index < 998:  # the last decision has no move: refused
            decision.move.announce = 1
    requests["camper-tour"] = ("Hint", tour, "history[")
    adventure = games()["adventure-tours"].by_rpc("Score").example()
    for index in range(LARGE_BYTES // 240):
        adventure.state.rules.deck.add(
            name=f"card {index} " + "x" * 200,
            colour=at.ADVENTURE_COLOUR_RED,
            demand=1,
            money=1,
            value=1,
            action=at.ADVENTURE_ACTION_NONE,
        )
    adventure.state.rules.deck.add(
        name="y" * 2000, colour=at.ADVENTURE_COLOUR_RED, demand=-1, action=at.ADVENTURE_ACTION_NONE
    )
    requests["adventure-tours"] = ("Score", adventure, f"state.rules.deck[{len(adventure.state.rules.deck) - 1}]")
    return requests


# --- the probes ----------------------------------------------------------------------------------------------


@contextmanager
def serving(extra: Sequence[str] = ()) -> Iterator[tuple[int, int]]:
    """A `campsolver serve` process on free ports: (gRPC port, HTTP port)."""
    port, http_port = free_port(), free_port()
    server = subprocess.Popen(
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
            "2",
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        while "HTTP" not in server.stdout.readline():
            pass
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
        yield port, http_port
    finally:
        server.terminate()
        server.wait(timeout=60)


def _grpc_error(port: int, path: str, payload: bytes) -> dict[str, Any]:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:  # default options: 16 KiB metadata hard limit
        try:
            channel.unary_unary(path)(payload, timeout=60)
            return {"code": "OK", "message_bytes": 0, "error_bytes": 0}
        except grpc.RpcError as error:
            trailers = error.trailing_metadata() or ()
            size = sum(len(k) + len(v) for k, v in trailers)
            message = error.details() or ""
            return {
                "code": error.code().name,
                "message_bytes": len(message.encode()),
                "error_bytes": size,
                "excerpt": message[:100],
            }


def _http(http_port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=60)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _connect_error(http_port: int, path: str, body: bytes, content_type: str) -> dict[str, Any]:
    status, _headers, data = _http(http_port, path, body, {"Content-Type": content_type})
    if status == 200:
        return {"code": "OK", "message_bytes": 0, "error_bytes": 0}
    error = json.loads(data)
    message = error.get("message", "")
    return {
        "code": error.get("code", "?").upper(),
        "message_bytes": len(message.encode()),
        "error_bytes": len(data),
        "excerpt": message[:100],
    }


def grpc_web_frame(payload: bytes, flags: int = 0) -> bytes:
    return bytes([flags]) + len(payload).to_bytes(4, "big") + payload


def grpc_web_status(headers: dict[str, str], body: bytes) -> dict[str, str]:
    """The gRPC-Web response's status fields (`grpc-status`, `grpc-message`, `grpc-status-details-bin`), from its
    headers (trailers-only) or its trailer frame (flag 0x80), as sent (percent-encoded, base64)."""
    fields = {k: v for k, v in headers.items() if k.startswith("grpc-")}
    offset = 0
    while offset + 5 <= len(body):
        flag, length = body[offset], int.from_bytes(body[offset + 1 : offset + 5], "big")
        if flag & 0x80:
            for line in body[offset + 5 : offset + 5 + length].decode("latin-1").split("\r\n"):
                if ":" in line:
                    key, value = line.split(":", 1)
                    fields[key.strip().lower()] = value.strip()
        offset += 5 + length
    return fields


def _grpc_web_error(
    http_port: int, path: str, payload: bytes, flags: int = 0, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    status, head, data = _http(
        http_port,
        path,
        grpc_web_frame(payload, flags),
        {"Content-Type": "application/grpc-web+proto", "X-Grpc-Web": "1", **(headers or {})},
    )
    fields = grpc_web_status(head, data)
    code = int(fields.get("grpc-status", "-1"))
    message = fields.get("grpc-message", "")
    size = len(message) + len(fields.get("grpc-status-details-bin", ""))
    name = next((item.name for item in grpc.StatusCode if item.value[0] == code), "?")
    return {
        "code": name,
        "http_status": status,
        "message_bytes": len(message),
        "error_bytes": size,
        "excerpt": message[:100],
    }


def probe_errors(port: int, http_port: int) -> list[dict[str, Any]]:
    rows = []
    for game_name, (rpc, request, field) in large_malformed_requests().items():
        path = f"/{games()[game_name].service_full_name}/{rpc}"
        payload = request.SerializeToString()
        as_json = json_format.MessageToJson(request, indent=None).encode()
        answers = {
            "grpc": _grpc_error(port, path, payload),
            "connect-json": _connect_error(http_port, path, as_json, "application/json"),
            "connect-proto": _connect_error(http_port, path, payload, "application/proto"),
            "grpc-web": _grpc_web_error(http_port, path, payload),
        }
        for transport, answer in answers.items():
            rows.append(
                {
                    "game": game_name,
                    "rpc": rpc,
                    "request": "large, one bad item",
                    "transport": transport,
                    "request_bytes": len(payload),
                    "field": field,
                    **answer,
                }
            )
        unknown = json.dumps({"z" * LARGE_BYTES: 1}).encode()
        rows.append(
            {
                "game": game_name,
                "rpc": rpc,
                "request": "unknown JSON field",
                "transport": "connect-json",
                "request_bytes": len(unknown),
                "field": "",
                **_connect_error(http_port, path, unknown, "application/json"),
            }
        )
    return rows


def _watch(http_port: int, send: Callable[[socket.socket], None]) -> float:
    """Seconds until the server closes a connection fed by `send` (which may keep sending), SLOW_WATCH_S at most
    (then inf)."""
    sock = socket.create_connection(("127.0.0.1", http_port))
    began = time.monotonic()
    closed = threading.Event()

    def reader() -> None:
        sock.settimeout(SLOW_WATCH_S + 1)
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        closed.set()

    watcher = threading.Thread(target=reader, daemon=True)
    watcher.start()
    try:
        send_thread = threading.Thread(target=_quietly, args=(send, sock, closed), daemon=True)
        send_thread.start()
        ended = closed.wait(SLOW_WATCH_S)
        return time.monotonic() - began if ended else float("inf")
    finally:
        closed.set()
        sock.close()


def _quietly(
    send: Callable[[socket.socket, threading.Event], None], sock: socket.socket, closed: threading.Event
) -> None:
    with suppress(OSError):
        send(sock, closed)


def _large_body(sock: socket.socket, _closed: threading.Event) -> None:
    sock.sendall(
        b"POST /campsolver.v1.CamperTourService/Score HTTP/1.1\r\nHost: x\r\nContent-Type: "
        b"application/json\r\nContent-Length: 100000000\r\n\r\n" + b" " * 300
    )


def _slow_headers(sock: socket.socket, closed: threading.Event) -> None:
    head = b"POST /campsolver.v1.CamperTourService/Score HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 2000
    for byte in head:
        if closed.wait(0.1):
            return
        sock.sendall(bytes([byte]))


def _bare_request_line(sock: socket.socket, _closed: threading.Event) -> None:
    sock.sendall(b"GET / HTTP/1.1\r\n")


SLOW_KINDS: dict[str, Callable[[socket.socket, threading.Event], None]] = {
    "Content-Length 100 MB, 300 bytes sent": _large_body,
    "headers one byte every 0.1 s": _slow_headers,
    "a bare `GET /` request line": _bare_request_line,
}


def probe_slow_http(http_port: int) -> list[dict[str, Any]]:
    results: dict[str, float] = {}
    threads = [
        threading.Thread(target=lambda k=kind, s=send: results.__setitem__(k, _watch(http_port, s)))
        for kind, send in SLOW_KINDS.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [
        {
            "connection": kind,
            "closed_after_s": round(results[kind], 2)
            if results[kind] != float("inf")
            else f"still open after {SLOW_WATCH_S:g} s",
        }
        for kind in SLOW_KINDS
    ]


def probe_grpc_web_compressed(http_port: int) -> list[dict[str, Any]]:
    path = f"/{games()['camper-tour'].service_full_name}/Score"
    payload = games()["camper-tour"].by_rpc("Score").example().SerializeToString()
    rows = []
    for label, headers in (
        ("no grpc-encoding", {}),
        ("grpc-encoding: gzip", {"grpc-encoding": "gzip"}),
        ("grpc-encoding: br", {"grpc-encoding": "br"}),
    ):
        rows.append(
            {
                "frame": "compressed flag set, payload not compressed",
                "headers": label,
                **_grpc_web_error(http_port, path, payload, flags=1, headers=headers),
            }
        )
    return rows


PROBES = ("errors", "slow-http", "grpc-web-compressed")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("probes", nargs="*", help=f"any of {', '.join(PROBES)} (default: all)")
    parser.add_argument("--label", default="")
    args = parser.parse_args(argv)
    unknown = set(args.probes) - set(PROBES)
    if unknown:
        parser.error(f"unknown probes {sorted(unknown)}; choose from {', '.join(PROBES)}")
    args.probes = args.probes or list(PROBES)
    result: dict[str, Any] = {"load_avg": load_average()}
    with serving() as (port, http_port):
        if "errors" in args.probes:
            result["errors"] = probe_errors(port, http_port)
            print_table("large malformed requests: the error each transport answers", result["errors"])
        if "grpc-web-compressed" in args.probes:
            result["grpc_web_compressed"] = probe_grpc_web_compressed(http_port)
            print_table("gRPC-Web frame flagged compressed", result["grpc_web_compressed"])
        if "slow-http" in args.probes:
            result["slow_http"] = probe_slow_http(http_port)
            print_table("connections that never complete a request", result["slow_http"])
    path = write_json("service_probes" + (f"_{args.label}" if args.label else ""), result)
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()

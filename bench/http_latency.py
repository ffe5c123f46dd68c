"""Hint, Score and Play over Connect JSON (the web table's protocol) against the same calls over gRPC, on one
server, in one run: p50 and p99 of each. Goal: HTTP within 5 ms of gRPC at p50 for cheap calls.

    python -m bench.http_latency [--games camper-tour,happy-campers] [--n 200] [--hint-seconds 0.01]

The positions are those of a seeded game (NewGame, then Play of the rule of thumb's move, to the end), each used
in turn. Calls alternate between the protocols (gRPC, Connect JSON, then Connect binary as a third column: the
same request), so load on the machine falls on all alike; the "http" columns are Connect JSON. The JSON
client parses in Python (json_format), which a browser does natively: the binary column shows the transport
apart from that. The Hint is asked with `--hint-seconds` (0.01: the rule of thumb's move, answered
by the server process, a cheap call); Play resolves its chance from a fixed seed. Both clients keep one
connection open (the HTTP client is the Connect project's own, `connectrpc`, over HTTP/1.1 keep-alive).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.clients.http_client import HttpCampsolverClient
from campsolver.service.registry import GAME_TABLE, games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import json_format
from google.protobuf.message import Message

from bench.common import print_table, summary_ms, write_json

#: How each game's Hint / Score / LegalMoves request holds the state, and where a hint alternative keeps its move.
STATE_KEY = {"happy-campers": "game", "campsite": "game"}
MOVE_KEY = {"campsite": "play"}


def _request(game_name: str, rpc: str, body: dict[str, Any]) -> Message:
    return json_format.ParseDict(body, games()[game_name].by_rpc(rpc).request_type())


class FetchLike:
    """What the web table's `fetch` does: a kept-alive HTTP/1.1 POST of proto3 JSON, the answer read with a
    plain JSON parser (the browser's JSON.parse), no protobuf library on the client."""

    def __init__(self, port: int) -> None:
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, path: str, body: dict[str, Any]) -> Any:
        self._connection.request(
            "POST",
            path,
            body=json.dumps(body),
            headers={
                "Content-Type": "application/json",
                "Connect-Protocol-Version": "1",
                "Connect-Timeout-Ms": "60000",
            },
        )
        response = self._connection.getresponse()
        data = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{path}: {data}")
        return data

    def close(self) -> None:
        self._connection.close()


def seeded_positions(client: CampsolverClient, game_name: str, seed: int, limit: int) -> list[dict[str, Any]]:
    """Up to `limit` decision positions of a seeded game (two players; Adventure Tours three), each as its Hint,
    Score and Play requests."""
    service = client.game(game_name)
    key, move_key = STATE_KEY.get(game_name, "state"), MOVE_KEY.get(game_name, "move")
    players = 3 if game_name == "adventure-tours" else 2
    new_game = _request(game_name, "NewGame", {"players": players, "seed": seed})
    response = service.call("NewGame", new_game, timeout=60)
    positions: list[dict[str, Any]] = []
    ply = 0
    while not response.turn.game_over and len(positions) < limit:
        state = json_format.MessageToDict(response.state)
        play: dict[str, Any] = {"state": state, "seed": seed * 1000 + ply}
        if not response.turn.chance_next:
            hint_body = {key: state, "options": {"timeLimitSeconds": 0.01}}
            try:
                hint = service.call("Hint", _request(game_name, "Hint", hint_body), timeout=60)
            except CampsolverError:  # a position the hint does not rank (a setup step): not measured
                legal = service.call("LegalMoves", _request(game_name, "LegalMoves", {key: state}), timeout=60)
                play["move"] = json_format.MessageToDict(legal.moves[0])
            else:
                play["move"] = json_format.MessageToDict(getattr(hint.alternatives[0], move_key))
                positions.append({"state": state, "play": play})
        response = service.call("Play", _request(game_name, "Play", play), timeout=60)
        ply += 1
    return positions


def measure(server: CampsolverServer, game_name: str, n: int, hint_seconds: float) -> list[dict[str, Any]]:
    """Rows of p50/p99 per RPC and protocol for one game."""
    assert server.http is not None
    key = STATE_KEY.get(game_name, "state")
    rows: list[dict[str, Any]] = []
    fetch = FetchLike(server.http.port)
    with (
        CampsolverClient(server.address) as grpc_client,
        HttpCampsolverClient(server.http.url) as http_client,
        HttpCampsolverClient(server.http.url, "connect-proto") as binary_client,
    ):
        grpc_client.wait_ready()
        positions = seeded_positions(grpc_client, game_name, seed=1, limit=max(n, 1))
        if not positions:
            return rows
        calls = {
            "Score": lambda p: _request(game_name, "Score", {key: p["state"]}),
            "Play": lambda p: _request(game_name, "Play", p["play"]),
            "Hint": lambda p: _request(
                game_name, "Hint", {key: p["state"], "options": {"timeLimitSeconds": hint_seconds}}
            ),
        }
        for rpc, build in calls.items():
            requests = [build(positions[i % len(positions)]) for i in range(n)]
            path = f"/{games()[game_name].service_full_name}/{rpc}"
            bodies = [json_format.MessageToDict(request) for request in requests]  # the page's JS objects
            timings: dict[str, list[float]] = {"grpc": [], "fetch": [], "json_py": [], "binary": []}
            service = grpc_client.game(game_name)
            service.call(rpc, requests[0], timeout=60)  # warm-ups, not counted
            fetch.call(path, bodies[0])
            http_client.call(game_name, rpc, requests[0], timeout=60)
            binary_client.call(game_name, rpc, requests[0], timeout=60)
            for request, body in zip(requests, bodies, strict=True):
                paths: tuple[tuple[str, Callable[[], Any]], ...] = (
                    ("grpc", partial(service.call, rpc, request, timeout=60)),
                    ("fetch", partial(fetch.call, path, body)),
                    ("json_py", partial(http_client.call, game_name, rpc, request, timeout=60)),
                    ("binary", partial(binary_client.call, game_name, rpc, request, timeout=60)),
                )
                for name, call in paths:
                    started = time.perf_counter()
                    call()
                    timings[name].append(time.perf_counter() - started)
            stats = {name: summary_ms(values) for name, values in timings.items()}
            rows.append(
                {
                    "game": game_name,
                    "rpc": rpc,
                    "grpc_p50_ms": stats["grpc"]["p50_ms"],
                    "http_p50_ms": stats["fetch"]["p50_ms"],
                    "p50_gap_ms": stats["fetch"]["p50_ms"] - stats["grpc"]["p50_ms"],
                    "grpc_p99_ms": stats["grpc"]["p99_ms"],
                    "http_p99_ms": stats["fetch"]["p99_ms"],
                    "binary_p50_ms": stats["binary"]["p50_ms"],
                    "binary_p99_ms": stats["binary"]["p99_ms"],
                    "json_py_p50_ms": stats["json_py"]["p50_ms"],
                    "json_py_p99_ms": stats["json_py"]["p99_ms"],
                    "n": n,
                    "positions": len(positions),
                }
            )
    fetch.close()
    return rows


def run(game_names: Sequence[str], n: int, hint_seconds: float) -> dict[str, Any]:
    config = ServerConfig(port=0, http_port=0, workers=2)
    sys.setswitchinterval(config.gil_switch_interval_s)  # as `campsolver serve` sets it
    server = CampsolverServer(config)
    server.start()
    try:
        assert server.http is not None and server.http.wait_started()
        rows = [row for name in game_names for row in measure(server, name, n, hint_seconds)]
    finally:
        server.stop(grace_s=1.0)
    print_table(f"Connect JSON vs gRPC, same server, same run ({n} calls each, hint {hint_seconds:g} s)", rows)
    cheap = [row for row in rows if hint_seconds <= 0.05 or row["rpc"] != "Hint"]
    worst = max((row["p50_gap_ms"] for row in cheap), default=float("nan"))
    print(f"\nlargest p50 gap on cheap calls: {worst:.2f} ms (goal: within 5 ms)")
    return {
        "hint_seconds": hint_seconds,
        "n": n,
        "rows": rows,
        "largest_cheap_p50_gap_ms": worst,
        "goal_p50_gap_ms": 5.0,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAME_TABLE))
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--hint-seconds", type=float, default=0.01)
    args = parser.parse_args(argv)
    names = [name for name in args.games.split(",") if name]
    unknown = [name for name in names if name not in GAME_TABLE]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}")
    write_json("http_latency", run(names, args.n, args.hint_seconds))


if __name__ == "__main__":
    main()

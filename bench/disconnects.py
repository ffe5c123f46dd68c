"""A client that goes away: does its solve stop within half a second, every time, in every game?

    python -m bench.disconnects [--tries 50] [--games G,G] [--seed 0] [--label L]

One server in this process (two solver workers, gRPC and HTTP ports). Per game, `--tries` long solves
(`long_solves`: each would run for a minute), each cancelled at a seeded random moment 0.05-2 s after it took its
solver slot: even tries by a gRPC client's cancel, odd tries by an HTTP (Connect JSON) client closing its
connection mid-call. The stop is the time from the cancel (or the close) to the solver slot's release, which
happens when the worker has answered; a worker that ignores the cancel for `KILL_AFTER_CANCEL_S` is killed, and
counted. Per game: tries, stops within 0.5 s, p50 / p99 / max, kills, and the load average.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from campsolver.clients.client import CampsolverClient
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf import json_format
from google.protobuf.message import Message

from bench.common import percentile, print_table, write_json
from bench.load import load_average

#: A stop within this many seconds of the cancel counts as prompt.
STOP_WITHIN_S = 0.5
LONG_S = 60.0


def long_solves() -> dict[str, tuple[str, Message]]:
    """Each game's call that may solve for a minute unless stopped: game -> (RPC, request). Not all do: the Deluxe
    Camping MaxScore proves its optimum in about 0.8 s on an idle machine and the Adventure Tours hint stops at its
    sample cap; a try that ends before its cancel is counted apart (`answered_before_cancel`)."""
    from campsolver.solver.campsite import rules as cs_rules

    from campsolver.v1 import camper_tour_pb2 as ct
    from campsolver.v1 import campsite_pb2 as cs
    from campsolver.v1 import common_pb2
    from campsolver.v1 import deluxe_camping_pb2 as dc

    options = common_pb2.SolveOptions(time_limit_seconds=LONG_S)
    happy = games()["happy-campers"].by_rpc("MaxScore").example()
    happy.options.CopyFrom(options)
    deluxe = games()["deluxe-camping"].by_rpc("MaxScore").example()
    deluxe.objective = dc.DELUXE_CAMPING_MAX_OBJECTIVE_TOTAL
    deluxe.options.CopyFrom(options)
    deck = [cs.CampsiteCard(text=card.text()) for card in cs_rules.default_deck()[:16]]
    campsite = cs.CampsiteServiceMaxScoreRequest(round=cs.CampsiteRound(order=deck, turns=7), options=options)
    tour = ct.CamperTourServiceMaxScoreRequest(options=options)  # the default route: sampled until the budget ends
    adventure = games()["adventure-tours"].by_rpc("Hint").example()
    adventure.options.CopyFrom(options)
    return {
        "happy-campers": ("MaxScore", happy),
        "deluxe-camping": ("MaxScore", deluxe),
        "campsite": ("MaxScore", campsite),
        "camper-tour": ("MaxScore", tour),
        "adventure-tours": ("Hint", adventure),
    }


def _grpc_try(
    server: CampsolverServer, client: CampsolverClient, game_name: str, rpc: str, request: Message, wait_s: float
) -> float | None:
    future = client.game(game_name).call_future(rpc, request, timeout=LONG_S + 60)
    if not server.gate.wait_busy(1, timeout_s=60):
        return None
    if future.done() or not _sleep_while_busy(server, wait_s):
        return None  # answered before the cancel: not a try
    cancelled = time.monotonic()
    future.cancel()
    server.gate.wait_idle(timeout_s=60)
    return time.monotonic() - cancelled


def _http_try(server: CampsolverServer, game_name: str, rpc: str, request: Message, wait_s: float) -> float | None:
    assert server.http is not None
    connection = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=LONG_S + 60)
    body = json_format.MessageToJson(request, indent=None).encode()
    connection.request(
        "POST",
        f"/{games()[game_name].service_full_name}/{rpc}",
        body=body,
        headers={"Content-Type": "application/json"},
    )
    if not server.gate.wait_busy(1, timeout_s=60) or not _sleep_while_busy(server, wait_s):
        connection.close()
        return None
    closed = time.monotonic()
    connection.close()  # the client goes away mid-call
    server.gate.wait_idle(timeout_s=60)
    return time.monotonic() - closed


def _sleep_while_busy(server: CampsolverServer, seconds: float) -> bool:
    """Wait `seconds`; False if the solve ended meanwhile (its slot freed)."""
    return not server.gate.wait_idle(timeout_s=seconds)


def run(tries: int, seed: int, game_names: Sequence[str]) -> dict[str, Any]:
    server = CampsolverServer(ServerConfig(port=0, http_port=0, workers=2))
    server.start()
    assert server.http is not None and server.http.wait_started()
    rng = random.Random(seed)
    rows = []
    try:
        with CampsolverClient(server.address) as client:
            client.wait_ready()
            for game_name in game_names:
                rpc, request = long_solves()[game_name]
                restarts = server.pool.restarts if server.pool is not None else 0
                stops: list[float] = []
                skipped = 0
                for index in range(tries):
                    wait_s = rng.uniform(0.05, 2.0)
                    if index % 2 == 0:
                        stop = _grpc_try(server, client, game_name, rpc, request, wait_s)
                    else:
                        stop = _http_try(server, game_name, rpc, request, wait_s)
                    if stop is None:
                        skipped += 1
                    else:
                        stops.append(stop)
                    server.gate.wait_idle(timeout_s=60)
                kills = (server.pool.restarts if server.pool is not None else 0) - restarts
                ms = [1000 * s for s in stops]
                rows.append(
                    {
                        "game": game_name,
                        "rpc": rpc,
                        "tries": len(stops),
                        "answered_before_cancel": skipped,
                        "stopped_within_0.5s": sum(s < STOP_WITHIN_S for s in stops),
                        "stop_p50_ms": percentile(ms, 50),
                        "stop_p99_ms": percentile(ms, 99),
                        "stop_max_ms": max(ms) if ms else float("nan"),
                        "workers_killed": kills,
                        "load_avg": load_average(),
                    }
                )
                print_table("disconnected clients so far", rows[-1:])
    finally:
        server.stop(grace_s=2.0)
    return {"tries_per_game": tries, "seed": seed, "stop_within_s": STOP_WITHIN_S, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tries", type=int, default=50, help="disconnects per game (half gRPC, half HTTP)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(games()), help="comma-separated game names")
    parser.add_argument("--label", default="")
    args = parser.parse_args(argv)
    result = run(args.tries, args.seed, args.games.split(","))
    print_table(
        f"a disconnected client's solve: stop within {STOP_WITHIN_S} s ({args.tries} tries a game)", result["rows"]
    )
    path = write_json("disconnects" + (f"_{args.label}" if args.label else ""), result)
    print(f"\nwrote {path}")
    json.dumps(result)


if __name__ == "__main__":
    main()

"""Hint latency in-process (service.dispatch) versus over gRPC on loopback, same requests, one run.

python -m bench.grpc_latency [--game camper-tour] [--n 200]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from campsolver.clients.client import CampsolverClient
from campsolver.service import dispatch
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.registry import game
from campsolver.service.server import CampsolverServer, ServerConfig
from google.protobuf.message import Message

from bench.camper_tour import sample_hint_states
from bench.common import print_table, summary_ms, write_json
from campsolver.v1 import camper_tour_pb2 as ct_pb
from campsolver.v1 import common_pb2


def measure(game_name: str, requests: Sequence[Message], rpc: str = "Hint") -> dict[str, dict[str, float]]:
    """Time each request in-process, then over gRPC to a server on 127.0.0.1 (port chosen by the OS)."""
    command = game(game_name).by_rpc(rpc)
    in_process: list[float] = []
    for request in requests:
        started = time.perf_counter()
        dispatch.run(command, request, dispatch.budget_for(request, None))
        in_process.append(time.perf_counter() - started)
    server = CampsolverServer(ServerConfig(port=0, workers=2))
    server.start()
    try:
        over_grpc: list[float] = []
        with CampsolverClient(server.address) as client:
            client.wait_ready()
            game_client = client.game(game_name)
            game_client.call(rpc, requests[0], timeout=60)  # connection warm-up, not counted
            for request in requests:
                started = time.perf_counter()
                game_client.call(rpc, request, timeout=60)
                over_grpc.append(time.perf_counter() - started)
    finally:
        server.stop(grace_s=1.0)
    return {"in_process": summary_ms(in_process), "grpc": summary_ms(over_grpc)}


def camper_tour_hint_requests(
    seed: int, n: int, time_limit_s: float = 10.0, depth: int = 2
) -> list[ct_pb.CamperTourServiceHintRequest]:
    """Seeded multi-camper hint requests for the latency bench (fixed depth, so latency measures the work)."""
    return [
        ct_pb.CamperTourServiceHintRequest(
            state=ct_service.state_to_proto(s),
            depth=depth,
            options=common_pb2.SolveOptions(time_limit_seconds=time_limit_s),
        )
        for s in sample_hint_states(seed, n)
    ]


def run(game_name: str, requests: Sequence[Message]) -> dict:
    result = measure(game_name, requests)
    rows = [{"path": path, **stats} for path, stats in result.items()]
    print_table(f"{game_name} hint latency ({len(requests)} requests)", rows)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="camper-tour")
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args(argv)
    if args.game != "camper-tour":
        parser.error("only camper-tour has seeded hint requests for this bench")
    requests = camper_tour_hint_requests(seed=1, n=args.n)
    write_json(f"{args.game}_grpc_latency", run(args.game, requests))


if __name__ == "__main__":
    main()

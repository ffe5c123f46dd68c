"""Hints on a busy machine: does every hint answer before its deadline?

    python -m bench.hint_deadlines [--hints 200] [--busy-loops 4] [--seed 0] [--label L] [--server-log FILE]

A `campsolver serve` process with two solver workers, four busy loops beside it on the 2-core machine, and two
phases per game, half of the hints each:
- `slots held`: two long solves hold both solver slots for the whole phase, so a hint can only answer with its
  rule of thumb's move (`stats.fallback`);
- `slots shared`: two client threads send the hints back to back, so the hints themselves keep both slots busy.
Each hint carries only a gRPC deadline, drawn uniformly in [0.1, 0.5] s (seeded). Per game and phase: answers,
DEADLINE_EXCEEDED and other errors, fallback answers, and the overrun (answer time minus deadline; negative is
early) p50 / p99 / max. Camper Tour hints alternate with and without a 30-decision game record. With
`--server-log FILE` the server's JSON access log is kept there and summed up per game (`server_view`): which late
answers the server itself sent late, and which arrived with their deadline already spent.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import grpc
from campsolver.service.registry import games

from bench.common import percentile, print_table, write_json
from bench.load import ROOT, free_port, load_average
from campsolver.v1 import camper_tour_pb2 as ct
from campsolver.v1 import common_pb2

DEADLINE_RANGE_S = (0.1, 0.5)
#: A solve that holds one solver slot for the whole phase (cancelled at its end).
HOLD_SECONDS = 600.0
BUSY_LOOP = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"


def _method(game_name: str, rpc: str) -> str:
    return f"/{games()[game_name].service_full_name}/{rpc}"


def camper_tour_record(decisions: int, seed: int) -> ct.CamperTourServiceHintRequest:
    """A 3-camper game record of `decisions` solo-policy decisions, and the state after it (camper 0 to move)."""
    import numpy as np
    from campsolver.service.games import camper_tour as ct_service
    from campsolver.solver.camper_tour import rules as ct_rules
    from campsolver.solver.camper_tour.players import solo_optimal
    from campsolver.solver.core.game import sample_outcome

    rng = np.random.default_rng(seed)
    state = ct_rules.new_game(ct_rules.all_normal(), 3)
    history: list[ct.CamperTourDecision] = []
    while True:
        if state.current_player() >= 0:
            if len(history) >= decisions and state.to_move == 0:
                return ct.CamperTourServiceHintRequest(state=ct_service.state_to_proto(state), history=history)
            action = solo_optimal(state)
            history.append(
                ct.CamperTourDecision(state=ct_service.state_to_proto(state), move=ct_service.move_to_proto(action))
            )
            state = state.child(action)
        else:
            state = state.child(sample_outcome(state, rng))


def hint_requests(game_name: str, seed: int) -> Callable[[int], bytes]:
    """The i-th hint request of a game: its example position with a per-call seed (Camper Tour: every other
    one with a 30-decision record)."""
    example = games()[game_name].commands["hint"].example
    assert example is not None
    with_record = camper_tour_record(30, seed) if game_name == "camper-tour" else None

    def request(i: int) -> bytes:
        message = with_record if with_record is not None and i % 2 else example()
        message = type(message).FromString(message.SerializeToString())
        message.options.CopyFrom(common_pb2.SolveOptions(seed=seed * 100_000 + i))
        return message.SerializeToString()

    return request


def _holder() -> bytes:
    """A Camper Tour hint that only its budget stops (the expected-score deepening), to hold one slot."""
    from campsolver.service.games import camper_tour as ct_service

    request = ct_service.EXAMPLES["Hint"]()
    request.depth = 40
    request.objective = common_pb2.OBJECTIVE_EXPECTED_SCORE
    request.options.time_limit_seconds = HOLD_SECONDS
    return request.SerializeToString()


@contextmanager
def busy_loops(count: int, seconds: float) -> Iterator[None]:
    """`count` processes spinning on a core each, for at most `seconds` (they stop by themselves)."""
    loops = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=seconds)]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@contextmanager
def slots_held(channel: grpc.Channel, count: int) -> Iterator[None]:
    call = channel.unary_unary(_method("camper-tour", "Hint"))
    futures = [call.future(_holder(), timeout=HOLD_SECONDS + 60) for _ in range(count)]
    time.sleep(1.0)  # both reach their worker
    try:
        yield
    finally:
        for future in futures:
            future.cancel()


def run_hints(
    channel: grpc.Channel,
    game_name: str,
    make: Callable[[int], bytes],
    indices: Sequence[int],
    deadlines: Sequence[float],
    threads: int,
) -> list[dict[str, Any]]:
    """Send the hints `indices` from `threads` client threads; one record per call."""
    from campsolver.v1 import adventure_tours_pb2, campsite_pb2, deluxe_camping_pb2, happy_campers_pb2

    response_types = {
        "happy-campers": happy_campers_pb2.HappyCampersServiceHintResponse,
        "deluxe-camping": deluxe_camping_pb2.DeluxeCampingServiceHintResponse,
        "campsite": campsite_pb2.CampsiteServiceHintResponse,
        "camper-tour": ct.CamperTourServiceHintResponse,
        "adventure-tours": adventure_tours_pb2.AdventureToursServiceHintResponse,
    }
    call = channel.unary_unary(_method(game_name, "Hint"))
    records: list[dict[str, Any]] = []
    lock = threading.Lock()
    queue = list(indices)

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                i = queue.pop(0)
            payload, deadline = make(i), deadlines[i]
            started = time.monotonic()
            record: dict[str, Any] = {"i": i, "deadline_s": deadline}
            try:
                raw = call(payload, timeout=deadline)
                response = response_types[game_name].FromString(raw)
                record.update(code="OK", fallback=bool(response.stats.fallback), moves=len(response.alternatives))
            except grpc.RpcError as error:
                record.update(code=error.code().name, fallback=False, moves=0, detail=error.details() or "")
            record["overrun_s"] = time.monotonic() - started - deadline
            with lock:
                records.append(record)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return records


def summarise(game_name: str, phase: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    codes = Counter(r["code"] for r in records)
    overruns = [1000 * r["overrun_s"] for r in records]
    return {
        "game": game_name,
        "phase": phase,
        "hints": len(records),
        "answered": codes["OK"],
        "deadline_exceeded": codes["DEADLINE_EXCEEDED"],
        "other_errors": sum(n for code, n in codes.items() if code not in ("OK", "DEADLINE_EXCEEDED")),
        "fallback": sum(r["fallback"] for r in records),
        "no_moves": sum(1 for r in records if r["code"] == "OK" and r["moves"] == 0),
        "overrun_p50_ms": percentile(overruns, 50),
        "overrun_p99_ms": percentile(overruns, 99),
        "overrun_max_ms": max(overruns) if overruns else float("nan"),
        "errors": sorted({f"{r['code']}: {r.get('detail', '')}"[:120] for r in records if r["code"] != "OK"}),
        "load_avg": load_average(),
    }


def run(hints: int, busy: int, seed: int, game_names: Sequence[str], server_log: str | None = None) -> dict[str, Any]:
    port = free_port()
    log = open(server_log, "w") if server_log else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    server = subprocess.Popen(
        [sys.executable, "-m", "campsolver", "serve", "--port", str(port), "--workers", "2", "--log-format", "json"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    rows = []
    try:
        assert server.stdout is not None and "listening" in server.stdout.readline()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
            rng = random.Random(seed)
            for game_name in game_names:
                make = hint_requests(game_name, seed)
                deadlines = [rng.uniform(*DEADLINE_RANGE_S) for _ in range(hints)]
                half = hints // 2
                with busy_loops(busy, 1800):
                    with slots_held(channel, 2):
                        held = run_hints(channel, game_name, make, range(half), deadlines, threads=2)
                    shared = run_hints(channel, game_name, make, range(half, hints), deadlines, threads=2)
                rows.append(summarise(game_name, "slots held", held))
                rows.append(summarise(game_name, "slots shared", shared))
                print_table(f"hints under load so far ({busy} busy loops)", rows[-2:])
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server_log:
            log.close()  # type: ignore[union-attr]
    result = {
        "hints_per_game": hints,
        "busy_loops": busy,
        "seed": seed,
        "deadline_range_s": DEADLINE_RANGE_S,
        "rows": rows,
    }
    if server_log:
        result["server_view"] = server_view(server_log, hints)
    return result


def server_view(path: str, sent: int) -> list[dict[str, Any]]:
    """Per game, the hints as the server saw them (its JSON access log): answered after the deadline by its own
    clock, and of those how many arrived with the deadline already spent, or answered the rule of thumb at once
    (no_time) and still took longer than the time left; and the hints (of `sent` a game) gRPC dropped before
    any handler saw them (their deadline passed on the way in)."""
    import json

    with open(path) as log:
        lines = [json.loads(text) for text in log if text.startswith("{")]
    calls = [
        line
        for line in lines
        if line.get("event") == "call"
        and line["rpc"] == "Hint"
        and line.get("deadline_s") is not None
        and line["deadline_s"] < DEADLINE_RANGE_S[1] + 0.1
    ]
    view = []
    for game_name in dict.fromkeys(line["game"] for line in calls):
        mine = [line for line in calls if line["game"] == game_name]
        late = [line for line in mine if line["code"] == "DEADLINE_EXCEEDED"]
        view.append(
            {
                "game": game_name,
                "hints_seen": len(mine),
                "dropped_before_a_handler": sent - len(mine),
                "late_by_server_clock": len(late),
                "arrived_spent": sum(line["deadline_s"] <= 0.001 for line in late),
                "late_no_time": sum(line["fallback"] == "no_time" for line in late),
                "fallbacks": dict(Counter(line["fallback"] or "searched" for line in mine)),
            }
        )
    return view


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hints", type=int, default=200, help="hints per game (half in each phase)")
    parser.add_argument("--busy-loops", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(games()), help="comma-separated game names")
    parser.add_argument("--label", default="")
    parser.add_argument("--server-log", help="write the server's JSON log (an access line per call) to this file")
    args = parser.parse_args(argv)
    result = run(args.hints, args.busy_loops, args.seed, args.games.split(","), args.server_log)
    print_table(f"every game's hints under load ({args.busy_loops} busy loops, deadlines 0.1-0.5 s)", result["rows"])
    if "server_view" in result:
        print_table("the same hints as the server saw them (its access log)", result["server_view"])
    path = write_json("hint_deadlines" + (f"_{args.label}" if args.label else ""), result)
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()

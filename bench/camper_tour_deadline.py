"""Camper Tour hints with the game's record and MaxScore under a deadline on a busy machine, over gRPC on loopback.

    python -m bench.camper_tour_deadline [--hints 100] [--busy 2] [--limit 0.2]

A server with two solver workers on 127.0.0.1 (port chosen by the OS); `--busy` busy-loop processes beside it
(each ends by itself after `BUSY_SECONDS`). Hint requests: seeded 2-4 camper games played by the rules of thumb
(seeds from `SEED_BASE`, never used by the tests), each cut at a decision with the whole record before it as
`history`; asked once with `options.time_limit_seconds` = limit under a generous deadline (mode "limit") and
once with only a gRPC deadline of limit seconds (mode "deadline"). Counts DEADLINE_EXCEEDED and other errors,
the overrun past the limit (p50/p99/max) and the answers that fell back to the rule of thumb; then MaxScore
with the default rules at 1, 2 and 3 s deadlines. Prints a table, writes bench/results/camper_tour_deadline.json.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import grpc
import numpy as np
from campsolver.clients.base import CampsolverError
from campsolver.clients.client import CampsolverClient
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.server import CampsolverServer, ServerConfig
from campsolver.solver.camper_tour.opponents import Decision
from campsolver.solver.camper_tour.players import announce_seven, greedy, race, solo_optimal
from campsolver.solver.camper_tour.rules import Config, TourState, new_game
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.seeding import rng_for

from bench.common import print_table, write_json
from campsolver.v1 import camper_tour_pb2 as pb
from campsolver.v1 import common_pb2

#: First seed of the record games (disjoint from the tests' and the other benches' seeds).
SEED_BASE = 7_300_000
#: A busy loop stops by itself after this many seconds (the run is bounded whatever happens to this process).
BUSY_SECONDS = 240


def record_positions(n: int, seed_base: int = SEED_BASE) -> list[tuple[TourState, list[Decision]]]:
    """n decision states, each with the game's record before it, from seeded games of the rules of thumb."""
    styles = (race, announce_seven, greedy, solo_optimal)
    found: list[tuple[TourState, list[Decision]]] = []
    g = 0
    while len(found) < n:
        rng = rng_for(seed_base + g, "camper-tour-deadline")
        g += 1
        campers = int(rng.integers(2, 5))
        players = [styles[int(rng.integers(len(styles)))] for _ in range(campers)]
        state, record = new_game(Config(), campers), []
        stop = int(rng.integers(20, 400))
        while not state.game_over and (len(record) < stop or state.current_player() < 0):
            if state.current_player() >= 0:
                action = players[state.to_move](state)
                record.append(Decision(state, action))
                state = state.child(action)
            else:
                state = state.child(sample_outcome(state, rng))
        if not state.game_over and state.current_player() >= 0 and sum(c.active for c in state.campers) >= 2:
            found.append((state, record))
    return found


def hint_request(state: TourState, record: list[Decision], limit: float | None) -> pb.CamperTourServiceHintRequest:
    request = pb.CamperTourServiceHintRequest(state=ct_service.state_to_proto(state))
    if limit:
        request.options.time_limit_seconds = limit
    for decision in record:
        request.history.add(
            state=ct_service.state_to_proto(decision.state), move=ct_service.move_to_proto(decision.action)
        )
    return request


def _summary(walls: list[float], limit: float, errors: dict[str, int], fallbacks: int, n: int) -> dict[str, object]:
    over = [max(w - limit, 0.0) for w in walls] or [0.0]
    return {
        "calls": n,
        "answered": len(walls),
        "errors": errors,
        "rule_of_thumb_answers": fallbacks,
        "wall_p50_s": float(np.percentile(walls, 50)) if walls else None,
        "overrun_p99_s": float(np.percentile(over, 99)),
        "overrun_max_s": max(over),
    }


def run(
    hints: int = 100, busy: int = 2, limit: float = 0.2, max_deadlines: tuple[float, ...] = (1.0, 2.0, 3.0)
) -> dict[str, object]:
    positions = record_positions(hints)
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", f"import time\nend=time.time()+{BUSY_SECONDS}\nwhile time.time()<end: pass"]
        )
        for _ in range(busy)
    ]
    server = CampsolverServer(ServerConfig(port=0, workers=2))
    server.start()
    figures: dict[str, object] = {
        "hints": hints,
        "busy_loops": busy,
        "limit_s": limit,
        "seed_base": SEED_BASE,
        "record_lengths_p50": float(np.median([len(r) for _, r in positions])),
    }
    try:
        with CampsolverClient(server.address) as client:
            client.wait_ready(timeout=120)
            game = client.game("camper-tour")
            game.call("Hint", hint_request(*positions[0], 1.0), timeout=30)  # warm-up, not counted
            for mode in ("limit", "deadline"):
                walls, errors, fallbacks = [], {}, 0
                for state, record in positions:
                    request = hint_request(state, record, limit if mode == "limit" else None)
                    timeout = limit + 2.0 if mode == "limit" else limit
                    started = time.perf_counter()
                    try:
                        response = game.call("Hint", request, timeout=timeout)
                    except CampsolverError as error:
                        errors[error.code.name] = errors.get(error.code.name, 0) + 1
                        continue
                    walls.append(time.perf_counter() - started)
                    fallbacks += response.stats.method.startswith("rule-of-thumb")
                figures[f"hint_{mode}"] = _summary(walls, limit, errors, fallbacks, len(positions))
            for deadline in max_deadlines:
                started = time.perf_counter()
                try:
                    answer = game.call("MaxScore", pb.CamperTourServiceMaxScoreRequest(), timeout=deadline)
                    figures[f"max_{deadline:g}s"] = {
                        "wall_s": time.perf_counter() - started,
                        "expected_score": answer.expected_score,
                        "proof": common_pb2.ProofStatus.Name(answer.proof),
                        "samples": answer.stats.samples,
                        "note": answer.note,
                    }
                except CampsolverError as error:
                    figures[f"max_{deadline:g}s"] = {"wall_s": time.perf_counter() - started, "error": error.code.name}
    except grpc.FutureTimeoutError:
        raise SystemExit("the server did not come up") from None
    finally:
        server.stop(grace_s=1.0)
        for loop in loops:
            loop.kill()
            loop.wait()
    rows = []
    for mode in ("limit", "deadline"):
        f = figures[f"hint_{mode}"]
        assert isinstance(f, dict)
        rows.append(
            {
                "what": f"hint ({mode} {limit:g} s)",
                "answered": f"{f['answered']}/{f['calls']}",
                "errors": str(f["errors"]),
                "rule of thumb": f["rule_of_thumb_answers"],
                "overrun p99 ms": f"{1000 * f['overrun_p99_s']:.0f}",
                "max ms": f"{1000 * f['overrun_max_s']:.0f}",
            }
        )
    for deadline in max_deadlines:
        f = figures[f"max_{deadline:g}s"]
        assert isinstance(f, dict)
        rows.append(
            {
                "what": f"max ({deadline:g} s)",
                "answered": "error" not in f,
                "errors": f.get("error", ""),
                "rule of thumb": f.get("proof", ""),
                "overrun p99 ms": f"{1000 * (f['wall_s'] - deadline):.0f}",
                "max ms": f"{f.get('expected_score', 0):.2f}",
            }
        )
    print_table("Camper Tour under a deadline, busy machine", rows)
    write_json("camper_tour_deadline", figures)
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hints", type=int, default=100)
    parser.add_argument("--busy", type=int, default=2)
    parser.add_argument("--limit", type=float, default=0.2)
    args = parser.parse_args()
    run(args.hints, args.busy, args.limit)

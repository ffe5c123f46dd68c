"""CPU of the Deluxe Camping hint's rule-of-thumb answer (what the server sends with no time left to search).

    python -m bench.deluxe_camping_fallback [--seeds 30 27 0 5 1 2] [--calls 20] [--rounds 5]

Each position (bench.hint_trust's seeded hint positions) is answered `calls` times in a row with a spent budget,
as `dispatch.rule_of_thumb_answer` calls the handler, `rounds` times; the table gives the median round's CPU a call
(process time, so load on other cores does not count), the answer's size, and the part that is the rules model's
legal-move list (which any complete answer needs). Writes bench/results/deluxe_camping_fallback.json.
"""

from __future__ import annotations

import argparse
import statistics
import time

from campsolver.service.games import deluxe_camping as service
from campsolver.solver.core.budget import Budget

from bench.common import print_table, write_json
from bench.hint_trust import dc_request


def cpu_per_call(work: object, calls: int, rounds: int) -> float:
    """The median round's CPU seconds per call of `work()`."""
    per_round = []
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(calls):
            work()  # type: ignore[operator]
        per_round.append((time.process_time() - started) / calls)
    return statistics.median(per_round)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[30, 27, 0, 5, 1, 2])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for seed in args.seeds:
        request = dc_request(seed, 0.3)

        def answer(request: object = request) -> object:
            now = time.monotonic()
            return service.hint(request, Budget.until(now, now))  # type: ignore[arg-type]

        response = answer()
        cpu = cpu_per_call(answer, args.calls, args.rounds)
        legal = cpu_per_call(
            lambda request=request: service.state_from_proto(request.state).legal_actions(), args.calls, args.rounds
        )
        rows.append(
            {
                "seed": seed,
                "stage": service.state_from_proto(request.state).stage.value,
                "choices": len(response.alternatives),
                "bytes": response.ByteSize(),
                "cpu_ms": round(cpu * 1e3, 3),
                "parse_and_legal_ms": round(legal * 1e3, 3),
                "us_per_choice": round(cpu / max(1, len(response.alternatives)) * 1e6, 1),
            }
        )
    print_table("Deluxe Camping hint, rule-of-thumb answer (spent budget): CPU a call", rows)
    write_json("deluxe_camping_fallback", {"calls": args.calls, "rounds": args.rounds, "rows": rows})


if __name__ == "__main__":
    main()

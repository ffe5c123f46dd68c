"""`make bench`: every benchmark in one run (so ratios compare like with like), tables on stdout, JSON files.

python -m bench [--only SUITE,SUITE,...] [--quick]   (the suites: SUITES below)
"""

from __future__ import annotations

import argparse
import importlib
import time

from bench.common import write_json

SUITES = (
    "camper-tour",
    "camper-tour-head-to-head",
    "grpc",
    "http",
    "load",
    "happy-campers-max",
    "happy-campers-proofs",
    "happy-campers-hint",
    "happy-campers-multiplayer",
    "happy-campers-puzzle",
    "deluxe-camping",
    "campsite",
    "adventure-tours",
    "batch",
)


def run_suite(name: str, quick: bool) -> None:
    started = time.monotonic()
    print(f"\n# {name}")
    if name == "camper-tour":
        importlib.import_module("bench.camper_tour").main()
    elif name == "camper-tour-head-to-head":
        # 12 pairings x 400 games at 0.2 s a hint move, on 2 worker processes (about 40 min for the 2-camper half
        # on a loaded machine; `python -m bench.camper_tour --head-to-head --max-minutes M` caps it): --quick plays 24
        importlib.import_module("bench.camper_tour").head_to_head_main(24 if quick else 400, 0.2, workers=2)
    elif name == "grpc":
        from bench import grpc_latency

        requests = grpc_latency.camper_tour_hint_requests(seed=1, n=20 if quick else 60)
        write_json("camper-tour_grpc_latency", grpc_latency.run("camper-tour", requests))
    elif name == "http":
        from bench import http_latency

        write_json("http_latency", http_latency.run(list(http_latency.GAME_TABLE), 30 if quick else 200, 0.01))
    elif name == "happy-campers-max":
        module = importlib.import_module("bench.happy_campers_max")
        module.main(["--quick"] if quick else [])
    elif name == "happy-campers-proofs":
        module = importlib.import_module("bench.happy_campers_max")
        module.main(["--proof-table", "--card-seeds", "2", "--pair-seeds", "1"] if quick else ["--proof-table"])
    elif name == "happy-campers-hint":
        module = importlib.import_module("bench.happy_campers_hint")
        module.main(["--quick"] if quick else [])
    elif name == "happy-campers-multiplayer":
        # 2 and 4 players x greedy / random opponents x 200 games, the hint at 64 rollouts a call (load-independent)
        module = importlib.import_module("bench.happy_campers_multiplayer")
        module.main(["--quick"] if quick else ["--rollouts", "64"])
    elif name == "load":
        module = importlib.import_module("bench.load")
        module.main(["--seconds", "15", "--label", "quick"] if quick else [])
    elif name == "happy-campers-puzzle":
        module = importlib.import_module("bench.happy_campers_puzzle")
        module.main(["--quick"] if quick else [])
    elif name == "deluxe-camping":
        importlib.import_module("bench.deluxe_camping").main(["--quick"] if quick else [])
    elif name == "campsite":
        module = importlib.import_module("bench.campsite")
        module.main(["--quick"] if quick else [])
    elif name == "adventure-tours":
        importlib.import_module("bench.adventure_tours").main(["--quick"] if quick else [])
    elif name == "batch":
        importlib.import_module("bench.batch").main(["--quick"] if quick else [])
    print(f"({name}: {time.monotonic() - started:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SUITES))
    parser.add_argument("--quick", action="store_true", help="smaller samples, for a smoke run")
    args = parser.parse_args()
    for name in args.only.split(","):
        if name not in SUITES:
            parser.error(f"unknown suite {name!r}; choose from {', '.join(SUITES)}")
        run_suite(name, args.quick)


if __name__ == "__main__":
    main()

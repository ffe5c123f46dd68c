"""`make bench`: every benchmark in one run (so ratios compare like with like), tables on stdout, JSON files.

    python -m bench [--only camper-tour,grpc,happy-campers-max,happy-campers-hint,batch] [--quick]
"""

from __future__ import annotations

import argparse
import importlib
import time

from bench.common import write_json

SUITES = ("camper-tour", "grpc", "happy-campers-max", "happy-campers-hint", "batch")


def run_suite(name: str, quick: bool) -> None:
    started = time.monotonic()
    print(f"\n# {name}")
    if name == "camper-tour":
        importlib.import_module("bench.camper_tour").main()
    elif name == "grpc":
        from bench import grpc_latency

        requests = grpc_latency.camper_tour_hint_requests(seed=1, n=20 if quick else 60)
        write_json("camper-tour_grpc_latency", grpc_latency.run("camper-tour", requests))
    elif name == "happy-campers-max":
        module = importlib.import_module("bench.happy_campers_max")
        module.main(["--quick"] if quick else [])
    elif name == "happy-campers-hint":
        module = importlib.import_module("bench.happy_campers_hint")
        module.main(["--quick"] if quick else [])
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

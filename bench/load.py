"""Load bench: many clients against one `campsolver serve` process, the way an operator probes it.

    python -m bench.load [--clients 32] [--rounds 3] [--seconds 60] [--workers 2] [--solve-in-process] [--label L]

The server runs in its own process (so client threads do not share its GIL and its memory can be read from
/proc); its solves run in worker processes unless --solve-in-process (the old layout, for a before/after).
First the cheap calls are timed from one idle client, then from one client while a quarter of the clients
keep the solver slots busy (the ratio the service controls: cheap calls must not wait for solves), then with
every client connected and the cheap ones paced below the server's throughput.
Then the rounds: a quarter of the clients ask for real solves (hints with a 0.5 s budget); the rest send
cheap calls (Score, LegalMoves), a request beyond the board size limit and bytes that are not a protobuf at
all, back to back. Per round: calls/s, RSS and CPU per call; over all rounds: p50/p99 per RPC and the status
codes each got.
Memory (server and, separately, its worker processes) must stay flat across rounds; Score p50 under load (all
clients, and only the solvers busy) should stay within 2x idle. The machine's load average is recorded at each
phase: other processes sharing the cores move every figure, so compare ratios from one run.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import grpc
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.games import happy_campers as hc_service

from bench.common import percentile, print_table, write_json
from campsolver.v1 import common_pb2
from campsolver.v1 import happy_campers_pb2 as hc_pb

ROOT = Path(__file__).resolve().parents[1]
#: Calls per second of each cheap client in the paced phase (24 such clients: about 240 calls/s offered).
PACED_RATE = 10.0
HC = "/campsolver.v1.HappyCampersService/"
CT = "/campsolver.v1.CamperTourService/"


def _too_big() -> bytes:
    request = hc_pb.HappyCampersServiceMaxScoreRequest(components=hc_pb.HappyCampersComponents(rows=13, cols=13))
    return request.SerializeToString()


def _hint(example: object, seconds: float) -> bytes:
    request = example()  # type: ignore[operator]
    request.options.CopyFrom(common_pb2.SolveOptions(time_limit_seconds=seconds, seed=1))
    return request.SerializeToString()


#: name -> (method path, request bytes). Cheap calls first; the solves last.
CHEAP_CALLS: dict[str, tuple[str, bytes]] = {
    "hc Score": (HC + "Score", hc_service.EXAMPLES["Score"]().SerializeToString()),
    "hc LegalMoves": (HC + "LegalMoves", hc_service.EXAMPLES["LegalMoves"]().SerializeToString()),
    "ct Score": (CT + "Score", ct_service.EXAMPLES["Score"]().SerializeToString()),
    "ct LegalMoves": (CT + "LegalMoves", ct_service.EXAMPLES["LegalMoves"]().SerializeToString()),
    "hc MaxScore 13x13": (HC + "MaxScore", _too_big()),
    "hc Score bad bytes": (HC + "Score", b"\x0a\x05\xff\xfe\xfd\xfc\xfb\x12\x99"),
}
SOLVE_CALLS: dict[str, tuple[str, bytes]] = {
    "ct Hint 0.5s": (CT + "Hint", _hint(ct_service.EXAMPLES["Hint"], 0.5)),
    "hc Hint 0.5s": (HC + "Hint", _hint(hc_service.EXAMPLES["Hint"], 0.5)),
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mib(pid: int) -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:  # exited meanwhile
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (the solver workers sit under the forkserver, a child of the server)."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            found.extend(children)
            pending.extend(children)
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far (0 once it has exited)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)


def load_average() -> float:
    """The 1-minute load average (2 cores shared with other work: above 2 means everything waits)."""
    return os.getloadavg()[0]


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.codes: dict[str, Counter[str]] = defaultdict(Counter)
        self.calls = 0

    def add(self, name: str, seconds: float, code: str) -> None:
        with self.lock:
            self.latency[name].append(seconds)
            self.codes[name][code] += 1
            self.calls += 1


def call_once(channel: grpc.Channel, name: str, path: str, payload: bytes, recorder: Recorder) -> None:
    method = channel.unary_unary(path)  # bytes in, bytes out: the bench measures the server, not our client
    started = time.perf_counter()
    try:
        method(payload, timeout=10.0)
        code = "OK"
    except grpc.RpcError as error:
        code = error.code().name if isinstance(error, grpc.Call) else "UNKNOWN"
    recorder.add(name, time.perf_counter() - started, code)


def client_loop(
    address: str, index: int, stop: threading.Event, recorder: Recorder, cheap_rate: float | None = None
) -> None:
    """One client: every fourth asks for solves back to back, the others send cheap calls, back to back or (with
    `cheap_rate`) paced at that many calls per second, as real clients with something else to do are."""
    rng = random.Random(index)
    calls = SOLVE_CALLS if index % 4 == 0 else CHEAP_CALLS
    paced = cheap_rate if calls is CHEAP_CALLS else None
    names = list(calls)
    next_call = time.monotonic() + (rng.random() / paced if paced else 0.0)
    with grpc.insecure_channel(address) as channel:
        while not stop.is_set():
            if paced:
                stop.wait(max(next_call - time.monotonic(), 0.0))
                next_call += 1.0 / paced
                if stop.is_set():
                    break
            name = rng.choice(names)
            call_once(channel, name, *calls[name], recorder)


def idle_latency(address: str, repeats: int) -> dict[str, float]:
    recorder = Recorder()
    with grpc.insecure_channel(address) as channel:
        for name in ("hc Score", "ct Score", "hc LegalMoves"):
            call_once(channel, name, *CHEAP_CALLS[name], Recorder())  # warm-up
            for _ in range(repeats):
                call_once(channel, name, *CHEAP_CALLS[name], recorder)
    return {name: percentile(values, 50) * 1000 for name, values in recorder.latency.items()}


@contextmanager
def clients_running(address: str, indices: Sequence[int], recorder: Recorder, rate: float | None = None):
    """`client_loop` threads (one per index) calling while the block runs; stopped and joined when it ends."""
    stop = threading.Event()
    threads = [
        threading.Thread(target=client_loop, args=(address, index, stop, recorder, rate), daemon=True)
        for index in indices
    ]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)


def score_under_solves(address: str, solvers: int, seconds: float) -> dict[str, float]:
    """Score latency from one sequential client while `solvers` clients keep every solver slot busy.

    This isolates what the service controls (cheap calls must not wait behind solves) from what it cannot
    (two dozen cheap clients competing with each other for two shared cores).
    """
    recorder, probe = Recorder(), Recorder()
    with clients_running(address, [4 * i for i in range(solvers)], recorder):
        deadline = time.monotonic() + seconds
        with grpc.insecure_channel(address) as channel:
            while time.monotonic() < deadline:
                call_once(channel, "hc Score", *CHEAP_CALLS["hc Score"], probe)
    values = probe.latency["hc Score"]
    return {"n": len(values), "p50_ms": percentile(values, 50) * 1000, "p99_ms": percentile(values, 99) * 1000}


def paced_latency(address: str, clients: int, rate: float, seconds: float) -> dict[str, float]:
    """Cheap-call latency with every client connected and the solvers busy, the cheap clients paced at `rate`
    calls/s each: load below the server's throughput, so latency is not just the closed loop's queue (Little's
    law: back-to-back clients wait N / throughput whatever the server does)."""
    recorder = Recorder()
    with clients_running(address, range(clients), recorder, rate):
        time.sleep(seconds)
    values = recorder.latency["hc Score"]
    cheap = sum(len(recorder.latency[name]) for name in CHEAP_CALLS)
    return {
        "rate_per_client": rate,
        "cheap_calls_per_s": cheap / seconds,
        "n": len(values),
        "p50_ms": percentile(values, 50) * 1000,
        "p99_ms": percentile(values, 99) * 1000,
        "load_avg": load_average(),
    }


def run(clients: int, rounds: int, seconds: float, workers: int, in_process: bool = False) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "campsolver",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            *(["--solve-in-process"] if in_process else []),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = f"127.0.0.1:{port}"
    try:
        assert server.stdout is not None and "listening" in server.stdout.readline()
        with grpc.insecure_channel(address) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
        load_idle = load_average()
        idle = idle_latency(address, 50)
        under_solves = score_under_solves(address, max(clients // 4, 1), seconds / 2)
        under_solves["load_avg"] = load_average()
        paced = paced_latency(address, clients, PACED_RATE, seconds / 2)
        overall = Recorder()
        round_rows = []
        for round_index in range(rounds):
            recorder = Recorder()
            started = time.monotonic()
            server_cpu = cpu_seconds(server.pid)
            workers_cpu = {child: cpu_seconds(child) for child in descendants(server.pid)}
            with clients_running(address, range(clients), recorder):
                time.sleep(seconds)
            elapsed = time.monotonic() - started
            server_cpu = cpu_seconds(server.pid) - server_cpu
            workers_cpu_s = sum(cpu_seconds(child) - workers_cpu.get(child, 0.0) for child in descendants(server.pid))
            cheap_calls = sum(len(recorder.latency[name]) for name in CHEAP_CALLS)
            round_rows.append(
                {
                    "round": round_index + 1,
                    "calls": recorder.calls,
                    "calls_per_s": recorder.calls / elapsed,
                    "server_rss_mib": rss_mib(server.pid),
                    "workers_rss_mib": sum(rss_mib(child) for child in descendants(server.pid)),
                    "server_cpu_s": server_cpu,
                    "workers_cpu_s": workers_cpu_s,
                    "server_cpu_ms_per_call": 1000 * server_cpu / max(recorder.calls, 1),
                    "cheap_calls_per_s": cheap_calls / elapsed,
                    "hc_score_p50_ms": percentile(recorder.latency["hc Score"], 50) * 1000,
                    "errors": " ".join(
                        f"{code}:{n}"
                        for code, n in sorted(sum((recorder.codes[name] for name in recorder.codes), Counter()).items())
                        if code != "OK"
                    ),
                    "load_avg": load_average(),
                }
            )
            for name, values in recorder.latency.items():
                overall.latency[name].extend(values)
                overall.codes[name].update(recorder.codes[name])
        per_rpc = []
        for name in [*CHEAP_CALLS, *SOLVE_CALLS]:
            values = overall.latency.get(name, [])
            per_rpc.append(
                {
                    "rpc": name,
                    "n": len(values),
                    "p50_ms": percentile(values, 50) * 1000,
                    "p99_ms": percentile(values, 99) * 1000,
                    "codes": " ".join(f"{code}:{n}" for code, n in sorted(overall.codes[name].items())),
                }
            )
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
    return {
        "clients": clients,
        "rounds": rounds,
        "seconds_per_round": seconds,
        "workers": workers,
        "solve_in_process": in_process,
        "idle_p50_ms": idle,
        "idle_load_avg": load_idle,
        "score_while_solvers_busy": under_solves,
        "score_with_paced_clients": paced,
        "rounds_table": round_rows,
        "per_rpc": per_rpc,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--solve-in-process", action="store_true", help="the server solves on its own threads (the old layout)"
    )
    parser.add_argument("--label", default="", help="suffix of the JSON file (e.g. before / after)")
    args = parser.parse_args(argv)
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    result = run(args.clients, args.rounds, args.seconds, args.workers, args.solve_in_process)
    layout = "in-process solves" if args.solve_in_process else "worker processes"
    print_table(
        f"load: {args.clients} clients x {args.rounds} rounds x {args.seconds:g} s, --workers {args.workers} "
        f"({layout})",
        result["rounds_table"],
    )
    print_table(
        "latency per RPC over all rounds (idle p50: "
        + ", ".join(f"{name} {ms:.2f} ms" for name, ms in result["idle_p50_ms"].items())
        + ")",
        result["per_rpc"],
    )
    probe = result["score_while_solvers_busy"]
    print(
        f"\nhc Score from one client while {max(args.clients // 4, 1)} clients keep the solvers busy: "
        f"p50 {probe['p50_ms']:.2f} ms, p99 {probe['p99_ms']:.2f} ms (n={probe['n']}; idle p50 "
        f"{result['idle_p50_ms']['hc Score']:.2f} ms, load avg {result['idle_load_avg']:.2f}; "
        f"ratio {probe['p50_ms'] / result['idle_p50_ms']['hc Score']:.2f}x, load avg {probe['load_avg']:.2f})"
    )
    paced = result["score_with_paced_clients"]
    print(
        f"hc Score with all {args.clients} clients connected, solvers busy, cheap clients paced at "
        f"{paced['rate_per_client']:g}/s ({paced['cheap_calls_per_s']:.0f} cheap calls/s): "
        f"p50 {paced['p50_ms']:.2f} ms "
        f"= {paced['p50_ms'] / result['idle_p50_ms']['hc Score']:.2f}x idle, p99 {paced['p99_ms']:.2f} ms "
        f"(n={paced['n']}, load avg {paced['load_avg']:.2f})"
    )
    under_load = next(row for row in result["per_rpc"] if row["rpc"] == "hc Score")
    print(
        f"hc Score p50 with all {args.clients} clients: {under_load['p50_ms']:.2f} ms = "
        f"{under_load['p50_ms'] / result['idle_p50_ms']['hc Score']:.2f}x idle"
    )
    write_json("load" + (f"_{args.label}" if args.label else ""), result)


if __name__ == "__main__":
    main()

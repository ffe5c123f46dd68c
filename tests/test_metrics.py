"""What an operator reads moves with what the service does: `/metrics` on the HTTP port (calls by transport, game,
RPC and code; latency; hint fallbacks by reason; solver slots busy and queued; worker restarts; CP-SAT solve
seconds; CPU seconds) and one access-log line per call, as JSON with `campsolver serve --log-format json`.

Each test reads the counters before and after what it does, so the order of tests does not matter.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from campsolver.clients.client import CampsolverClient, CampsolverError
from campsolver.clients.http_client import PROTOCOLS, HttpCampsolverClient
from campsolver.service import dispatch
from campsolver.service.games import camper_tour as ct_service
from campsolver.service.metrics import CallRecord, JsonFormatter, Metrics, fallback_reason
from campsolver.service.registry import games
from campsolver.service.server import CampsolverServer, ServerConfig
from prometheus_client.parser import text_string_to_metric_families

from tests.test_service import long_hint_request

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, http_port=0, workers=1))
    running.start()
    assert running.http is not None and running.http.wait_started()
    yield running
    running.stop(grace_s=2.0)


@pytest.fixture(scope="module")
def client(server: CampsolverServer) -> Iterator[CampsolverClient]:
    with CampsolverClient(server.address) as connected:
        connected.wait_ready()
        yield connected


def scrape(server: CampsolverServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of `/metrics`: (name, sorted labels) -> value."""
    assert server.http is not None
    with urllib.request.urlopen(f"{server.http.url}/metrics", timeout=30) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_calls_are_counted_by_transport_game_rpc_and_code(server: CampsolverServer, client: CampsolverClient) -> None:
    assert server.http is not None
    before = scrape(server)
    request = ct_service.EXAMPLES["Score"]()
    client.camper_tour.score(request, timeout=30)
    bad = long_hint_request(1.0)
    bad.options.time_limit_seconds = -1.0
    with pytest.raises(CampsolverError):
        client.camper_tour.hint(bad, timeout=30)
    for protocol in PROTOCOLS:
        with HttpCampsolverClient(server.http.url, protocol) as http:
            http.call("camper-tour", "Score", request, timeout=30)
    after = scrape(server)

    def moved(transport: str, rpc: str, code: str) -> float:
        labels = {"transport": transport, "game": "camper-tour", "rpc": rpc, "code": code}
        return value(after, "campsolver_calls_total", **labels) - value(before, "campsolver_calls_total", **labels)

    assert moved("grpc", "Score", "OK") == 1
    assert moved("grpc", "Hint", "INVALID_ARGUMENT") == 1
    assert moved("connect", "Score", "OK") == 2  # JSON and binary
    assert moved("grpc-web", "Score", "OK") == 1
    count = "campsolver_call_seconds_count"
    assert (
        value(after, count, game="camper-tour", rpc="Score") - value(before, count, game="camper-tour", rpc="Score")
        == 4
    )
    buckets = [
        v
        for (name, labels), v in after.items()
        if name == "campsolver_call_seconds_bucket" and ("rpc", "Score") in labels and ("game", "camper-tour") in labels
    ]
    assert buckets and max(buckets) >= 4  # the +Inf bucket holds them all


def test_a_library_error_before_any_handler_is_counted_too(server: CampsolverServer) -> None:
    assert server.http is not None
    before = scrape(server)
    url = f"{server.http.url}/{games()['campsite'].service_full_name}/Score"
    request = urllib.request.Request(url, data=b"{not json", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(request, timeout=30)
    labels = {"transport": "connect", "game": "campsite", "rpc": "Score", "code": "INVALID_ARGUMENT"}
    assert (
        value(scrape(server), "campsolver_calls_total", **labels)
        == value(before, "campsolver_calls_total", **labels) + 1
    )


def test_a_hint_fallback_is_counted_by_its_reason(server: CampsolverServer, client: CampsolverClient) -> None:
    before = scrape(server)
    # A 0.12 s deadline leaves a budget below dispatch.MIN_SEARCH_S: the rule of thumb's move, answered at once.
    request = ct_service.EXAMPLES["Hint"]()
    response = client.camper_tour.hint(request, timeout=0.12)
    assert response.stats.fallback == dispatch.NO_TIME
    after = scrape(server)
    assert (
        value(after, "campsolver_hint_fallbacks_total", game="camper-tour", reason="no_time")
        == value(before, "campsolver_hint_fallbacks_total", game="camper-tour", reason="no_time") + 1
    )


def test_solver_slots_busy_and_queued_are_read_at_each_scrape(
    server: CampsolverServer, client: CampsolverClient
) -> None:
    samples = scrape(server)
    assert value(samples, "campsolver_solver_slots") == 1
    assert value(samples, "campsolver_solver_slots_busy") == 0
    holder = client.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
    waiter = None
    try:
        assert server.gate.wait_busy(1, timeout_s=60)
        waiter = client.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
        for _ in range(200):  # the second call reaches the gate and waits there
            if server.gate.waiting:
                break
            threading_wait(0.05)
        samples = scrape(server)
        assert value(samples, "campsolver_solver_slots_busy") == 1
        assert value(samples, "campsolver_solver_calls_queued") == 1
    finally:
        holder.cancel()
        if waiter is not None:
            waiter.cancel()
    assert server.gate.wait_idle(timeout_s=30)


def threading_wait(seconds: float) -> None:
    import threading

    threading.Event().wait(seconds)


def test_worker_restarts_and_cpu_seconds_move(server: CampsolverServer, client: CampsolverClient) -> None:
    assert server.pool is not None
    before = scrape(server)
    future = client.camper_tour.call_future("Hint", long_hint_request(60.0), timeout=120)
    assert server.gate.wait_busy(1, timeout_s=60)
    (victim,) = server.pool.busy_pids()
    os.kill(victim, signal.SIGKILL)
    with pytest.raises(grpc.RpcError):
        future.result(timeout=60)
    assert server.gate.wait_idle(timeout_s=120)
    client.camper_tour.hint(long_hint_request(1.0), timeout=60)  # a solve in the replacement, with its CPU
    after = scrape(server)
    assert value(after, "campsolver_worker_restarts_total") == value(before, "campsolver_worker_restarts_total") + 1
    labels = {"transport": "grpc", "game": "camper-tour", "rpc": "Hint", "code": "INTERNAL"}
    assert value(after, "campsolver_calls_total", **labels) == value(before, "campsolver_calls_total", **labels) + 1
    cpu = "campsolver_call_cpu_seconds_total"
    assert (
        value(after, cpu, game="camper-tour", rpc="Hint") - value(before, cpu, game="camper-tour", rpc="Hint") > 0.01
    )  # the worker's search


def test_cp_sat_solve_seconds_come_back_from_the_worker(server: CampsolverServer, client: CampsolverClient) -> None:
    before = scrape(server)
    request = games()["deluxe-camping"].by_rpc("MaxScore").example()
    request.options.time_limit_seconds = 1.0
    client.deluxe_camping.max_score(request, timeout=60)
    after = scrape(server)
    name = "campsolver_cpsat_solve_seconds_count"
    assert value(after, name, game="deluxe-camping") > value(before, name, game="deluxe-camping")
    total = "campsolver_cpsat_solve_seconds_sum"
    assert 0 < value(after, total, game="deluxe-camping") - value(before, total, game="deluxe-camping") < 5


def test_a_hint_whose_search_valued_nothing_counts_as_a_search_fallback() -> None:
    from campsolver.service.games import deluxe_camping as dc_service
    from campsolver.service.metrics import SEARCH_VALUED_NOTHING
    from campsolver.solver.core.budget import Budget

    now = __import__("time").monotonic()
    spent = Budget.until(now - 1.0, now)  # the game's own rule of thumb, no stats.fallback: only a note says so
    response = dc_service.hint(dc_service.EXAMPLES["Hint"](), spent)
    assert not response.stats.fallback and not response.alternatives[0].ranking.HasField("value")
    record = CallRecord("grpc", "deluxe-camping", "Hint")
    record.note_response(response)
    assert record.fallback == SEARCH_VALUED_NOTHING and fallback_reason(record.fallback) == "search"
    searched = dc_service.hint(dc_service.EXAMPLES["Hint"](), Budget(2.0))
    record = CallRecord("grpc", "deluxe-camping", "Hint")
    record.note_response(searched)
    assert record.fallback == ""


def test_fallback_reasons_are_few_and_named() -> None:
    assert fallback_reason("") == ""
    assert fallback_reason(dispatch.NO_SLOT) == "no_slot"
    assert fallback_reason(dispatch.LATE_WORKER) == "late_worker"
    assert fallback_reason("the rule of thumb's move (race), not valued: no playout finished") == "search"


def test_an_access_line_has_every_field_as_json(caplog: pytest.LogCaptureFixture) -> None:
    metrics = Metrics(lambda: (2, 0, 0), lambda: 0)
    record = CallRecord("grpc", "camper-tour", "Hint")
    record.server_cpu_s, record.worker_cpu_s, record.fallback = 0.002, 0.25, dispatch.NO_SLOT
    record.code = "OK"
    with caplog.at_level(logging.INFO, logger="campsolver.access"):
        metrics.finish(record)
    (line,) = [r for r in caplog.records if r.name == "campsolver.access"]
    fields = json.loads(JsonFormatter().format(line))
    assert fields["event"] == "call" and fields["logger"] == "campsolver.access"
    assert (fields["transport"], fields["game"], fields["rpc"], fields["code"]) == ("grpc", "camper-tour", "Hint", "OK")
    assert fields["cpu_s"] == pytest.approx(0.252) and fields["worker_cpu_s"] == pytest.approx(0.25)
    assert fields["wall_s"] >= 0 and fields["fallback"] == "no_slot" and fields["fallback_text"] == dispatch.NO_SLOT


def test_serve_log_format_json_writes_one_json_line_per_call(tmp_path: Path) -> None:
    from bench.load import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "campsolver",
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--log-format",
            "json",
            "--drain-announce-seconds",
            "0",
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None and "listening" in server.stdout.readline()
        with CampsolverClient(f"127.0.0.1:{port}") as client:
            client.wait_ready()
            client.camper_tour.score(ct_service.EXAMPLES["Score"](), timeout=30)
            client.camper_tour.hint(long_hint_request(1.0), timeout=30)
            with pytest.raises(CampsolverError):
                client.camper_tour.legal_moves(type(ct_service.EXAMPLES["Score"]())(), timeout=30)
    finally:
        server.send_signal(signal.SIGINT)
        _out, err = server.communicate(timeout=60)
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert len(lines) == len(err.splitlines()), err[:2000]  # every log line is JSON
    calls = [line for line in lines if line.get("event") == "call"]
    assert [(c["game"], c["rpc"], c["code"]) for c in calls] == [
        ("camper-tour", "Score", "OK"),
        ("camper-tour", "Hint", "OK"),
        ("camper-tour", "LegalMoves", "INVALID_ARGUMENT"),
    ]
    for call in calls:
        assert {
            "time",
            "level",
            "transport",
            "wall_s",
            "cpu_s",
            "server_cpu_s",
            "worker_cpu_s",
            "fallback",
            "cpsat_solves",
        } <= set(call)
    # The hint's search ran in the worker, and its CPU came back (more than the server's part, even when loaded).
    assert calls[1]["worker_cpu_s"] > 0.01 and calls[0]["worker_cpu_s"] == 0

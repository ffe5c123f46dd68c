"""What an operator reads: Prometheus metrics (`/metrics` on the HTTP port) and one access-log line per call.

Everything is collected in the serving process, whatever runs where: a call's outcome is recorded where the
gRPC or HTTP handler answers it, and a solver worker sends what only it knows (its CPU seconds, its CP-SAT solve
times, a fallback it answered) back with its answer (`service.workers`). The worker processes have no registry of
their own, so `--workers N` needs no multiprocess mode and a worker that is replaced loses nothing.

Metrics (prometheus_client, in the server's own registry):
- `campsolver_calls_total{transport,game,rpc,code}`: calls answered, by the gRPC code the client got;
- `campsolver_call_seconds{game,rpc}`: wall seconds from the call's arrival to its answer (histogram);
- `campsolver_call_cpu_seconds_total{game,rpc}`: CPU seconds the calls cost, server thread plus solver worker;
- `campsolver_hint_fallbacks_total{game,reason}`: hints answered with their rule of thumb's move, by why
  (`FALLBACK_REASONS`);
- `campsolver_cpsat_solve_seconds{game}`: wall seconds of each CP-SAT solve (histogram);
- `campsolver_solver_slots`, `campsolver_solver_slots_busy`, `campsolver_solver_calls_queued`: the solver slots,
  those in use and the calls waiting for one, read at each scrape;
- `campsolver_worker_restarts_total`: solver workers replaced after a crash or a kill;
- `campsolver_http_connections_closed_total{reason}`: HTTP connections closed by the server's limits
  (header_timeout, body_timeout, too_many_connections).

The access log (logger `campsolver.access`, INFO): transport, game, RPC, code, wall and CPU seconds (server and
worker), the fallback reason; `--log-format json` writes every log line, these included, as one JSON object.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from campsolver.service import dispatch
from campsolver.solver.core import cpsat
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

access_log = logging.getLogger("campsolver.access")

#: `stats.fallback` texts of the service (`service.dispatch`) -> the reason label; a game's own fallback (its
#: search stopped before valuing anything) counts as "search".
FALLBACK_REASONS: dict[str, str] = {
    dispatch.NO_SLOT: "no_slot",
    dispatch.NO_STEP: "no_step",
    dispatch.NO_TIME: "no_time",
    dispatch.STARTING: "workers_starting",
    dispatch.LATE_WORKER: "late_worker",
}
#: The fallback text of a hint whose own search valued no move (a game that says so only in its move's note).
SEARCH_VALUED_NOTHING = "the hint's search valued no move before its budget ended: the rule of thumb's move first"
#: Wall-second buckets of the call latency: cheap calls in milliseconds, solves up to the 600 s cap.
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 600.0)
CPSAT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 600.0)


def fallback_reason(text: str) -> str:
    """The reason label of a hint's `stats.fallback` ("" when it searched)."""
    if not text:
        return ""
    return FALLBACK_REASONS.get(text, "search")


@dataclass
class CallRecord:
    """One call as it goes: filled in by the handler, the solver worker and the transport, then `finish`ed."""

    transport: str  # grpc, connect or grpc-web
    game: str
    rpc: str
    started: float = field(default_factory=time.monotonic)
    thread_cpu_started: float = field(default_factory=time.thread_time)
    server_cpu_s: float = 0.0
    worker_cpu_s: float = 0.0
    cpsat_s: list[float] = field(default_factory=list)
    fallback: str = ""  # the response's stats.fallback text
    code: str = "OK"
    deadline_s: float | None = None  # seconds the call's deadline left it when it arrived (None: no deadline)

    def take_thread_cpu(self) -> None:
        """Count the CPU the current thread spent on the call since `thread_cpu_started` (then start again)."""
        now = time.thread_time()
        self.server_cpu_s += max(now - self.thread_cpu_started, 0.0)
        self.thread_cpu_started = now

    def note_response(self, response: Any) -> None:
        """Read the fallback of a hint's response: its `stats.fallback`, or, where a game says it only in the
        move's note (Deluxe Camping, Adventure Tours), a first move listed without a value."""
        if self.rpc != "Hint":
            return
        stats = getattr(response, "stats", None)
        text = getattr(stats, "fallback", "") if stats is not None else ""
        alternatives = getattr(response, "alternatives", None)
        if not text and alternatives and not alternatives[0].ranking.HasField("value"):
            text = SEARCH_VALUED_NOTHING
        if text:
            self.fallback = text

    def note_worker(self, info: dict[str, Any] | None) -> None:
        """What a solver worker sent back with its answer."""
        if not info:
            return
        self.worker_cpu_s += float(info.get("cpu_s", 0.0))
        self.cpsat_s.extend(float(s) for s in info.get("cpsat_s", ()))
        if info.get("fallback"):
            self.fallback = str(info["fallback"])


#: The call whose CP-SAT solves this thread records (in-process solves; a worker keeps its own list).
_current = threading.local()


def record_cpsat_solves(record: CallRecord | None) -> None:
    """CP-SAT solves on this thread count for `record` from now on (None: for nobody)."""
    _current.record = record


def _on_cpsat_solve(wall_s: float) -> None:
    record = getattr(_current, "record", None)
    if record is not None:
        record.cpsat_s.append(wall_s)


cpsat.add_solve_observer(_on_cpsat_solve)


class _LiveState(Collector):
    """Gauges and counters read from the server's live objects at each scrape (the solver gate, the pool)."""

    def __init__(self, slots: Callable[[], tuple[int, int, int]], restarts: Callable[[], int]) -> None:
        self._slots = slots
        self._restarts = restarts

    def collect(self) -> Iterable[Any]:
        total, busy, queued = self._slots()
        yield GaugeMetricFamily("campsolver_solver_slots", "Solver slots (solves at once, --workers).", value=total)
        yield GaugeMetricFamily("campsolver_solver_slots_busy", "Solver slots in use now.", value=busy)
        yield GaugeMetricFamily("campsolver_solver_calls_queued", "Calls waiting for a solver slot now.", value=queued)
        yield CounterMetricFamily(
            "campsolver_worker_restarts", "Solver workers replaced after a crash or a kill.", value=self._restarts()
        )


class Metrics:
    """The server's metrics registry and the one place a finished call is counted and logged."""

    def __init__(self, slots: Callable[[], tuple[int, int, int]], restarts: Callable[[], int]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.calls = Counter(
            "campsolver_calls",
            "Calls answered, by the gRPC status code the client got.",
            ["transport", "game", "rpc", "code"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "campsolver_call_seconds",
            "Wall seconds from a call's arrival to its answer.",
            ["game", "rpc"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.cpu = Counter(
            "campsolver_call_cpu_seconds",
            "CPU seconds of the calls: server thread and solver worker.",
            ["game", "rpc"],
            registry=self.registry,
        )
        self.fallbacks = Counter(
            "campsolver_hint_fallbacks",
            "Hints answered with their rule of thumb's move, by why.",
            ["game", "reason"],
            registry=self.registry,
        )
        self.cpsat = Histogram(
            "campsolver_cpsat_solve_seconds",
            "Wall seconds of each CP-SAT solve.",
            ["game"],
            buckets=CPSAT_BUCKETS,
            registry=self.registry,
        )
        self.http_closed = Counter(
            "campsolver_http_connections_closed",
            "HTTP connections the server closed: a request's headers or body late, or one connection too many.",
            ["reason"],
            registry=self.registry,
        )
        self.registry.register(_LiveState(slots, restarts))

    def finish(self, record: CallRecord) -> None:
        """Count `record` (its `code` set) and write its access-log line."""
        wall_s = time.monotonic() - record.started
        cpu_s = record.server_cpu_s + record.worker_cpu_s
        self.calls.labels(record.transport, record.game, record.rpc, record.code).inc()
        self.latency.labels(record.game, record.rpc).observe(wall_s)
        self.cpu.labels(record.game, record.rpc).inc(cpu_s)
        reason = fallback_reason(record.fallback)
        if reason:
            self.fallbacks.labels(record.game, reason).inc()
        for seconds in record.cpsat_s:
            self.cpsat.labels(record.game).observe(seconds)
        if access_log.isEnabledFor(logging.INFO):
            access_log.info(
                "%s %s %s %s %.3f s wall %.3f s cpu%s",
                record.transport,
                record.game,
                record.rpc,
                record.code,
                wall_s,
                cpu_s,
                f" fallback={reason}" if reason else "",
                extra={
                    "access": {
                        "transport": record.transport,
                        "game": record.game,
                        "rpc": record.rpc,
                        "code": record.code,
                        "wall_s": round(wall_s, 6),
                        "cpu_s": round(cpu_s, 6),
                        "server_cpu_s": round(record.server_cpu_s, 6),
                        "worker_cpu_s": round(record.worker_cpu_s, 6),
                        "fallback": reason,
                        "fallback_text": record.fallback,
                        "deadline_s": None if record.deadline_s is None else round(record.deadline_s, 6),
                        "cpsat_solves": len(record.cpsat_s),
                        "cpsat_s": round(sum(record.cpsat_s), 6),
                    }
                },
            )


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and an access line's fields at the
    top level."""

    converter = time.gmtime

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
        }
        access = getattr(record, "access", None)
        if isinstance(access, dict):
            line["event"] = "call"
            line.update(access)
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, separators=(",", ":"))


LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(log_format: str = "text") -> None:
    """The root logger at INFO on stderr, as text lines or one JSON object a line."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)

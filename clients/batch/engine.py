"""Run a job's tasks on Ray (or in this process) and record each one in the store the moment it finishes.

A task function is `fn(params, budget) -> dict` (JSON-serialisable). It runs under its own `Budget` of
`time_limit_s`, started on the worker when the task starts. An exception raised by the function is a task
failure, recorded with its one-line message and not retried (the same inputs fail the same way). A worker that
dies (killed, out of memory, node lost) is a system failure: Ray runs the task again, up to `retries` times.
Either way the store keeps one row per key: the driver is the only writer, and the key is the primary key.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from campsolver.clients.batch.progress import Progress
from campsolver.clients.batch.store import Store
from campsolver.solver.core.budget import Budget

TaskFunction = Callable[[dict[str, Any], Budget], dict[str, Any]]

#: Ray task retries on a worker failure (system failures only; an exception in the task is not retried).
DEFAULT_RETRIES = 3
#: Tasks in flight per CPU: enough to keep workers busy, few enough that a kill loses little running work.
INFLIGHT_PER_CPU = 2


@dataclass(frozen=True)
class Task:
    """One independent unit of work; `key` names it for the store and for the order of the outputs."""

    job: str
    game: str
    kind: str
    params: dict[str, Any] = field(hash=False)
    function: TaskFunction = field(hash=False, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.job}/{self.game}/{self.kind}/{json.dumps(self.params, sort_keys=True, separators=(',', ':'))}"


def execute(function: TaskFunction, params: dict[str, Any], time_limit_s: float) -> dict[str, Any]:
    """Run one task under its own budget; the outcome says ok or failed, never raises for a task error."""
    started = time.monotonic()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        result = function(params, Budget(time_limit_s))
    except Exception as error:  # a task error is data: recorded as the task's outcome
        message = " ".join(str(error).split()) or type(error).__name__
        return {"status": "failed", "result": None, "error": f"{type(error).__name__}: {message}",
                "wall_s": time.monotonic() - started, "worker": worker}
    return {"status": "ok", "result": result, "error": None, "wall_s": time.monotonic() - started, "worker": worker}


@dataclass
class RunReport:
    total: int
    resumed: int
    ran: int = 0
    failed: int = 0
    duplicates: int = 0
    wall_s: float = 0.0
    backend: str = ""
    startup_s: float = 0.0


class InProcess:
    """The plain loop in this process (the reference the bench compares Ray against)."""

    name = "in-process"
    cpus = 1

    def run(self, tasks: list[Task], time_limit_s: float, retries: int,
            on_done: Callable[[Task, dict[str, Any]], None]) -> None:
        for task in tasks:
            on_done(task, execute(task.function, task.params, time_limit_s))

    def close(self) -> None:
        pass


class RayBackend:
    """Ray tasks on a local instance started here (`address=None`) or on an existing cluster."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        import ray

        self._ray = ray
        started = time.monotonic()
        self._owns_instance = not ray.is_initialized()
        if self._owns_instance:
            options: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": "ERROR",
                "log_to_driver": False,
                "configure_logging": True,
            }
            if address:
                ray.init(address=address, **options)
            else:
                # "local": always a fresh instance of our own size, never a `ray start` cluster found by chance.
                ray.init(address="local", num_cpus=workers or os.cpu_count() or 1,
                         object_store_memory=100 * 1024 * 1024, **options)
        self.startup_s = time.monotonic() - started
        self.cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        self.name = f"ray ({self.cpus} CPU{'s' if self.cpus != 1 else ''}{', ' + address if address else ''})"
        self._remote = ray.remote(num_cpus=1)(execute)

    def run(self, tasks: list[Task], time_limit_s: float, retries: int,
            on_done: Callable[[Task, dict[str, Any]], None]) -> None:
        ray = self._ray
        remote = self._remote.options(max_retries=retries, retry_exceptions=False)
        queue = list(reversed(tasks))
        inflight: dict[Any, Task] = {}
        limit = max(self.cpus * INFLIGHT_PER_CPU, 2)
        while queue or inflight:
            while queue and len(inflight) < limit:
                task = queue.pop()
                inflight[remote.remote(task.function, task.params, time_limit_s)] = task
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
            for ref in ready:
                task = inflight.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as error:  # the worker died more often than the retries allow
                    message = " ".join(str(error).split())[:300]
                    outcome = {"status": "failed", "result": None, "error": f"{type(error).__name__}: {message}",
                               "wall_s": 0.0, "worker": "lost"}
                on_done(task, outcome)
            if not ready:
                on_done(None, {})  # type: ignore[arg-type]  # a tick: lets the progress bar refresh

    def close(self) -> None:
        if self._owns_instance:
            self._ray.shutdown()


def run_tasks(
    tasks: Iterable[Task],
    store: Store,
    backend: InProcess | RayBackend,
    *,
    time_limit_s: float,
    retries: int = DEFAULT_RETRIES,
    progress: Progress | None = None,
) -> RunReport:
    """Run every task not yet in the store; record each outcome as it arrives."""
    task_list = list(tasks)
    keys = [task.key for task in task_list]
    if len(set(keys)) != len(keys):
        raise ValueError("two tasks share a key")
    done = store.done_keys()
    todo = [task for task in task_list if task.key not in done]
    report = RunReport(total=len(task_list), resumed=len(task_list) - len(todo), backend=backend.name,
                       startup_s=getattr(backend, "startup_s", 0.0))
    if progress is not None:
        progress.start(total=len(task_list), already=report.resumed)
    started = time.monotonic()

    def on_done(task: Task | None, outcome: dict[str, Any]) -> None:
        if task is not None:
            fresh = store.record(key=task.key, job=task.job, game=task.game, kind=task.kind, params=task.params,
                                 status=outcome["status"], result=outcome["result"], error=outcome["error"],
                                 wall_s=outcome["wall_s"], worker=outcome["worker"])
            report.ran += fresh
            report.duplicates += not fresh
            report.failed += fresh and outcome["status"] == "failed"
            if progress is not None:
                progress.advance(failed=outcome["status"] == "failed")
        elif progress is not None:
            progress.refresh()

    backend.run(todo, time_limit_s, retries, on_done)
    report.wall_s = time.monotonic() - started
    if progress is not None:
        progress.finish()
    return report

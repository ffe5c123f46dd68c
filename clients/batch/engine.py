"""Run a job's tasks on Ray (or in this process) and record each one in the store the moment it finishes.

A task function is `fn(params, budget) -> dict` (JSON-serialisable). It runs under its own `Budget` of
`time_limit_s`, started on the worker when the task starts. An exception raised by the function is a task
failure, recorded with its one-line message and not retried (the same inputs fail the same way). A worker that
dies (killed, out of memory, node lost) is a system failure: Ray runs the task again, up to `retries` times.
Either way the store keeps one row per key: the driver is the only writer, and the key is the primary key.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import threading
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
#: A local Ray instance starts in 2-6 s on a loaded 2-core machine; a start still waiting after this long has
#: hung (seen once in CI: the GCS up, no raylet ever registered, `ray.init` waiting with no end).
RAY_START_TIMEOUT_S = 60.0
#: Start attempts: a hung or failed start is torn down and tried again before the batch gives up with an error.
#: Three, because on a 2-core machine under heavy load two starts in a row have failed (the GCS port file late,
#: then the raylet not registered within Ray's own fixed 30 s).
RAY_START_ATTEMPTS = 3
#: Ray runs its workers at niceness 15 by default. On a shared machine that starves them: under three busy
#: processes on 2 cores a CP-SAT task got 1.6 s of CPU in 60 s of wall time, its budget ran out, and it
#: answered a heuristic map where the same task in-process was proven optimal. A task's time limit is wall
#: time, so the local instance runs its workers at the niceness of the process that starts it.
LOCAL_RAY_SYSTEM_CONFIG: dict[str, Any] = {"worker_niceness": 0}


def is_ray_daemon(argv: list[bytes], ray_dir: bytes) -> bool:
    """Whether a command line runs a program from Ray's package (gcs_server, raylet, or a Python script of it):
    one of its arguments is a path inside `ray_dir`. Not a mere mention of Ray: the multiprocessing
    forkserver of the service's solver workers is a child of this process too, and its `-c` argument lists
    `sys.path`, which holds `.../ray/thirdparty_files` once Ray is imported; matching b"ray" anywhere in the
    command line killed it, and every solver worker then lost its next call (INTERNAL, "exit code 255")."""
    prefix = ray_dir.rstrip(b"/") + b"/"
    return any(argument.startswith(prefix) for argument in argv)


def _kill_own_ray_daemons() -> None:
    """SIGKILL this process's children that run Ray (gcs_server, raylet, ...), read from /proc (Linux)."""
    import ray

    ray_dir = os.fsencode(os.path.dirname(os.path.abspath(ray.__file__)))
    me = str(os.getpid())
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat_file:
                parent = stat_file.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline_file:
                argv = cmdline_file.read().split(b"\0")
        except OSError:
            continue
        if parent == me and is_ray_daemon(argv, ray_dir):
            with contextlib.suppress(OSError):  # it may have exited meanwhile
                os.kill(int(entry), signal.SIGKILL)


def tear_down_ray() -> None:
    """Undo a failed or hung start: `ray.shutdown`, then kill this process's own Ray daemons, since a start
    that failed inside the node's set-up left them running unknown to `shutdown`."""
    import ray

    ray.shutdown()
    _kill_own_ray_daemons()


class RayStartTimeout(RuntimeError):
    """`ray.init` did not return within its time limit (every attempt)."""


def call_with_start_timeout(
    start: Callable[[], None], teardown: Callable[[], None], timeout_s: float, attempts: int = RAY_START_ATTEMPTS
) -> None:
    """Run `start` (a `ray.init`) with a time limit, tearing down and retrying a start that hangs or fails.

    A start can fail outright too: in CI a local start once lost its raylet and dashboard at birth (the
    dashboard exited -6, only the GCS ever logged) and `ray.init` gave up after its own 30 s; the same start
    run again succeeds, so one failed attempt is torn down and retried like a hung one.

    Why a signal and not a thread: Ray ties its daemons' lives to the thread that spawned them
    (PR_SET_PDEATHSIG), so `ray.init` in a helper thread loses the GCS when that thread ends. An alarm in the
    main thread interrupts the Python wait loops `ray.init` spends its time in. Off the main thread (where
    signals cannot be set) the start runs without a limit, as before.
    """
    if threading.current_thread() is not threading.main_thread():
        start()
        return

    def expire(signum: int, frame: object) -> None:
        raise RayStartTimeout(f"Ray did not start within {timeout_s:g} s")

    for attempt in range(1, attempts + 1):
        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
        try:
            start()
            return
        except RayStartTimeout:
            teardown()
            if attempt == attempts:
                raise RayStartTimeout(f"Ray did not start within {timeout_s:g} s ({attempts} attempts)") from None
            print(f"Ray start attempt {attempt} hung for {timeout_s:g} s; retrying", file=sys.stderr)
        except Exception as error:
            teardown()
            if attempt == attempts:
                raise
            message = " ".join(str(error).split())[:200]
            print(f"Ray start attempt {attempt} failed ({message}); retrying", file=sys.stderr)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Task:
    """One independent unit of work; `key` names it for the store and for the order of the outputs."""

    job: str
    game: str
    kind: str
    params: dict[str, Any] = field(hash=False)
    function: TaskFunction = field(hash=False, compare=False, repr=False)
    #: CPUs the task keeps busy (a CP-SAT solve with two search workers needs two); Ray reserves that many so
    #: tasks never oversubscribe a node (capped at the largest node's CPUs so a small node still runs them).
    cpus: int = field(default=1, compare=False)

    @property
    def key(self) -> str:
        return f"{self.job}/{self.game}/{self.kind}/{json.dumps(self.params, sort_keys=True, separators=(',', ':'))}"


def worker_name() -> str:
    """Who ran a task, for the store's `worker` column: `host:pid`, and in a Ray worker `@` the Ray node id too,
    since two nodes can share a host (and a pid can recur across nodes) and a lost node is told apart by it."""
    name = f"{socket.gethostname()}:{os.getpid()}"
    ray = sys.modules.get("ray")  # never imported here just to ask: the in-process loop runs without Ray
    if ray is not None and ray.is_initialized():
        name += f"@{ray.get_runtime_context().get_node_id()}"
    return name


def execute(function: TaskFunction, params: dict[str, Any], time_limit_s: float) -> dict[str, Any]:
    """Run one task under its own budget; the outcome says ok or failed, never raises for a task error."""
    started = time.monotonic()
    cpu_started = time.process_time()  # this process's CPU (every thread of it, e.g. CP-SAT's search workers)
    worker = worker_name()
    try:
        result = function(params, Budget(time_limit_s))
    except Exception as error:  # a task error is data: recorded as the task's outcome
        message = " ".join(str(error).split()) or type(error).__name__
        return {
            "status": "failed",
            "result": None,
            "error": f"{type(error).__name__}: {message}",
            "wall_s": time.monotonic() - started,
            "cpu_s": time.process_time() - cpu_started,
            "worker": worker,
        }
    return {
        "status": "ok",
        "result": result,
        "error": None,
        "wall_s": time.monotonic() - started,
        "cpu_s": time.process_time() - cpu_started,
        "worker": worker,
    }


#: Modules every campsolver task needs: a warm worker has imported them before its first task.
WARM_MODULES = (
    "campsolver.service.dispatch",
    "campsolver.service.registry",
    "campsolver.clients.batch.service_calls",
    "ortools.sat.python.cp_model",
    "numpy",
)
#: A warm-up task holds its worker this long after importing, so that the warm-up tasks of one round land on
#: different workers instead of queueing on the first one that is free.
WARM_HOLD_S = 0.2


def warm_worker(modules: tuple[str, ...]) -> tuple[int, int]:
    """Import `modules` in this worker (the registry imports every game's service and solver); returns the pid
    and the worker's niceness (`LOCAL_RAY_SYSTEM_CONFIG` says why it matters)."""
    import importlib

    for name in modules:
        importlib.import_module(name)
    time.sleep(WARM_HOLD_S)
    return os.getpid(), os.getpriority(os.PRIO_PROCESS, 0)


def niceness_warning(worker_niceness: int, own_niceness: int) -> str | None:
    """One line for stderr when the cluster's workers run at a lower priority than the driver: their tasks
    then lose the CPU to any other work on the machine and their wall-time limits run out early."""
    if worker_niceness <= own_niceness:
        return None
    return (
        f"warning: the Ray workers run at niceness {worker_niceness} (this process: {own_niceness}); on a "
        f"loaded machine their tasks get little CPU and reach their time limits early. Start the cluster "
        f"with RAY_worker_niceness={own_niceness} (environment of `ray start`) to give them their share"
    )


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
    warmup_s: float = 0.0
    #: CPU seconds the tasks run here used (sum over tasks, in the process that ran each one).
    task_cpu_s: float = 0.0


class InProcess:
    """The plain loop in this process (the reference the bench compares Ray against)."""

    name = "in-process"
    cpus = 1

    def run(
        self, tasks: list[Task], time_limit_s: float, retries: int, on_done: Callable[[Task, dict[str, Any]], None]
    ) -> None:
        for task in tasks:
            on_done(task, execute(task.function, task.params, time_limit_s))

    def close(self) -> None:
        pass


class RayBackend:
    """Ray tasks on a local instance started here (`address=None`) or on an existing cluster.

    Driver overhead is kept off the critical path: every worker imports campsolver once before the first task
    (`warm`, timed apart as `warmup_s`), each task function is stored once in the object store (`ray.put`)
    instead of being pickled into every submission, submissions keep `INFLIGHT_PER_CPU` tasks per CPU queued,
    and each `ray.wait` collects every finished task at once and fetches their results in one `ray.get`.
    """

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        *,
        warm: bool = True,
        start_timeout_s: float = RAY_START_TIMEOUT_S,
    ) -> None:
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

                def start() -> None:
                    ray.init(address=address, **options)
            else:

                def start() -> None:
                    # "local": always a fresh instance of our own size, never a `ray start` cluster found by chance.
                    ray.init(
                        address="local",
                        num_cpus=workers or os.cpu_count() or 1,
                        object_store_memory=100 * 1024 * 1024,
                        _system_config=LOCAL_RAY_SYSTEM_CONFIG,
                        **options,
                    )

            call_with_start_timeout(start, tear_down_ray, start_timeout_s)
        self.startup_s = time.monotonic() - started
        self.cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        #: The most CPUs one node has: a task asking for more could never be placed (two 1-CPU nodes make a
        #: 2-CPU cluster, yet a 2-CPU task there waited forever), so a task's reservation is capped at this.
        self.node_cpus = max([int(node["Resources"].get("CPU", 0)) for node in ray.nodes() if node["Alive"]] + [1])
        self.name = f"ray ({self.cpus} CPU{'s' if self.cpus != 1 else ''}{', ' + address if address else ''})"
        self._remote = ray.remote(num_cpus=1)(execute)
        self._function_refs: dict[int, tuple[TaskFunction, Any]] = {}
        self.warmup_s = 0.0
        self.warm_pids: set[int] = set()
        self.worker_niceness: int | None = None  # known once `warm` has run
        if warm:
            self.warm()

    def warm(self, modules: tuple[str, ...] = WARM_MODULES) -> None:
        """One import round per CPU, all submitted at once (so each lands on its own worker)."""
        started = time.monotonic()
        remote = self._ray.remote(num_cpus=1)(warm_worker)
        warmed = self._ray.get([remote.remote(modules) for _ in range(self.cpus)])
        self.warm_pids = {pid for pid, _ in warmed}
        self.worker_niceness = max(niceness for _, niceness in warmed)
        self.warmup_s += time.monotonic() - started
        warning = niceness_warning(self.worker_niceness, os.getpriority(os.PRIO_PROCESS, 0))
        if warning:
            print(warning, file=sys.stderr)

    def _function_ref(self, function: TaskFunction) -> Any:
        cached = self._function_refs.get(id(function))
        if cached is None or cached[0] is not function:
            cached = (function, self._ray.put(function))
            self._function_refs[id(function)] = cached
        return cached[1]

    def run(
        self, tasks: list[Task], time_limit_s: float, retries: int, on_done: Callable[[Task, dict[str, Any]], None]
    ) -> None:
        ray = self._ray
        by_cpus = {
            cpus: self._remote.options(max_retries=retries, retry_exceptions=False, num_cpus=cpus)
            for cpus in {min(t.cpus, self.node_cpus) for t in tasks}
        }
        queue = list(reversed(tasks))
        inflight: dict[Any, Task] = {}
        busy = 0  # CPUs reserved by the tasks in flight
        limit = max(self.cpus * INFLIGHT_PER_CPU, 2)
        while queue or inflight:
            while queue and (busy < limit or not inflight):
                task = queue.pop()
                cpus = min(task.cpus, self.node_cpus)
                inflight[by_cpus[cpus].remote(self._function_ref(task.function), task.params, time_limit_s)] = task
                busy += cpus
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
            if ready and len(inflight) > 1:  # everything else that has finished too, in one round trip
                ready, _ = ray.wait(list(inflight), num_returns=len(inflight), timeout=0)
            outcomes: list[Any]
            try:
                outcomes = ray.get(ready)
            except Exception:  # some task lost its worker too often: fetch one by one to tell which
                outcomes = [_get_or_lost(ray, ref) for ref in ready]
            for ref, outcome in zip(ready, outcomes, strict=True):
                task = inflight.pop(ref)
                busy -= min(task.cpus, self.node_cpus)
                on_done(task, outcome)
            if not ready:
                on_done(None, {})  # type: ignore[arg-type]  # a tick: lets the progress bar refresh

    def close(self) -> None:
        if self._owns_instance:
            self._ray.shutdown()


def _get_or_lost(ray: Any, ref: Any) -> dict[str, Any]:
    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except Exception as error:  # the worker died more often than the retries allow
        message = " ".join(str(error).split())[:300]
        return {
            "status": "failed",
            "result": None,
            "error": f"{type(error).__name__}: {message}",
            "wall_s": 0.0,
            "cpu_s": 0.0,
            "worker": "lost",
        }


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
    report = RunReport(
        total=len(task_list),
        resumed=len(task_list) - len(todo),
        backend=backend.name,
        startup_s=getattr(backend, "startup_s", 0.0),
        warmup_s=getattr(backend, "warmup_s", 0.0),
    )
    if progress is not None:
        progress.start(total=len(task_list), already=report.resumed)
    started = time.monotonic()

    def on_done(task: Task | None, outcome: dict[str, Any]) -> None:
        if task is not None:
            fresh = store.record(
                key=task.key,
                job=task.job,
                game=task.game,
                kind=task.kind,
                params=task.params,
                status=outcome["status"],
                result=outcome["result"],
                error=outcome["error"],
                wall_s=outcome["wall_s"],
                worker=outcome["worker"],
                cpu_s=outcome.get("cpu_s"),
                time_limit_s=time_limit_s,
            )
            report.ran += fresh
            report.task_cpu_s += outcome.get("cpu_s", 0.0) if fresh else 0.0
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

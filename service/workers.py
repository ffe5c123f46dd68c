"""Solver worker processes: real solves run outside the gRPC process, one process per solver slot.

Why: two solver threads running Python in the gRPC process hold its GIL, and every cheap call (Score,
LegalMoves, validation) waits for slices of it; under 32 clients Score p50 was 5.6x its idle value. In worker
processes the solves have their own interpreters; the gRPC process only parses, validates, answers cheap calls
and waits on a pipe.

Which calls go to a worker: exactly those that take a solver slot. The handler first runs in the gRPC process
against a probe budget (`dispatch.answer_cheaply`); if it answers (or refuses the request) without consulting
its budget, that answer is sent. If it consults the budget, validation is over and real solving starts: the
call takes a slot (`SolveGate`, RESOURCE/UNAVAILABLE as before) and its request bytes go to that slot's worker,
which runs the same handler from the start under a budget with the same absolute deadline (`time.monotonic()`
is system-wide on Linux) and sends back the response bytes or the error status bytes.

Cancel: each worker has a shared cancel flag (a `multiprocessing.Event`). The call's budget sets it on cancel
(client cancel, RPC deadline); a watcher thread in the worker turns it into `budget.cancel()` there, which stops
CP-SAT (`stop_search` via `on_cancel`) and every loop that checks the budget. A worker that does not answer
within `KILL_AFTER_CANCEL_S` of a cancel, or `KILL_AFTER_DEADLINE_S` past its deadline, is killed and replaced.

Crash: a worker that dies (segfault, os._exit, OOM kill) costs its one call INTERNAL; the slot's worker is
replaced at once and the server keeps serving. A dead forkserver costs nothing: its workers run on (each is
asked by its own pid, `_exists`, not by the forkserver's sentinel), and the next replacement starts a new one.

Workers are forked from a forkserver that imported every game and ran its warm-up once (`preload`), so a
replacement is ready in milliseconds, and forking never copies the gRPC process's threads.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import connection
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

from campsolver.service import dispatch
from campsolver.service.errors import Cancelled, InternalError, RequestError, ServerBusy, WarmingUp
from campsolver.service.metrics import CallRecord
from campsolver.service.registry import Command, games
from campsolver.solver.core.budget import Budget, freeze_long_lived_objects
from google.rpc import status_pb2

log = logging.getLogger("campsolver.workers")

#: Seconds between the worker's looks at its shared cancel flag (the cancel latency it adds).
CANCEL_POLL_S = 0.02
#: Seconds between the parent's looks at a cancel or overrun while it waits for a worker's answer.
PARENT_POLL_S = 0.05
#: A worker still busy this long after its call was cancelled is killed (solvers stop well within 0.5 s).
KILL_AFTER_CANCEL_S = 2.0
#: A worker still busy this long after its budget's deadline is killed (a solver that ignores its budget).
KILL_AFTER_DEADLINE_S = 5.0
#: Seconds past its budget's end a hint's worker may take to answer before this process answers the rule of
#: thumb's move itself (the budget ends a margin of at least 0.15 s before the RPC deadline).
LATE_WORKER_GRACE_S = 0.03
#: A hint with an RPC deadline is answered by this process at the latest this long before that deadline, plus
#: twice how late this process's timed waits have woken up lately (`_WakeLateness`): the answer still has to cross
#: gRPC's threads and the client's, which a loaded machine delays as much (measured at load 18: answers the
#: server sent 10-40 ms before the deadline reached the client after it).
HINT_SEND_SLACK_S = 0.06
#: A hint whose RPC deadline is nearer than this has its rule of thumb's answer made before it waits for a slot
#: or a worker (a few ms of CPU in this process), so that the cut at the deadline only has to send it.
PRECOMPUTE_WITHIN_S = 3.0
#: Seconds a new worker may take to say it is ready (imports and warm-up happen once, in the forkserver).
READY_TIMEOUT_S = 120.0
#: Seconds a worker gets to exit after being asked to at shutdown, before it is killed.
EXIT_TIMEOUT_S = 5.0
#: Scheduling niceness added to each worker process: on a busy machine the gRPC process (cheap calls, parsing,
#: validation) gets the CPU before the solves, which have their budgets and lose only a little depth.
WORKER_NICE = 5
#: Start methods whose workers never come from a fork of the busy gRPC process (None: forkserver, else spawn).
SAFE_START_METHODS = frozenset({None, "forkserver", "spawn"})

#: Modules the forkserver imports (and warms up) once, so that every forked worker starts ready.
PRELOAD_MODULE = "campsolver.service.worker_preload"

_READY = "ready"
#: What a worker answers a task: (_OK or _FAILED, response or status bytes, what the metrics need).
Outcome = tuple[str, bytes, dict[str, Any]]
_OK = "ok"
_FAILED = "failed"


def preload() -> None:
    """Import every game and run its warm-up (in the forkserver, once; a no-op when already done), then take
    what they left out of the garbage collector's view (`freeze_long_lived_objects`: a full collection would
    otherwise walk them inside a worker's budgeted solve)."""
    for game in games().values():
        if game.implemented and game.warm_up is not None:
            game.warm_up()
    freeze_long_lived_objects()


# --- inside a worker process -------------------------------------------------------------------------------


def _solve_in_worker(task: tuple[str, str, bytes, float, float], cancel_flag: Any) -> tuple[str, bytes, dict[str, Any]]:
    """Run one call's handler; (_OK, response bytes, info) or (_FAILED, google.rpc.Status bytes, info), where
    info is what the metrics need from here: this process's CPU seconds, its CP-SAT solve times, the fallback."""
    from campsolver.service.metrics import CallRecord, record_cpsat_solves

    game_name, rpc_name, raw, started, deadline = task
    finished = threading.Event()
    cpu_started = time.process_time()
    record = CallRecord("worker", game_name, rpc_name)

    def info() -> dict[str, Any]:
        return {"cpu_s": time.process_time() - cpu_started, "cpsat_s": record.cpsat_s, "fallback": record.fallback}

    try:
        command = games()[game_name].by_rpc(rpc_name)
        request = command.request_type.FromString(raw)
        budget = Budget.until(started, deadline)
        budget.poll_cancel(cancel_flag.is_set)  # the watcher below can be starved of the GIL; the solver polls too

        def watch() -> None:
            while not finished.is_set():
                if cancel_flag.wait(CANCEL_POLL_S):
                    budget.cancel()
                    return

        watcher = threading.Thread(target=watch, name="campsolver-cancel-watch", daemon=True)
        watcher.start()
        record_cpsat_solves(record)
        try:
            response = dispatch.run(command, request, budget)
        finally:
            record_cpsat_solves(None)
            finished.set()
            watcher.join()
        record.note_response(response)
        return _OK, response.SerializeToString(), info()
    except RequestError as error:
        return _FAILED, error.to_status().SerializeToString(), info()
    except Exception:  # the parent answers INTERNAL; the traceback stays in the server log
        log.exception("internal error in %s %s (worker %d)", game_name, rpc_name, os.getpid())
        return _FAILED, InternalError("internal error (logged on the server)").to_status().SerializeToString(), info()


def _worker_main(
    pipe: connection.Connection, cancel_flag: Any, nice: int = WORKER_NICE, log_format: str = "text"
) -> None:
    """Serve tasks from the pipe until told to stop or the parent goes away."""
    if nice:
        os.nice(nice)
    # Ctrl-C at a terminal and a cgroup-wide SIGTERM reach the workers too: the parent decides when they stop
    # (after draining), so in-flight solves still answer.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    from campsolver.service.metrics import configure_logging

    configure_logging(log_format)  # the server's format: a log shipper reads one kind of line
    preload()  # already done in the forkserver; needed under spawn
    pipe.send((_READY, os.getpid()))
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if task is None:
            return
        pipe.send(_solve_in_worker(task, cancel_flag))


# --- in the gRPC process -----------------------------------------------------------------------------------


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Start a worker without it re-running the parent's `__main__` (spawn and forkserver children import it by
    path). A worker needs nothing from it; re-running a program that embeds the server would be wrong, and a
    program read from stdin (`python -`) has no path to run, so its workers would die at start."""
    main = sys.modules["__main__"]
    saved = {name: main.__dict__[name] for name in ("__file__", "__spec__") if name in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    pipe: connection.Connection
    cancel_flag: Any
    #: Guards `cancel_flag` against a late cancel of a call that already finished setting it for the next one.
    lock: threading.Lock
    task_id: int = 0


class WorkerPool:
    """`size` worker processes, one per solver slot; `solve` runs one call in a free one."""

    def __init__(
        self, size: int, start_method: str | None = None, nice: int = WORKER_NICE, log_format: str = "text"
    ) -> None:
        self.size = size
        self.nice = nice
        self.log_format = log_format
        self._context = self._make_context(start_method)
        self._lock = threading.Lock()
        self._free: list[_Worker] = []
        self._all: list[_Worker] = []
        self._next_task = 0
        self.restarts = 0  # workers replaced after a crash or a kill (tests and the log read it)
        self.lateness = _WakeLateness()  # how late hint waits woke up lately (their cut comes that much earlier)
        #: Set once every worker is ready: the port opens before (health says NOT_SERVING meanwhile), and a solve
        #: asked for in between waits for it within its budget instead of finding no free worker.
        self.ready = threading.Event()

    @staticmethod
    def _make_context(start_method: str | None) -> BaseContext:
        # Not "fork": replacements are started while gRPC threads serve calls, and a child forked from such a
        # process can abort in gRPC's poller (seen in CI: exit -6, no replacement).
        if start_method not in SAFE_START_METHODS:
            raise ValueError(f"worker start method {start_method!r}: use one of {sorted(SAFE_START_METHODS - {None})}")
        method = start_method or ("forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn")
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload([PRELOAD_MODULE])
        return context

    def start(self) -> None:
        """Start every worker and wait until each is ready."""
        workers = [self._spawn() for _ in range(self.size)]
        for worker in workers:
            self._wait_ready(worker)
        with self._lock:
            self._free.extend(workers)
            self._all.extend(workers)
        self.ready.set()

    def pids(self) -> list[int]:
        """Process ids of the current workers (tests kill one; the load bench reads their memory)."""
        with self._lock:
            return [worker.process.pid for worker in self._all if worker.process.pid is not None]

    def busy_pids(self) -> list[int]:
        """Process ids of the workers running a call now."""
        with self._lock:
            free = {id(worker) for worker in self._free}
            return [w.process.pid for w in self._all if id(w) not in free and w.process.pid is not None]

    def close(self) -> None:
        """Ask every worker to exit; kill those that do not (call after the server drained)."""
        with self._lock:
            workers, self._all, self._free = list(self._all), [], []
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):  # already gone
                worker.pipe.send(None)
        for worker in workers:
            worker.process.join(EXIT_TIMEOUT_S)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.pipe.close()

    def _spawn(self) -> _Worker:
        parent_end, child_end = self._context.Pipe(duplex=True)
        cancel_flag = self._context.Event()
        process = self._context.Process(
            target=_worker_main,
            args=(child_end, cancel_flag, self.nice, self.log_format),
            name="campsolver-worker",
            daemon=True,
        )
        with _main_module_hidden():
            process.start()
        child_end.close()
        return _Worker(process=process, pipe=parent_end, cancel_flag=cancel_flag, lock=threading.Lock())

    @staticmethod
    def _wait_ready(worker: _Worker) -> None:
        ready = connection.wait([worker.pipe, worker.process.sentinel], timeout=READY_TIMEOUT_S)
        try:
            if worker.pipe not in ready:
                raise EOFError
            kind, _pid = worker.pipe.recv()
        except (EOFError, OSError):
            raise RuntimeError(
                f"a solver worker process failed to start (exit code {worker.process.exitcode})"
            ) from None
        assert kind == _READY

    def _replace(self, dead: _Worker) -> _Worker:
        """Kill `dead` if it still runs and start its successor (the caller still holds the slot)."""
        if dead.process.is_alive() or _exists(dead.process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(dead.process.pid, signal.SIGKILL)  # type: ignore[arg-type]
        dead.process.join()
        dead.pipe.close()
        fresh = self._spawn()
        try:
            self._wait_ready(fresh)
        except Exception:
            fresh.process.kill()
            raise
        with self._lock:
            self._all = [fresh if worker is dead else worker for worker in self._all]
            self.restarts += 1
        return fresh

    def solve(
        self,
        command: Command,
        raw: bytes,
        budget: Budget,
        gate: dispatch.SolveGate,
        record: CallRecord | None = None,
        answer_by: float | None = None,
    ) -> bytes:
        """Run `command` on request bytes `raw` in a worker under `budget`; the response bytes.

        Waits for a `gate` slot first (as in-process solves do); raises `RequestError`s for the caller to send.
        `record` (the metrics) learns a fallback answered here and what the worker sent back with its answer.
        `answer_by` (a `time.monotonic()` reading): the call's RPC deadline; a hint then answers from this process
        early enough before it to reach the client in time (`HINT_SEND_SLACK_S` plus the recent wake-up lateness).
        """
        fallback = _Fallback(command, raw, record)
        give_up = dispatch.give_up_waiting_at(command, budget)
        cut = None  # when a hint stops waiting (for a slot, then for its worker) and answers from here
        if give_up is not None and answer_by is not None:
            # Two scheduling hops follow this process's wake-up (gRPC's sending thread, the client's receiving
            # one), each as late on a loaded machine as the wake-ups measured here.
            cut = answer_by - HINT_SEND_SLACK_S - 2 * self.lateness.estimate()
            give_up = min(give_up, cut)
            if answer_by - time.monotonic() < PRECOMPUTE_WITHIN_S:
                fallback.prepare()
        if give_up is not None and min(budget.remaining(), give_up - time.monotonic()) < dispatch.MIN_SEARCH_S:
            answer = fallback(dispatch.NO_TIME)
            if answer is not None:
                return answer
        if not self.ready.is_set() and not self._wait_until_started(budget, give_up):
            answer = fallback(dispatch.STARTING)
            if answer is not None:
                return answer
            raise WarmingUp("the solver workers are still starting; try again in a few seconds")
        if not gate.acquire(budget, give_up):
            if budget.cancelled:
                raise Cancelled("the request was cancelled")
            if give_up is not None:
                self.lateness.observe(give_up)
            answer = fallback(dispatch.NO_SLOT)
            if answer is not None:  # a hint answers its rule of thumb's move here, in milliseconds
                return answer
            raise ServerBusy("every solver slot stayed busy for the whole solve budget; try again")
        # A hint's worker stops searching in time for its answer to reach this process before the cut.
        worker_deadline = budget.deadline if cut is None else min(budget.deadline, cut - LATE_WORKER_GRACE_S)
        result: dict[str, Outcome | None] = {}
        done = threading.Event()  # the call's outcome is known (the slot may still be busy replacing a worker)
        try:
            worker, task_id = self._take_a_free_worker()
        except BaseException:
            gate.release()
            raise

        def answered(outcome: Outcome | None) -> None:
            result["outcome"] = outcome
            done.set()

        def run_and_free() -> None:
            try:
                self._run_on(worker, task_id, command, raw, budget, answered, worker_deadline)
            finally:
                gate.release()
                done.set()

        # The call runs on its own thread so its caller hears of the outcome at once: a dead worker's replacement
        # (seconds when a new forkserver must start) and, for a hint, a late worker's winding down happen after
        # the answer, while the slot stays taken.
        threading.Thread(target=run_and_free, name="campsolver-call", daemon=True).start()
        late_at = budget.deadline + LATE_WORKER_GRACE_S
        if cut is not None:
            late_at = min(late_at, cut)
        if give_up is None:
            done.wait()
        elif not done.wait(max(late_at - time.monotonic(), 0.0)):
            # A hint must answer: its worker has not answered by the cut (descheduled on a loaded machine), so this
            # process answers the rule of thumb's move and the worker is told to stop.
            self.lateness.observe(late_at)
            answer = fallback(dispatch.LATE_WORKER, unless=done)
            if answer is not None:
                # The worker is told to stop on another thread: setting its cancel flag takes a lock the worker
                # shares, and a worker descheduled while it holds it (niced, on a loaded machine) made this answer
                # wait 50-110 ms for it (measured at load 19).
                threading.Thread(target=budget.cancel, name="campsolver-cancel", daemon=True).start()
                return answer
            done.wait()  # no fallback, or the worker answered meanwhile: its answer is the better one
        outcome = result.get("outcome")
        if outcome is None:
            raise InternalError("the solver process of this call stopped unexpectedly; the server is fine, try again")
        kind, payload, info = outcome
        if record is not None:
            record.note_worker(info)
        if kind == _OK:
            return payload
        raise _StatusError(status_pb2.Status.FromString(payload))

    def _wait_until_started(self, budget: Budget, give_up: float | None) -> bool:
        """Wait for the workers to be ready until `give_up` or the budget's end; False when they are not (or the
        call was cancelled: then Cancelled is raised)."""
        until = budget.deadline if give_up is None else give_up
        while not self.ready.wait(min(max(until - time.monotonic(), 0.0), PARENT_POLL_S)):
            if budget.cancelled:
                raise Cancelled("the request was cancelled")
            if time.monotonic() >= until:
                return False
        return True

    def _take_a_free_worker(self) -> tuple[_Worker, int]:
        """A free worker and the id of its next task (the caller holds a slot, so one is free)."""
        with self._lock:
            worker = self._free.pop()
            self._next_task += 1
            return worker, self._next_task

    def _run_on(
        self,
        worker: _Worker,
        task_id: int,
        command: Command,
        raw: bytes,
        budget: Budget,
        answered: Callable[[Outcome | None], None],
        worker_deadline: float | None = None,
    ) -> None:
        """Run the call on `worker`, tell `answered` its outcome (None when the worker died), then free the
        worker, or its replacement."""
        with worker.lock:
            worker.cancel_flag.clear()
            worker.task_id = task_id
        outcome: Outcome | None = None
        try:
            outcome = self._run_task(worker, task_id, command, raw, budget, worker_deadline)
        finally:
            with worker.lock:
                worker.task_id = 0  # a late cancel of this call no longer touches the flag
            answered(outcome)
            if outcome is None:  # the worker died or was killed: replace it before freeing the slot
                try:
                    worker = self._replace(worker)
                except Exception:  # keep the dead one in its slot: its next call fails fast and retries this
                    log.exception("could not start a replacement solver worker")
            with self._lock:
                self._free.append(worker)

    def _run_task(
        self,
        worker: _Worker,
        task_id: int,
        command: Command,
        raw: bytes,
        budget: Budget,
        worker_deadline: float | None = None,
    ) -> Outcome | None:
        """Send the task and wait for its answer; None when the worker died or had to be killed."""

        def cancel() -> None:
            with worker.lock:
                if worker.task_id == task_id:
                    worker.cancel_flag.set()

        budget.on_cancel(cancel)
        try:
            deadline = budget.deadline if worker_deadline is None else worker_deadline
            worker.pipe.send((command.game_name, command.rpc_name, raw, budget.started, deadline))
        except (OSError, ValueError):
            log.error("solver worker %s is gone before its call %s", worker.process.pid, command.rpc_name)
            return None
        cancelled_at: float | None = None
        watched = [worker.pipe, worker.process.sentinel]
        while True:
            ready = connection.wait(watched, timeout=PARENT_POLL_S)
            if worker.pipe in ready:
                try:
                    return worker.pipe.recv()
                except (EOFError, OSError):
                    break
            if worker.process.sentinel in ready:
                if not _exists(worker.process.pid):
                    break
                # The sentinel comes from the forkserver, the worker's parent: it reads EOF when the forkserver
                # dies, while the worker still runs. The pipe alone then tells when the worker is gone (EOF).
                log.warning("solver worker %s outlived its forkserver; waiting on its pipe alone", worker.process.pid)
                watched = [worker.pipe]
            elif worker.process.sentinel not in watched and not _exists(worker.process.pid):
                break  # orphaned by its forkserver and now dead: its pipe may never read EOF (a zombie keeps it)
            now = time.monotonic()
            if budget.cancelled and cancelled_at is None:
                cancelled_at = now
            if cancelled_at is not None and now - cancelled_at > KILL_AFTER_CANCEL_S:
                log.error(
                    "solver worker %s ignored a cancel for %.1f s: killed", worker.process.pid, now - cancelled_at
                )
                return None
            if now > budget.deadline + KILL_AFTER_DEADLINE_S:
                log.error(
                    "solver worker %s overran its deadline by %.1f s: killed", worker.process.pid, now - budget.deadline
                )
                return None
        log.error(
            "solver worker %s died (exit code %s) during %s %s",
            worker.process.pid,
            worker.process.exitcode,
            command.game_name,
            command.rpc_name,
        )
        return None


class _Fallback:
    """A call's rule-of-thumb answer in this process, noted in its metrics record; made ahead with `prepare` (its
    `stats.fallback` is set when it is sent, to the reason it is sent for)."""

    def __init__(self, command: Command, raw: bytes, record: CallRecord | None) -> None:
        self.command, self.raw, self.record = command, raw, record
        self._prepared: Any = None

    def prepare(self) -> None:
        self._prepared = dispatch.rule_of_thumb_answer(self.command, self.command.request_type.FromString(self.raw), "")

    def __call__(self, reason: str, unless: threading.Event | None = None) -> bytes | None:
        """The answer's bytes (None: the RPC has no rule of thumb, or `unless` was set meanwhile)."""
        if self._prepared is not None:
            self._prepared.stats.fallback = reason
            answer: bytes | None = self._prepared.SerializeToString()
        else:
            answer = _rule_of_thumb_bytes(self.command, self.raw, reason)
        if answer is None or (unless is not None and unless.is_set()):
            return None
        if self.record is not None:
            self.record.fallback = reason
        return answer


class _WakeLateness:
    """How late this process's timed waits have woken up lately (seconds past the time asked for): the largest of
    the last `KEEP` observations, so a burst of load raises it at once and it falls back as waits wake on time."""

    KEEP = 24

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._recent: list[float] = []

    def observe(self, intended: float) -> None:
        late = max(time.monotonic() - intended, 0.0)
        with self._lock:
            self._recent.append(late)
            del self._recent[: -self.KEEP]

    def estimate(self) -> float:
        with self._lock:
            return max(self._recent, default=0.0)


def _rule_of_thumb_bytes(command: Command, raw: bytes, reason: str) -> bytes | None:
    """`dispatch.rule_of_thumb_answer` for request bytes, answered in this process (None: the RPC has none)."""
    answer = dispatch.rule_of_thumb_answer(command, command.request_type.FromString(raw), reason)
    return None if answer is None else answer.SerializeToString()


def _exists(pid: int | None) -> bool:
    """Whether process `pid` still exists. A worker is the forkserver's child, not ours, so its `is_alive()` and
    sentinel speak for the forkserver too: if the forkserver dies (killed, or a Ray teardown gone wrong: stop 20),
    every live worker reads as dead. Its own pid says the truth (a worker that died is reaped at once by its
    parent, or by init once the forkserver is gone)."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie still answers kill(0): an orphan waits for a reaper that a container's pid 1 may never be
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


class _StatusError(RequestError):
    """A worker's error status, passed on to the client unchanged."""

    def __init__(self, status: status_pb2.Status) -> None:
        super().__init__(status.message)
        self.status = status

    def to_status(self) -> status_pb2.Status:
        return self.status

"""Time budgets and cancellation shared by every solver.

A solve must always stop: the service turns the request deadline into a `Budget`, the CLI uses the
default, and every solver polls `Budget.check()` (search loops) or registers a stop callback (CP-SAT).

Two optional hooks, both inherited by sub-budgets and both no-ops unless someone sets them:
- admission (`admit_on_first_use`): the service makes a call wait for a solver slot only when its handler
  first consults the budget, that is when validation is over and real solving starts. Cheap calls (Score,
  LegalMoves) and requests refused by validation never touch the budget, so they never queue.
- progress (`progress` / `report`): solvers report what they know (best found, bound, depth, samples) and
  the CLI shows it on a terminal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

#: Upper bound on any single solve when the caller gives no deadline.
DEFAULT_TIME_LIMIT_S = 30.0
#: Safety margin kept back from a request deadline so the answer can still be serialised and sent: at least
#: DEADLINE_MARGIN_S, a DEADLINE_MARGIN_FRACTION of the time left (a solver's last budget check and a loaded
#: machine need slack in proportion), at most DEADLINE_MARGIN_MAX_S.
DEADLINE_MARGIN_S = 0.15
DEADLINE_MARGIN_FRACTION = 0.1
DEADLINE_MARGIN_MAX_S = 1.0
#: Seconds between a budget's looks at a cancel kept elsewhere (`Budget.poll_cancel`).
POLL_EVERY_S = 0.01
#: The smallest CPU share `Budget.cpu_share` reports: a search descheduled for most of its budget so far still
#: plans with this much.
MIN_CPU_SHARE = 0.05


class SolveInterrupted(Exception):
    """Raised inside a search when its budget ran out or its caller cancelled it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "deadline" or "cancelled"


class Budget:
    """A wall-clock limit plus a cancel flag, polled cheaply from hot loops."""

    #: The clock the limit is counted on (`CpuBudget` counts the process's CPU seconds instead).
    _now: Callable[[], float] = staticmethod(time.monotonic)
    #: Whether the limit counts CPU seconds (then `cpu_share` is 1: the budget already is CPU).
    counts_cpu: bool = False

    def __init__(self, time_limit_s: float = DEFAULT_TIME_LIMIT_S) -> None:
        if time_limit_s <= 0:
            raise ValueError("time limit must be positive")
        self.time_limit_s = float(time_limit_s)
        self.started = self._now()
        self.deadline = self.started + self.time_limit_s
        self._cpu_mark, self._wall_mark = time.process_time(), time.monotonic()
        self._cancelled = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._admission: Callable[[Budget], None] | None = None
        #: A cancel kept elsewhere (another process's flag), polled by `check`/`expired`; see `poll_cancel`.
        self._poll: Callable[[], bool] | None = None
        self._next_poll = 0.0
        #: Receives `report(...)` fields (e.g. elapsed_s, best, bound, depth, samples); None: nobody listens.
        self.progress: Callable[[dict[str, Any]], None] | None = None

    def admit_on_first_use(self, admit: Callable[[Budget], None]) -> None:
        """Call `admit(self)` once, the first time a solver consults this budget (not before).

        `admit` may block (waiting for a solver slot) and may `cancel()` the budget to refuse the solve.
        """
        self._admission = admit

    def _admit(self) -> None:
        with self._lock:
            admit, self._admission = self._admission, None
        if admit is not None:
            admit(self)

    def report(self, **fields: Any) -> None:
        """Tell the progress listener (if any) what the search knows now; cheap when nobody listens."""
        if self.progress is not None:
            self.progress({"elapsed_s": self.elapsed(), **fields})

    def _child(self, seconds: float) -> Budget:
        self._admit()
        child = self._new_child(max(min(self._remaining(), seconds), 0.001))
        child.progress = self.progress
        child._poll = self._poll_parent if self._poll is not None else None
        self.on_cancel(child.cancel)
        return child

    def _new_child(self, seconds: float) -> Budget:
        """A fresh budget of `seconds` of this kind (`_child` links it: progress, cancel poll, cancel)."""
        return type(self)(seconds)

    def poll_cancel(self, is_set: Callable[[], bool]) -> None:
        """Also stop when `is_set()` says so, asked from `check`/`expired`/`remaining` at most every
        `POLL_EVERY_S`. Why: a watcher thread turning another process's flag into `cancel()` needs the GIL, and a
        search that drops and retakes it often (small numpy calls) can starve that thread for a second or more
        (an Adventure Tours hint ignored its disconnected client for 0.6-0.8 s)."""
        self._poll = is_set

    def _poll_parent(self) -> bool:
        self._polled()
        return self._cancelled.is_set()

    def _polled(self) -> None:
        if self._poll is None or self._cancelled.is_set():
            return
        now = time.monotonic()
        if now >= self._next_poll:
            self._next_poll = now + POLL_EVERY_S
            if self._poll():
                self.cancel()

    @classmethod
    def from_deadline(cls, time_remaining_s: float | None, requested_s: float | None = None) -> Budget:
        """The budget a request may spend: its own ask, capped by the RPC deadline minus a margin."""
        limit = requested_s if requested_s and requested_s > 0 else DEFAULT_TIME_LIMIT_S
        if time_remaining_s is not None:
            margin = min(max(DEADLINE_MARGIN_S, DEADLINE_MARGIN_FRACTION * time_remaining_s), DEADLINE_MARGIN_MAX_S)
            limit = min(limit, max(time_remaining_s - margin, 0.01))
        return cls(limit)

    @classmethod
    def until(cls, started: float, deadline: float) -> Budget:
        """A budget started at `started` and ending at `deadline` (both `time.monotonic()` readings).

        The monotonic clock is system-wide on Linux, so a solver worker process resumes its caller's budget
        with the same deadline, not a fresh one.
        """
        budget = cls(max(deadline - started, 0.001))
        budget.started = started
        budget.deadline = deadline
        return budget

    def sub_budget(self, fraction: float) -> Budget:
        """A budget for one phase: `fraction` of what is left, cancelled together with this one."""
        self._admit()
        return self._child(self._remaining() * fraction)

    def limited(self, seconds: float) -> Budget:
        """A budget of at most `seconds` (less if less is left), cancelled together with this one."""
        return self._child(seconds)

    def cpu_share(self) -> float:
        """CPU seconds this process has had per wall second since the budget was made, between `MIN_CPU_SHARE`
        and 1: on a loaded machine a search foresees from it the wall time of work it cannot interrupt (its CPU
        cost over the share), so that work still ends before the deadline. 1 for a budget counted in CPU."""
        if self.counts_cpu:
            return 1.0
        wall = time.monotonic() - self._wall_mark
        if wall <= 0.0:
            return 1.0
        return min(max((time.process_time() - self._cpu_mark) / wall, MIN_CPU_SHARE), 1.0)

    def elapsed(self) -> float:
        return self._now() - self.started

    def remaining(self) -> float:
        """Seconds left on the budget's clock; 0 once cancelled, so that a loop planning by the time left (is
        there time for another model, another pass?) stops at a cancel too, not only at its next `check()`. (A
        Deluxe Camping MaxScore whose client went away built and skipped its remaining case models for 1-2 s
        on a loaded machine: each pass asked only `remaining()`.)"""
        if self._admission is not None:
            self._admit()
        if self._poll is not None:
            self._polled()
        if self._cancelled.is_set():
            return 0.0
        return self._remaining()

    def _remaining(self) -> float:
        return max(self.deadline - self._now(), 0.0)

    @property
    def cancelled(self) -> bool:
        if self._poll is not None:
            self._polled()
        return self._cancelled.is_set()

    def expired(self) -> bool:
        if self._admission is not None:
            self._admit()
        if self._poll is not None:
            self._polled()
        return self._cancelled.is_set() or self._now() >= self.deadline

    def check(self) -> None:
        """Raise `SolveInterrupted` when the search must stop now."""
        if self._admission is not None:
            self._admit()
        if self._poll is not None:
            self._polled()
        if self._cancelled.is_set():
            raise SolveInterrupted("cancelled")
        if self._now() >= self.deadline:
            raise SolveInterrupted("deadline")

    def cancel(self) -> None:
        """Stop every search using this budget (called from another thread, e.g. a gRPC callback)."""
        self._cancelled.set()
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Run `callback` when the budget is cancelled (at once if it already is)."""
        if self._admission is not None:
            self._admit()
        with self._lock:
            self._callbacks.append(callback)
        if self._cancelled.is_set():
            callback()


class CpuBudget(Budget):
    """A limit in the process's CPU seconds (every thread's, CP-SAT's workers included), for benches that stand
    for a search on an idle core whatever the machine's load: at 1.0 it allows what `Budget(1.0)` allows on an
    idle core to a single-threaded search. Never for requests (a caller's deadline is wall-clock time); CP-SAT
    limits taken from it are wall seconds, so under load a CP-SAT call gets less CPU than on an idle core."""

    _now = staticmethod(time.process_time)
    counts_cpu = True


def freeze_long_lived_objects() -> None:
    """Move every object alive now out of the garbage collector's view (`gc.freeze`), once imports and
    warm-ups are done.

    Why: a full (generation 2) collection walks every tracked object, and the imported libraries alone
    (ortools' and protobuf's descriptors above all) make one cost 40-60 ms; after a few hundred solves in one
    process it measured 100-180 ms. A collection is triggered at any allocation, so it lands inside a budgeted
    search between two budget checks and overran 0.15 s hint budgets by up to 160 ms. The imported modules and
    warm-up caches live as long as the process, so the collector never needs to look at them again; what a
    solve allocates afterwards is still collected as usual. In a forkserver (the service's workers) it also
    keeps the collector from touching, hence copying, the pages the forked workers share.
    """
    import gc

    gc.collect()
    gc.freeze()

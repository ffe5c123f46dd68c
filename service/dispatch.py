"""Run one request through its game handler: the single code path of the servicer and the in-process CLI.

It turns the request options and the caller's deadline into a `Budget`, maps solver interruptions to
DEADLINE_EXCEEDED / CANCELLED, and lets `RequestError`s through for the caller to render.

Solver slots: with a `SolveGate`, the call takes a slot only when its handler first consults the budget
(`Budget.admit_on_first_use`), that is after the request has been validated. Score, LegalMoves and every
refused request are answered without ever queueing behind running solves.
"""

from __future__ import annotations

import math
import threading
import time

from campsolver.service.errors import (
    Cancelled,
    DeadlineExceeded,
    InvalidArgument,
    RequestError,
    ResourceExhausted,
    ServerBusy,
    Unimplemented,
)
from campsolver.service.registry import Command
from campsolver.solver.core.budget import Budget, SolveInterrupted
from google.protobuf.message import Message

#: The longest any single solve may run, whatever the request asks.
MAX_TIME_LIMIT_S = 600.0


class SolveGate:
    """At most `workers` solves at once; a waiting call gives up when its budget is spent or cancelled."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._busy = 0
        self._waiting = 0
        self._changed = threading.Condition()

    @property
    def busy(self) -> int:
        """Slots in use now."""
        with self._changed:
            return self._busy

    @property
    def waiting(self) -> int:
        """Calls waiting for a slot now."""
        with self._changed:
            return self._waiting

    def state(self) -> tuple[int, int, int]:
        """(slots, slots in use, calls waiting for one), read together (the metrics)."""
        with self._changed:
            return self.workers, self._busy, self._waiting

    def acquire(self, budget: Budget, give_up_at: float | None = None) -> bool:
        """Wait for a slot until the budget's deadline (or `give_up_at`, a `time.monotonic()` reading, when
        earlier) or its cancel; True when a slot was taken."""
        budget.on_cancel(self._wake)
        until = budget.deadline if give_up_at is None else min(budget.deadline, give_up_at)
        with self._changed:
            self._waiting += 1
            try:
                while self._busy >= self.workers:
                    if budget.cancelled:
                        return False
                    left = until - time.monotonic()
                    if left <= 0:
                        return False
                    self._changed.wait(timeout=left)
            finally:
                self._waiting -= 1
            self._busy += 1
            self._changed.notify_all()
            return True

    def release(self) -> None:
        with self._changed:
            self._busy -= 1
            self._changed.notify_all()

    def wait_busy(self, count: int, timeout_s: float) -> bool:
        """Block until at least `count` slots are in use (tests and benches use it instead of sleeping)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._busy >= count, timeout=timeout_s)

    def wait_idle(self, timeout_s: float) -> bool:
        """Block until no slot is in use."""
        with self._changed:
            return self._changed.wait_for(lambda: self._busy == 0, timeout=timeout_s)

    def _wake(self) -> None:
        with self._changed:
            self._changed.notify_all()


def requested_time_limit(request: Message) -> float | None:
    """The request's own `options.time_limit_seconds`, validated (None when unset)."""
    if "options" not in request.DESCRIPTOR.fields_by_name:
        return None
    limit = request.options.time_limit_seconds  # type: ignore[attr-defined]
    if math.isnan(limit) or limit < 0:
        raise InvalidArgument("options.time_limit_seconds", "must be a non-negative number of seconds")
    if limit > MAX_TIME_LIMIT_S:
        raise ResourceExhausted(
            "options.time_limit_seconds", f"{limit:g} s exceeds the limit of {MAX_TIME_LIMIT_S:g} s"
        )
    return limit or None


#: RPCs that must answer while a legal move exists: when they cannot search (no solver slot before the deadline,
#: or no search step finished in time) they answer their rule of thumb's move, flagged in `stats.fallback`.
FALLBACK_RPCS = frozenset({"Hint"})
#: Seconds before its deadline a call that has a fallback stops waiting for a solver slot, so the rule of
#: thumb's answer (milliseconds of work) is still on time; at most a quarter of the whole budget.
FALLBACK_RESERVE_S = 0.05
#: `stats.fallback` texts.
NO_SLOT = "every solver slot stayed busy until the deadline: the rule of thumb's move, not searched"
NO_STEP = "no search step finished within the time limit: the rule of thumb's move, not searched"
NO_TIME = "the deadline leaves no time to search: the rule of thumb's move, not searched"
#: A hint whose budget is shorter than this when a solver slot would be taken answers its rule of thumb's move in
#: the server process at once: a worker's hand-off and wake-up alone cost about as much on a loaded machine, and
#: no search step fits (a 0.1 s deadline leaves a 0.01 s budget after the margin).
MIN_SEARCH_S = 0.05
STARTING = "the solver workers are still starting: the rule of thumb's move, not searched"
LATE_WORKER = "the solver process did not answer in time (a loaded machine): the rule of thumb's move, not searched"


def give_up_waiting_at(command: Command, budget: Budget) -> float | None:
    """When a call stops waiting for a solver slot: before its deadline only if it has a fallback answer."""
    if command.rpc_name not in FALLBACK_RPCS:
        return None
    return budget.deadline - min(FALLBACK_RESERVE_S, 0.25 * budget.time_limit_s)


def rule_of_thumb_answer(command: Command, request: Message, reason: str) -> Message | None:
    """The hint's answer with no time left to search, or None when the RPC has no such answer.

    The handler runs against a budget already spent: every game's hint then answers its rule of thumb's move
    (HEURISTIC, values absent) in milliseconds. The response says why in `stats.fallback`.
    """
    if command.rpc_name not in FALLBACK_RPCS or command.handler is None:
        return None
    now = time.monotonic()
    try:
        response = command.handler(request, Budget.until(now, now))
    except (SolveInterrupted, DeadlineExceeded):
        return None
    stats = getattr(response, "stats", None)
    if stats is not None:
        stats.interrupted = True
        stats.fallback = reason
    return response


def answer_without_search(command: Command, request: Message) -> Message | None:
    """A hint with no time to search, answered at once: its rule of thumb's move (NO_TIME), the request validated
    on the way (None: the RPC has no such answer, or the budget is not that short)."""
    if command.rpc_name not in FALLBACK_RPCS or command.handler is None:
        return None
    bad_enum = unknown_enum_values(request)
    if bad_enum is not None:
        raise bad_enum
    return rule_of_thumb_answer(command, request, NO_TIME)


def budget_for(request: Message, time_remaining_s: float | None) -> Budget:
    """The solve budget: the request's ask, capped by the RPC deadline minus a margin, or the default."""
    return Budget.from_deadline(time_remaining_s, requested_time_limit(request))


def unknown_enum_values(message: Message, prefix: str = "") -> InvalidArgument | None:
    """The first enum field holding a number its enum does not define (proto3 enums accept any number)."""
    for field, value in message.ListFields():
        path = f"{prefix}{field.name}"
        repeated = field.is_repeated
        if field.enum_type is not None:
            for index, number in enumerate(value if repeated else [value]):
                if number not in field.enum_type.values_by_number:
                    names = ", ".join(v.name for v in field.enum_type.values)
                    where = f"{path}[{index}]" if repeated else path
                    return InvalidArgument(where, f"unknown value {number}; valid names: {names}")
        elif field.message_type is not None and not field.message_type.GetOptions().map_entry:
            for index, item in enumerate(value if repeated else [value]):
                found = unknown_enum_values(item, f"{path}[{index}]." if repeated else f"{path}.")
                if found is not None:
                    return found
    return None


class _SolveStarts(BaseException):
    """Raised at a probe budget's first use: the handler starts solving (a BaseException, so that a handler's
    `except Exception` cannot swallow it)."""


def answer_cheaply(command: Command, request: Message, budget: Budget) -> Message | None:
    """The handler's answer if it gives one without consulting its budget, else None (it needs a solver slot).

    The handler runs against a probe budget with the same deadline that stops it at its first look at the
    budget, so validation errors and cheap calls (Score, LegalMoves) are answered here and only real solves
    are handed on (`service.workers`). Request errors raised before that point go to the caller.
    """
    probe = Budget.until(budget.started, budget.deadline)
    solving = threading.Event()

    def stop_here(spent: Budget) -> None:
        solving.set()
        spent.cancel()  # in case the first look came from another thread: the handler stops there too
        raise _SolveStarts

    probe.admit_on_first_use(stop_here)
    try:
        response = run(command, request, probe)
    except _SolveStarts:
        return None
    except RequestError:
        if solving.is_set():
            return None
        raise
    return None if solving.is_set() else response


def run(command: Command, request: Message, budget: Budget, gate: SolveGate | None = None) -> Message:
    """Answer `request` with `command`'s handler under `budget` (taking a `gate` slot once it starts solving)."""
    if command.handler is None:
        raise Unimplemented(f"{command.game_name} {command.rpc_name} is not implemented yet")
    bad_enum = unknown_enum_values(request)
    if bad_enum is not None:
        raise bad_enum
    admitted = threading.Event()
    refused = threading.Event()  # no slot before the budget ran out (a cancel by the caller is not this)
    if gate is not None:

        def admit(spent: Budget) -> None:
            if gate.acquire(spent, give_up_waiting_at(command, spent)):
                admitted.set()
            elif not spent.cancelled:
                refused.set()
                spent.cancel()  # whatever the handler does next stops at once; the caller gets UNAVAILABLE

        budget.admit_on_first_use(admit)
    busy = ServerBusy("every solver slot stayed busy for the whole solve budget; try again")
    late = DeadlineExceeded(f"no answer within the {budget.time_limit_s:g} s budget; allow more time")
    try:
        response = command.handler(request, budget)
    except SolveInterrupted as interrupted:
        if refused.is_set():
            return _fallback_or(command, request, NO_SLOT, busy)
        if interrupted.reason == "cancelled":
            raise Cancelled("the request was cancelled") from None
        return _fallback_or(command, request, NO_STEP, late)
    except DeadlineExceeded:
        if refused.is_set():
            return _fallback_or(command, request, NO_SLOT, busy)
        return _fallback_or(command, request, NO_STEP, late)
    except RequestError:
        if refused.is_set():
            return _fallback_or(command, request, NO_SLOT, busy)
        raise
    finally:
        if admitted.is_set():
            gate.release()  # type: ignore[union-attr]
    if refused.is_set():
        return _fallback_or(command, request, NO_SLOT, busy)
    return response


def _fallback_or(command: Command, request: Message, reason: str, error: RequestError) -> Message:
    """The rule of thumb's answer when the RPC has one, else raise `error`."""
    response = rule_of_thumb_answer(command, request, reason)
    if response is None:
        raise error
    return response

"""Run one request through its game handler: the single code path of the servicer and the in-process CLI.

It turns the request options and the caller's deadline into a `Budget`, maps solver interruptions to
DEADLINE_EXCEEDED / CANCELLED, and lets `RequestError`s through for the caller to render.
"""

from __future__ import annotations

import math

from campsolver.service.errors import Cancelled, DeadlineExceeded, InvalidArgument, ResourceExhausted, Unimplemented
from campsolver.service.registry import Command
from campsolver.solver.core.budget import Budget, SolveInterrupted
from google.protobuf.message import Message

#: The longest any single solve may run, whatever the request asks.
MAX_TIME_LIMIT_S = 600.0


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


def budget_for(request: Message, time_remaining_s: float | None) -> Budget:
    """The solve budget: the request's ask, capped by the RPC deadline minus a margin, or the default."""
    return Budget.from_deadline(time_remaining_s, requested_time_limit(request))


def run(command: Command, request: Message, budget: Budget) -> Message:
    """Answer `request` with `command`'s handler under `budget`."""
    if command.handler is None:
        raise Unimplemented(f"{command.rpc_name} is not implemented for this game yet")
    try:
        return command.handler(request, budget)
    except SolveInterrupted as interrupted:
        if interrupted.reason == "cancelled":
            raise Cancelled("the request was cancelled") from None
        raise DeadlineExceeded(
            f"no answer within the {budget.time_limit_s:.2f} s budget; allow more time"
        ) from None

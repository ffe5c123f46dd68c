"""Request errors with the gRPC status they become, shared by the servicer and the CLI.

Handlers raise these; the servicer turns them into a status with a `google.rpc.ErrorInfo` (a stable reason in
domain `campsolver.v1`) and `google.rpc.BadRequest` field violations, and the CLI prints them as one line with
exit code 2. Nothing else about a failure reaches a client.

What travels on the wire (the field violations, the error details, the size caps and `excerpt`) lives in
`campsolver.api.errors`, which the clients read errors with too; it is re-exported here for the service.
Field paths are proto field names, dotted, with `[index]` (`options.time_limit_seconds`), as a gRPC client
builds its messages; the CLI shows the JSON names its user typed (`options.timeLimitSeconds`).

Size: an error names the field and what is wrong with a short excerpt of what was given, never the whole input.
Every text is cut (`excerpt`), whatever a game's validator wrote into it: a field path to `MAX_FIELD_BYTES`, a
description to `MAX_DESCRIPTION_BYTES`, a message to `MAX_MESSAGE_BYTES` (UTF-8), so a status's message and
details stay under `MAX_STATUS_BYTES` (1 KiB) on every transport.
"""

from __future__ import annotations

import json
import re
from typing import Any

import grpc
from google.rpc import status_pb2

from campsolver.api.errors import (
    ERROR_DOMAIN,
    MAX_DESCRIPTION_BYTES,
    MAX_FIELD_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_STATUS_BYTES,
    MAX_VIOLATIONS,
    FieldViolation,
    error_details,
    excerpt,
)

__all__ = [
    "ERROR_DOMAIN",
    "MAX_DESCRIPTION_BYTES",
    "MAX_FIELD_BYTES",
    "MAX_MESSAGE_BYTES",
    "MAX_STATUS_BYTES",
    "MAX_VIOLATIONS",
    "Cancelled",
    "DeadlineExceeded",
    "FieldViolation",
    "InternalError",
    "InvalidArgument",
    "MalformedRequest",
    "RequestError",
    "ResourceExhausted",
    "ServerBusy",
    "Unimplemented",
    "WarmingUp",
    "excerpt",
    "json_not_an_object",
    "json_parse_failure",
    "json_path",
    "proto_path",
    "require",
    "require_limit",
]


def json_not_an_object(text: str | bytes) -> str | None:
    """What a request's top-level JSON value is when it is not an object ("null", "a number", "a boolean", "a
    string", "an array"); None for an object, or for text that is not JSON at all (protobuf's parser says where).
    An object is told by its first character, so a request is parsed once (by protobuf), not twice."""
    first = text.lstrip()[:1]
    if first in ("{", b"{"):
        return None
    try:
        top = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(top, dict):
        return None
    if top is None:
        return "null"
    if isinstance(top, bool):
        return "a boolean"
    if isinstance(top, (int, float)):
        return "a number"
    return "a string" if isinstance(top, str) else "an array"


def json_parse_failure(error: Exception) -> tuple[str, str]:
    """(field path as the JSON spells it, what is wrong) of a protobuf JSON `ParseError`; the path is "" when
    protobuf names none, and loses its indices when protobuf gives no location. "Failed to parse x field: Failed
    to parse y field: <what> at Msg.x.y..." -> ("x.y", "<what>"): the path's segments end before the dots
    protobuf puts after it; without "at", the "Failed to parse" chain names it."""
    detail = " ".join(str(error).split())
    where = re.search(r" at \w+\.([\w\[\]]+(?:\.[\w\[\]]+)*)\.*$", detail)
    chain = re.findall(r"Failed to parse (\w+) field: ", detail)
    innermost = re.sub(r"^(Failed to parse \w+ field: )+", "", detail)
    innermost = re.sub(r" at \w+\.[\w.\[\]]+$", "", innermost.rstrip(".")).rstrip(".")
    return (where.group(1) if where else ".".join(chain)), innermost


def proto_path(descriptor: Any, path: str) -> str:
    """A field path as JSON may spell it (`options.timeLimitSeconds`, indices kept) in proto names
    (`options.time_limit_seconds`), as every other field violation names its field; unknown segments kept."""
    return _field_path(descriptor, path, json_names=False)


def json_path(descriptor: Any, path: str) -> str:
    """A field path in proto names (or as JSON spells it) as JSON spells it: `options.time_limit_seconds` ->
    `options.timeLimitSeconds` (indices kept), following the message types; unknown segments kept."""
    return _field_path(descriptor, path, json_names=True)


def _field_path(descriptor: Any, path: str, *, json_names: bool) -> str:
    out: list[str] = []
    current = descriptor
    for segment in (part for part in path.split(".") if part):  # never an empty segment ("phase..")
        match = re.fullmatch(r"(\w+)((?:\[\d+\])*)", segment)
        field = None
        if current is not None and match is not None:
            name = match.group(1)
            field = current.fields_by_name.get(name) or current.fields_by_camelcase_name.get(name)
        if field is None:
            out.append(segment)
            current = None
            continue
        out.append((field.json_name if json_names else field.name) + match.group(2))
        current = field.message_type
    return ".".join(out)


class RequestError(Exception):
    """A request the service refuses; carries the gRPC code and the fields at fault."""

    code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT
    #: `google.rpc.ErrorInfo.reason`: a stable UPPER_SNAKE_CASE name a program can branch on.
    reason: str = "INVALID_FIELD"

    def __init__(self, message: str, violations: list[FieldViolation] | None = None, reason: str | None = None) -> None:
        message = excerpt(message, MAX_MESSAGE_BYTES)
        super().__init__(message)
        self.message = message
        violations = list(violations or [])
        self.violations = violations[:MAX_VIOLATIONS]
        self.left_out = len(violations) - len(self.violations)
        if reason is not None:
            self.reason = reason

    def detail(self) -> str:
        """What is wrong, naming the fields at fault when there are any (within MAX_MESSAGE_BYTES)."""
        named = "; ".join(str(v) for v in self.violations)
        if named and self.left_out:
            named += f" (and {self.left_out} more)"
        return excerpt(named or self.message, MAX_MESSAGE_BYTES + 20)

    def one_line(self) -> str:
        """The CLI's one-line rendering."""
        return f"{self.code.name}: {self.detail()}"

    def to_status(self) -> status_pb2.Status:
        """The rich `google.rpc.Status` (with BadRequest details when fields are named)."""
        status = status_pb2.Status(code=self.code.value[0], message=self.detail())
        status.details.extend(error_details(self.reason, self.violations))
        return status


class InvalidArgument(RequestError):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, description: str) -> None:
        super().__init__(f"{field}: {description}", [FieldViolation(field, description)])


class MalformedRequest(RequestError):
    """The request bytes are not a valid message of the RPC's request type (or carry invalid UTF-8)."""

    code = grpc.StatusCode.INVALID_ARGUMENT
    reason = "MALFORMED_REQUEST"


class ResourceExhausted(RequestError):
    """The request is beyond a configured size limit (board size, horizon, message size)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    reason = "LIMIT_EXCEEDED"

    def __init__(self, field: str, description: str) -> None:
        super().__init__(f"{field}: {description}", [FieldViolation(field, description)])


class ServerBusy(RequestError):
    """Every solver slot stayed busy for the whole budget of the call (retry later)."""

    code = grpc.StatusCode.UNAVAILABLE
    reason = "SOLVER_SLOTS_BUSY"


class WarmingUp(RequestError):
    """The solver workers are still starting (the port opens first, so health can say NOT_SERVING); retry."""

    code = grpc.StatusCode.UNAVAILABLE
    reason = "SOLVER_WORKERS_STARTING"


class Unimplemented(RequestError):
    code = grpc.StatusCode.UNIMPLEMENTED
    reason = "GAME_NOT_IMPLEMENTED"


class DeadlineExceeded(RequestError):
    code = grpc.StatusCode.DEADLINE_EXCEEDED
    reason = "SOLVE_BUDGET_SPENT"


class Cancelled(RequestError):
    code = grpc.StatusCode.CANCELLED
    reason = "CANCELLED"


class InternalError(RequestError):
    """An unexpected exception in a handler (logged on the server; the client sees no detail)."""

    code = grpc.StatusCode.INTERNAL
    reason = "INTERNAL"


def require(condition: bool, field: str, description: str) -> None:
    """Raise `InvalidArgument(field, description)` unless `condition` holds."""
    if not condition:
        raise InvalidArgument(field, description)


def require_limit(value: int | float, limit: int | float, field: str, what: str) -> None:
    """Raise `ResourceExhausted` when `value` exceeds the configured `limit`."""
    if value > limit:
        raise ResourceExhausted(field, f"{what} {value} exceeds the limit of {limit}")

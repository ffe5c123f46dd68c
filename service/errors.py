"""Request errors with the gRPC status they become, shared by the servicer and the CLI.

Handlers raise these; the servicer turns them into a status with `google.rpc.BadRequest` field violations,
and the CLI prints them as one line with exit code 2. Nothing else about a failure reaches a client.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2


@dataclass(frozen=True)
class FieldViolation:
    """One field at fault: its path in the request (proto field names, dotted, with [index]) and why."""

    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}"


class RequestError(Exception):
    """A request the service refuses; carries the gRPC code and the fields at fault."""

    code: grpc.StatusCode = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, message: str, violations: list[FieldViolation] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.violations = list(violations or [])

    def detail(self) -> str:
        """What is wrong, naming the fields at fault when there are any."""
        return "; ".join(str(v) for v in self.violations) or self.message

    def one_line(self) -> str:
        """The CLI's one-line rendering."""
        return f"{self.code.name}: {self.detail()}"

    def to_status(self) -> status_pb2.Status:
        """The rich `google.rpc.Status` (with BadRequest details when fields are named)."""
        status = status_pb2.Status(code=self.code.value[0], message=self.detail())
        if self.violations:
            bad_request = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(field=v.field, description=v.description)
                    for v in self.violations
                ]
            )
            detail = any_pb2.Any()
            detail.Pack(bad_request)
            status.details.append(detail)
        return status


class InvalidArgument(RequestError):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, description: str) -> None:
        super().__init__(f"{field}: {description}", [FieldViolation(field, description)])


class ResourceExhausted(RequestError):
    """The request is beyond a configured size limit (board size, horizon, message size)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, field: str, description: str) -> None:
        super().__init__(f"{field}: {description}", [FieldViolation(field, description)])


class ServerBusy(RequestError):
    """Every solver slot stayed busy for the whole budget of the call (retry later)."""

    code = grpc.StatusCode.UNAVAILABLE


class Unimplemented(RequestError):
    code = grpc.StatusCode.UNIMPLEMENTED


class DeadlineExceeded(RequestError):
    code = grpc.StatusCode.DEADLINE_EXCEEDED


class Cancelled(RequestError):
    code = grpc.StatusCode.CANCELLED


def require(condition: bool, field: str, description: str) -> None:
    """Raise `InvalidArgument(field, description)` unless `condition` holds."""
    if not condition:
        raise InvalidArgument(field, description)


def require_limit(value: int | float, limit: int | float, field: str, what: str) -> None:
    """Raise `ResourceExhausted` when `value` exceeds the configured `limit`."""
    if value > limit:
        raise ResourceExhausted(field, f"{what} {value} exceeds the limit of {limit}")


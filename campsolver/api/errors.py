"""The error details of a failed call, written by the server and read by every client: one module, both sides.

A failure is a `google.rpc.Status` whose details are a `google.rpc.ErrorInfo` (a stable UPPER_SNAKE_CASE reason in
domain `campsolver.v1`, with the first field at fault as metadata `field`) and, when fields are at fault, a
`google.rpc.BadRequest` that names them. gRPC carries the status in the `grpc-status-details-bin` trailer and
Connect in its error body's details; both arrive here as (full type name, serialized message) pairs.

Field paths are proto field names, dotted, with `[index]` (`options.time_limit_seconds`), as a gRPC client
builds its messages; the CLI shows the JSON names its user typed (`options.timeLimitSeconds`).

Size: an error names the field and what is wrong with a short excerpt of what was given, never the whole input.
Every text is cut here (`excerpt`): a field path to `MAX_FIELD_BYTES`, a description to `MAX_DESCRIPTION_BYTES`, a
message to `MAX_MESSAGE_BYTES` (UTF-8), so a status's message and details stay under `MAX_STATUS_BYTES` (1 KiB) on
every transport. (A 60 KB request with one malformed card once answered a 94 KB message, and over gRPC its
trailers passed a default client's 16 KiB metadata limit, which then reported RESOURCE_EXHAUSTED instead of
INVALID_ARGUMENT.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from google.protobuf import any_pb2
from google.rpc import error_details_pb2

#: `google.rpc.ErrorInfo.domain` of every campsolver error.
ERROR_DOMAIN = "campsolver.v1"
#: Longest field path, description and message an error carries, in UTF-8 bytes (longer ones are excerpted).
MAX_FIELD_BYTES = 100
MAX_DESCRIPTION_BYTES = 240
MAX_MESSAGE_BYTES = MAX_FIELD_BYTES + 2 + MAX_DESCRIPTION_BYTES
#: Field violations an error carries at most (the first ones; the message says how many were left out).
MAX_VIOLATIONS = 1
#: What a whole `google.rpc.Status` (message and details) may take: the caps above keep it below (tests check).
MAX_STATUS_BYTES = 1024


def excerpt(text: str, limit: int) -> str:
    """`text` when its UTF-8 takes at most `limit` bytes, else its start (cut at a character) and how long it was,
    within `limit` bytes: what a person needs to find the place, never the whole input back."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    note = f"... ({len(text)} characters)"
    head = data[: max(limit - len(note), 0)].decode("utf-8", "ignore")
    return head + note


@dataclass(frozen=True)
class FieldViolation:
    """One field at fault: its path in the request (proto field names, dotted, with [index]) and why."""

    field: str
    description: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", excerpt(self.field, MAX_FIELD_BYTES))
        object.__setattr__(self, "description", excerpt(self.description, MAX_DESCRIPTION_BYTES))

    def __str__(self) -> str:
        return f"{self.field}: {self.description}"


def error_details(reason: str, violations: Sequence[FieldViolation]) -> list[any_pb2.Any]:
    """A status's details: the ErrorInfo (`reason`, and the first field at fault as metadata `field`), then a
    BadRequest naming `violations` when there are any. `read_error_details` reads them back."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN)
    if violations:
        info.metadata["field"] = violations[0].field
    packed_info = any_pb2.Any()
    packed_info.Pack(info)
    details = [packed_info]
    if violations:
        bad_request = error_details_pb2.BadRequest(
            field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=v.field, description=v.description)
                for v in violations
            ]
        )
        packed_request = any_pb2.Any()
        packed_request.Pack(bad_request)
        details.append(packed_request)
    return details


def read_error_details(details: Iterable[tuple[str, bytes]]) -> tuple[list[FieldViolation], str]:
    """The field violations and the ErrorInfo reason among an error's details, each given as (full type name,
    serialized message): how gRPC trailers and Connect error bodies both carry them."""
    violations: list[FieldViolation] = []
    reason = ""
    for type_name, payload in details:
        if type_name == error_details_pb2.BadRequest.DESCRIPTOR.full_name:
            bad_request = error_details_pb2.BadRequest.FromString(payload)
            violations.extend(FieldViolation(v.field, v.description) for v in bad_request.field_violations)
        elif type_name == error_details_pb2.ErrorInfo.DESCRIPTOR.full_name:
            reason = error_details_pb2.ErrorInfo.FromString(payload).reason
    return violations, reason

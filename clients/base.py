"""What every per-game client shares: the stub call, deadlines, wait-for-ready and readable errors.

`GameClient` (blocking) and `AsyncGameClient` (grpc.aio) have the same surface; the typed per-game classes in
`campsolver.clients.typed` add one method per RPC with its own request and response types.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import grpc
from campsolver.service.errors import FieldViolation
from campsolver.service.registry import Game, game
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

#: Default per-call deadline in seconds when the caller gives none.
DEFAULT_TIMEOUT_S = 60.0
_STATUS_DETAILS_KEY = "grpc-status-details-bin"


@dataclass
class CampsolverError(Exception):
    """A failed call: gRPC code, message, the ErrorInfo reason and the request fields at fault (if any)."""

    code: grpc.StatusCode
    message: str
    violations: list[FieldViolation] = field(default_factory=list)
    reason: str = ""  # google.rpc.ErrorInfo.reason in domain campsolver.v1 ("" when the server sent none)

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> CampsolverError:
        """Works for blocking and asyncio errors alike (both expose code, details and trailing metadata)."""
        if not hasattr(error, "code"):
            return cls(code=grpc.StatusCode.UNKNOWN, message=str(error))
        code = error.code()
        violations: list[FieldViolation] = []
        reason = ""
        for key, value in error.trailing_metadata() or ():
            if key != _STATUS_DETAILS_KEY:
                continue
            status = status_pb2.Status.FromString(value)
            violations, reason = read_error_details((detail.TypeName(), detail.value) for detail in status.details)
        return cls(code=code, message=error.details() or code.name, violations=violations, reason=reason)


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


class _GameClientBase:
    GAME: ClassVar[str] = ""
    STUB: ClassVar[Any] = None

    def __init__(self, channel: grpc.Channel | grpc.aio.Channel, *, wait_for_ready: bool = False) -> None:
        self.game: Game = game(self.GAME)
        self._stub = self.STUB(channel)
        self._wait_for_ready = wait_for_ready

    def _method(self, rpc_name: str) -> Any:
        if rpc_name not in {command.rpc_name for command in self.game.commands.values()}:
            raise ValueError(f"{self.GAME} has no RPC {rpc_name!r}")
        return getattr(self._stub, rpc_name)


class GameClient(_GameClientBase):
    """The blocking RPCs of one game service."""

    def _invoke(self, rpc_name: str, request: Any, timeout: float | None) -> Any:
        try:
            return self._method(rpc_name)(request, timeout=timeout, wait_for_ready=self._wait_for_ready)
        except grpc.RpcError as error:
            raise CampsolverError.from_rpc_error(error) from None

    def call(self, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        """Call an RPC by name (for generic callers such as the CLI; the typed methods are nicer)."""
        return self._invoke(rpc_name, request, timeout)

    def call_future(self, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Any:
        """Start a call and return its future (`.result()`, `.cancel()`)."""
        return self._method(rpc_name).future(request, timeout=timeout, wait_for_ready=self._wait_for_ready)


class AsyncGameClient(_GameClientBase):
    """The asyncio RPCs of one game service (same surface as `GameClient`, every method awaited)."""

    async def _invoke(self, rpc_name: str, request: Any, timeout: float | None) -> Any:
        try:
            return await self._method(rpc_name)(request, timeout=timeout, wait_for_ready=self._wait_for_ready)
        except grpc.RpcError as error:
            raise CampsolverError.from_rpc_error(error) from None

    async def call(self, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S) -> Message:
        return await self._invoke(rpc_name, request, timeout)

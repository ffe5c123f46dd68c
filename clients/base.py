"""What every per-game client shares: the stub call, deadlines, wait-for-ready and readable errors.

`GameClient` (blocking) and `AsyncGameClient` (grpc.aio) have the same surface; the typed per-game classes in
`campsolver.clients.typed` add one method per RPC with its own request and response types.

The client library stands alone: its RPC table is read from the `campsolver.v1` descriptors
(`campsolver.api.rpcs`) and its errors with the module the server writes them with (`campsolver.api.errors`);
nothing here imports the service or the solvers (tests/test_client_alone.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import grpc
from google.protobuf.message import Message
from google.rpc import status_pb2

from campsolver.api.errors import FieldViolation, read_error_details
from campsolver.api.rpcs import GameService, game_service

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "AsyncGameClient",
    "CampsolverError",
    "FieldViolation",
    "GameClient",
    "read_error_details",
]

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


class _GameClientBase:
    GAME: ClassVar[str] = ""
    STUB: ClassVar[Any] = None

    def __init__(self, channel: grpc.Channel | grpc.aio.Channel, *, wait_for_ready: bool = False) -> None:
        self.game: GameService = game_service(self.GAME)
        self._stub = self.STUB(channel)
        self._wait_for_ready = wait_for_ready

    def _method(self, rpc_name: str) -> Any:
        if rpc_name not in self.game.rpcs:
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

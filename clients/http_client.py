"""A blocking Python client of the HTTP side (`campsolver serve --http-port`): Connect JSON, Connect binary or
gRPC-Web, through the Connect project's own client (`connectrpc`), with the errors of the gRPC client.

    with HttpCampsolverClient("http://127.0.0.1:8080", protocol="connect-json") as client:
        response = client.call("camper-tour", "Score", request, timeout=5.0)

Tests and benches use it to put the same call on every protocol; a failed call raises `CampsolverError` with the
gRPC code, the message, the ErrorInfo reason and the field violations, read from the Connect error details.
"""

from __future__ import annotations

from typing import Literal

import grpc
from campsolver.clients.base import DEFAULT_TIMEOUT_S, CampsolverError
from connectrpc.client import ConnectClientSync
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from google.protobuf.message import Message

from campsolver.api.errors import read_error_details
from campsolver.api.rpcs import game_service

Protocol = Literal["connect-json", "connect-proto", "grpc-web"]
PROTOCOLS: tuple[Protocol, ...] = ("connect-json", "connect-proto", "grpc-web")
#: Connect code names -> gRPC status codes (the same codes, spelt in snake case).
_CODES = {code.name.lower(): code for code in grpc.StatusCode}
_CODES["canceled"] = grpc.StatusCode.CANCELLED


def error_of(error: ConnectError) -> CampsolverError:
    """The `CampsolverError` a gRPC client would have raised for the same failure."""
    violations, reason = read_error_details((detail.type_name, detail.message_bytes) for detail in error.details)
    code = _CODES.get(error.code.value, grpc.StatusCode.UNKNOWN)
    return CampsolverError(code=code, message=error.message, violations=violations, reason=reason)


class HttpCampsolverClient:
    """Calls any game's RPC by name over one HTTP protocol."""

    def __init__(self, base_url: str, protocol: Protocol = "connect-json") -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}")
        codec = google_protobuf_json_codec() if protocol == "connect-json" else google_protobuf_binary_codec()
        kind = ProtocolType.GRPC_WEB if protocol == "grpc-web" else ProtocolType.CONNECT
        self.protocol = protocol
        self._client = ConnectClientSync(base_url.rstrip("/"), codec=codec, protocol=kind, send_compression=None)

    def call(
        self, game_name: str, rpc_name: str, request: Message, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> Message:
        """`rpc_name` of game `game_name` (its CLI name) with `request`; raises `CampsolverError`."""
        service = game_service(game_name)
        rpc = service.by_rpc(rpc_name)
        method = MethodInfo(
            name=rpc_name,
            service_name=service.service_full_name,
            input=rpc.request_type,
            output=rpc.response_type,
            idempotency_level=IdempotencyLevel.UNKNOWN,
            stream_type=StreamType.UNARY,
        )
        try:
            return self._client.execute_unary(
                request=request, method=method, timeout_ms=None if timeout is None else round(1000 * timeout)
            )
        except ConnectError as error:
            raise error_of(error) from None

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> HttpCampsolverClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

"""The Python clients: `CampsolverClient` (blocking) and `AsyncCampsolverClient` (asyncio), same surface.

    with CampsolverClient("127.0.0.1:50051") as client:
        response = client.camper_tour.max_score(request, timeout=5.0)

    async with AsyncCampsolverClient("127.0.0.1:50051") as client:
        response = await client.camper_tour.max_score(request, timeout=5.0)

Each game is an attribute with one typed method per RPC (built on the generated stubs). Constructor options:
`credentials` (TLS, e.g. `grpc.ssl_channel_credentials(root_pem)`), `call_credentials` (a per-call hook such
as `grpc.metadata_call_credentials(plugin)` or `grpc.access_token_call_credentials(token)`; needs TLS or
`grpc.local_channel_credentials()`), `wait_for_ready` (calls wait for the server to come up instead of failing
fast) and raw channel `options`. Errors raise `CampsolverError` with the gRPC code, the message, the ErrorInfo
reason and the field violations from the rich status.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import grpc
from campsolver.clients.base import DEFAULT_TIMEOUT_S, AsyncGameClient, CampsolverError, GameClient
from campsolver.clients.typed import (
    AdventureToursClient,
    AsyncAdventureToursClient,
    AsyncCamperTourClient,
    AsyncCampsiteClient,
    AsyncDeluxeCampingClient,
    AsyncHappyCampersClient,
    CamperTourClient,
    CampsiteClient,
    DeluxeCampingClient,
    HappyCampersClient,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "AsyncCampsolverClient",
    "AsyncGameClient",
    "CampsolverClient",
    "CampsolverError",
    "GameClient",
]

ChannelOptions = Sequence[tuple[str, Any]]


def _channel_credentials(
    credentials: grpc.ChannelCredentials | None, call_credentials: grpc.CallCredentials | None
) -> grpc.ChannelCredentials | None:
    if call_credentials is None:
        return credentials
    if credentials is None:
        raise ValueError(
            "call_credentials need a secure channel: pass credentials= (grpc.ssl_channel_credentials(...), "
            "or grpc.local_channel_credentials() for a local server)"
        )
    return grpc.composite_channel_credentials(credentials, call_credentials)


class CampsolverClient:
    """A blocking connection to a campsolver server with one typed client per game."""

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        channel: grpc.Channel | None = None,
        credentials: grpc.ChannelCredentials | None = None,
        call_credentials: grpc.CallCredentials | None = None,
        wait_for_ready: bool = False,
        options: ChannelOptions = (),
    ) -> None:
        self.target = target
        if channel is None:
            secure = _channel_credentials(credentials, call_credentials)
            if secure is None:
                channel = grpc.insecure_channel(target, options=list(options))
            else:
                channel = grpc.secure_channel(target, secure, options=list(options))
        self.channel = channel
        self.happy_campers = HappyCampersClient(channel, wait_for_ready=wait_for_ready)
        self.deluxe_camping = DeluxeCampingClient(channel, wait_for_ready=wait_for_ready)
        self.campsite = CampsiteClient(channel, wait_for_ready=wait_for_ready)
        self.camper_tour = CamperTourClient(channel, wait_for_ready=wait_for_ready)
        self.adventure_tours = AdventureToursClient(channel, wait_for_ready=wait_for_ready)

    def game(self, name: str) -> GameClient:
        """The client of a game by its CLI name (e.g. "camper-tour")."""
        return getattr(self, name.replace("-", "_"))

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel is connected (raises `grpc.FutureTimeoutError` after `timeout`)."""
        grpc.channel_ready_future(self.channel).result(timeout=timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> CampsolverClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class AsyncCampsolverClient:
    """An asyncio connection (grpc.aio) with the same surface as `CampsolverClient`; methods are awaited."""

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        channel: grpc.aio.Channel | None = None,
        credentials: grpc.ChannelCredentials | None = None,
        call_credentials: grpc.CallCredentials | None = None,
        wait_for_ready: bool = False,
        options: ChannelOptions = (),
    ) -> None:
        self.target = target
        if channel is None:
            secure = _channel_credentials(credentials, call_credentials)
            if secure is None:
                channel = grpc.aio.insecure_channel(target, options=list(options))
            else:
                channel = grpc.aio.secure_channel(target, secure, options=list(options))
        self.channel = channel
        self.happy_campers = AsyncHappyCampersClient(channel, wait_for_ready=wait_for_ready)
        self.deluxe_camping = AsyncDeluxeCampingClient(channel, wait_for_ready=wait_for_ready)
        self.campsite = AsyncCampsiteClient(channel, wait_for_ready=wait_for_ready)
        self.camper_tour = AsyncCamperTourClient(channel, wait_for_ready=wait_for_ready)
        self.adventure_tours = AsyncAdventureToursClient(channel, wait_for_ready=wait_for_ready)

    def game(self, name: str) -> AsyncGameClient:
        return getattr(self, name.replace("-", "_"))

    async def wait_ready(self, timeout: float = 10.0) -> None:
        import asyncio

        await asyncio.wait_for(self.channel.channel_ready(), timeout)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncCampsolverClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

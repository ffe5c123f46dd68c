"""Python client library (blocking and asyncio) and command-line interface for campsolver."""

from campsolver.clients.base import AsyncGameClient, CampsolverError, GameClient
from campsolver.clients.client import AsyncCampsolverClient, CampsolverClient

__all__ = ["AsyncCampsolverClient", "AsyncGameClient", "CampsolverClient", "CampsolverError", "GameClient"]

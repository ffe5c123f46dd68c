"""Python client library (blocking and asyncio) and command-line interface for campsolver.

The client library (this package's `base`, `client`, `typed` and `http_client`) imports only the generated code
and `campsolver.api`, never the service or the solvers; the CLI (`cli`, `batch`) solves in-process and needs both.
"""

from campsolver.clients.base import AsyncGameClient, CampsolverError, GameClient
from campsolver.clients.client import AsyncCampsolverClient, CampsolverClient

__all__ = ["AsyncCampsolverClient", "AsyncGameClient", "CampsolverClient", "CampsolverError", "GameClient"]

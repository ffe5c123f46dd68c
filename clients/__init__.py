"""Python client library and command-line interface for campsolver."""

from campsolver.clients.client import CampsolverClient, CampsolverError, GameClient

__all__ = ["CampsolverClient", "CampsolverError", "GameClient"]

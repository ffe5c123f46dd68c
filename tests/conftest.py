"""Shared pytest setup: make the repository root importable when the package is not installed."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402  (after the path set-up above)


@pytest.fixture(scope="session")
def client():
    """One loopback server (2 solver slots) and a typed client, shared by every game's service tests.

    Tests that need a server of their own (drain, busy slots, an altered registry) build one themselves.
    """
    from campsolver.clients.client import CampsolverClient
    from campsolver.service.server import CampsolverServer, ServerConfig

    server = CampsolverServer(ServerConfig(port=0, workers=2))
    server.start()
    try:
        with CampsolverClient(server.address) as connected:
            connected.wait_ready()
            yield connected
    finally:
        server.stop(grace_s=2.0)

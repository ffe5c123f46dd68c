"""Shared pytest setup: make the repository root importable when the package is not installed."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402  (after the path set-up above)

import campsolver  # noqa: E402,F401  (before numpy: one BLAS thread a process, see campsolver/__init__.py)


def pytest_collection_finish(session: pytest.Session) -> None:
    """As the service's workers do after their imports and warm-ups: take what collection imported out of the
    garbage collector's view, so a full collection inside a timed solve does not walk it (it measured 40-180 ms
    here and overran 0.15 s hint budgets by up to 160 ms)."""
    from campsolver.solver.core.budget import freeze_long_lived_objects

    freeze_long_lived_objects()


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

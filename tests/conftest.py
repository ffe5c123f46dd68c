"""Shared pytest setup: make the repository root importable when the package is not installed, and choose the
Hypothesis profile.

Hypothesis profiles: `derandomized` (the default, and what CI runs) draws the same examples on every run, so a
property test passes or fails for the code, never for the luck of a draw; `explore`
(`HYPOTHESIS_PROFILE=explore make test`) draws fresh random examples, to look for new counterexamples by hand.
"""

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402  (after the path set-up above)
from hypothesis import settings  # noqa: E402

import campsolver  # noqa: E402,F401  (before numpy: one BLAS thread a process, see campsolver/__init__.py)

#: Fixed examples: the same on every run and on CI (`derandomize` also keeps the example database out of it).
settings.register_profile("derandomized", derandomize=True)
#: Fresh random examples on each run, for a person hunting counterexamples.
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))


def pytest_configure(config: pytest.Config) -> None:
    """`CAMPSOLVER_TEST_CPU=cpu.tsv`: write each test's CPU seconds there (tests/cpu_report.py)."""
    target = os.environ.get("CAMPSOLVER_TEST_CPU")
    if target:
        from tests.cpu_report import CpuReport

        config.pluginmanager.register(CpuReport(Path(target).resolve()), "campsolver-cpu-report")


#: Default-run cases moved to `make test-slow` by measured cost (one node id a line, see the file's header).
SLOW_CASES = Path(__file__).with_name("slow_cases.txt")


def _slow_case_ids() -> set[str]:
    lines = SLOW_CASES.read_text().splitlines() if SLOW_CASES.exists() else []
    return {line.split("\t")[0] for line in lines if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the cases listed in tests/slow_cases.txt `slow` (the default run deselects them, `make test-slow`
    runs them), and refuse a list that leaves a module without a fast test."""
    listed = _slow_case_ids()
    if not listed:
        return
    fast_by_module: dict[str, int] = {}
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)
        module = item.nodeid.split("::")[0]
        fast_by_module[module] = fast_by_module.get(module, 0) + (item.get_closest_marker("slow") is None)
    touched = {node.split("::")[0] for node in listed}
    # A module named by test ids on the command line is not collected whole: its other tests are not here.
    partial = {arg.split("::")[0] for arg in config.args if "::" in arg}
    emptied = sorted(m for m, fast in fast_by_module.items() if not fast and m in touched and m not in partial)
    if emptied:
        raise pytest.UsageError(f"tests/slow_cases.txt leaves no fast test in {', '.join(emptied)}")


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
    with serving(workers=2) as connected:
        yield connected


@contextlib.contextmanager
def serving(**config: object) -> Iterator[Any]:
    """A loopback server with `ServerConfig(port=0, **config)` and a ready client, stopped on leaving."""
    from campsolver.clients.client import CampsolverClient
    from campsolver.service.server import CampsolverServer, ServerConfig

    server = CampsolverServer(ServerConfig(port=0, **config))  # type: ignore[arg-type]
    server.start()
    try:
        with CampsolverClient(server.address) as connected:
            connected.wait_ready()
            yield connected
    finally:
        server.stop(grace_s=2.0)


@pytest.fixture(scope="session")
def example_puzzles() -> dict[str, Any]:
    """Game -> the response to its registry example GeneratePuzzle request (through the service handler), made
    once a session: the picture tests share these puzzles."""
    from campsolver.service import dispatch
    from campsolver.service.registry import games

    found = {}
    for name, game in games().items():
        command = game.commands["puzzle"]
        if command.handler is None:
            continue
        assert command.example is not None, f"{name} puzzle needs an example request"
        request = command.example()
        found[name] = dispatch.run(command, request, dispatch.budget_for(request, None))
    return found


#: Cases the marker expression deselected in this process (with xdist: in each worker, reported back).
_DESELECTED = {"count": 0}


def pytest_deselected(items: list[pytest.Item]) -> None:
    _DESELECTED["count"] += len(items)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker tells the controlling process how many cases it deselected (every worker collects them all)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["deselected"] = _DESELECTED["count"]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", None) or {}
    _DESELECTED["count"] = max(_DESELECTED["count"], int(output.get("deselected", 0)))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """With xdist workers the summary line does not count deselected cases: say how many the run left out."""
    if getattr(config.option, "numprocesses", None) and _DESELECTED["count"]:
        terminalreporter.write_line(
            f"{_DESELECTED['count']} deselected by the marker expression (`make test-slow` runs the slow cases)",
            bold=True,
        )

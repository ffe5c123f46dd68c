"""The client library stands alone: `campsolver.clients` (base, client, typed, http_client) works with the service,
the solvers, OR-Tools and numpy all unimportable, its RPC table is the `campsolver.v1` descriptors' and its errors are
read with the module the server writes them with (`campsolver.api`); the CLI modules import one another in one
direction only."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from campsolver.service import errors as service_errors
from campsolver.service.registry import games

import campsolver.v1
from campsolver.api import errors as api_errors
from campsolver.api.rpcs import COMMANDS, GAME_SERVICES, game_service, game_services

ROOT = Path(__file__).resolve().parents[1]
#: The client library's modules: none of them may reach the service or the solvers, directly or transitively.
CLIENT_MODULES = (
    "campsolver.clients.base",
    "campsolver.clients.client",
    "campsolver.clients.typed",
    "campsolver.clients.http_client",
)
#: What a client-only process must never import (the server, the solvers and what only they need).
FORBIDDEN = ("campsolver.service", "campsolver.solver", "campsolver.openspiel", "ortools", "numpy", "open_spiel")

#: Run in a fresh interpreter with every FORBIDDEN name unimportable (a meta-path finder that refuses them and
#: records each attempt, so an import whose ImportError something swallows is still seen).
ALONE = r"""
import asyncio, importlib.abc, json, sys

FORBIDDEN = tuple(sys.argv[1].split(","))
attempts = []


class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
            attempts.append(name)
            raise ModuleNotFoundError(f"{name} is refused in a client-only process", name=name)
        return None


sys.meta_path.insert(0, Refuse())
import grpc
from campsolver.api.errors import FieldViolation, error_details, read_error_details
from campsolver.clients import AsyncCampsolverClient, CampsolverClient, CampsolverError
from campsolver.clients.http_client import PROTOCOLS, HttpCampsolverClient
from campsolver.v1 import camper_tour_pb2 as ct

codes = []
# Every game's typed client is built (each reads its RPC table), and a call fails as a client sees it.
with CampsolverClient(sys.argv[2]) as client:
    for name in ("happy-campers", "deluxe-camping", "campsite", "camper-tour", "adventure-tours"):
        assert client.game(name).game.rpcs, name
    try:
        client.camper_tour.score(ct.CamperTourServiceScoreRequest(), timeout=5)
    except CampsolverError as error:
        codes.append(error.code.name)
    try:
        client.camper_tour.call("NoSuchRpc", ct.CamperTourServiceScoreRequest())
    except ValueError as error:
        codes.append("ValueError")


async def scenario():
    async with AsyncCampsolverClient(sys.argv[2]) as client:
        try:
            await client.camper_tour.score(ct.CamperTourServiceScoreRequest(), timeout=5)
        except CampsolverError as error:
            codes.append(error.code.name)

asyncio.run(scenario())
for protocol in PROTOCOLS:
    with HttpCampsolverClient(f"http://{sys.argv[2]}", protocol=protocol) as http:
        try:
            http.call("camper-tour", "Score", ct.CamperTourServiceScoreRequest(), timeout=5)
        except CampsolverError as error:
            codes.append(error.code.name)
# The error details the server writes read back as they were written.
violations = [FieldViolation("options.time_limit_seconds", "must be positive")]
details = error_details("INVALID_FIELD", violations)
assert read_error_details((d.TypeName(), d.value) for d in details) == (violations, "INVALID_FIELD")
loaded = sorted({".".join(m.split(".")[:2]) for m in sys.modules if m.startswith("campsolver.")})
print(json.dumps({"attempts": attempts, "codes": codes, "loaded": loaded}))
"""


def _free_address() -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def test_the_client_works_with_the_service_and_the_solvers_unimportable(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ALONE, ",".join(FORBIDDEN), _free_address()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["attempts"] == [], f"the client library reached for {report['attempts']}"
    assert report["loaded"] == ["campsolver.api", "campsolver.clients", "campsolver.v1"], report["loaded"]
    # No server listens: each transport says so with the gRPC code, and an unknown RPC is refused locally.
    assert report["codes"] == [
        "UNAVAILABLE",
        "ValueError",
        "UNAVAILABLE",
        "UNAVAILABLE",
        "UNAVAILABLE",
        "UNAVAILABLE",
    ], report["codes"]


def test_the_refusal_is_seen() -> None:
    """The finder above does refuse: a module that imports the service fails under it (the test can fail)."""
    script = ALONE.split("import grpc\n")[0] + "import campsolver.clients.cli\n"
    done = subprocess.run(
        [sys.executable, "-c", script, ",".join(FORBIDDEN), "x"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0 and "refused in a client-only process" in done.stderr, done.stderr


# --- the import graph, read from the source (imports inside functions included) ---------------------------------

_PACKAGE_DIRS = {"clients": ROOT / "clients", "service": ROOT / "service", "solver": ROOT / "solver"}


def _source(module: str) -> Path | None:
    """The file of a campsolver module in this repository (the wheel's mapping of solver/, service/, clients/)."""
    parts = module.split(".")
    if parts[0] != "campsolver":
        return None
    rest = parts[1:]
    base = (
        _PACKAGE_DIRS[rest[0]].joinpath(*rest[1:])
        if rest and rest[0] in _PACKAGE_DIRS
        else ROOT.joinpath("campsolver", *rest)
    )
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(module: str) -> set[str]:
    """Every campsolver module `module` imports anywhere in its source, and the packages those sit in."""
    path = _source(module)
    if path is None:
        return set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if _source(f"{base}.{alias.name}"))
    found = {name for name in found if name == "campsolver" or name.startswith("campsolver.")}
    parents = {".".join(name.split(".")[:i]) for name in found for i in range(1, name.count(".") + 1)}
    return found | parents


def _closure(start: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    todo = [*start, *(".".join(m.split(".")[:i]) for m in start for i in range(1, m.count(".") + 1))]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module) - seen)
    return seen


def test_no_client_module_imports_the_service_or_the_solvers_even_inside_a_function() -> None:
    reached = _closure(CLIENT_MODULES)
    assert {"campsolver.api.rpcs", "campsolver.api.errors", "campsolver.clients.typed"} <= reached
    bad = sorted(name for name in reached if name.startswith(FORBIDDEN))
    assert not bad, f"the client library reaches {bad}"
    # ... and the graph walk does see the service where it is imported (the check can fail).
    assert "campsolver.service.registry" in _closure(("campsolver.clients.cli",))


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of `graph`, or [] when it has none."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str]:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target, [*path, target])):
                return found
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node, [node])):
            return found
    return []


def test_the_client_modules_import_one_another_without_a_cycle() -> None:
    """The CLI and `campsolver batch` share their help layout through a third module, not each other."""
    modules = sorted(
        "campsolver.clients." + ".".join(path.relative_to(ROOT / "clients").with_suffix("").parts)
        for path in (ROOT / "clients").rglob("*.py")
        if path.name != "__init__.py"
    )
    graph = {module: {name for name in _imports(module) if name in modules} for module in modules}
    assert "campsolver.clients.batch.cli" in graph["campsolver.clients.cli"]
    assert _cycle(graph) == []
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


# --- one table, read from the descriptors, for both sides ---------------------------------------------------------


def test_the_rpc_table_is_every_service_of_campsolver_v1() -> None:
    declared: set[tuple[str, str]] = set()
    for info in pkgutil.iter_modules(campsolver.v1.__path__, "campsolver.v1."):
        if info.name.endswith("_pb2"):
            module = __import__(info.name, fromlist=["DESCRIPTOR"])
            declared.update((info.name, name) for name in module.DESCRIPTOR.services_by_name)
    assert set(GAME_SERVICES.values()) == declared
    for name, service in game_services().items():
        module_name, service_name = GAME_SERVICES[name]
        descriptor = sys.modules[module_name].DESCRIPTOR.services_by_name[service_name]
        assert service.service_full_name == descriptor.full_name == f"campsolver.v1.{service_name}"
        assert list(service.rpcs) == [method.name for method in descriptor.methods]
        assert set(service.rpcs) == set(COMMANDS.values()), name  # every RPC has its CLI command
        for rpc in service.rpcs.values():
            method = descriptor.methods_by_name[rpc.rpc_name]
            assert rpc.request_type.DESCRIPTOR is method.input_type
            assert rpc.response_type.DESCRIPTOR is method.output_type
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        game_service("chess")


def test_the_server_binds_its_handlers_to_the_same_table() -> None:
    assert list(games()) == list(GAME_SERVICES)
    for name, game in games().items():
        service = game_service(name)
        assert game.service_full_name == service.service_full_name
        for command in game.commands.values():
            rpc = service.by_rpc(command.rpc_name)
            assert (command.request_type, command.response_type) == (rpc.request_type, rpc.response_type)


def test_the_service_raises_errors_with_the_shared_details() -> None:
    """`service.errors` re-exports the shared pieces (one FieldViolation class, one set of caps), and a
    RequestError's status carries exactly the details the clients read."""
    assert service_errors.FieldViolation is api_errors.FieldViolation
    assert service_errors.excerpt is api_errors.excerpt
    assert service_errors.MAX_STATUS_BYTES == api_errors.MAX_STATUS_BYTES
    error = service_errors.InvalidArgument("options.seed", "must be at most 2**63 - 1")
    status = error.to_status()
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    violations, reason = api_errors.read_error_details((d.TypeName(), d.value) for d in status.details)
    assert violations == [api_errors.FieldViolation("options.seed", "must be at most 2**63 - 1")]
    assert reason == "INVALID_FIELD"
    assert list(status.details) == api_errors.error_details("INVALID_FIELD", violations)

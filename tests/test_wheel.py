"""The wheel as a user gets it: built from a clean copy, installed into a fresh venv outside the repository.

The fresh venv takes the pinned dependencies from this repository's `.venv` (a directory of links to every
installed distribution except campsolver itself, put on its path by a `.pth` file), so the test needs no
network and stays fast; pip still resolves the wheel's declared dependency ranges against them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

import campsolver

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    files = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = tmp_path_factory.mktemp("dist")
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        dist,
        source,
        cwd=source,
    )
    (built,) = dist.glob("campsolver-*.whl")
    return built


def test_wheel_installs_one_top_level_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        top_level = {name.split("/")[0] for name in names if ".dist-info/" not in name}
        dist_info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        metadata = archive.read(f"{dist_info}/METADATA").decode()
    assert top_level == {"campsolver"}, top_level
    assert "campsolver/py.typed" in names
    for package in ("solver/core", "service", "clients", "v1", "api", "openspiel"):
        assert f"campsolver/{package}/__init__.py" in names, package
    for page in ("index.html", "app.js", "style.css"):  # the web table the HTTP port serves
        assert f"campsolver/service/web/{page}" in names, page
    assert not any(name.startswith(("campsolver/bench", "campsolver/tools", "bench/", "tools/")) for name in names)
    assert f"Version: {campsolver.__version__}" in metadata
    assert "Requires-Dist: ortools" in metadata and "Requires-Dist: grpcio" in metadata
    # A wheel a user can redistribute and build clients from: its licence, classifiers and the .proto sources.
    assert "License-Expression: Apache-2.0" in metadata and "Classifier: Typing :: Typed" in metadata
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    protos = sorted(p.name for p in (ROOT / "protos" / "campsolver" / "v1").glob("*.proto"))
    assert protos and all(f"campsolver/v1/{name}" in names for name in protos)


def test_wheel_runs_in_a_fresh_venv_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    deps = tmp_path / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if entry.name.lower().startswith(("campsolver", "__editable__", "_campsolver")) or entry.suffix == ".pth":
            continue
        (deps / entry.name).symlink_to(entry)
    (site / "pinned_dependencies.pth").write_text(f"{deps}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{target / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-index",
        "--disable-pip-version-check",
        wheel,
        cwd=tmp_path,
        env=env,
    )
    located = run(
        python,
        "-c",
        "import campsolver.solver, campsolver.v1; print(campsolver.solver.__file__)",
        cwd=tmp_path,
        env=env,
    )
    assert Path(located.strip()).is_relative_to(site), located
    # Every installed module imports (so nothing reaches for the repository's bench/ or tools/).
    importer = (
        "import importlib, pkgutil, campsolver; "
        "names = [m.name for m in pkgutil.walk_packages(campsolver.__path__, 'campsolver.')]; "
        "[importlib.import_module(n) for n in names if n != 'campsolver.__main__']; print(len(names))"
    )
    assert int(run(python, "-c", importer, cwd=tmp_path, env=env)) > 20
    for generic in ("solver", "service", "clients", "bench", "tools"):
        found = run(python, "-c", f"import importlib.util as u; print(u.find_spec({generic!r}))", cwd=tmp_path, env=env)
        assert found.strip() == "None", f"{generic} is importable at the top level: {found}"
    campsolver_cli = target / "bin" / "campsolver"
    assert run(campsolver_cli, "--version", cwd=tmp_path, env=env).strip() == f"campsolver {campsolver.__version__}"
    request = run(campsolver_cli, "happy-campers", "example", "score", cwd=tmp_path, env=env)
    answer = run(
        campsolver_cli,
        "happy-campers",
        "score",
        "--request",
        "-",
        "--format",
        "text",
        cwd=tmp_path,
        stdin=request,
        env=env,
    )
    assert "total" in answer
    assert run(python, "-m", "campsolver", "--version", cwd=tmp_path, env=env).strip().startswith("campsolver ")
    # A real solve through the installed server: its worker processes import the installed modules by name.
    solve = (
        "from campsolver.clients.client import CampsolverClient\n"
        "from campsolver.service.games import camper_tour\n"
        "from campsolver.service.server import CampsolverServer, ServerConfig\n"
        "server = CampsolverServer(ServerConfig(port=0, workers=1)); server.start()\n"
        "request = camper_tour.EXAMPLES['Hint'](); request.options.time_limit_seconds = 0.5\n"
        "with CampsolverClient(server.address) as client:\n"
        "    print(len(client.camper_tour.hint(request, timeout=60).alternatives), server.pool.restarts)\n"
        "server.stop(grace_s=1.0)\n"
    )
    alternatives, restarts = run(python, "-c", solve, cwd=tmp_path, env=env).split()
    assert int(alternatives) > 0 and restarts == "0"


#: What a client-only install needs: the gRPC clients need these three distributions, the HTTP client adds connectrpc
#: (each with its own requirements). README's "Python clients" says the same.
CLIENT_ONLY = ("grpcio", "protobuf", "googleapis-common-protos", "connectrpc")


def _with_requirements(names: tuple[str, ...]) -> set[str]:
    """`names` and every distribution they require, transitively (as installed here; extras left out)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    found: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name.lower() in found:
            continue
        found.add(name.lower())
        for text in metadata.requires(name) or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


def test_a_client_only_install_runs_the_client_library_without_the_server_dependencies(
    wheel: Path, tmp_path: Path
) -> None:
    """The wheel installed with `--no-deps` beside only CLIENT_ONLY and their requirements: no OR-Tools, numpy,
    uvicorn or Ray in reach, and the client library imports and calls (a server that is not there: UNAVAILABLE)."""
    from importlib import metadata

    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    ours = Path(sysconfig.get_paths()["purelib"])
    deps = tmp_path / "deps"
    deps.mkdir()
    for name in sorted(_with_requirements(CLIENT_ONLY)):
        for file in metadata.distribution(name).files or ():
            if ".." in file.parts:
                continue
            top = ours / file.parts[0]
            # A namespace directory (google/) holds several distributions: link only this one's part of it.
            link = (
                file.parts[:2]
                if top.is_dir() and not (top / "__init__.py").exists() and len(file.parts) > 2
                else file.parts[:1]
            )
            if not (deps.joinpath(*link)).exists():
                deps.joinpath(*link).parent.mkdir(parents=True, exist_ok=True)
                deps.joinpath(*link).symlink_to(ours.joinpath(*link))
    (site / "client_dependencies.pth").write_text(f"{deps}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-index",
        "--no-deps",
        "--disable-pip-version-check",
        wheel,
        cwd=tmp_path,
        env=env,
    )
    script = (
        "import importlib.util as u\n"
        "missing = [n for n in ('ortools', 'numpy', 'uvicorn', 'ray') if u.find_spec(n) is None]\n"
        "from campsolver.clients import CampsolverClient, CampsolverError\n"
        "from campsolver.clients.http_client import HttpCampsolverClient\n"
        "from campsolver.v1 import camper_tour_pb2 as ct\n"
        "codes = []\n"
        "with CampsolverClient('127.0.0.1:1') as client:\n"
        "    try: client.camper_tour.score(ct.CamperTourServiceScoreRequest(), timeout=5)\n"
        "    except CampsolverError as error: codes.append(error.code.name)\n"
        "with HttpCampsolverClient('http://127.0.0.1:1') as http:\n"
        "    try: http.call('camper-tour', 'Score', ct.CamperTourServiceScoreRequest(), timeout=5)\n"
        "    except CampsolverError as error: codes.append(error.code.name)\n"
        "print(len(missing), *codes)\n"
    )
    assert run(python, "-c", script, cwd=tmp_path, env=env).split() == ["4", "UNAVAILABLE", "UNAVAILABLE"]

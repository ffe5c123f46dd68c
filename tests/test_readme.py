"""The README's examples run the way a reader runs them.

A reader activates `.venv` (as the README says), works in an empty directory, and types the console lines one
after another in one shell (files written by one line are read by the next); nothing from this repository is
on PYTHONPATH. Lines that talk to a server use 127.0.0.1:50051 in the README; the test starts a server on a
free port and points those lines at it. Python blocks run with the activated interpreter, from that directory.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from campsolver.service.server import CampsolverServer, ServerConfig

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
README_ADDRESS = "127.0.0.1:50051"
#: The environment the README tells the reader to activate (the interpreter running the tests lives in it).
ACTIVATE = Path(sys.executable).parent / "activate"


def console_commands() -> list[str]:
    blocks = re.findall(r"```console\n(.*?)```", README, re.S)
    return [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


@pytest.fixture(scope="module")
def server() -> Iterator[CampsolverServer]:
    running = CampsolverServer(ServerConfig(port=0, workers=2))
    running.start()
    yield running
    running.stop(grace_s=2.0)


def reader_environment(server: CampsolverServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CAMPSOLVER_PROGRESS")}
    env["CAMPSOLVER_SERVER"] = server.address
    return env


def test_readme_has_examples_and_says_how_to_get_the_command() -> None:
    assert len(console_commands()) >= 6
    assert len(python_blocks()) >= 2
    assert "make serve" in README and "make test" in README
    assert "source .venv/bin/activate" in README and ".venv/bin/campsolver" in README
    assert ACTIVATE.exists(), "the tests run from the README's .venv"


def test_console_examples_run_in_one_activated_shell(server: CampsolverServer, tmp_path: Path) -> None:
    script = [f"source {shlex.quote(str(ACTIVATE))}", "set -o pipefail"]
    for command in console_commands():
        command = command.replace(README_ADDRESS, server.address)
        # Each line must succeed; name the failing line.
        script.append(f"{command} || {{ echo {shlex.quote('FAILED: ' + command)} >&2; exit 1; }}")
    result = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=tmp_path,
        env=reader_environment(server),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "puzzle.svg").read_text().startswith("<svg")
    assert (tmp_path / "solution.svg").read_text().startswith("<svg")


def test_python_examples_run(server: CampsolverServer, tmp_path: Path) -> None:
    python = ACTIVATE.parent / "python"
    for block in python_blocks():
        result = subprocess.run(
            [str(python), "-c", block],
            cwd=tmp_path,
            env=reader_environment(server),
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip(), "an example should show its result"

"""The README's examples really run: every `$ ` line of its console blocks, and its Python blocks.

Lines that talk to a server use 127.0.0.1:50051 in the README; the test starts a server on a free port and
points those lines at it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from campsolver.service.server import CampsolverServer, ServerConfig

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
README_ADDRESS = "127.0.0.1:50051"


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


def environment(server: CampsolverServer) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["CAMPSOLVER_SERVER"] = server.address
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_readme_has_examples() -> None:
    assert len(console_commands()) >= 6
    assert python_blocks()
    assert "make serve" in README and "make test" in README


def test_console_examples_run(server: CampsolverServer, tmp_path: Path) -> None:
    env = environment(server)
    for command in console_commands():
        command = command.replace(README_ADDRESS, server.address)
        result = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {command}"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert result.returncode == 0, f"{command}\n{result.stderr}"


def test_python_examples_run(server: CampsolverServer, tmp_path: Path) -> None:
    for block in python_blocks():
        result = subprocess.run(
            [sys.executable, "-c", block],
            cwd=tmp_path,
            env=environment(server),
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip(), "an example should show its result"

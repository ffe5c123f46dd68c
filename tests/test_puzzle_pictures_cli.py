"""`python -m tools.puzzle_pictures` reads its arguments as a command does: `--help` prints the usage and writes
nothing (it made a folder named `--help`), an unknown option or a missing book is one line and exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tools.puzzle_pictures", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_help_prints_the_usage_and_writes_nothing(tmp_path: Path) -> None:
    for flag in ("--help", "-h"):
        done = _tool(flag, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "usage: python -m tools.puzzle_pictures" in done.stdout and "--book" in done.stdout
        assert "OUT_DIR" in done.stdout and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path) -> None:
    unknown = _tool("--bogus", cwd=tmp_path)
    assert unknown.returncode == 2 and "unrecognized arguments: --bogus" in unknown.stderr
    missing = _tool("--book", "nowhere.html", "puzzle-1", "page.png", cwd=tmp_path)
    assert missing.returncode == 2 and "no book at nowhere.html" in missing.stderr
    short = _tool("--book", "nowhere.html", cwd=tmp_path)
    assert short.returncode == 2 and "expected 3 arguments" in short.stderr
    for done in (unknown, missing, short):
        assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []

"""`make test` sets the machine up: the Debian packages the tests drive are checked before anything else, installed
as root (apt-get, quietly, only the missing ones), and otherwise named in one line with the command to run, and
make stops there. The README quotes that line; a package that is present is left alone.

The checks run `make system-deps` with SYSTEM_DEPS naming tools that do not exist (so a missing package is
simulated without removing one) and APT_GET pointing at `echo` (so nothing is installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MISSING = "campsolver-no-such-rsvg=librsvg2-bin campsolver-no-such-chromium=chromium"


def make(*args: str, as_user: bool = False) -> subprocess.CompletedProcess[str]:
    command = ["make", "--no-print-directory", "-C", str(ROOT), *args]
    if as_user and os.getuid() == 0:  # root here (CI, a container): run it as nobody
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("setpriv (util-linux) is needed to run make as another user")
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def test_a_missing_package_stops_a_user_with_one_line_naming_it_and_the_command() -> None:
    done = make("system-deps", f"SYSTEM_DEPS={MISSING}", "APT_GET=echo", as_user=True)
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    line = lines[0]
    assert "librsvg2-bin chromium" in line
    assert "sudo apt-get update && sudo apt-get install -y --no-install-recommends librsvg2-bin chromium" in line
    said = line.split(": ", 1)[1]  # after "Makefile:NN: "
    assert said in (ROOT / "README.md").read_text(), "the README quotes the line a user sees"


def test_make_test_stops_before_the_setup_when_a_package_is_missing() -> None:
    done = make("-n", "test", f"SYSTEM_DEPS={MISSING}", as_user=True)
    assert done.returncode != 0 and "pip install" not in done.stdout and "pytest" not in done.stdout


@pytest.mark.skipif(os.getuid() != 0, reason="the install path is root's")
def test_as_root_the_missing_packages_are_installed_quietly() -> None:
    done = make("system-deps", f"SYSTEM_DEPS={MISSING}", "APT_GET=echo apt-get")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "system-deps: installing librsvg2-bin chromium (apt-get)"
    assert "apt-get update -qq" in done.stdout  # then the install, whose output goes nowhere


def test_present_tools_are_left_alone() -> None:
    done = make("system-deps", "SYSTEM_DEPS=sh=dash", "APT_GET=false", as_user=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""

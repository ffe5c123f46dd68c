"""The time-limit tests hold on a busy machine: they run beside 4 busy loops (more runnable processes than the 2
cores of the project's machines) and must all pass. Slow: `make test-loaded` runs it, `make test-slow` too."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tools.busy import busy_loops

ROOT = Path(__file__).resolve().parents[1]
#: The loaded run's own limit: the loops stop by themselves after it, and the run is ended by it.
LOADED_RUN_S = 900


def test_busy_loops_load_the_machine_and_stop_by_themselves() -> None:
    """The harness is real load (the loops take CPU) and bounded (a loop ends by itself at its limit)."""
    with busy_loops(2, max_s=1.0) as loops:
        time.sleep(0.3)
        assert all(loop.poll() is None for loop in loops)
        cpu = [float(Path(f"/proc/{loop.pid}/stat").read_text().rsplit(")", 1)[1].split()[11]) for loop in loops]
        assert all(ticks > 0 for ticks in cpu)  # user-mode clock ticks: they spin
        for loop in loops:
            assert loop.wait(timeout=10) == 0  # ended by its own deadline, not killed
    assert all(loop.returncode == 0 for loop in loops)


@pytest.mark.slow
def test_time_limit_tests_pass_beside_four_busy_loops() -> None:
    with busy_loops(4, max_s=LOADED_RUN_S):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-m", "timing and not slow", "-p", "no:cacheprovider"],
            cwd=ROOT,
            env={**os.environ},
            capture_output=True,
            text=True,
            timeout=LOADED_RUN_S,
            stdin=subprocess.DEVNULL,
        )
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    print(summary)
    assert done.returncode == 0, done.stdout[-6000:]
    assert " passed" in summary and "failed" not in summary

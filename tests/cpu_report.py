"""Per-test CPU seconds (this process, its reaped children and its live descendants, e.g. solver workers), for
deciding what the default run can afford: `CAMPSOLVER_TEST_CPU=cpu.tsv make test` writes one row a test (nodeid,
CPU seconds, wall seconds), heaviest first (with pytest-xdist workers, each writes its own rows beside it and the
controlling process merges them). Wall time on a shared machine says more about the neighbours than
about the test; CPU seconds do not."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

_TICK = os.sysconf("SC_CLK_TCK")


def _descendants_cpu() -> float:
    """CPU seconds of the live processes below this one (user + system, with their own reaped children)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(v) for v in fields[11:15]) / _TICK
    me, total = os.getpid(), 0.0
    for pid in times:
        ancestor = parents.get(pid)
        seen = 0
        while ancestor is not None and ancestor > 1 and seen < 64:
            if ancestor == me:
                total += times[pid]
                break
            ancestor, seen = parents.get(ancestor), seen + 1
    return total


def cpu_now() -> float:
    """This process's CPU, its reaped children's, and its live descendants'."""
    own = os.times()
    return own.user + own.system + own.children_user + own.children_system + _descendants_cpu()


class CpuReport:
    """A pytest plugin: CPU and wall seconds of each test, setup and teardown included."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[str, list[float]] = {}
        if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controlling (or only) process: no stale worker rows
            for part in self.worker_files():
                part.unlink()

    def worker_files(self) -> list[Path]:
        """The xdist workers' row files beside the target (`<name>.gw0`, `<name>.gw1`, ...)."""
        pattern = re.compile(re.escape(self.path.name) + r"\.gw\d+")
        return sorted(p for p in self.path.parent.iterdir() if pattern.fullmatch(p.name))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        cpu0, wall0 = cpu_now(), time.monotonic()
        yield
        row = self.rows.setdefault(item.nodeid, [0.0, 0.0])
        row[0] += cpu_now() - cpu0
        row[1] += time.monotonic() - wall0

    def pytest_sessionfinish(self, session) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker:  # an xdist worker: its own rows, for the controlling process to merge
            self.write(self.path.with_name(f"{self.path.name}.{worker}"))
            return
        for part in self.worker_files():
            for line in part.read_text().splitlines()[1:]:
                node, cpu, wall = line.split("\t")
                self.rows[node] = [float(cpu), float(wall)]
            part.unlink()
        self.write(self.path)

    def write(self, path: Path) -> None:
        lines = [
            f"{node}\t{cpu:.3f}\t{wall:.3f}"
            for node, (cpu, wall) in sorted(self.rows.items(), key=lambda kv: -kv[1][0])
        ]
        path.write_text("nodeid\tcpu_s\twall_s\n" + "\n".join(lines) + "\n")

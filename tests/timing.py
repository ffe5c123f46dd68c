"""Time-limit asserts that hold on a loaded machine.

A solver stops on the wall clock, then finishes what it was doing (its last iteration, ranking, the answer). That
finishing work is CPU work: on an idle core it takes a few milliseconds of wall time, on a core shared with busy
processes it takes that divided by the share of the core the process gets. So the tests judge the overrun past a
limit in CPU terms: `overrun x share`, where the share is the process's CPU seconds per wall second over the
call (at most 1). On an idle machine the share is ~1 and the assert is the plain wall-clock one; with 4 busy
loops beside the suite the allowance grows with the load; a solver that ignores its limit keeps the CPU busy the
whole overrun, so its CPU overrun stays large and the assert still fails.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

#: The smallest share counted: a process descheduled almost the whole call is judged as if it had 5% of a core.
MIN_SHARE = 0.05


@dataclass
class Timed:
    """Wall and process CPU seconds over a `with` block (all threads of this process)."""

    wall: float = 0.0
    cpu: float = 0.0
    _wall0: float = field(default=0.0, repr=False)
    _cpu0: float = field(default=0.0, repr=False)

    def __enter__(self) -> Timed:
        self._wall0, self._cpu0 = time.monotonic(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.monotonic() - self._wall0
        self.cpu = time.process_time() - self._cpu0

    @property
    def share(self) -> float:
        """CPU seconds per wall second over the block, between MIN_SHARE and 1."""
        if self.wall <= 0.0:
            return 1.0
        return min(max(self.cpu / self.wall, MIN_SHARE), 1.0)

    def overrun(self, limit_s: float) -> float:
        """Wall seconds past `limit_s`, scaled to what they cost at the share this process had (CPU terms)."""
        return max(self.wall - limit_s, 0.0) * self.share

    def within(self, limit_s: float, margin_s: float) -> bool:
        """The block ended within `limit_s` plus `margin_s` of finishing work, counted in CPU terms."""
        return self.overrun(limit_s) <= margin_s

    def explain(self, limit_s: float, margin_s: float) -> str:
        return (
            f"wall {self.wall:.3f} s, cpu {self.cpu:.3f} s, share {self.share:.2f}: overrun "
            f"{self.overrun(limit_s):.3f} s in CPU terms past {limit_s} s (allowed {margin_s} s)"
        )


def cpu_share_now(probe_s: float = 0.2) -> float:
    """The share of a core a busy thread of this process gets right now (between MIN_SHARE and 1), by spinning
    for `probe_s` wall seconds: for a time limit kept in another process (a solver worker), where this process's
    own CPU time says nothing about the load. Idle machine: ~1; two cores with 4 busy loops beside: ~0.4."""
    wall0, cpu0 = time.monotonic(), time.thread_time()
    while time.monotonic() - wall0 < probe_s:
        pass
    wall, cpu = time.monotonic() - wall0, time.thread_time() - cpu0
    return min(max(cpu / wall, MIN_SHARE), 1.0) if wall > 0 else 1.0


def loaded(seconds: float, share: float) -> float:
    """`seconds` of an idle machine's wall time, stretched for a process that gets `share` of a core."""
    return seconds / min(max(share, MIN_SHARE), 1.0)


def within_loaded(seconds: float, limit_s: float) -> bool:
    """`seconds` (a wall time measured elsewhere, e.g. by a solver worker) is within `limit_s` on an idle machine,
    or within it stretched by the core share a busy thread gets now (probed only when the plain check fails)."""
    return seconds < limit_s or seconds < loaded(limit_s, cpu_share_now())

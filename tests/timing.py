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
        return (f"wall {self.wall:.3f} s, cpu {self.cpu:.3f} s, share {self.share:.2f}: overrun "
                f"{self.overrun(limit_s):.3f} s in CPU terms past {limit_s} s (allowed {margin_s} s)")


def load_allowance(wall_s: float, cpu_s: float) -> float:
    """How many times longer a wall interval may be on this machine now: 1 / the process's CPU share."""
    if wall_s <= 0.0:
        return 1.0
    return 1.0 / min(max(cpu_s / wall_s, MIN_SHARE), 1.0)

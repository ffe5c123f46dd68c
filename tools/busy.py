"""Busy loops beside a test run: the load a shared machine puts on the suite, bounded and self-stopping.

`busy_loops(4, max_s=600)` starts 4 processes that each spin on the CPU until `max_s` has passed (they stop by
themselves even if nobody stops them) and ends them when the `with` block ends. `make test-loaded` and the slow
test `tests/test_timing_under_load.py` run the time-limit tests (`-m timing`) inside it, to show that no
time-limit assert fails because the machine is busy.

    python -m tools.busy 4 600     # 4 loops for at most 600 s, from a shell
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: The loop each process runs: spin until its own deadline (so a loop whose parent died still stops).
LOOP = "import time\nend = time.monotonic() + {max_s}\nwhile time.monotonic() < end:\n    pass\n"


@contextmanager
def busy_loops(count: int = 4, max_s: float = 600.0) -> Iterator[list[subprocess.Popen]]:
    """`count` CPU-bound processes for the `with` block, each ending by itself after `max_s` seconds at most."""
    if count < 0 or max_s <= 0:
        raise ValueError("count must be >= 0 and max_s > 0")
    loops = [
        subprocess.Popen([sys.executable, "-c", LOOP.format(max_s=float(max_s))], stdin=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        yield loops
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    count = int(args[0]) if args else 4
    max_s = float(args[1]) if len(args) > 1 else 600.0
    with busy_loops(count, max_s) as loops:
        for loop in loops:
            loop.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

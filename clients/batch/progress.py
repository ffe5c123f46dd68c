"""A progress bar on stderr: done/total, rate, ETA and failures (a redrawn line on a terminal, plain lines else)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 24
#: Seconds between plain-line updates when stderr is not a terminal (logs stay short).
LINE_INTERVAL_S = 5.0


def format_duration(seconds: float) -> str:
    seconds = max(round(seconds), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total = 0
        self.done = 0
        self.already = 0
        self.failed = 0
        self.started = time.monotonic()
        self._last_draw = 0.0
        self._drawn: tuple[int, int] | None = None

    def start(self, total: int, already: int) -> None:
        self.total, self.done, self.already = total, already, already
        self.started = time.monotonic()
        self._draw(force=True)

    def advance(self, failed: bool = False) -> None:
        self.done += 1
        self.failed += failed
        self._draw(force=False)

    def refresh(self) -> None:
        self._draw(force=False)

    def finish(self) -> None:
        self._draw(force=True)
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        ran = self.done - self.already
        rate = ran / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = format_duration(left / rate) if rate > 0 else "?"
        filled = BAR_WIDTH * self.done // self.total if self.total else BAR_WIDTH
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        return f"{self.label} [{bar}] {self.done}/{self.total} {rate:.2f} task/s ETA {eta} failures {self.failed}"

    def _draw(self, force: bool) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        interval = 0.2 if self.tty else LINE_INTERVAL_S
        if not force and now - self._last_draw < interval and self.done < self.total:
            return
        if not self.tty and self._drawn == (self.done, self.failed):
            return
        self._last_draw = now
        self._drawn = (self.done, self.failed)
        if self.tty:
            self.stream.write("\r\x1b[K" + self.line())
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

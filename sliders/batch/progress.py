"""A progress bar on stderr with the rate and the time left.

On a terminal it redraws one line at most ten times a second; into a file or a pipe it writes a
plain line every ``interval`` seconds and at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(
        self,
        total: int,
        label: str = "shots",
        stream: TextIO | None = None,
        interval: float = 5.0,
        width: int = 28,
    ) -> None:
        self.total, self.label, self.width = total, label, width
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = 0.1 if self.tty else interval
        self.start = time.perf_counter()
        self.last = -1e9
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        now = time.perf_counter()
        if done >= total or now - self.last >= self.interval:
            self.last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        now = time.perf_counter() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        frac = self.done / self.total if self.total else 1.0
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        filled = int(round(frac * self.width))
        bar = "█" * filled + "·" * (self.width - filled)
        eta = _clock(left) if self.done < self.total else "done in " + _clock(elapsed)
        tail = f"{eta} left" if self.done < self.total else eta
        return (
            f"[{bar}] {frac:4.0%} {self.done:,}/{self.total:,} {self.label}  "
            f"{rate:,.0f} {self.label}/s  {tail}"
        )

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

    def _draw(self, now: float) -> None:
        text = self.line(now)
        if self.tty:
            self.stream.write("\r" + text + "\x1b[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):
        return "?"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}"

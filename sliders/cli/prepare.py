"""Making the exact engine ready before a command's work, with a count of the parts done when it
must be compiled, so that a command never waits in silence.

The install compiles the engine's kernels (docs/model.md, "Compiled at install"); they are
compiled again on this machine only when the install could not, when numba's cache is kept
elsewhere (``NUMBA_CACHE_DIR``), or after an upgrade of numba or an edit of the kernels.
:func:`exact_cache_cold` asks the engine whether its cache serves this machine, without compiling
anything, and :func:`prepare_engine` then compiles it at once, on standard error a line that says
so and the parts done with an estimate of the time left. A warm cache loads in a second and
says nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from sliders.cli.args import DEFAULT_ENGINE
from sliders.physics.interface import progress_note

NOTE = "sliders: compiling the physics engine for this machine (once; its install did not)…"
EVERY = 10
"""parts between two progress lines where standard error is not a terminal (on a terminal the
one line is rewritten at each part)"""


def prepare_engine(engine: str | None, out: TextIO | None = None) -> bool:
    """Compile the exact engine now, its progress on ``out`` (standard error), when ``engine``
    (``None``: the default) is the exact one and its compiled kernels are not cached for this
    machine; True if it did."""
    if (engine or DEFAULT_ENGINE) != "exact" or not exact_cache_cold():
        return False
    from sliders.physics.exact.compile import ensure_compiled

    stream = out or sys.stderr
    print(NOTE, file=stream, flush=True)
    ensure_compiled(progress=_Meter(stream))
    return True


def exact_cache_cold() -> bool:
    """True when using the exact engine in this process will compile its kernels
    (:func:`sliders.physics.exact.compile.compile_needed`); False when they are ready, or when
    numba is missing (the command says so in its own words)."""
    try:
        from sliders.physics.exact.compile import compile_needed
    except ImportError:
        return False
    return compile_needed()


class _Meter:
    """Tells the parts compiled and the seconds left at the pace so far: one line rewritten on a
    terminal, a line every :data:`EVERY` parts elsewhere."""

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.perf_counter) -> None:
        self.out = out
        self.clock = clock
        self.t0 = clock()
        self.tty = out.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.tty and done % EVERY and done != total:
            return
        line = progress_note("  compiled", done, total, self.clock() - self.t0)
        end = "\n" if not self.tty or done == total else ""
        print(
            ("\r" if self.tty else "") + line.ljust(60 if self.tty else 0),
            end=end,
            file=self.out,
            flush=True,
        )

"""The one line a command prints before the exact engine is compiled, so that the first run on a
machine (or after an upgrade) never waits in silence.

numba compiles the engine's kernels at their first use and caches the machine code beside the
sources; :func:`exact_cache_cold` asks the engine whether that cache serves this machine, without
compiling anything, and
:func:`announce_compile` prints the line when the cache cannot serve this machine. A warm cache
loads in a second or two and says nothing.
"""

from __future__ import annotations

import sys
from typing import TextIO

from sliders.cli.args import DEFAULT_ENGINE

NOTE = (
    "sliders: preparing the physics engine (first run only, about 20 s; "
    "a few minutes on a busy machine)…"
)


def announce_compile(engine: str | None, out: TextIO | None = None) -> bool:
    """Print :data:`NOTE` on stderr if ``engine`` (``None``: the default) is the exact one and its
    compiled kernels are not cached yet; True if it did."""
    if (engine or DEFAULT_ENGINE) != "exact" or not exact_cache_cold():
        return False
    print(NOTE, file=out or sys.stderr, flush=True)
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

"""The one line a command prints before the exact engine is compiled, so that the first run on a
machine (or after an upgrade) never waits in silence.

numba compiles the engine's kernels at their first use and caches the machine code beside the
sources; :func:`exact_cache_cold` reads that cache's index, without compiling anything, and
:func:`announce_compile` prints the line when the cache cannot serve this machine. A warm cache
loads in a second or two and says nothing.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from sliders.cli.args import DEFAULT_ENGINE

NOTE = (
    "sliders: preparing the physics engine (first run only, about 20 s; "
    "a few minutes on a busy machine)…"
)
ENTRY_POINTS = (
    "start",
    "advance",
    "advance_shot",
    "states_at",
    "classify_at",
    "placement_clear",
    "run_batch",
)
"""the kernels the engine's warm-up calls; a cache holding them all is warm"""


def announce_compile(engine: str | None, out: TextIO | None = None) -> bool:
    """Print :data:`NOTE` on stderr if ``engine`` (``None``: the default) is the exact one and its
    compiled kernels are not cached yet; True if it did."""
    if (engine or DEFAULT_ENGINE) != "exact" or not exact_cache_cold():
        return False
    print(NOTE, file=out or sys.stderr, flush=True)
    return True


def exact_cache_cold() -> bool:
    """True when using the exact engine in this process will compile its kernels: they are not
    compiled in this process yet and numba's cache holds no machine code of them for this machine
    and these sources. False when they are ready, or when the cache cannot be read (the engine
    then says so itself once it has compiled)."""
    try:
        from sliders.physics.exact import compile as exact_compile

        if getattr(exact_compile, "_ready", False):
            return False
        from sliders.physics.exact import kernels
    except ImportError:  # no numba: the command says so in its own words
        return False
    try:
        dispatchers = {
            name: f for name, f in vars(kernels).items() if getattr(f, "_cache", None) is not None
        }
        entries = [dispatchers[n] for n in ENTRY_POINTS if n in dispatchers]
        if entries:
            return not all(_cached(f) for f in entries)
        return not any(_cached(f) for f in dispatchers.values())
    except Exception:  # numba's cache is not public: if it changes, say nothing rather than fail
        return False


def _cached(dispatcher: Any) -> bool:
    """Whether numba's cache index of ``dispatcher`` holds code for this machine (an index left
    by other sources or another numba version reads as empty)."""
    index = dispatcher._cache._cache_file._load_index()
    machine = dispatcher.targetctx.codegen().magic_tuple()
    return any(key[1] == machine for key in index)

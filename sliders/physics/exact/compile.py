"""Compiling the kernels once: numba caches the machine code beside the sources (``cache=True``),
so only the first use on a machine (or after an upgrade) pays for it; that use says so on stderr
when it takes more than a moment."""

from __future__ import annotations

import math
import sys
import time

import numpy as np

_ready = False
NOTICE_AFTER = 1.5
"""seconds of compiling after which the first use prints a line"""


def ensure_compiled(quiet: bool = False) -> float:
    """Compile (or load from numba's cache) every kernel by running a tiny shot; returns the
    seconds it took (0 once done in this process)."""
    global _ready
    if _ready:
        return 0.0
    from sliders.physics.exact import (
        classification,
        loop,
        motion,
        paths,
        prediction,
        resolution,
        rim,
        roots,
        state,
    )

    t0 = time.perf_counter()
    _warm_up()
    _ready = True
    took = time.perf_counter() - t0
    modules = (classification, loop, motion, paths, prediction, resolution, rim, roots, state)
    compiled = any(
        sum(f.stats.cache_misses.values())
        for module in modules
        for f in vars(module).values()
        if hasattr(f, "stats") and hasattr(f.stats, "cache_misses")
    )
    if compiled and took > NOTICE_AFTER and not quiet:
        print(
            f"sliders: compiled the exact physics engine in {took:.0f} s (once; cached for next time)",
            file=sys.stderr,
        )
    return took


def _warm_up() -> None:
    """Run every entry compiled code offers from Python once, on a tiny table."""
    from sliders.physics.exact import state as st
    from sliders.physics.exact.classification import classify_at, classify_many, placement_clear
    from sliders.physics.exact.loop import BatchOut, lay_out, run_batch, solve

    params = np.zeros(st.NPARAM)
    params[st.P_R], params[st.P_M], params[st.P_DEC], params[st.P_ALPHA] = 0.0125, 0.015, 0.49, 1.0
    params[st.P_EP], params[st.P_ER], params[st.P_KO], params[st.P_KOF] = 0.8, 0.6, 1.0, 1.0
    params[st.P_MAXT], params[st.P_HOLE], params[st.P_RC] = 10.0, 0.015, 0.0025
    params[st.P_G], params[st.P_H], params[st.P_TDROP] = 9.81, 0.005, 0.03
    rails = np.array([[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.003]])
    arena = st.Arena(rails, np.array([[2.0, -1.0, 3.0, 1.0]]), params)
    zones = st.Zones(
        np.array([[-1.0, -1.0, 1.0, 1.0]]),
        np.zeros((4, 1), dtype=np.bool_),
        np.zeros(9),
        np.zeros((0, 2)),
        np.zeros((0, 2)),
        np.zeros((0, 3)),
    )
    tough = np.ones(2)
    table = np.array([[0.1, 0.0]])
    state = st.new_state(2, 16)
    lay_out(state, table, np.zeros(2), np.array([1.0, 0.0]), False)
    solve(state, arena, tough, math.inf, 1000, True, np.zeros((2, 6)))
    classify_at(0.0, 0.0, 0, zones)
    classify_many(np.zeros(1), np.zeros(1), np.zeros(1, np.int64), zones,
                  np.zeros(1, np.int8), np.zeros(1, np.int16))  # fmt: skip
    placement_clear(np.zeros((1, 2)), rails, zones.surface, 0.0125, 1e-12)
    out = BatchOut(np.zeros((1, 2), np.int8), np.zeros((1, 2), np.int16), np.zeros((1, 2, 2)),
                   np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.bool_))  # fmt: skip
    run_batch(table, np.zeros(2, dtype=np.int64), np.zeros((1, 2)), np.array([[1.0, 0.0]]),
              np.zeros(1, np.bool_), arena, zones, tough.reshape(1, 2), 1000, out)  # fmt: skip

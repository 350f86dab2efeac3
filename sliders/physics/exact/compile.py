"""Compiling the kernels once: numba caches the machine code beside the sources (``cache=True``),
so only the first use on a machine (or after an upgrade) pays for it; that use says so on stderr
when it takes more than a moment."""

from __future__ import annotations

import sys
import time

_ready = False
NOTICE_AFTER = 1.5
"""seconds of compiling after which the first use prints a line"""


def ensure_compiled(quiet: bool = False) -> float:
    """Compile (or load from numba's cache) every kernel by running a tiny shot; returns the
    seconds it took (0 once done in this process)."""
    global _ready
    if _ready:
        return 0.0
    from sliders.physics.exact import kernels

    t0 = time.perf_counter()
    _warm_up()
    _ready = True
    took = time.perf_counter() - t0
    compiled = any(
        sum(f.stats.cache_misses.values())
        for f in vars(kernels).values()
        if hasattr(f, "stats") and hasattr(f.stats, "cache_misses")
    )
    if compiled and took > NOTICE_AFTER and not quiet:
        print(
            f"sliders: compiled the exact physics engine in {took:.0f} s (once; cached for next time)",
            file=sys.stderr,
        )
    return took


def _warm_up() -> None:
    import math

    import numpy as np

    from sliders.physics.exact import kernels as k

    S = np.zeros((2, k.NSTATE))
    F = np.zeros((2, k.NFLAG), dtype=np.int64)
    F[:, k.STAT] = k.ON_TABLE
    S[0, k.VX] = 1.0
    S[1, k.X] = 0.1
    P = np.zeros(k.NPARAM)
    P[k.P_R], P[k.P_M], P[k.P_DEC], P[k.P_ALPHA] = 0.0125, 0.015, 0.49, 1.0
    P[k.P_EP], P[k.P_ER], P[k.P_KO], P[k.P_KOF], P[k.P_MAXT] = 0.8, 0.6, 1.0, 1.0, 10.0
    P[k.P_HOLE], P[k.P_RC], P[k.P_G], P[k.P_H], P[k.P_TDROP] = 0.015, 0.0025, 9.81, 0.005, 0.03
    rails = np.array([[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.003]])
    cells = np.array([[2.0, -1.0, 3.0, 1.0]])
    PT = np.full((2, 2), math.inf)
    ET = np.full(2, math.inf)
    EK = np.zeros(2, dtype=np.int64)
    EA = np.zeros(2, dtype=np.int64)
    clock = np.zeros(2)
    C = np.zeros(3, dtype=np.int64)
    rec = np.zeros((16, 7))
    gen = np.random.default_rng(0)
    k.start(S, F, PT, ET, EK, EA, 0.0, rails, cells, P)
    k.advance(S, F, PT, ET, EK, EA, clock, C, rails, cells, P, gen, rec, math.inf, 1000)
    k.states_at(S, 0.5, P, np.zeros((2, 6)))
    S[:] = 0.0
    S[0, k.VX] = 1.0
    S[1, k.X] = 0.1
    F[:, k.STAT] = k.ON_TABLE
    now = np.zeros((2, 6))
    k.advance_shot(
        S, F, PT, ET, EK, EA, clock, C, rails, cells, P, gen, rec, math.inf, 1000, True, now
    )
    face = np.zeros(9)
    surface = np.array([[-1.0, -1.0, 1.0, 1.0]])
    own = np.zeros((4, 1), dtype=np.bool_)
    rings = np.zeros((0, 2))
    corners = np.zeros((0, 2))
    dots = np.zeros((0, 3))
    k.classify_at(0.0, 0.0, 0, surface, own, face, rings, corners, dots)
    k.placement_clear(np.zeros((1, 2)), rails, surface, 0.0125, 1e-12)
    table = np.array([[0.1, 0.0]])
    seats = np.zeros(2, dtype=np.int64)
    k.run_batch(table, seats, np.zeros((1, 2)), np.array([[1.0, 0.0]]), np.zeros(1, np.bool_),
                rails, cells, P, surface, own, face, rings, corners, dots, gen, 1000,
                np.zeros((1, 2), np.int8), np.zeros((1, 2), np.int16), np.zeros((1, 2, 2)),
                np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.bool_))  # fmt: skip

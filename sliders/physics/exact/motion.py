"""Motion between events: a pawn's state at any time from its segment.

Between events every pawn moves in a straight line with constant deceleration ``dec = mu_roll·g``
until it stops, and spins down at ``alpha = spin_damping_torque / I`` until its spin is gone.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from numba import njit

from sliders.physics.exact.state import (
    BX0,
    BX1,
    BY0,
    BY1,
    P_ALPHA,
    P_DEC,
    T0,
    TH,
    V_REST,
    VX,
    VY,
    State,
    W,
    X,
    Y,
)

if TYPE_CHECKING:
    from sliders.physics.exact.state import Floats


@njit(cache=True, error_model="numpy")
def state_at(
    seg: Floats, i: int, t: float, dec: float, alpha: float
) -> tuple[float, float, float, float, float, float]:
    """(x, y, vx, vy, spin, heading) of pawn ``i`` at time ``t`` (≥ its segment's start)."""
    tau = t - seg[i, T0]
    x, y, vx, vy = seg[i, X], seg[i, Y], seg[i, VX], seg[i, VY]
    v = math.hypot(vx, vy)
    if v > 0.0:
        ts = v / dec
        if tau >= ts:
            s = 0.5 * v * ts
            vn = 0.0
        else:
            s = (v - 0.5 * dec * tau) * tau
            vn = v - dec * tau
        ux, uy = vx / v, vy / v
        x += ux * s
        y += uy * s
        vx, vy = ux * vn, uy * vn
    w, th = seg[i, W], seg[i, TH]
    if w != 0.0:
        aw = abs(w)
        sg = 1.0 if w > 0 else -1.0
        if alpha > 0.0 and tau >= aw / alpha:
            th += sg * 0.5 * aw * aw / alpha
            w = 0.0
        else:
            th += sg * (aw - 0.5 * alpha * tau) * tau
            w = sg * (aw - alpha * tau)
    return x, y, vx, vy, w, th


@njit(cache=True, error_model="numpy")
def rebase(seg: Floats, i: int, t: float, dec: float, alpha: float) -> None:
    """Start pawn ``i``'s segment anew at time ``t``."""
    x, y, vx, vy, w, th = state_at(seg, i, t, dec, alpha)
    seg[i, X], seg[i, Y], seg[i, VX], seg[i, VY], seg[i, W], seg[i, TH] = x, y, vx, vy, w, th
    seg[i, T0] = t


@njit(cache=True, error_model="numpy")
def states_at(state: State, t: float, params: Floats, out: Floats) -> None:
    """Every pawn's (x, y, vx, vy, spin, heading) at time ``t`` into ``out`` (n × 6)."""
    seg = state.segments
    for i in range(seg.shape[0]):
        x, y, vx, vy, w, th = state_at(seg, i, t, params[P_DEC], params[P_ALPHA])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4], out[i, 5] = x, y, vx, vy, w, th


@njit(cache=True, error_model="numpy")
def time_to_travel(s: float, v: float, dec: float) -> float:
    """The time a pawn starting at speed ``v`` takes to roll ``s`` (≤ its stopping distance)."""
    root = v * v - 2.0 * dec * s
    return 2.0 * s / (v + math.sqrt(root if root > 0.0 else 0.0))


@njit(cache=True, error_model="numpy")
def stopping_distance(v: float, dec: float) -> float:
    """How far a pawn starting at speed ``v`` rolls before it stops."""
    return 0.5 * v * v / dec


@njit(cache=True, error_model="numpy")
def set_box(seg: Floats, i: int, dec: float) -> None:
    """Pawn ``i``'s path box, from the start of its segment to where it would stop."""
    x, y = seg[i, X], seg[i, Y]
    v = math.hypot(seg[i, VX], seg[i, VY])
    qx, qy = x, y
    if v > 0.0:
        reach = 0.5 * v / dec
        qx, qy = x + seg[i, VX] * reach, y + seg[i, VY] * reach
    seg[i, BX0], seg[i, BX1] = min(x, qx), max(x, qx)
    seg[i, BY0], seg[i, BY1] = min(y, qy), max(y, qy)


@njit(cache=True, error_model="numpy")
def is_still(seg: Floats, i: int) -> bool:
    """Whether pawn ``i``'s segment does not translate."""
    return bool(seg[i, VX] == 0.0 and seg[i, VY] == 0.0)


@njit(cache=True, error_model="numpy")
def settle_slow(seg: Floats, i: int) -> None:
    """Stop pawn ``i`` if it is left slower than V_REST (it would roll less than 1e-12 m)."""
    if math.hypot(seg[i, VX], seg[i, VY]) < V_REST:
        seg[i, VX] = 0.0
        seg[i, VY] = 0.0

"""Resolution at the hole's rim: a pawn's centre reaching the rim from over the hole climbs out or
bounces back, and a pawn whose bounces die away rolls along the rim.

A pawn whose centre is over the hole dips (its ball sinks by d = min(h, g·τ²/2) after τ over it);
to leave it must climb that dip with its outward speed. One that cannot bounces back at the rail
restitution; once its bounce back is under V_SLOW (the chords between bounces shrink
geometrically, a Zeno sequence) it rolls along the rim, its dip holding it in, until rolling
resistance stops it (an arc of v_t²/(2μg) for its speed along the rim v_t).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from numba import njit

from sliders.physics.exact.motion import settle_slow, state_at
from sliders.physics.exact.paths import arc_segment_distance
from sliders.physics.exact.state import (
    INR,
    ON_RIM,
    ON_TABLE,
    OVER_HOLE,
    P_ALPHA,
    P_DEC,
    P_ER,
    P_G,
    P_H,
    P_R,
    RA_X,
    RA_Y,
    RB_X,
    RB_Y,
    RH,
    RIM_TURN,
    STAT,
    TIN,
    TOUCH,
    V_SLOW,
    VX,
    VY,
    Arena,
    X,
    Y,
)

if TYPE_CHECKING:
    from sliders.physics.exact.state import Floats, Ints


@njit(cache=True, error_model="numpy")
def climb_out(seg: Floats, flags: Ints, i: int, now: float, arena: Arena) -> bool:
    """Pawn ``i``'s centre reaches the hole's rim moving out: its ball, dipped by
    d = min(h, g·τ²/2) after τ over the hole, must climb. Returns True if it leaves."""
    params = arena.params
    px, py = seg[i, X], seg[i, Y]
    d = math.hypot(px, py)
    nx, ny = px / d, py / d
    vn = seg[i, VX] * nx + seg[i, VY] * ny
    tau = now - seg[i, TIN]
    dip = 0.5 * params[P_G] * tau * tau
    if dip > params[P_H]:
        dip = params[P_H]
    need = 2.0 * params[P_G] * dip
    if vn * vn > need:
        new = math.sqrt(vn * vn - need)
        out = True
    else:
        new = -params[P_ER] * vn
        out = False
        if -new < V_SLOW:
            _roll_along_rim(seg, flags, i, d, nx, ny, now, arena)
            return False
    seg[i, VX] += (new - vn) * nx
    seg[i, VY] += (new - vn) * ny
    settle_slow(seg, i)
    return out


@njit(cache=True, error_model="numpy")
def turn_along_rim(seg: Floats, i: int) -> None:
    """Pawn ``i``, rolling along the rim, reaches a corner of its polygon: it turns onto the
    next side, its speed kept."""
    vx, vy = seg[i, VX], seg[i, VY]
    seg[i, VX], seg[i, VY] = _along_rim(
        seg[i, X], seg[i, Y], seg[i, X] * vy - seg[i, Y] * vx, math.hypot(vx, vy)
    )


@njit(cache=True, error_model="numpy")
def leave_rim(flags: Ints, i: int) -> None:
    """A pawn rolling along the rim that is stopped or hit moves on freely over the hole."""
    if flags[i, INR] == ON_RIM:
        flags[i, INR] = OVER_HOLE


@njit(cache=True, error_model="numpy")
def _roll_along_rim(
    seg: Floats, flags: Ints, i: int, d: float, nx: float, ny: float, now: float, arena: Arena
) -> None:
    """Pawn ``i``, at distance ``d`` from the hole's centre in direction (nx, ny), rolls along
    the rim.

    When no other pawn and no rail comes within reach of its arc (:func:`_rim_clear`, whatever
    they do from now on), nothing can meet it: it is put to rest that far along the rim, just
    inside it. Otherwise it rolls along the polygon of corners RIM_TURN apart inscribed just
    inside the rim, side by side (``INR`` is ON_RIM; :func:`turn_along_rim` at each corner), so
    that it meets the others as any rolling pawn does; a contact ends the roll."""
    vt = seg[i, VX] * -ny + seg[i, VY] * nx
    sweep = 0.5 * vt * abs(vt) / arena.params[P_DEC] / d
    angle = math.atan2(ny, nx) + sweep
    inside = d - TOUCH
    if _rim_clear(seg, flags, i, inside, math.atan2(ny, nx), sweep, now, arena):
        seg[i, X], seg[i, Y] = inside * math.cos(angle), inside * math.sin(angle)
        seg[i, VX] = 0.0
        seg[i, VY] = 0.0
        return
    flags[i, INR] = ON_RIM
    seg[i, VX], seg[i, VY] = _along_rim(seg[i, X], seg[i, Y], vt, abs(vt))


@njit(cache=True, error_model="numpy")
def _along_rim(px: float, py: float, sense: float, speed: float) -> tuple[float, float]:
    """The velocity of a pawn at (px, py) on the rim rolling along it at ``speed``
    (anticlockwise when ``sense`` > 0): along the polygon's side to its next corner, turned in
    from the rim's tangent by half of RIM_TURN."""
    d = math.hypot(px, py)
    nx, ny = px / d, py / d
    sg = 1.0 if sense > 0.0 else -1.0
    c, s = math.cos(0.5 * RIM_TURN), math.sin(0.5 * RIM_TURN)
    ux, uy = -sg * ny * c - nx * s, sg * nx * c - ny * s
    return speed * ux, speed * uy


@njit(cache=True, error_model="numpy")
def _rim_clear(
    seg: Floats,
    flags: Ints,
    i: int,
    rho: float,
    start: float,
    sweep: float,
    now: float,
    arena: Arena,
) -> bool:
    """Whether pawn ``i`` can roll the arc of the circle (0, rho) from direction ``start``
    turning by ``sweep`` without meeting anything: no rail within reach of the arc, and no
    other pawn on the table whose straight path from now to rest comes within reach of it."""
    params, rails = arena.params, arena.rails
    r, dec, alpha = params[P_R], params[P_DEC], params[P_ALPHA]
    for k in range(rails.shape[0]):
        gap = arc_segment_distance(
            rho, start, sweep, rails[k, RA_X], rails[k, RA_Y], rails[k, RB_X], rails[k, RB_Y]
        )
        if gap <= r + rails[k, RH] + TOUCH:
            return False
    for j in range(seg.shape[0]):
        if j == i or flags[j, STAT] != ON_TABLE:
            continue
        x, y, vx, vy, _, _ = state_at(seg, j, now, dec, alpha)
        reach = 0.5 * math.hypot(vx, vy) / dec  # to where it stops, per unit of velocity
        gap = arc_segment_distance(rho, start, sweep, x, y, x + vx * reach, y + vy * reach)
        if gap <= 2.0 * r + TOUCH:
            return False
    return True

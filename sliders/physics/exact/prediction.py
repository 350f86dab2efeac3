"""Prediction of the next events: each pawn's own next event and each pair's next contact.

A pawn's *own* events come from its path alone: it stops (K_STOP), meets a rail's face or end cap
(K_RAIL), its centre leaves the table (K_EDGE), crosses the hole's rim (K_R_IN, K_R_OUT) or the
capture disc's (K_RC_IN, K_RC_OUT), reaches a corner of the polygon it follows rolling along the
rim (K_RIM), drops into the hole (K_DROP) or, toppled, leaves the table (K_GONE). A *pair's*
event is the first time two pawns' centres come within two radii: a root of a quartic in time
while both roll, of a quadratic once one has stopped.

Predictions are made from the start of a segment and kept until one of the pawns involved changes
(:func:`repredict`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sliders.physics.exact.motion import set_box, state_at, stopping_distance, time_to_travel
from sliders.physics.exact.paths import (
    circle_entry,
    circle_exit,
    edge_exit,
    rail_entry,
    segments_distance,
)
from sliders.physics.exact.roots import first_drop
from sliders.physics.exact.state import (
    BX0,
    BX1,
    BY0,
    BY1,
    FALL,
    INF,
    INR,
    INRC,
    K_DROP,
    K_EDGE,
    K_GONE,
    K_NONE,
    K_R_IN,
    K_R_OUT,
    K_RAIL,
    K_RC_IN,
    K_RC_OUT,
    K_RIM,
    K_STOP,
    ON_RIM,
    ON_TABLE,
    P_ALPHA,
    P_DEC,
    P_HOLE,
    P_R,
    P_RC,
    P_TDROP,
    RA_X,
    RA_Y,
    RB_X,
    RB_Y,
    RH,
    STAT,
    T0,
    TFALL,
    TOUCH,
    TRC,
    V_EPS,
    VX,
    VY,
    Arena,
    State,
    X,
    Y,
    kernel,
)

if TYPE_CHECKING:
    from sliders.physics.exact.state import Floats, Ints


# -- everything, or everything that involves one pawn ---------------------------------------------


@kernel
def predict_all(state: State, now: float, arena: Arena) -> None:
    """Predict every pawn's own next event and every pair's next contact from ``now``."""
    seg, flags, pair_time = state.segments, state.flags, state.pair_time
    own_time, own_kind, own_arg = state.own_time, state.own_kind, state.own_arg
    rails, cells, params = arena
    n = seg.shape[0]
    for i in range(n):
        set_box(seg, i, params[P_DEC])
        own_time[i], own_kind[i], own_arg[i] = INF, K_NONE, -1
        for j in range(n):
            pair_time[i, j] = INF
    for i in range(n):
        if flags[i, STAT] == ON_TABLE:
            own_time[i], own_kind[i], own_arg[i] = predict_own(seg, flags, i, rails, cells, params)
            for j in range(i + 1, n):
                if flags[j, STAT] == ON_TABLE:
                    t = predict_pair(seg, i, j, now, params)
                    pair_time[i, j] = t
                    pair_time[j, i] = t


@kernel
def repredict(state: State, i: int, now: float, arena: Arena) -> None:
    """Re-predict everything that involves pawn ``i`` (whose segment starts at ``now``)."""
    seg, flags, pair_time = state.segments, state.flags, state.pair_time
    rails, cells, params = arena
    n = seg.shape[0]
    if flags[i, STAT] != ON_TABLE:
        state.own_time[i], state.own_kind[i], state.own_arg[i] = INF, K_NONE, -1
        for j in range(n):
            pair_time[i, j] = INF
            pair_time[j, i] = INF
        return
    set_box(seg, i, params[P_DEC])
    t, kind, arg = predict_own(seg, flags, i, rails, cells, params)
    state.own_time[i], state.own_kind[i], state.own_arg[i] = t, kind, arg
    for j in range(n):
        if j == i:
            continue
        if flags[j, STAT] != ON_TABLE:
            t = INF
        else:
            t = predict_pair(seg, i, j, now, params)
        pair_time[i, j] = t
        pair_time[j, i] = t


# -- a pawn's own next event ----------------------------------------------------------------------


@kernel
def predict_own(
    seg: Floats, flags: Ints, i: int, rails: Floats, cells: Floats, params: Floats
) -> tuple[float, int, int]:
    """Pawn ``i``'s next own event from the start of its segment: (time, kind, argument)."""
    best_t, kind, arg = INF, K_NONE, -1
    v = math.hypot(seg[i, VX], seg[i, VY])
    if v > 0.0:
        best_t, kind, arg = _along_path(seg, flags, i, rails, cells, params)
    if flags[i, INRC] == 1:
        # a pawn at rest within the capture disc drops at once
        drop = seg[i, TRC] + params[P_TDROP] if v > 0.0 else seg[i, T0]
        if drop < best_t:
            best_t, kind, arg = drop, K_DROP, -1
    if flags[i, FALL] == 1 and seg[i, TFALL] <= best_t:
        best_t, kind, arg = seg[i, TFALL], K_GONE, -1
    return best_t, kind, arg


@kernel
def _along_path(
    seg: Floats, flags: Ints, i: int, rails: Floats, cells: Floats, params: Floats
) -> tuple[float, int, int]:
    """The first event on rolling pawn ``i``'s straight path to rest: a rail, the table's edge,
    the hole's rim or its capture disc, or the stop itself."""
    dec = params[P_DEC]
    vx, vy = seg[i, VX], seg[i, VY]
    v = math.hypot(vx, vy)
    px, py = seg[i, X], seg[i, Y]
    ux, uy = vx / v, vy / v
    reach = stopping_distance(v, dec)
    best_s, kind, arg = _first_rail(px, py, ux, uy, v, reach, rails, params[P_R])
    s = edge_exit(px, py, ux, uy, best_s, cells)
    if s < best_s:
        best_s, kind, arg = s, K_EDGE, -1
    if params[P_HOLE] > 0.0:
        best_s, kind, arg = _hole_crossing(px, py, ux, uy, v, flags, i, params, best_s, kind, arg)
    if kind == K_STOP:
        return seg[i, T0] + v / dec, kind, arg
    return seg[i, T0] + time_to_travel(best_s, v, dec), kind, arg


@kernel
def _first_rail(
    px: float, py: float, ux: float, uy: float, v: float, reach: float, rails: Floats, r: float
) -> tuple[float, int, int]:
    """(distance, K_RAIL, rail) of the first rail a pawn of radius ``r`` meets within ``reach``
    along its path, else (reach, K_STOP, -1)."""
    best_s, kind, arg = reach, K_STOP, -1
    qx, qy = px + ux * reach, py + uy * reach  # where it would stop
    lox, hix = min(px, qx), max(px, qx)
    loy, hiy = min(py, qy), max(py, qy)
    for k in range(rails.shape[0]):
        rho = r + rails[k, RH] + TOUCH
        # bounding boxes of the path and of the rail apart: no contact
        if (min(rails[k, RA_X], rails[k, RB_X]) - rho > hix
                or max(rails[k, RA_X], rails[k, RB_X]) + rho < lox
                or min(rails[k, RA_Y], rails[k, RB_Y]) - rho > hiy
                or max(rails[k, RA_Y], rails[k, RB_Y]) + rho < loy):  # fmt: skip
            continue
        s = rail_entry(px, py, ux, uy, rails, k, r + rails[k, RH], v)
        if s < best_s:
            best_s, kind, arg = s, K_RAIL, k
    return best_s, kind, arg


@kernel
def _hole_crossing(
    px: float,
    py: float,
    ux: float,
    uy: float,
    v: float,
    flags: Ints,
    i: int,
    params: Floats,
    best_s: float,
    kind: int,
    arg: int,
) -> tuple[float, int, int]:
    """The hole's crossings on the path of pawn ``i``, if one comes before ``best_s``: its rim
    (in or out), the next corner of the polygon it follows along the rim, the capture disc's
    circle (in or out; none when the capture radius is 0 or less: the base cannot fit)."""
    hole = params[P_HOLE]
    if flags[i, INR] == 0:
        s = circle_entry(px, py, ux, uy, 0.0, 0.0, hole, v)
        k2 = K_R_IN
    else:
        s = circle_exit(px, py, ux, uy, hole)
        k2 = K_R_OUT
    if s < best_s:
        best_s, kind, arg = s, k2, -1
    if flags[i, INR] == ON_RIM:
        # the next corner of the polygon it rolls along, just inside the rim
        s = circle_exit(px, py, ux, uy, hole - TOUCH)
        if s < best_s:
            best_s, kind, arg = s, K_RIM, -1
    if params[P_RC] <= 0.0:
        return best_s, kind, arg  # a base as wide as the hole or wider never fits in it
    if flags[i, INRC] == 0:
        s = circle_entry(px, py, ux, uy, 0.0, 0.0, params[P_RC], v)
        k2 = K_RC_IN
    else:
        s = circle_exit(px, py, ux, uy, params[P_RC])
        k2 = K_RC_OUT
    if s < best_s:
        best_s, kind, arg = s, k2, -1
    return best_s, kind, arg


# -- a pair's next contact ------------------------------------------------------------------------


@kernel
def predict_pair(seg: Floats, i: int, j: int, now: float, params: Floats) -> float:
    """Time of the next contact between pawns ``i`` and ``j`` after ``now``, or INF.

    While both roll, the squared distance between centres is a quartic in time; once one has
    stopped, the other's path meets a circle at a root of a quadratic."""
    dec, alpha = params[P_DEC], params[P_ALPHA]
    rho = 2.0 * params[P_R]
    if _boxes_apart(seg, i, j, rho + TOUCH):
        return INF
    xi, yi, vxi, vyi, _, _ = state_at(seg, i, now, dec, alpha)
    xj, yj, vxj, vyj, _, _ = state_at(seg, j, now, dec, alpha)
    vi, vj = math.hypot(vxi, vyi), math.hypot(vxj, vyj)
    if vi == 0.0 and vj == 0.0:
        return INF
    # too far apart to meet before both stop
    if math.hypot(xj - xi, yj - yi) - rho > (
        stopping_distance(vi, dec) + stopping_distance(vj, dec) + TOUCH
    ):
        return INF
    if vj == 0.0:
        return now + _ray_pawn(xi, yi, vxi, vyi, xj, yj, rho, dec)
    if vi == 0.0:
        return now + _ray_pawn(xj, yj, vxj, vyj, xi, yi, rho, dec)
    return _both_rolling(seg, i, j, now, (xi, yi, vxi, vyi), (xj, yj, vxj, vyj), params)


@kernel
def _boxes_apart(seg: Floats, i: int, j: int, reach: float) -> bool:
    """Whether the path boxes of pawns ``i`` and ``j`` are more than ``reach`` apart."""
    return bool(seg[i, BX0] - reach > seg[j, BX1] or seg[j, BX0] - reach > seg[i, BX1]
                or seg[i, BY0] - reach > seg[j, BY1] or seg[j, BY0] - reach > seg[i, BY1])  # fmt: skip


@kernel
def _ray_pawn(
    xm: float, ym: float, vxm: float, vym: float, xs: float, ys: float, rho: float, dec: float
) -> float:
    """Time for a pawn moving from (xm, ym) at (vxm, vym) to touch a still one at (xs, ys)."""
    v = math.hypot(vxm, vym)
    if v == 0.0:
        return INF
    ux, uy = vxm / v, vym / v
    s = circle_entry(xm, ym, ux, uy, xs, ys, rho, v)
    if s > stopping_distance(v, dec):
        return INF
    return time_to_travel(s, v, dec)


@kernel
def _both_rolling(
    seg: Floats,
    i: int,
    j: int,
    now: float,
    a: tuple[float, float, float, float],
    b: tuple[float, float, float, float],
    params: Floats,
) -> float:
    """The next contact of pawns ``i`` and ``j``, both rolling, from their states ``a`` and ``b``
    (x, y, vx, vy) at ``now``: within the quartic's reach until the first stops, else the
    other's ray to the one that stopped."""
    dec, alpha = params[P_DEC], params[P_ALPHA]
    rho = 2.0 * params[P_R]
    xi, yi, vxi, vyi = a
    xj, yj, vxj, vyj = b
    vi, vj = math.hypot(vxi, vyi), math.hypot(vxj, vyj)
    reach_i, reach_j = stopping_distance(vi, dec), stopping_distance(vj, dec)
    # the straight paths to rest never come within reach of each other
    gap = segments_distance(
        xi, yi, xi + vxi / vi * reach_i, yi + vyi / vi * reach_i,
        xj, yj, xj + vxj / vj * reach_j, yj + vyj / vj * reach_j,
    )  # fmt: skip
    if gap - rho > TOUCH:
        return INF
    ti, tj = vi / dec, vj / dec
    t1 = ti if ti < tj else tj
    # relative position D(τ) = D0 + DV·τ + ½·DA·τ² until the first stops
    tau = _first_touch(
        (xj - xi, yj - yi),
        (vxj - vxi, vyj - vyi),
        (-dec * (vxj / vj - vxi / vi), -dec * (vyj / vj - vyi / vi)),
        rho,
        t1,
    )
    if tau <= t1:
        return now + tau
    # one has stopped (both, if they stop together)
    if ti == tj:
        return INF
    tb: float = now + t1
    xi, yi, vxi, vyi, _, _ = state_at(seg, i, tb, dec, alpha)
    xj, yj, vxj, vyj, _, _ = state_at(seg, j, tb, dec, alpha)
    if ti < tj:
        return tb + _ray_pawn(xj, yj, vxj, vyj, xi, yi, rho, dec)
    return tb + _ray_pawn(xi, yi, vxi, vyi, xj, yj, rho, dec)


@kernel
def _first_touch(
    d: tuple[float, float],
    dv: tuple[float, float],
    da: tuple[float, float],
    rho: float,
    t1: float,
) -> float:
    """The first τ in [0, t1] at which |D(τ)| = ``rho`` for D(τ) = d + dv·τ + ½·da·τ², or INF
    (beyond t1, or never). Two centres already touching meet at 0 if they approach faster than
    V_EPS, else when they next draw in."""
    dx, dy = d
    dvx, dvy = dv
    dax, day = da
    c1 = 2.0 * (dx * dvx + dy * dvy)
    c2 = dvx * dvx + dvy * dvy + dx * dax + dy * day
    c3 = dvx * dax + dvy * day
    c4 = 0.25 * (dax * dax + day * day)
    dist = math.hypot(dx, dy)
    if dist - rho <= TOUCH:
        if -c1 > 2.0 * V_EPS * dist:
            return 0.0  # approaching faster than V_EPS
        # touching and not approaching: D² − ρ² = τ·(c1 + c2·τ + c3·τ² + c4·τ³)
        if c1 > 0.0:
            return first_drop(c1, c2, c3, c4, 0.0, t1)
        if c2 < 0.0:
            return 0.0
        if c2 > 0.0:
            return first_drop(c2, c3, c4, 0.0, 0.0, t1)
        return INF
    c0 = (dist - rho) * (dist + rho)
    return first_drop(c0, c1, c2, c3, c4, t1)

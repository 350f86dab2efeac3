"""Resolution of an event: what happens to the pawns at the moment it is due.

A contact (pawn–pawn or pawn–rail) exchanges an impulse along the normal (restitution, fully
inelastic below V_SLOW) and a tangential one (Coulomb friction capped, discs with I = m r²/2); a
pawn receiving a normal impulse above its knock-over threshold for the shot (drawn once, at its
start: :func:`sliders.physics.model.knock_over_thresholds`) topples, falls for ``P_FALL``
(``topple_time``) seconds still
moving and hitting, and then leaves the table knocked over. A pawn's own events move it over,
into or out of the hole, off the table or to rest. What changes is recorded in the state's log.

Resolution only changes the pawns; the loop (:mod:`sliders.physics.exact.loop`) re-predicts what
involves them afterwards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sliders.physics.exact.motion import is_still, rebase, settle_slow
from sliders.physics.exact.rim import climb_out, leave_rim, turn_along_rim
from sliders.physics.exact.state import (
    CONTACTS,
    E_CONTACT,
    E_HOLE,
    E_KNOCKED,
    E_OFF,
    E_RAIL,
    FALL,
    HIT,
    INR,
    INRC,
    K_DROP,
    K_EDGE,
    K_GONE,
    K_R_IN,
    K_R_OUT,
    K_RAIL,
    K_RC_IN,
    K_RC_OUT,
    K_RIM,
    K_STOP,
    ON_TABLE,
    OVER_HOLE,
    P_ALPHA,
    P_CORNER,
    P_DEC,
    P_EP,
    P_ER,
    P_FALL,
    P_FP,
    P_FR,
    P_HALF,
    P_KOF,
    P_M,
    P_R,
    RA_X,
    RA_Y,
    RE_X,
    RE_Y,
    RECORDED,
    RL,
    S_IN_HOLE,
    S_KNOCKED,
    S_OFF_BOARD,
    S_OFF_SIDE,
    STAT,
    TFALL,
    TIN,
    TRC,
    V_EPS,
    V_SLOW,
    VX,
    VY,
    XFALL,
    YFALL,
    Arena,
    State,
    W,
    X,
    Y,
    kernel,
)

if TYPE_CHECKING:
    from sliders.physics.exact.state import Floats


# -- the two kinds of event -----------------------------------------------------------------------


@kernel
def resolve_contact(
    state: State, a: int, b: int, now: float, params: Floats, tough: Floats
) -> None:
    """Pawns ``a`` and ``b`` touch at ``now``: the contact's impulses, and the topples they
    cause (``tough``: each pawn's knock-over threshold for the shot)."""
    seg, flags = state.segments, state.flags
    rebase(seg, a, now, params[P_DEC], params[P_ALPHA])
    rebase(seg, b, now, params[P_DEC], params[P_ALPHA])
    still_a, still_b = is_still(seg, a), is_still(seg, b)
    jn, cx, cy = collide_pawns(seg, a, b, params)
    if jn > 0.0:
        leave_rim(flags, a)
        leave_rim(flags, b)
        state.counts[CONTACTS] += 1
        record(state, now, E_CONTACT, a, b, jn, cx, cy)
        down_a = flags[a, FALL] == 0 and topples(jn, still_a, tough[a], params)
        down_b = flags[b, FALL] == 0 and topples(jn, still_b, tough[b], params)
        if down_a:
            topple(state, a, now, params)
        if down_b:
            topple(state, b, now, params)


@kernel
def move_together(state: State, a: int, b: int) -> None:
    """Pawns ``a`` and ``b`` would touch again at once after their contact (a resting contact,
    or the start of an inelastic collapse): they move on together at their mean velocity
    (momentum kept, energy lost), which ends the sequence."""
    seg = state.segments
    vx = 0.5 * (seg[a, VX] + seg[b, VX])
    vy = 0.5 * (seg[a, VY] + seg[b, VY])
    seg[a, VX], seg[a, VY], seg[b, VX], seg[b, VY] = vx, vy, vx, vy
    leave_rim(state.flags, a)
    leave_rim(state.flags, b)
    settle_slow(seg, a)
    settle_slow(seg, b)


@kernel
def press_together(state: State, instant: int, now: float, params: Floats) -> int:
    """The pawns on the table whose last pawn–pawn contact was at ``instant`` (an inelastic
    collapse: hitting each other again and again at ``now``) move on together at their mean
    velocity, the same numbers for each, so that they cannot hit each other again (momentum
    kept, energy lost). Returns how many they are."""
    seg, flags = state.segments, state.flags
    k, vx, vy = 0, 0.0, 0.0
    for i in range(seg.shape[0]):
        if flags[i, STAT] == ON_TABLE and flags[i, HIT] == instant:
            rebase(seg, i, now, params[P_DEC], params[P_ALPHA])
            k += 1
            vx += seg[i, VX]
            vy += seg[i, VY]
    vx, vy = vx / k, vy / k
    for i in range(seg.shape[0]):
        if flags[i, STAT] == ON_TABLE and flags[i, HIT] == instant:
            seg[i, VX], seg[i, VY] = vx, vy
            leave_rim(flags, i)
            settle_slow(seg, i)
    return k


@kernel
def resolve_own(state: State, a: int, now: float, arena: Arena, tough: Floats) -> None:
    """Pawn ``a``'s own predicted event is due at ``now``."""
    seg, flags, params = state.segments, state.flags, arena.params
    kind, arg = state.own_kind[a], state.own_arg[a]
    rebase(seg, a, now, params[P_DEC], params[P_ALPHA])
    if kind == K_STOP:
        seg[a, VX] = 0.0
        seg[a, VY] = 0.0
        leave_rim(flags, a)
        if flags[a, INRC] == 1:
            remove(state, a, S_IN_HOLE, now, E_HOLE)
    elif kind == K_RAIL:
        hit_rail(state, a, arg, now, arena, tough)
    elif kind == K_EDGE:
        remove(state, a, way_off(seg[a, X], seg[a, Y], params), now, E_OFF)
    elif kind == K_R_IN:
        flags[a, INR] = OVER_HOLE
        seg[a, TIN] = now
    elif kind == K_R_OUT:
        if climb_out(seg, flags, a, now, arena):
            flags[a, INR] = 0
    elif kind == K_RIM:
        turn_along_rim(seg, a)
    elif kind == K_RC_IN:
        flags[a, INRC] = 1
        seg[a, TRC] = now
    elif kind == K_RC_OUT:
        flags[a, INRC] = 0
    elif kind == K_DROP:
        remove(state, a, S_IN_HOLE, now, E_HOLE)
    elif kind == K_GONE:
        remove(state, a, S_KNOCKED, now, E_KNOCKED)


@kernel
def way_off(x: float, y: float, params: Floats) -> int:
    """How a pawn whose centre leaves the table at (x, y) goes off: across a side of the board
    clear of its corners (S_OFF_SIDE), else off a corner or a track (S_OFF_BOARD), as
    :func:`sliders.boards.geometry.way_off` says."""
    h, ax, ay = params[P_HALF], abs(x), abs(y)
    if max(ax, ay) > h + 2.0 * params[P_R] or h - min(ax, ay) < params[P_CORNER]:
        return S_OFF_BOARD
    return S_OFF_SIDE


@kernel
def hit_rail(state: State, a: int, k: int, now: float, arena: Arena, tough: Floats) -> None:
    """Pawn ``a`` touches rail ``k`` at ``now``: the contact's impulses, and a topple."""
    seg, flags, params = state.segments, state.flags, arena.params
    still = is_still(seg, a)
    jn, cx, cy = collide_rail(seg, a, arena.rails, k, params)
    if jn > 0.0:
        leave_rim(flags, a)
        record(state, now, E_RAIL, a, -1, jn, cx, cy)
        if flags[a, FALL] == 0 and topples(jn, still, tough[a], params):
            topple(state, a, now, params)


# -- contacts -------------------------------------------------------------------------------------


@kernel
def collide_pawns(seg: Floats, i: int, j: int, params: Floats) -> tuple[float, float, float]:
    """Resolve a contact between touching pawns ``i`` and ``j`` (segments start now); returns the
    normal impulse (0 when they are not approaching) and the contact point."""
    r, m = params[P_R], params[P_M]
    nx, ny = seg[j, X] - seg[i, X], seg[j, Y] - seg[i, Y]
    d = math.hypot(nx, ny)
    nx, ny = nx / d, ny / d
    tx, ty = -ny, nx
    cx, cy = seg[i, X] + r * nx, seg[i, Y] + r * ny
    gn = (seg[i, VX] - seg[j, VX]) * nx + (seg[i, VY] - seg[j, VY]) * ny
    if gn <= V_EPS:
        return 0.0, cx, cy
    e = params[P_EP] if gn >= V_SLOW else 0.0
    jn = 0.5 * m * (1.0 + e) * gn
    # sliding velocity of i's rim over j's at the contact point
    gt = (seg[i, VX] - seg[j, VX]) * tx + (seg[i, VY] - seg[j, VY]) * ty
    gt += r * (seg[i, W] + seg[j, W])
    # the impulse that stops sliding (masses and moments I = m r²/2 of both discs), capped
    jt = _capped(m * gt / 6.0, params[P_FP] * jn)
    inertia = 0.5 * m * r * r
    seg[i, VX] -= (jn * nx + jt * tx) / m
    seg[i, VY] -= (jn * ny + jt * ty) / m
    seg[j, VX] += (jn * nx + jt * tx) / m
    seg[j, VY] += (jn * ny + jt * ty) / m
    seg[i, W] -= jt * r / inertia
    seg[j, W] -= jt * r / inertia
    settle_slow(seg, i)
    settle_slow(seg, j)
    return jn, cx, cy


@kernel
def collide_rail(
    seg: Floats, i: int, rails: Floats, k: int, params: Floats
) -> tuple[float, float, float]:
    """Resolve pawn ``i`` touching rail ``k`` (its face or an end cap: the normal runs from the
    nearest point of the rail's centre line); returns the normal impulse and the contact
    point."""
    r, m = params[P_R], params[P_M]
    px, py = seg[i, X], seg[i, Y]
    ax, ay, ex, ey = rails[k, RA_X], rails[k, RA_Y], rails[k, RE_X], rails[k, RE_Y]
    proj = (px - ax) * ex + (py - ay) * ey
    proj = min(max(proj, 0.0), rails[k, RL])
    qx, qy = ax + ex * proj, ay + ey * proj
    nx, ny = qx - px, qy - py
    d = math.hypot(nx, ny)
    nx, ny = nx / d, ny / d
    tx, ty = -ny, nx
    cx, cy = px + r * nx, py + r * ny
    gn = seg[i, VX] * nx + seg[i, VY] * ny
    if gn <= V_EPS:
        return 0.0, cx, cy
    e = params[P_ER] if gn >= V_SLOW else 0.0
    jn = m * (1.0 + e) * gn
    gt = seg[i, VX] * tx + seg[i, VY] * ty + r * seg[i, W]
    jt = _capped(m * gt / 3.0, params[P_FR] * jn)
    seg[i, VX] -= (jn * nx + jt * tx) / m
    seg[i, VY] -= (jn * ny + jt * ty) / m
    seg[i, W] -= jt * r / (0.5 * m * r * r)
    settle_slow(seg, i)
    return jn, cx, cy


@kernel
def _capped(jt: float, cap: float) -> float:
    """The tangential impulse ``jt`` within ±``cap`` (Coulomb friction)."""
    if jt > cap:
        return cap
    if jt < -cap:
        return -cap
    return jt


# -- toppling and leaving the table ---------------------------------------------------------------


@kernel
def topples(impulse: float, was_still: bool, threshold: float, params: Floats) -> bool:
    """Whether a pawn with knock-over ``threshold`` receiving the normal ``impulse`` topples:
    above the threshold, times knock_over_moving_factor when it was moving before
    (:func:`sliders.physics.model.topples`)."""
    if not was_still:
        threshold = threshold * params[P_KOF]
    return impulse > threshold


@kernel
def topple(state: State, i: int, t: float, params: Floats) -> None:
    """Pawn ``i`` topples at ``t`` (recorded here, where it is): it falls for ``P_FALL``
    seconds, still moving and hitting what is in its way, so that it passes on its momentum, and
    then leaves the table knocked over."""
    seg = state.segments
    record(state, t, E_KNOCKED, i, -1, 0.0, seg[i, X], seg[i, Y])
    state.flags[i, FALL] = 1
    seg[i, TFALL] = t + params[P_FALL]
    seg[i, XFALL], seg[i, YFALL] = seg[i, X], seg[i, Y]


@kernel
def remove(state: State, i: int, code: int, t: float, kind: int) -> None:
    """Pawn ``i`` leaves the table at ``t`` with status ``code``, recorded as an event of
    ``kind`` (a falling pawn: knocked over, as recorded when it toppled, where it toppled)."""
    seg, flags = state.segments, state.flags
    if flags[i, FALL] == 1:
        flags[i, FALL] = 0
        code = S_KNOCKED
        seg[i, X], seg[i, Y] = seg[i, XFALL], seg[i, YFALL]
    else:
        record(state, t, kind, i, -1, 0.0, seg[i, X], seg[i, Y])
    flags[i, STAT] = code
    seg[i, VX] = 0.0
    seg[i, VY] = 0.0


@kernel
def record(
    state: State, t: float, kind: int, a: int, b: int, impulse: float, x: float, y: float
) -> None:
    """Append an event to the state's log (when it has rows; counted either way)."""
    log, k = state.log, state.counts[RECORDED]
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3] = t, kind, a, b
        log[k, 4], log[k, 5], log[k, 6] = impulse, x, y
    state.counts[RECORDED] = k + 1

"""The geometry of a rolling pawn's path: where a straight path first meets a circle, a rail's
capsule or the table's edge, and the distances the rim's roll tests against.

A path is a ray p + u·s (s ≥ 0, u a unit vector) followed at speed ``v``; the answers are
distances along it (INF: never). A point already touching a shape (within TOUCH) meets it at 0 only
if it heads into it faster than V_EPS.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from numba import njit

from sliders.physics.exact.state import (
    INF,
    RA_X,
    RA_Y,
    RB_X,
    RB_Y,
    RE_X,
    RE_Y,
    RL,
    RN_X,
    RN_Y,
    TOUCH,
    V_EPS,
)

if TYPE_CHECKING:
    from sliders.physics.exact.state import Floats


@njit(cache=True, error_model="numpy")
def circle_entry(
    px: float, py: float, ux: float, uy: float, cx: float, cy: float, rho: float, v: float
) -> float:
    """Distance along the ray p + u·s (s ≥ 0) at which a point moving at speed ``v`` enters the
    disc (c, rho), or INF. A point already on the circle (within TOUCH) enters at 0 if it is
    heading inward faster than V_EPS."""
    dx, dy = px - cx, py - cy
    b = dx * ux + dy * uy
    dist = math.hypot(dx, dy)
    if dist - rho <= TOUCH:
        return 0.0 if -b * v > V_EPS * dist else INF
    if b >= 0.0:
        return INF
    c = (dist - rho) * (dist + rho)
    disc = b * b - c
    if disc < 0.0:
        return INF
    return c / (-b + math.sqrt(disc))


@njit(cache=True, error_model="numpy")
def circle_exit(px: float, py: float, ux: float, uy: float, rho: float) -> float:
    """Distance along the ray at which a point inside the disc (0, rho) leaves it (≥ 0)."""
    b = px * ux + py * uy
    c = (math.hypot(px, py) - rho) * (math.hypot(px, py) + rho)
    disc = b * b - c
    if disc < 0.0:
        disc = 0.0
    if b > 0.0:
        s = -c / (b + math.sqrt(disc))
    else:
        s = -b + math.sqrt(disc)
    return s if s > 0.0 else 0.0


@njit(cache=True, error_model="numpy")
def rail_entry(
    px: float, py: float, ux: float, uy: float, rails: Floats, k: int, rho: float, v: float
) -> float:
    """Distance along the ray at which a pawn's centre comes within ``rho`` of rail ``k``'s centre
    line (its face or one of its round end caps), or INF.

    A pawn already touching the rail (within TOUCH) meets it at 0 if it heads into it faster than
    V_EPS along the normal at the nearest point of the centre line (the normal
    :func:`~sliders.physics.exact.resolution.collide_rail` uses), and never otherwise: the capsule is convex, so a straight path
    that does not head into it at a touching point only draws away. (Testing a touching pawn
    against the face and the caps apart disagreed where they meet: a pawn sliding along a face
    to its end reached the cap "heading in" by 1e-7 m/s while the face's normal saw no approach,
    and the contact came back at the same instant without end.)"""
    ax, ay, bx, by = rails[k, RA_X], rails[k, RA_Y], rails[k, RB_X], rails[k, RB_Y]
    ex, ey, length, nx, ny = (
        rails[k, RE_X],
        rails[k, RE_Y],
        rails[k, RL],
        rails[k, RN_X],
        rails[k, RN_Y],
    )
    along = min(max((px - ax) * ex + (py - ay) * ey, 0.0), length)
    qx, qy = ax + ex * along - px, ay + ey * along - py  # to the nearest point of the centre line
    d = math.hypot(qx, qy)
    if d - rho <= TOUCH:
        if d == 0.0:
            return 0.0
        return 0.0 if (ux * qx + uy * qy) * v > V_EPS * d else INF
    best = INF
    sig = (px - ax) * nx + (py - ay) * ny
    if sig < 0.0:
        sig, nx, ny = -sig, -nx, -ny
    rate = ux * nx + uy * ny
    if rate < 0.0:
        gap = sig - rho
        if gap > TOUCH:
            s = gap / -rate
        elif -rate * v > V_EPS:
            s = 0.0
        else:
            s = INF  # touching and creeping in slower than V_EPS: left alone
        proj = (px + ux * s - ax) * ex + (py + uy * s - ay) * ey
        if s < INF and 0.0 <= proj <= length:
            best = s
    s = circle_entry(px, py, ux, uy, ax, ay, rho, v)
    if s < best:
        best = s
    s = circle_entry(px, py, ux, uy, bx, by, rho, v)
    if s < best:
        best = s
    return best


@njit(cache=True, error_model="numpy")
def edge_exit(px: float, py: float, ux: float, uy: float, reach: float, cells: Floats) -> float:
    """Distance along the ray at which the point first enters a cell off the table (the first
    point off the surface), or INF within ``reach``."""
    best = INF
    for c in range(cells.shape[0]):
        lo, hi = 0.0, reach
        ok = True
        for axis in range(2):
            p = px if axis == 0 else py
            u = ux if axis == 0 else uy
            cmin = cells[c, axis]
            cmax = cells[c, axis + 2]
            if u == 0.0:
                if p < cmin or p > cmax:
                    ok = False
                    break
            else:
                t0, t1 = (cmin - p) / u, (cmax - p) / u
                if t0 > t1:
                    t0, t1 = t1, t0
                if t0 > lo:
                    lo = t0
                if t1 < hi:
                    hi = t1
                if lo > hi:
                    ok = False
                    break
        if ok and lo < best:
            best = lo
    return best


@njit(cache=True, error_model="numpy")
def point_segment_distance(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """Distance from the point p to the segment a–b."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2 > 0.0:
        t = ((px - ax) * dx + (py - ay) * dy) / length2
        t = min(max(t, 0.0), 1.0)
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


@njit(cache=True, error_model="numpy")
def segments_distance(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> float:
    """Distance between the segments a–b and c–d (0 when they cross)."""
    d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
    d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
    if d1 * d2 < 0.0 and d3 * d4 < 0.0:
        return 0.0
    return min(
        point_segment_distance(ax, ay, cx, cy, dx, dy),
        point_segment_distance(bx, by, cx, cy, dx, dy),
        point_segment_distance(cx, cy, ax, ay, bx, by),
        point_segment_distance(dx, dy, ax, ay, bx, by),
    )


@njit(cache=True, error_model="numpy")
def _in_arc(phi: float, start: float, sweep: float) -> bool:
    """Whether the direction ``phi`` lies on the arc from ``start`` turning by ``sweep``."""
    if abs(sweep) >= 2.0 * math.pi:
        return True
    turn = (phi - start) if sweep >= 0.0 else (start - phi)
    turn = turn % (2.0 * math.pi)
    return turn <= abs(sweep)


@njit(cache=True, error_model="numpy")
def arc_segment_distance(
    rho: float, start: float, sweep: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """Distance between the arc of the circle (0, rho) from direction ``start`` turning by
    ``sweep`` and the segment a–b: the nearest of its ends to the segment, of the segment's ends
    and its point nearest the centre to the arc where they face it, and 0 where it crosses it."""
    e0x, e0y = rho * math.cos(start), rho * math.sin(start)
    e1x, e1y = rho * math.cos(start + sweep), rho * math.sin(start + sweep)
    best = min(
        point_segment_distance(e0x, e0y, ax, ay, bx, by),
        point_segment_distance(e1x, e1y, ax, ay, bx, by),
    )
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    foot = -(ax * dx + ay * dy) / length2 if length2 > 0.0 else 0.0  # the line nearest the centre
    for t in (0.0, 1.0, foot):
        if 0.0 <= t <= 1.0:
            qx, qy = ax + t * dx, ay + t * dy
            if _in_arc(math.atan2(qy, qx), start, sweep):
                best = min(best, abs(math.hypot(qx, qy) - rho))
    dist2 = (ax + foot * dx) ** 2 + (ay + foot * dy) ** 2
    if length2 > 0.0 and dist2 < rho * rho:
        half = math.sqrt((rho * rho - dist2) / length2)
        for t in (foot - half, foot + half):
            qx, qy = ax + t * dx, ay + t * dy
            if 0.0 <= t <= 1.0 and _in_arc(math.atan2(qy, qx), start, sweep):
                return 0.0
    return best

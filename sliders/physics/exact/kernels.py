"""The compiled heart of the exact engine: motion formulas, event prediction, contact resolution
and the event loop, as numba functions over plain arrays.

Between events every pawn moves in a straight line with constant deceleration ``dec = mu_roll·g``
and spins down at ``alpha = spin_damping_torque / I``. A pawn's *segment* is its state at the time
``T0`` it last changed (position, velocity, spin, heading); its state at any later time is a
formula of that segment (:func:`state_at`).

The loop keeps, for every pawn on the table, its next *own* event (stop, rail, leaving the table,
crossing the hole's rim or the capture disc, dropping in, a corner of the polygon a pawn rolling
along the rim follows) and, for every pair, the time of its next
contact. It jumps to the earliest, resolves it, re-predicts what involves the pawns it changed and
repeats.

Tie rule: events closer in time than ``TIE`` (1e-12 s) to the earliest are taken one at a time in a
fixed order: by pawn index (the shooter is 0, then the table's pawns in order), then by partner
(another pawn by its index, then the rails in layout order, then the pawn's own event).

Tolerances: two shapes whose gap is at most ``TOUCH`` (1e-9 m) touch; a touching pair that is
approaching faster than ``V_EPS`` (1e-9 m/s) is resolved at once, one that is not is left to
separate (or to creep in by less than the tolerance). Contacts are found as roots,
so overlaps are rounding errors (well under ``TOUCH``). A pawn left slower than ``V_REST``
(1e-6 m/s) by a contact or a rim bounce stops (it would roll less than 1e-12 m).

Inelastic collapse: a pawn chasing another (or pressed against it by their different decelerations)
would hit it again and again at ever shorter intervals. A contact slower than ``V_SLOW`` (1e-4 m/s)
is therefore fully inelastic along the normal, and a pair that would touch again at once after a
contact is resolved is a resting contact: the two then move on together with their mean velocity
(momentum kept, energy lost), which ends the sequence.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]
    Ints = NDArray[np.int64]
    Bools = NDArray[np.bool_]

INF = math.inf
TIE = 1e-12
TOUCH = 1e-9
V_REST = 1e-6
V_SLOW = 1e-4
V_EPS = 1e-9

# state columns
X, Y, VX, VY, W, TH, T0, TIN, TRC = 0, 1, 2, 3, 4, 5, 6, 7, 8
# the bounding box of the segment's path to rest (a cheap test that two pawns cannot meet)
BX0, BY0, BX1, BY1 = 9, 10, 11, 12
# when a toppled pawn leaves the table (it falls for one step, still moving and hitting), and
# where it toppled (its place once it has left)
TFALL, XFALL, YFALL = 13, 14, 15
NSTATE = 16
# flag columns: STAT is -1 on the table, else the removed Status code; FALL is 1 while a toppled
# pawn falls
STAT, INR, INRC, FALL = 0, 1, 2, 3
NFLAG = 4
# INR is 1 while the pawn's centre is over the hole, 2 while it rolls along the hole's rim
OVER_HOLE, ON_RIM = 1, 2

# status codes: indices into tuple(sliders.outcome.Status) (checked by the tests)
S_IN_HAND, S_OWN_TRACK, S_TIPPING, S_ON_TARGET, S_HOLE_EDGE = 0, 1, 2, 3, 4
S_OTHER_TRACK, S_OFF_BOARD, S_SORRY, S_IN_HOLE, S_DOT, S_KNOCKED, S_FOUL = 5, 6, 7, 8, 9, 10, 11
ON_TABLE = -1

# parameter vector
(P_R, P_M, P_DEC, P_ALPHA, P_EP, P_ER, P_FP, P_FR, P_KO, P_KOF, P_SPREAD, P_G, P_H, P_TDROP,
 P_HOLE, P_RC, P_MAXT, P_FALL) = range(18)  # fmt: skip
NPARAM = 18

# rail columns: centre line a→b, unit direction e, length, unit normal, half thickness
RA_X, RA_Y, RB_X, RB_Y, RE_X, RE_Y, RL, RN_X, RN_Y, RH = range(10)

# a pawn's own events
K_NONE, K_STOP, K_RAIL, K_EDGE, K_R_IN, K_R_OUT, K_RC_IN, K_RC_OUT, K_DROP, K_GONE = range(10)
K_RIM = 10  # a pawn rolling along the hole's rim reaches a corner of its path

RIM_TURN = 2.0 * math.pi / 128.0
"""the angle a pawn rolling along the hole's rim turns by at each corner of its path: a polygon
inscribed in the rim, whose sides stay within 5 µm of it"""

# recorded event kinds
E_CONTACT, E_RAIL, E_KNOCKED, E_OFF, E_HOLE = 1, 2, 3, 4, 5

# advance() outcomes
RUNNING, SETTLED, FULL, TIMEOUT = 0, 1, 2, 3


# -- motion ---------------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def state_at(
    S: Floats, i: int, t: float, dec: float, alpha: float
) -> tuple[float, float, float, float, float, float]:
    """(x, y, vx, vy, spin, heading) of pawn ``i`` at time ``t`` (≥ its segment start)."""
    tau = t - S[i, T0]
    x, y, vx, vy = S[i, X], S[i, Y], S[i, VX], S[i, VY]
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
    w, th = S[i, W], S[i, TH]
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
def rebase(S: Floats, i: int, t: float, dec: float, alpha: float) -> None:
    """Start pawn ``i``'s segment anew at time ``t``."""
    x, y, vx, vy, w, th = state_at(S, i, t, dec, alpha)
    S[i, X], S[i, Y], S[i, VX], S[i, VY], S[i, W], S[i, TH], S[i, T0] = x, y, vx, vy, w, th, t


@njit(cache=True, error_model="numpy")
def time_to_travel(s: float, v: float, dec: float) -> float:
    """The time a pawn starting at speed ``v`` takes to roll ``s`` (≤ its stopping distance)."""
    root = v * v - 2.0 * dec * s
    return 2.0 * s / (v + math.sqrt(root if root > 0.0 else 0.0))


# -- polynomial roots -----------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _poly(c0: float, c1: float, c2: float, c3: float, c4: float, x: float) -> float:
    return c0 + x * (c1 + x * (c2 + x * (c3 + x * c4)))


@njit(cache=True, error_model="numpy")
def _quadratic_roots(a: float, b: float, c: float) -> tuple[int, float, float]:
    """Real roots of a·x² + b·x + c in ascending order: (count, r1, r2)."""
    if a == 0.0:
        if b == 0.0:
            return 0, 0.0, 0.0
        return 1, -c / b, 0.0
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, 0.0, 0.0
    q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    if q == 0.0:
        return 1, 0.0, 0.0
    r1, r2 = q / a, c / q
    if r1 > r2:
        r1, r2 = r2, r1
    return 2, r1, r2


@njit(cache=True, error_model="numpy")
def _bisect(
    c0: float, c1: float, c2: float, c3: float, c4: float, lo: float, hi: float, flo_positive: bool
) -> float:
    """The root of the polynomial between ``lo`` and ``hi``, where it changes sign once, to
    rounding: Newton steps kept inside the shrinking bracket, halving when a step would leave it."""
    x = 0.5 * (lo + hi)
    for _ in range(200):
        f = _poly(c0, c1, c2, c3, c4, x)
        if f == 0.0:
            return x
        if (f > 0.0) == flo_positive:
            lo = x
        else:
            hi = x
        df = c1 + x * (2.0 * c2 + x * (3.0 * c3 + x * 4.0 * c4))
        nxt = x - f / df if df != 0.0 else lo - 1.0
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        if nxt <= lo or nxt >= hi or abs(nxt - x) <= 1e-16 * abs(x):
            return nxt if lo < nxt < hi else hi
        x = nxt
    return hi


@njit(cache=True, error_model="numpy")
def _cubic_roots_in(
    c0: float, c1: float, c2: float, c3: float, lo: float, hi: float
) -> tuple[int, float, float, float]:
    """Real roots of c0 + c1·x + c2·x² + c3·x³ inside (lo, hi), ascending: (count, r1, r2, r3).

    The cubic is monotone between the roots of its derivative, so each piece holds at most one
    root, found by bisection where the sign changes."""
    n, d1, d2 = _quadratic_roots(3.0 * c3, 2.0 * c2, c1)
    # the piece ends: lo, the critical points inside, hi
    e1, e2, e3 = hi, hi, hi
    k = 1
    if n >= 1 and lo < d1 < hi:
        e1 = d1
        k = 2
    if n == 2 and lo < d2 < hi and d2 > d1:
        if k == 1:
            e1 = d2
        else:
            e2 = d2
        k += 1
    count = 0
    r1, r2, r3 = 0.0, 0.0, 0.0
    a = lo
    f0 = _poly(c0, c1, c2, c3, 0.0, lo)
    for p in range(k):
        b = e1 if p == 0 else (e2 if p == 1 else e3)
        f1 = _poly(c0, c1, c2, c3, 0.0, b)
        if (f0 > 0.0) != (f1 > 0.0) and b > a:
            root = _bisect(c0, c1, c2, c3, 0.0, a, b, f0 > 0.0)
            if count == 0:
                r1 = root
            elif count == 1:
                r2 = root
            else:
                r3 = root
            count += 1
        a, f0 = b, f1
    return count, r1, r2, r3


@njit(cache=True, error_model="numpy")
def first_drop(c0: float, c1: float, c2: float, c3: float, c4: float, hi: float) -> float:
    """The first x in (0, hi] where the polynomial (positive at 0) falls to zero, or INF.

    The polynomial is monotone between the real roots of its derivative (a cubic), so walking
    those critical points in order finds the first piece whose end is not positive; the root
    inside it is then unique. No contact can be missed, however brief."""
    n, r1, r2, r3 = _cubic_roots_in(c1, 2.0 * c2, 3.0 * c3, 4.0 * c4, 0.0, hi)
    a = 0.0
    for p in range(n + 1):
        if p == 0:
            b = r1 if n > 0 else hi
        elif p == 1:
            b = r2 if n > 1 else hi
        elif p == 2:
            b = r3 if n > 2 else hi
        else:
            b = hi
        if _poly(c0, c1, c2, c3, c4, b) <= 0.0:
            return _bisect(c0, c1, c2, c3, c4, a, b, True)
        a = b
    return INF


# -- geometry of a rolling pawn's path --------------------------------------------------------------


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
    :func:`collide_rail` uses), and never otherwise: the capsule is convex, so a straight path
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


# -- predictions -----------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def predict_own(
    S: Floats, F: Ints, i: int, rails: Floats, cells: Floats, P: Floats
) -> tuple[float, int, int]:
    """Pawn ``i``'s next own event from the start of its segment: (time, kind, argument)."""
    t0 = S[i, T0]
    best_t, kind, arg = INF, K_NONE, -1
    vx, vy = S[i, VX], S[i, VY]
    v = math.hypot(vx, vy)
    if v > 0.0:
        dec = P[P_DEC]
        px, py = S[i, X], S[i, Y]
        ux, uy = vx / v, vy / v
        reach = 0.5 * v * v / dec
        best_s = reach
        kind = K_STOP
        r = P[P_R]
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
        s = edge_exit(px, py, ux, uy, best_s, cells)
        if s < best_s:
            best_s, kind, arg = s, K_EDGE, -1
        if P[P_HOLE] > 0.0:
            if F[i, INR] == 0:
                s = circle_entry(px, py, ux, uy, 0.0, 0.0, P[P_HOLE], v)
                k2 = K_R_IN
            else:
                s = circle_exit(px, py, ux, uy, P[P_HOLE])
                k2 = K_R_OUT
            if s < best_s:
                best_s, kind, arg = s, k2, -1
            if F[i, INR] == ON_RIM:
                # the next corner of the polygon it rolls along, just inside the rim
                s = circle_exit(px, py, ux, uy, P[P_HOLE] - TOUCH)
                if s < best_s:
                    best_s, kind, arg = s, K_RIM, -1
            if F[i, INRC] == 0:
                s = circle_entry(px, py, ux, uy, 0.0, 0.0, P[P_RC], v)
                k2 = K_RC_IN
            else:
                s = circle_exit(px, py, ux, uy, P[P_RC])
                k2 = K_RC_OUT
            if s < best_s:
                best_s, kind, arg = s, k2, -1
        if kind == K_STOP:
            best_t = t0 + v / dec
        else:
            best_t = t0 + time_to_travel(best_s, v, dec)
    if F[i, INRC] == 1:
        # a pawn at rest within the capture disc drops at once
        drop = S[i, TRC] + P[P_TDROP] if v > 0.0 else t0
        if drop < best_t:
            best_t, kind, arg = drop, K_DROP, -1
    if F[i, FALL] == 1 and S[i, TFALL] <= best_t:
        best_t, kind, arg = S[i, TFALL], K_GONE, -1
    return best_t, kind, arg


@njit(cache=True, error_model="numpy")
def _point_segment_distance(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2 > 0.0:
        t = ((px - ax) * dx + (py - ay) * dy) / length2
        t = min(max(t, 0.0), 1.0)
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


@njit(cache=True, error_model="numpy")
def _segments_distance(
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
        _point_segment_distance(ax, ay, cx, cy, dx, dy),
        _point_segment_distance(bx, by, cx, cy, dx, dy),
        _point_segment_distance(cx, cy, ax, ay, bx, by),
        _point_segment_distance(dx, dy, ax, ay, bx, by),
    )


@njit(cache=True, error_model="numpy")
def _ray_pawn(
    xm: float, ym: float, vxm: float, vym: float, xs: float, ys: float, rho: float, dec: float
) -> float:
    """Time for a pawn moving from (xm, ym) at (vxm, vym) to touch a still one at (xs, ys)."""
    v = math.hypot(vxm, vym)
    if v == 0.0:
        return INF
    ux, uy = vxm / v, vym / v
    s = circle_entry(xm, ym, ux, uy, xs, ys, rho, v)
    reach = 0.5 * v * v / dec
    if s > reach:
        return INF
    return time_to_travel(s, v, dec)


@njit(cache=True, error_model="numpy")
def predict_pair(S: Floats, i: int, j: int, now: float, P: Floats) -> float:
    """Time of the next contact between pawns ``i`` and ``j`` after ``now``, or INF.

    While both roll, the squared distance between centres is a quartic in time; once one has
    stopped, the other's path meets a circle at a root of a quadratic."""
    dec, alpha, r = P[P_DEC], P[P_ALPHA], P[P_R]
    rho = 2.0 * r
    reach = rho + TOUCH
    if (S[i, BX0] - reach > S[j, BX1] or S[j, BX0] - reach > S[i, BX1]
            or S[i, BY0] - reach > S[j, BY1] or S[j, BY0] - reach > S[i, BY1]):  # fmt: skip
        return INF
    xi, yi, vxi, vyi, _, _ = state_at(S, i, now, dec, alpha)
    xj, yj, vxj, vyj, _, _ = state_at(S, j, now, dec, alpha)
    vi, vj = math.hypot(vxi, vyi), math.hypot(vxj, vyj)
    if vi == 0.0 and vj == 0.0:
        return INF
    # too far apart to meet before both stop
    reach_i, reach_j = 0.5 * vi * vi / dec, 0.5 * vj * vj / dec
    if math.hypot(xj - xi, yj - yi) - rho > reach_i + reach_j + TOUCH:
        return INF
    if vi > 0.0 and vj > 0.0:
        # the straight paths to rest never come within reach of each other
        gap = _segments_distance(
            xi, yi, xi + vxi / vi * reach_i, yi + vyi / vi * reach_i,
            xj, yj, xj + vxj / vj * reach_j, yj + vyj / vj * reach_j,
        )  # fmt: skip
        if gap - rho > TOUCH:
            return INF
    if vj == 0.0:
        return now + _ray_pawn(xi, yi, vxi, vyi, xj, yj, rho, dec)
    if vi == 0.0:
        return now + _ray_pawn(xj, yj, vxj, vyj, xi, yi, rho, dec)
    # both rolling: relative position D(τ) = D0 + DV·τ + ½·DA·τ² until the first stops
    ti, tj = vi / dec, vj / dec
    t1 = ti if ti < tj else tj
    dx, dy = xj - xi, yj - yi
    dvx, dvy = vxj - vxi, vyj - vyi
    dax, day = -dec * (vxj / vj - vxi / vi), -dec * (vyj / vj - vyi / vi)
    c1 = 2.0 * (dx * dvx + dy * dvy)
    c2 = dvx * dvx + dvy * dvy + dx * dax + dy * day
    c3 = dvx * dax + dvy * day
    c4 = 0.25 * (dax * dax + day * day)
    dist = math.hypot(dx, dy)
    if dist - rho <= TOUCH:
        if -c1 > 2.0 * V_EPS * dist:
            return now  # approaching faster than V_EPS
        # touching and not approaching: D² − ρ² = τ·(c1 + c2·τ + c3·τ² + c4·τ³)
        if c1 > 0.0:
            tau = first_drop(c1, c2, c3, c4, 0.0, t1)
        elif c2 < 0.0:
            return now
        elif c2 > 0.0:
            tau = first_drop(c2, c3, c4, 0.0, 0.0, t1)
        else:
            tau = INF
    else:
        c0 = (dist - rho) * (dist + rho)
        tau = first_drop(c0, c1, c2, c3, c4, t1)
    if tau <= t1:
        return now + tau
    # one has stopped (both, if they stop together)
    if ti == tj:
        return INF
    tb: float = now + t1
    xi, yi, vxi, vyi, _, _ = state_at(S, i, tb, dec, alpha)
    xj, yj, vxj, vyj, _, _ = state_at(S, j, tb, dec, alpha)
    if ti < tj:
        return tb + _ray_pawn(xj, yj, vxj, vyj, xi, yi, rho, dec)
    return tb + _ray_pawn(xi, yi, vxi, vyi, xj, yj, rho, dec)


@njit(cache=True, error_model="numpy")
def set_box(S: Floats, i: int, dec: float) -> None:
    """Pawn ``i``'s path box, from the start of its segment to where it would stop."""
    x, y = S[i, X], S[i, Y]
    v = math.hypot(S[i, VX], S[i, VY])
    qx, qy = x, y
    if v > 0.0:
        reach = 0.5 * v / dec
        qx, qy = x + S[i, VX] * reach, y + S[i, VY] * reach
    S[i, BX0], S[i, BX1] = min(x, qx), max(x, qx)
    S[i, BY0], S[i, BY1] = min(y, qy), max(y, qy)


@njit(cache=True, error_model="numpy")
def repredict(
    S: Floats,
    F: Ints,
    PT: Floats,
    ET: Floats,
    EK: Ints,
    EA: Ints,
    i: int,
    now: float,
    rails: Floats,
    cells: Floats,
    P: Floats,
) -> None:
    """Re-predict everything that involves pawn ``i`` (whose segment starts at ``now``)."""
    n = S.shape[0]
    if F[i, STAT] != ON_TABLE:
        ET[i], EK[i], EA[i] = INF, K_NONE, -1
        for j in range(n):
            PT[i, j] = INF
            PT[j, i] = INF
        return
    set_box(S, i, P[P_DEC])
    ET[i], EK[i], EA[i] = predict_own(S, F, i, rails, cells, P)
    for j in range(n):
        if j == i:
            continue
        if F[j, STAT] != ON_TABLE:
            t = INF
        else:
            t = predict_pair(S, i, j, now, P)
        PT[i, j] = t
        PT[j, i] = t


# -- resolution -----------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _settle_slow(S: Floats, i: int) -> None:
    if math.hypot(S[i, VX], S[i, VY]) < V_REST:
        S[i, VX] = 0.0
        S[i, VY] = 0.0


@njit(cache=True, error_model="numpy")
def topples(impulse: float, was_still: bool, P: Floats, gen: np.random.Generator) -> bool:
    """Whether a pawn receiving ``impulse`` topples (a draw from ``gen`` when the spread is > 0)."""
    threshold: float = P[P_KO] if was_still else P[P_KO] * P[P_KOF]
    spread = P[P_SPREAD]
    if spread <= 0.0:
        return impulse > threshold
    z = (impulse - threshold) / spread
    z = min(max(z, -50.0), 50.0)
    return gen.random() < 1.0 / (1.0 + math.exp(-z))


@njit(cache=True, error_model="numpy")
def collide_pawns(S: Floats, i: int, j: int, P: Floats) -> tuple[float, float, float]:
    """Resolve a contact between touching pawns ``i`` and ``j`` (segments start now); returns the
    normal impulse (0 when they are not approaching) and the contact point."""
    r, m = P[P_R], P[P_M]
    nx, ny = S[j, X] - S[i, X], S[j, Y] - S[i, Y]
    d = math.hypot(nx, ny)
    nx, ny = nx / d, ny / d
    tx, ty = -ny, nx
    cx, cy = S[i, X] + r * nx, S[i, Y] + r * ny
    gn = (S[i, VX] - S[j, VX]) * nx + (S[i, VY] - S[j, VY]) * ny
    if gn <= V_EPS:
        return 0.0, cx, cy
    e = P[P_EP] if gn >= V_SLOW else 0.0
    jn = 0.5 * m * (1.0 + e) * gn
    # sliding velocity of i's rim over j's at the contact point
    gt = (S[i, VX] - S[j, VX]) * tx + (S[i, VY] - S[j, VY]) * ty + r * (S[i, W] + S[j, W])
    # the impulse that stops sliding (masses and moments I = m r²/2 of both discs), capped
    jt = m * gt / 6.0
    cap = P[P_FP] * jn
    if jt > cap:
        jt = cap
    elif jt < -cap:
        jt = -cap
    inertia = 0.5 * m * r * r
    S[i, VX] -= (jn * nx + jt * tx) / m
    S[i, VY] -= (jn * ny + jt * ty) / m
    S[j, VX] += (jn * nx + jt * tx) / m
    S[j, VY] += (jn * ny + jt * ty) / m
    S[i, W] -= jt * r / inertia
    S[j, W] -= jt * r / inertia
    _settle_slow(S, i)
    _settle_slow(S, j)
    return jn, cx, cy


@njit(cache=True, error_model="numpy")
def collide_rail(S: Floats, i: int, rails: Floats, k: int, P: Floats) -> tuple[float, float, float]:
    """Resolve pawn ``i`` touching rail ``k``; returns the normal impulse and the contact point."""
    r, m = P[P_R], P[P_M]
    px, py = S[i, X], S[i, Y]
    ax, ay, ex, ey = rails[k, RA_X], rails[k, RA_Y], rails[k, RE_X], rails[k, RE_Y]
    proj = (px - ax) * ex + (py - ay) * ey
    proj = min(max(proj, 0.0), rails[k, RL])
    qx, qy = ax + ex * proj, ay + ey * proj
    nx, ny = qx - px, qy - py
    d = math.hypot(nx, ny)
    nx, ny = nx / d, ny / d
    tx, ty = -ny, nx
    cx, cy = px + r * nx, py + r * ny
    gn = S[i, VX] * nx + S[i, VY] * ny
    if gn <= V_EPS:
        return 0.0, cx, cy
    e = P[P_ER] if gn >= V_SLOW else 0.0
    jn = m * (1.0 + e) * gn
    gt = S[i, VX] * tx + S[i, VY] * ty + r * S[i, W]
    jt = m * gt / 3.0
    cap = P[P_FR] * jn
    if jt > cap:
        jt = cap
    elif jt < -cap:
        jt = -cap
    S[i, VX] -= (jn * nx + jt * tx) / m
    S[i, VY] -= (jn * ny + jt * ty) / m
    S[i, W] -= jt * r / (0.5 * m * r * r)
    _settle_slow(S, i)
    return jn, cx, cy


@njit(cache=True, error_model="numpy")
def climb_out(S: Floats, F: Ints, i: int, now: float, rails: Floats, P: Floats) -> bool:
    """Pawn ``i``'s centre reaches the hole's rim moving out: its ball, dipped by
    d = min(h, g·τ²/2) after τ over the hole, must climb. Returns True if it leaves."""
    px, py = S[i, X], S[i, Y]
    d = math.hypot(px, py)
    nx, ny = px / d, py / d
    vn = S[i, VX] * nx + S[i, VY] * ny
    tau = now - S[i, TIN]
    dip = 0.5 * P[P_G] * tau * tau
    if dip > P[P_H]:
        dip = P[P_H]
    need = 2.0 * P[P_G] * dip
    if vn * vn > need:
        new = math.sqrt(vn * vn - need)
        out = True
    else:
        new = -P[P_ER] * vn
        out = False
        if -new < V_SLOW:
            _roll_along_rim(S, F, i, d, nx, ny, now, rails, P)
            return False
    S[i, VX] += (new - vn) * nx
    S[i, VY] += (new - vn) * ny
    _settle_slow(S, i)
    return out


@njit(cache=True, error_model="numpy")
def _roll_along_rim(
    S: Floats,
    F: Ints,
    i: int,
    d: float,
    nx: float,
    ny: float,
    now: float,
    rails: Floats,
    P: Floats,
) -> None:
    """A pawn bouncing back from the rim ever more weakly (its outward speed under V_SLOW: the
    chords between bounces shrink geometrically, a Zeno sequence) rolls along the rim, its dip
    holding it in, until rolling resistance stops it (an arc of v_t²/(2μg) for its speed along
    the rim v_t).

    When no other pawn and no rail comes within reach of that arc (:func:`_rim_clear`, whatever
    they do from now on), nothing can meet it: it is put to rest that far along the rim, just
    inside it. Otherwise it rolls along the polygon of corners RIM_TURN apart inscribed just
    inside the rim, side by side (``INR`` is ON_RIM; :func:`turn_along_rim` at each corner), so
    that it meets the others as any rolling pawn does; a contact ends the roll."""
    vt = S[i, VX] * -ny + S[i, VY] * nx
    sweep = 0.5 * vt * abs(vt) / P[P_DEC] / d
    angle = math.atan2(ny, nx) + sweep
    inside = d - TOUCH
    if _rim_clear(S, F, i, inside, math.atan2(ny, nx), sweep, now, rails, P):
        S[i, X], S[i, Y] = inside * math.cos(angle), inside * math.sin(angle)
        S[i, VX] = 0.0
        S[i, VY] = 0.0
        return
    F[i, INR] = ON_RIM
    S[i, VX], S[i, VY] = _along_rim(S[i, X], S[i, Y], vt, abs(vt))


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
def turn_along_rim(S: Floats, i: int) -> None:
    """Pawn ``i``, rolling along the rim, reaches a corner of its polygon: it turns onto the
    next side, its speed kept."""
    vx, vy = S[i, VX], S[i, VY]
    S[i, VX], S[i, VY] = _along_rim(
        S[i, X], S[i, Y], S[i, X] * vy - S[i, Y] * vx, math.hypot(vx, vy)
    )


@njit(cache=True, error_model="numpy")
def leave_rim(F: Ints, i: int) -> None:
    """A pawn rolling along the rim that is stopped or hit moves on freely over the hole."""
    if F[i, INR] == ON_RIM:
        F[i, INR] = OVER_HOLE


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
        _point_segment_distance(e0x, e0y, ax, ay, bx, by),
        _point_segment_distance(e1x, e1y, ax, ay, bx, by),
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


@njit(cache=True, error_model="numpy")
def _rim_clear(
    S: Floats,
    F: Ints,
    i: int,
    rho: float,
    start: float,
    sweep: float,
    now: float,
    rails: Floats,
    P: Floats,
) -> bool:
    """Whether pawn ``i`` can roll the arc of the circle (0, rho) from direction ``start``
    turning by ``sweep`` without meeting anything: no rail within reach of the arc, and no
    other pawn on the table whose straight path from now to rest comes within reach of it."""
    r, dec, alpha = P[P_R], P[P_DEC], P[P_ALPHA]
    for k in range(rails.shape[0]):
        gap = arc_segment_distance(
            rho, start, sweep, rails[k, RA_X], rails[k, RA_Y], rails[k, RB_X], rails[k, RB_Y]
        )
        if gap <= r + rails[k, RH] + TOUCH:
            return False
    for j in range(S.shape[0]):
        if j == i or F[j, STAT] != ON_TABLE:
            continue
        x, y, vx, vy, _, _ = state_at(S, j, now, dec, alpha)
        reach = 0.5 * math.hypot(vx, vy) / dec  # to where it stops, per unit of velocity
        gap = arc_segment_distance(rho, start, sweep, x, y, x + vx * reach, y + vy * reach)
        if gap <= 2.0 * r + TOUCH:
            return False
    return True


# -- the loop --------------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def start(
    S: Floats,
    F: Ints,
    PT: Floats,
    ET: Floats,
    EK: Ints,
    EA: Ints,
    now: float,
    rails: Floats,
    cells: Floats,
    P: Floats,
) -> None:
    """Set the hole flags of pawns placed at ``now`` and predict every event."""
    n = S.shape[0]
    for i in range(n):
        if F[i, STAT] != ON_TABLE:
            continue
        S[i, T0] = now
        if P[P_HOLE] > 0.0:
            d = math.hypot(S[i, X], S[i, Y])
            if d < P[P_HOLE]:
                F[i, INR] = 1
                S[i, TIN] = -INF  # already dipped as far as it goes
            if d < P[P_RC]:
                F[i, INRC] = 1
                S[i, TRC] = -INF
    for i in range(n):
        set_box(S, i, P[P_DEC])
        ET[i], EK[i], EA[i] = INF, K_NONE, -1
        for j in range(n):
            PT[i, j] = INF
    for i in range(n):
        if F[i, STAT] == ON_TABLE:
            ET[i], EK[i], EA[i] = predict_own(S, F, i, rails, cells, P)
            for j in range(i + 1, n):
                if F[j, STAT] == ON_TABLE:
                    t = predict_pair(S, i, j, now, P)
                    PT[i, j] = t
                    PT[j, i] = t


@njit(cache=True, error_model="numpy")
def anything_rolls(S: Floats, F: Ints) -> bool:
    for i in range(S.shape[0]):
        if F[i, STAT] == ON_TABLE and (S[i, VX] != 0.0 or S[i, VY] != 0.0):
            return True
    return False


@njit(cache=True, error_model="numpy")
def _pending(ET: Floats) -> bool:
    for i in range(ET.shape[0]):
        if ET[i] < INF:
            return True
    return False


@njit(cache=True, error_model="numpy")
def _record(
    rec: Floats, C: Ints, t: float, kind: int, a: int, b: int, impulse: float, x: float, y: float
) -> None:
    """Append an event to ``rec`` (when recording: ``rec`` has rows)."""
    k = C[1]
    if k < rec.shape[0]:
        rec[k, 0], rec[k, 1], rec[k, 2], rec[k, 3] = t, kind, a, b
        rec[k, 4], rec[k, 5], rec[k, 6] = impulse, x, y
    C[1] = k + 1


@njit(cache=True, error_model="numpy")
def _remove(
    S: Floats, F: Ints, i: int, code: int, rec: Floats, C: Ints, t: float, kind: int
) -> None:
    """Pawn ``i`` leaves the table now with status ``code`` (a falling pawn: knocked over, as
    recorded when it toppled)."""
    if F[i, FALL] == 1:
        F[i, FALL] = 0
        code = S_KNOCKED
        S[i, X], S[i, Y] = S[i, XFALL], S[i, YFALL]
    else:
        _record(rec, C, t, kind, i, -1, 0.0, S[i, X], S[i, Y])
    F[i, STAT] = code
    S[i, VX] = 0.0
    S[i, VY] = 0.0


@njit(cache=True, error_model="numpy")
def _topple(S: Floats, F: Ints, i: int, rec: Floats, C: Ints, t: float, P: Floats) -> None:
    """Pawn ``i`` topples now (recorded here, where it is): it falls for ``P_FALL`` seconds,
    still moving and hitting what is in its way, so that it passes on its momentum, and then
    leaves the table knocked over."""
    _record(rec, C, t, E_KNOCKED, i, -1, 0.0, S[i, X], S[i, Y])
    F[i, FALL] = 1
    S[i, TFALL] = t + P[P_FALL]
    S[i, XFALL], S[i, YFALL] = S[i, X], S[i, Y]


@njit(cache=True, error_model="numpy")
def advance(
    S: Floats,
    F: Ints,
    PT: Floats,
    ET: Floats,
    EK: Ints,
    EA: Ints,
    clock: Floats,
    C: Ints,
    rails: Floats,
    cells: Floats,
    P: Floats,
    gen: np.random.Generator,
    rec: Floats,
    until: float,
    max_events: int,
) -> int:
    """Process events in time order up to time ``until``.

    ``clock[0]`` is the time reached; ``clock[1]`` the time the last translation ended.
    ``C`` counts: [0] events processed, [1] events recorded (``rec`` rows: t, kind, a, b,
    impulse, x, y; recording stops with FULL when ``rec`` is full), [2] pawn–pawn contacts.
    Returns RUNNING (reached ``until``), SETTLED (no pawn translates), FULL, or TIMEOUT (the event
    cap or ``max_time`` was reached while pawns still roll)."""
    n = S.shape[0]
    dec, alpha = P[P_DEC], P[P_ALPHA]
    while True:
        if not anything_rolls(S, F) and not _pending(ET):
            return SETTLED
        if rec.shape[0] > 0 and C[1] + 3 > rec.shape[0]:
            return FULL
        # the earliest event, ties within TIE by (pawn, partner)
        tmin = INF
        for i in range(n):
            if ET[i] < tmin:
                tmin = ET[i]
            for j in range(i + 1, n):
                if PT[i, j] < tmin:
                    tmin = PT[i, j]
        if tmin > P[P_MAXT]:
            if until >= P[P_MAXT]:
                clock[0] = P[P_MAXT]
                return TIMEOUT
        if tmin > until:
            clock[0] = until
            return RUNNING
        if C[0] >= max_events:
            return TIMEOUT
        C[0] += 1
        a, b = -1, -1
        for i in range(n):
            for j in range(i + 1, n):
                if PT[i, j] <= tmin + TIE:
                    a, b = i, j
                    break
            if a >= 0:
                break
            if ET[i] <= tmin + TIE:
                a = i
                break
        now = PT[a, b] if b >= 0 else ET[a]
        if now < clock[0]:
            now = clock[0]  # never step back in time (ties taken after an earlier one)
        clock[0] = now
        if b >= 0:
            rebase(S, a, now, dec, alpha)
            rebase(S, b, now, dec, alpha)
            still_a = S[a, VX] == 0.0 and S[a, VY] == 0.0
            still_b = S[b, VX] == 0.0 and S[b, VY] == 0.0
            jn, cx, cy = collide_pawns(S, a, b, P)
            if jn > 0.0:
                leave_rim(F, a)
                leave_rim(F, b)
                C[2] += 1
                _record(rec, C, now, E_CONTACT, a, b, jn, cx, cy)
                down_a = F[a, FALL] == 0 and topples(jn, still_a, P, gen)
                down_b = F[b, FALL] == 0 and topples(jn, still_b, P, gen)
                if down_a:
                    _topple(S, F, a, rec, C, now, P)
                if down_b:
                    _topple(S, F, b, rec, C, now, P)
            repredict(S, F, PT, ET, EK, EA, a, now, rails, cells, P)
            repredict(S, F, PT, ET, EK, EA, b, now, rails, cells, P)
            if PT[a, b] <= now + TIE:
                # a resting contact: the pair moves on together
                vx = 0.5 * (S[a, VX] + S[b, VX])
                vy = 0.5 * (S[a, VY] + S[b, VY])
                S[a, VX], S[a, VY], S[b, VX], S[b, VY] = vx, vy, vx, vy
                leave_rim(F, a)
                leave_rim(F, b)
                _settle_slow(S, a)
                _settle_slow(S, b)
                repredict(S, F, PT, ET, EK, EA, a, now, rails, cells, P)
                repredict(S, F, PT, ET, EK, EA, b, now, rails, cells, P)
                if PT[a, b] <= now + TIE:
                    PT[a, b] = INF
                    PT[b, a] = INF
        else:
            kind, arg = EK[a], EA[a]
            rebase(S, a, now, dec, alpha)
            if kind == K_STOP:
                S[a, VX] = 0.0
                S[a, VY] = 0.0
                leave_rim(F, a)
                if F[a, INRC] == 1:
                    _remove(S, F, a, S_IN_HOLE, rec, C, now, E_HOLE)
            elif kind == K_RAIL:
                still = S[a, VX] == 0.0 and S[a, VY] == 0.0
                jn, cx, cy = collide_rail(S, a, rails, arg, P)
                if jn > 0.0:
                    leave_rim(F, a)
                    _record(rec, C, now, E_RAIL, a, -1, jn, cx, cy)
                    if F[a, FALL] == 0 and topples(jn, still, P, gen):
                        _topple(S, F, a, rec, C, now, P)
            elif kind == K_EDGE:
                _remove(S, F, a, S_OFF_BOARD, rec, C, now, E_OFF)
            elif kind == K_R_IN:
                F[a, INR] = 1
                S[a, TIN] = now
            elif kind == K_R_OUT:
                if climb_out(S, F, a, now, rails, P):
                    F[a, INR] = 0
            elif kind == K_RIM:
                turn_along_rim(S, a)
            elif kind == K_RC_IN:
                F[a, INRC] = 1
                S[a, TRC] = now
            elif kind == K_RC_OUT:
                F[a, INRC] = 0
            elif kind == K_DROP:
                _remove(S, F, a, S_IN_HOLE, rec, C, now, E_HOLE)
            elif kind == K_GONE:
                _remove(S, F, a, S_KNOCKED, rec, C, now, E_KNOCKED)
            repredict(S, F, PT, ET, EK, EA, a, now, rails, cells, P)
        if not anything_rolls(S, F):
            clock[1] = now


@njit(cache=True, error_model="numpy")
def states_at(S: Floats, t: float, P: Floats, out: Floats) -> None:
    """Every pawn's (x, y, vx, vy, spin, heading) at time ``t`` into ``out`` (n × 6)."""
    for i in range(S.shape[0]):
        x, y, vx, vy, w, th = state_at(S, i, t, P[P_DEC], P[P_ALPHA])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4], out[i, 5] = x, y, vx, vy, w, th


# -- rest status in compiled code (the batch path) -----------------------------------------------

# face vector columns
FC_HOLE, FC_CHOICE, FC_CHOICE_MAX, FC_BASE, FC_SORRY, FC_EDGE_MAX, FC_R, FC_HOLE_TEST, FC_TIP = (
    range(9)
)


@njit(cache=True, error_model="numpy")
def _rect_distance(surface: Floats, k: int, x: float, y: float) -> float:
    dx = max(surface[k, 0] - x, 0.0, x - surface[k, 2])
    dy = max(surface[k, 1] - y, 0.0, y - surface[k, 3])
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True, error_model="numpy")
def classify_at(
    x: float,
    y: float,
    seat: int,
    surface: Floats,
    own: Bools,
    face: Floats,
    rings: Floats,
    corners: Floats,
    dots: Floats,
) -> tuple[int, int]:
    """(status code, points) of a pawn of ``seat`` at rest at (x, y): the same rules, in the same
    order, as :func:`sliders.boards.geometry.classify` (checked against it by the tests)."""
    r = face[FC_R]
    where = -1
    for k in range(surface.shape[0]):
        if surface[k, 0] <= x <= surface[k, 2] and surface[k, 1] <= y <= surface[k, 3]:
            where = k
            break
    if where < 0:
        return S_OFF_BOARD, 0
    if where > 0:
        if not own[seat, where]:
            return S_OTHER_TRACK, 0
        if _rect_distance(surface, 0, x, y) < r:
            return S_TIPPING, int(face[FC_TIP])
        return S_OWN_TRACK, 0
    d = math.hypot(x, y)
    hole = face[FC_HOLE]
    if hole > 0.0 and d < face[FC_HOLE_TEST]:
        return S_IN_HOLE, 0
    for c in range(corners.shape[0]):
        if math.hypot(x - corners[c, 0], y - corners[c, 1]) < face[FC_SORRY] + r:
            return S_SORRY, 0
    for c in range(dots.shape[0]):
        if math.hypot(x - dots[c, 0], y - dots[c, 1]) < dots[c, 2] + r:
            return S_DOT, 0
    for k in range(1, surface.shape[0]):
        if own[seat, k] and _rect_distance(surface, k, x, y) < r:
            return S_TIPPING, int(face[FC_TIP])
    if hole > 0.0 and d < hole + r:
        return S_HOLE_EDGE, int(face[FC_EDGE_MAX])
    if face[FC_CHOICE] > 0.0 and d < face[FC_CHOICE] + r:
        return S_ON_TARGET, int(face[FC_CHOICE_MAX])
    for k in range(rings.shape[0]):
        if d < rings[k, 0] + r:
            return S_ON_TARGET, int(rings[k, 1])
    return S_ON_TARGET, int(face[FC_BASE])


@njit(cache=True, error_model="numpy")
def classify_many(
    xs: Floats,
    ys: Floats,
    seats: Ints,
    surface: Floats,
    own: Bools,
    face: Floats,
    rings: Floats,
    corners: Floats,
    dots: Floats,
    status: NDArray[np.int8],
    points: NDArray[np.int16],
) -> None:
    for i in range(xs.shape[0]):
        status[i], points[i] = classify_at(
            xs[i], ys[i], seats[i], surface, own, face, rings, corners, dots
        )


@njit(cache=True, error_model="numpy")
def run_batch(
    table: Floats,
    seats: Ints,
    starts: Floats,
    velocities: Floats,
    fouls: Bools,
    rails: Floats,
    cells: Floats,
    P: Floats,
    surface: Floats,
    own: Bools,
    face: Floats,
    rings: Floats,
    corners: Floats,
    dots: Floats,
    gen: np.random.Generator,
    max_events: int,
    status: NDArray[np.int8],
    points: NDArray[np.int16],
    where: Floats,
    times: Floats,
    contacts: Ints,
    settled: Bools,
) -> None:
    """Solve every shot of one table to rest: shot ``s`` slides pawn 0 (of seat ``seats[0]``) from
    ``starts[s]`` at ``velocities[s]`` (a foul when ``fouls[s]``) among the pawns at ``table``
    (seats ``seats[1:]``). Writes each pawn's status code, points and place, the settle time, the
    pawn–pawn contacts and whether the shot settled."""
    m = table.shape[0]
    n = m + 1
    S = np.zeros((n, NSTATE))
    F = np.zeros((n, NFLAG), dtype=np.int64)
    PT = np.full((n, n), INF)
    ET = np.full(n, INF)
    EK = np.zeros(n, dtype=np.int64)
    EA = np.zeros(n, dtype=np.int64)
    clock = np.zeros(2)
    C = np.zeros(3, dtype=np.int64)
    rec = np.zeros((0, 7))
    for s in range(starts.shape[0]):
        S[:, :] = 0.0
        F[:, :] = 0
        F[:, STAT] = ON_TABLE
        S[0, X], S[0, Y] = starts[s, 0], starts[s, 1]
        S[0, VX], S[0, VY] = velocities[s, 0], velocities[s, 1]
        if fouls[s]:
            F[0, STAT] = S_FOUL
        for i in range(m):
            S[i + 1, X], S[i + 1, Y] = table[i, 0], table[i, 1]
        clock[0], clock[1] = 0.0, 0.0
        C[0], C[1], C[2] = 0, 0, 0
        start(S, F, PT, ET, EK, EA, 0.0, rails, cells, P)
        code = advance(S, F, PT, ET, EK, EA, clock, C, rails, cells, P, gen, rec, INF, max_events)
        t = clock[1] if code == SETTLED else clock[0]
        times[s] = t
        settled[s] = code == SETTLED
        contacts[s] = C[2]
        for i in range(n):
            x, y, _, _, _, _ = state_at(S, i, t, P[P_DEC], P[P_ALPHA])
            where[s, i, 0], where[s, i, 1] = x, y
            if F[i, STAT] != ON_TABLE:
                status[s, i], points[s, i] = F[i, STAT], 0
            else:
                status[s, i], points[s, i] = classify_at(
                    x, y, seats[i], surface, own, face, rings, corners, dots
                )


@njit(cache=True, error_model="numpy")
def advance_shot(
    S: Floats,
    F: Ints,
    PT: Floats,
    ET: Floats,
    EK: Ints,
    EA: Ints,
    clock: Floats,
    C: Ints,
    rails: Floats,
    cells: Floats,
    P: Floats,
    gen: np.random.Generator,
    rec: Floats,
    until: float,
    max_events: int,
    fresh: bool,
    now: Floats,
) -> int:
    """:func:`start` (when ``fresh``), :func:`advance`, and every pawn's state at the time reached
    into ``now`` (n × 6), in one call from Python."""
    if fresh:
        start(S, F, PT, ET, EK, EA, 0.0, rails, cells, P)
    code = advance(S, F, PT, ET, EK, EA, clock, C, rails, cells, P, gen, rec, until, max_events)
    t = clock[1] if code == SETTLED else clock[0]
    states_at(S, t, P, now)
    return code


@njit(cache=True, error_model="numpy")
def placement_clear(xy: Floats, rails: Floats, surface: Floats, r: float, margin: float) -> bool:
    """True when every pawn at ``xy`` has its centre on the table, stays clear of every rail and
    of the other pawns by more than the placement check's tolerance plus ``margin`` (a fast path:
    anything closer is left to :func:`sliders.boards.geometry.check_pawns`)."""
    n = xy.shape[0]
    for i in range(n):
        x, y = xy[i, 0], xy[i, 1]
        on = False
        for k in range(surface.shape[0]):
            if surface[k, 0] <= x <= surface[k, 2] and surface[k, 1] <= y <= surface[k, 3]:
                on = True
                break
        if not on:
            return False
        for k in range(rails.shape[0]):
            d = _point_segment_distance(
                x, y, rails[k, RA_X], rails[k, RA_Y], rails[k, RB_X], rails[k, RB_Y]
            )
            if d < r + rails[k, RH] - 1e-9 + margin:
                return False
        for j in range(i + 1, n):
            if math.hypot(x - xy[j, 0], y - xy[j, 1]) < 2.0 * r - 1e-9 + margin:
                return False
    return True

"""Real roots of the low-degree polynomials the exact engine's predictions solve: when two rolling
pawns' centres come within reach of each other is the first root of a quartic in time.

Roots are found to rounding inside brackets where the polynomial changes sign once (between the
roots of its derivative), so no root is missed however close two roots are.
"""

from __future__ import annotations

import math

from numba import njit

from sliders.physics.exact.state import INF


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

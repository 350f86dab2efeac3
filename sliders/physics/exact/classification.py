"""A resting pawn's status and points in compiled code: the same rules, in the same order, as
:func:`sliders.boards.geometry.classify` (checked against it by the tests), so that the batch path
never leaves compiled code; and the fast check that pawns placed on a table are clear of each
other and of the rails.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from numba import njit

from sliders.physics.exact.paths import point_segment_distance
from sliders.physics.exact.state import (
    FC_BASE,
    FC_CHOICE,
    FC_CHOICE_MAX,
    FC_EDGE_MAX,
    FC_HOLE,
    FC_HOLE_TEST,
    FC_R,
    FC_SORRY,
    FC_TIP,
    RA_X,
    RA_Y,
    RB_X,
    RB_Y,
    RH,
    S_DOT,
    S_HOLE_EDGE,
    S_IN_HOLE,
    S_OFF_BOARD,
    S_ON_TARGET,
    S_OTHER_TRACK,
    S_OWN_TRACK,
    S_SORRY,
    S_TIPPING,
    Zones,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from sliders.physics.exact.state import Floats, Ints


@njit(cache=True, error_model="numpy")
def classify_at(x: float, y: float, seat: int, zones: Zones) -> tuple[int, int]:
    """(status code, points) of a pawn of ``seat`` at rest at (x, y)."""
    where = _surface_at(zones.surface, x, y)
    if where < 0:
        return S_OFF_BOARD, 0
    if where > 0:
        return _on_track(x, y, seat, where, zones)
    return _on_board(x, y, seat, zones)


@njit(cache=True, error_model="numpy")
def classify_many(
    xs: Floats,
    ys: Floats,
    seats: Ints,
    zones: Zones,
    status: NDArray[np.int8],
    points: NDArray[np.int16],
) -> None:
    """:func:`classify_at` of every point (xs[i], ys[i]) for a pawn of ``seats[i]``."""
    for i in range(xs.shape[0]):
        status[i], points[i] = classify_at(xs[i], ys[i], seats[i], zones)


@njit(cache=True, error_model="numpy")
def _surface_at(surface: Floats, x: float, y: float) -> int:
    """The index of the surface rectangle (the board is 0) under (x, y), or -1 off the table."""
    for k in range(surface.shape[0]):
        if surface[k, 0] <= x <= surface[k, 2] and surface[k, 1] <= y <= surface[k, 3]:
            return k
    return -1


@njit(cache=True, error_model="numpy")
def _on_track(x: float, y: float, seat: int, where: int, zones: Zones) -> tuple[int, int]:
    """A pawn resting on track ``where``: another seat's, its own, or its own but tipping over
    the board's edge."""
    if not zones.own[seat, where]:
        return S_OTHER_TRACK, 0
    if _rect_distance(zones.surface, 0, x, y) < zones.face[FC_R]:
        return S_TIPPING, int(zones.face[FC_TIP])
    return S_OWN_TRACK, 0


@njit(cache=True, error_model="numpy")
def _on_board(x: float, y: float, seat: int, zones: Zones) -> tuple[int, int]:
    """A pawn resting on the board: in the hole, on a Sorry! corner or a dot, tipping onto its
    own track, on the hole's edge, else on the target's zone it overlaps first."""
    face = zones.face
    r = face[FC_R]
    d = math.hypot(x, y)
    hole = face[FC_HOLE]
    if hole > 0.0 and d < face[FC_HOLE_TEST]:
        return S_IN_HOLE, 0
    if _near_any(x, y, zones.corners, face[FC_SORRY] + r):
        return S_SORRY, 0
    for c in range(zones.dots.shape[0]):
        if math.hypot(x - zones.dots[c, 0], y - zones.dots[c, 1]) < zones.dots[c, 2] + r:
            return S_DOT, 0
    for k in range(1, zones.surface.shape[0]):
        if zones.own[seat, k] and _rect_distance(zones.surface, k, x, y) < r:
            return S_TIPPING, int(face[FC_TIP])
    if hole > 0.0 and d < hole + r:
        return S_HOLE_EDGE, int(face[FC_EDGE_MAX])
    if face[FC_CHOICE] > 0.0 and d < face[FC_CHOICE] + r:
        return S_ON_TARGET, int(face[FC_CHOICE_MAX])
    for k in range(zones.rings.shape[0]):
        if d < zones.rings[k, 0] + r:
            return S_ON_TARGET, int(zones.rings[k, 1])
    return S_ON_TARGET, int(face[FC_BASE])


@njit(cache=True, error_model="numpy")
def _near_any(x: float, y: float, centres: Floats, reach: float) -> bool:
    """Whether (x, y) is closer than ``reach`` to one of ``centres``."""
    for c in range(centres.shape[0]):
        if math.hypot(x - centres[c, 0], y - centres[c, 1]) < reach:
            return True
    return False


@njit(cache=True, error_model="numpy")
def _rect_distance(surface: Floats, k: int, x: float, y: float) -> float:
    """Distance from (x, y) to surface rectangle ``k`` (0 inside)."""
    dx = max(surface[k, 0] - x, 0.0, x - surface[k, 2])
    dy = max(surface[k, 1] - y, 0.0, y - surface[k, 3])
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True, error_model="numpy")
def placement_clear(xy: Floats, rails: Floats, surface: Floats, r: float, margin: float) -> bool:
    """True when every pawn at ``xy`` has its centre on the table, stays clear of every rail and
    of the other pawns by more than the placement check's tolerance plus ``margin`` (a fast path:
    anything closer is left to :func:`sliders.boards.geometry.check_pawns`)."""
    n = xy.shape[0]
    for i in range(n):
        x, y = xy[i, 0], xy[i, 1]
        if _surface_at(surface, x, y) < 0:
            return False
        for k in range(rails.shape[0]):
            d = point_segment_distance(
                x, y, rails[k, RA_X], rails[k, RA_Y], rails[k, RB_X], rails[k, RB_Y]
            )
            if d < r + rails[k, RH] - 1e-9 + margin:
                return False
        for j in range(i + 1, n):
            if math.hypot(x - xy[j, 0], y - xy[j, 1]) < 2.0 * r - 1e-9 + margin:
                return False
    return True

"""Small builders shared by the physics tests."""

from __future__ import annotations

import math

from sliders.boards import Layout, Rail, Seat, Track, face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams

P = PhysicsParams.default()
SQUARE2 = square("south,north")
SQUARE4 = square("south,west,north,east")
RACE = face("race-for-home")


def pawn(pid: str, x: float, y: float) -> PawnRest:
    return PawnRest(pid, pid.rsplit("-", 1)[0], x, y, Status.ON_TARGET)


def long_lane(length: float = 12.0) -> Layout:
    """One very long railed lane so that even a 3 m/s pawn stops on it."""
    track = Track("south", mouth=(0.0, -0.13), forward=(0, 1), length=length)
    return Layout(
        "long-lane",
        tracks=(track,),
        rails=track.side_rails(),
        seats=(Seat("south", ("south",), track.near, track.forward),),
    )


def speed_to_stop_after(distance: float, params: PhysicsParams = P) -> float:
    """The release speed whose closed-form stopping distance, v²/(2μg) in both engines, is
    ``distance`` (see PhysicsParams.stopping_distance)."""
    return math.sqrt(2 * distance * params.deceleration)


def speed_to_reach(y: float, seat_foul: float = 0.16, params: PhysicsParams = P) -> float:
    """Speed for a south shot from the foul line to stop with its centre at world ``y``."""
    start = -0.13 - 0.38 + seat_foul
    return speed_to_stop_after(y - start, params)


A = P.mu_roll * P.g
"""the rolling deceleration"""


def arena(width: float = 2.0, length: float = 12.0, rails: tuple[Rail, ...] = ()) -> Layout:
    """One wide lane, its near end at y = -length - 0.13, with only the given rails."""
    track = Track("south", mouth=(0.0, -0.13), forward=(0, 1), length=length, width=width)
    return Layout(
        "arena",
        tracks=(track,),
        rails=rails,
        seats=(
            Seat("south", ("south",), track.near, track.forward, width=width, foul=1.0),
            Seat("north", ("south",), track.mouth, (0, -1), width=width, foul=1.0),
        ),
    )


ARENA = arena()
Y0 = ARENA.seats[0].near[1] + 1.0  # where a shot from the foul line starts


def pair_closed_form(v0: float, b: float, gap: float, e: float, mu: float):
    """A pawn sliding along +y from (b, Y0) at v0 meets one at rest at (0, Y0 + gap): the contact
    speed, normal, impulses and velocities after (no spin before)."""
    R = P.pawn_radius
    yc = Y0 + gap - math.sqrt(4 * R * R - b * b)
    vc = math.sqrt(v0 * v0 - 2 * A * (yc - Y0))
    nx, ny = -b / (2 * R), math.sqrt(4 * R * R - b * b) / (2 * R)
    tx, ty = -ny, nx
    m = P.pawn_mass
    gn = vc * ny
    jn = 0.5 * m * (1 + e) * gn
    gt = vc * ty
    jt = max(-mu * jn, min(mu * jn, m * gt / 6))
    v1 = (-(jn * nx + jt * tx) / m, vc - (jn * ny + jt * ty) / m)
    v2 = ((jn * nx + jt * tx) / m, (jn * ny + jt * ty) / m)
    w = -jt * R / (0.5 * m * R * R)
    return (b, yc), vc, jn, v1, v2, w

"""Small builders shared by the physics tests."""

from __future__ import annotations

import math

from sliders.boards import Layout, Seat, Track, face, square
from sliders.outcome import PawnRest, Status
from sliders.physics import PhysicsParams, check_engine

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


def speed_to_stop_after(
    distance: float, params: PhysicsParams = P, engine: str | None = None
) -> float:
    """The release speed whose closed-form stopping distance in ``engine`` (None: the default)
    is ``distance`` (see PhysicsParams.stopping_distance)."""
    a = params.deceleration
    dt = params.dt if check_engine(engine) == "pymunk" else 0.0
    # v²/(2a) + v·dt/2 = d (dt = 0: the exact engine has no step term)
    return (-dt / 2 + math.sqrt(dt * dt / 4 + 2 * distance / a)) * a


def speed_to_reach(
    y: float, seat_foul: float = 0.16, params: PhysicsParams = P, engine: str | None = None
) -> float:
    """Speed for a south shot from the foul line to stop with its centre at world ``y``."""
    start = -0.13 - 0.38 + seat_foul
    return speed_to_stop_after(y - start, params, engine)

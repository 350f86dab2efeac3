"""A shot as executed, and how either engine starts one: the pawn slid, where it is released,
its velocity and whether the release is a foul; and the rest status of a pawn standing still.

Both engines (:mod:`sliders.physics.engine`, :mod:`sliders.physics.exact`) start every shot here,
so they refuse the same impossible shots with the same words.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sliders.boards import Face, Layout, Seat, classify, surface_at
from sliders.boards.geometry import PlacedPawn
from sliders.errors import UserError
from sliders.outcome import PAWNS_PER_PLAYER, PawnRest, pawn_id, pawn_seat
from sliders.physics.params import PhysicsParams


@dataclass(frozen=True, slots=True)
class Shot:
    """One slide as executed: from ``seat``, ``release`` metres down the lane from its near end
    (None: on the foul line), ``offset`` metres to the shooter's right of the lane's axis, heading
    ``angle`` radians to the shooter's right of straight, at ``speed`` m/s. ``pawn`` is the id of
    the pawn slid (None: the seat's lowest-numbered pawn not on the table)."""

    seat: str
    speed: float
    angle: float = 0.0
    offset: float = 0.0
    release: float | None = None
    pawn: str | None = None

    @classmethod
    def from_degrees(cls, seat: str, speed: float, angle_deg: float = 0.0, **kw: object) -> Shot:
        return cls(seat, speed, math.radians(angle_deg), **kw)  # type: ignore[arg-type]


def place_shooter(
    layout: Layout, seat: Seat, table: Sequence[PlacedPawn], shot: Shot, p: PhysicsParams
) -> tuple[str, tuple[float, float], tuple[float, float], bool]:
    """The pawn a shot slides, where it is released, its velocity, and whether it is a foul;
    a UserError when the pawn is not the seat's, is already on the table, or the release point
    is taken. Both engines start a shot through this."""
    shooter = shot.pawn or next_in_hand(shot.seat, table)
    if shooter not in {pawn_id(shot.seat, n) for n in range(1, PAWNS_PER_PLAYER + 1)}:
        raise UserError(
            f"pawn {shooter!r} is not one of {shot.seat}'s "
            f"({pawn_id(shot.seat, 1)} to {pawn_id(shot.seat, PAWNS_PER_PLAYER)})"
        )
    if any(q.id == shooter for q in table):
        raise UserError(f"pawn {shooter} is already on the table")
    start, velocity, foul = _release(layout, seat, shot, p)
    for q in table if not foul else ():
        if math.hypot(q.x - start[0], q.y - start[1]) < 2 * p.pawn_radius:
            raise UserError(f"the release point is taken by pawn {q.id}")
    return shooter, start, velocity, foul


def check_seed(seed: object) -> None:
    """Refuse a seed that is neither None, a Generator nor a whole number in 0..2**63 - 1."""
    if not (seed is None or isinstance(seed, np.random.Generator)) and not (
        isinstance(seed, int | np.integer) and 0 <= seed < 2**63
    ):
        raise UserError(f"seed {seed!r} must be a whole number from 0 to 2**63 - 1")


def at_rest(
    layout: Layout,
    face: Face,
    table: Sequence[PlacedPawn],
    params: PhysicsParams | None = None,
) -> tuple[PawnRest, ...]:
    """The rest status and points of pawns standing still at the given positions."""
    params = params or PhysicsParams.default()
    return tuple(rest_of(layout, face, p.id, p.x, p.y, params.pawn_radius) for p in table)


def rest_of(layout: Layout, face: Face, pid: str, x: float, y: float, r: float) -> PawnRest:
    """Pawn ``pid`` standing still at (x, y): its status and points."""
    seat = pawn_seat(pid)
    v = classify(layout, face, seat, x, y, r)
    return PawnRest(pid, seat, x, y, v.status, v.points, v.choices)


def _release(
    layout: Layout, seat: Seat, shot: Shot, p: PhysicsParams
) -> tuple[tuple[float, float], tuple[float, float], bool]:
    """Start point, velocity and whether the release is a foul."""
    r = p.pawn_radius
    if not (math.isfinite(shot.speed) and 0 < shot.speed <= p.max_speed):
        raise UserError(
            f"speed {shot.speed:g} m/s is impossible (a flick is above 0 and at most "
            f"{p.max_speed:g} m/s)"
        )
    if not (math.isfinite(shot.angle) and abs(shot.angle) < math.pi / 2):
        raise UserError(f"angle {math.degrees(shot.angle):g}° is impossible (within ±90°)")
    limit = seat.width / 2 - r
    if limit < 0:
        raise UserError(
            f"a pawn of radius {r:g} m is wider than {seat.name}'s lane ({seat.width:g} m)"
        )
    if not (math.isfinite(shot.offset) and abs(shot.offset) <= limit + 1e-12):
        raise UserError(
            f"offset {shot.offset:g} m puts the pawn outside the track (at most ±{limit:.4f} m)"
        )
    release = seat.foul if shot.release is None else shot.release
    lo = seat.release_min + r
    if not (math.isfinite(release) and release >= lo - 1e-12):
        raise UserError(
            f"release {release:g} m is behind the start of the lane (at least {lo:g} m)"
        )
    start = seat.to_world(release, shot.offset)
    if surface_at(layout, *start) not in seat.tracks:
        raise UserError(f"release {release:g} m is beyond the end of {seat.name}'s lane")
    (fx, fy), (rx, ry) = seat.forward, seat.right
    ca, sa = math.cos(shot.angle), math.sin(shot.angle)
    velocity = (shot.speed * (fx * ca + rx * sa), shot.speed * (fy * ca + ry * sa))
    foul = release > seat.foul + 1e-12
    return start, velocity, foul


def next_in_hand(seat: str, table: Iterable[PlacedPawn]) -> str:
    """The lowest-numbered pawn of ``seat`` not on the table."""
    used = {q.id for q in table}
    for n in range(1, PAWNS_PER_PLAYER + 1):
        pid = pawn_id(seat, n)
        if pid not in used:
            return pid
    raise UserError(f"seat {seat} has no pawn left in hand")

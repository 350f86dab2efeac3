"""How either engine starts a shot (:class:`~sliders.core.outcome.Shot`): the pawn slid, where it is
released, its velocity and whether the release is a foul; the rest status of a pawn standing
still; and the version a result records.

Both engines (:mod:`sliders.physics.pymunk_engine`, :mod:`sliders.physics.exact`) start every shot here,
so they refuse the same impossible shots with the same words.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from sliders import __version__
from sliders.boards import Face, Layout, Seat, classify, surface_at
from sliders.boards.geometry import PlacedPawn
from sliders.core.errors import UserError
from sliders.core.outcome import PAWNS_PER_PLAYER, PawnRest, Shot, check_engine, pawn_id, pawn_seat
from sliders.physics.limits import ShotLimits
from sliders.physics.params import PhysicsParams


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


def engine_version(engine: str | None = None) -> str:
    """What a result records as its engine's version: this sliders' version."""
    check_engine(engine)
    return __version__


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
    """Start point, velocity and whether the release is a foul; a UserError for a shot outside
    its legal ranges (:mod:`sliders.physics.limits`) or released beyond its lane."""
    release = ShotLimits.of(seat, p).check(shot)  # the legal ranges every entry shares
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

"""Where a computer's pawn is released: the foul line at an offset clear of the pawns standing
there (the physics refuses a release within two pawn radii of a pawn on the table), or, when
the whole width of the foul line is taken, further back down the lane."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from sliders.boards import Layout, Seat
from sliders.boards.geometry import PlacedPawn
from sliders.physics import PhysicsParams, Shot
from sliders.rules import GameState


def fallback_shot(
    state: GameState, layout: Layout, params: PhysicsParams, seat_name: str, pawn: str
) -> Shot:
    """A gentle straight slide from the first free release point: the shot of a player who sees
    nothing better (with the whole lane blocked, a foul just beyond the line, which the physics
    always accepts)."""
    seat = layout.seat(seat_name)
    release = free_release(state.table, seat, params.pawn_radius)
    if release is None:
        return Shot(seat_name, 0.1, 0.0, 0.0, seat.foul + 1e-6, pawn)
    along, offset = release
    return Shot(seat_name, 0.5, 0.0, offset, None if along == seat.foul else along, pawn)


def fit_release(shot: Shot, state: GameState, layout: Layout, params: PhysicsParams) -> Shot:
    """``shot`` moved across the lane to the nearest offset where its pawn fits at the release
    point (the physics refuses a release within two pawn radii of a pawn on the table); unchanged
    when it fits already, when it is a foul (released beyond the line: the physics does not place
    it), or when nothing across the lane is free there."""
    seat = layout.seat(shot.seat)
    along = seat.foul if shot.release is None else shot.release
    if along > seat.foul + 1e-12:
        return shot
    found = free_offset(state.table, seat, along, shot.offset, params.pawn_radius)
    if found is None or found == shot.offset:
        return shot
    return replace(shot, offset=found)


RELEASE_CLEARANCE = 1e-4
"""how far (m) beyond two pawn radii from every pawn on the table a release point is kept"""


def free_offset(
    table: Sequence[PlacedPawn], seat: Seat, along: float, wish: float, r: float
) -> float | None:
    """The offset across ``seat``'s lane nearest ``wish`` (within the side rails) where a pawn
    released ``along`` metres down the lane clears every pawn on the table; None if none does."""
    limit = seat.width / 2 - r
    reach = 2 * r + RELEASE_CLEARANCE
    blocked: list[tuple[float, float]] = []
    for q in table:
        qa, qc = seat.from_world(q.x, q.y)
        d = abs(qa - along)
        if d < reach:
            half = math.sqrt(reach * reach - d * d)
            blocked.append((qc - half, qc + half))
    want = min(max(wish, -limit), limit)
    edges = [want, -limit, limit] + [e for iv in blocked for e in iv]
    free = [c for c in edges if -limit <= c <= limit and not any(lo < c < hi for lo, hi in blocked)]
    return min(free, key=lambda c: (abs(c - want), c), default=None)


def free_release(table: Sequence[PlacedPawn], seat: Seat, r: float) -> tuple[float, float] | None:
    """The release (along, offset) nearest the foul line and the lane's axis where a pawn fits:
    on the foul line if any offset there is free, else the first free point further back; None
    when the whole legal stretch of the lane is taken."""
    lo = seat.release_min + r
    along = seat.foul
    step = r / 2
    while along >= lo - 1e-12:
        found = free_offset(table, seat, along, 0.0, r)
        if found is not None:
            return along, found
        along -= step
    return None

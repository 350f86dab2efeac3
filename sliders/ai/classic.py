"""The candidates of the classic mind, the search the computer used before the planner: straight
placements over a grid of the board and hits on every pawn on the table. The classic mind is a
setting of the one search (:class:`sliders.ai.planner.Mind` ``shots="classic"``); the ``greedy``
tournament bot tries these shots too.
"""

from __future__ import annotations

from sliders.ai.aims import aim_at
from sliders.ai.release import free_offset, free_release
from sliders.boards import Face, Layout, Seat
from sliders.core.outcome import pawn_seat
from sliders.physics import PhysicsParams, Shot
from sliders.rules import GameState


def candidate_shots(
    state: GameState,
    layout: Layout,
    face: Face,
    params: PhysicsParams,
    seat_name: str,
    pawn: str,
) -> list[tuple[Shot, str]]:
    """Shots worth trying, each with a label, the most promising first: straight placements at
    the middle of the board, hits on the pawns on the table, then placements over a grid of the
    board from the middle of the lane and from either side of it.

    Every candidate is released where the physics accepts it: on the foul line at an offset
    clear of the pawns standing there (a wished-for offset that is taken moves to the nearest
    free one), or, when pawns block the whole width of the foul line, further back down the lane.
    """
    seat = layout.seat(seat_name)
    r = params.pawn_radius
    limit = seat.width / 2 - r
    lane = _lane_end(layout, seat)
    release = free_release(state.table, seat, r)
    if release is None:
        return []
    along0, first = release

    def origin(wish: float) -> float:
        found = free_offset(state.table, seat, along0, wish, r)
        return first if found is None else found

    c_along, c_across = seat.from_world(0.0, 0.0)
    grid = sorted(
        ((d, c) for d in (-0.06, -0.03, 0.0, 0.03, 0.06) for c in (-0.06, -0.03, 0.0, 0.03, 0.06)),
        key=lambda dc: (abs(dc[0]) + abs(dc[1]), dc),
    )
    middle = origin(0.0)
    placements: list[tuple[Shot, str]] = []
    for offset in _unique(middle, origin(-limit * 0.6), origin(limit * 0.6)):
        for depth, side in grid:
            target = seat.to_world(c_along + depth, c_across + side)
            shot = _aim(seat, params, lane, along0, offset, target, 0.0, pawn)
            if shot is not None:
                placements.append((shot, f"stop at {target[0]:+.2f},{target[1]:+.2f}"))
    hits: list[tuple[Shot, str]] = []
    for q in state.table:
        for extra, how in ((0.04, "nudge"), (0.12, "push"), (0.35, "clear")):
            if pawn_seat(q.id) == seat_name and how == "clear":
                continue
            for offset in _unique(middle, origin(-limit * 0.5), origin(limit * 0.5)):
                shot = _aim(seat, params, lane, along0, offset, (q.x, q.y), extra, pawn)
                if shot is not None:
                    hits.append((shot, f"{how} {q.id}"))
    straight = [p for p in placements if p[0].offset == middle]
    core, later = straight[:5], straight[5:] + [p for p in placements if p[0].offset != middle]
    return core + hits + later


def _unique(*values: float) -> list[float]:
    out: list[float] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _aim(
    seat: Seat,
    params: PhysicsParams,
    lane: float,
    release: float,
    offset: float,
    target: tuple[float, float],
    beyond: float,
    pawn: str,
) -> Shot | None:
    """The shot released at (``release``, ``offset``) that stops ``beyond`` metres past
    ``target``, if it is aimable down the lane (which ends ``lane`` metres from its near end)
    without riding the side rails."""
    aim = aim_at(seat, params, release, offset, *target, mouth=lane, beyond=beyond)
    if aim is None:
        return None
    speed, angle = aim
    return Shot(seat.name, speed, angle, offset, None if release == seat.foul else release, pawn)


def _lane_end(layout: Layout, seat: Seat) -> float:
    """How far down the lane its own tracks reach: from the foul line, each own track the lane
    is on carries it to that track's far end."""
    rects = [t.rect for t in layout.tracks if t.name in seat.tracks]
    along = seat.foul
    while True:
        x, y = seat.to_world(along + 1e-9, 0.0)
        far = max(
            (
                max(
                    seat.from_world(cx, cy)[0] for cx in (q.xmin, q.xmax) for cy in (q.ymin, q.ymax)
                )
                for q in rects
                if q.contains(x, y)
            ),
            default=along,
        )
        if far <= along + 1e-12:
            return along
        along = far

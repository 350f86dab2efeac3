"""Geometry queries on a layout and a face: which surface holds a point, which zones a pawn's
footprint touches, and the rest status a pawn at rest has there.

A pawn is a disc of radius ``r`` (its base). It touches a zone when its footprint overlaps it; it
is on a surface when its centre is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from sliders.boards.faces import Face, worth
from sliders.boards.layout import DIRECTIONS, EPS, RAIL_THICKNESS, Layout, Rect, inward
from sliders.core.errors import UserError
from sliders.core.outcome import PAWNS_PER_PLAYER, Status, pawn_seat

BOARD = "board"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A pawn's rest status at a point, with what it scores there at round end."""

    status: Status
    points: int = 0
    choices: tuple[int, ...] = ()


def surface_at(layout: Layout, x: float, y: float) -> str | None:
    """``"board"``, the name of the track holding (x, y), or None when it is off the table."""
    if layout.board_rect.contains(x, y):
        return BOARD
    for track, rect in zip(layout.tracks, layout.surface[1:], strict=True):
        if rect.contains(x, y):
            return track.name
    return None


def zone_points(face: Face, x: float, y: float, r: float) -> tuple[int, tuple[int, ...]]:
    """Points (and the choices offered) for a footprint of radius ``r`` centred at (x, y) on the
    board: the highest zone it touches, so a pawn on a line scores the higher zone. A zone that
    offers a choice (the 4/5/6 circle) is worth the best of its choices (:func:`worth`)."""
    d = math.hypot(x, y)
    if face.choice_radius and d < face.choice_radius + r:
        return worth(face.choice_points), face.choice_points
    for radius, points in face.rings:  # innermost first
        if d < radius + r:
            return points, (points,)
    return face.base_points, (face.base_points,)


def touches_sorry(face: Face, x: float, y: float, r: float) -> bool:
    return any(math.hypot(x - cx, y - cy) < face.sorry_radius + r for cx, cy in face.corners)


def way_off(face: Face, x: float, y: float, r: float) -> Status:
    """How a pawn whose centre left the surface at (x, y) went off: ``off_side`` across a side of
    the target board clear of its corners, else ``off_board`` (off a corner of the board, or off
    a track). Off a corner (the rulebook: "slides off a corner of the board") is touching the
    corner's SORRY! space as it leaves: its centre crossing the edge within ``sorry_radius + r``
    of the board's corner. A centre more than a pawn's width beyond the board's square left
    across a track, not the board (an engine with a fixed step sees it a step's travel past the
    edge, at most a few millimetres)."""
    h = face.half
    ax, ay = abs(x), abs(y)
    if max(ax, ay) > h + 2 * r or h - min(ax, ay) < face.sorry_radius + r:
        return Status.OFF_BOARD
    return Status.OFF_SIDE


def touches_dot(face: Face, x: float, y: float, r: float) -> bool:
    """True when the footprint rests on part of a danger dot (a dot that removes a pawn)."""
    return face.dots_remove and any(math.hypot(x - d.x, y - d.y) < d.radius + r for d in face.dots)


def classify(layout: Layout, face: Face, seat: str, x: float, y: float, r: float) -> Verdict:
    """The rest status of a pawn of ``seat`` at rest with its centre at (x, y).

    Order of precedence on the board: in the hole, on a SORRY! corner, on a danger dot, tipping
    (also touching its own track), over the hole's edge, then the highest zone touched. What a
    pawn scores comes from the face's record: :meth:`Face.scores` for a pawn tipping or over the
    hole's edge, :func:`zone_points` on the target.
    """
    own = layout.seat(seat).tracks
    where = surface_at(layout, x, y)
    if where is None:
        return Verdict(Status.OFF_BOARD)
    if where != BOARD:
        if where not in own:
            return Verdict(Status.OTHER_TRACK)
        if layout.board_rect.distance(x, y) < r:
            return _verdict(face, Status.TIPPING)
        return _verdict(face, Status.OWN_TRACK)
    d = math.hypot(x, y)
    if face.has_hole and d < face.hole_radius - r:  # the base fits: it drops in
        return Verdict(Status.IN_HOLE)
    if touches_sorry(face, x, y, r):
        return Verdict(Status.SORRY_CORNER)
    if touches_dot(face, x, y, r):
        return Verdict(Status.DANGER_DOT)
    if _over_own_mouth(layout, own, x, y, r):
        return _verdict(face, Status.TIPPING)
    if face.has_hole and d < face.hole_radius + r:
        return _verdict(face, Status.HOLE_EDGE)
    points, choices = zone_points(face, x, y, r)
    return Verdict(Status.ON_TARGET, points, choices)


def _verdict(face: Face, status: Status) -> Verdict:
    """A pawn in play whose score does not depend on where it stands."""
    choices = face.scores(status)
    return Verdict(status, worth(choices), choices)


def _over_own_mouth(layout: Layout, own: tuple[str, ...], x: float, y: float, r: float) -> bool:
    """True when a footprint centred on the board also lies on one of the seat's own tracks."""
    return any(t.name in own and t.rect.distance(x, y) < r for t in layout.tracks)


def segment_distance(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from (x, y) to the segment from ``a`` to ``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
    return math.hypot(x - (ax + t * dx), y - (ay + t * dy))


def overlaps_rail(layout: Layout, x: float, y: float, r: float, tolerance: float = 0.0) -> bool:
    """True when a footprint of radius ``r`` at (x, y) overlaps a rail by more than ``tolerance``."""
    return any(
        segment_distance(x, y, rail.a, rail.b) < r + rail.thickness / 2 - tolerance
        for rail in layout.rails
    )


class PlacedPawn(Protocol):
    """Anything with a pawn id and a position: a :class:`~sliders.core.outcome.PawnRest` will do."""

    @property
    def id(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...


def check_pawns(layout: Layout, pawns: Iterable[PlacedPawn], r: float) -> None:
    """Raise UserError unless every pawn can stand where it is: a pawn id ``SEAT-N`` of a seat in
    play, each once, its centre on the table, clear of every rail and of the other pawns."""
    seen: set[str] = set()
    placed = list(pawns)
    for q in placed:
        if q.id in seen:
            raise UserError(f"pawn {q.id} is on the table twice")
        seen.add(q.id)
        try:
            seat = pawn_seat(q.id)
            n = int(q.id.rsplit("-", 1)[1])
        except (ValueError, IndexError):
            raise UserError(f"bad pawn id {q.id!r} (expected SEAT-N, e.g. south-1)") from None
        if seat not in layout.seat_names or not 1 <= n <= PAWNS_PER_PLAYER:
            raise UserError(f"pawn {q.id} does not belong to a seat of this layout")
        if not (math.isfinite(q.x) and math.isfinite(q.y)) or surface_at(layout, q.x, q.y) is None:
            raise UserError(f"pawn {q.id} at ({q.x:g}, {q.y:g}) is not on the table")
        if overlaps_rail(layout, q.x, q.y, r, tolerance=1e-9):
            raise UserError(f"pawn {q.id} at ({q.x:g}, {q.y:g}) overlaps a rail")
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            if math.hypot(a.x - b.x, a.y - b.y) < 2 * r - 1e-9:
                raise UserError(f"pawns {a.id} and {b.id} overlap")


def outside_cells(layout: Layout, reach: float = 2.0) -> list[Rect]:
    """Rectangles covering the area within ``reach`` of the table that is *not* table surface.

    The surface is a union of axis-aligned rectangles, so its complement splits exactly into the
    cells of the grid drawn through every rectangle edge. Cells are merged along rows, then runs
    that repeat in consecutive rows are merged into taller rectangles.
    """
    rects = layout.surface
    xs = sorted({v for rc in rects for v in (rc.xmin, rc.xmax)})
    ys = sorted({v for rc in rects for v in (rc.ymin, rc.ymax)})
    xs = [xs[0] - reach, *xs, xs[-1] + reach]
    ys = [ys[0] - reach, *ys, ys[-1] + reach]
    rows: list[list[tuple[float, float]]] = []
    for j in range(len(ys) - 1):
        cy = (ys[j] + ys[j + 1]) / 2
        runs: list[tuple[float, float]] = []
        for i in range(len(xs) - 1):
            x0, x1 = xs[i], xs[i + 1]
            if any(rc.contains((x0 + x1) / 2, cy) for rc in rects):
                continue
            if runs and runs[-1][1] == x0:
                runs[-1] = (runs[-1][0], x1)
            else:
                runs.append((x0, x1))
        rows.append(runs)
    # merge runs that repeat exactly in consecutive rows into taller rectangles
    cells: list[Rect] = []
    open_cells: dict[tuple[float, float], float] = {}  # run -> the y where it started
    for j, runs in enumerate(rows + [[]]):
        y = ys[j]
        for run in list(open_cells):
            if run not in runs:
                cells.append(Rect(run[0], open_cells.pop(run), run[1], y))
        for run in runs:
            open_cells.setdefault(run, y)
    return cells


def open_spans(layout: Layout) -> dict[str, tuple[tuple[float, float], ...]]:
    """The stretches of each board edge a pawn can fall off, by edge: (from, to) along the edge
    in world metres (along x for the north and south edges, along y for the east and west), the
    edge less every track's mouth (with its side rails) and every blocker rail laid on it. An edge
    wholly closed has none."""
    h = layout.board_side / 2
    out = {}
    for edge, (ex, ey) in DIRECTIONS.items():
        spans: list[tuple[float, float]] = []
        along = (1, 0) if ex == 0 else (0, 1)  # world axis along the edge
        for t in layout.tracks:
            if inward(edge) == t.forward and abs(t.mouth[0] * ex + t.mouth[1] * ey - h) < EPS:
                c = t.mouth[0] * along[0] + t.mouth[1] * along[1]
                half = t.width / 2 + RAIL_THICKNESS
                spans.append((c - half, c + half))
        for r in layout.rails:
            if r.kind != "blocker":
                continue
            da = r.a[0] * ex + r.a[1] * ey
            db = r.b[0] * ex + r.b[1] * ey
            if abs(da - db) < EPS and h - EPS <= da <= h + r.thickness + EPS:
                a = r.a[0] * along[0] + r.a[1] * along[1]
                b = r.b[0] * along[0] + r.b[1] * along[1]
                spans.append((min(a, b), max(a, b)))
        free, at = [], -h
        for lo, hi in sorted(spans):
            if lo > at + EPS:
                free.append((at, min(lo, h)))
            at = max(at, hi)
        if at < h - EPS:
            free.append((at, h))
        out[edge] = tuple((lo, hi) for lo, hi in free if hi - lo > EPS)
    return out


def open_edges(layout: Layout) -> list[str]:
    """The board edges a pawn can fall off: ``"east"`` when wholly open, ``"south (partly)"``
    when a track's mouth or a blocker rail covers part of it."""
    h = layout.board_side / 2
    out = []
    for edge, spans in open_spans(layout).items():
        free = sum(hi - lo for lo, hi in spans)
        if free > 2 * h - EPS:
            out.append(edge)
        elif free > EPS:
            out.append(f"{edge} (partly)")
    return out

"""What a picture of the table shows, for every renderer: the colours, the numbers printed on the
face and where they go, the seats grouped by the foul line they share and that line's stripes,
the words beside a pawn. Pure data and arithmetic (no drawing library): the matplotlib pictures
(:mod:`sliders.pictures.table`) and the window (:mod:`sliders.scenes.art`, :mod:`sliders.scenes.draw`)
draw the same lists, each in its own way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sliders.boards.faces import Face
from sliders.boards.layout import Layout, Seat
from sliders.core.outcome import SEAT_COLOURS, PawnRest, Status

RGB = tuple[int, int, int]

SEAT_INK: dict[str, RGB] = {
    "red": (214, 40, 40),
    "blue": (29, 78, 216),
    "yellow": (242, 194, 0),
    "green": (42, 157, 58),
}
"""each player colour's ink: pawns, foul lines, traces"""
NO_SEAT_INK: RGB = (120, 120, 120)
"""the ink of a seat without a colour"""
RING_PALETTE: dict[int, RGB] = {
    2: (178, 216, 236),  # pale sky
    3: (252, 216, 168),  # pale peach
    4: (212, 200, 240),  # pale lilac
    5: (255, 246, 224),  # ivory bullseye
}
"""the printed fill of the ring worth so many points"""
RING_FALLBACK: tuple[RGB, RGB] = ((178, 216, 236), (252, 216, 168))
"""fills for rings of other worths, alternating outward"""
BASE_FILL: RGB = (244, 233, 208)
"""the rest of the face (the 1 zone): bare printed cardboard"""
PRINT_INK: RGB = (34, 44, 84)
"""the ink of the face's printed lines and numbers"""
SORRY_FILL: RGB = (24, 38, 96)
SORRY_INK: RGB = (255, 255, 255)
CHOICE_FILL: RGB = (255, 190, 92)
CHOICE_INK: RGB = (120, 56, 0)
HOLE_DEEP: RGB = (8, 8, 10)
DOT_FILL: RGB = (150, 38, 162)  # danger dots: purple, no player's colour
DOT_EDGE: RGB = (72, 14, 80)
BLOCKER_INK: RGB = (92, 102, 124)
RAIL_INK: RGB = (150, 160, 176)

MIN_LABEL_HEIGHT = 0.0082
"""metres: the smallest printed number (digits 14 px tall when the board is 450 px wide)"""
LABEL_HEIGHT = 0.0155
"""metres: the tallest printed number (a ring's band is 0.025 m)"""
RING_LABEL_ANGLES = (45.0, 22.5, 67.5, 0.0, 33.75, 56.25, 11.25, 78.75)
"""where a ring's first number may go (degrees; the others every 90° on), tried in order"""


def seat_rgb(seat: str) -> RGB:
    """The ink of ``seat``'s player colour."""
    return SEAT_INK.get(SEAT_COLOURS.get(seat, ""), NO_SEAT_INK)


def hex_ink(rgb: RGB) -> str:
    """``#rrggbb`` of an ink, as matplotlib takes it."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def ring_fill(points: int, index: int) -> RGB:
    """The fill of the ring worth ``points``, the ``index``-th from the centre."""
    return RING_PALETTE.get(points, RING_FALLBACK[index % 2])


@dataclass(frozen=True, slots=True)
class ZoneLabel:
    """A number printed on the face: ``words`` centred at (x, y), ``height`` metres tall;
    ``backing`` is the ring whose fill it sits on (a band too narrow for it), else None;
    ``choice`` marks the 4/5/6 circle's words."""

    words: str
    x: float
    y: float
    height: float
    backing: int | None = None
    choice: bool = False


def zone_labels(face: Face) -> list[ZoneLabel]:
    """Every number printed on ``face``: each ring's worth four times around (placed clear of
    the danger dots), the base worth toward the corners, the 4/5/6 circle's choice above and
    below the hole. A band too narrow for a readable number (ring 5 around the hole) gets one
    ``MIN_LABEL_HEIGHT`` tall on a backing, set out from the hole."""
    out: list[ZoneLabel] = []
    angles = ring_label_angles(face)
    inner = face.choice_radius or face.hole_radius
    prev = inner
    rings = sorted(face.rings)
    for radius, points in rings:
        band = radius - prev
        if prev == 0.0:
            out.append(ZoneLabel(str(points), 0.0, 0.0, min(radius * 0.9, LABEL_HEIGHT)))
        else:
            mid = (prev + radius) / 2
            height = min(band * 0.62, LABEL_HEIGHT)
            backing = None
            if height < MIN_LABEL_HEIGHT:
                height = MIN_LABEL_HEIGHT
                mid = max(mid, prev + height * 0.8)
                backing = points
            for k in range(4):
                a = math.radians(angles.get(points, 45.0) + 90 * k)
                out.append(
                    ZoneLabel(str(points), mid * math.cos(a), mid * math.sin(a), height, backing)
                )
        prev = radius
    h = face.half
    outer = rings[-1][0] if rings else inner
    corner_reach = h * math.sqrt(2) - face.sorry_radius
    mid = (outer + corner_reach) / 2
    height = min((corner_reach - outer) * 0.62, LABEL_HEIGHT)
    for k in range(4):
        a = math.radians(45 + 90 * k)
        out.append(ZoneLabel(str(face.base_points), mid * math.cos(a), mid * math.sin(a), height))
    if face.choice_radius:
        mid = (face.choice_radius + face.hole_radius) / 2
        band = face.choice_radius - face.hole_radius
        choice = "/".join(str(c) for c in face.choice_points)
        for y in (mid, -mid):
            out.append(ZoneLabel(choice, 0.0, y, max(band * 0.42, MIN_LABEL_HEIGHT), choice=True))
    return out


def ring_label_angles(face: Face) -> dict[int, float]:
    """For each ring (by its worth), the angle of its first number (then every 90 degrees): the
    first of :data:`RING_LABEL_ANGLES` whose numbers keep clear of the danger dots, else the one
    that keeps farthest from them."""
    angles: dict[int, float] = {}
    prev = face.choice_radius or face.hole_radius
    for radius, points in sorted(face.rings):
        mid, band = (prev + radius) / 2, radius - prev
        best, clearance = 45.0, -1.0
        for cand in RING_LABEL_ANGLES:
            gap = min(
                (
                    math.dist(
                        (
                            mid * math.cos(math.radians(cand + 90 * k)),
                            mid * math.sin(math.radians(cand + 90 * k)),
                        ),
                        (d.x, d.y),
                    )
                    - d.radius
                    for d in face.dots
                    for k in range(4)
                ),
                default=1.0,
            )
            if gap >= band * 0.55:
                best = cand
                break
            if gap > clearance:
                best, clearance = cand, gap
        angles[points] = best
        prev = radius
    return angles


def seat_groups(layout: Layout) -> list[list[Seat]]:
    """Seats grouped by the foul line they share (seats of one shared lane), in turn order: a
    group is drawn once, its line striped in each of its seats' colours."""
    groups: dict[tuple[object, ...], list[Seat]] = {}
    for seat in layout.seats:
        key = (round(seat.near[0], 9), round(seat.near[1], 9), seat.forward, round(seat.foul, 9))
        groups.setdefault(key, []).append(seat)
    return list(groups.values())


Segment = tuple[tuple[float, float], tuple[float, float]]


def foul_stripes(seats: list[Seat]) -> list[tuple[Segment, str]]:
    """The foul line of a group of seats as (segment, seat) pieces: one piece in the seat's
    colour for one seat; for a shared line four short pieces a seat, in turn across the lane."""
    a, b = seats[0].foul_line()
    pieces = 4 * len(seats) if len(seats) > 1 else 1
    out = []
    for k in range(pieces):
        t0, t1 = k / pieces, (k + 1) / pieces
        u = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        v = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        out.append(((u, v), seats[k % len(seats)].name))
    return out


def text_angle(forward: tuple[int, int]) -> int:
    """The rotation (degrees, counter-clockwise) that makes text read across a lane whose
    direction of play is ``forward``, upright for the seat's player."""
    return {(0, 1): 0, (0, -1): 180, (1, 0): -90, (-1, 0): 90}.get(forward, 0)


def points_label(pawn: PawnRest) -> str:
    """What a pawn scores, as shown beside it: ``4/5/6`` for a choice, else its points."""
    if len(pawn.choices) > 1:
        return "/".join(str(c) for c in pawn.choices)
    return str(pawn.points)


def pawn_tag(pawn: PawnRest) -> str | None:
    """The words beside a pawn in a picture once a shot is over: its fate (``off board``, ``own
    track``) when removed or worth nothing, else its points; None for a pawn still in the hand."""
    if pawn.status is Status.IN_HAND:
        return None
    if pawn.status.removed or not pawn.points:
        return str(pawn.status).replace("_", " ")
    return points_label(pawn)

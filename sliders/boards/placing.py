"""Building a layout: the pieces of a checked layout file placed for the seats in play.

:func:`build_layout` hooks each track's mouth onto a board edge or onto another track's near end,
lays the blocker rails (on board edges and across lanes), joins the side rails of hooked tracks
into straight runs, and finds each seat's lane, foul line and nearest release; every piece that
does not fit is a :class:`~sliders.core.errors.UserError` naming the file and the piece. :class:`LayoutSpec` is
a layout file as written, its pieces those of :mod:`sliders.boards.specs`; reading and checking
the file's text into them is :mod:`sliders.files.layouts`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sliders.boards.faces import BOARD_SIDE
from sliders.boards.layout import (
    DIRECTIONS,
    EPS,
    FOUL_DISTANCE,
    FOUL_REACH,
    Layout,
    Rail,
    Rect,
    Seat,
    Track,
    inward,
)
from sliders.boards.specs import RailSpec, SeatSpec, TrackSpec, seats_phrase
from sliders.core.errors import UserError
from sliders.core.outcome import SEATS, parse_seats

SeatsArg = str | tuple[str, ...] | list[str] | int | None
"""the seats in play as a command or a caller names them: names, a count, or None (the default)"""

RELEASE_ROOM = 0.0125
"""m: a pawn's centre is released at least this far (the roller pawn's base radius) in front of
where its lane opens, so a seat's foul line must lie at least this far in front of it."""


@dataclass(frozen=True)
class LayoutSpec:
    """A layout file as written: pieces, seats, and the seat counts it allows."""

    name: str
    description: str
    face: str
    seat_counts: tuple[int, ...]
    default_seats: tuple[str, ...]
    tracks: tuple[TrackSpec, ...]
    rails: tuple[RailSpec, ...]
    seats: tuple[SeatSpec, ...]
    source: str
    origin: str = ""
    text: str = field(default="", repr=False, compare=False)
    """the file's text, as read"""
    _built: dict[tuple[str, ...], Layout] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """each seating's table, built once (a spec is immutable, so is a layout)"""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seating(self, count: int) -> tuple[str, ...]:
        """The seats used for ``count`` players: the default seats if that many, else the first
        ``count`` seats of the file, in turn order."""
        if count not in self.seat_counts:
            raise UserError(f"{self.source}: takes {seats_phrase(self.seat_counts)}, not {count}")
        if count == len(self.default_seats):
            return self.default_seats
        return parse_seats(self.seat_names[:count])

    def build(self, seats: SeatsArg = None) -> Layout:
        """Place every piece for the seats in play and check the result (once per seating:
        asked again, the same layout comes back)."""
        seated = self._seated(seats)
        layout = self._built.get(seated)
        if layout is None:
            layout = self._built[seated] = build_layout(self, seated)
        return layout

    def _seated(self, seats: SeatsArg) -> tuple[str, ...]:
        if isinstance(seats, int):
            return self.seating(seats)
        chosen = parse_seats(seats) if seats else self.default_seats
        if len(chosen) not in self.seat_counts:
            raise UserError(
                f"{self.source}: takes {seats_phrase(self.seat_counts)}, not {len(chosen)}"
            )
        for s in chosen:
            if s not in self.seat_names:
                raise UserError(
                    f"{self.source}: has no seat {s!r} (seats: {', '.join(self.seat_names)})"
                )
        if len(chosen) not in self.seat_counts:
            raise UserError(
                f"{self.source}: takes {seats_phrase(self.seat_counts)}, not {len(chosen)}"
            )
        return chosen


def build_layout(spec: LayoutSpec, seated: tuple[str, ...]) -> Layout:
    """The table ``spec`` describes, with the pieces laid for the seats ``seated``."""
    return _Builder(spec, seated).build()


class _Builder:
    """Places the pieces of one spec for one seating and checks the table they make."""

    def __init__(self, spec: LayoutSpec, seated: tuple[str, ...]) -> None:
        self.spec, self.seated = spec, seated
        self.h = BOARD_SIDE / 2
        self.board = Rect(-self.h, -self.h, self.h, self.h)
        self.tracks: dict[str, Track] = {}
        self.host: dict[str, str | None] = {}  # track -> the track its mouth hooks onto

    def fail(self, message: str) -> UserError:
        return UserError(f"{self.spec.source}: {message}")

    def laid(self, piece: TrackSpec | RailSpec) -> bool:
        if piece.when is not None and piece.when not in self.seated:
            return False
        return not (piece.unless is not None and piece.unless in self.seated)

    def build(self) -> Layout:
        spec = self.spec
        self._place_tracks([t for t in spec.tracks if self.laid(t)])
        rails = [r for r in spec.rails if self.laid(r)]
        edge_rails = [(r, self._edge_rail(r)) for r in rails if r.edge]
        across = [(r, self._across_rail(r)) for r in rails if r.across]
        self._check_overlaps(edge_rails)
        side = _merge_collinear([rail for t in self.tracks.values() for rail in t.side_rails()])
        seats = tuple(self._seat(s, across) for s in spec.seats if s.name in self.seated)
        seats = tuple(sorted(seats, key=lambda s: SEATS.index(s.name)))
        return Layout(
            name=spec.name,
            tracks=tuple(self.tracks.values()),
            rails=(*side, *(r for _, r in edge_rails), *(r for _, r in across)),
            seats=seats,
            description=spec.description,
            face=spec.face,
            seat_counts=spec.seat_counts,
            source=spec.origin,
        )

    # tracks

    def _place_tracks(self, specs: list[TrackSpec]) -> None:
        names = {t.name for t in specs}
        pending = list(specs)
        while pending:
            progress = False
            for t in list(pending):
                track = self._place(t, names, final=False)
                if track is not None:
                    pending.remove(t)
                    progress = True
            if not progress:
                t = pending[0]
                if t.hook is not None:
                    ring = ", ".join(repr(p.name) for p in pending if p.hook is not None)
                    raise self.fail(f"tracks {ring} hook onto each other in a circle")
                self._place(t, names, final=True)
        # keep the file's order
        order = [t.name for t in specs]
        self.tracks = {n: self.tracks[n] for n in order}

    def _place(self, t: TrackSpec, names: set[str], final: bool) -> Track | None:
        h = self.h
        if t.edge is not None:
            f = inward(t.edge)
            along = (1, 0) if f[0] == 0 else (0, 1)
            if abs(t.offset) + t.width / 2 > h + EPS:
                raise self.fail(
                    f"track {t.name!r}: its mouth is not on the {t.edge} edge (offset "
                    f"{t.offset:g} m puts it past the corner; at most ±{h - t.width / 2:.4g} m)"
                )
            mouth = (-f[0] * h + along[0] * t.offset, -f[1] * h + along[1] * t.offset)
            return self._add(t, mouth, f, None)
        if t.hook is not None:
            if t.hook not in names:
                what = self._why_absent(t.hook)
                raise self.fail(f"track {t.name!r} hooks onto track {t.hook!r}, {what}")
            host = self.tracks.get(t.hook)
            if host is None:
                return None
            self._same_width(t, host)
            return self._add(t, host.near, host.forward, host.name)
        assert t.mouth is not None and t.facing is not None
        f = DIRECTIONS[t.facing]
        mx, my = t.mouth
        for host in self.tracks.values():
            if host.forward == f and math.hypot(mx - host.near[0], my - host.near[1]) < EPS:
                self._same_width(t, host)
                return self._add(t, host.near, f, host.name)
        # on the board edge the track faces into
        depth = -(mx * f[0] + my * f[1])
        across = abs(mx * f[1] - my * f[0])
        if abs(depth - h) < EPS and across + t.width / 2 <= h + EPS:
            snapped = (-f[0] * h + abs(f[1]) * mx, -f[1] * h + abs(f[0]) * my)
            return self._add(t, snapped, f, None)
        if not final:
            return None
        if abs(depth + h) < EPS and across + t.width / 2 <= h + EPS:
            raise self.fail(
                f"track {t.name!r} overlaps the target board (facing {t.facing}, its mouth "
                "must be on the opposite edge)"
            )
        raise self.fail(
            f"track {t.name!r}: its mouth ({mx:g}, {my:g}) facing {t.facing} is on no board "
            "edge and no track's near end"
        )

    def _same_width(self, t: TrackSpec, host: Track) -> None:
        if abs(t.width - host.width) > EPS:
            raise self.fail(
                f"track {t.name!r} is {t.width:g} m wide but hooks onto track {host.name!r}, "
                f"{host.width:g} m wide (hooked tracks must be equally wide)"
            )

    def _add(
        self, t: TrackSpec, mouth: tuple[float, float], f: tuple[int, int], host: str | None
    ) -> Track:
        track = Track(t.name, mouth=mouth, forward=f, length=t.length, width=t.width)
        self.tracks[t.name] = track
        self.host[t.name] = host
        return track

    # rails

    def _edge_rail(self, r: RailSpec) -> Rail:
        assert r.edge is not None
        f = inward(r.edge)
        off = self.h + r.thickness / 2
        cx, cy = -f[0] * off, -f[1] * off
        ex, ey = f[1], -f[0]
        ext = self.h + r.thickness
        return Rail(
            (cx - ex * ext, cy - ey * ext), (cx + ex * ext, cy + ey * ext), r.thickness, "blocker"
        )

    def _across_rail(self, r: RailSpec) -> Rail:
        assert r.across is not None
        track = self.tracks.get(r.across)
        if track is None:
            known = {s.name for s in self.spec.tracks}
            what = "not laid with these seats" if r.across in known else "not in the layout"
            raise self.fail(f"blocker rail across track {r.across!r}: that track is {what}")
        lo, hi = r.thickness / 2, track.length - r.thickness / 2
        if not lo - EPS <= r.at <= hi + EPS:
            raise self.fail(
                f"foul line (blocker rail across track {r.across!r}) at {r.at:g} m is outside "
                f"the track ({lo:g} to {hi:g} m from its near end)"
            )
        (nx, ny), (fx, fy), (rx, ry) = track.near, track.forward, track.right
        cx, cy = nx + fx * r.at, ny + fy * r.at
        hw = track.width / 2
        return Rail(
            (cx - rx * hw, cy - ry * hw), (cx + rx * hw, cy + ry * hw), r.thickness, "blocker"
        )

    def _check_overlaps(self, edge_rails: list[tuple[RailSpec, Rail]]) -> None:
        tracks = list(self.tracks.values())
        for t in tracks:
            if _overlap(t.rect, self.board):
                raise self.fail(f"track {t.name!r} overlaps the target board")
        for i, a in enumerate(tracks):
            for b in tracks[i + 1 :]:
                if _overlap(a.rect, b.rect):
                    raise self.fail(f"tracks {a.name!r} and {b.name!r} overlap")
        for a in tracks:
            for b in tracks:
                if a is not b and any(_overlap(a.rect, _rail_rect(s)) for s in b.side_rails()):
                    raise self.fail(f"track {a.name!r} overlaps a side rail of track {b.name!r}")
        for r, rail in edge_rails:
            for t in tracks:
                if _overlap(t.rect, _rail_rect(rail)):
                    raise self.fail(
                        f"{r.label} overlaps track {t.name!r} (it would close the track's mouth)"
                    )
        for i, (r, _rail) in enumerate(edge_rails):
            for r2, _ in edge_rails[i + 1 :]:
                if r2.edge == r.edge:
                    raise self.fail(f"two blocker rails overlap along the {r.edge} edge")

    # seats

    def _lane(self, first: str) -> list[Track]:
        lane: list[Track] = []
        name: str | None = first
        seen: set[str] = set()
        while name is not None and name not in seen:
            seen.add(name)
            lane.append(self.tracks[name])
            name = self.host[name]
        return lane

    def _why_absent(self, track: str) -> str:
        """Why a track named by another piece is not on the table."""
        if any(t.name == track for t in self.spec.tracks):
            return "which is not laid with these seats"
        return "which the layout does not have"

    def _seat(self, s: SeatSpec, across: list[tuple[RailSpec, Rail]]) -> Seat:
        if s.track is None:
            raise self.fail(f'seat {s.name!r} has no track (give track = "NAME")')
        if s.track not in self.tracks:
            what = self._why_absent(s.track)
            raise self.fail(f"seat {s.name!r} shoots from track {s.track!r}, {what}")
        lane = self._lane(s.track)
        first = lane[0]
        near, f = first.near, first.forward
        length = sum(t.length for t in lane)
        names = {t.name for t in lane}
        walls = [
            round(
                ((rail.a[0] + rail.b[0]) / 2 - near[0]) * f[0]
                + ((rail.a[1] + rail.b[1]) / 2 - near[1]) * f[1]
                + rail.thickness / 2,
                12,
            )
            for r, rail in across
            if r.across in names
        ]
        release_min = max(walls, default=0.0)
        foul = s.foul
        if foul is None:
            foul = round(release_min + FOUL_REACH, 12) if walls else FOUL_DISTANCE
        where = "track" if len(lane) == 1 else "lane"
        if not 0 < foul < length:
            raise self.fail(
                f"seat {s.name!r}: its foul line at {foul:g} m is outside its {where} "
                f"(0 to {length:g} m from the near end)"
            )
        if foul <= release_min:
            raise self.fail(
                f"seat {s.name!r}: its foul line at {foul:g} m is behind the blocker rail "
                f"across its lane (which ends at {release_min:g} m)"
            )
        if foul < release_min + RELEASE_ROOM - EPS:
            raise self.fail(
                f"seat {s.name!r}: its foul line at {foul:g} m lies before the nearest release "
                f"({release_min + RELEASE_ROOM:g} m: a pawn's radius in front of where the lane "
                "opens), so every shot would be a foul"
            )
        return Seat(
            s.name,
            tuple(t.name for t in reversed(lane)),
            near,
            f,
            width=first.width,
            foul=foul,
            release_min=release_min,
        )


def _overlap(a: Rect, b: Rect) -> bool:
    """True when two rectangles share area (touching edges do not)."""
    w = min(a.xmax, b.xmax) - max(a.xmin, b.xmin)
    h = min(a.ymax, b.ymax) - max(a.ymin, b.ymin)
    return w > EPS and h > EPS


def _rail_rect(rail: Rail) -> Rect:
    """The footprint of an axis-aligned rail (its round end caps left out)."""
    t = rail.thickness / 2
    (ax, ay), (bx, by) = rail.a, rail.b
    if abs(ay - by) < EPS:
        return Rect(min(ax, bx), ay - t, max(ax, bx), ay + t)
    return Rect(ax - t, min(ay, by), ax + t, max(ay, by))


def _merge_collinear(rails: Iterable[Rail]) -> list[Rail]:
    """Join axis-aligned rails that continue one another on the same line into one rail, so that a
    lane of hooked tracks has one straight side rail with no joint for a pawn to catch on."""
    groups: dict[tuple[Any, ...], list[tuple[float, float]]] = {}
    order: list[tuple[Any, ...]] = []
    for rail in rails:
        (ax, ay), (bx, by) = rail.a, rail.b
        if abs(ay - by) < EPS:
            key: tuple[Any, ...] = ("h", ay, rail.thickness, rail.kind)
            span = (min(ax, bx), max(ax, bx))
        else:
            key = ("v", ax, rail.thickness, rail.kind)
            span = (min(ay, by), max(ay, by))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(span)
    merged: list[Rail] = []
    for key in order:
        spans = sorted(groups[key])
        runs = [list(spans[0])]
        for lo, hi in spans[1:]:
            if lo <= runs[-1][1] + EPS:
                runs[-1][1] = max(runs[-1][1], hi)
            else:
                runs.append([lo, hi])
        axis, c, thickness, kind = key
        for lo, hi in runs:
            a, b = ((lo, c), (hi, c)) if axis == "h" else ((c, lo), (c, hi))
            merged.append(Rail(a, b, thickness, kind))
    return merged

"""Layout files: a table setup as TOML data, read with :mod:`tomllib`, checked, and built into a
:class:`~sliders.boards.layout.Layout` for the seats in play.

```toml
schema = 1
name = "head-to-head"
description = "two tracks face each other across the board"
seat_counts = [2]                 # how many seats the layout takes (default: all its seats)
default_seats = ["south", "north"]

[board]
face = "race-for-home"            # the default face

[[track]]
name = "south"
edge = "south"                    # the mouth hooks onto the board's south edge ...
offset = 0.0                      # ... with its axis this far east (north on a west/east edge)

[[track]]
name = "south-2"
hook = "south"                    # the mouth hooks onto track south's near end, straight on

[[rail]]
across = "south-2"                # a blocker rail across a track: a foul line
at = 0.05                         # its centre line, metres from the track's near end

[[rail]]
edge = "east"                     # a blocker rail closing a whole board edge
unless = "east"                   # laid only when seat east is not playing ("when" is the reverse)

[[seat]]
name = "south"
track = "south-2"                 # shoots from this track's near end, down the lane to the board
# foul = 0.16                     # the foul line, metres from that near end (see below)
```

A track's mouth goes onto a board edge (``edge`` and ``offset``), onto another track's near end
(``hook``), or at explicit coordinates (``mouth = [x, y]`` and ``facing = "north"``), which must
land on a board edge or a track's near end. Tracks hooked end to end form one straight lane: the
surface rectangles abut exactly and the side rails run on as one rail. Every board edge without a
track or a blocker rail is open: a pawn crossing it falls off.

A seat's lane is its track and every track between it and the board; a pawn resting anywhere on
it is on its own track. Where a blocker rail lies across the lane, the player keeps the hand
behind the rail nearest the board and releases the pawn in front of it, its centre at most
:data:`~sliders.boards.layout.FOUL_REACH` beyond the rail (that is the seat's foul line unless
``foul`` says otherwise); otherwise the foul line is painted ``foul`` metres (default 0.16) from
the near end. Seats that name the same track share its near end and its foul line.

Every mistake is a :class:`~sliders.errors.UserError` naming the file and the piece.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from sliders.boards.faces import BOARD_SIDE, DEFAULT_FACE, FACES
from sliders.boards.layout import (
    FOUL_DISTANCE,
    FOUL_REACH,
    RAIL_THICKNESS,
    TRACK_LENGTH,
    TRACK_WIDTH,
    Layout,
    Rail,
    Rect,
    Seat,
    Track,
)
from sliders.checks import MAX_TRACK_LENGTH, POSITION_LIMIT
from sliders.errors import UserError
from sliders.fileio import parse_toml, read_text
from sliders.outcome import SEATS, parse_seat, parse_seats

LAYOUT_SCHEMA = 1
LAYOUTS_DIR = Path(__file__).with_name("layouts")
BUILTIN_LAYOUTS: tuple[str, ...] = (
    "square",
    "crazy-corner",
    "head-to-head",
    "triple-track",
    "quadruple-track",
    "solo",
)

# compass direction -> unit vector; a track on a board edge faces away from that edge's name
DIRECTIONS: dict[str, tuple[int, int]] = {
    "north": (0, 1),
    "east": (1, 0),
    "south": (0, -1),
    "west": (-1, 0),
}
EPS = 1e-9
MAX_RAIL_THICKNESS = 0.05
"""m: the thickest blocker rail a layout file may lay."""
RELEASE_ROOM = 0.0125
"""m: a pawn's centre is released at least this far (the roller pawn's base radius) in front of
where its lane opens, so a seat's foul line must lie at least this far in front of it."""

SeatsArg = str | tuple[str, ...] | list[str] | int | None


def load_layout(name_or_path: str, seats: SeatsArg = None) -> Layout:
    """The built-in layout called ``name_or_path``, or the layout file at that path, built for
    ``seats`` (seat names or colours; a number: that many of the layout's seats; None or empty:
    the layout's default seats)."""
    return read_layout(name_or_path).build(seats)


def read_layout(name_or_path: str) -> LayoutSpec:
    """The parsed, checked layout file for a built-in name or a path."""
    if name_or_path in BUILTIN_LAYOUTS:
        path = LAYOUTS_DIR / f"{name_or_path}.toml"
        text = path.read_text(encoding="utf-8")
        return parse_layout(text, f"layout {name_or_path!r}", name_or_path, "built-in")
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or os.path.lexists(path) or "/" in name_or_path):
        raise UserError(
            f"unknown layout {name_or_path!r} (built-in: {', '.join(BUILTIN_LAYOUTS)}; "
            "or give a layout file path)"
        )
    if not os.path.exists(path) and not os.path.lexists(path):
        raise UserError(f"layout file {name_or_path} does not exist")
    text = read_text(path, "layout file")
    return parse_layout(text, f"layout file {name_or_path}", path.stem, name_or_path)


def parse_layout(
    text: str, source: str, default_name: str = "custom", origin: str = ""
) -> LayoutSpec:
    """Parse and check the text of a layout file; ``source`` names it in error messages and
    ``origin`` is where it came from (``built-in`` or its path)."""
    data = parse_toml(text, source)
    return LayoutSpec.from_toml(data, source, default_name, origin)


# -- the parsed file ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrackSpec:
    name: str
    length: float
    width: float
    edge: str | None = None
    offset: float = 0.0
    hook: str | None = None
    mouth: tuple[float, float] | None = None
    facing: str | None = None
    when: str | None = None
    unless: str | None = None


@dataclass(frozen=True, slots=True)
class RailSpec:
    label: str
    thickness: float
    edge: str | None = None
    across: str | None = None
    at: float = 0.0
    when: str | None = None
    unless: str | None = None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    track: str | None
    foul: float | None = None


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
        """Place every piece for the seats in play and check the result."""
        seated = self._seated(seats)
        return _Builder(self, seated).build()

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

    @classmethod
    def from_toml(
        cls, data: dict[str, Any], source: str, default_name: str, origin: str = ""
    ) -> LayoutSpec:
        r = _Reader(source)
        r.keys(
            data,
            "the file",
            {
                "schema",
                "name",
                "description",
                "seat_counts",
                "default_seats",
                "board",
                "track",
                "rail",
                "seat",
            },
        )
        schema = r.get(data, "schema", int, "the file", LAYOUT_SCHEMA)
        if schema > LAYOUT_SCHEMA or schema < 1:
            raise UserError(f"{source}: schema {schema} is not one this version reads (1)")
        name = r.get(data, "name", str, "the file", default_name)
        description = r.get(data, "description", str, "the file", "")
        board = r.get(data, "board", dict, "the file", {})
        r.keys(board, "[board]", {"face"})
        face = r.get(board, "face", str, "[board]", DEFAULT_FACE)
        if face not in FACES:
            raise UserError(f"{source}: unknown face {face!r} (choose from {', '.join(FACES)})")

        tracks = tuple(r.track(t, i) for i, t in enumerate(r.tables(data, "track")))
        rails = tuple(r.rail(t, i) for i, t in enumerate(r.tables(data, "rail")))
        seats = tuple(r.seat(t, i) for i, t in enumerate(r.tables(data, "seat")))
        if not seats:
            raise UserError(f"{source}: no [[seat]] (a layout needs at least one seat)")
        _unique(source, "track", [t.name for t in tracks])
        _unique(source, "seat", [s.name for s in seats])
        names = [s.name for s in seats]
        pieces: tuple[TrackSpec | RailSpec, ...] = (*tracks, *rails)
        for piece in pieces:
            for cond in (piece.when, piece.unless):
                if cond is not None and cond not in names:
                    raise UserError(
                        f"{source}: a piece is laid 'when'/'unless' seat {cond!r}, "
                        f"which the layout does not have"
                    )

        counts_raw = r.get(data, "seat_counts", list, "the file", [len(seats)])
        if not counts_raw or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in counts_raw
        ):
            raise UserError(f"{source}: seat_counts must be a list of whole numbers")
        counts = tuple(sorted(set(counts_raw)))
        if counts[0] < 1 or counts[-1] > len(seats):
            raise UserError(
                f"{source}: seat_counts {list(counts)} must lie between 1 and the "
                f"{seats_phrase((len(seats),))} the layout defines"
            )
        default_raw = r.get(data, "default_seats", list, "the file", None)
        if default_raw is None:
            n = max(counts) if len(seats) in counts else counts[0]
            default = parse_seats(names[:n])
        else:
            if not all(isinstance(s, str) for s in default_raw):
                raise UserError(f"{source}: default_seats must be a list of seat names")
            default = parse_seats(default_raw)
            for s in default:
                if s not in names:
                    raise UserError(f"{source}: default seat {s!r} is not one of its seats")
            if len(default) not in counts:
                raise UserError(
                    f"{source}: default_seats has {seats_phrase((len(default),))}; the layout "
                    f"takes {format_counts(counts)}"
                )
        spec = cls(name, description, face, counts, default, tracks, rails, seats, source, origin)
        spec.build(None)  # the default seating must be a sound table
        return spec


class _Reader:
    """Typed access to TOML tables, every mistake one line naming the file and the piece."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> UserError:
        return UserError(f"{self.source}: {where}: {message}")

    def keys(self, table: dict[str, Any], where: str, allowed: set[str]) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(where, f"unknown key {key!r} (known: {', '.join(sorted(allowed))})")

    def get(
        self, table: dict[str, Any], key: str, kind: type, where: str, default: Any = ...
    ) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(where, f"missing {key!r}")
            return default
        value = table[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise self.fail(
                where, f"{key} must be {_KIND_NAMES.get(kind, kind.__name__)}, got {value!r}"
            )
        if kind is float and not math.isfinite(cast(float, value)):
            raise self.fail(where, f"{key} must be a finite number, got {value!r}")
        return value

    def tables(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        items = data.get(key, [])
        if not isinstance(items, list) or not all(isinstance(t, dict) for t in items):
            raise self.fail("the file", f"{key} must be written as [[{key}]] tables")
        return items

    def seat_name(self, table: dict[str, Any], key: str, where: str) -> str | None:
        value = self.get(table, key, str, where, None)
        if value is None:
            return None
        try:
            return parse_seat(value)  # a seat name or a colour
        except UserError:
            raise self.fail(
                where, f"{key} = {value!r} is not a seat ({', '.join(SEATS)})"
            ) from None

    def direction(self, table: dict[str, Any], key: str, where: str) -> str | None:
        value: str | None = self.get(table, key, str, where, None)
        if value is not None and value not in DIRECTIONS:
            raise self.fail(where, f"{key} = {value!r} is not one of {', '.join(DIRECTIONS)}")
        return value

    def positive(
        self, table: dict[str, Any], key: str, where: str, default: float, most: float
    ) -> float:
        value = self.get(table, key, float, where, default)
        if not 0 < value <= most:
            raise self.fail(where, f"{key} must be above 0 and at most {most:g} m, got {value:g}")
        return float(value)

    def track(self, t: dict[str, Any], i: int) -> TrackSpec:
        where = f"track #{i + 1}"
        name = self.get(t, "name", str, where)
        where = f"track {name!r}"
        self.keys(
            t,
            where,
            {
                "name",
                "edge",
                "offset",
                "hook",
                "mouth",
                "facing",
                "length",
                "width",
                "when",
                "unless",
            },
        )
        edge = self.direction(t, "edge", where)
        hook = self.get(t, "hook", str, where, None)
        mouth_raw = self.get(t, "mouth", list, where, None)
        facing = self.direction(t, "facing", where)
        given = [k for k, v in (("edge", edge), ("hook", hook), ("mouth", mouth_raw)) if v]
        if len(given) != 1:
            raise self.fail(
                where,
                "hook its mouth onto exactly one thing: edge = SIDE, "
                "hook = TRACK, or mouth = [x, y] with facing = DIRECTION",
            )
        if "offset" in t and edge is None:
            raise self.fail(where, "offset is only for a track on a board edge")
        mouth = None
        if mouth_raw is not None:
            if len(mouth_raw) != 2 or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in mouth_raw
            ):
                raise self.fail(where, f"mouth must be [x, y] in metres, got {mouth_raw!r}")
            mouth = (float(mouth_raw[0]), float(mouth_raw[1]))
            if not all(math.isfinite(v) and abs(v) <= POSITION_LIMIT for v in mouth):
                raise self.fail(
                    where, f"mouth must be [x, y] within ±{POSITION_LIMIT:g} m, got {mouth_raw!r}"
                )
            if facing is None:
                raise self.fail(where, "a mouth given as [x, y] needs facing = DIRECTION")
        elif facing is not None:
            raise self.fail(where, "facing is only for a mouth given as [x, y]")
        return TrackSpec(
            name=name,
            length=self.positive(t, "length", where, TRACK_LENGTH, MAX_TRACK_LENGTH),
            width=self.positive(t, "width", where, TRACK_WIDTH, BOARD_SIDE),
            edge=edge,
            offset=self.get(t, "offset", float, where, 0.0),
            hook=hook,
            mouth=mouth,
            facing=facing,
            when=self.seat_name(t, "when", where),
            unless=self.seat_name(t, "unless", where),
        )

    def rail(self, t: dict[str, Any], i: int) -> RailSpec:
        where = f"rail #{i + 1}"
        self.keys(t, where, {"edge", "across", "at", "thickness", "when", "unless"})
        edge = self.direction(t, "edge", where)
        across = self.get(t, "across", str, where, None)
        if (edge is None) == (across is None):
            raise self.fail(
                where,
                "a blocker rail goes along a board edge (edge = SIDE) or "
                "across a track (across = TRACK, at = METRES)",
            )
        if across is not None and "at" not in t:
            raise self.fail(
                where,
                f"the rail across track {across!r} needs at = METRES (from the track's near end)",
            )
        if edge is not None and "at" in t:
            raise self.fail(where, "at is only for a rail across a track")
        label = f"blocker rail along the {edge} edge" if edge else f"blocker rail across {across!r}"
        return RailSpec(
            label=label,
            thickness=self.positive(t, "thickness", where, RAIL_THICKNESS, MAX_RAIL_THICKNESS),
            edge=edge,
            across=across,
            at=self.get(t, "at", float, where, 0.0),
            when=self.seat_name(t, "when", where),
            unless=self.seat_name(t, "unless", where),
        )

    def seat(self, t: dict[str, Any], i: int) -> SeatSpec:
        where = f"seat #{i + 1}"
        self.keys(t, where, {"name", "track", "foul"})
        name = self.seat_name(t, "name", where)
        if name is None:
            raise self.fail(where, "missing 'name' (a seat: " + ", ".join(SEATS) + ")")
        return SeatSpec(
            name=name,
            track=self.get(t, "track", str, f"seat {name!r}", None),
            foul=self.get(t, "foul", float, f"seat {name!r}", None),
        )


_KIND_NAMES = {
    float: "a number",
    int: "a whole number",
    str: "text",
    list: "a list",
    dict: "a table",
    bool: "true or false",
}


# -- building -------------------------------------------------------------------------------------


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
            f = _inward(t.edge)
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
        f = _inward(r.edge)
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


def open_edges(layout: Layout) -> list[str]:
    """The board edges a pawn can fall off: ``"east"`` when wholly open, ``"south (partly)"``
    when a track's mouth or a blocker rail covers part of it."""
    h = layout.board_side / 2
    out = []
    for edge, (ex, ey) in DIRECTIONS.items():
        spans: list[tuple[float, float]] = []
        along = (1, 0) if ex == 0 else (0, 1)  # world axis along the edge
        for t in layout.tracks:
            if _inward(edge) == t.forward and abs(t.mouth[0] * ex + t.mouth[1] * ey - h) < EPS:
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
        covered, at = 0.0, -h
        for lo, hi in sorted(spans):
            lo, hi = max(lo, at), min(hi, h)
            if hi > lo:
                covered += hi - lo
                at = hi
        if covered < EPS:
            out.append(edge)
        elif covered < 2 * h - EPS:
            out.append(f"{edge} (partly)")
    return out


def _inward(edge: str) -> tuple[int, int]:
    """The direction of a track hooked onto ``edge``: into the board."""
    x, y = DIRECTIONS[edge]
    return (-x, -y)


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


def _unique(source: str, what: str, names: list[str]) -> None:
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise UserError(f"{source}: two {what}s are called {n!r}")
        seen.add(n)


def seats_phrase(counts: tuple[int, ...]) -> str:
    """``1 seat``, ``2 seats``, ``2–4 seats``."""
    return f"{format_counts(counts)} {'seat' if counts == (1,) else 'seats'}"


def format_counts(counts: tuple[int, ...]) -> str:
    """``2–4``, ``1`` or ``1, 3``."""
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(str(c) for c in counts)


def square(seats: tuple[str, ...] | str = ("south", "north")) -> Layout:
    """The rulebook's standard setup for ``seats``: the shipped ``square`` layout file.

    One track in the middle of each seated side of the board; every side without a track is closed
    by a blocker rail; the board edges beside a track's mouth stay open, so a pawn can slide off a
    corner.
    """
    return load_layout("square", seats)

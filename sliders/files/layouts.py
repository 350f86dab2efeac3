"""Layout files: a table setup as TOML data, read with :mod:`tomllib` and checked into a
:class:`~sliders.boards.placing.LayoutSpec` (the pieces' specifications live with the pieces, in
:mod:`sliders.boards`; this module only reads text into them), which builds a
:class:`~sliders.boards.layout.Layout` for the seats in play (placing the pieces is
:mod:`sliders.boards.placing`; each seating is built once per spec, and a
built-in layout's file is read once per process).

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

Every mistake is a :class:`~sliders.core.errors.UserError` naming the file and the piece.
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Any, cast

from sliders.boards.faces import BOARD_SIDE, DEFAULT_FACE, FACES
from sliders.boards.geometry import open_edges
from sliders.boards.layout import (
    DIRECTIONS,
    EPS,
    RAIL_THICKNESS,
    TRACK_LENGTH,
    TRACK_WIDTH,
    Layout,
)
from sliders.boards.placing import RELEASE_ROOM, LayoutSpec, SeatsArg
from sliders.boards.specs import RailSpec, SeatSpec, TrackSpec, format_counts, seats_phrase
from sliders.core.checks import MAX_LAYOUT_TEXT, MAX_TRACK_LENGTH, POSITION_LIMIT
from sliders.core.errors import UserError
from sliders.core.fileio import parse_toml, read_text
from sliders.core.outcome import SEATS, parse_seat, parse_seats

__all__ = [
    "BUILTIN_LAYOUTS",
    "DIRECTIONS",
    "EPS",
    "LAYOUTS_DIR",
    "LAYOUT_SCHEMA",
    "MAX_RAIL_THICKNESS",
    "RELEASE_ROOM",
    "LayoutSpec",
    "RailSpec",
    "SeatSpec",
    "SeatsArg",
    "TrackSpec",
    "format_counts",
    "load_layout",
    "open_edges",
    "parse_layout",
    "read_layout",
    "seats_phrase",
    "spec_from_toml",
    "square",
]

LAYOUT_SCHEMA = 1
LAYOUTS_DIR = Path(__file__).parent.parent / "boards" / "layouts"
BUILTIN_LAYOUTS: tuple[str, ...] = (
    "square",
    "crazy-corner",
    "head-to-head",
    "triple-track",
    "quadruple-track",
    "solo",
)

MAX_RAIL_THICKNESS = 0.05
"""m: the thickest blocker rail a layout file may lay."""


def load_layout(name_or_path: str, seats: SeatsArg = None, text: str | None = None) -> Layout:
    """The built-in layout called ``name_or_path``, or the layout file at that path, built for
    ``seats`` (seat names or colours; a number: that many of the layout's seats; None or empty:
    the layout's default seats). ``text``: that file's text as a game log keeps it, read instead
    of the file (which may be elsewhere, changed or gone)."""
    if text is None or name_or_path in BUILTIN_LAYOUTS:
        return read_layout(name_or_path).build(seats)
    where = f"layout file {name_or_path} as the game log keeps it"
    return parse_layout(text, where, Path(name_or_path).stem, name_or_path).build(seats)


def layout_text(name_or_path: str) -> str | None:
    """The text of the layout file at ``name_or_path`` (checked as :func:`read_layout` checks
    it), for a game log to keep; None for a built-in layout."""
    if name_or_path in BUILTIN_LAYOUTS:
        return None
    return read_layout(name_or_path).text


def read_layout(name_or_path: str) -> LayoutSpec:
    """The parsed, checked layout file for a built-in name or a path."""
    if name_or_path in BUILTIN_LAYOUTS:
        return _builtin(name_or_path)
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or os.path.lexists(path) or "/" in name_or_path):
        raise UserError(
            f"unknown layout {name_or_path!r} (built-in: {', '.join(BUILTIN_LAYOUTS)}; "
            "or give a layout file path)"
        )
    if not os.path.exists(path) and not os.path.lexists(path):
        raise UserError(f"layout file {name_or_path} does not exist")
    text = read_text(path, "layout file", MAX_LAYOUT_TEXT)
    return parse_layout(text, f"layout file {name_or_path}", path.stem, name_or_path)


@functools.cache
def _builtin(name: str) -> LayoutSpec:
    """A built-in layout's spec, its file read and checked once (the package's files do not
    change while it runs)."""
    text = (LAYOUTS_DIR / f"{name}.toml").read_text(encoding="utf-8")
    return parse_layout(text, f"layout {name!r}", name, "built-in")


def parse_layout(
    text: str, source: str, default_name: str = "custom", origin: str = ""
) -> LayoutSpec:
    """Parse and check the text of a layout file; ``source`` names it in error messages and
    ``origin`` is where it came from (``built-in`` or its path)."""
    data = parse_toml(text, source)
    return spec_from_toml(data, source, default_name, origin, text)


# -- the text read into a spec ---------------------------------------------------------------------


def spec_from_toml(
    data: dict[str, Any], source: str, default_name: str, origin: str = "", text: str = ""
) -> LayoutSpec:
    """The :class:`~sliders.boards.placing.LayoutSpec` a layout file's TOML ``data`` describes,
    checked (its default seating built once)."""
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
    spec = LayoutSpec(
        name, description, face, counts, default, tracks, rails, seats, source, origin, text
    )
    spec.build(None)  # the default seating must be a sound table (kept: built once)
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


def _unique(source: str, what: str, names: list[str]) -> None:
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise UserError(f"{source}: two {what}s are called {n!r}")
        seen.add(n)


def square(seats: tuple[str, ...] | str = ("south", "north")) -> Layout:
    """The rulebook's standard setup for ``seats``: the shipped ``square`` layout file.

    One track in the middle of each seated side of the board; every side without a track is closed
    by a blocker rail; the board edges beside a track's mouth stay open, so a pawn can slide off a
    corner.
    """
    return load_layout("square", seats)

"""Pieces as frozen data: the target board and its faces, tracks, rails, seats and layouts, with
the geometry queries the physics and the renderer share. Pure data and arithmetic: no pymunk."""

from sliders.boards.faces import BUILTIN_FACES, Dot, Face, face
from sliders.boards.geometry import (
    BOARD,
    Verdict,
    classify,
    outside_cells,
    overlaps_rail,
    segment_distance,
    surface_at,
    zone_points,
)
from sliders.boards.layout import Layout, Rail, Rect, Seat, Track, parse_seats, square

__all__ = [
    "BOARD",
    "BUILTIN_FACES",
    "Dot",
    "Face",
    "Layout",
    "Rail",
    "Rect",
    "Seat",
    "Track",
    "Verdict",
    "classify",
    "face",
    "load_layout",
    "outside_cells",
    "overlaps_rail",
    "segment_distance",
    "parse_seats",
    "square",
    "surface_at",
    "zone_points",
]


def load_layout(name: str, seats: str | tuple[str, ...] | None = None) -> Layout:
    """The layout called ``name`` for ``seats`` (default: the layout's own seats)."""
    from sliders.errors import UserError

    if name == "square":
        return square(seats if seats else ("south", "north"))
    raise UserError(f"unknown layout {name!r} (built-in: square)")

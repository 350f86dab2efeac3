"""Pieces as frozen data: the target board and its faces, tracks, rails, seats and layouts, with
the geometry queries the physics and the renderer share. Pure data and arithmetic: no pymunk."""

from sliders.boards.faces import (
    BUILTIN_FACES,
    DEFAULT_FACE,
    FACES,
    Dot,
    Face,
    HoleRule,
    face,
    worth,
)
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
from sliders.boards.layout import Layout, Rail, Rect, Seat, Track
from sliders.core.outcome import parse_seats

__all__ = [
    "BOARD",
    "BUILTIN_FACES",
    "DEFAULT_FACE",
    "Dot",
    "FACES",
    "Face",
    "HoleRule",
    "Layout",
    "Rail",
    "Rect",
    "Seat",
    "Track",
    "Verdict",
    "classify",
    "face",
    "outside_cells",
    "overlaps_rail",
    "segment_distance",
    "parse_seats",
    "surface_at",
    "worth",
    "zone_points",
]

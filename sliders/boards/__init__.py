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
from sliders.boards.layout import Layout, Rail, Rect, Seat, Track, square
from sliders.boards.layoutfile import (
    BUILTIN_LAYOUTS,
    LayoutSpec,
    load_layout,
    parse_layout,
    read_layout,
)
from sliders.outcome import parse_seats

__all__ = [
    "BOARD",
    "BUILTIN_FACES",
    "BUILTIN_LAYOUTS",
    "DEFAULT_FACE",
    "Dot",
    "FACES",
    "Face",
    "HoleRule",
    "Layout",
    "LayoutSpec",
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
    "parse_layout",
    "parse_seats",
    "read_layout",
    "square",
    "surface_at",
    "worth",
    "zone_points",
]

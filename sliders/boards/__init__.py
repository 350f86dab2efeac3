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
from sliders.boards.layoutfile import (
    BUILTIN_LAYOUTS,
    LayoutSpec,
    load_layout,
    parse_layout,
    read_layout,
)

__all__ = [
    "BOARD",
    "BUILTIN_FACES",
    "BUILTIN_LAYOUTS",
    "Dot",
    "Face",
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
    "zone_points",
]

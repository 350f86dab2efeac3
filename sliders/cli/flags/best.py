"""Search for the intended shot worth most to a seat, here, in this game, under execution noise,
with the computer players' own search over a coarse grid of the box, by default every legal
speed, angle and offset (docs/strategy.md). Prints the
best shot's expected value (the seat's chance of winning after it) and progress with an interval
from fresh samples, and the best shot of each other kind (draw, takeout, guard)."""

from __future__ import annotations

import argparse

from sliders.cli.args import (
    add_engine_argument,
    add_noise_arguments,
    add_param_argument,
    add_table_arguments,
    allow_negative_values,
    writes,
)

HELP = "search for the shot worth most under execution noise"


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.allow_abbrev = False
    add_table_arguments(p)
    allow_negative_values(p)
    p.add_argument("--seat", help="the seat that shoots (default: the first seat)")
    p.add_argument("--pawn", help="id of the pawn slid (default: the seat's next in hand)")
    p.add_argument(
        "--score-board",
        action="append",
        default=[],
        metavar="SEAT=a,b,c,d",
        help="a seat's scoring pawns, squares 0 START .. 6 HOME (repeatable; default all START)",
    )
    g = p.add_argument_group(
        "search box (LO:HI searched, a single value fixed; default: every legal speed, angle and "
        "offset; a pick at the edge of a narrowed range is warned of)"
    )
    g.add_argument("--speed", metavar="LO:HI", help="m/s (default: every legal speed)")
    g.add_argument("--angle", metavar="LO:HI", help="degrees (default: every legal angle)")
    g.add_argument("--offset", metavar="LO:HI", help="metres right (default: the lane's width)")
    g.add_argument("--release", metavar="LO:HI", help="metres from the near end (default: foul)")
    g = p.add_argument_group("execution noise")
    add_noise_arguments(g)
    add_param_argument(g)
    add_engine_argument(g)
    g = p.add_argument_group("output")
    g.add_argument("--final", type=int, default=40, help="fresh samples of the best (default 40)")
    g.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    writes(
        g.add_argument("--board", metavar="PNG", help="where the best shot's pawn ends, by value")
    )
    g.add_argument("--json", action="store_true", help="print one JSON object")

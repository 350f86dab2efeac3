"""Draw a layout and a face, with the pawns of a scene, to a PNG."""

from __future__ import annotations

import argparse

from sliders.cli.args import add_table_arguments, writes

HELP = "draw a layout, a face and a scene to a PNG"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_table_arguments(p)
    writes(p.add_argument("--out", required=True, metavar="PNG", help="the picture to write"))
    p.add_argument("--dpi", type=int, default=150, help="resolution (default: 150)")

"""Re-summarise and re-draw a saved batch study without simulating: another metric, other axes,
another confidence level, a line plot, a board picture. Reads a table written by sliders batch
(Parquet, CSV with its OUT.json record, or NPZ)."""

from __future__ import annotations

import argparse

from sliders.cli.args import reads, writes
from sliders.cli.flags.batch import FORMATS, add_analysis_arguments

HELP = "re-summarise and re-draw a saved batch table"


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.allow_abbrev = False
    reads(p.add_argument("table", metavar="TABLE", help="a table written by sliders batch --out"))
    p.add_argument("--format", choices=FORMATS, help="default: from the file's suffix")
    g = p.add_argument_group("output")
    writes(
        g.add_argument("--summary", metavar="FILE", help="write the summary per intended shot here")
    )
    writes(g.add_argument("--heatmap", metavar="PNG", help="the metric and penalty risk per cell"))
    g.add_argument("--heatmap-axes", metavar="X,Y", help="two parameters, e.g. speed,angle")
    writes(g.add_argument("--board", metavar="PNG", help="where the shot pawns came to rest"))
    g.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    add_analysis_arguments(p, g)

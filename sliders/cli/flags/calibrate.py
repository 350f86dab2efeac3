"""Fit the model's numbers to a real board: calibrate video tracks slides filmed from above into
a table of trajectories; calibrate fit fits such a table, or one of hand measurements, into a
parameter file for --params (docs/calibration.md)."""

from __future__ import annotations

import argparse

from sliders.cli.args import add_param_argument, reads, writes

HELP = "fit the physics to a real board from videos or measured slides"


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.add_argument("action", choices=("video", "fit"), help="video: track videos; fit: fit a table")
    reads(
        p.add_argument(
            "files", nargs="+", metavar="FILE", help="videos (video) or one CSV table (fit)"
        )
    )
    p.add_argument(
        "--corners",
        metavar="X1,Y1,...,X4,Y4",
        help="video: the board's south-west, south-east, north-east and north-west corners in "
        "pixels (default: found in the first frame)",
    )
    p.add_argument(
        "--colours",
        default="red,yellow,green,blue",
        help="video: the pawns' colours to track (default: red,yellow,green,blue)",
    )
    p.add_argument(
        "--camera-height",
        type=float,
        metavar="M",
        help="video: the camera's height above the board, m, over its centre: the pawns' tops, "
        "which the camera sees, are brought down to the board (default: no correction)",
    )
    writes(
        p.add_argument(
            "--out",
            metavar="FILE",
            help="video: the trajectories table (CSV); fit: the parameter file (TOML)",
        )
    )
    writes(
        p.add_argument("--pictures", metavar="DIR", help="where to draw the pictures (PNG)"),
        "folder",
    )
    add_param_argument(p)

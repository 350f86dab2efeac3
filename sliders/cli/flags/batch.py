"""Simulate many noisy shots from one seat and summarise what each intended shot scores and risks.

Intended shots form a grid (--speed 0.3:1.2:10 --angle -6:6:13: LO:HI:STEPS, a value or a list
a,b,c) or --random N draws within ranges (LO:HI). Each is executed --samples times with execution
errors (--noise none|low|medium|high, or explicit sigmas). Writes a table with one row per simulated
shot (Parquet, CSV or NPZ, a CSV with its record in OUT.json) and a summary per intended shot;
optionally a heat map of expected points and penalty risk and a board picture of where the pawns came
to rest. Ctrl-C (twice: at once), SIGTERM and SIGHUP keep the finished part, marked incomplete;
--resume completes it. The same --seed gives the same table whatever the backend and the number of
workers."""

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

HELP = "simulate many noisy shots and summarise their outcomes"
BACKENDS: tuple[str, ...] = ("local", "dask", "dask-local")
"""as :data:`sliders.batch.runners.BACKENDS`"""
DEFAULT_CHUNK = 64
"""as :data:`sliders.batch.runners.DEFAULT_CHUNK`"""
EXACT_CHUNK = 4096
"""as :data:`sliders.batch.runners.EXACT_CHUNK`: the default chunk in the exact engine"""
FORMATS: tuple[str, ...] = ("parquet", "csv", "npz")
"""as :data:`sliders.batch.tables.FORMATS`"""
METRICS_HELP = "value, progress, points, p_penalty, p_hit, p_opp_hit, p_opp_penalty or p_STATUS"
"""as :data:`sliders.batch.summary.METRICS_HELP`"""


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.allow_abbrev = False  # --spee 1 is a mistake, not --speed 1
    add_table_arguments(p)
    allow_negative_values(p)
    p.add_argument("--seat", help="the seat that shoots (default: the first seat)")
    p.add_argument("--pawn", help="id of the pawn slid (default: the seat's next in hand)")
    g = p.add_argument_group("intended shots")
    g.add_argument("--speed", required=True, metavar="SPEC", help="m/s, e.g. 0.3:1.2:10")
    g.add_argument("--angle", default="0", metavar="SPEC", help="degrees right (default: 0)")
    g.add_argument("--offset", default="0", metavar="SPEC", help="metres right (default: 0)")
    g.add_argument(
        "--release", metavar="SPEC", help="metres from the near end (default: the foul line)"
    )
    g.add_argument(
        "--random", type=int, metavar="N", help="draw N intended shots within the ranges"
    )
    g = p.add_argument_group("execution noise")
    g.add_argument(
        "--samples",
        type=int,
        metavar="K",
        help="noisy executions per intended shot (default: 100, or 1 without noise)",
    )
    add_noise_arguments(g)
    g.add_argument(
        "--common-random",
        action="store_true",
        help="draw the same errors whatever the seat (default: each seat draws its own)",
    )
    g = p.add_argument_group("game state (what a shot is worth)")
    g.add_argument(
        "--score-board",
        action="append",
        default=[],
        metavar="SEAT=a,b,c,d",
        help="a seat's scoring pawns, squares 0 START .. 6 HOME (repeatable; default all START)",
    )
    g = p.add_argument_group("running")
    g.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    g.add_argument("--backend", choices=BACKENDS, default="local", help="default: local")
    g.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler for --backend dask")
    g.add_argument(
        "--chunk-size",
        type=int,
        default=DEFAULT_CHUNK,
        help=f"shots per task (default: {EXACT_CHUNK:,} in the exact engine, {DEFAULT_CHUNK} in "
        "pymunk; does not change the results)",
    )
    add_param_argument(g)
    add_engine_argument(g)
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g = p.add_argument_group("output")
    writes(
        g.add_argument(
            "--out", required=True, metavar="FILE", help="table of every simulated shot"
        ),
        "update",
    )
    g.add_argument("--format", choices=FORMATS, help="default: from --out's suffix, else parquet")
    writes(
        g.add_argument(
            "--summary", metavar="FILE", help="summary per intended shot (default: OUT.summary.EXT)"
        )
    )
    writes(g.add_argument("--heatmap", metavar="PNG", help="the metric and penalty risk per cell"))
    g.add_argument("--heatmap-axes", metavar="X,Y", help="two parameters, e.g. speed,angle")
    writes(g.add_argument("--board", metavar="PNG", help="where the shot pawns came to rest"))
    g.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    add_analysis_arguments(p, g)
    g.add_argument(
        "--resume",
        action="store_true",
        help="complete the interrupted study in --out (same flags): simulate only the shots it "
        "lacks; the result is the table a whole run gives",
    )


def add_analysis_arguments(p: argparse.ArgumentParser, g: argparse._ArgumentGroup) -> None:
    """Flags that choose what a summary ranks and pictures show (shared with ``sliders analyse``)."""

    g.add_argument("--top", type=int, default=5, help="intended shots to print (default: 5)")
    g.add_argument(
        "--metric",
        default="value",
        help=f"what ranks shots and colours the heat map: {METRICS_HELP} (default: value)",
    )
    g.add_argument("--vmin", type=float, help="low end of the heat map's colour scale")
    g.add_argument("--vmax", type=float, help="high end of the heat map's colour scale")
    writes(
        g.add_argument(
            "--line", metavar="PNG", help="the metric along one swept parameter, with bands"
        )
    )

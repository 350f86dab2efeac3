"""Re-summarise and re-draw a saved batch study without simulating: another metric, other axes,
another confidence level, a line plot, a board picture. Reads a table written by sliders batch
(Parquet, CSV with its OUT.json record, or NPZ)."""

from __future__ import annotations

import argparse

from sliders.batch.saved import load
from sliders.batch.summary import metric_column
from sliders.batch.tables import FORMATS, format_for, write_table
from sliders.cli.batch import (
    _check_outputs,
    add_analysis_arguments,
    draw_pictures,
    heatmap_axes_arg,
    print_top,
)
from sliders.errors import UserError


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.allow_abbrev = False
    p.add_argument("table", metavar="TABLE", help="a table written by sliders batch --out")
    p.add_argument("--format", choices=FORMATS, help="default: from the file's suffix")
    g = p.add_argument_group("output")
    g.add_argument("--summary", metavar="FILE", help="write the summary per intended shot here")
    g.add_argument("--heatmap", metavar="PNG", help="the metric and penalty risk per cell")
    g.add_argument("--heatmap-axes", metavar="X,Y", help="two parameters, e.g. speed,angle")
    g.add_argument("--board", metavar="PNG", help="where the shot pawns came to rest")
    g.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    add_analysis_arguments(p, g)


def run(args: argparse.Namespace) -> int:

    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence:g}: must be within 0..1")
    if args.top < 0:
        raise UserError(f"--top {args.top}: must be 0 or more")
    metric_column(args.metric)
    axes = heatmap_axes_arg(args)
    outputs = {"--summary": args.summary, "--heatmap": args.heatmap, "--board": args.board}
    outputs["--line"] = args.line
    _check_outputs({"TABLE": args.table, **outputs})
    saved = load(args.table, args.format)
    summary = saved.summary(args.confidence)
    metric_column(args.metric, summary)
    study = saved.study
    n = saved.n_shots
    state = "complete" if saved.complete else f"incomplete: {n:,} of {study.n_shots:,} shots"
    print(
        f"{args.table}: {n:,} shots, {study.n_intended:,} intended × {study.context.samples} "
        f"samples from {study.context.seat} on {study.context.scene.face} ({state})"
    )
    if args.summary:
        record = {**saved.record, "confidence": args.confidence, "metric": args.metric}
        write_table(args.summary, summary, record, format_for(args.summary, None))
    draw_pictures(args, summary, saved.table, study, axes)
    print_top(summary, args.top, args.confidence, args.metric)
    written = [w for w in (args.summary, args.heatmap, args.line, args.board) if w]
    if written:
        print("wrote " + ", ".join(written))
    return 0

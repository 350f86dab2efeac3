"""``sliders analyse`` run: reads a saved table and summarises and draws it again (its flags and
help: :mod:`sliders.cli.flags.analyse`)."""

from __future__ import annotations

import argparse

from sliders.batch.saved import load
from sliders.batch.summary import metric_column
from sliders.batch.tables import SUFFIXES, format_for, sidecar_path, write_table
from sliders.cli.batch import (
    draw_pictures,
    heatmap_axes_arg,
    print_top,
)
from sliders.cli.outputs import check_outputs, check_pictures, check_suffix
from sliders.core.errors import UserError
from sliders.core.fileio import is_special


def run(args: argparse.Namespace) -> int:

    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence:g}: must be within 0..1")
    if args.top < 0:
        raise UserError(f"--top {args.top}: must be 0 or more")
    metric_column(args.metric)
    axes = heatmap_axes_arg(args)
    pictures = {"--heatmap": args.heatmap, "--board": args.board, "--line": args.line}
    check_pictures(pictures)
    if args.summary:
        check_suffix("--summary", args.summary, SUFFIXES, "table", hint="")
    outputs: dict[str, str | None] = {"--summary": args.summary, **pictures}
    if args.summary and format_for(args.summary, None) == "csv" and not is_special(args.summary):
        outputs["--summary's record"] = sidecar_path(args.summary)
    inputs: dict[str, str | None] = {"TABLE": args.table}
    if format_for(args.table, args.format) == "csv":
        inputs["TABLE's record"] = sidecar_path(args.table)
    check_outputs(outputs, inputs)
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

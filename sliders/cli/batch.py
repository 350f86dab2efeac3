"""``sliders batch`` run: sets up the study, runs it, writes the table, the summary and the
pictures; the summary printing and output checks ``sliders analyse`` and ``sliders best`` share
(its flags and help: :mod:`sliders.cli.flags.batch`)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sliders.ai.value import parse_score_boards
from sliders.batch.progress import Progress
from sliders.batch.runners import (
    Stop,
    check_options,
    empty_table,
    run_study,
)
from sliders.batch.saved import check_table, checked_study
from sliders.batch.study import PARAMETERS, Design, Study, parse_spec
from sliders.batch.summary import metric_column
from sliders.batch.tables import SUFFIXES, format_for, read_table, sidecar_path
from sliders.batch.work import FAULT_REFUSED, upgrade
from sliders.cli.outputs import check_outputs, check_pictures, check_suffix, table_inputs
from sliders.cli.params import physics_params
from sliders.cli.prepare import prepare_engine
from sliders.cli.table import table_from_args
from sliders.core.errors import UserError
from sliders.core.fileio import is_special
from sliders.game.hand import parse_hand
from sliders.physics import Shot, check_shot
from sliders.physics.noise import Noise
from sliders.pictures.studies import plot_board, plot_heatmap, plot_line

if TYPE_CHECKING:
    import numpy as np

    from sliders.batch.runners import BatchResult, Stop
    from sliders.batch.study import Study
    from sliders.physics.noise import Noise


def run(args: argparse.Namespace) -> int:

    params = physics_params(args)
    scene, layout, _ = table_from_args(args)
    seat = args.seat or scene.seats[0]
    layout.seat(seat)
    noise = _noise(args)
    samples = args.samples if args.samples is not None else (1 if noise.is_zero else 100)
    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence:g}: must be within 0..1")
    specs = {
        "speed": parse_spec("speed", args.speed),
        "angle": parse_spec("angle", args.angle),
        "offset": parse_spec("offset", args.offset),
    }
    if args.release is not None:
        specs["release"] = parse_spec("release", args.release)
    if args.random is not None:
        design = Design.random(args.random, args.seed, **specs)
    else:
        design = Design.grid(**specs)

    metric_column(args.metric)
    spot = parse_score_boards(args.score_board, scene.seats)
    axes = heatmap_axes_arg(args)
    if args.top < 0:
        raise UserError(f"--top {args.top}: must be 0 or more")
    if args.workers is not None and args.backend == "dask":
        raise UserError("--workers is for the local backends; a Dask cluster has its own workers")
    check_options(
        workers=args.workers,
        backend=args.backend,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size,
    )
    fmt, summary_path, outputs = table_outputs(args.out, args.summary, args.format)
    pictures = {"--heatmap": args.heatmap, "--board": args.board, "--line": args.line}
    check_pictures(pictures)
    check_outputs({**outputs, **pictures}, table_inputs(args))
    if args.backend != "dask":  # a cluster's workers compile on their own machines
        prepare_engine(args.engine)  # the study's first check runs the engine
    study = Study.create(
        scene,
        seat,
        design,
        samples,
        noise,
        params,
        args.seed,
        args.pawn,
        args.engine,
        spot=spot,
        common_random=args.common_random,
    )

    done = _resumable(args.out, fmt, study) if args.resume else None

    with Stop().catch() as stop:
        result = _run_and_write(args, study, fmt, summary_path, axes, done, stop)
    if not result.complete:
        if stop.requested:
            # stopping is under way: a further Ctrl-C while the process ends (a short run can
            # be done before the user's second one arrives) must not turn its status into a crash
            with contextlib.suppress(ValueError):  # not the main thread
                signal.signal(signal.SIGINT, signal.SIG_IGN)
        why = f"interrupted ({stop.name})" if stop.requested else "a worker was lost"
        print(
            f"sliders batch: {why}: kept the {result.n_shots:,} finished shots of "
            f"{study.n_shots:,} in {args.out}, marked incomplete (--resume completes it)",
            file=sys.stderr,
        )
        return stop.exit_status or 1
    return 0  # every shot is written, even if a signal came at the very end


def _run_and_write(
    args: argparse.Namespace,
    study: Study,
    fmt: str,
    summary_path: str | None,
    axes: tuple[str, ...] | None,
    done: dict | None,
    stop: Stop,
) -> BatchResult:
    """Run the study and write every output, with signals only noted (see :class:`Stop`)."""

    samples = study.context.samples
    todo = study.n_shots - (len(done["shot"]) if done else 0)
    progress = None
    if not args.quiet:
        progress = Progress(todo)
        resumed = f" ({todo:,} left to simulate)" if done else ""
        if done and not todo:
            resumed = f" (all in {args.out} already: writing the outputs again)"
        print(
            f"{study.n_shots:,} shots: {study.n_intended:,} intended × {samples} samples "
            f"from {study.context.seat} on {study.context.scene.face}{resumed}",
            file=sys.stderr,
        )
    saved: list[int] = []  # the shots of the last save that was written

    def save(part: BatchResult) -> None:
        """Keep the finished shots in the table now and then, marked incomplete, so that a
        table that cannot be written at the end (a full disk) leaves them to --resume."""
        if is_special(args.out):
            return
        with contextlib.suppress(UserError):  # the run goes on; the final write will tell
            part.write(args.out, fmt)
            saved[:] = [part.n_shots]

    result = run_study(
        study,
        workers=args.workers,
        backend=args.backend,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size,
        on_chunk=progress,
        done=done,
        stop=stop,
        save=save,
    )
    if progress:
        progress.close()

    try:
        result.write(args.out, fmt)
    except UserError as exc:
        kept = saved[0] if saved else len(done["shot"]) if done else 0
        where = (
            f"it keeps the {kept:,} shot{'s' if kept != 1 else ''} finished before, "
            "marked incomplete "
            "(--resume completes it)"
            if kept
            else "no shot is kept"
        )
        raise type(exc)(f"{exc}; {where}") from None  # the machine's fault stays so
    summary = result.summary(args.confidence)
    if summary_path:
        result.write_summary(summary_path, fmt, args.confidence)
    draw_pictures(args, summary, result.table, study, axes)

    simulated = result.n_shots - (len(done["shot"]) if done else 0)
    rate = simulated / result.elapsed if result.elapsed else 0.0
    print(
        f"{simulated:,} shots in {result.elapsed:.1f} s ({rate:,.0f} shots/s, "
        f"{result.workers} worker{'s' if result.workers > 1 else ''}, {result.backend})"
    )
    _report_faults(result)
    print_top(summary, args.top, args.confidence, args.metric)
    _, _, tables = table_outputs(args.out, summary_path, fmt)
    written = [*tables.values(), args.heatmap, args.board, args.line]
    print("wrote " + ", ".join(w for w in written if w))
    return result


def _resumable(out: str, fmt: str, study: Study) -> dict:
    """The shots of ``out`` to keep when resuming ``study`` in it, checked to be that study's."""

    if not Path(out).exists():
        raise UserError(f"--resume: {out} not found (nothing to resume; run without --resume)")
    cols, record = read_table(out, fmt)
    checked_study(f"--resume: {out}", record, cols)
    cols = upgrade(study.context, cols)  # an older table's value: see docs/batch.md
    expected = json.loads(json.dumps(study.describe()))
    for key, value in expected.items():
        if key not in record:
            raise UserError(f"--resume: {out} has no study record to resume ({key} missing)")
        if record[key] != value:
            raise UserError(
                f"--resume: {out} holds another study ({key} differs); give the same flags"
            )
    empty = empty_table(study)
    if sorted(cols) != sorted(empty):
        raise UserError(f"--resume: {out} has other columns than this study's table")
    shots = cols["shot"]
    if len(shots) and (
        shots.min() < 0 or shots.max() >= study.n_shots or np.any(np.diff(shots) <= 0)
    ):
        raise UserError(f"--resume: {out} holds shots that are not this study's, or twice")
    cols = {name: cols[name].astype(empty[name].dtype) for name in empty}
    check_table(f"--resume: {out}", cols, study)
    return cols


def _report_faults(result: BatchResult) -> None:
    """Say how many samples were not simulated as drawn, and why (the table's fault column)."""
    faults = result.faults
    n, seat = result.n_shots, result.study.context.seat
    if faults.get("past_lane_end"):
        print(
            f"sliders batch: {faults['past_lane_end']:,} of {n:,} samples were released past the "
            f"end of {seat}'s lane: recorded as fouls (fault 1)",
            file=sys.stderr,
        )
    if faults.get("refused"):
        print(
            f"sliders batch: {faults['refused']:,} of {n:,} samples were refused by the physics "
            f"({_first_refusal(result)}): recorded with the pawn in hand (fault 2)",
            file=sys.stderr,
        )


def _first_refusal(result: BatchResult) -> str:
    """The physics' words for the first refused sample, found by setting it up again."""

    t, ctx = result.table, result.study.context
    r = int(np.flatnonzero(t["fault"] == FAULT_REFUSED)[0])
    shot = Shot(
        ctx.seat,
        float(t["exec_speed"][r]),
        math.radians(float(t["exec_angle"][r])),
        float(t["exec_offset"][r]),
        float(t["exec_release"][r]),
        ctx.pawn,
        int(t["seed"][r]),
    )
    try:
        check_shot(ctx.setup(), ctx.scene.pawns, shot)
    except UserError as exc:
        return f"first: shot {int(t['shot'][r])}, {exc}"
    return f"first: shot {int(t['shot'][r])}"


def _noise(args: argparse.Namespace) -> Noise:

    noise = parse_hand(args.noise) if args.noise == "me" else Noise.level(args.noise)
    changes = {
        "speed_rel": args.noise_speed,
        "angle_deg": args.noise_angle,
        "offset": args.noise_offset,
        "release": args.noise_release,
    }
    noise = dataclasses.replace(noise, **{k: v for k, v in changes.items() if v is not None})
    noise.check()
    return noise


def table_outputs(
    out: str, summary: str | None, fmt_flag: str | None
) -> tuple[str, str | None, dict[str, str]]:
    """The table's format, the summary's path (``None``: no summary file) and each file the
    tables write, by what names it. A name's extension must be a table format's unless --format
    says which; a stream such as ``/dev/null`` gets no summary or record named after it."""
    if fmt_flag is None:
        for flag, path in (("--out", out), ("--summary", summary)):
            if path:
                check_suffix(flag, path, SUFFIXES, "table")
    fmt = format_for(out, fmt_flag)
    if summary is None and not is_special(out):
        summary = _summary_path(out, fmt)
    outputs = {}
    for flag, path in (("--out", out), ("--summary", summary)):
        if not path:
            continue
        implied = format_for(path, None)
        if Path(path).suffix.lower() in SUFFIXES and implied != fmt:
            raise UserError(f"{flag} {path} names a {implied} file but the format is {fmt}")
        outputs[flag] = path
        if fmt == "csv" and not is_special(path):
            outputs[f"{flag}'s record"] = sidecar_path(path)
    return fmt, summary, outputs


def _summary_path(out: str, fmt: str) -> str:
    path = Path(out)
    ext = {"parquet": ".parquet", "csv": ".csv", "npz": ".npz"}[fmt]
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    return str(path.with_name(f"{stem}.summary{ext}"))


def draw_pictures(
    args: argparse.Namespace,
    summary: dict,
    table: dict,
    study: Study,
    axes: tuple[str, ...] | None,
) -> None:
    """The heat map, line plot and board picture the flags ask for."""
    if args.heatmap and len(summary["n"]):
        plot_heatmap(
            args.heatmap,
            summary,
            study,
            axes,  # type: ignore[arg-type]
            metric=args.metric,
            vmin=args.vmin,
            vmax=args.vmax,
        )
    if args.line and len(summary["n"]):
        plot_line(args.line, summary, study, axes[0] if axes else None, metric=args.metric)
    if args.board and len(table["shot"]):
        plot_board(args.board, table, study)


COLOUR_LIMIT = 1e6
"""the largest end of a heat map's colour scale (every metric is a chance, points or spaces)"""


def heatmap_axes_arg(args: argparse.Namespace) -> tuple[str, ...] | None:
    """``--heatmap-axes X,Y`` checked: two different shot parameters (None when not given); and
    ``--vmin``/``--vmax``, a colour scale a picture can have."""

    for flag in ("vmin", "vmax"):
        value = getattr(args, flag, None)
        if value is not None and abs(value) > COLOUR_LIMIT:
            raise UserError(f"--{flag} {value:g}: a colour scale's end is within ±{COLOUR_LIMIT:g}")
    vmin, vmax = getattr(args, "vmin", None), getattr(args, "vmax", None)
    if vmin is not None and vmax is not None and not vmin < vmax:
        raise UserError(f"--vmin {vmin:g} --vmax {vmax:g}: the low end is below the high end")
    if not args.heatmap_axes:
        return None
    if not args.heatmap:
        raise UserError("--heatmap-axes without --heatmap: there is no heat map to lay out")
    axes = tuple(a.strip() for a in args.heatmap_axes.split(","))
    if len(axes) != 2 or not all(a in PARAMETERS for a in axes) or axes[0] == axes[1]:
        raise UserError(
            f"--heatmap-axes {args.heatmap_axes!r}: two different of {', '.join(PARAMETERS)}"
        )
    return axes


def ranking(summary: dict, metric: str) -> np.ndarray:
    """Summary rows best first by ``metric``; shots with fewer samples than the most any shot has
    (an interrupted run) come after every fully sampled one, so a thin cell never ranks first."""

    column = metric_column(metric, summary)
    v = summary[column].astype(float)
    full = summary["n"] == summary["n"].max()
    return np.lexsort((-np.nan_to_num(v, nan=-np.inf), ~full))


def print_top(summary: dict, top: int, confidence: float, metric: str = "value") -> None:

    n = len(summary["n"])
    if not n or top <= 0:
        return
    order = ranking(summary, metric)[:top]
    column = metric_column(metric, summary)
    pct = f"{confidence:.0%}"
    extra = column not in ("mean_value", "mean_progress", "mean_points", "p_penalty")
    head = f"{metric:>9} {pct + ' interval':>16}  " if extra else ""
    has_value = "mean_value" in summary and "mean_progress" in summary
    print(
        f"{'speed':>6} {'angle':>6} {'offset':>7} {'release':>7} {'n':>6}  {head}"
        + (
            f"{'value':>6} {pct + ' interval':>14}  {'progress':>8} {pct + ' interval':>16}  "
            if has_value
            else ""
        )
        + f"{'points':>6} {pct + ' interval':>16}  {'penalty':>7} {pct + ' interval':>15}"
    )
    for i in order:
        cells = ""
        if extra:
            lo, hi = summary.get(f"{column}_lo"), summary.get(f"{column}_hi")
            spec = ".1%" if column.startswith("p_") else ".2f"
            shown = _interval(lo[i], hi[i], spec) if lo is not None and hi is not None else ""
            cells += f"{summary[column][i]:9{spec}} {shown:>16}  "
        if has_value:
            value = "mean_value", "mean_value_lo", "mean_value_hi"
            cells += (
                f"{summary[value[0]][i]:6.1%} "
                f"{_interval(summary[value[1]][i], summary[value[2]][i], '.1%'):>14}  "
                f"{summary['mean_progress'][i]:8.2f} "
                f"{_interval(summary['mean_progress_lo'][i], summary['mean_progress_hi'][i]):>16}  "
            )
        print(
            f"{summary['speed'][i]:6.3f} {summary['angle'][i]:6.2f} {summary['offset'][i]:7.4f} "
            f"{summary['release'][i]:7.3f} {summary['n'][i]:6d}  {cells}"
            f"{summary['mean_points'][i]:6.2f} "
            f"{_interval(summary['mean_points_lo'][i], summary['mean_points_hi'][i]):>16}  "
            f"{summary['p_penalty'][i]:7.1%} "
            f"{_interval(summary['p_penalty_lo'][i], summary['p_penalty_hi'][i], '.1%'):>15}"
        )


def _interval(lo: float, hi: float, spec: str = ".2f") -> str:
    if lo != lo:  # NaN: one sample
        return "-"
    return f"{lo:{spec}}..{hi:{spec}}"

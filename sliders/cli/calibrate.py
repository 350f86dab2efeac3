"""``sliders calibrate`` run: tracks videos into a trajectories table, or fits a table into a
parameter file (its flags and help: :mod:`sliders.cli.flags.calibrate`)."""

from __future__ import annotations

import argparse
import os
import sys

from sliders.calibrate.fit import describe, fit_measurements, fit_tracks
from sliders.calibrate.tables import Track, read_table, tracks_csv
from sliders.calibrate.video import COLOURS, parse_corners, track_video
from sliders.cli.outputs import check_suffix
from sliders.cli.params import physics_params
from sliders.core.checks import counted
from sliders.core.errors import UserError
from sliders.core.fileio import write_text_atomic
from sliders.pictures.calibration import plot_contacts, plot_residuals, plot_stops, plot_tracks


def run(args: argparse.Namespace) -> int:

    base = physics_params(args)
    if args.action == "video":
        return _video(args, base.pawn_radius, base.pawn_height)
    if len(args.files) != 1:
        raise UserError("calibrate fit: give one table (CSV)")
    if args.corners or args.camera_height is not None:
        raise UserError("--corners and --camera-height are for calibrate video")
    if args.out:
        check_suffix("--out", args.out, {".toml": "TOML"}, "parameter file", "")
    path = args.files[0]
    rows = read_table(path)
    if rows and isinstance(rows[0], Track):
        fit = fit_tracks(rows, base, path)  # type: ignore[arg-type]
    else:
        fit = fit_measurements(rows, base, path)  # type: ignore[arg-type]
    text = fit.toml(base)  # the warnings of a value out of range are added here
    for line in describe(fit, base):
        print(line)
    if args.pictures:
        plot_residuals(fit, os.path.join(args.pictures, "residuals.png"))
        plot_stops(fit, os.path.join(args.pictures, "stops.png"))
        plot_contacts(fit, os.path.join(args.pictures, "contacts.png"))
    if args.out:
        write_text_atomic(args.out, text)
        print(f"wrote {args.out}")
    return 0


def _video(args: argparse.Namespace, pawn_radius: float, height: float) -> int:
    colours = tuple(c.strip() for c in args.colours.split(","))
    bad = [c for c in colours if c not in COLOURS]
    if bad:
        raise UserError(f"--colours: unknown colour {bad[0]!r} (choose from {', '.join(COLOURS)})")
    corners = parse_corners(args.corners) if args.corners else None
    if args.out:
        check_suffix("--out", args.out, {".csv": "CSV"}, "trajectories table", "")
    lift = 0.0
    if args.camera_height is not None:
        if not args.camera_height > height:
            raise UserError(
                f"--camera-height {args.camera_height:g}: the camera must be above the pawns' "
                f"tops ({height:g} m)"
            )
        lift = height / args.camera_height
    found = [track_video(path, corners, pawn_radius, colours, lift) for path in args.files]
    tracks = [tr for f in found for tr in f.tracks]
    for path, f in zip(args.files, found, strict=True):
        print(
            f"{path}: {counted(f.frames, 'frame')} at {f.fps:g} fps, {counted(len(f.tracks), 'track')}",
            file=sys.stderr,
        )
    if args.pictures:
        for path, f in zip(args.files, found, strict=True):
            name = os.path.splitext(os.path.basename(path))[0]
            plot_tracks(f.frame, f.to_board, f.tracks, os.path.join(args.pictures, f"{name}.png"))
    text = tracks_csv(tracks)
    if args.out:
        write_text_atomic(args.out, text)
        print(f"wrote {args.out}")
    else:
        print(text, end="")
    return 0

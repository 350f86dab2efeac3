"""The calibration chain proved at full size: slides simulated with known parameters, filmed,
tracked and fitted back.

    python benchmarks/calibrate.py [--free 12] [--pawn 6] [--rail 6] [--glance 6] [--slant 6]
                                   [--size 640] [--fps 60] [--spread 0.0] [--seed 0]
                                   [--find-corners] [--pictures DIR]

Renders the filming protocol's slides (docs/calibration.md) with mu_roll 0.06, restitutions 0.8
(pawn) and 0.55 (rail), rim frictions 0.2 (pawn) and 0.03 (rail; at the default 0.1 the rims
stick on every hit the lane lets through, and the fit says it can only bound it) and no loss at
the track–board joint (the model has none) as ``--size`` × ``--size`` videos at ``--fps`` through a phone's faults
(perspective, lens and motion blur, noise, uneven light, a hand over the near edge, MP4
compression); ``--spread`` gives each slide its own rolling resistance, drawn with that relative
spread (the truth printed is then the slides' own mean and relative standard deviation). Then ``sliders calibrate video`` tracks them (given the board's corners, or finding them
with ``--find-corners``) and ``sliders calibrate fit`` fits the table. Prints each parameter's
truth, estimate, 95 % interval and error, and the seconds each stage took. ``--pictures DIR``
draws the fit's pictures there and the tracked paths of the first rail slide over its last frame
(docs/calibration.md's are ``--size 320 --free 4 --pawn 3 --rail 3 --glance 4 --slant 4
--pictures docs/calibration``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from sliders.calibrate.fit import fit_tracks
from sliders.calibrate.synthetic import Camera, board_corners, protocol, render_clip
from sliders.calibrate.video import track_video
from sliders.physics import PhysicsParams
from sliders.pictures.calibration import plot_contacts, plot_residuals, plot_stops, plot_tracks

TRUTH = PhysicsParams.default().replace(
    mu_roll=0.06, restitution_pawn=0.8, restitution_rail=0.55, friction_pawn=0.2, friction_rail=0.03
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--free", type=int, default=12)
    ap.add_argument("--pawn", type=int, default=6)
    ap.add_argument("--rail", type=int, default=6)
    ap.add_argument("--glance", type=int, default=6)
    ap.add_argument("--slant", type=int, default=6)
    ap.add_argument("--size", type=int, default=640)
    ap.add_argument("--fps", type=float, default=60.0)
    ap.add_argument("--spread", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--find-corners", action="store_true")
    ap.add_argument("--pictures", metavar="DIR")
    args = ap.parse_args()

    camera = Camera(size=args.size)
    corners = None if args.find_corners else board_corners(camera)
    slides = protocol(
        args.free, args.pawn, args.rail, TRUTH, args.seed, glance=args.glance, slant=args.slant
    )
    rng = np.random.default_rng(args.seed)
    mus = TRUTH.mu_roll * (1 + args.spread * rng.standard_normal(len(slides)))
    drawn_one = False
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.process_time()
        videos = []
        for i, slide in enumerate(slides):
            videos.append(str(Path(tmp) / f"slide{i:02d}.mp4"))
            render_clip(
                videos[-1], slide, TRUTH.replace(mu_roll=float(mus[i])), args.fps, camera, i
            )
        t1 = time.process_time()
        tracks = []
        for v, slide in zip(videos, slides, strict=True):
            found = track_video(v, corners, TRUTH.pawn_radius)
            tracks += found.tracks
            if args.pictures and slide.kind == "rail" and not drawn_one:
                plot_tracks(
                    found.frame, found.to_board, found.tracks, f"{args.pictures}/tracked.png"
                )
                drawn_one = True
        t2 = time.process_time()
    fit = fit_tracks(tracks, PhysicsParams.default(), "benchmark")
    t3 = time.process_time()
    if args.pictures:
        plot_residuals(fit, f"{args.pictures}/residuals.png")
        plot_stops(fit, f"{args.pictures}/stops.png")
        plot_contacts(fit, f"{args.pictures}/contacts.png")
    print(
        f"{len(slides)} clips ({args.free} free, {args.pawn} pawn, {args.rail} rail, "
        f"{args.glance} glance, {args.slant} slant), "
        f"{args.size}x{args.size} at {args.fps:g} fps; corners "
        f"{'found' if args.find_corners else 'given'}"
    )
    print(f"{'parameter':<18} {'truth':>7} {'fitted':>8} {'95 % interval':>20} {'error':>8}")
    drawn = {"mu_roll": float(np.mean(mus))}  # with --spread, the slides' own mean
    for name, e in fit.estimates.items():
        true = drawn.get(name, float(getattr(TRUTH, name)))
        err = f"{(e.value / true - 1):+.2%}" if name == "mu_roll" else f"{e.value - true:+.3f}"
        print(
            f"{name:<18} {true:>7.4g} {e.value:>8.4f} {f'[{e.low:.4f}, {e.high:.4f}]':>20} {err:>8}"
        )
    if fit.spread is not None:
        s = fit.spread
        spread = float(np.std(mus, ddof=1) / np.mean(mus)) if args.spread else 0.0
        print(
            f"{'surface_spread':<18} {spread:>7.3f} {s.value:>8.4f} "
            f"{f'[{s.low:.4f}, {s.high:.4f}]':>20}"
        )
    for name, e in fit.measured.items():  # the model has none: the truth is no loss
        print(
            f"{name:<18} {0:>7.4g} {e.value:>8.4f} {f'[{e.low:.4f}, {e.high:.4f}]':>20} "
            f"{e.value:>+8.4f}"
        )
    for w in fit.warnings:
        print(f"warning: {w}")
    print(f"counts: {fit.counts}")
    print(f"CPU s: render {t1 - t0:.1f}, track {t2 - t1:.1f}, fit {t3 - t2:.1f}")


if __name__ == "__main__":
    main()

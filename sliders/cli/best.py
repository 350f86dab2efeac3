"""``sliders best`` run: the search for the best shot and its report (its flags and help:
:mod:`sliders.cli.flags.best`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys

from sliders.ai.value import parse_score_boards
from sliders.batch.study import PARAMETERS, parse_spec
from sliders.cli.batch import _noise
from sliders.cli.outputs import check_pictures
from sliders.cli.params import physics_params
from sliders.cli.prepare import prepare_engine
from sliders.cli.table import table_from_args
from sliders.core.errors import UserError
from sliders.lab.search import Settings, at_edge, search
from sliders.physics import PhysicsParams, shot_limits
from sliders.pictures.studies import plot_board

MAX_FINAL = 1_000_000
"""the most fresh samples of the best shot (each row of their table is kept in memory)"""


def run(args: argparse.Namespace) -> int:

    params = physics_params(args)
    scene, layout, _ = table_from_args(args)
    seat = args.seat or scene.seats[0]
    layout.seat(seat)
    noise = _noise(args)
    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence:g}: must be within 0..1")
    if args.final < 2:
        raise UserError(f"--final {args.final}: need at least 2 samples for an interval")
    if args.final > MAX_FINAL:
        raise UserError(f"--final {args.final}: at most {MAX_FINAL:,} fresh samples (in memory)")
    box = {}
    for name in PARAMETERS:
        text = getattr(args, name)
        if text is None:
            continue
        spec = parse_spec(name, text)
        if spec.steps is not None and not spec.fixed:
            raise UserError(f"--{name} {text!r}: give a range LO:HI or one value (no steps)")
        box[name] = spec
    spot = parse_score_boards(args.score_board, scene.seats)
    check_pictures({"--board": args.board})
    settings = dataclasses.replace(Settings(), final=args.final)
    prepare_engine(args.engine)
    result = search(
        scene,
        seat,
        box,
        noise,
        spot=spot,
        params=params,
        seed=args.seed,
        pawn=args.pawn,
        settings=settings,
        confidence=args.confidence,
        engine=args.engine,
    )
    _warn_at_edges(result.best.shot, box, layout, seat, params, settings)
    if args.board:
        b = result.best
        plot_board(
            args.board,
            result.final_table,
            result.final_study,
            by="value",
            title=(
                f"best for {seat} on {scene.face}\n{b.shot[0]:.3g} m/s, {b.shot[1]:.3g}°, "
                f"offset {b.shot[2]:.3g} m, release {b.shot[3]:.3g} m\nchance of winning "
                f"{b.value:.1%} ({b.lo:.1%}..{b.hi:.1%})\n{b.n} fresh samples"
            ),
        )
    if args.json:
        print(
            json.dumps(
                {
                    "best": result.best.to_json(),
                    "runners_up": [e.to_json() for e in result.runners_up],
                    "simulations": result.simulations,
                    "confidence": result.confidence,
                    "seat": seat,
                    "face": scene.face,
                },
                indent=2,
            )
        )
        return 0
    pct = f"{args.confidence:.0%}"
    print(
        f"best shot for {seat} on {scene.face} ({result.simulations:,} simulations; values are "
        f"the seat's chance of winning after the shot, {pct} intervals from fresh samples)"
    )
    print(
        f"{'kind':<8} {'speed':>6} {'angle':>6} {'offset':>7} {'release':>7}  {'value':>6} "
        f"{pct + ' interval':>13} {'progress':>8} {'n':>4} {'penalty':>7}  outcomes"
    )
    for label, e in [("best", result.best), *(("", e) for e in result.runners_up)]:
        outcomes = ", ".join(
            f"{s} {p:.0%}" for s, p in sorted(e.statuses.items(), key=lambda kv: -kv[1])[:3]
        )
        print(
            f"{e.kind:<8} {e.shot[0]:6.3f} {e.shot[1]:6.2f} {e.shot[2]:7.4f} {e.shot[3]:7.3f}  "
            f"{e.value:6.1%} {f'{e.lo:.1%}..{e.hi:.1%}':>13} {e.progress:8.2f} {e.n:4d} "
            f"{e.p_penalty:7.1%}  "
            f"{outcomes}{'  ← best' if label == 'best' else ''}"
        )
    if args.board:
        print(f"wrote {args.board}")
    return 0


def _warn_at_edges(
    shot: tuple[float, ...],
    box: dict,
    layout,  # noqa: ANN001 - the scene's layout
    seat: str,
    params: PhysicsParams,
    settings: Settings,
) -> None:
    """A warning on stderr for each range the user narrowed whose pick sits at its edge: the
    best shot may lie beyond it."""
    lim = shot_limits(layout, seat, params)
    units = {"speed": " m/s", "angle": "°", "offset": " m", "release": " m"}
    for name, spec in box.items():
        lo, hi = lim.bounds(name)
        if name == "angle":
            lo, hi = math.degrees(lo), math.degrees(hi)
        value = shot[PARAMETERS.index(name)]
        edge = at_edge(value, spec, (lo, hi), settings.coarse.get(name, 5))
        if edge is not None:
            print(
                f"warning: the best {name} {value:.3g}{units[name]} sits at the {edge} edge of "
                f"--{name} {spec.lo:g}:{spec.hi:g}; the legal range is {lo:g}:{hi:g} (widen it, "
                f"or leave --{name} out to search it all)",
                file=sys.stderr,
            )

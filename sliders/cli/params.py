"""``sliders params`` run: prints the physics parameters, the geometry and the faces (its flags and
help: :mod:`sliders.cli.flags.params`)."""

from __future__ import annotations

import argparse
import json

from sliders.boards import BUILTIN_FACES
from sliders.boards.layout import FOUL_DISTANCE, RAIL_THICKNESS, TRACK_LENGTH, TRACK_WIDTH
from sliders.core.fileio import write_text_atomic
from sliders.core.outcome import ENGINES
from sliders.physics import DEFAULT_ENGINE, PhysicsParams, engine_version
from sliders.physics.params import MAX_STEPS, load_params


def physics_params(args: argparse.Namespace) -> PhysicsParams:
    """The parameters a command runs with: ``--params FILE`` (else the defaults), then each
    ``--param NAME=VALUE``."""
    path = getattr(args, "params", None)
    base = load_params(path) if path else PhysicsParams.default()
    return base.with_overrides(getattr(args, "param", []) or [])


def run(args: argparse.Namespace) -> int:

    params = physics_params(args)
    if args.save:
        write_text_atomic(args.save, params.to_toml("written by sliders params --save"))
        print(f"wrote {args.save}")
        return 0
    geometry = {
        "track_length": TRACK_LENGTH,
        "track_width": TRACK_WIDTH,
        "foul_distance": FOUL_DISTANCE,
        "rail_thickness": RAIL_THICKNESS,
    }
    faces = {name: f.to_json() for name, f in BUILTIN_FACES.items()}
    engines = {"default": DEFAULT_ENGINE, "choices": list(ENGINES), "version": engine_version()}
    if args.json:
        ranges = {name: legal.to_json() for name, _, legal, _ in params.describe()}
        out = {
            "engine": engines,
            "physics": params.to_json(),
            "ranges": ranges,
            "geometry": geometry,
            "faces": faces,
        }
        print(json.dumps(out, indent=2, allow_nan=False))
        return 0
    print(
        f"engine: {DEFAULT_ENGINE} by default (sliders {engines['version']}); "
        f"--engine {'|'.join(ENGINES)} on shot, batch, play, best and tournament"
    )
    print("physics (override with --param NAME=VALUE; values outside the range are refused)")
    rows = [("name", "value", "legal range", "meaning")]  # columns as wide as their widest cell
    rows += [(name, f"{v:.6g}", str(legal), doc) for name, v, legal, doc in params.describe()]
    wn, wv, wl = (max(len(r[i]) for r in rows) for i in range(3))
    for name, shown, legal, doc in rows:
        print(f"  {name:<{wn}}  {shown:<{wv}}  {legal:<{wl}}  {doc}")
    print(
        f"  combined limit: max_time/dt ≤ {MAX_STEPS:,} steps. Every other bound holds whatever "
        "the rest are (the pymunk engine splits dt into steps of at most pawn_radius/max_speed)"
    )
    print("geometry (m)")
    for name, value in geometry.items():
        print(f"  {name:<22} {value}")
    for name, f in BUILTIN_FACES.items():
        rings = ", ".join(f"{p}: r<{r}" for r, p in f.rings)
        extra = []
        if f.hole_radius:
            extra.append(f"hole r={f.hole_radius}")
        if f.choice_radius:
            extra.append(f"4/5/6 circle r={f.choice_radius}")
        if f.dots:
            extra.append(f"{len(f.dots)} danger dots r={f.dots[0].radius}")
        print(
            f"face {name}: side {f.side}, rings {rings}, elsewhere {f.base_points}, "
            f"SORRY! corners r={f.sorry_radius}" + "".join(f", {e}" for e in extra)
        )
    return 0

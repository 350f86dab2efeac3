"""Print the physics and geometry defaults (the numbers every simulation uses)."""

from __future__ import annotations

import argparse
import json


def add_arguments(p: argparse.ArgumentParser) -> None:
    from sliders.boards.cliargs import add_param_argument

    add_param_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from sliders.boards import BUILTIN_FACES
    from sliders.boards.layout import FOUL_DISTANCE, RAIL_THICKNESS, TRACK_LENGTH, TRACK_WIDTH
    from sliders.physics import PhysicsParams

    params = PhysicsParams.default().with_overrides(args.param)
    geometry = {
        "track_length": TRACK_LENGTH,
        "track_width": TRACK_WIDTH,
        "foul_distance": FOUL_DISTANCE,
        "rail_thickness": RAIL_THICKNESS,
    }
    faces = {name: f.to_json() for name, f in BUILTIN_FACES.items()}
    if args.json:
        print(
            json.dumps(
                {"physics": params.to_json(), "geometry": geometry, "faces": faces}, indent=2
            )
        )
        return 0
    print("physics (override with --param NAME=VALUE)")
    for name, value, doc in params.describe():
        print(f"  {name:<22} {value!s:<22} {doc}")
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

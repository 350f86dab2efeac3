"""``sliders shot`` run: simulates the shot and prints, saves or draws the table after it (its
flags and help: :mod:`sliders.cli.flags.shot`)."""

from __future__ import annotations

import argparse
import json
import sys

from sliders.cli.outputs import check_pictures
from sliders.cli.params import physics_params
from sliders.cli.prepare import prepare_engine
from sliders.cli.table import table_from_args
from sliders.files.scenes import Scene, ScenePawn
from sliders.physics import Setup, Shot, Simulation, shot_limits, start
from sliders.pictures.table import render_png


def run(args: argparse.Namespace) -> int:

    params = physics_params(args)
    scene, layout, face = table_from_args(args)
    seat = args.seat or scene.seats[0]
    shot_limits(layout, seat, params).check_ranges(
        {"speed": args.speed, "angle": args.angle, "offset": args.offset, "release": args.release}
    )
    check_pictures({"--png": args.png})
    prepare_engine(args.engine)  # before the engine is first used: it may compile
    shot = Shot.from_degrees(
        seat,
        args.speed,
        args.angle,
        offset=args.offset,
        release=args.release,
        pawn=args.pawn,
        seed=args.seed,
    )
    sim = start(Setup(layout, face, params, args.engine), scene.pawns, shot)
    paths: dict[str, list[tuple[float, float]]] = {}
    if args.png:
        _record_paths(sim, paths)
    else:
        sim.run()
    result = sim.result()

    if args.save_scene:
        kept = tuple(ScenePawn(p.id, p.x, p.y) for p in result.pawns if p.status.in_play)
        Scene(scene.layout, scene.seats, scene.face, kept).save(args.save_scene)
    if args.png:
        title = (
            f"{seat} {args.speed:g} m/s, {args.angle:g}°, offset {args.offset:g} m · {face.name}"
        )
        render_png(args.png, layout, face, result.pawns, paths, params.pawn_radius, title)
    written = [w for w in (args.save_scene, args.png) if w]

    if args.json:
        out = result.to_json()
        out["params"] = params.to_json()
        out["engine"], out["sliders_version"] = result.engine, result.version
        out["shot"] = {
            "seat": seat,
            "speed": args.speed,
            "angle": args.angle,
            "offset": args.offset,
            "release": args.release,
            "seed": args.seed,
        }
        out["layout"], out["seats"] = scene.layout, list(scene.seats)
        print(json.dumps(out, indent=2))
        if written:  # stdout holds the JSON object alone
            print(f"wrote {', '.join(written)}", file=sys.stderr)
        return 0
    ended = "settled after" if result.settled else "TIMED OUT (still moving) at"
    print(
        f"{result.shooter} slid at {args.speed:g} m/s, {args.angle:g}°, offset {args.offset:g} m"
        f" on {face.name}; {ended} {result.settle_time:.3f} s ({result.engine} engine)"
    )
    print(f"{'pawn':<9} {'x':>8} {'y':>8}  {'status':<13} points")
    for p in result.pawns:
        pts = "/".join(map(str, p.choices)) if len(p.choices) > 1 else str(p.points)
        print(f"{p.id:<9} {p.x:8.4f} {p.y:8.4f}  {p.status!s:<13} {pts}")
    print("events:")
    for e in result.events:
        extra = f" impulse {e.impulse:.4f} N·s" if e.impulse else ""
        print(f"  {e.t:7.3f} s  {e.type!s:<13} {' '.join(e.pawns)}{extra}".rstrip())
    if written:
        print(f"wrote {', '.join(written)}")
    return 0


def _record_paths(sim: Simulation, paths: dict[str, list[tuple[float, float]]]) -> None:
    every, steps = 4, 0
    for pid, (x, y, _) in sim.positions().items():
        paths[pid] = [(x, y)]
    while sim.moving:
        sim.step()
        steps += 1
        if steps % every == 0 or not sim.moving:
            for pid, (x, y, _) in sim.positions().items():
                paths.setdefault(pid, []).append((x, y))
    for pid, rest in sim.removed.items():
        if pid in paths:
            paths[pid].append((rest.x, rest.y))

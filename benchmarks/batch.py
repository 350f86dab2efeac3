"""Batch throughput: shots per second per core on an empty board and on a 15-pawn board, the
parallel efficiency on all cores, and the ratio against a plain pymunk loop on the same shots.

The plain loop is what one would write without this project: a new pymunk Space per shot with
circle bodies and the layout's rail segments, rolling friction applied as a Python velocity update
every step, and a Python check every step for rest and for pawns leaving the table.

Run: python benchmarks/batch.py [--shots N] [--workers N]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
import pymunk

from sliders.batch import Design, Study, empty_scene, run_study
from sliders.batch.runners import cpu_count
from sliders.boards import classify, surface_at
from sliders.boards.scene import Scene, ScenePawn
from sliders.outcome import SEATS
from sliders.physics import Noise, PhysicsParams


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=10_000,
                    help="shots per measurement (default 10000)")  # fmt: skip
    ap.add_argument(
        "--plain-shots",
        type=int,
        default=1_500,
        help="the plain loop's rate is measured on N of them, spread evenly (default 1500)",
    )
    ap.add_argument("--workers", type=int, default=cpu_count(), help="cores for the parallel run")
    args = ap.parse_args()

    load_before = os.getloadavg()[0]
    boards = {"empty board": empty_study(args.shots), "15-pawn board": crowded_study(args.shots)}
    rows = []
    for name, study in boards.items():
        one = timed(study, 1)
        many = timed(study, args.workers)
        plain_rate, agree = plain_loop(study, one.table, args.plain_shots)
        rows.append((name, study.n_shots, one, many, plain_rate, agree))

    print(f"{'':<14} {'shots':>6} {'shots/s/core':>13} {'plain loop':>11} {'speed-up':>9} "
          f"{'same status':>12} {f'shots/s ({args.workers} cores)':>20} {'efficiency':>11}")  # fmt: skip
    for name, n, one, many, plain_rate, agree in rows:
        r1 = one.n_shots / one.elapsed
        rn = many.n_shots / many.elapsed
        eff = rn / (args.workers * r1)
        print(
            f"{name:<14} {n:>6} {r1:>13,.0f} {plain_rate:>11,.0f} {r1 / plain_rate:>8.1f}× "
            f"{agree:>11.0%} {rn:>20,.0f} {eff:>10.0%}"
        )
    print(
        f"\nload average (1 min) before/after: {load_before:.2f}/{os.getloadavg()[0]:.2f} on "
        f"{cpu_count()} cores: other work on the machine lowers the parallel figures."
    )
    print(
        "shots/s/core: one worker in this process; plain loop: Space per shot, Python friction "
        "and rest checks, same executed shots;\nefficiency: rate on all cores / (cores × rate on "
        "one), worker start-up included; same status: share of shots whose shot pawn ends in "
        "the same rest status in both models."
    )


def empty_study(shots: int) -> Study:
    design = Design.grid(speed="0.4:1.2:10", angle="-6:6:5")
    return Study.create(empty_scene(), "south", design, max(1, shots // 50), Noise.level("medium"))


def crowded_study(shots: int) -> Study:
    """South has three pawns on the table and slides its fourth; the other seats have four each."""
    spots = [(x, y) for y in (-0.075, -0.025, 0.025, 0.075) for x in (-0.075, -0.025, 0.025, 0.075)]
    ids = [f"{s}-{k}" for s in SEATS for k in range(1, 5) if (s, k) != ("south", 4)]
    pawns = tuple(ScenePawn(pid, x, y) for pid, (x, y) in zip(ids, spots[:15], strict=True))
    scene = Scene("square", SEATS, "race-for-home", pawns)
    design = Design.grid(speed="0.4:1.2:10", angle="-6:6:5")
    return Study.create(scene, "south", design, max(1, shots // 50), Noise.level("medium"))


def timed(study: Study, workers: int):  # noqa: ANN201
    return run_study(study, workers=workers)


def plain_loop(study: Study, table: dict[str, np.ndarray], limit: int) -> tuple[float, float]:
    """Shots per second of the plain loop on ``limit`` executed shots of ``table`` spread evenly
    over it, and the share of them whose shot pawn ends in the same rest status as in the
    project's model."""
    from sliders.batch.work import STATUSES

    ctx = study.context
    layout, face = ctx.build()
    p = ctx.params
    seat = layout.seat(ctx.seat)
    total = len(table["shot"])
    n = min(total, limit)
    rows = np.linspace(0, total - 1, n).round().astype(int)  # spread over the whole design
    same = 0
    t0 = time.perf_counter()
    for r in (int(i) for i in rows):
        x, y = seat.to_world(float(table["exec_release"][r]), float(table["exec_offset"][r]))
        a = math.radians(float(table["exec_angle"][r]))
        v = float(table["exec_speed"][r])
        (fx, fy), (rx, ry) = seat.forward, seat.right
        vel = (v * (fx * math.cos(a) + rx * math.sin(a)), v * (fy * math.cos(a) + ry * math.sin(a)))
        status = _plain_shot(layout, face, ctx.scene.pawns, ctx.seat, (x, y), vel, p)
        same += status is STATUSES[table["status"][r]]
    return n / (time.perf_counter() - t0), same / n


def _plain_shot(layout, face, table, seat, start, vel, p: PhysicsParams):  # noqa: ANN001, ANN202
    space = pymunk.Space()
    space.iterations = p.iterations
    space.collision_slop = p.collision_slop
    for rail in layout.rails:
        seg = pymunk.Segment(space.static_body, rail.a, rail.b, rail.thickness / 2)
        seg.elasticity = math.sqrt(p.restitution_rail)
        space.add(seg)
    bodies = []
    for pos, v in [(start, vel), *(((q.x, q.y), (0.0, 0.0)) for q in table)]:
        body = pymunk.Body(p.pawn_mass, pymunk.moment_for_circle(p.pawn_mass, 0, p.pawn_radius))
        body.position, body.velocity = pos, v
        shape = pymunk.Circle(body, p.pawn_radius)
        shape.elasticity = math.sqrt(p.restitution_pawn)
        space.add(body, shape)
        bodies.append(body)
    shooter = bodies[0]
    decel = p.mu_roll * p.g * p.dt
    off = False
    for _ in range(int(p.max_time / p.dt)):
        moving = False
        for body in list(bodies):
            vx, vy = body.velocity
            speed = math.hypot(vx, vy)
            if speed <= decel:
                body.velocity = (0.0, 0.0)
            else:
                k = (speed - decel) / speed
                body.velocity = (vx * k, vy * k)
                moving = True
        space.step(p.dt)
        for body in list(bodies):
            if surface_at(layout, *body.position) is None:
                space.remove(body, *body.shapes)
                bodies.remove(body)
                off = off or body is shooter
        if not moving:
            break
    if off:
        from sliders.outcome import Status

        return Status.OFF_BOARD
    return classify(layout, face, seat, *shooter.position, p.pawn_radius).status


if __name__ == "__main__":
    main()

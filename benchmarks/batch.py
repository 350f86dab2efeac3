"""Batch throughput of both engines: shots per second per core on an empty board and on a 15-pawn
board, the exact engine's parallel efficiency on all cores, and the ratios against the pymunk
engine and a plain pymunk loop, all measured in one run.

Parallel efficiency is throughput on W workers / (W × throughput on one), wall clock: run it on a
machine as quiet as you can (the load average is printed; other work lowers it).

The plain loop is what one would write without this project: a new pymunk Space per shot with
circle bodies and the layout's rail segments, rolling friction applied as a Python velocity update
every step, and a Python check every step for rest and for pawns leaving the table.

Run: python benchmarks/batch.py [--shots N] [--workers N]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pymunk

from sliders.batch import Design, Study, empty_scene, run_study
from sliders.batch.runners import EXACT_CHUNK, cpu_count
from sliders.boards import classify, surface_at
from sliders.core.outcome import SEATS
from sliders.files.scenes import Scene, ScenePawn
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
    ap.add_argument(
        "--exact-empty-shots",
        type=int,
        default=2_000_000,
        help="shots of the exact engine's empty-board runs (default 2000000)",
    )
    ap.add_argument("--exact-crowded-shots", type=int, default=200_000,
                    help="shots of the exact engine's 15-pawn runs (default 200000)")  # fmt: skip
    args = ap.parse_args()

    load_before = os.getloadavg()[0]
    # the fork server that starts the workers is started once per process, and imports the
    # chunk code and loads the compiled kernels once; measured here, then left out of the rates
    # (as the one worker's own loading of the kernels is)
    started = time.perf_counter()
    timed(empty_study(args.workers * EXACT_CHUNK, engine="exact"), args.workers)
    server_start = time.perf_counter() - started
    rows = []
    for name, make, exact_shots in (
        ("empty board", empty_study, args.exact_empty_shots),
        ("15-pawn board", crowded_study, args.exact_crowded_shots),
    ):
        study = make(args.shots)
        one = timed(study, 1)
        plain_rate, agree = plain_loop(study, one.table, args.plain_shots)
        rows.append((name, "pymunk", study.n_shots, one, None, plain_rate, agree))
        exact = make(exact_shots, engine="exact")
        timed(make(1_000, engine="exact"), 1)  # compile or load the kernels in this process
        one_x = timed(exact, 1)
        many_x = timed(exact, args.workers)
        rows.append((name, "exact", exact.n_shots, one_x, many_x, plain_rate, None))

    print(f"{'':<14} {'engine':<7} {'shots':>9} {'shots/s/core':>13} {'cpu shots/s':>12} "
          f"{'plain loop':>11} {'× plain':>8} {'× pymunk':>9} {'same status':>12} "
          f"{f'shots/s ({args.workers} cores)':>20} {'efficiency':>11} {'cpu efficiency':>14}")  # fmt: skip
    pymunk_rate = 0.0
    for name, engine, n, one, many, plain_rate, agree in rows:
        r1 = one.n_shots / one.elapsed
        c1 = one.n_shots / one.cpu
        if engine == "pymunk":
            pymunk_rate = c1
        line = (f"{name:<14} {engine:<7} {n:>9,} {r1:>13,.0f} {c1:>12,.0f} {plain_rate:>11,.0f} "
                f"{c1 / plain_rate:>7.1f}× {c1 / pymunk_rate:>8.1f}× "
                f"{'' if agree is None else f'{agree:.0%}':>12}")  # fmt: skip
        if many is not None:
            rn = many.n_shots / many.elapsed
            eff = rn / (args.workers * r1)
            cpu_eff = (many.n_shots / many.cpu) / c1
            line += f" {rn:>20,.0f} {eff:>10.0%} {cpu_eff:>14.0%}"
        print(line)
    print(
        "shots/s/core: one worker in this process (wall clock); cpu shots/s: the same per second "
        "of process time, which other work on the machine does not lower (ratios use it);\n"
        "plain loop: Space per shot, Python friction and rest checks, same executed shots (cpu);\n"
        "efficiency: rate on all cores / (cores × rate on one), wall clock, starting the "
        "workers included (they fork from the fork server with the kernels loaded);\n"
        f"the fork server's own start, once per process (imports, kernels loaded): "
        f"{server_start:.2f} s, measured first and left out;\n"
        "cpu efficiency: shots per second of processor time (this process and the workers) on "
        "all cores / the same on one: the cost of running in parallel, which other work on the "
        "machine does not lower;\n"
        "same status: share of shots whose shot pawn ends in the same rest status in "
        "the plain loop and the pymunk engine."
    )
    print(
        f"\nload average (1 min) before/after: {load_before:.2f}/{os.getloadavg()[0]:.2f} on "
        f"{cpu_count()} cores: other work on the machine lowers the wall-clock figures."
    )


@dataclass
class Timed:
    n_shots: int
    elapsed: float
    cpu: float
    table: dict[str, np.ndarray]


def empty_study(shots: int, engine: str = "pymunk") -> Study:
    design = Design.grid(speed="0.4:1.2:10", angle="-6:6:5")
    return Study.create(empty_scene(), "south", design, max(1, shots // 50), Noise.level("medium"),
                        engine=engine)  # fmt: skip


def crowded_study(shots: int, engine: str = "pymunk") -> Study:
    """South has three pawns on the table and slides its fourth; the other seats have four each."""
    spots = [(x, y) for y in (-0.075, -0.025, 0.025, 0.075) for x in (-0.075, -0.025, 0.025, 0.075)]
    ids = [f"{s}-{k}" for s in SEATS for k in range(1, 5) if (s, k) != ("south", 4)]
    pawns = tuple(ScenePawn(pid, x, y) for pid, (x, y) in zip(ids, spots[:15], strict=True))
    scene = Scene("square", SEATS, "race-for-home", pawns)
    design = Design.grid(speed="0.4:1.2:10", angle="-6:6:5")
    return Study.create(scene, "south", design, max(1, shots // 50), Noise.level("medium"),
                        engine=engine)  # fmt: skip


def timed(study: Study, workers: int) -> Timed:
    """Wall clock and process time (of this process and its finished workers) of a run."""

    def cpu() -> float:
        me, kids = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    c0 = cpu()
    before = _descendants()
    seen: dict[int, float] = {}

    def sample(done: int, total: int) -> None:  # after each chunk, while the workers are up
        seen.update(_descendants())

    result = run_study(study, workers=workers, on_chunk=sample)
    # the workers are children of the fork server, not of this process: their processor time is
    # read from /proc after each chunk (what they spend after the last chunk is not counted)
    workers_cpu = sum(t - before.get(pid, 0.0) for pid, t in seen.items())
    return Timed(result.n_shots, result.elapsed, cpu() - c0 + workers_cpu, result.table)


def _descendants() -> dict[int, float]:
    """Processor seconds used so far by every descendant process of this one (Linux /proc)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    me, found, frontier = os.getpid(), {}, [os.getpid()]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found and pid != me:
                found[pid] = times[pid]
                frontier.append(pid)
    return found


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
    t0 = time.process_time()
    for r in (int(i) for i in rows):
        x, y = seat.to_world(float(table["exec_release"][r]), float(table["exec_offset"][r]))
        a = math.radians(float(table["exec_angle"][r]))
        v = float(table["exec_speed"][r])
        (fx, fy), (rx, ry) = seat.forward, seat.right
        vel = (v * (fx * math.cos(a) + rx * math.sin(a)), v * (fy * math.cos(a) + ry * math.sin(a)))
        status = _plain_shot(layout, face, ctx.scene.pawns, ctx.seat, (x, y), vel, p)
        same += status is STATUSES[table["status"][r]]
    return n / (time.process_time() - t0), same / n


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
        from sliders.core.outcome import Status

        return Status.OFF_BOARD
    return classify(layout, face, seat, *shooter.position, p.pawn_radius).status


if __name__ == "__main__":
    main()

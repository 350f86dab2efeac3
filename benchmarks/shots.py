"""Single-shot throughput of both engines, beside a plain pymunk step loop.

    python benchmarks/shots.py [--shots N] [--repeats K]

The exact engine is timed one ``simulate(..., engine="exact")`` per shot and as one batch call
(:func:`sliders.physics.exact.batch.simulate_batch`); the pymunk engine with its closed-form finish
and with every step; all on the same shots, in turns, in one run.

Prints shots per second (median of K runs) on an empty square board and on a board with 15 pawns
at rest, with the closed-form finish for a lone free-rolling pawn (``run()``'s default) and with
every step through Chipmunk, and the cost per simulated step against a bare pymunk loop that
steps one free body with the same dt and iterations (the floor any pymunk simulation pays), all
measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pymunk

from sliders.boards import face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Setup, Shot, simulate, start
from sliders.physics.exact import ensure_compiled
from sliders.physics.exact.batch import simulate_batch


def fifteen_pawns() -> list[PawnRest]:
    """15 pawns at rest spread over the board, none on the south lane's axis near the mouth."""
    rng = np.random.default_rng(3)
    seats = ["west", "north", "east", "south"]
    placed: list[PawnRest] = []
    counts = dict.fromkeys(seats, 0)
    while len(placed) < 15:
        x, y = rng.uniform(-0.1, 0.1, 2)
        if any(np.hypot(x - p.x, y - p.y) < 0.03 for p in placed):
            continue
        seat = seats[len(placed) % 4]
        if counts[seat] >= (3 if seat == "south" else 4):
            seat = next(s for s in seats if counts[s] < (3 if s == "south" else 4))
        counts[seat] += 1
        placed.append(
            PawnRest(f"{seat}-{counts[seat]}", seat, float(x), float(y), Status.ON_TARGET)
        )
    return placed


def shots(n: int, rng: np.random.Generator) -> list[Shot]:
    speeds = rng.uniform(0.45, 0.75, n)
    angles = rng.uniform(-3, 3, n)
    return [
        Shot.from_degrees("south", float(v), float(a)) for v, a in zip(speeds, angles, strict=True)
    ]


def time_shots(table: list[PawnRest], batch: list[Shot], coast: bool) -> tuple[float, int, int]:
    """Seconds for the batch in the pymunk engine, simulated steps, and shots finished in closed
    form."""
    setup = Setup(square("south,west,north,east"), face("race-for-home"), engine="pymunk")
    dt = PhysicsParams.default().dt
    steps = coasted = 0
    t0 = time.process_time()
    for shot in batch:
        sim = start(setup, table, shot)
        sim.coast = coast  # type: ignore[attr-defined]
        sim.run()
        result = sim.result()
        steps += round(result.settle_time / dt)
        coasted += sim.coasted  # type: ignore[attr-defined]
    return time.process_time() - t0, steps, coasted


def bare_pymunk_steps(n_steps: int) -> float:
    """Seconds per step of a bare pymunk space with one moving body."""
    p = PhysicsParams.default()
    space = pymunk.Space()
    space.iterations = p.iterations
    body = pymunk.Body(p.pawn_mass, pymunk.moment_for_circle(p.pawn_mass, 0, p.pawn_radius))
    space.add(body, pymunk.Circle(body, p.pawn_radius))
    body.velocity = (0.0, 0.001)
    start = time.process_time()
    for _ in range(n_steps):
        space.step(p.dt)
    return (time.process_time() - start) / n_steps


def time_exact(table: list[PawnRest], batch: list[Shot]) -> float:
    """Seconds of process time for the batch in the exact engine, one simulate() per shot."""
    setup = Setup(square("south,west,north,east"), face("race-for-home"), engine="exact")
    t0 = time.process_time()
    for shot in batch:
        simulate(setup, table, shot)
    return time.process_time() - t0


def time_exact_batch(table: list[PawnRest], batch: list[Shot]) -> float:
    """Seconds of process time for the batch in one compiled call (the batch path)."""
    layout, board = square("south,west,north,east"), face("race-for-home")
    speed = np.array([s.speed for s in batch])
    angle = np.array([s.angle for s in batch])
    start = time.process_time()
    simulate_batch(layout, board, table, "south", speed, angle, np.zeros(len(batch)))
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shots", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    batch = shots(args.shots, rng)
    tables = {"empty board": [], "15 pawns at rest": fifteen_pawns()}
    time_shots([], batch[:20], True)  # warm up: imports, caches
    ensure_compiled()
    time_exact(fifteen_pawns(), batch[:20])
    time_exact_batch(fifteen_pawns(), batch[:20])
    bare = statistics.median(bare_pymunk_steps(20_000) for _ in range(args.repeats))
    print(
        "process time per core (other work on the machine does not count), medians of "
        f"{args.repeats} runs taken in turns; × pymunk: against the pymunk engine in this run"
    )
    print(f"{'board':<18} {'engine / mode':<26} {'shots/s':>10} {'steps/shot':>11} "
          f"{'closed form':>12} {'µs/step':>9} {'× bare step':>12} {'× pymunk':>9}")  # fmt: skip
    for name, table in tables.items():
        # everything takes turns, so drift in the machine's speed hits all alike
        runs: dict[str, list] = {"coast": [], "step": [], "exact": [], "exact batch": []}
        for _ in range(args.repeats):
            runs["coast"].append(time_shots(table, batch, True))
            runs["step"].append(time_shots(table, batch, False))
            runs["exact"].append(time_exact(table, batch))
            runs["exact batch"].append(time_exact_batch(table, batch))
        pymunk_s = statistics.median(r[0] for r in runs["coast"])
        for mode, key in (("pymunk, closed-form finish", "coast"), ("pymunk, every step", "step")):
            seconds = statistics.median(r[0] for r in runs[key])
            steps, coasted = runs[key][0][1], runs[key][0][2]
            per_step = seconds / steps
            print(f"{name:<18} {mode:<26} {args.shots / seconds:10.0f} {steps / args.shots:11.0f} "
                  f"{coasted / args.shots:12.0%} {per_step * 1e6:9.2f} {per_step / bare:12.2f} "
                  f"{pymunk_s / seconds:9.2f}")  # fmt: skip
        steps = runs["step"][0][1]
        plain = steps * bare
        print(f"{name:<18} {'plain pymunk loop (est.)':<26} {args.shots / plain:10.0f} "
              f"{steps / args.shots:11.0f} {'':>12} {bare * 1e6:9.2f} {1.0:12.2f} "
              f"{pymunk_s / plain:9.2f}")  # fmt: skip
        for mode, key in (
            ("exact, simulate() a shot", "exact"),
            ("exact, batch call", "exact batch"),
        ):
            seconds = statistics.median(runs[key])
            print(f"{name:<18} {mode:<26} {args.shots / seconds:10.0f} {'':>11} {'':>12} "
                  f"{'':>9} {'':>12} {pymunk_s / seconds:9.2f}")  # fmt: skip
    print(
        "plain pymunk loop (est.): the shots' steps × a bare pymunk step (one free body, same "
        "dt and iterations) — the floor any stepping simulation pays"
    )


if __name__ == "__main__":
    main()

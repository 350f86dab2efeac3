"""Single-shot throughput of sliders.physics.simulate, beside a plain pymunk step loop.

    python benchmarks/shots.py [--shots N] [--repeats K]

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

from sliders.boards import face, square
from sliders.outcome import PawnRest, Status
from sliders.physics import PhysicsParams, Shot, Simulation


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
    """Seconds for the batch, simulated steps, and shots finished in closed form."""
    layout, board = square("south,west,north,east"), face("race-for-home")
    dt = PhysicsParams.default().dt
    steps = coasted = 0
    start = time.perf_counter()
    for shot in batch:
        sim = Simulation(layout, board, table, shot)
        sim.coast = coast
        sim.run()
        result = sim.result()
        steps += round(result.settle_time / dt)
        coasted += sim.coasted
    return time.perf_counter() - start, steps, coasted


def bare_pymunk_steps(n_steps: int) -> float:
    """Seconds per step of a bare pymunk space with one moving body."""
    p = PhysicsParams.default()
    space = pymunk.Space()
    space.iterations = p.iterations
    body = pymunk.Body(p.pawn_mass, pymunk.moment_for_circle(p.pawn_mass, 0, p.pawn_radius))
    space.add(body, pymunk.Circle(body, p.pawn_radius))
    body.velocity = (0.0, 0.001)
    start = time.perf_counter()
    for _ in range(n_steps):
        space.step(p.dt)
    return (time.perf_counter() - start) / n_steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shots", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    batch = shots(args.shots, rng)
    tables = {"empty board": [], "15 pawns at rest": fifteen_pawns()}
    time_shots([], batch[:20], True)  # warm up: imports, caches
    bare = statistics.median(bare_pymunk_steps(20_000) for _ in range(args.repeats))
    print(f"{'board':<18} {'mode':<14} {'shots/s':>9} {'steps/shot':>11} {'closed form':>12} "
          f"{'µs/step':>9} {'× bare step':>12}")  # fmt: skip
    for name, table in tables.items():
        # the two modes take turns, so drift in the machine's speed hits both alike
        runs: dict[bool, list[tuple[float, int, int]]] = {True: [], False: []}
        for _ in range(args.repeats):
            for coast in (True, False):
                runs[coast].append(time_shots(table, batch, coast))
        for mode, coast in (("closed form", True), ("every step", False)):
            seconds = statistics.median(r[0] for r in runs[coast])
            steps, coasted = runs[coast][0][1], runs[coast][0][2]
            per_step = seconds / steps
            print(
                f"{name:<18} {mode:<14} {args.shots / seconds:9.0f} {steps / args.shots:11.0f} "
                f"{coasted / args.shots:12.0%} {per_step * 1e6:9.2f} {per_step / bare:12.2f}"
            )
    print(
        f"{'bare pymunk step':<18} {'':<14} {'':>9} {'':>11} {'':>12} {bare * 1e6:9.2f} {1.0:12.2f}"
    )


if __name__ == "__main__":
    main()

"""Shots into pawns standing touching or nearly touching: every one finishes, in both engines.

    python benchmarks/touching.py [--shots 3000] [--seed 2026] [--engines pymunk,exact]
                                  [--limit 60]

A fixed corpus: clusters and chains of 2–15 pawns at rest on the square 4-seat board (half on
race-for-home, half on instant-home, where the hole is under the centre), each pawn placed at a
gap from one already placed drawn from 0 (touching), the legal overlap of 1e-9 m, and 1e-12 to
1e-4 m (Chipmunk's collision slop), and a shot from the south foul line at 0.1–3 m/s aimed at one
of them; one shot in five runs at a step drawn from the legal range of ``dt``.

Each engine runs the corpus in a worker process watched by this one: a shot that does not
return within ``--limit`` seconds of wall time is a *hang*; the worker is killed and the next
shot runs in a fresh one. Prints, per engine, the shots run, the hangs (with their indices, to
run again), the shots that timed out (the physics' own ``max_time``), and the time taken.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass, replace

import numpy as np

from sliders.boards import face
from sliders.boards.geometry import check_pawns
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Setup, Shot, simulate
from sliders.physics.params import ranges

LAYOUT = square("south,west,north,east")
FACES = ("race-for-home", "instant-home")
OTHERS = ("west", "north", "east")
GAPS = (0.0, -1e-9, 1e-12, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4)
"""the gaps a pawn is placed at from one already placed (besides log-uniform draws), m"""


@dataclass(frozen=True)
class Case:
    face: str
    table: tuple[PawnRest, ...]
    shot: Shot
    dt: float


def _gap(rng: np.random.Generator) -> float:
    if rng.random() < 0.6:
        return float(GAPS[int(rng.integers(len(GAPS)))])
    return float(10 ** rng.uniform(-12, -4))


def corpus(n: int, seed: int) -> list[Case]:
    """``n`` shots into touching pawns, the same for the same seed."""
    rng = np.random.default_rng(seed)
    p = PhysicsParams.default()
    r = p.pawn_radius
    seat = LAYOUT.seat("south")
    start = seat.to_world(seat.foul, 0.0)
    ids = [f"{s}-{k}" for s in OTHERS for k in range(1, 5)] + ["south-2", "south-3", "south-4"]
    lo, hi = ranges()["dt"].lo, ranges()["dt"].hi
    cases: list[Case] = []
    while len(cases) < n:
        count = int(rng.integers(2, 16))
        chain = rng.random() < 0.3  # a row of pawns roughly along the shot's line
        heading = float(rng.normal(0.0, 0.3)) + math.pi / 2
        x0, y0 = (float(v) for v in rng.uniform(-0.05, 0.05, 2))
        xy: list[tuple[float, float]] = [(x0, y0)]
        for _ in range(400):
            if len(xy) == count:
                break
            if chain:
                bx, by = xy[-1]
                angle = heading + float(rng.normal(0.0, 0.2))
            else:
                bx, by = xy[int(rng.integers(len(xy)))]
                angle = float(rng.uniform(0, 2 * math.pi))
            d = 2 * r + _gap(rng)
            x, y = bx + d * math.cos(angle), by + d * math.sin(angle)
            if abs(x) > 0.115 or abs(y) > 0.115:
                continue
            if any(math.hypot(x - qx, y - qy) < 2 * r - 1e-9 for qx, qy in xy):
                continue
            xy.append((x, y))
        order = rng.permutation(len(ids))[: len(xy)]
        table = tuple(
            PawnRest(ids[k], ids[k].rsplit("-", 1)[0], x, y, Status.ON_TARGET)
            for k, (x, y) in zip(order, xy, strict=True)
        )
        try:
            check_pawns(LAYOUT, table, r)
        except UserError:
            continue
        tx, ty = xy[int(rng.integers(len(xy)))]
        aim = math.atan2(tx - start[0], ty - start[1]) + float(rng.normal(0, 0.02))
        aim = max(min(aim, 1.2), -1.2)
        speed = float(rng.uniform(0.1, 3.0))
        dt = float(np.exp(rng.uniform(math.log(lo), math.log(hi)))) if rng.random() < 0.2 else p.dt
        dt = min(dt, r / p.max_speed)
        shot = Shot("south", speed, aim, pawn="south-1")
        cases.append(Case(FACES[len(cases) % 2], table, shot, dt))
    return cases


def run_case(case: Case, engine: str) -> bool:
    """Run one shot to its end; whether it settled (False: it timed out)."""
    params = PhysicsParams.default().replace(dt=case.dt)
    result = simulate(
        Setup(LAYOUT, face(case.face), params, engine), case.table, replace(case.shot, seed=0)
    )
    return result.settled


def _worker(engine: str, n: int, seed: int, first: int) -> None:
    """Run shots ``first``… of the corpus, one line of JSON on stdout as each starts and ends."""
    cases = corpus(n, seed)
    for i in range(first, n):
        print(json.dumps({"start": i}), flush=True)
        settled = run_case(cases[i], engine)
        print(json.dumps({"done": i, "settled": settled}), flush=True)


def campaign(
    engine: str, n: int, seed: int, limit: float
) -> tuple[list[int], list[int], int, float]:
    """Run the corpus in watched worker processes: (hung shots, timed-out shots, shots run,
    seconds)."""
    hung: list[int] = []
    timed_out: list[int] = []
    done = 0
    first = 0
    t0 = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    while first < n:
        args = [sys.executable, __file__, "--worker", engine, str(n), str(seed), str(first)]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, env=env)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        current, running, pending = first, False, b""
        while True:
            if b"\n" not in pending:
                # the limit runs while a shot does (starting a worker may take longer)
                if not sel.select(timeout=limit if running else 20 * limit):
                    proc.kill()
                    proc.wait()
                    if not running:
                        raise SystemExit(f"a worker did not start within {20 * limit:g} s")
                    hung.append(current)  # this shot hangs
                    first = current + 1
                    break
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    proc.wait()
                    if proc.returncode != 0:
                        raise SystemExit(f"worker failed at shot {current} ({proc.returncode})")
                    first = n
                    break
                pending += chunk
                continue
            line, pending = pending.split(b"\n", 1)
            msg = json.loads(line)
            running = "start" in msg
            if running:
                current = msg["start"]
            else:
                done += 1
                if not msg["settled"]:
                    timed_out.append(msg["done"])
        sel.close()
        proc.stdout.close()
    return hung, timed_out, done, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=3000, help="shots in the corpus (default 3000)")
    ap.add_argument("--seed", type=int, default=2026, help="the corpus' seed (default 2026)")
    ap.add_argument("--engines", default="pymunk,exact")
    ap.add_argument("--limit", type=float, default=60.0, help="wall seconds before a hang")
    ap.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        engine, n, seed, first = args.worker
        _worker(engine, int(n), int(seed), int(first))
        return
    cases = corpus(args.shots, args.seed)
    sizes = [len(c.table) for c in cases]
    touching = sum(
        any(
            math.hypot(a.x - b.x, a.y - b.y) <= 2 * PhysicsParams.default().pawn_radius
            for i, a in enumerate(c.table)
            for b in c.table[i + 1 :]
        )
        for c in cases
    )
    print(
        f"corpus: {len(cases)} shots (seed {args.seed}), {min(sizes)}–{max(sizes)} pawns at rest "
        f"(mean {np.mean(sizes):.1f}), {touching} with a pair exactly touching or overlapping "
        f"by up to 1e-9 m, {sum(c.dt != PhysicsParams.default().dt for c in cases)} at another dt"
    )
    print(f"{'engine':>8} {'shots':>6} {'hangs':>6} {'timed out':>10} {'s (wall)':>9}  hung shots")
    for engine in args.engines.split(","):
        hung, timed_out, done, seconds = campaign(engine, args.shots, args.seed, args.limit)
        shown = ", ".join(map(str, hung[:20])) + (" …" if len(hung) > 20 else "")
        print(f"{engine:>8} {done:>6} {len(hung):>6} {len(timed_out):>10} {seconds:>9.1f}  {shown}")


if __name__ == "__main__":
    main()

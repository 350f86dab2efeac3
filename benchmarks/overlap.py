"""No shot leaves pawns overlapping at rest: random crowded tables on every face, in both engines.

    python benchmarks/overlap.py [--shots 2000] [--seed 2026] [--engines exact,pymunk]

A fixed corpus per face: 1–7 pawns at rest on the square 4-seat board (half of them crowded
around the centre, where the faces with a hole have it), and a shot from a random seat at
0.1–2 m/s, up to 25° off the lane's axis, from anywhere across the lane. Each shot is solved to
rest; at rest, a pawn on the table may overlap another pawn or a rail by at most ``LIMIT``.

Prints, per face and engine, the shots run, how many left an overlap above ``LIMIT``, how many
left a rest the next shot refuses as its table (any overlap beyond 1e-9 m), how many timed out,
the worst pawn–pawn and pawn–rail overlap (mm) and the time taken; then the worst shot of each
(face, engine) that broke the limit, with its index in the corpus, so it can be run again.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, replace

import numpy as np

from sliders.boards import FACES, face, segment_distance
from sliders.boards.geometry import check_pawns
from sliders.core.errors import UserError
from sliders.core.outcome import ENGINES, PawnRest, ShotResult, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Setup, Shot, simulate

LAYOUT = square("south,west,north,east")
SEATS = ("south", "west", "north", "east")
LIMIT = 1e-4
"""the deepest overlap (m) a pawn at rest may have with another pawn or a rail"""


@dataclass(frozen=True)
class Case:
    table: tuple[PawnRest, ...]
    shot: Shot
    seed: int


def corpus(n: int, seed: int, face_name: str) -> list[Case]:
    """``n`` random crowded shots for ``face_name``, the same for the same seed."""
    rng = np.random.default_rng([seed, FACES.index(face_name)])
    r = PhysicsParams.default().pawn_radius
    cases = []
    while len(cases) < n:
        count = int(rng.integers(1, 8))
        placed: list[PawnRest] = []
        used = dict.fromkeys(SEATS, 0)
        for _ in range(200):
            if len(placed) == count:
                break
            spread = 0.03 if rng.random() < 0.5 else 0.12
            x, y = (float(v) for v in rng.uniform(-spread, spread, 2))
            if any(math.hypot(x - q.x, y - q.y) < 2 * r + 1e-4 for q in placed):
                continue
            if any(
                segment_distance(x, y, rail.a, rail.b) < r + rail.thickness / 2 + 1e-4
                for rail in LAYOUT.rails
            ):
                continue
            s = SEATS[int(rng.integers(4))]
            if used[s] == 3:
                continue
            used[s] += 1
            placed.append(PawnRest(f"{s}-{used[s] + 1}", s, x, y, Status.ON_TARGET))
        seat = SEATS[int(rng.integers(4))]
        shot = Shot(
            seat,
            float(rng.uniform(0.1, 2.0)),
            math.radians(float(rng.uniform(-25.0, 25.0))),
            float(rng.uniform(-0.04, 0.04)),
            pawn=f"{seat}-1",
        )
        cases.append(Case(tuple(placed), shot, int(rng.integers(2**32))))
    return cases


def overlaps(result: ShotResult, r: float) -> tuple[float, float]:
    """(deepest pawn–pawn overlap, deepest pawn–rail overlap) of the pawns left on the table, m
    (0 when nothing overlaps)."""
    staying = [p for p in result.pawns if p.status.in_play]
    pawns = rails = 0.0
    for i, a in enumerate(staying):
        for b in staying[i + 1 :]:
            pawns = max(pawns, 2 * r - math.hypot(a.x - b.x, a.y - b.y))
        for rail in LAYOUT.rails:
            reach = r + rail.thickness / 2
            rails = max(rails, reach - segment_distance(a.x, a.y, rail.a, rail.b))
    return pawns, rails


def run(case: Case, face_name: str, engine: str) -> ShotResult:
    return simulate(
        Setup(LAYOUT, face(face_name), engine=engine),
        case.table,
        replace(case.shot, seed=case.seed),
    )


@dataclass
class Tally:
    shots: int = 0
    over: int = 0
    refused: int = 0
    timed_out: int = 0
    pawns: float = 0.0
    rails: float = 0.0
    worst: int = -1
    seconds: float = 0.0


def measure(cases: list[Case], face_name: str, engine: str) -> Tally:
    r = PhysicsParams.default().pawn_radius
    tally = Tally()
    deepest = 0.0
    start = time.perf_counter()
    for index, case in enumerate(cases):
        result = run(case, face_name, engine)
        pawns, rails = overlaps(result, r)
        tally.shots += 1
        tally.timed_out += not result.settled
        try:
            check_pawns(LAYOUT, [p for p in result.pawns if p.status.in_play], r)
        except UserError:
            tally.refused += 1
        tally.pawns, tally.rails = max(tally.pawns, pawns), max(tally.rails, rails)
        if max(pawns, rails) > LIMIT:
            tally.over += 1
            if max(pawns, rails) > deepest:
                deepest, tally.worst = max(pawns, rails), index
    tally.seconds = time.perf_counter() - start
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shots", type=int, default=2000, help="shots per face and engine")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--faces", default=",".join(FACES))
    args = ap.parse_args()
    print(f"{args.shots} shots per face and engine, seed {args.seed}, limit {LIMIT * 1e3:g} mm")
    print(
        f"{'face':<15}{'engine':<8}{'shots':>7}{'over':>6}{'refused':>8}{'timeout':>8}"
        f"{'pawn mm':>10}{'rail mm':>10}{'s':>8}"
    )
    worst = []
    for face_name in args.faces.split(","):
        cases = corpus(args.shots, args.seed, face_name)
        for engine in args.engines.split(","):
            t = measure(cases, face_name, engine)
            print(
                f"{face_name:<15}{engine:<8}{t.shots:>7}{t.over:>6}{t.refused:>8}{t.timed_out:>8}"
                f"{max(t.pawns, 0) * 1e3:>10.4f}{max(t.rails, 0) * 1e3:>10.4f}{t.seconds:>8.1f}"
            )
            if t.worst >= 0:
                worst.append((face_name, engine, t.worst, cases[t.worst]))
    for face_name, engine, index, case in worst:
        print(f"worst {face_name} {engine}: case {index} of seed {args.seed}: {case}")


if __name__ == "__main__":
    main()

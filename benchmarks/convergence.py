"""The pymunk engine converges to the exact engine as its step shrinks.

    python benchmarks/convergence.py [--shots 1000] [--seed 2026] [--dts 240,480,960,1920]

A fixed corpus of crowded takeout shots: 6–15 pawns at rest near the centre of the square 4-seat
board (race-for-home), the south pawn released from the foul line at 0.4–2 m/s, aimed at one of
them with a small miss. Each shot runs in the exact engine once (its result does not depend on
``dt``: one reference for every step) and in the pymunk engine at every step; a shot *agrees* when every pawn ends with the same status and points in both. Prints the
share of agreeing shots per step, the position differences of the pawns still on the table (in
agreeing shots) and what the disagreements are.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np

from sliders.boards import face
from sliders.core.outcome import PawnRest, ShotResult, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Setup, Shot, simulate

LAYOUT = square("south,west,north,east")
FACE = face("race-for-home")
SEATS = ("west", "north", "east", "south")


@dataclass(frozen=True)
class Case:
    table: tuple[PawnRest, ...]
    shot: Shot


def corpus(n: int, seed: int, top: float = 2.0) -> list[Case]:
    """``n`` crowded takeout shots at 0.4 to ``top`` m/s, the same for the same seed."""
    rng = np.random.default_rng(seed)
    p = PhysicsParams.default()
    r = p.pawn_radius
    seat = LAYOUT.seat("south")
    start = seat.to_world(seat.foul, 0.0)
    cases = []
    while len(cases) < n:
        count = int(rng.integers(6, 16))
        placed: list[PawnRest] = []
        used = dict.fromkeys(SEATS, 0)
        while len(placed) < count:
            x, y = (float(v) for v in rng.normal(0.0, 0.035, 2))
            if abs(x) > 0.1 or abs(y) > 0.1:
                continue
            if any(math.hypot(x - q.x, y - q.y) < 2 * r + 1e-4 for q in placed):
                continue
            s = next(s for s in SEATS if used[s] < (3 if s == "south" else 4))
            used[s] += 1
            number = used[s] + (1 if s == "south" else 0)
            placed.append(PawnRest(f"{s}-{number}", s, x, y, Status.ON_TARGET))
        target = placed[int(rng.integers(count))]
        aim = math.atan2(target.x - start[0], target.y - start[1]) + float(rng.normal(0, 0.01))
        aim = max(min(aim, 1.2), -1.2)
        speed = float(rng.uniform(0.4, top))
        cases.append(Case(tuple(placed), Shot("south", speed, aim, pawn="south-1")))
    return cases


def agree(a: ShotResult, b: ShotResult) -> bool:
    return all(
        p.status == q.status and p.points == q.points for p, q in zip(a.pawns, b.pawns, strict=True)
    )


def position_difference(a: ShotResult, b: ShotResult) -> float:
    """The largest distance between a pawn's two rest positions, over pawns on the table."""
    worst = 0.0
    for p, q in zip(a.pawns, b.pawns, strict=True):
        if not p.status.removed and not q.status.removed:
            worst = max(worst, math.hypot(p.x - q.x, p.y - q.y))
    return worst


def differences(a: ShotResult, b: ShotResult) -> list[str]:
    """What differs, as 'exact→pymunk' status pairs (or points)."""
    out = []
    for p, q in zip(a.pawns, b.pawns, strict=True):
        if p.status != q.status:
            out.append(f"{p.status}→{q.status}")
        elif p.points != q.points:
            out.append("points")
    return out


@dataclass
class Figures:
    dt: float
    agreement: float
    median_diff: float
    p90_diff: float
    kinds: Counter[str]
    seconds: float
    per_shot: list[float]  # Δpos of each shot (NaN where it does not agree)
    common_median: float = math.nan  # median Δpos over the shots that agree at every step


def compare(cases: list[Case], dts: list[float]) -> tuple[list[Figures], float]:
    """Figures for each step, and the exact engine's seconds for the corpus."""
    t0 = time.process_time()
    exact = [simulate(Setup(LAYOUT, FACE, engine="exact"), c.table, c.shot) for c in cases]
    exact_seconds = time.process_time() - t0
    figures = []
    for dt in dts:
        params = PhysicsParams.default().replace(dt=dt)
        t0 = time.process_time()
        runs = [simulate(Setup(LAYOUT, FACE, params, "pymunk"), c.table, c.shot) for c in cases]
        seconds = time.process_time() - t0
        same = [agree(a, b) for a, b in zip(exact, runs, strict=True)]
        diffs = [position_difference(a, b) for a, b, s in zip(exact, runs, same, strict=True) if s]
        kinds: Counter[str] = Counter()
        for a, b, s in zip(exact, runs, same, strict=True):
            if not s:
                kinds.update(differences(a, b))
        figures.append(
            Figures(
                dt,
                sum(same) / len(same),
                statistics.median(diffs) if diffs else math.nan,
                float(np.percentile(diffs, 90)) if diffs else math.nan,
                kinds,
                seconds,
                [
                    position_difference(a, b) if s else math.nan
                    for a, b, s in zip(exact, runs, same, strict=True)
                ],  # fmt: skip
            )
        )
    table = np.array([f.per_shot for f in figures])
    common = ~np.isnan(table).any(axis=0)
    for f, row in zip(figures, table, strict=True):
        f.common_median = float(np.median(row[common])) if common.any() else math.nan
    return figures, exact_seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=1000, help="shots in the corpus (default 1000)")
    ap.add_argument("--seed", type=int, default=2026, help="the corpus' seed (default 2026)")
    ap.add_argument("--dts", default="240,480,960,1920", help="pymunk steps, as 1/N s")
    args = ap.parse_args()
    cases = corpus(args.shots, args.seed)
    counts = Counter(len(c.table) for c in cases)
    speeds = [c.shot.speed for c in cases]
    print(f"corpus: {len(cases)} takeout shots (seed {args.seed}) on square/race-for-home, "
          f"{min(counts)}–{max(counts)} pawns at rest (mean {np.mean([len(c.table) for c in cases]):.1f}), "
          f"speeds {min(speeds):.2f}–{max(speeds):.2f} m/s")  # fmt: skip
    figures, exact_s = compare(cases, [1 / int(n) for n in args.dts.split(",")])
    print(f"\n{'pymunk dt':>10} {'agree':>7} {'median Δpos':>12} {'90% Δpos':>11} "
          f"{'fixed set':>10} {'Δ ratio':>8} {'s (cpu)':>8}  most common differences (exact→pymunk)")  # fmt: skip
    last = None
    for f in figures:
        ratio = "" if last is None else f"{last / f.common_median:.2f}"
        common = ", ".join(f"{k} ×{n}" for k, n in f.kinds.most_common(4))
        print(f"  1/{round(1 / f.dt):<6} {f.agreement:>7.1%} {f.median_diff * 1e6:>10.4f}µm "
              f"{f.p90_diff * 1e6:>9.4f}µm {f.common_median * 1e6:>8.4f}µm {ratio:>8} "
              f"{f.seconds:>8.1f}  {common}")  # fmt: skip
        last = f.common_median
    print(
        f"\nexact engine: {exact_s:.1f} s of process time for the corpus. agree: every pawn's "
        "status and points equal; Δpos: largest rest-position difference of a pawn on the table, "
        "over agreeing shots; Δ ratio: median Δpos at the previous step / at this one (2 = first "
        "order in dt, 4 = second)."
    )


if __name__ == "__main__":
    main()

"""How each built-in layout plays: straight shots over a range of speeds and offsets across the lane.

For every layout (its default seats) and every distinct lane start, slide one pawn straight down the
lane onto an empty table at each speed and offset, and count where it ends: on the board (on a
zone, or over the hole's edge), tipping, on a track (own or another player's), or penalised (a
SORRY! corner, off the board by a corner or a track's end, or off a side of the board, which the
house rule ``corners-only`` spares). Prints a Markdown table, and the speed window in which a shot on
the lane's axis ends on the board.

    python benchmarks/layout_study.py [--lo 0.3] [--hi 2.0] [--step 0.05] [--offsets 5]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import replace

import numpy as np

from sliders.boards import face
from sliders.core.outcome import Status
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout
from sliders.physics import PhysicsParams, Setup, Shot, simulate

GROUPS: dict[str, tuple[Status, ...]] = {
    "board": (Status.ON_TARGET, Status.HOLE_EDGE),
    "tipping": (Status.TIPPING,),
    "own track": (Status.OWN_TRACK,),
    "other track": (Status.OTHER_TRACK,),
    "SORRY! corner": (Status.SORRY_CORNER,),
    "off board": (Status.OFF_BOARD,),
    "off a side": (Status.OFF_SIDE,),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lo", type=float, default=0.3, help="slowest speed, m/s")
    ap.add_argument("--hi", type=float, default=2.0, help="fastest speed, m/s")
    ap.add_argument("--step", type=float, default=0.05, help="speed step, m/s")
    ap.add_argument("--offsets", type=int, default=5, help="offsets across the lane")
    args = ap.parse_args(argv)
    params = PhysicsParams.default()
    speeds = np.round(np.arange(args.lo, args.hi + 1e-9, args.step), 6)
    rows = []
    square = load_layout("square")  # one shot first: the engine's one-time loading is not timed
    simulate(Setup(square, face(square.face), params), (), Shot("south", 0.5, seed=0))
    started = time.perf_counter()
    shots = 0
    for name in BUILTIN_LAYOUTS:
        layout = load_layout(name)
        game = face(layout.face)
        lanes = {}
        for seat in layout.seats:  # seats sharing a lane shoot the same shots
            lanes.setdefault((seat.near, seat.forward, seat.foul), seat)
        counts: Counter[str] = Counter()
        points: list[int] = []
        window: list[float] = []
        for seat in lanes.values():
            limit = seat.width / 2 - params.pawn_radius
            for offset in np.linspace(-limit, limit, args.offsets):
                for speed in speeds:
                    shot = Shot(seat.name, float(speed), offset=float(offset))
                    rest = simulate(Setup(layout, game, params), (), replace(shot, seed=0)).pawns[0]
                    shots += 1
                    group = next((g for g, ss in GROUPS.items() if rest.status in ss), "other")
                    counts[group] += 1
                    if group == "board":
                        points.append(rest.points)
                        if abs(offset) < 1e-12:
                            window.append(float(speed))
        total = sum(counts.values())
        rows.append((name, layout, counts, total, points, window))
    elapsed = time.perf_counter() - started

    head = ["layout", "seats", *GROUPS, "mean points on board", "axis shots on board, m/s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, layout, counts, total, points, window in rows:
        shares = [f"{100 * counts[g] / total:.0f}%" for g in GROUPS]
        mean = f"{np.mean(points):.2f}" if points else "–"
        span = _runs(sorted(set(window)), args.step)
        seats = ", ".join(layout.seat_names)
        print(f"| {name} | {seats} | " + " | ".join(shares) + f" | {mean} | {span} |")
    print(
        f"\n{shots} shots: speeds {args.lo:g}–{args.hi:g} m/s every {args.step:g}, "
        f"{args.offsets} offsets across the lane, angle 0, empty table; "
        f"{elapsed:.1f} s ({1000 * elapsed / shots:.1f} ms a shot)"
    )
    return 0


def _runs(values: list[float], step: float) -> str:
    """``0.50–0.65, 1.30–1.50``: the speeds as runs of consecutive steps."""
    if not values:
        return "–"
    runs = [[values[0], values[0]]]
    for v in values[1:]:
        if v - runs[-1][1] <= step * 1.5:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(f"{a:.2f}" if a == b else f"{a:.2f}–{b:.2f}" for a, b in runs)


if __name__ == "__main__":
    raise SystemExit(main())

"""Frame time of the play screen with 16 pawns moving: update (fixed-step physics, events) plus
draw, against drawing alone and updating alone, measured in the same run.

    SDL_VIDEODRIVER=dummy python benchmarks/frame.py [--frames 600]

Sixteen pawns stand on the board of a four-player square and are kicked toward the middle every
half second, so they keep colliding; the frame time is the 60 fps budget's yardstick (16.7 ms).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from sliders.outcome import PawnRest, Status  # noqa: E402
from sliders.physics import Shot, Simulation  # noqa: E402
from sliders.scenes.app import App  # noqa: E402
from sliders.scenes.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.scenes.match import Match  # noqa: E402
from sliders.scenes.play import PlayScreen  # noqa: E402

FRAME = 1 / 60
SEATS = ("south", "west", "north", "east")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    args = ap.parse_args()
    app = App((1280, 800), sound=False, think_budget=None)
    specs = parse_seat_specs(",".join(f"{s}=cpu:easy" for s in SEATS))
    match = Match(MatchConfig("race-for-home", "square", specs, seed=1))
    screen = PlayScreen(app, match)
    app.show(screen)
    rng = np.random.default_rng(0)

    def restart() -> Simulation:
        table = []
        k = 0
        for seat in SEATS:
            for n in range(1, 5):
                if (seat, n) == ("south", 4):
                    continue
                x, y = -0.06 + 0.04 * (k % 4), -0.06 + 0.04 * (k // 4)
                table.append(PawnRest(f"{seat}-{n}", seat, x, y, Status.ON_TARGET, 1))
                k += 1
        shot = Shot("south", 2.0, 0.0, 0.0, None, "south-4")
        sim = Simulation(match.layout, match.face, table, shot, match.params, 1)
        match.follow(sim)
        return sim

    def kick(sim: Simulation) -> None:
        for body in sim.space.bodies:
            x, y = body.position
            a = math.atan2(-y, -x) + rng.uniform(-1.0, 1.0)
            speed = rng.uniform(0.2, 0.5)
            body.velocity = (speed * math.cos(a), speed * math.sin(a))
            body.activate()
        sim.moving = True

    def measure(update: bool, draw: bool) -> tuple[list[float], float]:
        sim = restart()
        kick(sim)
        times, pawns = [], []
        for i in range(args.frames):
            if i % 30 == 0:
                if len(sim.positions()) < 12:
                    sim = restart()
                kick(sim)
            t0 = time.perf_counter()
            if update:
                screen.update(FRAME)
            if draw:
                screen.draw(app.surface)
                pygame.display.flip()
            times.append(time.perf_counter() - t0)
            pawns.append(len(sim.positions()))
        return times, statistics.fmean(pawns)

    screen.draw(app.surface)  # warm the static table cache
    rows = [
        ("draw only (baseline)", *measure(update=False, draw=True)),
        ("update only", *measure(update=True, draw=False)),
        ("update + draw", *measure(update=True, draw=True)),
    ]
    base = statistics.fmean(rows[0][1])
    print(
        f"play screen, 1280x800, {args.frames} frames at dt={FRAME:.4f} s "
        f"(physics dt={match.params.dt:.5f} s, {round(FRAME / match.params.dt)} steps a frame)"
    )
    print(f"{'':22} {'ms/frame':>9} {'p95 ms':>8} {'fps':>7} {'x baseline':>10} {'pawns':>6}")
    for name, times, pawns in rows:
        mean = statistics.fmean(times)
        p95 = float(np.percentile(times, 95))
        print(
            f"{name:22} {mean * 1e3:9.2f} {p95 * 1e3:8.2f} {1 / mean:7.0f} "
            f"{mean / base:10.2f} {pawns:6.1f}"
        )
    app.close()


if __name__ == "__main__":
    main()

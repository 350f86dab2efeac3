"""The hole's figures quoted in docs/model.md: the straight-shot window of release speeds that drop
in on an empty Instant Home board (and ring 5's on Race for Home), and the share of noisy straight
shots that drop in against the share that score 5, with the same executed shots.

    python -m tests.physics.hole_figures [--samples N] [--engine pymunk|exact]
"""

from __future__ import annotations

import argparse

import numpy as np

from sliders.boards import face
from sliders.core.outcome import Status
from sliders.files.layouts import square
from sliders.physics import NOISE_LEVELS, PhysicsParams, Setup, Shot, simulate
from sliders.physics.noise import apply_errors


def windows(speeds: np.ndarray, hits: np.ndarray) -> list[tuple[float, float]]:
    """The runs of consecutive speeds that hit, as (first, last)."""
    out: list[tuple[float, float]] = []
    for i, hit in enumerate(hits):
        if not hit:
            continue
        if i and hits[i - 1]:
            out[-1] = (out[-1][0], float(speeds[i]))
        else:
            out.append((float(speeds[i]), float(speeds[i])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--engine", default=None)
    args = ap.parse_args()
    p = PhysicsParams.default()
    layout = square("south,north")
    home, race = face("instant-home"), face("race-for-home")
    seat = layout.seat("south")
    distance = -seat.to_world(seat.foul, 0.0)[1]  # foul line to the board's centre
    bull = np.sqrt(2 * p.deceleration * distance)

    speeds = np.round(np.arange(0.50, 0.90, 0.0005), 4)
    in_hole = np.array(
        [
            simulate(Setup(layout, home, p, args.engine), [], Shot("south", v)).pawns[0].status
            is Status.IN_HOLE
            for v in speeds
        ]
    )
    five = np.array(
        [
            simulate(Setup(layout, race, p, args.engine), [], Shot("south", v)).pawns[0].points == 5
            for v in speeds
        ]
    )
    for name, hits in (("hole (instant-home)", in_hole), ("ring 5 (race-for-home)", five)):
        runs = windows(speeds, hits)
        span = (runs[-1][1] - runs[0][0]) if runs else 0.0
        total = hits.sum() * 0.0005
        print(
            f"{name:<24} straight-shot window {runs[0][0]:.4f}-{runs[-1][1]:.4f} m/s "
            f"({span / bull:.0%} of the bullseye speed {bull:.4f}); speeds that hit: "
            f"{total:.4f} m/s in {len(runs)} run(s): "
            + ", ".join(f"{a:.4f}-{b:.4f}" for a, b in runs)
        )

    noise = NOISE_LEVELS["medium"]
    rng = np.random.default_rng(2026)
    for label, aims in (
        ("aimed at the bullseye", [bull]),
        ("best aim", np.arange(0.56, 0.70, 0.01)),
    ):
        best_hole = best_five = 0.0
        for aim_speed in aims:
            errors = noise.draw(rng, args.samples)
            shots = [apply_errors(Shot("south", float(aim_speed)), e, seat, p) for e in errors]
            hole = np.mean(
                [
                    simulate(Setup(layout, home, p, args.engine), [], s).pawns[0].status
                    is Status.IN_HOLE
                    for s in shots
                ]
            )
            ring5 = np.mean(
                [
                    simulate(Setup(layout, race, p, args.engine), [], s).pawns[0].points == 5
                    for s in shots
                ]
            )
            best_hole, best_five = max(best_hole, hole), max(best_five, ring5)
        print(
            f"medium noise, {label}: {best_hole:.1%} drop into the hole, {best_five:.1%} score 5 "
            f"({args.samples} shots per aim)"
        )


if __name__ == "__main__":
    main()

"""`sliders best` against a dense-grid oracle on 20 fixed scenes (4 faces × 5 tables and game
states): the expected value of the shot each picks, and the simulations each spends.

The oracle samples every shot of a 25 × 13 grid (speed 0.3..1.5 m/s by 0.05, angle -6..6° by 1°)
20 times with paired draws (6,500 simulations a scene) and picks the best mean. The search
(:mod:`sliders.lab.search`) works on the same box with its default settings and its own seed. Both
picks are then judged on 200 fresh paired samples that neither saw: the ratio of their expected
values is the figure (1.0: as good as the oracle), with the standard error of the difference.

Sized for the pymunk engine: about 140,000 simulations in all, some 6 to 10 minutes on one quiet
core (the exact engine, when it is the default, makes it much shorter). Run:

    python benchmarks/best.py [--scenes N] [--oracle-samples K] [--judge N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sliders.batch import Design, Study
from sliders.boards.scene import Scene, ScenePawn
from sliders.lab.search import Candidate, Sampler, search
from sliders.lab.value import GameSpot
from sliders.physics import Noise

FACES = ("race-for-home", "instant-home", "instant-sorry", "danger-dots")
P = ScenePawn
TABLES: tuple[tuple[str, tuple[ScenePawn, ...], dict[str, tuple[int, ...]]], ...] = (
    ("empty table, all on START", (), {}),
    (
        "an opponent near the centre",
        (P("north-1", -0.02, 0.02),),
        {"south": (3, 2, 0, 0), "north": (4, 4, 1, 0)},
    ),
    (
        "two opponents, south close to HOME",
        (P("north-1", 0.025, 0.045), P("north-2", -0.03, -0.05)),
        {"south": (5, 5, 2, 0)},
    ),
    (
        "an own pawn and an opponent",
        (P("south-1", 0.012, 0.012), P("north-1", 0.035, -0.03)),
        {"south": (1, 0, 0, 0), "north": (2, 2, 2, 2)},
    ),
    (
        "a guard in front, an opponent at the centre, end game",
        (P("north-1", 0.0, -0.08), P("north-2", 0.014, 0.014)),
        {"south": (6, 6, 6, 2), "north": (5, 3, 3, 3)},
    ),
)
SPEED, ANGLE = (0.3, 1.5, 25), (-6.0, 6.0, 13)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=20, help="how many of the 20 scenes (default 20)")
    ap.add_argument("--oracle-samples", type=int, default=20, help="per grid shot (default 20)")
    ap.add_argument("--judge", type=int, default=200, help="fresh samples per pick (default 200)")
    args = ap.parse_args()

    noise = Noise.level("medium")
    rows = []
    t_all = time.perf_counter()
    scenes = [(f, t) for t in TABLES for f in FACES][: args.scenes]
    print(
        f"{'face':<14} {'table':<48} {'oracle':>7} {'search':>7} {'fewer':>6}  "
        f"{'EV oracle':>9} {'EV search':>9} {'ratio':>6} {'± se':>6}"
    )
    for i, (face, (label, pawns, boards)) in enumerate(scenes):
        scene = Scene("square", ("south", "north"), face, pawns)
        spot = GameSpot(tuple(sorted(boards.items())))
        oracle_shot, oracle_sims = oracle(scene, spot, noise, args.oracle_samples, 1000 + i)
        found = search(scene, "south", {}, noise, spot=spot, seed=i)
        ev_o, ev_s, se = judge(scene, spot, noise, oracle_shot, np.array(found.best.shot),
                               args.judge, 5000 + i)  # fmt: skip
        ratio = ev_s / ev_o if ev_o > 0 else float("nan")
        rows.append((oracle_sims, found.simulations, ev_o, ev_s, ratio, se))
        print(
            f"{face:<14} {label:<48} {oracle_sims:7,} {found.simulations:7,} "
            f"{oracle_sims / found.simulations:5.1f}×  {ev_o:9.3f} {ev_s:9.3f} {ratio:6.3f} "
            f"{se / ev_o if ev_o > 0 else float('nan'):6.3f}",
            flush=True,
        )
    a = np.array(rows)
    within = np.sum(a[:, 4] >= 0.98)
    print()
    print(f"scenes: {len(rows)}; wall time {time.perf_counter() - t_all:.0f} s")
    print(
        f"simulations: oracle {a[:, 0].sum():,.0f}, search {a[:, 1].sum():,.0f} "
        f"({a[:, 0].sum() / a[:, 1].sum():.1f}× fewer; per scene {a[:, 1].min():.0f}..{a[:, 1].max():.0f})"
    )
    print(
        f"expected value of the search's pick / the oracle's: mean {np.nanmean(a[:, 4]):.3f}, "
        f"worst {np.nanmin(a[:, 4]):.3f}; within 2 %: {within} of {len(rows)} scenes; "
        f"total EV {a[:, 3].sum() / a[:, 2].sum():.3f} of the oracle's"
    )


def oracle(
    scene: Scene, spot: GameSpot, noise: Noise, samples: int, seed: int
) -> tuple[np.ndarray, int]:
    """The best mean of the dense grid, every shot on the same paired draws."""
    design = Design.grid(speed=SPEED, angle=ANGLE)
    study = Study.create(scene, "south", design, 1, noise, seed=seed, spot=spot)
    sampler = Sampler(study, samples)
    best, best_mean = None, -np.inf
    for shot in study.design.shots:
        c = Candidate(shot.copy())
        sampler.extend(c, samples)
        if c.mean > best_mean:
            best, best_mean = c, c.mean
    assert best is not None
    return best.shot, sampler.simulations


def judge(
    scene: Scene,
    spot: GameSpot,
    noise: Noise,
    a: np.ndarray,
    b: np.ndarray,
    samples: int,
    seed: int,
) -> tuple[float, float, float]:
    """Expected values of shots ``a`` and ``b`` on the same fresh draws, and the standard error
    of their difference."""
    design = Design.grid(speed=SPEED, angle=ANGLE)
    study = Study.create(scene, "south", design, 1, noise, seed=seed, spot=spot)
    sampler = Sampler(study, samples)
    ca, cb = Candidate(a.copy()), Candidate(b.copy())
    sampler.extend(ca, samples)
    sampler.extend(cb, samples)
    d = cb.values - ca.values
    return ca.mean, cb.mean, float(d.std(ddof=1) / np.sqrt(len(d)))


if __name__ == "__main__":
    main()

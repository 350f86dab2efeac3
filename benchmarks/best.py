"""`sliders best` against a dense-grid oracle on 20 fixed scenes (4 faces × 5 tables and game
states): the expected value of the shot each picks (the seat's chance of winning after it, the
value the computer players choose by), and the simulations each spends.

- **The oracle** samples every shot of a 49 × 25 grid over the search box (speed 0.3..1.5 m/s by
  0.025, angle -6..6° by 0.5°; offset 0 and the foul line, as `sliders best` searches by default)
  200 times with paired draws (245,000 simulations a scene) and picks the best mean. The grid's
  steps are under half the medium hand's noise (6 % of the speed, 2°).
- **The search** (:mod:`sliders.lab.search`, its default settings, its own seed) works on the
  same box.
- **The judge** values both picks on fresh draws that neither saw (another seed), paired between
  the two, 20,000 samples each and more (up to 160,000) until the standard error of their
  difference is under 0.3 % of the oracle's value and each value's own under 0.6 %: the ratio of their expected values is the
  figure (1.0: as good as the oracle's pick; "within 2 %" is a ratio of at least 0.98). Beside it:
  the shortfall in points of chance (the oracle's value minus the search's) and each pick's
  expected progress (the change of the progress lead, on the same samples).

Both use the exact engine (`engine="exact"`), whose batch path solves the paired samples of many
shots in one compiled call. About 6 million simulations in all; some 5 minutes on one quiet
core. Run:

    python benchmarks/best.py [--scenes N] [--oracle-samples K] [--judge N] [--cache DIR]

``--cache DIR`` keeps each scene's oracle grid (a ``.npz`` a scene) and each judged row (keyed by
the search's settings: empty the folder of its ``row-*`` files after changing the search's code),
so a rerun only searches and judges what is new; ``--only 4,5`` runs some scenes (several
processes can share one cache); ``--settings strong`` runs the search with the strong computer
mind's budget (5,000 simulations); ``--search-seed K`` adds K to every scene's search seed (the oracle and the judge keep
theirs), to see how the result depends on the search's own draws; ``--hand low|high`` measures
at another noise level, on which the design was not tuned (the oracle's steps are then a
sixth and a quarter of the high hand's noise, a quarter to 0.8 of the low hand's along speed and
half of it along the angle: a coarser oracle at the low hand).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from dataclasses import replace

import numpy as np

from sliders.ai.value import GameSpot
from sliders.batch import Design, Study
from sliders.batch.work import run_paired
from sliders.files.scenes import Scene, ScenePawn
from sliders.lab.search import BEST, Settings, search
from sliders.physics import Noise
from sliders.physics.exact import batch as exact_batch

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
SPEED, ANGLE = (0.3, 1.5, 49), (-6.0, 6.0, 25)
BOX = {"speed": "0.3:1.5", "angle": "-6:6", "offset": "0"}
"""the oracle's box, given to the search by hand (its default is the whole legal range, which
the oracle's grid does not cover)"""
ENGINE = "exact"
PRESETS = {
    # the budget the search had on this box when it was its default
    "default": Settings(mind=replace(BEST, simulations=18_000)),
    # the search with a computer player's budget (the strong mind's 5,000 simulations)
    "strong": Settings(mind=replace(BEST, simulations=5000)),
}
EVENT_CAP = 20_000
"""events a shot may take here before it is stopped as a time-out (the engine's own cap is
200,000). About 1 % of shots near the hole of Instant Home and Instant Sorry! never settle: the
pawn rests on the hole's edge while the engine keeps finding events, and each costs the full cap
(some 0.1 s). Stopped at 20,000 events they end in the same statuses and points (checked on
samples of them), ten times sooner; every side of the comparison runs with the same cap."""
CHUNK = 100  # grid shots a batch call


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=20, help="how many of the 20 scenes (default 20)")
    ap.add_argument("--oracle-samples", type=int, default=200, help="per grid shot (default 200)")
    ap.add_argument("--judge", type=int, default=20_000, help="fresh samples per pick, at first")
    ap.add_argument("--cache", help="folder keeping the oracle's grids and judged rows")
    ap.add_argument("--only", help="comma-separated scene numbers (0..19) to run now")
    ap.add_argument("--settings", default="default", choices=list(PRESETS),
                    help="the search's settings (default: its defaults)")  # fmt: skip
    ap.add_argument("--search-seed", type=int, default=0,
                    help="added to each scene's search seed (default 0: the scene's number)")  # fmt: skip
    ap.add_argument("--hand", default="medium", choices=("low", "medium", "high"),
                    help="the noise level of every side (default medium)")  # fmt: skip
    args = ap.parse_args()
    exact_batch.MAX_EVENTS = EVENT_CAP

    noise = Noise.level(args.hand)
    hand = "" if args.hand == "medium" else f"-{args.hand}"  # in the cache's file names
    rows = []
    t_all = time.perf_counter()
    t_search = 0.0
    scenes = [(f, t) for t in TABLES for f in FACES][: args.scenes]
    only = None if not args.only else {int(x) for x in args.only.split(",")}
    cfg = PRESETS[args.settings]
    given = (cfg, SPEED, ANGLE, args.judge) + ((args.search_seed,) if args.search_seed else ())
    key = hashlib.sha256(repr(given).encode()).hexdigest()[:12]
    print(
        f"{'face':<14} {'table':<54} {'oracle':>8} {'search':>7} {'fewer':>6}  "
        f"{'EV oracle':>9} {'EV search':>9} {'ratio':>6} {'± se':>6} {'short':>6} {'judged':>7}  "
        f"{'prog O':>6} {'prog S':>6}  {'oracle shot':>14}  {'search shot':>14}"
    )
    for i, (face, (label, pawns, boards)) in enumerate(scenes):
        if only is not None and i not in only:
            continue
        saved = None
        if args.cache:
            saved = os.path.join(args.cache, f"row-{i}-{args.oracle_samples}-{key}{hand}.json")
        if saved and os.path.exists(saved):
            with open(saved) as fh:
                o_sims, s_sims, ev_o, ev_s, se, n, shot_o, shot_s, pr_o, pr_s = json.load(fh)
        else:
            scene = Scene("square", ("south", "north"), face, pawns)
            spot = GameSpot(tuple(sorted(boards.items())))
            oracle_shot, o_sims = oracle(
                scene, spot, noise, args.oracle_samples, 1000 + i, args.cache, f"{i}{hand}"
            )
            t0 = time.perf_counter()
            found = search(
                scene,
                "south",
                BOX,
                noise,
                spot=spot,
                seed=i + args.search_seed,
                engine=ENGINE,
                settings=cfg,
            )
            t_search += time.perf_counter() - t0
            s_sims = found.simulations
            ev_o, ev_s, se, n, pr_o, pr_s = judge(scene, spot, noise, oracle_shot,
                                      np.array(found.best.shot), args.judge, 5000 + i)  # fmt: skip
            shot_o = [float(v) for v in oracle_shot[:2]]
            shot_s = [float(v) for v in found.best.shot[:2]]
            if saved:
                with open(saved, "w") as fh:
                    json.dump([o_sims, s_sims, ev_o, ev_s, se, n, shot_o, shot_s, pr_o, pr_s], fh)
        ratio = ev_s / ev_o if ev_o > 0 else float("nan")
        rows.append((o_sims, s_sims, ev_o, ev_s, ratio, se / abs(ev_o), pr_o, pr_s))
        print(
            f"{face:<14} {label:<54} {o_sims:8,} {s_sims:7,} "
            f"{o_sims / s_sims:5.1f}×  {ev_o:9.4f} {ev_s:9.4f} {ratio:6.3f} "
            f"{se / abs(ev_o):6.4f} {100 * (ev_o - ev_s):+6.2f} {n:7,}  "
            f"{pr_o:6.2f} {pr_s:6.2f}  {shot_o[0]:.3f} {shot_o[1]:+6.2f}°  "
            f"{shot_s[0]:.3f} {shot_s[1]:+6.2f}°",
            flush=True,
        )
    a = np.array(rows)
    within = np.sum(a[:, 4] >= 0.98)
    print()
    print(f"scenes: {len(rows)}; wall time {time.perf_counter() - t_all:.0f} s "
          f"(searches {t_search:.0f} s)")  # fmt: skip
    print(
        f"simulations: oracle {a[:, 0].sum():,.0f}, search {a[:, 1].sum():,.0f} "
        f"({a[:, 0].sum() / a[:, 1].sum():.1f}× fewer; per scene "
        f"{(a[:, 0] / a[:, 1]).min():.1f}× to {(a[:, 0] / a[:, 1]).max():.1f}× fewer)"
    )
    print(
        f"expected value of the search's pick / the oracle's: mean {np.nanmean(a[:, 4]):.3f}, "
        f"worst {np.nanmin(a[:, 4]):.3f}; within 2 %: {within} of {len(rows)} scenes; "
        f"total EV {a[:, 3].sum() / a[:, 2].sum():.3f} of the oracle's; "
        f"judge's standard error at most {a[:, 5].max():.2%} of the oracle's value"
    )
    print(
        f"shortfall in points of chance: mean {100 * np.mean(a[:, 2] - a[:, 3]):+.2f}, "
        f"worst {100 * np.max(a[:, 2] - a[:, 3]):+.2f}; expected progress of the picks: "
        f"oracle {a[:, 6].sum():.2f}, search {a[:, 7].sum():.2f} in all"
    )


def oracle(
    scene: Scene,
    spot: GameSpot,
    noise: Noise,
    samples: int,
    seed: int,
    cache: str | None,
    index: str,
) -> tuple[np.ndarray, int]:
    """The best mean of the dense grid, every shot on the same paired draws."""
    design = Design.grid(speed=SPEED, angle=ANGLE)
    shots = design.shots
    path = None
    if cache:
        os.makedirs(cache, exist_ok=True)
        path = os.path.join(cache, f"oracle-chance-{index}-{samples}-{seed}-{len(shots)}.npz")
        if os.path.exists(path):
            means = np.load(path)["means"]
            return shots[int(np.argmax(means))], len(shots) * samples
    study = Study.create(scene, "south", design, 1, noise, None, seed, None, ENGINE, spot=spot)
    ctx = replace(study.context, paired=True, samples=samples)
    means = np.empty(len(shots))
    for a in range(0, len(shots), CHUNK):
        part = shots[a : a + CHUNK]
        t = run_paired(ctx, part, np.zeros(len(part), int), np.full(len(part), samples))
        means[a : a + len(part)] = (
            np.bincount(t["intended"], weights=t["value"], minlength=len(part)) / samples
        )
    if path:
        np.savez(path, means=means, shots=shots)
    return shots[int(np.argmax(means))], len(shots) * samples


def judge(
    scene: Scene,
    spot: GameSpot,
    noise: Noise,
    a: np.ndarray,
    b: np.ndarray,
    samples: int,
    seed: int,
    target: float = 0.003,
    most: int = 160_000,
) -> tuple[float, float, float, int, float, float]:
    """Expected values of shots ``a`` and ``b`` on the same fresh draws, the standard error of
    their difference, the samples used and their expected progress: doubled until that error is under ``target`` of
    ``a``'s value and each value's own standard error under twice that (or ``most`` samples)."""
    design = Design.grid(speed=SPEED, angle=ANGLE)
    study = Study.create(scene, "south", design, 1, noise, None, seed, None, ENGINE, spot=spot)
    ctx = replace(study.context, paired=True, samples=most)
    va, vb, pa, pb = np.empty(0), np.empty(0), np.empty(0), np.empty(0)
    n = samples
    while True:
        start = len(va)
        t = run_paired(ctx, np.stack([a, b]), np.full(2, start), np.full(2, n))
        va = np.concatenate([va, t["value"][t["intended"] == 0]])
        vb = np.concatenate([vb, t["value"][t["intended"] == 1]])
        pa = np.concatenate([pa, t["progress"][t["intended"] == 0]])
        pb = np.concatenate([pb, t["progress"][t["intended"] == 1]])
        d = vb - va
        se = float(d.std(ddof=1) / np.sqrt(len(d)))
        own = max(va.std(ddof=1), vb.std(ddof=1)) / np.sqrt(len(d))
        if (se < target * abs(va.mean()) and own < 2 * target * abs(va.mean())) or n >= most:
            return float(va.mean()), float(vb.mean()), se, n, float(pa.mean()), float(pb.mean())
        n = min(2 * n, most)


if __name__ == "__main__":
    main()

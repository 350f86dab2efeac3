"""The skill curve: synthetic people of human-like motor noise slide through the window's own
input code, and the steadier the hand the more often the pawn stops where it was meant to.

    SDL_VIDEODRIVER=dummy python benchmarks/skill.py [--tries 100] [--shots 2000] [--games 200]
        [--seed 1]

1. **Through the window** (:mod:`sliders.scenes.synthetic`): on the empty square, triple-track
   and head-to-head, a synthetic person slides straight at the board's centre, ``--tries``
   times a level: the **flick** with a release-speed spread of 2 / 5 / 10 / 20 % and a direction
   spread of 0.5 / 1 / 2 / 4°, posted as a 125 Hz mouse's events with their times; the **aim**
   let go 10 / 20 / 40 / 80 ms (1 σ) off the moment its meter gives the power meant. Each person
   first learns how hard the window wants a flick (one flick without error), as a person does.
   The table gives each level's ring-5 rate and the spreads of the shots the window made.
2. **Headless**, the same people as hands (:func:`sliders.lab.skill.flick_hand`), ``--shots``
   a level: if their ring-5 rates agree with the window's, the games below can be headless.
3. **Games**: ``--games`` games of race for home on the square between the steadiest and the
   shakiest flick, both choosing as the ``weak`` computer mind does.
4. **The computer strengths on the curve**: each strength's hand's ring-5 rate on the square,
   and the person-curve speed spread with the same rate (:func:`sliders.lab.skill.person_like`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402

from sliders.game.config import MatchConfig, layout_seats, parse_seat_specs  # noqa: E402
from sliders.lab.skill import (  # noqa: E402
    FACE,
    FLICK_LEVELS,
    TIMING_LEVELS,
    TOP,
    flick_hand,
    head_to_head,
    person_hand,
    person_like,
    ring5_rate,
    strength_hands,
)
from sliders.scenes.app import App  # noqa: E402
from sliders.scenes.play import PlayScreen  # noqa: E402
from sliders.scenes.synthetic import Attempt, SyntheticPerson  # noqa: E402
from sliders.scenes.table import Match as Table  # noqa: E402

LAYOUTS = ("square", "triple-track", "head-to-head")
CENTRE = (0.0, 0.0)


class Window:
    """One window, a fresh table for every slide."""

    def __init__(self, control: str) -> None:
        self.app = App((1280, 800), sound=False, think_budget=None, control=control)

    def slide(self, layout: str, do, gain: float = 1.0) -> tuple[Attempt, bool]:  # noqa: ANN001
        specs = parse_seat_specs(",".join(layout_seats(layout)))
        table = Table(MatchConfig(FACE, layout, specs, 1))
        screen = PlayScreen(self.app, table)
        self.app.show(screen)
        person = SyntheticPerson(self.app, screen, table.turn or "", gain)
        attempt = do(person)
        sim = table.sim
        if attempt.shot is None or sim is None:
            return attempt, False
        sim.run()
        result = sim.result()
        me = next(q for q in result.pawns if q.id == result.shooter)
        return attempt, bool(me.status.in_play and me.points >= TOP)

    def close(self) -> None:
        self.app.close()


def spread(values: list[float]) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else math.nan


def window_flick(
    tries: int, seed: int, layouts: tuple[str, ...] = LAYOUTS
) -> dict[str, list[tuple[float, float, float, float]]]:
    """Per layout, per flick level: (ring-5 rate, speed spread, angle spread°, fouls share)."""
    window = Window("flick")
    out: dict[str, list[tuple[float, float, float, float]]] = {}
    try:
        for layout in layouts:
            first, _ = window.slide(layout, lambda p: p.flick(CENTRE, 0.0, 0.0))
            assert first.shot is not None, f"{layout}: the flick without error made no shot"
            gain = first.meant_speed / first.shot.speed
            rng = np.random.default_rng([seed, LAYOUTS.index(layout)])
            rows = []
            for s, a in FLICK_LEVELS:
                hits, speeds, angles, lost = 0, [], [], 0
                for _ in range(tries):
                    e_s, e_a = rng.normal(0.0, s), math.radians(rng.normal(0.0, a))
                    att, hit = window.slide(
                        layout, lambda p, e_s=e_s, e_a=e_a: p.flick(CENTRE, e_s, e_a), gain
                    )
                    hits += hit
                    if att.shot is None or att.shot.release is None:
                        lost += 1
                        continue
                    speeds.append(att.shot.speed / att.meant_speed - 1)
                    angles.append(math.degrees(att.shot.angle - att.meant_angle))
                rows.append((hits / tries, spread(speeds), spread(angles), lost / tries))
                print(f"  window flick {layout} {s:.0%} {a}°: ring 5 {hits / tries:.0%}",
                      file=sys.stderr)  # fmt: skip
            out[layout] = rows
    finally:
        window.close()
    return out


def window_aim(
    tries: int, seed: int, layouts: tuple[str, ...] = LAYOUTS
) -> dict[str, list[tuple[float, float]]]:
    """Per layout, per timing level: (ring-5 rate, speed spread)."""
    window = Window("aim")
    out: dict[str, list[tuple[float, float]]] = {}
    try:
        for layout in layouts:
            rng = np.random.default_rng([seed, 10 + LAYOUTS.index(layout)])
            rows = []
            for sigma in TIMING_LEVELS:
                hits, speeds = 0, []
                for _ in range(tries):
                    e = float(rng.normal(0.0, sigma))
                    att, hit = window.slide(layout, lambda p, e=e: p.aim(CENTRE, e))
                    hits += hit
                    if att.shot is not None:
                        speeds.append(att.shot.speed / att.meant_speed - 1)
                rows.append((hits / tries, spread(speeds)))
                print(f"  window aim {layout} {sigma * 1000:.0f} ms: ring 5 {hits / tries:.0%}",
                      file=sys.stderr)  # fmt: skip
            out[layout] = rows
    finally:
        window.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tries", type=int, default=100, help="window slides a level and layout")
    ap.add_argument("--shots", type=int, default=2000, help="headless shots a level")
    ap.add_argument("--games", type=int, default=200, help="games steadiest against shakiest")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layouts", default=",".join(LAYOUTS), help="comma-separated")
    args = ap.parse_args()
    layouts = tuple(args.layouts.split(","))
    if min(args.tries, args.shots) < 2 or args.games < 0:
        print("skill.py: --tries and --shots need at least 2, --games at least 0", file=sys.stderr)
        return 2
    if not layouts or not set(layouts) <= set(LAYOUTS):
        print(f"skill.py: --layouts: choose from {', '.join(LAYOUTS)}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    flick = window_flick(args.tries, args.seed, layouts)
    aim = window_aim(args.tries, args.seed, layouts)
    t_window = time.perf_counter() - t0
    headless = {
        layout: [
            ring5_rate(layout, flick_hand(s, a), args.shots, np.random.default_rng([args.seed, i]))
            for i, (s, a) in enumerate(FLICK_LEVELS)
        ]
        for layout in layouts
    }
    first = layouts[0]
    print(f"\n## Ring 5 from a straight shot at the empty board ({args.tries} window slides a "
          f"level, {args.shots} headless; {t_window:.0f} s in the window)\n")  # fmt: skip
    print("| flick (speed, direction spread) | " + " | ".join(
        f"{layout}: window (headless)" for layout in layouts) + " | window's shots: speed, "
        f"direction spread ({first}) |")  # fmt: skip
    print("| --- " * (len(layouts) + 2) + "|")
    for i, (s, a) in enumerate(FLICK_LEVELS):
        cells = [f"{flick[lay][i][0]:.0%} ({headless[lay][i]:.0%})" for lay in layouts]
        sq = flick[first][i]
        print(f"| {s:.0%}, {a}° | " + " | ".join(cells) + f" | {sq[1]:.1%}, {sq[2]:.2f}° |")
    print("\n| aim, let go (1 σ) | " + " | ".join(layouts) + f" | speed spread ({first}) |")
    print("| --- " * (len(layouts) + 2) + "|")
    for i, sigma in enumerate(TIMING_LEVELS):
        cells = [f"{aim[lay][i][0]:.0%}" for lay in layouts]
        print(f"| {sigma * 1000:.0f} ms | " + " | ".join(cells) + f" | {aim[first][i][1]:.1%} |")
    lost = max(row[3] for rows in flick.values() for row in rows)
    print(f"\nflicks that made no shot (a foul or put back): at most {lost:.0%} of a level")

    grid = [0.01 * 1.25**k for k in range(16)]
    curve = [(s, ring5_rate("square", person_hand(s), args.shots,
                            np.random.default_rng([args.seed, 50 + k])))
             for k, s in enumerate(grid)]  # fmt: skip
    print("\n## The computer strengths on a person's curve (square)\n")
    print("| strength | its hand's ring-5 rate | like a person with a flick speed spread of |")
    print("| --- | --- | --- |")
    for k, (name, hand) in enumerate(strength_hands().items()):
        rate = ring5_rate("square", hand, args.shots, np.random.default_rng([args.seed, 90 + k]))
        print(f"| {name} | {rate:.1%} | {person_like(rate, curve):.1%} |")

    if args.games:
        t1 = time.perf_counter()
        m = head_to_head(flick_hand(*FLICK_LEVELS[0]), flick_hand(*FLICK_LEVELS[-1]),
                         args.games, args.seed)  # fmt: skip
        print(f"\n## {m.games} games, race for home on the square, the weak mind choosing "
              f"({time.perf_counter() - t1:.0f} s)\n")  # fmt: skip
        print(f"steadiest flick ({FLICK_LEVELS[0][0]:.0%}, {FLICK_LEVELS[0][1]}°) against the "
              f"shakiest ({FLICK_LEVELS[-1][0]:.0%}, {FLICK_LEVELS[-1][1]}°): won {m.wins}, "
              f"lost {m.losses}, drawn {m.draws}: {m.share:.1%}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

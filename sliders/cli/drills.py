"""``sliders drills`` run: the ladder, a drill's tries scored, the hand fitted (its flags and help:
:mod:`sliders.cli.flags.drills`)."""

from __future__ import annotations

import argparse
import math
from datetime import UTC, datetime

from sliders.cli.outputs import check_pictures
from sliders.cli.prepare import prepare_engine
from sliders.core.errors import UserError
from sliders.game.drills import (
    LADDER,
    SHOOTER,
    TRIES,
    Drill,
    attempt,
    best_scores,
    drill,
    record_score,
    score_try,
)
from sliders.game.hand import (
    keep_attempts,
    keep_spread,
    kept_spreads,
    progress_words,
    save_hand,
)
from sliders.lab.handfit import drill_spread, fit_kept
from sliders.physics import PhysicsParams, Setup, Shot, check_shot, shot_limits, start
from sliders.pictures.hand import write_hand_png


def run(args: argparse.Namespace) -> int:
    check_pictures({"--picture": args.picture})
    if args.picture and not args.fit_hand:
        raise UserError("--picture draws the hand --fit-hand fits: give both")
    if args.drill is None:
        if args.tries or args.save_scene:
            raise UserError("--try and --save-scene need a drill (sliders drills lists them)")
        if args.fit_hand:
            return _fit(args.picture)
        best = best_scores()
        print(f"{'drill':<24} {'challenge':<30} best (of {3 * TRIES})")
        for d in LADDER:
            got = best.get(d.name)
            print(f"{d.name:<24} {d.title:<30} {'-' if got is None else got}")
        spreads = kept_spreads()
        if spreads:
            print(progress_words(spreads))
        return 0
    d = drill(args.drill)
    if len(args.tries) > TRIES:
        raise UserError(f"--try: a drill is {TRIES} tries, got {len(args.tries)}")
    shots = [_shot(t) for t in args.tries]
    if args.save_scene:
        d.scene.save(args.save_scene)
        print(f"wrote {args.save_scene}")
    if shots:
        _play(d, shots)
    if args.fit_hand:
        return _fit(args.picture)
    if not shots and not args.save_scene:
        print(f"{d.name}: {d.title}; best {best_scores().get(d.name, '-')} of {3 * TRIES}")
    return 0


def _shot(text: str) -> Shot:
    parts = text.split(",")
    try:
        values = [float(v) for v in parts]
    except ValueError:
        values = []
    if not 2 <= len(values) <= 3 or not all(math.isfinite(v) for v in values):
        raise UserError(f"--try {text!r}: expected SPEED,ANGLE or SPEED,ANGLE,OFFSET (numbers)")
    speed, angle, *rest = values
    return Shot.from_degrees(SHOOTER, speed, angle, offset=rest[0] if rest else 0.0)


def _play(d: Drill, shots: list[Shot]) -> None:
    params = PhysicsParams.default()
    layout, face = d.scene.build()
    setup = Setup(layout, face, params, "exact")
    for s in shots:
        shot_limits(layout, SHOOTER, params).check_ranges(
            {"speed": s.speed, "angle": math.degrees(s.angle), "offset": s.offset}
        )
        check_shot(setup, d.scene.pawns, s)
    prepare_engine("exact")
    total, attempts = 0, []
    for k, s in enumerate(shots, 1):
        sim = start(setup, d.scene.pawns, s)
        sim.run()
        got = score_try(d, sim.result())
        total += got
        a = attempt(d, s, params)
        if a is not None:
            attempts.append(a)
        print(f"try {k}: {s.speed:g} m/s, {math.degrees(s.angle):+g}°: {got}/3")
    if len(shots) == TRIES:
        best, new = record_score(d.name, total)
        print(f"{d.name}: {total}/{3 * TRIES}" + (" (a new best)" if new else f" (best {best})"))
    else:
        print(f"{d.name}: {total} from {len(shots)} tries (a score counts all {TRIES})")
    if attempts:
        n = keep_attempts(attempts)
        print(f"{len(attempts)} attempts kept for your hand ({n} in all)")
    spread = drill_spread(d.name, attempts, datetime.now(UTC).date().isoformat())
    if spread is not None and len(shots) == TRIES:
        print(progress_words(keep_spread(spread)))


def _fit(picture: str | None) -> int:
    fit = fit_kept()
    path = save_hand(fit)
    print(f"your hand {fit.describe()}")
    print(f"wrote {path}")
    if picture:
        write_hand_png(picture, fit)
        print(f"wrote {picture}")
    return 0

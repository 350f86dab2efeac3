"""``sliders review`` run: a saved game reviewed shot by shot (its flags and help:
:mod:`sliders.cli.flags.review`)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from sliders.boards import face
from sliders.cli.outputs import check_pictures
from sliders.cli.prepare import prepare_engine
from sliders.core.errors import UserError
from sliders.game.hand import parse_hand
from sliders.game.saves import load_replay, params_of, replay_layout
from sliders.lab.review import (
    NO_POSITIONS,
    Review,
    dumps,
    has_positions,
    review_game,
    summary,
    write_table,
)
from sliders.physics import Noise
from sliders.pictures.review import write_review_png
from sliders.rules import parse_seat


def run(args: argparse.Namespace) -> int:
    if args.out and not args.out.lower().endswith((".csv", ".json")):
        raise UserError(f"--out {args.out}: the table is .csv or .json")
    check_pictures({"--picture": args.picture})
    hands: dict[str, Noise] = {}
    for item in args.hand:
        seat, sep, hand = item.partition("=")
        if not sep:
            raise UserError(f"--hand {item!r}: expected SEAT=HAND")
        hands[parse_seat(seat.strip())] = parse_hand(hand.strip())
    if args.show and not has_positions(load_replay(args.log)):
        raise UserError(f"--show draws the table: {NO_POSITIONS}")
    prepare_engine("exact")

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\rreviewing shot {done}/{total}", end="", file=sys.stderr, flush=True)

    review = review_game(args.log, hands=hands, progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.out:
        write_table(review, args.out)
    if args.picture:
        write_review_png(
            args.picture,
            review.seats,
            review.curve,
            [asdict(s) for s in review.shots],
            f"{review.face}: chance of winning, shot by shot",
        )
    if args.json:
        print(dumps(review))
    else:
        print(summary(review))
        for path in (args.out, args.picture):
            if path:
                print(f"wrote {path}")
    if args.show:
        return _show(args.log, review)
    return 0


def _show(log: str, review: Review) -> int:
    """The review screen, in a window, until it is closed."""
    from sliders.scenes.app import App  # pygame: only when the window opens
    from sliders.scenes.reviewscreen import ReviewScreen

    game = load_replay(log)
    layout = replay_layout(game)
    params = params_of(game)
    app = App(sound=False, think_budget=None)
    try:
        app.show(
            ReviewScreen(app, review, game.states, layout, face(game.face), params.pawn_radius)
        )
        return app.run()
    finally:
        app.close()

"""``sliders practice`` run: checks the flags, then opens the window on the practice sandbox (its
flags and help: :mod:`sliders.cli.flags.practice`)."""

from __future__ import annotations

import argparse
import os

from sliders.cli import play
from sliders.cli.flags.play import CONTROLS, DEFAULT_CONTROL
from sliders.cli.outputs import check_outputs
from sliders.core.errors import UserError
from sliders.files.layouts import read_layout
from sliders.files.scenes import Scene
from sliders.game.config import check_face, check_hand, layout_seats
from sliders.physics import at_rest

DEFAULT_LAYOUT = "square"
DEFAULT_SCENE = "practice-scene.json"  # as sliders.scenes.practice, which loads pygame


def run(args: argparse.Namespace) -> int:
    size = play._size(args.size)
    control = DEFAULT_CONTROL if args.control is None else args.control
    if control not in CONTROLS:
        raise UserError(f"--control {control!r}: choose from {', '.join(CONTROLS)}")
    play.meter_flag(args)
    hand = check_hand(args.hand or "exact")
    path = args.scene or DEFAULT_SCENE
    check_outputs({"--scene": path})  # the default's too, which no flag named
    if args.scene and os.path.exists(path):
        if args.face or args.layout:
            raise UserError(
                f"--scene {path} exists: the table starts from it; leave out --face and --layout"
            )
        scene = Scene.load(path)
        built, on = scene.build()  # a layout that does not load fails here, in one line
        at_rest(built, on, scene.pawns)  # and so does a pawn of a seat not in play
    else:
        layout = args.layout or DEFAULT_LAYOUT
        face = check_face(args.face or read_layout(layout).face)
        scene = Scene(layout, layout_seats(layout), face)
    args.save = None
    app = play.open_play_window(size, args)
    app.control = control
    app.meter = play.meter_flag(args)
    app.hand = hand
    try:
        from sliders.scenes.screens import PracticeScreen

        app.show(PracticeScreen(app, scene, hand, path))
        return app.run()
    finally:
        app.close()

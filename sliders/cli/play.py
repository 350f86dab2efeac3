"""``sliders play`` run: checks the flags, then opens the window on the setup, play or replay
screen (its flags and help: :mod:`sliders.cli.flags.play`)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from sliders.cli.flags.play import CONTROLS, DEFAULT_CONTROL, MAX_SIDE, MIN_SIZE
from sliders.cli.params import physics_params
from sliders.core.errors import UserError
from sliders.game.config import DEFAULT_HAND, check_hand, config_from_flags
from sliders.game.saves import load_replay
from sliders.physics import require_engine
from sliders.scenes.table import Match

if TYPE_CHECKING:
    from sliders.scenes.app import App


def window_flags(args: argparse.Namespace) -> tuple[tuple[int, int], str]:
    """The window's size and control, as the flags ask (one line when they are wrong)."""
    size = _size(args.size)
    control = DEFAULT_CONTROL if args.control is None else args.control
    if control not in CONTROLS:
        raise UserError(f"--control {control!r}: choose from {', '.join(CONTROLS)}")
    return size, control


def run(args: argparse.Namespace) -> int:
    size, control = window_flags(args)
    hand = check_hand(args.hand or DEFAULT_HAND)
    config = None
    replay = None
    physics = args.params or args.param
    chosen = args.face or args.layout or args.seats or args.seed is not None or args.engine
    if args.replay:
        if chosen or physics:
            raise UserError(
                "--replay plays a saved game with the engine and the physics parameters it was "
                "played with: leave out --face, --layout, --seats, --seed, --engine, --params "
                "and --param"
            )

        replay = load_replay(args.replay)
    elif chosen or physics:
        params = physics_params(args) if physics else None
        config = config_from_flags(
            args.face, args.layout, args.seats, args.seed, args.engine, hand, params
        )
    if args.save and not os.path.isdir(os.path.dirname(os.path.abspath(args.save))):
        raise UserError(f"--save {args.save}: directory does not exist")
    if args.save and os.path.isdir(args.save):
        raise UserError(f"--save {args.save}: is a directory")

    require_engine(args.engine)  # one line now, not a failure at the first shot

    match = Match(config) if config else None  # a bad layout or seat fails before the window opens

    app = open_play_window(size, args)
    app.control = control
    app.hand = hand
    app.hints = bool(getattr(args, "hints", False))
    try:
        if replay is not None:
            from sliders.scenes.screens import ReplayScreen

            app.show(ReplayScreen(app, replay))
        elif match is not None:
            from sliders.scenes.screens import PlayScreen

            app.show(PlayScreen(app, match))
        else:
            from sliders.scenes.screens import SetupScreen

            app.show(SetupScreen(app))
        return app.run()
    finally:
        app.close()


def window_line() -> str:
    """One line on how the window draws on this machine (``sliders --version``): the video
    driver, and whether frames go through OpenGL or SDL's software framebuffer."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sliders.scenes.app import describe_present

    return f"window: {describe_present()}"


def open_play_window(size: tuple[int, int], args: argparse.Namespace) -> App:
    """The window, or one line saying why there is none."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sliders.scenes.app import open_window

    return open_window(
        size,
        fullscreen=args.fullscreen,
        sound=not args.no_sound,
        save_path=getattr(args, "save", None),
    )


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    try:
        size = (int(w), int(h))
    except ValueError:
        size = (0, 0)
    if not sep or not (MIN_SIZE[0] <= size[0] <= MAX_SIDE and MIN_SIZE[1] <= size[1] <= MAX_SIDE):
        raise UserError(
            f"--size {text!r}: expected WIDTHxHEIGHT, from {MIN_SIZE[0]}x{MIN_SIZE[1]} "
            f"to {MAX_SIDE}x{MAX_SIDE}"
        )
    return size

"""``sliders play`` run: checks the flags, then opens the window on the setup, play or replay
screen (its flags and help: :mod:`sliders.cli.flags.play`)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from sliders.cli.flags.play import CONTROLS, DEFAULT_CONTROL, MAX_SIDE, MIN_SIZE
from sliders.cli.params import physics_params
from sliders.core.errors import UserError
from sliders.game.config import (
    DEFAULT_HAND,
    DEFAULT_METER,
    MatchConfig,
    check_hand,
    check_meter,
    config_from_flags,
    parse_seat_specs,
)
from sliders.game.saves import load_replay, resumed_config
from sliders.physics import require_engine
from sliders.rules import Game
from sliders.scenes.table import Match

if TYPE_CHECKING:
    from sliders.scenes.app import App


def window_flags(args: argparse.Namespace) -> tuple[tuple[int, int], str]:
    """The window's size and control, as the flags ask (one line when they are wrong)."""
    size = _size(args.size)
    control = DEFAULT_CONTROL if args.control is None else args.control
    if control not in CONTROLS:
        raise UserError(f"--control {control!r}: choose from {', '.join(CONTROLS)}")
    check_meter(getattr(args, "meter", None) or DEFAULT_METER)
    return size, control


def meter_flag(args: argparse.Namespace) -> str:
    """The aim control's meter speed the flags ask for (checked by :func:`window_flags`)."""
    return check_meter(getattr(args, "meter", None) or DEFAULT_METER)


def run(args: argparse.Namespace) -> int:
    size, control = window_flags(args)
    hand = check_hand(args.hand or DEFAULT_HAND)
    config = None
    replay = None
    game = None
    physics = args.params or args.param
    chosen = (
        args.face or args.layout or args.seats or args.seed is not None or args.engine
        or args.house_rule
    )  # fmt: skip
    if args.resume:
        config, game = _resumed(args, hand)
        args.save = args.save or args.resume  # Save game writes the game taken up again
    elif args.replay:
        if chosen or physics:
            raise UserError(
                "--replay plays a saved game with the engine and the physics parameters it was "
                "played with: leave out --face, --layout, --seats, --seed, --engine, --params, "
                "--param and --house-rule"
            )

        replay = load_replay(args.replay)
    elif chosen or physics:
        params = physics_params(args) if physics else None
        config = config_from_flags(
            args.face, args.layout, args.seats, args.seed, args.engine, hand, params,
            args.house_rule or (),
        )  # fmt: skip

    require_engine(args.engine)  # one line now, not a failure at the first shot

    # a bad layout or seat fails before the window opens
    match = Match(config, None, game) if config else None

    app = open_play_window(size, args)
    app.control = control
    app.meter = meter_flag(args)
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


def _resumed(args: argparse.Namespace, hand: str) -> tuple[MatchConfig, Game]:
    """The game a ``--resume`` log holds, and who plays it: ``--seats`` if given, else a person
    in each seat the log gives a person's hand, the computer in the others."""
    if (
        args.replay or args.face or args.layout or args.seed is not None or args.engine
        or args.house_rule
    ):  # fmt: skip
        raise UserError(
            "--resume takes up the game as its log has it: leave out --replay, --face, --layout, "
            "--seed, --engine and --house-rule"
        )
    if args.params or args.param:
        raise UserError("--resume plays on in the physics the log records: leave out --params "
                        "and --param")  # fmt: skip
    game = load_replay(args.resume)
    seats = parse_seat_specs(args.seats) if args.seats else None
    try:
        return resumed_config(game, hand, seats), game
    except UserError as exc:
        if game.state.winner is not None:
            raise UserError(f"--resume {args.resume}: {exc}") from None
        raise


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

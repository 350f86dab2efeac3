"""Play Sorry! Sliders in a window, against friends at the same screen or against the computer.

With no flags a setup screen chooses the game, the layout and the players. --face, --layout,
--seats, --seed and --engine skip it, e.g. ``--face instant-sorry --layout square --seats
south=human,north=cpu:hard`` (a seat is a person, or ``cpu`` with a strength: easy, medium, hard,
or a hand and a mind: ``cpu:hand=low,mind=strong``).
--replay plays back a saved game. In the window (--control aim, the default): press in your lane,
pull back to aim and set the power, let go; with --control flick: swing a pawn from your hand and let go while it moves.
Tab shows the whole table, Esc pauses, F11 toggles full screen."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from sliders.boards.faces import DEFAULT_FACE, FACES
from sliders.cli.args import seed
from sliders.errors import UserError
from sliders.game.config import config_from_flags
from sliders.game.gamelog import load_replay
from sliders.outcome import ENGINES
from sliders.physics.engines import require_engine
from sliders.scenes.table import Match

if TYPE_CHECKING:
    from sliders.scenes.app import App

DEFAULT_LAYOUT = "square"
CONTROLS = ("aim", "flick")  # as sliders.scenes.controls, which loads pygame
DEFAULT_CONTROL = "aim"
MIN_SIZE = (640, 420)
MAX_SIDE = 16384  # the largest window SDL makes


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--face", choices=FACES, help=f"the game (default: the layout's, {DEFAULT_FACE})"
    )
    p.add_argument(
        "--layout", help=f"built-in layout name or layout file (default: {DEFAULT_LAYOUT})"
    )
    p.add_argument(
        "--seats",
        metavar="SPEC",
        help="who sits where: SEAT=human, SEAT=cpu[:easy|medium|hard] or "
        "SEAT=cpu:hand=none|low|medium|high,mind=weak|fair|strong|classic, comma-separated "
        "(default: the layout's seats, the first a person, the others the computer)",
    )
    p.add_argument("--seed", type=seed, help="seed for the computer players and the physics")
    p.add_argument("--engine", choices=ENGINES, help="physics engine (default: see sliders params)")
    p.add_argument(
        "--control",
        metavar="NAME",
        help="how a person slides: aim (pull back like a slingshot; a power gauge) or flick "
        f"(swing the pawn and let go) (default: {DEFAULT_CONTROL})",
    )
    p.add_argument("--replay", metavar="FILE", help="play back a saved game log")
    p.add_argument(
        "--save", metavar="FILE", help="where 'Save game' writes (default: a dated file)"
    )
    p.add_argument(
        "--size", default="1280x800", help="window size WIDTHxHEIGHT (default: 1280x800)"
    )
    p.add_argument("--fullscreen", action="store_true", help="start in full screen")
    p.add_argument("--no-sound", action="store_true", help="no hit sounds")


def run(args: argparse.Namespace) -> int:

    size = _size(args.size)
    control = DEFAULT_CONTROL if args.control is None else args.control
    if control not in CONTROLS:
        raise UserError(f"--control {control!r}: choose from {', '.join(CONTROLS)}")
    config = None
    replay = None
    if args.replay:
        if args.face or args.layout or args.seats or args.seed is not None or args.engine:
            raise UserError(
                "--replay plays a saved game with the engine it was played with: "
                "leave out --face, --layout, --seats, --seed and --engine"
            )

        replay = load_replay(args.replay)
    elif args.face or args.layout or args.seats or args.seed is not None or args.engine:
        config = config_from_flags(args.face, args.layout, args.seats, args.seed, args.engine)
    if args.save and not os.path.isdir(os.path.dirname(os.path.abspath(args.save))):
        raise UserError(f"--save {args.save}: directory does not exist")
    if args.save and os.path.isdir(args.save):
        raise UserError(f"--save {args.save}: is a directory")

    require_engine(args.engine)  # one line now, not a failure at the first shot

    match = Match(config) if config else None  # a bad layout or seat fails before the window opens

    app = _open_window(size, args)
    app.control = control
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


def _open_window(size: tuple[int, int], args: argparse.Namespace) -> App:
    """The window, or one line saying why there is none."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sliders.scenes.app import open_window

    return open_window(
        size, fullscreen=args.fullscreen, sound=not args.no_sound, save_path=args.save
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

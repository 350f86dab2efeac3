"""Play Sorry! Sliders in a window, against friends at the same screen or against the computer.

With no flags a setup screen chooses the game, the layout and the players. --face, --layout,
--seats, --seed, --engine, --params and --param skip it, e.g. ``--face instant-sorry --layout square --seats
south=human,north=cpu:hard`` (a seat is a person, or ``cpu`` with a strength: easy, medium, hard,
or a hand and a mind: ``cpu:hand=low,mind=strong``).
--replay plays back a saved game, with the engine and the physics parameters it was played with. In the window
(--control flick, the default): swing a pawn from your hand and let go while it moves; with --control aim: press
in your lane, pull back to aim, let go when the moving power meter is where you want it (--meter slow|normal|fast).
A person's slide is what their hand did; --hand steady|normal|shaky adds a computer's noise as a handicap.
Tab shows the whole table, W each seat's chance of winning, Esc pauses, F11 toggles full screen.
--hints lets a person ask for the computer's suggested shot (H), each hint written in the game log.
The setup screen also opens practice (sliders practice) and the drills, and the results screen a
review of the game (sliders review). See docs/coach.md."""

from __future__ import annotations

import argparse

from sliders.cli.args import (
    DEFAULT_FACE,
    DEFAULT_LAYOUT,
    add_house_rule,
    add_param_argument,
    reads,
    seed,
    writes,
)
from sliders.core.outcome import ENGINES, FACES

HELP = "play a game in a window"
CONTROLS = ("flick", "aim")  # as sliders.scenes.controls, which loads pygame
DEFAULT_CONTROL = "flick"
MIN_SIZE = (640, 420)
MAX_SIDE = 16384  # the largest window SDL makes


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--face", choices=FACES, help=f"the game (default: the layout's, {DEFAULT_FACE})"
    )
    reads(
        p.add_argument(
            "--layout", help=f"built-in layout name or layout file (default: {DEFAULT_LAYOUT})"
        )
    )
    p.add_argument(
        "--seats",
        metavar="SPEC",
        help="who sits where, comma-separated: SEAT=human, SEAT=cpu[:easy|medium|hard] or "
        "SEAT=cpu:hand=H,mind=M (H: none, low, medium or high; M: weak, fair, strong, deep or "
        "classic) (default: the layout's seats, the first a person, the others the computer)",
    )
    p.add_argument("--seed", type=seed, help="seed for the computer players and the physics")
    p.add_argument("--engine", choices=ENGINES, help="physics engine (default: see sliders params)")
    add_param_argument(p)
    add_house_rule(p, "the game's log")
    p.add_argument(
        "--hand",
        metavar="NAME",
        help="every person's hand: exact (the shot their hand made, nothing added), or a "
        "handicap: steady, normal (the medium computer's noise) or shaky, a computer's noise "
        "added to each slide and recorded in the log (default: exact)",
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help="a person may ask for the computer's suggested shot (H); each is written in the log",
    )
    reads(p.add_argument("--replay", metavar="FILE", help="play back a saved game log"))
    writes(
        p.add_argument(
            "--resume",
            metavar="FILE",
            help="take up a saved game (Save game writes one) where it was saved; Save game then "
            "writes it again, unless --save says where",
        ),
        "update",
    )
    writes(
        p.add_argument(
            "--save", metavar="FILE", help="where 'Save game' writes (default: a dated file)"
        )
    )
    add_window_arguments(p)


def add_window_arguments(p: argparse.ArgumentParser) -> None:
    """The window's own flags (``sliders play``, and a hosted game's window)."""
    p.add_argument(
        "--control",
        metavar="NAME",
        help="how a person slides: flick (swing the pawn and let go) or aim (pull back to aim, "
        f"let go when the moving power meter is right) (default: {DEFAULT_CONTROL})",
    )
    p.add_argument(
        "--meter",
        metavar="SPEED",
        help="the aim control's power meter: slow, normal or fast (fast also draws the aim "
        "line half as far) (default: normal)",
    )
    p.add_argument(
        "--size", default="1280x800", help="window size WIDTHxHEIGHT (default: 1280x800)"
    )
    p.add_argument("--fullscreen", action="store_true", help="start in full screen")
    p.add_argument("--no-sound", action="store_true", help="no hit sounds")

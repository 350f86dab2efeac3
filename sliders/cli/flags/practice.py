"""Practice in a window: a sandbox where you drag pawns of any colour anywhere on the table, slide
as often as you like, take back a shot (Z) or try it again from the same table (R), and save the
table as a scene file (S) or load one (L): the format sliders shot --scene reads. A: aim help (the
path your aimed pawn would take with no noise up to its first contact, and where it would stop);
H: the computer's suggested shot. N: the next seat slides. The setup screen of sliders play
opens it too (Practice), and its drills (Drills). See docs/coach.md."""

from __future__ import annotations

import argparse

from sliders.cli.args import DEFAULT_LAYOUT, reads, writes
from sliders.core.outcome import FACES

HELP = "practice in a sandbox: place pawns, slide, undo and retry, aim help and hints"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--face", choices=FACES, help="the game (default: the layout's)")
    reads(
        p.add_argument(
            "--layout", help=f"built-in layout name or layout file (default: {DEFAULT_LAYOUT})"
        )
    )
    writes(
        p.add_argument(
            "--scene",
            metavar="FILE",
            help="the scene file S saves to and L loads from (default: practice-scene.json); "
            "when it exists the table starts from it (leave out --face and --layout then)",
        ),
        "update",
    )
    p.add_argument(
        "--hand",
        metavar="NAME",
        help="your hand: exact (the shot your hand made, nothing added), or a handicap: steady, "
        "normal or shaky (default: exact)",
    )
    p.add_argument(
        "--control",
        metavar="NAME",
        help="how you slide: flick (swing and let go) or aim (pull back, let go on the power "
        "meter) (default: flick)",
    )
    p.add_argument(
        "--meter",
        metavar="SPEED",
        help="the aim control's power meter: slow, normal or fast (default: normal)",
    )
    p.add_argument(
        "--size", default="1280x800", help="window size WIDTHxHEIGHT (default: 1280x800)"
    )
    p.add_argument("--fullscreen", action="store_true", help="start in full screen")
    p.add_argument("--no-sound", action="store_true", help="no hit sounds")

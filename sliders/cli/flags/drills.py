"""Drills: a ladder of short challenges on every face (stop in the centre ring, pass between two
pawns, a takeout, a pawn into a SORRY! corner, the hole), each five tries scored 0..3, the best
scores kept in your data directory. Without a drill, list the ladder with your best scores.

Slide a drill's tries from the terminal (--try SPEED,ANGLE[,OFFSET], up to five), or write its
table as a scene file (--save-scene) for sliders shot --scene. The centre and hole drills have a
known target, so each try is also kept as an attempt for measuring your hand: --fit-hand fits
your speed and angle spread and bias from the attempts kept (with 95 % intervals) and saves it,
played afterwards as the hand me (sliders best --noise me, sliders play --seats north=cpu:me).
Everything kept lives in $XDG_DATA_HOME/sliders (~/.local/share/sliders). See docs/coach.md.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import writes

HELP = "drills: short challenges scored, best scores kept, your hand measured"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "drill", nargs="?", metavar="DRILL", help="a drill's name, e.g. centre-race-for-home"
    )
    p.add_argument(
        "--try",
        dest="tries",
        action="append",
        default=[],
        metavar="SPEED,ANGLE[,OFFSET]",
        help="one try: speed m/s, angle degrees to your right, offset m (repeat, up to five)",
    )
    writes(
        p.add_argument(
            "--save-scene", metavar="FILE", help="write the drill's table as a scene file"
        )
    )
    p.add_argument(
        "--fit-hand", action="store_true", help="fit your hand from the attempts kept and save it"
    )
    writes(
        p.add_argument(
            "--picture",
            metavar="FILE",
            help="with --fit-hand: your hand against the computer hands, as a .png",
        )
    )

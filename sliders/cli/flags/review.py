"""Review a saved game shot by shot: for every shot, the shooter's chance of winning before and
after it, the best shot the computer's search finds from that position under the shooter's hand
(the pawn that was slid) with its chance, and a mark (good, imprecise, mistake, blunder: by the
chance lost against that best shot, 4, 10 and 20 points of a percent). The same log always gives
the same review. Writes a table (--out: .csv or .json) and a picture of the chance of winning over
the game (--picture: .png). See docs/coach.md.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import reads, writes

HELP = "review a saved game shot by shot: chances of winning, best shots, marks"


def add_arguments(p: argparse.ArgumentParser) -> None:
    reads(
        p.add_argument(
            "log", metavar="LOG", help="a game log saved by sliders play or sliders score"
        )
    )
    writes(p.add_argument("--out", metavar="FILE", help="the review's table: .csv or .json"))
    writes(
        p.add_argument(
            "--picture", metavar="FILE", help="the chance of winning over the game: .png"
        )
    )
    p.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="SEAT=HAND",
        help="review SEAT with this hand (a noise level, a multiple of the medium one, or me: "
        "your measured hand); default: the hand the log records, else medium (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print the whole review as JSON")
    p.add_argument(
        "--show",
        action="store_true",
        help="then open a window to step through the shots: the table, the shot as slid beside "
        "the best shot, the chance of winning over the game",
    )

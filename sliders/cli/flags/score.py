"""Keep score for a game of Sorry! Sliders played on the physical board.

A new game needs --face and --players (or --boards), e.g. sliders score --face race-for-home
--players red,yellow --log game.json. Type what happens as it happens, one shot a line ("red 3", "blue sorry", "green tip",
"yellow 4, red#1 off"); the scorekeeper applies the rules, shows every score board, and at the
end of each round suggests how each player should move their scoring pawns. Type "help" for
every word; the arrow keys edit a line and recall earlier ones. With --log FILE the game is
saved after every step (and on Ctrl-C), and sliders score --log FILE resumes it. --boards picks up a game already in progress, e.g.
--boards red=0,0,2,6 yellow=6,home,1,start --round 4.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import add_house_rule, reads, writes
from sliders.core.outcome import FACES

HELP = "keep score for a game played on the physical board"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--face", choices=FACES, help="the game (target board face) to play; a new game needs it"
    )
    parser.add_argument(
        "--players",
        metavar="LIST",
        help="comma-separated colours or seats, e.g. red,yellow (default: those of --boards)",
    )
    parser.add_argument(
        "--starter", metavar="PLAYER", help="who slides first (default: the first in turn order)"
    )
    parser.add_argument(
        "--boards",
        nargs="+",
        metavar="PLAYER=SQUARES",
        help="resume a game in progress: each player's four scoring pawns' squares, 0 (or "
        "START) to 6 (or HOME), e.g. red=0,0,2,6 yellow=6,home,1,start; a player not named "
        "starts on START",
    )
    parser.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="the number of the round about to be played (default: 1)",
    )
    add_house_rule(parser, "the game's log")
    writes(
        parser.add_argument(
            "--log",
            metavar="FILE",
            help="save the game here after every step; resume it if it exists",
        ),
        "update",
    )
    mode = parser.add_mutually_exclusive_group()
    reads(
        mode.add_argument(
            "--replay", metavar="FILE", help="replay a saved game and print the result"
        )
    )
    mode.add_argument(
        "--batch",
        action="store_true",
        help="read a whole script from standard input, no prompts; stop at the first bad line",
    )

"""Join a game that ``sliders host`` serves: with a seat's code, or --watch to follow it.

ADDRESS is what the host printed (HOST:PORT, or a ws:// address). With a seat's code the window
opens and you play the seat with the controls of a local game (your aim is measured here; the
host slides the shot); --watch opens it to follow the game. --bot PLAYER plays the seat with a
computer player instead (any tournament player: cpu:easy, centre, greedy, MODULE:FUNCTION), and
--text (or --bot) tells the game in text instead of a window. Each shot is run again on this
machine and compared with the host's (the host's result stands; a difference is reported). A
connection lost mid-game (the host restarted with --resume) is made again, and the game goes on
where the host has it.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import seed
from sliders.cli.flags.play import add_window_arguments

HELP = "join a hosted game over the network (your seat in the window, a bot's, or --watch)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "address",
        help="the host's address: HOST:PORT, [IPv6]:PORT, or ws://HOST:PORT or wss://HOST:PORT "
        "(a host serving TLS)",
    )
    p.add_argument("--room", default="1", help="the room (default: 1)")
    p.add_argument(
        "--code",
        help="the seat's join code (32 hexadecimal digits); with --watch, the room's watch code "
        "when the host asks for one",
    )
    p.add_argument("--watch", action="store_true", help="follow the game without a seat")
    p.add_argument(
        "--bot", metavar="PLAYER", help="who plays the seat: a tournament player, e.g. cpu:medium"
    )
    p.add_argument("--name", help="the name the others see")
    p.add_argument(
        "--reconnect",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to keep trying when the host goes away mid-game (default: 60)",
    )
    p.add_argument("--seed", type=seed, default=0, help="seed of the bot's choices (default: 0)")
    p.add_argument(
        "--text",
        action="store_true",
        help="tell the game in text instead of opening the window (with --watch or --bot)",
    )
    add_window_arguments(p)

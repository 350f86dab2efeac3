"""Host games that friends and bots join over the network (see docs/protocol.md).

The game is chosen as ``sliders play`` chooses it (--face, --layout, --seats, --seed, --hand);
a seat is ``remote`` (a person or a bot joining with ``sliders join`` and the seat's code; a bare
seat is one too), ``human`` (you, at this host's own window: the window opens on the first room
and the host stops when it closes) or ``cpu[:STRENGTH]`` (played by this host). The host prints, for
each room, the address and one join code per remote seat, then plays every room to its end. It
writes each room's game log in --dir after every shot (ROOM.json, a log ``sliders play --replay``
plays back) and the room's codes beside it (ROOM.json.codes.json, readable by you alone); a host
stopped for any reason takes its game up again with --resume ROOM.json, the same codes still
valid. It listens on 127.0.0.1 (this machine only) unless told --public (every interface, IPv6
and IPv4), and then prints this machine's addresses. On a network others share, serve TLS
(--cert and --key: clients join wss://HOST:PORT) or put a TLS proxy in front, so that the codes
do not cross the network in clear; --watch-code makes watchers need a code of their own.
Connections are capped in total and from one address, watchers in a room.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import port, reads, seed, writes
from sliders.cli.flags.play import add_window_arguments
from sliders.core.outcome import ENGINES, FACES

HELP = "host games that others join over the network"
DEFAULT_PORT = 8765


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 86400, not {text!r}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--face", choices=FACES, help="the game (default: the layout's)")
    reads(p.add_argument("--layout", help="built-in layout name or layout file (default: square)"))
    p.add_argument(
        "--seats",
        metavar="SPEC",
        help="who sits where: SEAT=remote, SEAT=human (this host's window: one seat) or "
        "SEAT=cpu[:STRENGTH], comma-separated (default: the layout's seats, every one remote)",
    )
    p.add_argument(
        "--seed", type=seed, help="seed of the physics and the computers (default: fresh)"
    )
    p.add_argument("--engine", choices=ENGINES, help="physics engine (default: see sliders params)")
    p.add_argument(
        "--hand",
        metavar="NAME",
        help="every remote person's hand: exact (their own, nothing added), or a handicap: "
        "steady, normal or shaky, a computer's noise added to each slide (default: exact)",
    )
    p.add_argument("--rooms", type=int, default=1, help="games served at once (default: 1)")
    p.add_argument("--max-rounds", type=int, help="a game not won after this many rounds is a draw")
    reads(
        p.add_argument(
            "--resume", metavar="LOG", help="take up the game of a room's log where it stopped"
        )
    )
    writes(
        p.add_argument(
            "--dir",
            default=".",
            help="folder of the rooms' logs and codes (default: the current one)",
        ),
        "folder",
    )
    p.add_argument(
        "--port",
        type=port,
        default=DEFAULT_PORT,
        help=f"port, 0 to 65535 (default: {DEFAULT_PORT}; 0: a free one)",
    )
    p.add_argument(
        "--public",
        action="store_true",
        help="listen on every network interface, IPv6 and IPv4 (default: this machine only)",
    )
    reads(
        p.add_argument(
            "--cert",
            metavar="PEM",
            help="serve TLS (clients join wss://HOST:PORT) with this certificate chain; "
            "give --key too",
        )
    )
    reads(p.add_argument("--key", metavar="PEM", help="the private key of --cert"))
    p.add_argument(
        "--watch-code",
        action="store_true",
        help="watchers need a code of their own (printed with the seats' codes; default: "
        "anyone who can reach the host may watch)",
    )
    p.add_argument(
        "--origin",
        action="append",
        metavar="URL",
        help="a web page's origin (https://NAME[:PORT]) whose visitors' browsers may connect, "
        "besides pages this host serves itself (repeatable; default: none)",
    )
    p.add_argument(
        "--web",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="serve the web page on the same port: each seat plays from a phone or a browser "
        "with the link (and QR code) printed here, /table shows the whole table (default: on; "
        "--no-web: the protocol alone)",
    )
    p.add_argument(
        "--turn-timeout",
        type=positive,
        metavar="SECONDS",
        help="an absent player's turn waits this long, then the computer takes it (default: waits)",
    )
    p.add_argument(
        "--stand-in",
        default="medium",
        metavar="STRENGTH",
        help="the computer that takes an absent player's turn (default: medium)",
    )
    p.add_argument(
        "--clock",
        type=positive,
        metavar="SECONDS",
        help="seconds a player has for each shot; a shot not sent in time is lost (default: none)",
    )
    p.add_argument("--json", action="store_true", help="print the rooms and codes as one JSON line")
    add_window_arguments(p)

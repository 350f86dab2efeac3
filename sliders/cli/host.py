"""``sliders host`` run: the rooms set up (or one resumed from its log), served until every game
is over (its flags and help: :mod:`sliders.cli.flags.host`)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import shutil
import signal
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sliders.cli import stopped_by
from sliders.cli.join import play_hosted
from sliders.cli.play import window_flags
from sliders.core.errors import UserError
from sliders.core.outcome import Shot
from sliders.files.layouts import read_layout
from sliders.game.config import DEFAULT_HAND, check_hand, config_from_flags, parse_computer
from sliders.net.guard import (
    Gate,
    connection_cap,
    host_port,
    listen,
    machine_addresses,
    server_tls,
)
from sliders.net.host import Host, Room, SeatPlan, new_room, parse_host_seats, resume_room
from sliders.net.link import Link
from sliders.net.web import Site, print_links, seat_link
from sliders.physics import require_engine, simulate

MAX_ROOMS = 1000


SWITCH = 0.0005
"""seconds a room's thread (the physics, the log) holds the interpreter before the thread that
talks to the clients may run: Python's default, 5 ms, makes every message wait that long behind
each busy room"""


@dataclass
class Listening:
    """Where a host serves: its socket (bound before any log is written), TLS, the caps."""

    sock: socket.socket
    tls: ssl.SSLContext | None
    gate: Gate
    public: bool


def run(args: argparse.Namespace) -> int:
    here = [p.seat for p in parse_host_seats(args.seats) if p.here] if args.seats else []
    if len(here) > 1:
        raise UserError(
            "--seats: one seat is played at the host's window (human), the others remote"
        )
    if here:
        window_flags(args)
    if bool(args.cert) != bool(args.key):
        raise UserError("--cert and --key go together: the certificate and its private key")
    tls = server_tls(args.cert, args.key) if args.cert else None
    origins = tuple(_origin(o) for o in args.origin or ())
    if hasattr(sys.stdout, "reconfigure"):  # every line out at once, to a pipe as to a terminal
        sys.stdout.reconfigure(line_buffering=True)
    # bound before any log is written: a port in use leaves no file behind
    sock = listen("::" if args.public else "127.0.0.1", args.port)
    try:
        rooms = make_rooms(args)
        gate = Gate(connection_cap(len(rooms)), origins=origins)
        where = Listening(sock, tls, gate, args.public)
        sys.setswitchinterval(SWITCH)
        gc.collect()
        gc.freeze()  # the setup's objects (the modules, the engine, the rooms) out of collections
    except BaseException:
        sock.close()
        raise
    try:
        if not here:
            return asyncio.run(serve(rooms, where, args.json, web=args.web))
        return _serve_and_play(args, rooms, where, here[0])
    except KeyboardInterrupt:
        signum = stopped_by() or int(signal.SIGINT)
        why = "" if signum == signal.SIGINT else f" ({signal.Signals(signum).name})"
        going = [str(r.log) for r in rooms if not r.game.over] or [str(rooms[0].log)]
        more = f" (and {len(going) - 1} more room(s) the same way)" if len(going) > 1 else ""
        print(
            f"sliders host: interrupted{why}: every game is kept in its log; take one up again "
            f"with sliders host --resume {going[0]}{more}",
            file=sys.stderr,
        )
        return 128 + signum


def _origin(text: str) -> str:
    """An ``--origin``: ``http(s)://NAME[:PORT]`` as a browser sends it."""
    scheme, sep, rest = text.partition("://")
    if scheme not in ("http", "https") or not sep or not rest or "/" in rest.rstrip("/"):
        raise UserError(f"--origin {text!r}: expected https://NAME or https://NAME:PORT")
    return f"{scheme}://{rest.rstrip('/').lower()}"


def _serve_and_play(
    args: argparse.Namespace, rooms: list[Room], where: Listening, seat: str
) -> int:
    """Serve the rooms in a thread of their own while the window plays ``seat`` of the first
    room, joined with its code as any client is, the other seats' web page links at hand for
    its Invite; the host stops when the window closes (the game's log kept: ``--resume`` takes
    it up)."""
    started = threading.Event()
    running: dict[str, Any] = {}

    def on_start(host: Host, base: str | None) -> None:
        running["host"], running["task"], running["base"] = host, asyncio.current_task(), base
        running["loop"] = asyncio.get_running_loop()
        started.set()

    def serving() -> None:
        try:
            asyncio.run(serve(rooms, where, args.json, on_start, web=args.web))
        except asyncio.CancelledError:
            pass
        except BaseException as exc:  # said by the window's thread
            running["error"] = exc
        finally:
            started.set()

    thread = threading.Thread(target=serving, name="sliders-host", daemon=True)
    thread.start()
    started.wait()
    if "error" in running:
        raise running["error"]
    first = rooms[0]
    scheme, own = "ws", None
    if where.tls is not None:  # its own window on the loopback: the certificate names others
        scheme, own = "wss", ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        own.check_hostname, own.verify_mode = False, ssl.CERT_NONE
    url = f"{scheme}://127.0.0.1:{running['host'].port}"
    link = Link(url, first.name, first.codes[seat], name="host", tls=own)
    base = running["base"]
    phones = {  # the window's Invite shows these as QR codes
        s: seat_link(base, first.name, code) for s, code in first.codes.items() if s != seat
    }
    try:
        return play_hosted(args, link, link.open(), phones if base is not None else None)
    finally:
        running["loop"].call_soon_threadsafe(running["task"].cancel)
        thread.join(5.0)


def make_rooms(args: argparse.Namespace) -> list[Room]:
    """The rooms the flags ask for, their logs checked and written before anyone connects."""
    if not 1 <= args.rooms <= MAX_ROOMS:
        raise UserError(f"--rooms {args.rooms}: from 1 to {MAX_ROOMS}")
    if args.max_rounds is not None and args.max_rounds < 1:
        raise UserError("--max-rounds: at least 1")
    parse_computer(args.stand_in, "--stand-in")
    options = {
        "turn_timeout": args.turn_timeout,
        "stand_in": args.stand_in,
        "clock": args.clock,
        "say": print,
        "watch_code": args.watch_code,
    }
    plans = parse_host_seats(args.seats) if args.seats else None
    if args.resume:
        if args.face or args.layout or args.seed is not None or args.rooms != 1:
            raise UserError(
                "--resume takes the game as its log has it: leave out --face, --layout, --seed and --rooms"
            )
        resumed = resume_room(Path(args.resume), plans, args.max_rounds, **options)
        warm_up(resumed)
        return [resumed]
    folder = Path(args.dir)  # a folder: checked before the command ran
    layout = args.layout or "square"
    plans = plans or tuple(SeatPlan(s, "remote") for s in read_layout(layout).default_seats)
    seats = ",".join(
        f"{p.seat}=human" if p.kind == "remote" else f"{p.seat}=cpu:{p.strength}" for p in plans
    )
    config = config_from_flags(
        args.face, layout, seats, args.seed, args.engine, check_hand(args.hand or DEFAULT_HAND)
    )
    require_engine(args.engine)
    made = [
        new_room(str(i), config, plans, folder, args.max_rounds, **options)
        for i in range(1, args.rooms + 1)
    ]
    warm_up(made[0])
    return made


def warm_up(first: Room) -> None:
    """One shot run on an empty table, so that the engine is loaded before the first player's
    shot is (the exact engine reads its compiled kernels on first use)."""
    game = first.game
    seat = game.seats[0]
    simulate(game.turns.setup, (), Shot(seat, 0.5, pawn=f"{seat}-1", seed=0))


async def serve(
    rooms: list[Room],
    where: Listening,
    as_json: bool,
    on_start: Callable[[Host, str | None], None] | None = None,
    web: bool = True,
) -> int:
    """Serve ``rooms`` until every game is over; ``on_start`` is told the host once it listens
    and has printed how to join, with the web page's address (None without the page). ``web``:
    the web page served on the same port
    (:mod:`sliders.net.web`; browsers' connections are checked for their origin either way)."""
    host = Host(rooms, where.gate, say=print)
    site = Site(host.rooms, web=web, secure=where.tls is not None)
    host.http = site
    try:
        await host.start(sock=where.sock, tls=where.tls)
    except OSError as exc:
        raise UserError(f"cannot listen: {exc.strerror or exc}") from None
    bound = str(where.sock.getsockname()[0])
    addresses = (machine_addresses() or [socket.gethostname()]) if where.public else [bound]
    scheme = "wss://" if where.tls is not None else ""
    joins = [f"{scheme}{host_port(a, host.port)}" for a in addresses]
    base = f"{site.scheme}://{host_port(addresses[0], host.port)}"
    if as_json:
        listing: dict[str, Any] = {
            "address": bound,
            "port": host.port,
            "tls": where.tls is not None,
            "addresses": joins,
            "rooms": {
                r.name: {"log": str(r.log), "codes": r.codes, "watch": r.watch_code} for r in rooms
            },
        }
        if web:
            listing["web"] = {"lobby": f"{base}/?key={site.key}", "base": base}
        print(json.dumps(listing), flush=True)
    else:
        print(
            f"hosting {len(rooms)} room(s) on {host_port(bound, host.port)}"
            + (" (TLS)" if where.tls is not None else "")
            + f", at most {where.gate.total} connections ({where.gate.per_address} from one address)"
        )
        join = joins[0]
        for r in rooms:
            print(f"room {r.name}: log {r.log}")
            for seat, code in r.codes.items():
                print(f"  {seat}: sliders join {join} --room {r.name} --code {code}")
            watch = f" --code {r.watch_code}" if r.watch_code is not None else ""
            print(f"  watch: sliders join {join} --room {r.name} --watch{watch}")
        if len(joins) > 1:
            print(f"this machine is also at: {', '.join(joins[1:])}")
        if web:
            print_links(rooms, base, site.key, width=shutil.get_terminal_size((100, 24)).columns)
        print("", flush=True)
    if on_start is not None:
        on_start(host, base if web else None)
    try:
        await host.wait()
    finally:
        await host.close()
    delays = sorted(d for r in rooms for d in r.delays)
    if delays:
        median, p99 = (
            delays[len(delays) // 2],
            delays[min(len(delays) - 1, len(delays) * 99 // 100)],
        )
        print(
            f"host: {len(delays)} remote shots, their message read to their release sent: "
            f"median {1000 * median:.1f} ms, p99 {1000 * p99:.1f} ms",
            flush=True,
        )
    return 0

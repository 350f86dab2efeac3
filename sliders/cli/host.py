"""``sliders host`` run: the rooms set up (or one resumed from its log), served until every game
is over (its flags and help: :mod:`sliders.cli.flags.host`)."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from sliders.core.errors import UserError
from sliders.core.outcome import Shot
from sliders.files.layouts import read_layout
from sliders.game.config import check_hand, config_from_flags, parse_computer
from sliders.net.host import Host, Room, SeatPlan, new_room, parse_host_seats, resume_room
from sliders.physics import require_engine, simulate

MAX_ROOMS = 1000


def run(args: argparse.Namespace) -> int:
    rooms = make_rooms(args)
    address = "0.0.0.0" if args.public else "127.0.0.1"
    return asyncio.run(serve(rooms, address, args.port, args.json))


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
    folder = Path(args.dir)
    if not folder.is_dir():
        raise UserError(f"--dir {args.dir}: not a folder")
    layout = args.layout or "square"
    plans = plans or tuple(SeatPlan(s, "remote") for s in read_layout(layout).default_seats)
    seats = ",".join(
        f"{p.seat}=human" if p.kind == "remote" else f"{p.seat}=cpu:{p.strength}" for p in plans
    )
    config = config_from_flags(
        args.face, layout, seats, args.seed, args.engine, check_hand(args.hand or "normal")
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


async def serve(rooms: list[Room], address: str, port: int, as_json: bool) -> int:
    host = Host(rooms)
    try:
        await host.start(address, port)
    except OSError as exc:
        raise UserError(f"cannot listen on {address}:{port}: {exc.strerror or exc}") from None
    shown = "127.0.0.1" if address == "127.0.0.1" else "THIS-MACHINE'S-ADDRESS"
    where = f"{shown}:{host.port}"
    if as_json:
        listing = {
            "address": address,
            "port": host.port,
            "rooms": {r.name: {"log": str(r.log), "codes": r.codes} for r in rooms},
        }
        print(json.dumps(listing), flush=True)
    else:
        print(f"hosting {len(rooms)} room(s) on {address}:{host.port}")
        for r in rooms:
            print(f"room {r.name}: log {r.log}")
            for seat, code in r.codes.items():
                print(f"  {seat}: sliders join {where} --room {r.name} --code {code}")
            print(f"  watch: sliders join {where} --room {r.name} --watch")
        print("", flush=True)
    try:
        await host.wait()
    finally:
        await host.close()
    return 0

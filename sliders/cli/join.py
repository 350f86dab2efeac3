"""``sliders join`` run: a bot's seat or a spectator, the game told as it goes (its flags and
help: :mod:`sliders.cli.flags.join`)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import numpy as np

from sliders.core.errors import UserError
from sliders.net.client import Client, play_bot
from sliders.net.protocol import ProtocolError, code, room
from sliders.tournament.players import check_name, make_player


def run(args: argparse.Namespace) -> int:
    room(args.room)
    if args.watch == bool(args.code):
        raise UserError("give a seat's --code, or --watch")
    if args.code:
        try:
            code(args.code)
        except ProtocolError:
            raise UserError("--code: expected the 32 hexadecimal digits the host printed") from None
        if not args.bot:
            raise UserError(
                "--code plays a seat with --bot PLAYER (the window's client is not there yet)"
            )
        check_name(args.bot)
    try:
        return asyncio.run(_join(args))
    except OSError as exc:
        raise UserError(f"cannot reach {args.address}: {exc.strerror or exc}") from None


async def _join(args: argparse.Namespace) -> int:
    if args.watch:
        client = await Client.join(args.address, args.room, watch=True, name=args.name or "")
        async for msg in client.messages():
            _tell(msg)
    else:
        client = await play_bot(
            args.address,
            args.room,
            args.code,
            lambda seat: make_player(args.bot, seat, np.random.default_rng(args.seed)),
            name=args.name or args.bot,
            tell=_tell,
        )
    if client.table.mismatches:
        print(
            f"shots that ran differently here (the host's result stands): {client.table.mismatches}"
        )
    if client.bye:
        print(f"the host closed the connection: {client.bye}")
        return 1
    return 0


def _tell(msg: dict[str, Any]) -> None:
    kind = msg.get("type")
    if kind == "news":
        for line in msg.get("lines", []):
            print(line, flush=True)
    elif kind == "over":
        winner = msg.get("winner")
        print("the game is over: " + (f"{winner} wins" if winner else "a draw"), flush=True)

"""``sliders join`` run: the window on a hosted game (a person's seat, or watching), or a bot's
seat or a spectator told the game as it goes in text (its flags and help:
:mod:`sliders.cli.flags.join`)."""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import numpy as np
from websockets.exceptions import WebSocketException

from sliders.cli.play import meter_flag, open_play_window, window_flags
from sliders.core.errors import UserError
from sliders.net import protocol
from sliders.net.client import RETRY, Client, address_url, play_bot
from sliders.net.link import Link
from sliders.net.protocol import ProtocolError, code, name, room
from sliders.scenes.remote import NetMatch
from sliders.tournament.players import check_name, make_player


def run(args: argparse.Namespace) -> int:
    address_url(args.address)  # one line now, before anything connects
    room(args.room)
    if not args.watch and not args.code:
        raise UserError("give a seat's --code, or --watch")
    if args.code:
        try:
            code(args.code)
        except ProtocolError:
            raise UserError("--code: expected the 32 hexadecimal digits the host printed") from None
    if args.name is not None:
        try:
            name(args.name)
        except ProtocolError as exc:
            raise UserError(f"--name: {str(exc).partition(': ')[2]}") from None
    if args.code and not args.watch:
        if args.bot:
            check_name(args.bot)
        elif args.text:  # a person plays a seat in the window; text tells a computer's game
            raise UserError("--text plays a seat by a computer: give --bot PLAYER too")
    elif args.bot:
        raise UserError("--bot plays a seat: give its --code (not --watch)")
    if not args.bot and not args.text:
        window_flags(args)  # one line now, before anything connects
        link = Link(
            args.address,
            args.room,
            args.code,
            watch=args.watch,
            name=args.name or "",
            reconnect=args.reconnect,
        )
        return play_hosted(args, link, link.open())
    try:
        return asyncio.run(_join(args))
    except OSError as exc:
        raise UserError(f"cannot reach {args.address}: {exc.strerror or exc}") from None
    except WebSocketException as exc:
        raise UserError(f"{args.address} does not speak the game's protocol ({exc})") from None


def play_hosted(
    args: argparse.Namespace,
    link: Link,
    welcome: dict[str, Any],
    phones: dict[str, str] | None = None,
) -> int:
    """The window on a hosted game (``sliders join``, a host's own seat) over ``link``, open:
    its seat played by the person at this window, or watched; 0 once the window closes.
    ``phones``: the other seats' web page links (a host's own window), shown as QR codes by
    the window's Invite."""
    size, control = window_flags(args)
    try:
        match = NetMatch(link, welcome)
        match.links = dict(phones or {})
        app = open_play_window(size, args)
    except BaseException:
        link.close()
        raise
    app.control = control
    app.meter = meter_flag(args)
    try:
        from sliders.scenes.screens import PlayScreen

        app.show(PlayScreen(app, match))
        return app.run()
    finally:
        app.close()
        link.close()


async def _join(args: argparse.Namespace) -> int:
    """Play or watch until the game is over; a connection lost before then is made again
    (for up to ``--reconnect`` seconds without one), the game taken up where the host has it."""
    mismatches: list[int] = []
    lost_at: float | None = None
    players: dict[str, Any] = {}

    def make(seat: str) -> Any:
        if seat not in players:  # one player a seat, however often it reconnects
            players[seat] = make_player(args.bot, seat, np.random.default_rng(args.seed))
        return players[seat]

    while True:
        try:
            if args.watch:
                client = await Client.join(
                    args.address, args.room, args.code, watch=True, name=args.name or ""
                )
                async for msg in client.messages():
                    _tell(msg)
            else:
                client = await play_bot(
                    args.address,
                    args.room,
                    args.code,
                    make,
                    name=args.name or args.bot[: protocol.MAX_NAME],
                    tell=_tell,
                )
        except (OSError, TimeoutError, WebSocketException) as exc:
            if lost_at is None:
                raise
            if time.monotonic() - lost_at > args.reconnect:
                raise UserError(f"the host did not come back within {args.reconnect:g} s") from exc
            await asyncio.sleep(RETRY)
            continue
        mismatches += client.table.mismatches
        if client.over is not None or client.bye:
            break
        print("the connection to the host was lost: joining again", flush=True)
        lost_at = time.monotonic()
    if mismatches:
        print(f"shots that ran differently here (the host's result stands): {mismatches}")
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

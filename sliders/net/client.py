"""A client of the game host: a copy of the room's game kept step by step, every shot run again
here and compared with the host's, and a bot that seats any :class:`~sliders.game.Player`.

:class:`Client` connects, says hello (a seat's join code, or to watch) and reads the host's
messages; its :class:`Table` replays the log the welcome carries and applies each step as the
log records it. A shot's result is the host's: a client whose own run of the shot differs
(another engine build, another platform) counts the mismatch and goes on with the host's.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI

from sliders.boards import Face, Layout, face
from sliders.core.errors import UserError
from sliders.core.outcome import Shot, ShotResult
from sliders.game import Player
from sliders.game.saves import replay_layout
from sliders.net.protocol import MAX_HOST_MESSAGE, ProtocolError, encode, parse_host, result_hash
from sliders.physics import PhysicsParams, Setup, simulate
from sliders.rules import Game, GameState, check_assignment

RETRY = 0.5
"""seconds between two tries to reach a host that went away"""


DEFAULT_PORT = 8765


def address_url(address: str) -> str:
    """``ws://HOST:PORT`` from ``HOST:PORT``, ``[IPv6]:PORT``, ``HOST`` (port 8765) or a
    ``ws://`` or ``wss://`` address; one line when it is none of these."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "ws", address
    elif scheme not in ("ws", "wss"):
        raise UserError(f"{address!r}: expected HOST:PORT, ws://HOST:PORT or wss://HOST:PORT")
    where, _, path = rest.partition("/")
    if where.startswith("["):
        host, bracket, after = where[1:].partition("]")
        if not bracket or not host or (after and not after.startswith(":")):
            raise UserError(f"{address!r}: an IPv6 address is written [ADDRESS]:PORT")
        port = after[1:] if after else ""
        host = f"[{host}]"
    elif where.count(":") > 1:
        raise UserError(f"{address!r}: an IPv6 address is written [ADDRESS]:PORT")
    else:
        host, _, port = where.partition(":")
    if not host or any(c.isspace() or c in "@?#[]" for c in host.strip("[]")):
        raise UserError(f"{address!r}: expected HOST:PORT")
    if port == "" and ":" not in where.rsplit("]", 1)[-1]:
        port = str(DEFAULT_PORT)
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise UserError(f"{address!r}: the port is a number from 1 to 65535")
    return f"{scheme}://{host}:{int(port)}/{path}"


@dataclass
class Table:
    """A client's copy of a room's game, built from the welcome and kept by the steps."""

    game: Game
    engine: str
    seat: str | None
    verify: bool = True
    mismatches: list[int] = field(default_factory=list)
    """the steps whose shot ran differently here (the host's result stands)"""
    _setup: Setup | None = None

    @classmethod
    def of(cls, welcome: dict[str, Any], verify: bool = True) -> Table:
        """The game of a ``welcome`` (checked by :func:`parse`): its log replayed here."""
        try:
            game = Game.from_json(welcome["log"])
        except UserError as exc:
            raise ProtocolError(f"the host's welcome: {exc}") from None
        return cls(game, str(welcome["engine"]), welcome["seat"], verify)

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def step(self) -> int:
        return len(self.game.steps)

    @property
    def setup(self) -> Setup:
        """What the game's shots are simulated in (the default physics parameters)."""
        if self._setup is None:
            self._setup = Setup(replay_layout(self.game), face(self.game.face), None, self.engine)
        return self._setup

    @property
    def layout(self) -> Layout:
        return self.setup.layout

    @property
    def face(self) -> Face:
        return self.setup.face

    def replay(self, slide: Shot) -> ShotResult:
        """The host's shot run here, from the table as it stands."""
        return simulate(self.setup, self.state.table, slide)

    def apply(self, message: dict[str, Any]) -> None:
        """A ``step`` message: checked against this copy (its number, and the shot's result run
        again here when :attr:`verify`), then applied."""
        n, step = message["n"], message["step"]
        if n != self.step:
            raise ProtocolError(f"the host sent step {n}, this copy is at step {self.step}")
        try:
            if self.verify and "shot" in step and step.get("slide") is not None:
                mine = self.replay(Shot.from_json(step["slide"]))
                if result_hash(mine.to_json()) != message.get("hash"):
                    self.mismatches.append(n)
            self.game.take(step)
        except UserError as exc:
            raise ProtocolError(f"the host's step {n}: {exc}") from None


def shot_message(shot: Shot, step: int, foul: bool = False) -> dict[str, Any]:
    """The ``shot`` message of ``shot`` for ``step``; ``foul``: the hand crossed the foul line."""
    message: dict[str, Any] = {
        "type": "shot",
        "step": step,
        "speed": shot.speed,
        "angle_rad": shot.angle,
        "offset": shot.offset,
        "release": shot.release,
    }
    if foul:
        message["foul"] = True
    return message


class Client:
    """One connection to a room: ``await Client.join(url, room, code)`` (or ``watch=True``)."""

    def __init__(self, ws: ClientConnection, table: Table, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.table = table
        self.welcome = welcome
        self.seat: str | None = welcome["seat"]
        self.over: dict[str, Any] | None = None
        self.bye = ""
        """the host's reason when it closed this connection"""

    @classmethod
    async def join(
        cls,
        url: str,
        room: str,
        code: str | None = None,
        *,
        watch: bool = False,
        name: str = "",
        verify: bool = True,
        timeout: float = 10.0,
        tls: ssl.SSLContext | None = None,
    ) -> Client:
        """``code``: the seat's code, or with ``watch`` the room's code for watchers (None: a
        room that needs none). ``tls``: the TLS context of a ``wss://`` address (None: the
        system's certificates, or the file ``SSL_CERT_FILE`` names). A host that refuses, or
        sends anything but a welcome the protocol allows, is one line."""
        options: dict[str, Any] = {} if tls is None else {"ssl": tls}
        try:
            ws = await connect(
                address_url(url), max_size=MAX_HOST_MESSAGE, open_timeout=timeout, **options
            )
        except InvalidStatus as exc:
            body = exc.response.body or b""
            said = body.decode("utf-8", "replace").strip().splitlines()[:1]
            reason = said[0][:200] if said else f"HTTP {exc.response.status_code}"
            raise UserError(f"the host refused the connection: {reason}") from None
        except InvalidURI as exc:
            raise UserError(f"{url!r}: {exc}") from None
        except ssl.SSLError as exc:
            raise UserError(f"{url}: TLS failed ({exc.reason or exc})") from None
        try:
            hello: dict[str, Any] = {"type": "hello", "room": room}
            if watch:
                hello["watch"] = True
            if code is not None:
                hello["code"] = code
            if name:
                hello["name"] = name
            await ws.send(encode(hello))
            first = await _receive(ws, timeout)
            if first.get("type") != "welcome":
                raise UserError(f"the host refused: {first.get('reason', first.get('type'))}")
            return cls(ws, Table.of(first, verify), first)
        except BaseException:
            await ws.close()
            raise

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(encode(message))

    async def shoot(self, shot: Shot) -> None:
        """Send ``shot`` (the intended shot of this seat) for the step the game is at."""
        await self.send(shot_message(shot, self.table.step))

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """Every message from the host, the steps applied to :attr:`table` first; ends when the
        host closes the connection."""
        try:
            async for frame in self.ws:
                msg = parse(frame)
                kind = msg.get("type")
                if kind == "step":
                    self.table.apply(msg)
                elif kind == "welcome":  # a new game on this connection (a tournament's)
                    self.table = Table.of(msg, self.table.verify)
                    self.seat = msg["seat"]
                elif kind == "over":
                    self.over = msg
                elif kind == "bye":
                    self.bye = str(msg.get("reason", ""))
                yield msg
        except ConnectionClosed:
            return

    async def close(self) -> None:
        await self.ws.close()


async def _receive(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    return parse(await asyncio.wait_for(ws.recv(), timeout))


def parse(frame: str | bytes) -> dict[str, Any]:
    """A host's message, checked (:func:`sliders.net.protocol.parse_host`): anything else is a
    :class:`ProtocolError` of one line, never a traceback."""
    try:
        return parse_host(frame)
    except ProtocolError as exc:
        raise ProtocolError(f"the host sent a broken message: {exc}") from None


async def play_bot(
    url: str,
    room: str,
    code: str,
    make: Callable[[str], Player],
    *,
    name: str = "bot",
    verify: bool = True,
    tell: Callable[[dict[str, Any]], None] | None = None,
) -> Client:
    """Seat the player ``make(seat)`` makes (anything with the :class:`~sliders.game.Player`
    protocol) with ``code`` and play until the game is over or the host closes; the client, to
    read what happened. ``tell`` sees every message. The player chooses in a worker thread, so
    the connection keeps answering the host's pings. A connection lost as the bot sends (the
    host gone while its player chose) ends here as one lost while it reads does, the message
    lost with it: the host asks the seat again when it joins again."""
    client = await Client.join(url, room, code, name=name, verify=verify)
    try:
        await _play(client, make, tell)
    except ConnectionClosed:
        pass
    await client.close()
    return client


async def _play(
    client: Client,
    make: Callable[[str], Player],
    tell: Callable[[dict[str, Any]], None] | None,
) -> None:
    """:func:`play_bot`'s game on ``client``, until it is over or the connection ends."""
    players: dict[str, Player] = {}
    slide: Shot | None = None
    async for msg in client.messages():
        if tell is not None:
            tell(msg)
        table = client.table  # a tournament welcomes its bots to game after game
        if client.seat is None:
            continue
        if client.seat not in players:
            players[client.seat] = make(client.seat)
        player = players[client.seat]
        if msg.get("type") == "shot":
            slide = Shot.from_json(msg["slide"])
        elif msg.get("type") == "ask" and msg.get("seat") == client.seat:
            if msg.get("choice") == "score":
                await client.send(await asyncio.to_thread(_score_answer, table, player, msg))
            else:  # a bot joined again after the shot went out has no slide: the default
                await client.send(await asyncio.to_thread(_home_answer, table, player, slide, msg))
        elif msg.get("type") == "turn" and msg.get("seat") == client.seat:
            if msg.get("step") != table.step:
                continue
            state = table.state
            shot = await asyncio.to_thread(
                player.choose_shot, state, table.layout, table.face, PhysicsParams.default()
            )
            await client.shoot(shot)
        elif msg.get("type") == "over":
            break


def _score_answer(table: Table, player: Player, ask: dict[str, Any]) -> dict[str, Any]:
    """The answer to the host's round-end ``ask``: the player's assignment for the round as this
    copy of the game has it, the host's default when the rules refuse it."""
    moves: list[dict[str, Any]] = list(ask["default"])
    if table.step == ask["step"]:
        try:
            picked = check_assignment(
                table.state, str(ask["seat"]), player.choose_assignment(table.state)
            )
            moves = [m.to_json() for m in picked]
        except UserError:
            pass
    return {"type": "score", "step": ask["step"], "moves": moves}


def _home_answer(
    table: Table, player: Player, slide: Shot | None, ask: dict[str, Any]
) -> dict[str, Any]:
    """The answer to the host's ``ask`` (an Instant Home choice): the player's choice on the shot
    as this machine runs it, the host's default when the player has none to give (or no slide
    to run: the shot went out before this connection joined)."""
    scoring = ask["default"]
    if slide is not None:
        result = table.replay(slide)
        home = {str(k): int(v) for k, v in dict(ask.get("home", {})).items()}
        picked = player.choose_home(table.state, result, str(ask["pawn"]), home)
        if picked in list(ask.get("options", [])):
            scoring = picked
    return {"type": "home", "step": ask["step"], "pawn": ask["pawn"], "scoring": scoring}

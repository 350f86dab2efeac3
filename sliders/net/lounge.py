"""Players that join a tournament over the network: a server where each ``net:NAME`` player's
bot connects once, with its code, and is seated game after game by the tournament's one game
driver, with a thinking clock.

The bot speaks the protocol of a hosted game (docs/protocol.md): a ``welcome`` opens each game
(its seat, the game's log), ``step`` messages follow it, a ``turn`` asks for a shot, an ``ask``
for an Instant Home or a round-end choice, and ``over`` ends the tournament. :class:`NetPlayer` is the
:class:`~sliders.game.Player` the tournament seats: it tells the bot what happened since its last
turn, sends the turn and waits for the shot up to the clock. A bot that misses its clock, sends
a message the protocol refuses (its connection is then closed: it may join again) or is not
connected loses that shot, its pawn slid over the foul line, and the tournament goes on.
"""

from __future__ import annotations

import asyncio
import hmac
import queue
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from sliders.boards import Face, Layout
from sliders.core.errors import UserError
from sliders.core.outcome import Shot, ShotResult
from sliders.game import HeadlessGame, ShotLost
from sliders.net.guard import Rate, check_port
from sliders.net.protocol import (
    CODE_BYTES,
    MAX_MESSAGE,
    ProtocolError,
    check_client,
    code,
    decode,
    encode,
    result_hash,
)
from sliders.physics import PhysicsParams
from sliders.rules import (
    Assignment,
    GameState,
    Move,
    RulesError,
    ShotStep,
    check_assignment,
    default_assignment,
    legal_assignments,
)

CURRENT: list[Lounge] = []
"""the lounge open in this process (a tournament's), which seats the ``net:NAME`` players"""
ROOM = "tournament"
"""the room a tournament's bots say hello to"""
DEFAULT_CLOCK = 10.0
"""seconds a bot has for a shot or a choice, unless the tournament says otherwise"""
HELLO_TIMEOUT = 5.0


@dataclass
class Seat:
    """A ``net:NAME`` player's place on the server: its code, its bot's connection and what
    the bot sent."""

    name: str
    code: str
    ws: ServerConnection | None = None
    inbox: queue.SimpleQueue[dict[str, Any]] = field(default_factory=queue.SimpleQueue)
    connected: threading.Event = field(default_factory=threading.Event)
    lost: int = 0
    """shots lost (clock, a refused message, not connected)"""
    joins: int = 0
    """connections made so far (a new one is welcomed to the game going on)"""


class Lounge:
    """The server of a tournament's network players (``net:NAME`` for each name in ``names``):
    :meth:`open` it (a thread of its own), :meth:`wait` for the bots, seat them with
    :meth:`player`, :meth:`close` it when the tournament ends."""

    def __init__(self, names: Sequence[str], clock: float = DEFAULT_CLOCK) -> None:
        self.seats = {n: Seat(n, secrets.token_hex(CODE_BYTES)) for n in names}
        self.clock = clock
        self.loop = asyncio.new_event_loop()
        self.server: Server | None = None
        self.port = 0
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def open(self, address: str = "127.0.0.1", port: int = 0) -> None:
        check_port(port)
        self._thread.start()

        async def start() -> Server:
            return await serve(
                self._handle,
                address,
                port,
                max_size=MAX_MESSAGE,
                compression=None,
                close_timeout=1.0,
            )

        try:
            self.server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        except OSError as exc:
            raise UserError(f"cannot listen on {address}:{port}: {exc.strerror or exc}") from None
        self.port = int(self.server.sockets[0].getsockname()[1])
        CURRENT.append(self)

    def wait(self, timeout: float) -> list[str]:
        """Wait up to ``timeout`` seconds for every bot; the names of those not connected."""
        end = time.monotonic() + timeout
        for seat in self.seats.values():
            seat.connected.wait(max(end - time.monotonic(), 0.0))
        return [n for n, s in self.seats.items() if not s.connected.is_set()]

    def player(self, name: str, seat: str) -> NetPlayer:
        if name not in self.seats:
            raise UserError(f"player 'net:{name}': not one of this tournament's network players")
        return NetPlayer(self, self.seats[name], seat)

    def send(self, seat: Seat, message: dict[str, Any]) -> None:
        ws = seat.ws
        if ws is not None:
            asyncio.run_coroutine_threadsafe(_quietly(ws.send(encode(message))), self.loop)

    def close(self) -> None:
        """Tell every bot the tournament is over, then stop."""
        if self in CURRENT:
            CURRENT.remove(self)
        for seat in self.seats.values():
            self.send(seat, {"type": "over", "winner": None, "drawn": False})

        async def stop() -> None:
            await asyncio.sleep(0.2)
            if self.server is not None:
                self.server.close()
                await self.server.wait_closed()

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)

    async def _handle(self, ws: ServerConnection) -> None:
        seat: Seat | None = None
        try:
            hello = check_client(decode(await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)))
            if hello["type"] != "hello" or "code" not in hello:
                raise ProtocolError("say hello with your code first")
            given = code(hello["code"])
            for s in self.seats.values():
                if hmac.compare_digest(s.code, given):
                    seat = s
            if seat is None:
                raise ProtocolError("no player has this join code")
            if seat.ws is not None:
                await seat.ws.close(1008, "this player joined again")
            seat.ws = ws
            seat.joins += 1
            seat.connected.set()
            await ws.send(
                encode({"type": "news", "lines": [f"net:{seat.name}: waiting for a game"]})
            )
            rate = Rate()
            async for frame in ws:
                rate.spend()
                seat.inbox.put(check_client(decode(frame)))
        except ProtocolError as exc:
            if seat is not None:
                seat.inbox.put({"type": "refused", "reason": str(exc)})
            await _quietly(ws.send(encode({"type": "bye", "reason": str(exc)})))
            await ws.close(1008, str(exc)[:120])
        except (TimeoutError, ConnectionClosed):
            pass
        finally:
            if seat is not None and seat.ws is ws:
                seat.ws = None
                seat.connected.clear()


class NetPlayer:
    """A ``net:NAME`` player at ``seat`` of one game (see the module's description)."""

    def __init__(self, lounge: Lounge, place: Seat, seat: str) -> None:
        self.lounge, self.place, self.seat = lounge, place, seat
        self.game: HeadlessGame | None = None
        self.told = 0
        self.welcomed = 0
        self.lost = 0
        self.why = "clock"
        """why the last shot was lost (:data:`sliders.rules.SLID_BY`)"""

    def begin(self, game: HeadlessGame) -> None:
        """A new game: the bot is welcomed to it."""
        self.game = game
        self._welcome()

    def _welcome(self) -> None:
        """Welcome the bot to the game as it stands (a new game, or the bot joined again)."""
        game = self.game
        assert game is not None
        self.told, self.welcomed = len(game.turns.game.steps), self.place.joins
        log = game.turns.game.to_json()
        self.lounge.send(
            self.place,
            {
                "type": "welcome",
                "room": ROOM,
                "seat": self.seat,
                "engine": game.engine,
                "seats": [
                    {"seat": s, "kind": "remote", "connected": True, "name": ""} for s in game.seats
                ],
                "log": log,
                "step": len(log["steps"]),
                "turn": game.state.turn,
                "clock": self.lounge.clock,
                "turn_timeout": None,
                "max_rounds": game.turns.max_rounds,
            },
        )

    def end(self, game: HeadlessGame) -> None:
        """The game is over: the bot is told its last steps."""
        self._tell()
        who = game.winner
        self.lounge.send(
            self.place,
            {"type": "news", "lines": [f"game over: {who + ' wins' if who else 'a draw'}"]},
        )

    def _tell(self) -> None:
        """The steps the bot has not been told."""
        assert self.game is not None
        steps = self.game.turns.game.steps
        for n in range(self.told, len(steps)):
            data = steps[n].to_json()
            message: dict[str, Any] = {"type": "step", "n": n, "step": data}
            if isinstance(steps[n], ShotStep):
                message["hash"] = result_hash(data["shot"])
            self.lounge.send(self.place, message)
        self.told = len(steps)

    def _ready(self) -> float | None:
        """When the clock of a question to the bot runs out (None: it did not connect in time):
        the bot told what it missed, and welcomed again if it joined again."""
        end = time.monotonic() + self.lounge.clock
        if not self.place.connected.wait(self.lounge.clock):
            return None
        if self.place.joins != self.welcomed:
            self._welcome()
        self._tell()
        return end

    def _answer(self, kind: str, step: int, end: float) -> dict[str, Any] | None:
        """The bot's ``kind`` message for ``step`` before ``end``; None when it missed the
        clock or sent a refused message (the shot is lost)."""
        place = self.place
        self.why = "clock"
        while (left := end - time.monotonic()) > 0:
            try:
                msg = place.inbox.get(timeout=left)
            except queue.Empty:
                return None
            if msg["type"] == "refused":
                self.why = "refused"
                return None
            if msg["type"] == kind and msg.get("step") == step:
                return msg
        return None

    # -- the Player protocol ------------------------------------------------------------------------

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        _drain(self.place.inbox)  # what the bot sent before this turn is stale
        end = self._ready()
        step = self.told
        msg = None
        if end is not None:
            turn = {"type": "turn", "seat": self.seat, "step": step, "clock": self.lounge.clock}
            self.lounge.send(self.place, turn)
            msg = self._answer("shot", step, end)
        if msg is None:
            self.lost += 1
            self.place.lost += 1
            raise ShotLost(self.why)
        if msg.get("foul"):
            raise ShotLost(None)
        return Shot(
            self.seat,
            float(msg["speed"]),
            float(msg.get("angle_rad", 0.0)),
            float(msg.get("offset", 0.0)),
            None if msg.get("release") is None else float(msg["release"]),
        )

    def choose_assignment(self, state: GameState) -> Assignment:
        """The bot's round-end choice, asked when the rules offer more than one; the rules'
        default when it does not answer within the clock or the rules refuse its answer."""
        default = default_assignment(state, self.seat)
        options = legal_assignments(state, self.seat)
        if len(options) < 2:
            return default
        _drain(self.place.inbox)
        end = self._ready()
        if end is None:
            return default
        step = self.told
        self.lounge.send(
            self.place,
            {
                "type": "ask",
                "choice": "score",
                "step": step,
                "seat": self.seat,
                "round": state.round,
                "board": list(state.player(self.seat).board),
                "options": [[m.to_json() for m in a] for a in options],
                "default": [m.to_json() for m in default],
            },
        )
        msg = self._answer("score", step, end)
        if msg is None:
            return default
        moves = [Move(m["pawn"], int(m["scoring"]), int(m["points"])) for m in msg["moves"]]
        try:
            return check_assignment(state, self.seat, moves)
        except RulesError:
            return default

    def choose_home(
        self,
        state: GameState,
        result: ShotResult,
        pawn: str,
        home: Mapping[str, int] | None = None,
    ) -> int | None:
        if self.game is None:
            return None
        choice = self.game.turns.home_choice(result, home or {})
        if choice is None or choice.seat != self.seat:
            return None
        _drain(self.place.inbox)
        end = self._ready()
        if end is None:
            return None
        step = self.told
        slide = self.game.turns.slide  # the shot in flight, which the bot runs to choose
        if slide is not None:
            self.lounge.send(
                self.place, {"type": "shot", "step": step, "slide": slide.to_json(), "by": "remote"}
            )
        self.lounge.send(
            self.place,
            {
                "type": "ask",
                "step": step,
                "seat": self.seat,
                "pawn": pawn,
                "board": list(choice.board),
                "options": list(choice.options),
                "default": choice.default,
                "home": dict(home or {}),
                "choice": "home",
            },
        )
        msg = self._answer("home", step, end)
        if msg is None or msg["pawn"] != pawn or msg["scoring"] not in choice.options:
            return None
        return int(msg["scoring"])


def _drain(inbox: queue.SimpleQueue[dict[str, Any]]) -> None:
    while True:
        try:
            inbox.get_nowait()
        except queue.Empty:
            return


async def _quietly(sending: Any) -> None:
    try:
        await sending
    except ConnectionClosed:
        pass

"""The game host: rooms of games played over WebSockets, each driven by the one game driver.

A :class:`Room` is one game (:class:`~sliders.game.HeadlessGame` over the turn machine): its
computer seats play themselves, its remote seats are claimed by clients holding the seat's join
code (128 random bits from :mod:`secrets`). The host alone draws each shot's seed, runs the
physics and the rules, writes the game log after every step (atomically, in the log's own
format, so ``--resume`` and replays read it) and sends everyone the shot as slid (at release,
so the others can start drawing it) and then the step as the log records it, with the result's
hash. A client re-runs the shot and compares: the host's result stands.

A :class:`Host` serves any number of rooms on one port. Every message is checked
(:mod:`sliders.net.protocol`); a bad one closes that one connection with a one-line reason and
the game goes on. A client must say hello within :data:`HELLO_TIMEOUT`; one that sends faster
than :data:`~sliders.net.guard.RATE` messages a second (bursts of
:data:`~sliders.net.guard.BURST`) or reads too slowly to keep up is
closed; a silent one is closed by the WebSocket's own pings. Connections are capped in total
and from one address (:class:`sliders.net.guard.Gate`), watchers in a room
(:data:`~sliders.net.guard.WATCHERS_PER_ROOM`); what is refused and closed is told in a line at
most every :data:`REPORT_EVERY` seconds, with counts.

Each step is encoded once for everyone: the step message, and the log a welcome carries, which
a large welcome streams in pieces as the client reads it. What waits unread for the clients is
bounded in total (:data:`TOTAL_UNREAD`). A shot's release is written beside the log
(``LOG.release.json``) before it is sent, so a host stopped before the shot's step was written
takes the same shot up again, not a new one; a log that cannot be written leaves the game
going, said to everyone, and is written whole again at the next step that can be.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import socket
import ssl
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from sliders.ai import ComputerPlayer
from sliders.boards import Face, Layout
from sliders.core import checks
from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_json_atomic
from sliders.core.outcome import Shot, ShotResult
from sliders.game import HeadlessGame, Player, Turns
from sliders.game.config import (
    DEFAULT_HAND,
    MatchConfig,
    SeatSpec,
    parse_computer,
    parse_seat_specs,
    split_items,
)
from sliders.game.saves import LogWriter, layout_of, load_replay, save_game
from sliders.net import view
from sliders.net.guard import WATCHERS_PER_ROOM, Gate, Rate
from sliders.net.protocol import (
    CODE_BYTES,
    MAX_MESSAGE,
    VERSION,
    ProtocolError,
    check_client,
    code,
    decode,
    encode,
    result_hash,
    room,
)
from sliders.physics import PhysicsParams
from sliders.rules import (
    SLID_BY,
    Assignment,
    GameState,
    Move,
    Phase,
    RulesError,
    ShotStep,
    Step,
    check_assignment,
    default_assignment,
    legal_assignments,
    parse_seat,
)

HELLO_TIMEOUT = 5.0
"""seconds a new connection has to say hello"""
MAX_UNREAD = 2**20
"""bytes waiting for a client that reads too slowly before it is closed (a welcome larger than
:data:`WELCOME_PIECE` streams as it is read, and is not counted)"""
TOTAL_UNREAD = 64 * 2**20
"""bytes waiting for all the clients together, at most: with many connections, each may leave
its share unread (never less than :data:`MIN_UNREAD`)"""
MIN_UNREAD = 2**16
WELCOME_PIECE = 2**14
"""bytes of a welcome sent at a time, the next once the client has read them"""
WATCH_RATE = 8 * 2**20
"""bytes a second the host sends of all its watchers' welcomes together (a player's welcome is
not held): a crowd of watchers joining a long game waits its turn, and costs the host, the
machine and the players no more than this"""
REPORT_EVERY = 10.0
"""seconds between two lines telling the connections refused or closed, with counts"""
PING_INTERVAL = 10.0
"""seconds between the WebSocket pings that find a silent connection"""
HOME_WAIT = 30.0
"""the most seconds a remote seat's Instant Home or round-end choice is waited for (without a
clock)"""
SEND_WAIT = 1.0
"""the most seconds a shot waits for its release to be sent before it runs"""
REMOTE = "remote"
CPU = "cpu"
FOUL = "foul"
"""a remote player's shot whose hand crossed the foul line"""


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """Who plays a seat: ``remote`` (a client with the seat's code) or ``cpu`` (the host's
    computer, of ``strength``). ``here``: a remote seat the host's own window plays (a client
    of this host like any other, joined with the seat's code)."""

    seat: str
    kind: str
    strength: str = "medium"
    here: bool = False


def parse_host_seats(text: str) -> tuple[SeatPlan, ...]:
    """Seats from ``south=human,north=remote,east=cpu:hard`` (``remote`` or a bare seat: a
    client's seat; ``human``: the host's own window; ``cpu[:STRENGTH]`` the host's computer, as
    ``sliders play`` reads it)."""
    here = set()
    plain = []
    for item in split_items(text):
        seat, sep, kind = item.partition("=")
        if sep and kind.strip().lower() in ("human", "person", "me"):
            try:
                here.add(parse_seat(seat))
            except UserError:
                pass  # said by parse_seat_specs
        plain.append(f"{seat}=human" if kind.strip().lower() == REMOTE else item)
    return tuple(
        SeatPlan(s.seat, REMOTE if s.human else CPU, s.strength, s.seat in here)
        for s in parse_seat_specs(",".join(plain))
    )


class Pace:
    """Bytes a second shared by many senders: :meth:`take` waits until ``n`` bytes may go."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.next = 0.0

    async def take(self, n: int) -> None:
        now = time.monotonic()
        start = max(now, self.next)
        self.next = start + n / self.rate
        if start > now:
            await asyncio.sleep(start - now)


class Connection:
    """One client: its seat (None for a spectator), a rate limit, and its messages: those sent in
    one turn of the loop leave together, in one write, as the turn ends (``now``: at once, with
    any before it); a client that reads too slowly to keep up is closed."""

    def __init__(self, ws: ServerConnection, limit: Callable[[], int] = lambda: MAX_UNREAD) -> None:
        self.ws = ws
        self.limit = limit
        """the bytes that may wait unread for this client"""
        self.seat: str | None = None
        self.name = ""
        self.draws = False
        """it draws from the host's data (the web page): sent the table, motions and states"""
        self.rate = Rate()
        self.closing = False
        self.closed: asyncio.Task[None] | None = None
        self.streaming: asyncio.Task[None] | None = None
        """the welcome being sent in pieces: the messages sent meanwhile wait for its end"""
        self._half = False
        """a message's first pieces sent, not its last: no other message may be sent"""
        self._out: list[str | bytes] = []
        self._queued = 0

    def send(self, message: dict[str, Any] | str | bytes, *, now: bool = False) -> None:
        """Send ``message`` (an object, or its text: encoded once for everyone it goes to)."""
        if self.closing:
            return
        text = message if isinstance(message, str | bytes) else encode(message).encode()
        self._queued += len(text)
        if self.ws.transport.get_write_buffer_size() + self._queued > self.limit():
            self.close("reads too slowly")
            return
        self._out.append(text)
        if self.streaming is not None:
            return
        if now:
            self.flush()
        elif len(self._out) == 1:
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Write out the messages sent since the last write, their frames in one write."""
        if self._half:
            return
        out, self._out, self._queued = self._out, [], 0
        if not out or self.ws.protocol.state is not State.OPEN:
            return
        for text in out:
            self.ws.protocol.send_text(text if isinstance(text, bytes) else text.encode())
        self.ws.transport.write(b"".join(self.ws.protocol.data_to_send()))

    def stream(self, pieces: Iterator[bytes], pace: Pace | None = None) -> None:
        """Send the message made of ``pieces`` (a large welcome, made as it goes of the steps'
        texts every connection shares) as fragments of one message, each once the client has
        read enough of the one before (the connection's write limit): what waits for a client
        that does not read stays a piece (``pace``: and each waits its turn in it). The
        messages sent meanwhile leave after it."""
        self.streaming = asyncio.get_running_loop().create_task(self._stream(pieces, pace))

    async def _stream(self, pieces: Iterator[bytes], pace: Pace | None) -> None:
        protocol, transport = self.ws.protocol, self.ws.transport
        try:
            for piece in pieces:
                if pace is not None:
                    await pace.take(len(piece))
                if self.closing or protocol.state is not State.OPEN:
                    return
                if self._half:
                    protocol.send_continuation(piece, fin=False)
                else:
                    protocol.send_text(piece, fin=False)
                    self._half = True
                transport.write(b"".join(protocol.data_to_send()))
                await self.ws.drain()
            if protocol.state is State.OPEN and self._half:
                protocol.send_continuation(b"", fin=True)
                self._half = False
                transport.write(b"".join(protocol.data_to_send()))
        except (ConnectionError, OSError):  # gone: its handler ends it
            return
        finally:
            self.streaming = None
            if not self._half:
                self.flush()

    def spend(self) -> None:
        """One message received: refused when the client sends too fast (:class:`Rate`)."""
        self.rate.spend()

    def close(self, reason: str = "") -> None:
        """Say ``reason`` in one line (none: the connection simply ends), then close."""
        if self.closing:
            return
        if reason and not self._half:
            self._out.append(encode({"type": "bye", "reason": reason}))
        self.flush()
        self.closing = True
        self.closed = asyncio.get_running_loop().create_task(
            self.ws.close(1008 if reason else 1000, reason[:120])
        )


@dataclass
class Asked:
    """An Instant Home choice put to a remote seat: its answer, or None for the rules' default."""

    seat: str
    step: int
    pawn: str
    options: tuple[int, ...]
    answer: Future[int | None]


@dataclass
class RoundAsk:
    """A remote seat's round-end choice put to it: the ``ask`` sent, and its answer once it
    came (``done``; None: the rules' default)."""

    seat: str
    step: int
    message: dict[str, Any]
    answer: Assignment | None = None
    done: bool = False


class RemoteSeat:
    """A remote seat as the game driver's :class:`~sliders.game.Player` for the choices a shot
    asks of it (its shots come in its messages): an Instant Home choice is put to its client
    (an ``ask`` message) and waited for in the room's worker thread, up to the room's clock or
    :data:`HOME_WAIT`; absent, silent or gone, the rules' default stands. A round's end is
    asked by the room itself (:meth:`Room.round_choices`), before the round is scored."""

    def __init__(self, room: Room, seat: str, step: int, loop: asyncio.AbstractEventLoop) -> None:
        self.room, self.seat, self.step, self.loop = room, seat, step, loop

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        raise UserError(f"{self.seat}'s shots come from its client")

    def choose_assignment(self, state: GameState) -> Assignment:
        return default_assignment(state, self.seat)

    def choose_home(
        self,
        state: GameState,
        result: ShotResult,
        pawn: str,
        home: Mapping[str, int] | None = None,
    ) -> int | None:
        room = self.room
        choice = room.game.turns.home_choice(result, home or {})
        if choice is None or choice.seat != self.seat:
            return None
        answer: Future[int | None] = Future()
        asked = Asked(self.seat, self.step, pawn, choice.options, answer)
        message = {
            "type": "ask",
            "step": self.step,
            "seat": self.seat,
            "pawn": pawn,
            "board": list(choice.board),
            "options": list(choice.options),
            "default": choice.default,
            "home": dict(home or {}),
            "choice": "home",
        }

        def put() -> None:
            conn = room.players.get(self.seat)
            if conn is None:
                answer.set_result(None)
                return
            room.asked = asked
            conn.send(message)

        self.loop.call_soon_threadsafe(put)
        try:
            return answer.result(room.clock or HOME_WAIT)
        except TimeoutError:
            return None
        finally:
            self.loop.call_soon_threadsafe(self._done, asked)

    def _done(self, asked: Asked) -> None:
        if self.room.asked is asked:
            self.room.asked = None


class Room:
    """One game on the host (see the module's description). ``log`` is where its game log is
    written after every step; its codes are kept beside it (``LOG.codes.json``, readable by the
    host's user alone) so that a host resumed from the log takes the same codes.

    ``turn_timeout``: seconds an absent player's turn waits before ``stand_in`` (a computer
    strength) takes it (None: it waits). ``clock``: seconds a connected player has for a shot,
    counted from the turn's start or the player's return (None: no clock); a shot not sent in
    time is lost (the pawn slid over the foul line). ``watch_code``: the code a watcher must
    give (None: watching needs none); at most ``max_watchers`` watch at once.
    """

    def __init__(
        self,
        name: str,
        game: HeadlessGame,
        plans: Sequence[SeatPlan],
        log: Path,
        codes: Mapping[str, str] | None = None,
        *,
        turn_timeout: float | None = None,
        stand_in: str = "medium",
        clock: float | None = None,
        say: Callable[[str], None] = lambda line: None,
        watch_code: str | None = None,
        max_watchers: int = WATCHERS_PER_ROOM,
    ) -> None:
        self.name = room(name)
        self.game = game
        self.kinds = {p.seat: p.kind for p in plans}
        self.codes = dict(codes or {})
        for seat, kind in self.kinds.items():
            if kind == REMOTE and seat not in self.codes:
                self.codes[seat] = secrets.token_hex(CODE_BYTES)
        self.log = log
        self.watch_code = None if watch_code is None else code(watch_code)
        self.max_watchers = max_watchers
        self.turn_timeout = turn_timeout
        self.clock = clock
        self.say = say
        self.stand_in = parse_computer(stand_in, "--stand-in")
        self._stand_ins: dict[str, ComputerPlayer] = {}
        self.players: dict[str, Connection] = {}
        self.watchers: set[Connection] = set()
        self.absent_since: dict[str, float] = {}
        self.joined_at: dict[str, float] = {}
        self.executor: ThreadPoolExecutor | None = None
        """the threads its steps run in (the host's, a thread a room; None: asyncio's default)"""
        self.waiting: str | None = None
        """the seat whose turn it is (told to who joins)"""
        self.taking: str | None = None
        """the remote seat whose shot the room is waiting for: its shot is taken and released
        as soon as it is read (:meth:`receive`), while no thread runs the room's game"""
        self.pending: Shot | None = None
        self.fouled = False
        """the pending shot's hand crossed the foul line"""
        self.broken: UserError | None = None
        """why the pending shot could not be released"""
        self.received = 0.0
        self.delays: list[float] = []
        """seconds from each remote shot's message read to its release handed to the clients'
        connections: the host's own part of a shot's way from one client to the others"""
        self.asked: Asked | None = None
        """the Instant Home choice a remote seat is being asked, while the room waits for it"""
        self.round_asks: dict[str, RoundAsk] = {}
        """the round-end choices the remote seats are being asked, while the room waits"""
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        self.over: dict[str, Any] | None = None
        """the game's end as told to everyone (told again to whoever joins after it)"""
        self.head = game.turns.game.to_json()
        """the log's setup (what the game started from), its steps left out"""
        self.steps_json: list[dict[str, Any]] = self.head.pop("steps")
        self.step_bytes = [_compact(s).encode() for s in self.steps_json]
        """each step's JSON as it is sent, encoded once (the welcome's log is made of them)"""
        self._log_head = (_compact(self.head)[:-1] + ',"steps":[').encode()
        self.log_size = len(self._log_head) + sum(len(b) + 1 for b in self.step_bytes) + 1
        self.writer = LogWriter(log, game.turns.game)
        """the room's log, written after every step"""
        self.table: dict[str, Any] | None = None
        """the table's geometry, for the clients that draw (made when first asked for)"""
        self.log_fault: str | None = None
        """why the room's log could not be written (None: it is written)"""
        self._faults: list[str] = []
        """writes that failed since the last step was told (from any thread)"""
        self.pace = Pace(WATCH_RATE)
        """the pace of the watchers' welcomes (:data:`WATCH_RATE`, shared by the host's rooms)"""
        self.resumed: tuple[Shot, str] | None = None
        """a release the log's room kept and did not apply before it stopped: slid again as
        it was, before anything else"""
        self.shots_taken = 0
        self.cpu_seconds = 0.0
        """the host's CPU time spent sliding shots and applying the rules (not the computer
        seats' searches)"""

    # -- who is here --------------------------------------------------------------------------------

    @property
    def step(self) -> int:
        """The number of steps the game has taken: a shot sent is for this step."""
        return len(self.steps_json)

    def seat_of(self, given: str) -> str:
        """The seat whose code is ``given`` (compared in constant time)."""
        found = None
        for seat, secret in self.codes.items():
            if hmac.compare_digest(secret, code(given)):
                found = seat
        if found is None:
            raise ProtocolError("no seat has this join code")
        return found

    def presence(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "kind": kind,
                "connected": kind == CPU or seat in self.players,
                "name": self.players[seat].name if seat in self.players else "",
            }
            for seat, kind in self.kinds.items()
        ]

    @property
    def release_path(self) -> Path:
        """Where a shot's release is kept from its sending to its step's writing."""
        return self.log.with_name(self.log.name + ".release.json")

    def welcome_pieces(self, head: bytes = b"", tail: bytes = b"") -> Iterator[bytes]:
        """The game's log as a welcome carries it (compact JSON) between ``head`` and
        ``tail``, in pieces of about :data:`WELCOME_PIECE` bytes made as they are sent from the
        steps' texts, each encoded once for everyone: the steps taken so far, not those to
        come (they are sent as steps)."""
        steps = self.step_bytes[: len(self.step_bytes)]  # a list of shared references

        def pieces() -> Iterator[bytes]:
            made = bytearray(head) + self._log_head
            for i, text in enumerate(steps):
                made += b"," + text if i else text
                if len(made) >= WELCOME_PIECE:
                    yield bytes(made)
                    made.clear()
            made += b"]}" + tail
            yield bytes(made)

        return pieces()

    def log_bytes(self) -> bytes:
        """The game's log as a welcome carries it."""
        return b"".join(self.welcome_pieces())

    def send_welcome(self, conn: Connection) -> None:
        """The welcome to ``conn``: its log made of the steps everyone shares, streamed when
        large (a watcher's at the watchers' pace, :data:`WATCH_RATE`)."""
        head, _, tail = encode(self.welcome(conn, _LOG_MARK)).partition(_LOG_MARK_TEXT)
        if self.log_size <= WELCOME_PIECE:
            conn.send(head + self.log_bytes().decode() + tail)
        else:
            pace = None if conn.seat else self.pace
            conn.stream(self.welcome_pieces(head.encode(), tail.encode()), pace)

    def welcome(self, conn: Connection, log: Any = None) -> dict[str, Any]:
        """The welcome to ``conn`` (``log``: in place of the game's log, which
        :meth:`send_welcome` sends)."""
        return {
            "type": "welcome",
            "room": self.name,
            "seat": conn.seat,
            "engine": self.game.engine,
            "seats": self.presence(),
            "log": {**self.head, "steps": self.steps_json} if log is None else log,
            "step": self.step,
            "turn": self.waiting,
            "clock": self.clock,
            "turn_timeout": self.turn_timeout,
            "max_rounds": self.game.turns.max_rounds,
            **(self._drawing() if conn.draws else {}),
        }

    def _drawing(self) -> dict[str, Any]:
        """What a welcome adds for a client that draws: the table and the position."""
        if self.table is None:
            game = self.game
            self.table = view.table_json(game.layout, game.face, game.params)
        state = view.state_json(self.game.state, self.step)
        return {"table": self.table, "state": {k: v for k, v in state.items() if k != "type"}}

    def _send_motion(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run in the room's thread as a shot is released: its motion, sampled from the host's
        own run of it, sent to every client that draws (none: nothing is run)."""
        if not any(conn.draws for conn in self.everyone()):
            return
        game = self.game
        turns = game.turns
        assert turns.slide is not None
        text = encode(view.motion_json(turns.setup, game.state.table, turns.slide, self.step))

        def send() -> None:
            for conn in self.everyone():
                if conn.draws:
                    conn.send(text, now=True)

        loop.call_soon_threadsafe(send)

    def admit_watcher(self, given: str | None) -> None:
        """A watcher may join: refused without the room's watch code (when it has one), or
        when the room has as many watchers as it takes."""
        if self.watch_code is not None and (
            given is None or not hmac.compare_digest(self.watch_code, code(given))
        ):
            raise ProtocolError("watching this room needs its watch code")
        if len(self.watchers) >= self.max_watchers:
            raise ProtocolError(
                f"room {self.name} has {self.max_watchers} watchers: no room for more"
            )

    def join(self, conn: Connection, seat: str | None) -> None:
        conn.seat = seat
        if seat is None:
            self.watchers.add(conn)
        else:
            old = self.players.get(seat)
            if old is not None:
                old.close("this seat was taken by a new connection with its code")
                old.seat = None
            self.players[seat] = conn
            self.absent_since.pop(seat, None)
            self.joined_at[seat] = time.monotonic()
        self.send_welcome(conn)
        if seat is not None:
            self.tell(f"{seat} is here" + (f" ({conn.name})" if conn.name else ""))
            self.broadcast({"type": "seats", "seats": self.presence()})
            self.changed.set()
            if self.waiting == seat:
                conn.send(self._turn_message(seat))
            ask = self.round_asks.get(seat)
            if ask is not None and not ask.done:
                conn.send(ask.message)
        if self.over is not None:  # joined (again) after the end: its `over` may have been lost
            conn.send(self.over)

    def leave(self, conn: Connection) -> None:
        self.watchers.discard(conn)
        seat = conn.seat
        if seat is not None and self.players.get(seat) is conn:
            del self.players[seat]
            self.absent_since[seat] = time.monotonic()
            if self.asked is not None and self.asked.seat == seat and not self.asked.answer.done():
                self.asked.answer.set_result(None)  # the rules' default: nobody to ask
            self.tell(f"{seat} dropped")
            self.broadcast({"type": "seats", "seats": self.presence()})
            self.changed.set()

    def everyone(self) -> list[Connection]:
        return [*self.players.values(), *self.watchers]

    def broadcast(
        self, message: dict[str, Any], but: Connection | None = None, now: bool = False
    ) -> None:
        """``message`` to everyone in the room (but ``but``), encoded once; ``now``: written at
        once rather than as the loop's turn ends."""
        text = encode(message).encode()
        for conn in self.everyone():
            if conn is not but:
                conn.send(text, now=now)

    def tell(self, line: str) -> None:
        self.say(f"room {self.name}: {line}")
        self.broadcast({"type": "news", "lines": [line]})

    # -- what a client sends --------------------------------------------------------------------------

    def receive(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "hello":
            raise ProtocolError("hello was already said")
        if conn.seat is None:
            raise ProtocolError("a spectator cannot act")
        if kind == "home":
            asked = self.asked
            if asked is None or asked.seat != conn.seat or msg["step"] != asked.step:
                conn.send({"type": "refused", "step": msg["step"], "reason": "nothing asked"})
            elif msg["pawn"] != asked.pawn or msg["scoring"] not in asked.options:
                conn.send(
                    {"type": "refused", "step": msg["step"], "reason": "not one of the options"}
                )
            elif not asked.answer.done():
                asked.answer.set_result(int(msg["scoring"]))
            return
        if kind == "score":
            self._answer_round(conn, msg)
            return
        if kind == "aim":
            if self.waiting == conn.seat:
                aim = {"type": "aim", "seat": conn.seat, "along": msg["along"]}
                self.broadcast({**aim, "across": msg["across"]}, but=conn)
            return
        if self.taking != conn.seat or self.pending is not None:
            conn.send({"type": "refused", "step": msg["step"], "reason": "not your turn"})
            return
        if msg["step"] != self.step:
            conn.send(
                {
                    "type": "refused",
                    "step": msg["step"],
                    "reason": f"the game is at step {self.step}",
                }
            )
            return
        self.pending = Shot(
            conn.seat,
            float(msg["speed"]),
            float(msg.get("angle_rad", 0.0)),
            float(msg.get("offset", 0.0)),
            None if msg.get("release") is None else float(msg["release"]),
        )
        self.fouled = bool(msg.get("foul", False))
        self.received = time.perf_counter()
        if not self.fouled:  # released here, as it is read: nothing stands before its sending
            try:
                self._release(self.pending)
            except UserError as exc:  # the game cannot go on: said by :meth:`run`
                self.broken = exc
        self.changed.set()

    def _answer_round(self, conn: Connection, msg: dict[str, Any]) -> None:
        """A ``score`` message: the seat's round-end choice, taken when it was asked for this
        step, not yet answered, and the rules find it legal; refused otherwise."""
        seat = conn.seat or ""
        ask = self.round_asks.get(seat)
        if ask is None or ask.done or msg["step"] != ask.step:
            conn.send({"type": "refused", "step": msg["step"], "reason": "nothing asked"})
            return
        moves = tuple(Move(m["pawn"], int(m["scoring"]), int(m["points"])) for m in msg["moves"])
        try:
            ask.answer = check_assignment(self.game.state, seat, moves)
        except RulesError as exc:
            conn.send(
                {"type": "refused", "step": msg["step"], "reason": f"not a legal choice: {exc}"}
            )
            return
        ask.done = True
        self.changed.set()

    # -- the game -------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Play the game to its end, then tell everyone."""
        loop = asyncio.get_running_loop()
        try:
            while not self.game.over:
                if self.resumed is not None:  # the release kept, slid again as it was
                    slide, how = self.resumed
                    self.resumed = None
                    self._stepped(
                        *await loop.run_in_executor(
                            self.executor, self._apply, slide, how, loop, None, None, True
                        )
                    )
                    continue
                if self.game.state.phase is Phase.SCORING:
                    chosen, by = await self.round_choices()
                    self._stepped(
                        *await loop.run_in_executor(
                            self.executor, self._apply, None, "score", loop, chosen, by
                        )
                    )
                    continue
                seat = self.game.state.turn
                assert seat is not None
                shot, how = await self._shot_of(seat)
                self._stepped(
                    *await loop.run_in_executor(self.executor, self._apply, shot, how, loop)
                )
            if self.log_fault is not None:  # its last chance: the game is over
                await loop.run_in_executor(self.executor, self.writer.write)
                self._log_written()
            state = self.game.state
            self.over = {"type": "over", "winner": state.winner, "drawn": self.game.drawn}
            self.broadcast(self.over)
            self.say(
                f"room {self.name}: over, " + (f"{state.winner} wins" if state.winner else "a draw")
            )
        except UserError as exc:  # the game cannot go on: everyone is told, and the host
            self.tell(f"the game stopped: {exc}")
            raise
        finally:
            self.waiting = None
            self.done.set()

    async def round_choices(self) -> tuple[dict[str, Assignment], dict[str, str]]:
        """Every remote seat's round-end choice, asked of it (an ``ask`` with ``"choice":
        "score"``) when the rules offer it more than one: the answers, and the seats that took
        the rules' default and why (``clock``: no answer within the room's clock, or
        :data:`HOME_WAIT` without one; ``away``: not connected past the turn timeout; without
        one, a seat not connected is waited for as its turn would be, and asked when it comes
        back), said to everyone and kept in the log."""
        state, step = self.game.state, self.step
        for seat, kind in self.kinds.items():
            options = legal_assignments(state, seat) if kind == REMOTE else []
            if len(options) < 2:
                continue
            message = {
                "type": "ask",
                "choice": "score",
                "step": step,
                "seat": seat,
                "round": state.round,
                "board": list(state.player(seat).board),
                "options": [[m.to_json() for m in a] for a in options],
                "default": [m.to_json() for m in default_assignment(state, seat)],
            }
            self.round_asks[seat] = RoundAsk(seat, step, message)
            if seat in self.players:
                self.players[seat].send(message)
        by: dict[str, str] = {}
        start = time.monotonic()
        try:
            while waiting := [a for a in self.round_asks.values() if not a.done]:
                now = time.monotonic()
                soonest: float | None = None
                for ask in waiting:
                    if ask.seat in self.players:
                        joined = self.joined_at.get(ask.seat, start)
                        end, why = max(start, joined) + (self.clock or HOME_WAIT), "clock"
                    elif self.turn_timeout is not None:
                        gone = self.absent_since.setdefault(ask.seat, now)
                        end, why = max(start, gone) + self.turn_timeout, "away"
                    else:  # waited for as its turn would be
                        continue
                    if now >= end:
                        ask.done, by[ask.seat] = True, why
                    else:
                        soonest = end if soonest is None else min(soonest, end)
                if any(not a.done for a in waiting):
                    await self._changed_or(soonest, now)
            chosen = {a.seat: a.answer for a in self.round_asks.values() if a.answer is not None}
        finally:
            self.round_asks = {}
        for seat, why in by.items():
            self.tell(
                f"{seat} did not choose in time: the rules' scoring"
                if why == "clock"
                else f"{seat} is away: the rules' scoring"
            )
        return chosen, by

    def _turn_message(self, seat: str) -> dict[str, Any]:
        return {"type": "turn", "seat": seat, "step": self.step, "clock": self.clock}

    async def _shot_of(self, seat: str) -> tuple[Shot | None, str]:
        """The shot of ``seat`` and how it came: ``cpu`` (the host's computer), ``remote`` (its
        player's), ``stand-in`` (absent past the turn timeout) or ``clock`` (out of time: lost)."""
        self.waiting, self.pending = seat, None
        self.broadcast(self._turn_message(seat))
        if self.kinds[seat] == CPU:
            return None, CPU
        self.taking = seat
        try:
            return await self._wait_shot(seat)
        finally:
            self.taking = None

    async def _wait_shot(self, seat: str) -> tuple[Shot | None, str]:
        start = time.monotonic()
        while True:
            if self.broken is not None:
                raise self.broken
            if self.pending is not None:
                return self.pending, FOUL if self.fouled else REMOTE
            now = time.monotonic()
            deadlines = {}
            if self.clock is not None and seat in self.players:  # an absent player's turn waits
                deadlines["clock"] = max(start, self.joined_at.get(seat, start)) + self.clock
            if self.turn_timeout is not None and seat not in self.players:
                gone = self.absent_since.setdefault(seat, now)
                deadlines["stand-in"] = max(start, gone) + self.turn_timeout
            how, deadline = min(deadlines.items(), key=lambda kv: kv[1], default=("", None))
            if deadline is not None and now >= deadline:
                return None, how
            await self._changed_or(deadline, now)

    async def _changed_or(self, deadline: float | None, now: float) -> None:
        """Wait until something changes in the room (:attr:`changed`) or ``deadline`` (the
        loop's time; None: no deadline) passes, ``now`` being the loop's time."""
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            wait = None if deadline is None else deadline - now
            await asyncio.wait_for(self.changed.wait(), wait)

    def _release(self, shot: Shot) -> None:
        """A player's shot released as its message is read, on the room's loop, and sent to
        everyone at once: no thread and no task stands between the shot read and the shot sent
        (the physics then runs in the room's thread, :meth:`_apply`)."""
        t0 = time.thread_time()
        slide = self.game.release(shot, by_hand=True)
        message = {"type": "shot", "step": self.step, "slide": slide.to_json(), "by": REMOTE}
        self._keep_release(message)
        self.broadcast(message, now=True)
        self.delays.append(time.perf_counter() - self.received)
        self.cpu_seconds += time.thread_time() - t0

    def _apply(
        self,
        shot: Shot | None,
        how: str,
        loop: asyncio.AbstractEventLoop,
        chosen: Mapping[str, Assignment] | None = None,
        by: Mapping[str, str] | None = None,
        slid: bool = False,
    ) -> tuple[dict[str, Any], str, str, list[str], str, str]:
        """Run in a worker thread: the step (a round scored with the remote seats' ``chosen``
        assignments, ``by`` the seats that did not choose; or a shot slid and applied; ``slid``:
        ``shot`` is a release the room kept, slid again as it was) and the log written; what
        :meth:`_stepped` tells everyone, from the room's own loop."""
        game = self.game
        if how == "score":
            game.score(chosen, by)
        else:
            t0 = time.thread_time()
            step = self.step

            def released(slide: Shot) -> None:
                # kept, then sent before the shot runs: the physics holds the interpreter
                msg = {"type": "shot", "step": step, "slide": slide.to_json(), "by": how}
                self._keep_release(msg)
                sending = asyncio.run_coroutine_threadsafe(self._send_now(msg), loop)
                try:
                    sending.result(SEND_WAIT)
                except TimeoutError:  # a busy loop sends it when it can
                    pass
                self._send_motion(loop)

            if how == CPU:
                shot = game.computer_shot()
                t0 = time.thread_time()
            elif how == "stand-in":
                shot = self._stand_in(game.state.turn or "").choose_shot(
                    game.state, game.layout, game.face, game.params
                )
                t0 = time.thread_time()
            home: dict[str, Player] = {
                seat: RemoteSeat(self, seat, step, loop)
                for seat, kind in self.kinds.items()
                if kind == REMOTE
            }
            if slid:
                assert shot is not None
                released(game.release_slid(shot))
                game.settle(home, how if how in SLID_BY else None)
            elif how == REMOTE:  # released already (:meth:`_release`)
                self._send_motion(loop)
                game.settle(home)
            elif shot is None or how == FOUL:
                game.forfeit(home, released=released, by=how if how in SLID_BY else None)
            else:
                slid_by = "stand-in" if how == "stand-in" else None
                game.shoot(shot, home, by_hand=how == REMOTE, released=released, by=slid_by)
            self.shots_taken += 1
            self.cpu_seconds += time.thread_time() - t0
        done: Step = game.turns.game.steps[-1]
        # encoded here, off the room's loop: the log (only the new step encoded) and the message
        data = done.to_json()
        try:
            self.writer.add(data)
        except UserError as exc:  # the game goes on; the next step writes the log whole
            self._faults.append(str(exc))
        else:
            with contextlib.suppress(OSError):
                self.release_path.unlink(missing_ok=True)
        text = _compact(data)
        message = f'{{"v":{VERSION},"type":"step","n":{self.step},"step":{text}'
        if isinstance(done, ShotStep):
            message += f',"hash":"{result_hash(data["shot"])}"'
        lost = (
            done.result.seat if isinstance(done, ShotStep) and how in ("clock", "stand-in") else ""
        )
        return data, text, message + "}", game.turns.news(), how, lost

    async def _send_now(self, message: dict[str, Any]) -> None:
        """Broadcast ``message`` from the room's loop, written at once."""
        self.broadcast(message, now=True)

    def _keep_release(self, message: dict[str, Any]) -> None:
        """Keep a shot's release beside the log before it is sent (``--resume`` slides it again
        as it was); a write that fails is told with the step."""
        try:
            write_json_atomic(
                self.release_path,
                {"step": message["step"], "slide": message["slide"], "by": message["by"]},
            )
        except UserError as exc:
            self._faults.append(str(exc))

    def _log_written(self) -> None:
        if self.log_fault is not None:
            self.log_fault = None
            self.tell("the game log is written again")

    def _stepped(
        self, data: dict[str, Any], text: str, message: str, news: list[str], how: str, who: str
    ) -> None:
        self.steps_json.append(data)
        self.step_bytes.append(text.encode())
        self.log_size += len(self.step_bytes[-1]) + 1
        n = len(self.steps_json) - 1
        self.waiting = None
        encoded = message.encode()
        for conn in self.everyone():
            conn.send(encoded)
        drawing = [conn for conn in self.everyone() if conn.draws]
        if drawing:
            state = encode(view.state_json(self.game.state, self.step)).encode()
            for conn in drawing:
                conn.send(state)
        faults, self._faults = self._faults, []
        if faults and self.log_fault is None:
            self.log_fault = faults[-1]
            self.tell(
                f"the game log cannot be written ({faults[-1]}): the game goes on, and its "
                "log is written whole at the next step that can be"
            )
        elif not faults:
            self._log_written()
        if who:
            self.tell(
                f"{who} ran out of time: the shot is lost"
                if how == "clock"
                else f"{who} is away: the computer took the shot"
            )
        if news:  # the step told: a window tells it itself once it has shown the shot roll
            for line in news:
                self.say(f"room {self.name}: {line}")
            self.broadcast({"type": "news", "lines": news, "step": n})

    def _stand_in(self, seat: str) -> ComputerPlayer:
        if seat not in self._stand_ins:
            self._stand_ins[seat] = ComputerPlayer(seat, self.stand_in, np.random.default_rng())
        return self._stand_ins[seat]


def _compact(data: Any) -> str:
    """``data`` as a message carries it (the JSON :func:`~sliders.net.protocol.encode` writes)."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False)


_LOG_MARK = "\x00log\x00"
"""what stands for the log in a welcome encoded without it"""
_LOG_MARK_TEXT = _compact(_LOG_MARK)


def new_room(
    name: str,
    config: MatchConfig,
    plans: Sequence[SeatPlan],
    folder: Path,
    max_rounds: int | None = None,
    watch_code: bool = False,
    **options: Any,
) -> Room:
    """A new game in room ``name``, its log ``folder/NAME.json`` (refused if it exists: resume
    it instead), its codes drawn now and kept beside it (``watch_code``: and a code watchers
    must give)."""
    log = folder / f"{room(name)}.json"
    if log.exists():
        raise UserError(f"{log} exists: resume it with --resume {log}, or choose another folder")
    game = HeadlessGame.of(Turns(config, max_rounds=max_rounds))
    watching = secrets.token_hex(CODE_BYTES) if watch_code else None
    made = Room(name, game, plans, log, watch_code=watching, **options)
    save_game(game.turns.game, log)
    _keep_codes(made)
    return made


def resume_room(
    log: Path,
    plans: Sequence[SeatPlan] | None,
    max_rounds: int | None = None,
    watch_code: bool = False,
    **options: Any,
) -> Room:
    """The game of the log at ``log`` taken up where it stopped, in its room, with the codes
    kept beside it (new ones if none are; ``watch_code``: a watch code drawn if none is kept);
    ``plans`` (None: every seat as the codes file has it, else remote) must seat the log's
    seats. A release kept beside the log and not yet in it is slid again as it was."""
    game_log = load_replay(log)
    kept = _read_codes(log)
    name = str(kept.get("room") or log.stem)
    plans = plans or tuple(
        SeatPlan(s, str(kept.get("kinds", {}).get(s, REMOTE))) for s in game_log.seats
    )
    if tuple(p.seat for p in plans) != game_log.seats:
        raise UserError(f"--seats must seat the log's seats: {', '.join(game_log.seats)}")
    ref = layout_of(game_log)
    specs = tuple(
        SeatSpec(p.seat, "human") if p.kind == REMOTE else SeatSpec(p.seat, "cpu", p.strength)
        for p in plans
    )
    hand = next(iter(game_log.hands.values()), DEFAULT_HAND)
    config = MatchConfig(
        game_log.face, ref.name, specs, None, game_log.starter, hand=hand, house=game_log.house
    )
    game = HeadlessGame.of(Turns(config, game=game_log, max_rounds=max_rounds))
    watching = kept.get("watch") or (secrets.token_hex(CODE_BYTES) if watch_code else None)
    made = Room(name, game, plans, log, kept.get("codes"), watch_code=watching, **options)
    made.resumed = _read_release(made)
    _keep_codes(made)
    return made


def _codes_path(log: Path) -> Path:
    return log.with_name(log.name + ".codes.json")


def _keep_codes(made: Room) -> None:
    """The room's codes beside its log, readable by the host's user alone from the start."""
    data: dict[str, Any] = {"room": made.name, "kinds": made.kinds, "codes": made.codes}
    if made.watch_code is not None:
        data["watch"] = made.watch_code
    write_json_atomic(_codes_path(made.log), data, mode=0o600)


def _read_codes(log: Path) -> dict[str, Any]:
    path = _codes_path(log)
    if not path.exists():
        return {}
    data = read_json(path, "join codes")
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("codes", {}), dict)
        or not isinstance(data.get("kinds", {}), dict)
    ):
        raise UserError(f"{path}: not a host's join codes")
    try:
        for value in data.get("codes", {}).values():
            code(value)
        if data.get("watch") is not None:
            code(data["watch"])
        if data.get("room") is not None:
            room(data["room"])
    except ProtocolError as exc:
        raise UserError(f"{path}: {exc}") from None
    for seat, kind in data.get("kinds", {}).items():
        if kind not in (REMOTE, CPU):
            raise UserError(
                f"{path}: seat {checks.shown(seat)} is {checks.shown(kind)}: "
                f"a seat is {REMOTE} or {CPU}"
            )
    return data


def _read_release(made: Room) -> tuple[Shot, str] | None:
    """The release kept beside ``made``'s log for the step the game is at (None: none, or
    one its log has already taken)."""
    path = made.release_path
    if not path.exists():
        return None
    data = read_json(path, "shot's release")
    state = made.game.state
    try:
        checks.obj(data, str(path), ("step", "slide", "by"), ("step", "slide", "by"))
        slide = Shot.from_json(data["slide"])
        how = checks.text(data["by"], f"{path}: by", (REMOTE, CPU, "stand-in", "clock", FOUL))
    except UserError as exc:
        raise UserError(f"{path}: not a shot's release ({exc})") from None
    if data["step"] != made.step or state.phase is not Phase.SHOOTING or slide.seat != state.turn:
        return None  # written before its step was: the log has it
    if slide.seed is None:
        raise UserError(f"{path}: the release has no seed")
    return slide, how


class Host:
    """Rooms served on one port: ``await host.start(address, port)``, then each room's game runs
    until it ends (:meth:`wait`). ``gate``: the caps on connections (and the origins of
    browser pages allowed besides the host's own); ``say``: where the lines telling refused and
    closed connections go."""

    def __init__(
        self,
        rooms: Sequence[Room],
        gate: Gate | None = None,
        say: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.rooms = {r.name: r for r in rooms}
        if len(self.rooms) != len(rooms):
            raise UserError("two rooms have one name")
        self.gate = gate or Gate()
        self.say = say
        self.server: Server | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.executor: ThreadPoolExecutor | None = None
        self.connections = 0
        self.refused = 0
        self.tally: Counter[str] = Counter()
        """connections refused or closed since the last line that told them, by reason"""
        self._told_at = -REPORT_EVERY
        self._telling: asyncio.TimerHandle | None = None
        self.http: Callable[[ServerConnection, Request], Response | None] | None = None
        """answers a plain HTTP request that passed the gate (the web page's files,
        :mod:`sliders.net.web`): a response, or None to go on with the WebSocket handshake"""

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def start(
        self,
        address: str = "127.0.0.1",
        port: int = 0,
        *,
        sock: socket.socket | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        """Listen on ``address`` and ``port``, or on ``sock`` (bound already); ``tls``: serve
        ``wss://`` with this context."""
        where: dict[str, Any] = (
            {"sock": sock} if sock is not None else {"host": address, "port": port}
        )
        if tls is not None:
            where.update(ssl=tls, ssl_handshake_timeout=HELLO_TIMEOUT)
        self.server = await serve(
            self.handle,
            max_size=MAX_MESSAGE,
            max_queue=16,
            ping_interval=PING_INTERVAL,
            ping_timeout=PING_INTERVAL,
            open_timeout=HELLO_TIMEOUT,
            close_timeout=1.0,
            compression=None,
            process_request=self.check,
            create_connection=self.gate.connection_class(),
            **where,
        )
        # a thread a room: a step waits on the disk (the log) and the physics, never on another room
        self.executor = ThreadPoolExecutor(len(self.rooms), thread_name_prefix="room")
        pace = Pace(WATCH_RATE)
        for r in self.rooms.values():
            r.executor, r.pace = self.executor, pace
        self.tasks = [asyncio.create_task(r.run()) for r in self.rooms.values()]

    async def wait(self) -> None:
        """Until every room's game is over (and its last messages had a moment to leave)."""
        await asyncio.gather(*self.tasks)
        await asyncio.sleep(0.2)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.executor is not None:
            self.executor.shutdown(wait=False)
        if self._telling is not None:
            self._telling.cancel()
            self._tell_tally()

    def check(self, connection: ServerConnection, request: Request) -> Response | None:
        """A connection past the caps, or a browser's from another site's page, refused before
        its handshake (the gate's reason in one line), and counted; a plain HTTP request that
        passes is answered by :attr:`http`."""
        refused = self.gate.check(connection, request)
        if refused is not None:
            self.note(refused.reason_phrase.lower() if refused.status_code == 403 else "full")
            return refused
        return None if self.http is None else self.http(connection, request)

    def unread_limit(self) -> int:
        """The bytes one connection may leave unread: its share of :data:`TOTAL_UNREAD`, from
        :data:`MIN_UNREAD` to :data:`MAX_UNREAD`."""
        return max(MIN_UNREAD, min(MAX_UNREAD, TOTAL_UNREAD // max(1, self.gate.open)))

    def note(self, why: str) -> None:
        """A connection refused or closed for ``why``: told with the others in one line, at most
        every :data:`REPORT_EVERY` seconds (an attack is seen, and does not flood the output)."""
        self.tally[why[:60]] += 1
        if self._telling is None:
            wait = max(0.0, self._told_at + REPORT_EVERY - time.monotonic())
            self._telling = asyncio.get_running_loop().call_later(wait, self._tell_tally)

    def _tell_tally(self) -> None:
        self._telling, self._told_at = None, time.monotonic()
        if not self.tally:
            return
        counts = "; ".join(f"{n} {why}" for why, n in self.tally.most_common(6))
        more = len(self.tally) - 6
        self.say(
            f"host: {sum(self.tally.values())} connection(s) refused or closed: {counts}"
            + (f"; and {more} other reason(s)" if more > 0 else "")
        )
        self.tally.clear()

    async def handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.unread_limit)
        self.connections += 1
        where: Room | None = None
        said = "refused hello"
        try:
            first = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)
            hello = check_client(decode(first))
            if hello["type"] != "hello":
                raise ProtocolError("say hello first")
            where = self.rooms.get(hello["room"])
            if where is None:
                raise ProtocolError(f"no room named {hello['room']}")
            conn.name = str(hello.get("name", ""))
            conn.draws = bool(hello.get("draw", False))
            if hello.get("watch"):
                where.admit_watcher(hello.get("code"))
                seat = None
            else:
                seat = where.seat_of(hello["code"])
            where.join(conn, seat)
            said = "closed"
            async for frame in ws:
                conn.spend()
                where.receive(conn, check_client(decode(frame)))
        except ProtocolError as exc:
            self.refused += 1
            self.note(f"{said}: {_gist(str(exc))}")
            where = where if said == "closed" else None
            conn.close(str(exc))
        except TimeoutError:
            self.note(f"no hello within {HELLO_TIMEOUT:g} s")
            conn.close(f"no hello within {HELLO_TIMEOUT:g} s")
        except ConnectionClosed:
            pass
        finally:
            if where is not None:
                where.leave(conn)
            if conn.streaming is not None:
                conn.streaming.cancel()
            conn.close()
            assert conn.closed is not None
            try:
                await asyncio.wait_for(conn.closed, 2.0)
            except (TimeoutError, ConnectionClosed):
                pass


def _gist(reason: str) -> str:
    """A reason's kind, without what the client sent (counted together in the host's line)."""
    return reason.split(":")[0].split(" (")[0][:48]

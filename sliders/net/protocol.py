"""The network game's messages: versioned JSON objects, one a WebSocket text frame, checked
strictly (docs/protocol.md describes each with an example).

A client sends :data:`CLIENT_TYPES` only: ``hello`` (claim a seat with its join code, or watch;
``draw``: a client that draws from the host's data, the web page, is sent the table's geometry,
each shot's motion and each step's position too, :mod:`sliders.net.view`),
``shot`` (the intended shot of the seat to move, for the step the game is at), ``aim`` (where
the hand is, a light stream the others see), ``home`` (the answer to the host's Instant Home
``ask``: the scoring pawn a hole sends HOME) and ``score`` (the answer to its round-end ``ask``:
the moves of the seat's scoring pawns). Every field is checked here (no unknown key, every
number finite and within its range, at most :data:`MAX_MESSAGE` bytes); anything else is a
:class:`ProtocolError` whose one line the host sends back before it closes that connection.
The host sends the game's log as :mod:`sliders.rules.gamelog` writes it, each step as the log
records it, and each shot's result with its :func:`result_hash`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from typing import Any

from sliders.core import checks
from sliders.core.errors import UserError
from sliders.core.fileio import parse_json
from sliders.core.outcome import PAWNS_PER_PLAYER
from sliders.rules.gamelog import MAX_POINTS

VERSION = 1
"""the protocol's version; a message of another version is refused"""
MAX_MESSAGE = 4096
"""the most bytes a client's message may hold"""
MAX_HOST_MESSAGE = 32 * 2**20
"""the most bytes a host's message may hold (the welcome carries the game's whole log)"""
CLIENT_TYPES = ("hello", "shot", "aim", "home", "score")
CODE_BYTES = 16
"""a join code's length in bytes: 128 random bits, shown as 32 hexadecimal digits"""
_CODE = re.compile(r"[0-9a-f]{32}")
_ROOM = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_NAME = 32
"""the most characters a player's name may have"""
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""control, format (the direction marks and overrides among them), surrogate, private-use and
unassigned characters, and line and paragraph separators: none may be in a name"""
MAX_ALONG = 2.0
"""the farthest (m) a release or a hand may be down a lane"""


class ProtocolError(UserError):
    """A message the protocol refuses, said in one line."""


def encode(message: dict[str, Any]) -> str:
    """``message`` as the compact JSON text sent in one frame (with the protocol's version)."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), allow_nan=False)


def decode(frame: str | bytes, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """The JSON object in a text ``frame`` of at most ``limit`` bytes, of this protocol's version
    (its fields not yet checked: see :func:`check_client`)."""
    if isinstance(frame, bytes | bytearray | memoryview):
        raise ProtocolError("binary frames are not part of the protocol (send JSON text)")
    if len(frame) > limit or len(frame.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError(f"message longer than {limit} bytes")
    try:
        data = parse_json(frame, "message")
    except UserError as exc:
        raise ProtocolError(str(exc)) from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    if type(data.get("v")) is not int or data["v"] != VERSION:  # not true, not 1.0
        raise ProtocolError(
            f"protocol version {checks.shown(data.get('v'))}: this is version {VERSION}"
        )
    if data.get("type") not in CLIENT_TYPES + HOST_TYPES:
        raise ProtocolError(f"unknown message type {checks.shown(data.get('type'))}")
    return data


def check_client(data: dict[str, Any]) -> dict[str, Any]:
    """A client's message with every field checked (see the module's description)."""
    kind = data.get("type")
    try:
        if kind == "hello":
            _check_hello(data)
        elif kind == "shot":
            checks.obj(
                data,
                "shot",
                ("v", "type", "step", "speed", "angle_rad", "offset", "release", "foul"),
                ("step", "speed"),
            )
            if "foul" in data and not isinstance(data["foul"], bool):
                raise checks.at("shot.foul", "expected true or false")
            checks.whole(data["step"], "shot.step", 0, 10**6)
            checks.number(data["speed"], "shot.speed", 0.0, checks.MAX_SPEED, "m/s")
            checks.number(data.get("angle_rad", 0.0), "shot.angle_rad", -math.pi, math.pi, "rad")
            checks.number(data.get("offset", 0.0), "shot.offset", -1.0, 1.0, "m")
            if data.get("release") is not None:
                checks.number(data["release"], "shot.release", 0.0, MAX_ALONG, "m")
        elif kind == "home":
            checks.obj(
                data, "home", ("v", "type", "step", "pawn", "scoring"), ("step", "pawn", "scoring")
            )
            checks.whole(data["step"], "home.step", 0, 10**6)
            checks.pawn_id(data["pawn"], "home.pawn")
            checks.whole(data["scoring"], "home.scoring", 0, 3)
        elif kind == "score":
            checks.obj(data, "score", ("v", "type", "step", "moves"), ("step", "moves"))
            checks.whole(data["step"], "score.step", 0, 10**6)
            for i, m in enumerate(checks.array(data["moves"], "score.moves", 0, PAWNS_PER_PLAYER)):
                where = f"score.moves[{i}]"
                checks.obj(m, where, ("pawn", "scoring", "points"), ("pawn", "scoring", "points"))
                checks.pawn_id(m["pawn"], f"{where}.pawn")
                checks.whole(m["scoring"], f"{where}.scoring", 0, PAWNS_PER_PLAYER - 1)
                checks.whole(m["points"], f"{where}.points", 0, MAX_POINTS)
        elif kind == "aim":
            checks.obj(data, "aim", ("v", "type", "along", "across"), ("along", "across"))
            checks.number(data["along"], "aim.along", -MAX_ALONG, MAX_ALONG, "m")
            checks.number(data["across"], "aim.across", -1.0, 1.0, "m")
        else:
            raise ProtocolError(f"a client does not send {checks.shown(kind)} messages")
    except ProtocolError:
        raise
    except UserError as exc:
        raise ProtocolError(str(exc)) from None
    return data


def _check_hello(data: dict[str, Any]) -> None:
    checks.obj(data, "hello", ("v", "type", "room", "code", "watch", "name", "draw"), ("room",))
    room(data["room"])
    if "code" in data:
        code(data["code"])
    for flag in ("watch", "draw"):
        if flag in data and not isinstance(data[flag], bool):
            raise checks.at(f"hello.{flag}", "expected true or false")
    if "code" not in data and not data.get("watch"):
        raise ProtocolError("hello: give a seat's code, or watch: true")
    if "name" in data:
        name(data["name"])


HOST_TYPES = (
    "welcome", "seats", "turn", "shot", "step", "aim", "ask", "news", "over", "refused", "bye",
    "motion", "state",
)  # fmt: skip
"""what a host sends (docs/protocol.md)"""

_TEXT, _WHOLE, _NUMBER, _LIST, _OBJECT, _FLAG = str, int, float, list, dict, bool
_HOST_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "welcome": {"seat": (_TEXT, type(None)), "engine": (_TEXT,), "seats": (_LIST,),
                "log": (_OBJECT,), "step": (_WHOLE,), "turn": (_TEXT, type(None))},
    "seats": {"seats": (_LIST,)},
    "turn": {"seat": (_TEXT,), "step": (_WHOLE,)},
    "shot": {"step": (_WHOLE,), "slide": (_OBJECT,)},
    "step": {"n": (_WHOLE,), "step": (_OBJECT,)},
    "aim": {"seat": (_TEXT,), "along": (_WHOLE, _NUMBER), "across": (_WHOLE, _NUMBER)},
    "ask": {"choice": (_TEXT,), "step": (_WHOLE,), "seat": (_TEXT,), "options": (_LIST,)},
    "news": {"lines": (_LIST,)},
    "over": {"winner": (_TEXT, type(None))},
    "refused": {"reason": (_TEXT,)},
    "bye": {"reason": (_TEXT,)},
}  # fmt: skip
"""the fields a client reads of each host message, and their JSON types"""


def parse_host(frame: str | bytes) -> dict[str, Any]:
    """A host's message, read as strictly as a host reads a client's (:func:`decode`: text, JSON
    within bounds, this protocol's version, a known type), with the fields a client reads of it
    there and of their types; a :class:`ProtocolError` of one line otherwise (the welcome carries
    the whole game log: up to :data:`MAX_HOST_MESSAGE` bytes)."""
    data = decode(frame, MAX_HOST_MESSAGE)
    kind = data["type"]
    if kind not in HOST_TYPES:
        raise ProtocolError(f"a host does not send {checks.shown(kind)} messages")
    for key, types in _HOST_FIELDS[kind].items():
        value = data.get(key)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ProtocolError(f"{kind}.{key}: expected {_type_names(types)}")
    if kind == "news" and not all(isinstance(line, str) for line in data["lines"]):
        raise ProtocolError("news.lines: expected a list of text")
    if kind == "ask":
        if data["choice"] not in ("home", "score"):
            raise ProtocolError(f"ask.choice: {checks.shown(data['choice'])}")
        if data["choice"] == "home" and not all(type(o) is int for o in data["options"]):
            raise ProtocolError("ask.options: expected scoring pawns (whole numbers)")
        if data["choice"] == "home" and type(data.get("default")) is not int:
            raise ProtocolError("ask.default: expected a scoring pawn (a whole number)")
        if data["choice"] == "home" and not isinstance(data.get("pawn"), str):
            raise ProtocolError("ask.pawn: expected a pawn")
        home = data.get("home", {})
        if not isinstance(home, dict) or not all(type(v) is int for v in home.values()):
            raise ProtocolError("ask.home: expected the choices made, {pawn: scoring pawn}")
        if data["choice"] == "score" and not isinstance(data.get("default"), list):
            raise ProtocolError("ask.default: expected a list of moves")
    return data


def _type_names(types: tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", float: "a number", list: "a list",
             dict: "an object", bool: "true or false", type(None): "null"}  # fmt: skip
    return " or ".join(names[t] for t in types)


def room(value: Any) -> str:
    """A room's name: 1 to 32 letters, digits, ``-`` or ``_``."""
    if not isinstance(value, str) or not _ROOM.fullmatch(value):
        raise ProtocolError("hello.room: expected 1 to 32 letters, digits, - or _")
    return value


def name(value: Any) -> str:
    """A player's name: 1 to :data:`MAX_NAME` characters of text, none of them a control,
    line-break or direction character (a name is shown to everyone, in windows and logs)."""
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= MAX_NAME
        or any(unicodedata.category(c) in _NOT_IN_NAMES for c in value)
    ):
        raise ProtocolError(
            f"hello.name: expected 1 to {MAX_NAME} characters of text, without control, "
            "line-break or direction characters"
        )
    return value


def code(value: Any) -> str:
    """A join code: 32 lowercase hexadecimal digits."""
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        raise ProtocolError("hello.code: expected 32 hexadecimal digits")
    return value


def result_hash(result: dict[str, Any]) -> str:
    """The SHA-256 of a shot result's JSON (keys sorted, compact; the version of sliders that ran
    it left out): what a client compares its own simulation of the shot with."""
    same = {k: v for k, v in result.items() if k != "version"}
    text = json.dumps(same, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

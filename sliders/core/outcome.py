"""What a shot leaves behind: rest statuses, events and the shot result.

This is the vocabulary shared by the physics (which produces it) and the rules (which read it).
It is plain data with no dependency on pymunk or pygame, and it round-trips through JSON.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sliders.core import records
from sliders.core.errors import UserError

if TYPE_CHECKING:
    import numpy as np

SEATS: tuple[str, ...] = ("south", "west", "north", "east")
"""Seats of the square in turn order: play passes to the left."""

SEAT_COLOURS: dict[str, str] = {"south": "red", "west": "blue", "north": "yellow", "east": "green"}
COLOUR_SEATS: dict[str, str] = {colour: seat for seat, colour in SEAT_COLOURS.items()}

PAWNS_PER_PLAYER = 4

FACES: tuple[str, ...] = ("race-for-home", "instant-home", "instant-sorry", "danger-dots")
"""The four games' names, one per face of the two target boards. What each game means is its
face's record in :mod:`sliders.boards.faces`, whose registry is checked equal to this list."""


def parse_seat(name: str, noun: str = "seat") -> str:
    """A seat from a seat name or a colour (``red`` = ``south``), case-insensitive: the one
    parser every command, file and screen uses. ``noun`` names what is asked for in the error
    (``"player"`` for the scorekeeper)."""
    key = name.strip().lower()
    if key in SEATS:
        return key
    if key in COLOUR_SEATS:
        return COLOUR_SEATS[key]
    known = ", ".join(f"{c}/{s}" for s, c in SEAT_COLOURS.items())
    raise UserError(f"unknown {noun} {name!r}; choose from {known}")


def parse_seats(text: str | Iterable[str], noun: str = "seat") -> tuple[str, ...]:
    """Seats from ``"south,north"`` or ``"red, yellow"`` (or a list of names), each once, in
    turn order."""
    items = text.split(",") if isinstance(text, str) else list(text)
    seats: list[str] = []
    for item in items:
        if isinstance(text, str) and not item.strip():
            continue
        seat = parse_seat(item, noun)
        if seat in seats:
            raise UserError(f"{noun} {item.strip()!r} is named twice")
        seats.append(seat)
    if not seats:
        raise UserError(f"no {noun}s given")
    return tuple(s for s in SEATS if s in seats)


ENGINES: tuple[str, ...] = ("exact", "pymunk")
"""The physics engines a shot can be simulated in (see :mod:`sliders.physics`)."""

DEFAULT_ENGINE = "exact"
"""the engine used when none is named: the exact one (docs/model.md says when to pick which)"""


def check_engine(engine: str | None) -> str:
    """The engine's name (``None``: the default), or a one-line UserError."""
    if engine is None:
        return DEFAULT_ENGINE
    if engine not in ENGINES:
        raise UserError(f"engine {engine!r} is unknown (choose {' or '.join(ENGINES)})")
    return engine


def pawn_id(seat: str, number: int) -> str:
    """The id of a seat's roller pawn number 1..4, e.g. ``south-1``."""
    return f"{seat}-{number}"


def pawn_seat(pid: str) -> str:
    """The seat that owns roller pawn ``pid``."""
    return pid.rsplit("-", 1)[0]


class Status(StrEnum):
    """Rest status of a roller pawn; every pawn is always in exactly one."""

    IN_HAND = "in_hand"
    OWN_TRACK = "own_track"
    TIPPING = "tipping"
    ON_TARGET = "on_target"
    HOLE_EDGE = "hole_edge"
    OTHER_TRACK = "other_track"
    OFF_BOARD = "off_board"
    SORRY_CORNER = "sorry_corner"
    IN_HOLE = "in_hole"
    DANGER_DOT = "danger_dot"
    KNOCKED_OVER = "knocked_over"
    FOUL = "foul"
    OFF_SIDE = "off_side"
    """off the board across a side of the target board, clear of its corners (``off_board``: off
    a corner, or off a track); the house rule ``corners-only`` spares its penalty"""

    @property
    def removed(self) -> bool:
        """True when the pawn leaves play for the rest of the round."""
        return self in REMOVED

    @property
    def in_play(self) -> bool:
        """True when the pawn stands on the table and may still score or be knocked about."""
        return self in IN_PLAY


IN_PLAY = frozenset({Status.OWN_TRACK, Status.TIPPING, Status.ON_TARGET, Status.HOLE_EDGE})
REMOVED = frozenset(
    {
        Status.OTHER_TRACK,
        Status.OFF_BOARD,
        Status.SORRY_CORNER,
        Status.IN_HOLE,
        Status.DANGER_DOT,
        Status.KNOCKED_OVER,
        Status.FOUL,
        Status.OFF_SIDE,
    }
)


class EventType(StrEnum):
    """What the physics reports during a shot."""

    RELEASE = "release"  # the shot pawn leaves the hand
    FOUL = "foul"  # released beyond the foul line
    CONTACT = "contact"  # two pawns touch (first touch of a contact)
    RAIL = "rail"  # a pawn hits a rail (first touch of a contact)
    KNOCKED_OVER = "knocked_over"  # a hit hard enough to topple a pawn
    OFF_BOARD = "off_board"  # a pawn's centre left the surface
    IN_HOLE = "in_hole"  # a pawn dropped into the centre hole
    SETTLED = "settled"  # everything is at rest
    TIMED_OUT = "timed_out"  # stopped at the time limit with something still moving


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during a shot, at time ``t`` seconds after release."""

    t: float
    type: EventType
    pawns: tuple[str, ...] = ()
    impulse: float = 0.0  # N·s, for contacts and rail hits
    x: float = 0.0
    y: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return records.from_json(cls, data)


@dataclass(frozen=True, slots=True)
class PawnRest:
    """Where one roller pawn ended a shot, its status and what it would score now.

    ``points`` is what the pawn scores at round end as it stands (0 for removed pawns).
    ``choices`` lists the scores a player may pick from when the face offers a choice
    (the 4/5/6 circle of Instant Sorry!); otherwise it is ``(points,)``.
    """

    id: str
    seat: str
    x: float
    y: float
    status: Status
    points: int = 0
    choices: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.choices:
            object.__setattr__(self, "choices", (self.points,))

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PawnRest:
        """From :meth:`to_json`; a record without its seat takes the pawn id's."""
        seat = str(data.get("seat") or pawn_seat(str(data["id"])))
        return records.from_json(cls, data, seat=seat)


@dataclass(frozen=True, slots=True)
class ShotResult:
    """The outcome of one shot once everything is at rest.

    ``pawns`` holds every pawn that was on the table when the shot began plus the shot pawn,
    each with its status after the shot. Pawns removed by this shot carry their removed status.
    ``settled`` is False when the shot was stopped at the time limit with something still
    moving (the pawns are then classified where they stood). ``engine`` names the physics
    engine that ran the shot ("" for a result not simulated, e.g. a scorekeeper's) and
    ``version`` the sliders version that ran it (not compared: a result is the same result
    whichever version produced it).
    """

    face: str
    shooter: str  # id of the pawn slid
    pawns: tuple[PawnRest, ...]
    events: tuple[Event, ...] = ()
    settle_time: float = 0.0
    settled: bool = True
    engine: str = ""
    version: str = field(default="", compare=False)

    def pawn(self, pid: str) -> PawnRest:
        for p in self.pawns:
            if p.id == pid:
                return p
        raise KeyError(pid)

    @property
    def seat(self) -> str:
        return pawn_seat(self.shooter)

    def matches(self, other: ShotResult, tolerance: float = 1e-9) -> bool:
        """Whether ``other`` is this result up to rounding: the same pawns, statuses, points,
        events and engine, with every position, time and impulse within ``tolerance`` (m, s,
        N·s). Every way of running one shot gives it to the bit; the tolerance lets a log written
        by another build of the same physics (another compiler's rounding) still replay."""

        def near(a: float, b: float) -> bool:
            return abs(a - b) <= tolerance

        if (self.face, self.shooter, self.settled, self.engine) != (
            other.face, other.shooter, other.settled, other.engine
        ) or not near(self.settle_time, other.settle_time):  # fmt: skip
            return False
        if len(self.pawns) != len(other.pawns) or len(self.events) != len(other.events):
            return False
        for p, q in zip(self.pawns, other.pawns, strict=True):
            if (p.id, p.seat, p.status, p.points, p.choices) != (
                q.id, q.seat, q.status, q.points, q.choices
            ) or not (near(p.x, q.x) and near(p.y, q.y)):  # fmt: skip
                return False
        for e, f in zip(self.events, other.events, strict=True):
            if (e.type, e.pawns) != (f.type, f.pawns) or not all(
                near(a, b) for a, b in ((e.t, f.t), (e.impulse, f.impulse), (e.x, f.x), (e.y, f.y))
            ):
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        """The result as written to files; ``engine`` and ``version`` only when simulated."""
        return records.to_json(self, omit=() if self.engine else ("engine", "version"))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShotResult:
        return records.from_json(cls, data)


STATUSES: tuple[Status, ...] = tuple(Status)
"""Rest statuses as small numbers (in tables and batches of shots): code k is ``STATUSES[k]``."""


@dataclass(frozen=True)
class BatchResult:
    """Many shots of one table from one seat, as arrays: one row per shot, one column per pawn
    (``order``: the shot pawn, then the table's), what :func:`sliders.physics.simulate_many`
    gives in either engine."""

    order: tuple[str, ...]
    status: np.ndarray  # int8 codes into STATUSES
    points: np.ndarray  # int16
    x: np.ndarray
    y: np.ndarray
    settle_time: np.ndarray
    contacts: np.ndarray
    settled: np.ndarray  # False: the shot timed out
    refused: np.ndarray  # True: not simulated (see simulate_many's ``refuse``)


@dataclass(frozen=True, slots=True)
class Shot:
    """One slide, enough to run the physics again: from ``seat``'s lane, released ``release``
    metres down the lane from its near end (None: on the foul line), ``offset`` metres to the
    shooter's right of the lane's axis, heading ``angle`` **radians** to the shooter's right of
    straight, at ``speed`` m/s. ``pawn`` is the pawn slid (None: the seat's lowest-numbered pawn
    not on the table) and ``seed`` seeds the simulation's random draws (None: none given).

    The physics simulates it; a game's log keeps each shot slid, with its pawn and seed, as
    ``{"seat", "pawn", "speed", "angle_rad", "offset", "release", "seed"}``."""

    seat: str
    speed: float
    angle: float = 0.0
    offset: float = 0.0
    release: float | None = None
    pawn: str | None = None
    seed: int | None = None

    @classmethod
    def from_degrees(cls, seat: str, speed: float, angle_deg: float = 0.0, **kw: Any) -> Shot:
        return cls(seat, speed, math.radians(angle_deg), **kw)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "pawn": self.pawn,
            "speed": self.speed,
            "angle_rad": self.angle,
            "offset": self.offset,
            "release": self.release,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> Shot:
        """From :meth:`to_json`, as a game log keeps it: the pawn is named."""
        if not isinstance(data, dict):
            raise UserError("the slide must be an object")
        seat, pawn = data.get("seat"), data.get("pawn")
        if not isinstance(seat, str) or not isinstance(pawn, str) or pawn_seat(pawn) != seat:
            raise UserError(f"the slide's pawn {pawn!r} is not one of seat {seat!r}'s")
        release = data.get("release")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise UserError(f"the slide's seed must be a whole number >= 0, not {seed!r}")
        shot = cls(
            seat,
            _number(data.get("speed"), "speed"),
            _number(data.get("angle_rad", 0.0), "angle_rad"),
            _number(data.get("offset", 0.0), "offset"),
            None if release is None else _number(release, "release"),
            pawn,
            seed,
        )
        if shot.speed < 0:
            raise UserError(f"the slide's speed must be >= 0, not {shot.speed}")
        return shot


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UserError(f"the slide's {name} must be a number, not {value!r}")
    return float(value)

"""Layouts: the target board, tracks, rails and seats placed in world coordinates.

World frame: origin at the centre of the target board, +x east, +y north, metres. Tracks are
axis-aligned rectangles; each has a near (player's) end and a mouth where it hooks onto a board edge
or onto another track. Rails are static walls with thickness: two side rails along every track, and
blocker rails closing board edges that have no track or laid across a lane as a foul line. A seat
shoots from a lane (one track, or several hooked end to end) and releases behind its foul line.

Layouts are built from layout files (see :mod:`sliders.files.layouts`); the built-in ones ship
with the package under ``sliders/boards/layouts/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from sliders.boards.faces import BOARD_SIDE, DEFAULT_FACE
from sliders.core.errors import UserError

TRACK_LENGTH = 0.38
TRACK_WIDTH = 0.11
FOUL_DISTANCE = 0.16
RAIL_THICKNESS = 0.006
FOUL_REACH = 0.025
"""Where a blocker rail across a lane is the foul line, a pawn is released in front of it: its
centre at most this far beyond the rail's board-side face (one pawn diameter)."""

Vec = tuple[float, float]

if TYPE_CHECKING:  # for types only: boards compute with plain numbers
    import numpy as np

Coord = TypeVar("Coord", float, "np.ndarray")
"""a coordinate: a number, or a numpy array of many (the lane frame converts either)"""

# compass direction -> unit vector; a track on a board edge faces away from that edge's name
DIRECTIONS: dict[str, tuple[int, int]] = {
    "north": (0, 1),
    "east": (1, 0),
    "south": (0, -1),
    "west": (-1, 0),
}
EPS = 1e-9
"""m: lengths closer than this are equal when pieces are placed and edges measured"""


def inward(edge: str) -> tuple[int, int]:
    """The direction of a track hooked onto ``edge``: into the board."""
    x, y = DIRECTIONS[edge]
    return (-x, -y)


# the direction a seat faces when it looks at the board: south looks north, and so on
SEAT_FORWARD: dict[str, tuple[int, int]] = {
    "south": (0, 1),
    "west": (1, 0),
    "north": (0, -1),
    "east": (-1, 0),
}


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle of table surface."""

    xmin: float
    ymin: float
    xmax: float
    ymax: float

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        return (
            self.xmin - margin <= x <= self.xmax + margin
            and self.ymin - margin <= y <= self.ymax + margin
        )

    def distance(self, x: float, y: float) -> float:
        """Euclidean distance from (x, y) to the rectangle (0 inside)."""
        dx = max(self.xmin - x, 0.0, x - self.xmax)
        dy = max(self.ymin - y, 0.0, y - self.ymax)
        return float((dx * dx + dy * dy) ** 0.5)


@dataclass(frozen=True, slots=True)
class Track:
    """A lane piece: ``forward`` is the unit axis vector from the near end to the mouth."""

    name: str
    mouth: Vec
    forward: tuple[int, int]
    length: float = TRACK_LENGTH
    width: float = TRACK_WIDTH

    @property
    def near(self) -> Vec:
        return (
            self.mouth[0] - self.forward[0] * self.length,
            self.mouth[1] - self.forward[1] * self.length,
        )

    @property
    def right(self) -> tuple[int, int]:
        """The shooter's right when facing ``forward``."""
        return (self.forward[1], -self.forward[0])

    @property
    def rect(self) -> Rect:
        (x0, y0), (x1, y1) = self.near, self.mouth
        hw = self.width / 2
        if self.forward[0] == 0:
            return Rect(x0 - hw, min(y0, y1), x0 + hw, max(y0, y1))
        return Rect(min(x0, x1), y0 - hw, max(x0, x1), y0 + hw)

    def side_rails(self, thickness: float = RAIL_THICKNESS) -> tuple[Rail, Rail]:
        off = self.width / 2 + thickness / 2
        rx, ry = self.right
        (nx, ny), (mx, my) = self.near, self.mouth
        return (
            Rail((nx + rx * off, ny + ry * off), (mx + rx * off, my + ry * off), thickness, "side"),
            Rail((nx - rx * off, ny - ry * off), (mx - rx * off, my - ry * off), thickness, "side"),
        )


@dataclass(frozen=True, slots=True)
class Rail:
    """A static wall: the centre line from ``a`` to ``b`` and its thickness."""

    a: Vec
    b: Vec
    thickness: float = RAIL_THICKNESS
    kind: str = "side"  # "side" or "blocker"


@dataclass(frozen=True, slots=True)
class Seat:
    """Where a player shoots from.

    ``near`` is the centre of the lane's near end and ``forward`` the direction of play; release
    distances are measured from ``near`` along ``forward``, offsets toward the shooter's right.
    A release is legal between ``release_min`` and ``foul`` (the foul line); beyond it is a foul.
    ``tracks`` are the seat's own tracks (a shared lane is every seat's own).
    """

    name: str
    tracks: tuple[str, ...]
    near: Vec
    forward: tuple[int, int]
    width: float = TRACK_WIDTH
    foul: float = FOUL_DISTANCE
    release_min: float = 0.0

    @property
    def right(self) -> tuple[int, int]:
        return (self.forward[1], -self.forward[0])

    def to_world(self, along: Coord, across: Coord) -> tuple[Coord, Coord]:
        """The world point ``along`` metres down the lane and ``across`` to the shooter's right
        (numbers, or numpy arrays of many points)."""
        (fx, fy), (rx, ry) = self.forward, self.right
        return (self.near[0] + fx * along + rx * across, self.near[1] + fy * along + ry * across)

    def from_world(self, x: Coord, y: Coord) -> tuple[Coord, Coord]:
        """(along, across) of the world point (x, y) in the lane's frame: metres down the lane
        from its near end and to the shooter's right; the inverse of :meth:`to_world`."""
        return self.vector_from_world(x - self.near[0], y - self.near[1])

    def vector_to_world(self, along: Coord, across: Coord) -> tuple[Coord, Coord]:
        """The world vector (a velocity, a direction) of one ``along`` the lane and ``across``
        it to the shooter's right: :meth:`to_world` without the lane's origin."""
        (fx, fy), (rx, ry) = self.forward, self.right
        return (fx * along + rx * across, fy * along + ry * across)

    def vector_from_world(self, x: Coord, y: Coord) -> tuple[Coord, Coord]:
        """(along, across) of the world vector (x, y): the inverse of :meth:`vector_to_world`."""
        (fx, fy), (rx, ry) = self.forward, self.right
        return (x * fx + y * fy, x * rx + y * ry)

    def foul_line(self) -> tuple[Vec, Vec]:
        hw = self.width / 2
        return self.to_world(self.foul, -hw), self.to_world(self.foul, hw)


@dataclass(frozen=True)
class Layout:
    """Every piece on the table and where each seat shoots from, seats in turn order."""

    name: str
    tracks: tuple[Track, ...]
    rails: tuple[Rail, ...]
    seats: tuple[Seat, ...]
    board_side: float = BOARD_SIDE
    description: str = ""
    face: str = DEFAULT_FACE
    """the face the layout is played with unless another is asked for"""
    seat_counts: tuple[int, ...] = ()
    """how many seats the layout can take"""
    source: str = ""
    """where the layout came from: ``built-in`` or the layout file's path"""
    _surface: tuple[Rect, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        h = self.board_side / 2
        rects = (Rect(-h, -h, h, h), *(t.rect for t in self.tracks))
        object.__setattr__(self, "_surface", rects)

    @property
    def board_rect(self) -> Rect:
        return self._surface[0]

    @property
    def surface(self) -> tuple[Rect, ...]:
        """The table surface: the board first, then one rectangle per track."""
        return self._surface

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise UserError(
            f"layout {self.name!r} has no seat {name!r} (seats: {', '.join(self.seat_names)})"
        )

    def track(self, name: str) -> Track:
        for t in self.tracks:
            if t.name == name:
                return t
        raise KeyError(name)

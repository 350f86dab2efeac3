"""The four faces of the two target boards: one record per game, as frozen data.

A face is the printed side of a target board, and each face is one game. Its :class:`Face`
record holds everything the face means, for the physics and for the rules alike: its scoring
rings, the SORRY! corners, and, on some faces, the centre hole and what it does
(:class:`HoleRule`), what a pawn over the hole's edge scores, the 4/5/6 circle and the danger
dots. No other module compares a face's name: they read the record. Lengths are metres, with
the origin at the centre of the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from sliders.core.errors import UserError
from sliders.core.outcome import FACES as _FACE_NAMES
from sliders.core.outcome import Status

BOARD_SIDE = 0.26
SORRY_RADIUS = 0.05
HOLE_RADIUS = 0.015
CHOICE_RADIUS = 0.045
CHOICES_456 = (4, 5, 6)
DOT_RADIUS = 0.008

# (radius, points), innermost first; the rest of the board scores BASE_POINTS
RACE_RINGS: tuple[tuple[float, int], ...] = ((0.020, 5), (0.045, 4), (0.070, 3), (0.095, 2))
BASE_POINTS = 1
TIPPING_POINTS = 1


class HoleRule(StrEnum):
    """What the centre hole does to a roller pawn that drops into it ("completely in")."""

    NONE = "none"  # the face has no hole
    HOME = "home"  # Instant Home: one of the owner's scoring pawns jumps HOME at once
    PENALTY = "penalty"  # Instant Sorry!: the owner's highest non-HOME scoring pawn to START


def worth(choices: tuple[int, ...]) -> int:
    """What a pawn offering ``choices`` is worth as it stands: the best of them.

    A pawn with a choice of points (the 4/5/6 circle, the hole's edge on Instant Sorry!) lets
    its player pick one when the round is scored, and the rules offer every choice; this single
    value is what :attr:`~sliders.core.outcome.PawnRest.points` carries, for the physics, the
    scorekeeper and the studies' tables alike.
    """
    return max(choices)


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    radius: float = DOT_RADIUS


@dataclass(frozen=True, slots=True)
class Face:
    """One printed side of a target board, and the game played on it.

    ``name`` is the face's word on the command line and in files, ``title`` how a player says it.
    ``rings`` are concentric circles (radius, points), innermost first; a pawn scores the highest
    ring its footprint touches, so a pawn on a line scores the higher ring. The rest of the board
    scores ``base_points``; a pawn tipping between its track and the board ``tipping_points``.
    ``choice_radius`` is the 4/5/6 circle of Instant Sorry!: a pawn touching it scores a choice
    of ``choice_points``. ``hole_radius`` is the centre hole (0: none); ``hole`` what it does to
    a pawn that drops in; ``hole_edge_points`` what a pawn resting over its edge scores at round
    end (one value, or a choice). ``dots`` are printed dots; when ``dots_remove`` they are
    danger dots: a pawn resting on one leaves play and scores nothing.
    """

    name: str
    title: str
    side: float = BOARD_SIDE
    rings: tuple[tuple[float, int], ...] = RACE_RINGS
    base_points: int = BASE_POINTS
    tipping_points: int = TIPPING_POINTS
    sorry_radius: float = SORRY_RADIUS
    hole_radius: float = 0.0
    hole: HoleRule = HoleRule.NONE
    hole_edge_points: tuple[int, ...] = ()
    choice_radius: float = 0.0
    choice_points: tuple[int, ...] = ()
    dots: tuple[Dot, ...] = ()
    dots_remove: bool = False

    def __post_init__(self) -> None:
        if (self.hole_radius > 0) != (self.hole is not HoleRule.NONE):
            raise ValueError(f"face {self.name}: a hole needs both a radius and a rule")
        if bool(self.hole_edge_points) != self.has_hole:
            raise ValueError(f"face {self.name}: only a face with a hole scores its edge")
        if bool(self.choice_points) != (self.choice_radius > 0):
            raise ValueError(f"face {self.name}: a choice circle needs a radius and its points")
        if self.dots_remove and not self.dots:
            raise ValueError(f"face {self.name}: danger dots need dots")
        if min(self.points_offered) < 1:
            raise ValueError(f"face {self.name}: every zone scores at least 1")

    @property
    def half(self) -> float:
        return self.side / 2

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """The four board corners, each the centre of a SORRY! quarter disc."""
        h = self.half
        return ((h, h), (-h, h), (-h, -h), (h, -h))

    @property
    def has_hole(self) -> bool:
        return self.hole is not HoleRule.NONE

    @property
    def points_offered(self) -> frozenset[int]:
        """Every score a roller pawn can make on this face (0 aside)."""
        return frozenset(
            (
                *(p for _, p in self.rings),
                self.base_points,
                self.tipping_points,
                *self.choice_points,
                *self.hole_edge_points,
            )
        )

    @property
    def top_points(self) -> int:
        """The most one roller pawn can score on this face."""
        return max(self.points_offered)

    def scores(self, status: Status) -> tuple[int, ...]:
        """What a roller pawn at rest with ``status`` scores at round end, one value or a choice,
        for every status but ``on_target`` (what that scores depends on where the pawn stands:
        :func:`sliders.boards.geometry.zone_points`). Removed pawns and pawns on their own track
        score 0."""
        if status is Status.ON_TARGET:
            raise ValueError("an on-target pawn scores the zone it touches")
        if status is Status.TIPPING:
            return (self.tipping_points,)
        if status is Status.HOLE_EDGE and self.has_hole:
            return self.hole_edge_points
        return (0,)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "title": self.title,
            "side": self.side,
            "rings": [{"radius": r, "points": p} for r, p in self.rings],
            "base_points": self.base_points,
            "tipping_points": self.tipping_points,
            "sorry_radius": self.sorry_radius,
            "hole_radius": self.hole_radius,
            "hole": str(self.hole),
            "hole_edge_points": list(self.hole_edge_points),
            "choice_radius": self.choice_radius,
            "choice_points": list(self.choice_points),
            "dots": [{"x": d.x, "y": d.y, "radius": d.radius} for d in self.dots],
            "dots_remove": self.dots_remove,
        }


def _danger_dots() -> tuple[Dot, ...]:
    """Eight dots with the board's four-fold symmetry.

    Four sit on the axes in the 4 ring (radius 0.0325 m), right in the path of a straight shot at
    the bull's-eye; four sit on the diagonals in the 2 ring (radius 0.0825 m), where pawns
    knocked sideways come to rest.
    """
    dots = []
    for k in range(4):
        a = k * math.pi / 2
        dots.append(Dot(round(0.0325 * math.cos(a), 12), round(0.0325 * math.sin(a), 12)))
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        dots.append(Dot(round(0.0825 * math.cos(a), 12), round(0.0825 * math.sin(a), 12)))
    return tuple(dots)


RACE_FOR_HOME = Face("race-for-home", "Race for Home")
INSTANT_HOME = Face(
    "instant-home",
    "Instant Home",
    hole_radius=HOLE_RADIUS,
    hole=HoleRule.HOME,
    hole_edge_points=(4,),
)
INSTANT_SORRY = Face(
    "instant-sorry",
    "Instant Sorry!",
    rings=tuple((r, p) for r, p in RACE_RINGS if r > CHOICE_RADIUS),
    hole_radius=HOLE_RADIUS,
    hole=HoleRule.PENALTY,
    hole_edge_points=CHOICES_456,
    choice_radius=CHOICE_RADIUS,
    choice_points=CHOICES_456,
)
DANGER_DOTS = Face("danger-dots", "Danger Dots", dots=_danger_dots(), dots_remove=True)

BUILTIN_FACES: dict[str, Face] = {
    f.name: f for f in (RACE_FOR_HOME, INSTANT_HOME, INSTANT_SORRY, DANGER_DOTS)
}
FACES: tuple[str, ...] = tuple(BUILTIN_FACES)
"""The faces' names, in the order the rulebook tells the games."""
assert FACES == _FACE_NAMES

DEFAULT_FACE = RACE_FOR_HOME.name
"""The game played when none is named: the rulebook's Game 1."""


def face(name: str | Face) -> Face:
    """The built-in face called ``name`` (a face record is returned as it is)."""
    if isinstance(name, Face):
        return name
    try:
        return BUILTIN_FACES[name]
    except KeyError:
        raise UserError(f"unknown face {name!r} (choose from {', '.join(FACES)})") from None

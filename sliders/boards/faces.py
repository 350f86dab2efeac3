"""The four faces of the two target boards, as frozen data.

A face is the printed side of a target board: its scoring rings, the SORRY! corners, and, on some
faces, the centre hole, the 4/5/6 circle or the danger dots. Lengths are metres, with the origin at
the centre of the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sliders.errors import UserError
from sliders.outcome import FACES

BOARD_SIDE = 0.26
SORRY_RADIUS = 0.05
HOLE_RADIUS = 0.015
CHOICE_RADIUS = 0.045
CHOICES_456 = (4, 5, 6)
DOT_RADIUS = 0.008

# (radius, points), innermost first; the rest of the board scores BASE_POINTS
RACE_RINGS: tuple[tuple[float, int], ...] = ((0.020, 5), (0.045, 4), (0.070, 3), (0.095, 2))
BASE_POINTS = 1


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    radius: float = DOT_RADIUS


@dataclass(frozen=True, slots=True)
class Face:
    """One printed side of a target board.

    ``rings`` are concentric circles (radius, points), innermost first; a pawn scores the highest
    ring its footprint touches, so a pawn on a line scores the higher ring. The rest of the board
    scores ``base_points``. ``choice_radius`` is the 4/5/6 circle of Instant Sorry!: a pawn touching
    it scores a choice of ``choice_points``. ``hole_radius`` is the centre hole (0: none).
    ``hole_edge_choices`` is what a pawn resting over the hole's edge scores at round end.
    """

    name: str
    side: float = BOARD_SIDE
    rings: tuple[tuple[float, int], ...] = RACE_RINGS
    base_points: int = BASE_POINTS
    sorry_radius: float = SORRY_RADIUS
    hole_radius: float = 0.0
    choice_radius: float = 0.0
    choice_points: tuple[int, ...] = ()
    hole_edge_choices: tuple[int, ...] = ()
    dots: tuple[Dot, ...] = ()
    title: str = ""
    """the game's name as people say it, e.g. "Race for Home" (empty: ``name``)"""

    @property
    def half(self) -> float:
        return self.side / 2

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """The four board corners, each the centre of a SORRY! quarter disc."""
        h = self.half
        return ((h, h), (-h, h), (-h, -h), (h, -h))

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "side": self.side,
            "rings": [{"radius": r, "points": p} for r, p in self.rings],
            "base_points": self.base_points,
            "sorry_radius": self.sorry_radius,
            "hole_radius": self.hole_radius,
            "choice_radius": self.choice_radius,
            "choice_points": list(self.choice_points),
            "hole_edge_choices": list(self.hole_edge_choices),
            "dots": [{"x": d.x, "y": d.y, "radius": d.radius} for d in self.dots],
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


RACE_FOR_HOME = Face("race-for-home", title="Race for Home")
INSTANT_HOME = Face(
    "instant-home", hole_radius=HOLE_RADIUS, hole_edge_choices=(4,), title="Instant Home"
)
INSTANT_SORRY = Face(
    "instant-sorry",
    title="Instant Sorry!",
    rings=tuple((r, p) for r, p in RACE_RINGS if r > CHOICE_RADIUS),
    hole_radius=HOLE_RADIUS,
    choice_radius=CHOICE_RADIUS,
    choice_points=CHOICES_456,
    hole_edge_choices=CHOICES_456,
)
DANGER_DOTS = Face("danger-dots", dots=_danger_dots(), title="Danger Dots")

BUILTIN_FACES: dict[str, Face] = {
    f.name: f for f in (RACE_FOR_HOME, INSTANT_HOME, INSTANT_SORRY, DANGER_DOTS)
}
assert tuple(BUILTIN_FACES) == FACES


def face(name: str) -> Face:
    """The built-in face called ``name``."""
    try:
        return BUILTIN_FACES[name]
    except KeyError:
        raise UserError(f"unknown face {name!r} (choose from {', '.join(FACES)})") from None

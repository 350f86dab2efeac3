"""Drills: a ladder of short challenges on every face, each a scene (the scene file format
``sliders shot --scene`` reads) and a rule that scores a try 0..3, with the best scores kept.

The challenges (south slides, on the square; north's pawns are the targets):

- ``centre``: stop in the centre ring: 3 resting in play where the face scores most (the 5 ring;
  on Instant Sorry!, the 4/5/6 circle), 2 where it scores one less, 1 anywhere else on the
  target;
- ``pass``: pass between two pawns a pawn's width apart and more, in front of the centre: 3
  resting on the target beyond them with neither moved (1 mm), 1 short of them untouched;
- ``takeout``: knock the pawn standing on the centre off the target: 3 when it leaves play and
  yours stays, 2 when both leave, 1 when it moves 3 cm or more;
- ``corner``: send the pawn standing near the north-east SORRY! corner into it: 3 in the
  corner, 1 when it leaves play another way;
- ``hole`` (Instant Home, where the hole sends a pawn HOME): drop into the hole: 3 in the hole,
  1 on its edge.

Every challenge is played on every face where it means something (the hole only on Instant
Home): :data:`LADDER`, easiest first. A drill is :data:`TRIES` tries; its score is their sum (0..
15). The best score of each drill is kept in ``drills.json`` in the user's data directory
(:func:`sliders.game.hand.data_dir`), written whole or not at all.

A ``centre`` or ``hole`` try has a known target (the spot the computer aims at for that value),
so it is also an **attempt** for the hand fit (:mod:`sliders.game.hand`): :func:`attempt` gives
the shot that sends the pawn there without noise from the release and offset the person chose,
beside the shot they slid.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sliders.ai.aims import HOLE, aim_at, target_spots
from sliders.boards import Face
from sliders.boards import face as face_named
from sliders.boards.faces import HoleRule
from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_json_atomic
from sliders.core.outcome import FACES, Shot, ShotResult, Status
from sliders.files.layouts import load_layout
from sliders.files.scenes import Scene, ScenePawn
from sliders.game.hand import data_dir
from sliders.physics import PhysicsParams

TRIES = 5
"""tries a drill"""
MAX_TRY = 3
"""the most a try scores"""
SHOOTER = "south"
SEATS = ("south", "north")
LAYOUT = "square"
KINDS = ("centre", "pass", "takeout", "corner", "hole")
"""the challenges, easiest first"""
MOVED = 0.001
"""a pawn displaced more than this (m) has been touched"""
SHIFTED = 0.03
"""a takeout's target moved at least this far (m) scores 1"""
BEST_FILE = "drills.json"


@dataclass(frozen=True, slots=True)
class Drill:
    """One challenge on one face: its ``scene`` (the table before each try)."""

    kind: str
    face: str
    scene: Scene

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.face}"

    @property
    def title(self) -> str:
        return {
            "centre": "stop in the centre ring",
            "pass": "pass between two pawns",
            "takeout": "a takeout",
            "corner": "a pawn into a SORRY! corner",
            "hole": "the hole",
        }[self.kind]


def _centre_spot(face: Face) -> tuple[float, float]:
    """Where a target pawn stands for a takeout: the centre, or beside the hole."""
    if face.has_hole:
        return 0.0, face.hole_radius + 0.02
    return 0.0, 0.0


def _pawns(kind: str, face: Face, radius: float) -> tuple[ScenePawn, ...]:
    if kind == "pass":
        gap = 2 * radius + 0.012  # a pawn's width and 6 mm each side
        half = gap / 2 + radius
        return (ScenePawn("north-1", -half, -0.06), ScenePawn("north-2", half, -0.06))
    if kind == "takeout":
        return (ScenePawn("north-1", *_centre_spot(face)),)
    if kind == "corner":
        cx, cy = face.corners[0]
        d = face.sorry_radius + 0.012 + radius  # just outside the corner's quarter disc
        return (ScenePawn("north-1", cx - d / math.sqrt(2), cy - d / math.sqrt(2)),)
    return ()


def make_ladder(params: PhysicsParams | None = None) -> tuple[Drill, ...]:
    """Every challenge on every face where it means something, easiest first."""
    p = params or PhysicsParams.default()
    out = []
    for kind in KINDS:
        for name in FACES:
            face = face_named(name)
            if kind == "hole" and face.hole is not HoleRule.HOME:
                continue
            pawns = _pawns(kind, face, p.pawn_radius)
            out.append(Drill(kind, name, Scene(LAYOUT, SEATS, name, pawns)))
    return tuple(out)


LADDER = make_ladder()


def drill(name: str) -> Drill:
    for d in LADDER:
        if d.name == name:
            return d
    raise UserError(f"unknown drill {name!r} (e.g. {LADDER[0].name}; sliders drills lists them)")


def top_points(face: Face) -> int:
    """The most a pawn at rest scores on ``face`` (the 4/5/6 circle's best on Instant Sorry!)."""
    return max([points for _, points in face.rings] + list(face.choice_points))


def score_try(d: Drill, result: ShotResult) -> int:
    """A try's score, 0..3 (see the module), from the shot's result."""
    face = face_named(d.face)
    me = next(q for q in result.pawns if q.id == result.shooter)
    placed = {q.id: q for q in d.scene.pawns}
    after = {q.id: q for q in result.pawns if q.id in placed}

    def moved(pid: str) -> float:
        a, b = placed[pid], after[pid]
        if not b.status.in_play:
            return math.inf
        return math.hypot(a.x - b.x, a.y - b.y)

    if d.kind == "centre":
        if not me.status.in_play:
            return 0
        top = top_points(face)
        if me.status is not Status.ON_TARGET and me.points < top - 1:
            return 0
        return 3 if me.points >= top else 2 if me.points >= top - 1 else 1
    if d.kind == "pass":
        if any(moved(pid) > MOVED for pid in placed):
            return 0
        line = max(q.y for q in d.scene.pawns)
        if me.status is Status.ON_TARGET and me.y > line:
            return 3
        return 1 if me.status.in_play else 0
    if d.kind == "takeout":
        target = after["north-1"]
        if not target.status.in_play:
            return 3 if me.status.in_play else 2
        return 1 if moved("north-1") >= SHIFTED else 0
    if d.kind == "corner":
        target = after["north-1"]
        if target.status is Status.SORRY_CORNER:
            return 3
        return 1 if not target.status.in_play else 0
    if d.kind == "hole":
        return 3 if me.status is Status.IN_HOLE else 1 if me.status is Status.HOLE_EDGE else 0
    raise AssertionError(d.kind)


def target(d: Drill, params: PhysicsParams | None = None) -> tuple[float, float] | None:
    """The spot a ``centre`` or ``hole`` try aims at (the computer's best spot of that value),
    None for the other challenges."""
    if d.kind not in ("centre", "hole"):
        return None
    p = params or PhysicsParams.default()
    face = face_named(d.face)
    layout = load_layout(LAYOUT, SEATS)
    spots = target_spots(layout, face, SHOOTER, p)
    key: int | str = HOLE if d.kind == "hole" else top_points(face)
    spot = spots[key][0]
    return spot.x, spot.y


def attempt(
    d: Drill, slid: Shot, params: PhysicsParams | None = None
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """For the hand fit: ((speed, angle°) intended, (speed, angle°) slid) of a try, the intended
    shot being the one that stops the pawn on the drill's target from the slid shot's release and
    offset; None when the drill has no target or it cannot be aimed at from there."""
    spot = target(d, params)
    if spot is None:
        return None
    p = params or PhysicsParams.default()
    seat = load_layout(LAYOUT, SEATS).seat(SHOOTER)
    release = seat.foul if slid.release is None else slid.release
    aim = aim_at(seat, p, release, slid.offset, *spot)
    if aim is None:
        return None
    return (aim[0], math.degrees(aim[1])), (slid.speed, math.degrees(slid.angle))


def score_drill(d: Drill, results: Sequence[ShotResult]) -> int:
    """A drill's score: the sum of its tries' (at most :data:`TRIES` counted)."""
    return sum(score_try(d, r) for r in list(results)[:TRIES])


def best_path() -> Path:
    return data_dir() / BEST_FILE


def best_scores(path: str | os.PathLike[str] | None = None) -> dict[str, int]:
    """Each drill's best score kept so far (none: an empty table)."""
    target_path = Path(path) if path is not None else best_path()
    if not target_path.exists():
        return {}
    data = read_json(target_path, "drill scores")
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and 0 <= v <= TRIES * MAX_TRY
        for k, v in data.get("best", {}).items()
    ):
        raise UserError(f"{target_path}: not a drill scores file sliders wrote")
    return dict(data.get("best", {}))


def record_score(
    name: str, score: int, path: str | os.PathLike[str] | None = None
) -> tuple[int, bool]:
    """Keep ``score`` for drill ``name`` if it beats the best: (the best now, whether it is
    new)."""
    drill(name)
    target_path = Path(path) if path is not None else best_path()
    best = best_scores(target_path)
    new = score > best.get(name, -1)
    if new:
        best[name] = score
        target_path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(target_path, {"kind": "sorry-sliders-drills", "best": best})
    return best[name], new

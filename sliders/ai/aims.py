"""Where to aim for each score, and how often a hand gets what it aims for.

A **spot** is a point of the table where a pawn coming to rest scores a given value (a ring, the
rest of the board, tipping over the edge of its own track, the hole's edge) with the widest
margin: the farther a spot is from every point that scores something else, the more of a hand's
error it forgives. :func:`target_spots` finds, for every value a face offers (and the hole, on a
face whose hole sends a pawn HOME), a few such spots reachable by a straight slide from a seat's
lane, ranked by margin.

**Shot odds** (:func:`shot_odds`) are what a hand gets when it aims at the best spot of each
value on an empty table: the share of penalties, of nothing (the pawn left play without a
penalty, or stopped on its own track), of each score, and of a drop into the hole. They are
measured, not assumed: a few hundred shots per aim under the hand's execution noise in the exact
engine's batch path (seeded, so every process measures the same odds), and cached per layout,
face, seat, hand and physics parameters. They are the per-shot points distributions of the race
model (:mod:`sliders.ai.race`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from sliders.boards import Face, HoleRule, Layout, Seat
from sliders.core.outcome import STATUSES, Status
from sliders.physics import Noise, PhysicsParams, Setup, Shots, simulate_many
from sliders.rules import penalised

HOLE = "hole"
"""the aim of a drop into the hole (on a face whose hole sends a pawn HOME)"""
PENALTY = "penalty"
"""an outcome: the pawn left play with a penalty (a SORRY! corner, off the board, ...)"""
JUMP = "home"
"""an outcome: the pawn dropped into the hole and sends a scoring pawn HOME at once"""
NOTHING: tuple[int, ...] = ()
"""an outcome: the pawn scores nothing (removed without penalty, or on its own track)"""

Outcome = str | tuple[int, ...]
"""PENALTY, JUMP, or the scores the pawn offers at round end (NOTHING: none)"""

GRID = 0.0025
"""step (m) of the grid the spots are searched on"""
SPOTS_PER_VALUE = 5
SPOT_SEPARATION = 0.02
"""spots of the same value are at least this far apart (m)"""
MAX_AIM = math.radians(40)
"""spots aimed wider than this off the lane's axis are not offered"""
ODDS_SAMPLES = 200
"""shots per spot measuring a hand's odds"""
ODDS_SAMPLES_HOLE = 60
ODDS_SPOTS_HOLE = 2
"""the same on a face with a hole, fewer: there the exact engine can spend a tenth of a second
on a pawn left on the hole's edge, and the odds are measured before a first decision"""


@dataclass(frozen=True, slots=True)
class Spot:
    """A point worth ``value`` (points, or :data:`HOLE`) with ``margin`` metres to spare,
    reached by a straight slide released on the foul line at ``offset`` across the lane."""

    value: int | str
    x: float
    y: float
    margin: float
    offset: float = 0.0


@dataclass(frozen=True)
class ShotOdds:
    """``probs[i, j]``: the chance that a shot aimed at ``aims[i]`` ends as ``outcomes[j]``;
    ``spots[i]``, the spot of that value the hand hits most often."""

    aims: tuple[int | str, ...]
    outcomes: tuple[Outcome, ...]
    probs: np.ndarray
    spots: tuple[Spot, ...] = ()

    def of(self, aim: int | str) -> dict[Outcome, float]:
        row = self.probs[self.aims.index(aim)]
        return {o: float(p) for o, p in zip(self.outcomes, row, strict=True) if p > 0}


def target_spots(
    layout: Layout, face: Face, seat: str, params: PhysicsParams
) -> dict[int | str, list[Spot]]:
    """The best spots of every value for ``seat`` under the physics ``params`` (the pawn's
    radius, the zones as the physics classifies a pawn at rest), widest margin first."""
    return _spots(layout, face, seat, params)


def shot_odds(
    layout: Layout, face: Face, seat: str, hand: Noise, params: PhysicsParams
) -> ShotOdds:
    """What ``hand`` gets aiming at the best spot of each value from ``seat`` (see the module)."""
    return _odds(layout, face, seat, hand, params)


def aim_at(
    seat: Seat,
    params: PhysicsParams,
    release: float,
    offset: float,
    x: float,
    y: float,
    mouth: float | None = None,
    beyond: float = 0.0,
) -> tuple[float, float] | None:
    """(speed, angle) of a slide released at (``release``, ``offset``) of ``seat``'s lane that
    stops ``beyond`` metres past the world point (x, y); None when that needs an aim wider than
    :data:`MAX_AIM`, or (given the lane's ``mouth``, see :func:`lane_mouth`) one that rides a
    side rail before it leaves the lane."""
    along, across = seat.from_world(x, y)
    da, dc = along - release, across - offset
    if da <= 0:
        return None
    angle = math.atan2(dc, da)
    if abs(angle) > MAX_AIM:
        return None
    if mouth is not None:
        reach = offset + math.tan(angle) * min(max(mouth - release, 0.0), da)
        if abs(reach) > seat.width / 2 - params.pawn_radius:
            return None
    speed = math.sqrt(2 * params.deceleration * (math.hypot(da, dc) + beyond))
    return min(speed, params.max_speed), angle


def lane_mouth(layout: Layout, seat: Seat) -> float:
    """How far down ``seat``'s lane (from its near end, along its axis) the board begins."""
    along = seat.foul
    for _ in range(2000):
        x, y = seat.to_world(along, 0.0)
        if layout.board_rect.contains(x, y):
            return along
        along += 0.001
    return along


def outcome_of(face: Face, status: Status, choices: tuple[int, ...]) -> Outcome:
    """The race model's outcome of a pawn at rest with ``status`` scoring ``choices``."""
    if status.removed:
        if penalised(face, status):
            return PENALTY
        if status is Status.IN_HOLE and face.hole is HoleRule.HOME:
            return JUMP
        return NOTHING
    if status is Status.ON_TARGET:
        return tuple(sorted(set(choices)))
    got = tuple(c for c in face.scores(status) if c > 0)
    return got


# -- inside -------------------------------------------------------------------------------------


@cache
def _spots(
    layout: Layout, face: Face, seat_name: str, params: PhysicsParams
) -> dict[int | str, list[Spot]]:
    seat = layout.seat(seat_name)
    r = params.pawn_radius
    h = face.half + 2 * r
    xs = np.arange(-h, h + GRID / 2, GRID)
    labels = _labels(layout, face, seat_name, xs, params)
    found: dict[int | str, list[Spot]] = {}
    release, mouth = seat.foul, lane_mouth(layout, seat)
    limit = seat.width / 2 - r
    offsets = (0.0, -0.6 * limit, 0.6 * limit)
    from scipy import ndimage  # a quarter second to import: only when a face's spots are found

    for value in sorted(set(labels.flat) - {0}):
        margin = ndimage.distance_transform_edt(labels == value) * GRID
        order = np.argsort(-margin, axis=None, kind="stable")
        picked: list[Spot] = []
        for flat in order[:4000]:
            i, j = np.unravel_index(flat, margin.shape)
            m = float(margin[i, j])
            if m <= GRID:
                break
            x, y = float(xs[i]), float(xs[j])
            if any(math.hypot(x - s.x, y - s.y) < SPOT_SEPARATION for s in picked):
                continue
            offset = next(
                (o for o in offsets if aim_at(seat, params, release, o, x, y, mouth) is not None),
                None,
            )
            if offset is None:
                continue
            picked.append(Spot(int(value), x, y, m, offset))
            if len(picked) == SPOTS_PER_VALUE:
                break
        if picked:
            found[int(value)] = picked
    if face.hole is HoleRule.HOME:
        found[HOLE] = [Spot(HOLE, 0.0, 0.0, max(face.hole_radius - r, 0.0))]
    return found


def _labels(
    layout: Layout, face: Face, seat_name: str, xs: np.ndarray, params: PhysicsParams
) -> np.ndarray:
    """The most a pawn of ``seat_name`` at rest at each point of the grid ``xs`` × ``xs`` scores
    (0: nothing, or its own track), as :func:`sliders.boards.geometry.classify` says, in compiled
    code."""
    from sliders.physics.exact.batch import classify_points

    grid_x, grid_y = np.meshgrid(xs, xs, indexing="ij")
    status, points = classify_points(layout, face, seat_name, grid_x, grid_y, params)
    scores = np.array([s.in_play and s is not Status.OWN_TRACK for s in STATUSES])
    return np.where(scores[status], points, 0).astype(np.int64)


@cache
def _odds(
    layout: Layout, face: Face, seat_name: str, hand: Noise, params: PhysicsParams
) -> ShotOdds:
    seat = layout.seat(seat_name)
    setup = Setup(layout, face, params, "exact")
    spots = _spots(layout, face, seat_name, params)
    aims = tuple(spots)
    rng = np.random.default_rng(20261130)
    n = 1 if hand.is_zero else ODDS_SAMPLES_HOLE if face.has_hole else ODDS_SAMPLES
    per_value = ODDS_SPOTS_HOLE if face.has_hole else SPOTS_PER_VALUE
    counts: list[dict[Outcome, int]] = []
    best_spots: list[Spot] = []
    limit = seat.width / 2 - params.pawn_radius
    e = hand.draw(rng, n)  # the same hands for every spot: their odds compare fairly
    seeds = rng.integers(2**63, size=n)
    for aim in aims:
        best: tuple[int, dict[Outcome, int], Spot] | None = None
        for spot in spots[aim][:per_value]:
            got = aim_at(seat, params, seat.foul, spot.offset, spot.x, spot.y)
            assert got is not None
            speed, angle = got
            many = Shots(
                seat_name,
                np.clip(speed * (1 + e[:, 0]), 1e-3, params.max_speed),
                np.clip(angle + e[:, 1], -1.5, 1.5),
                np.clip(spot.offset + e[:, 2], -limit, limit),
                None,
                seeds,
                refuse=False,
            )
            res = simulate_many(setup, (), many)
            tally: dict[Outcome, int] = {}
            for status_code, points in zip(res.status[:, 0], res.points[:, 0], strict=True):
                status = STATUSES[int(status_code)]
                o = outcome_of(face, status, choices_of(face, status, int(points)))
                tally[o] = tally.get(o, 0) + 1
            hits = sum(k for o, k in tally.items() if _hits(o, aim))
            if best is None or hits > best[0]:
                best = (hits, tally, spot)
        assert best is not None
        counts.append(best[1])
        best_spots.append(best[2])
    outcomes = tuple(sorted({o for t in counts for o in t}, key=_order))
    probs = np.array([[t.get(o, 0) / n for o in outcomes] for t in counts])
    return ShotOdds(aims, outcomes, probs, tuple(best_spots))


def _hits(o: Outcome, aim: int | str) -> bool:
    """Whether outcome ``o`` is what aiming at ``aim`` wants."""
    if aim == HOLE:
        return o == JUMP
    return isinstance(o, tuple) and aim in o


def choices_of(face: Face, status: Status, points: int) -> tuple[int, ...]:
    """The scores a pawn at rest offers, from its status and the points the physics gave it (a
    pawn on the 4/5/6 circle, worth the circle's best, offers every choice)."""
    if status is not Status.ON_TARGET:
        return face.scores(status) if status.in_play else (0,)
    rings = {p for _, p in face.rings} | {face.base_points}
    if face.choice_points and points == max(face.choice_points) and points not in rings:
        return face.choice_points
    return (points,)


def _order(o: Outcome) -> tuple[int, tuple[int, ...]]:
    if o == PENALTY:
        return (0, ())
    if o == JUMP:
        return (2, ())
    assert isinstance(o, tuple)
    return (1, o)

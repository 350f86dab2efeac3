"""The pymunk engine's world: the Chipmunk pieces of one layout and face (static rails, the sensors
for the table's edge and the hole, fresh pawn bodies with their friction joints), kept per thread
and reused shot after shot, and the step function. The simulation that runs a shot in it is
:mod:`sliders.physics.pymunk_engine`.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pymunk

from sliders.boards import Face, Layout, outside_cells, segment_distance
from sliders.core.outcome import pawn_seat
from sliders.physics.params import PhysicsParams

# collision types
PAWN, RAIL, PROBE, OUTSIDE, HOLE = 1, 2, 3, 4, 5
# filter categories
_CAT_PAWN, _CAT_RAIL, _CAT_PROBE, _CAT_SENSOR = 1, 2, 4, 8
_FILTER_PAWN = pymunk.ShapeFilter(categories=_CAT_PAWN, mask=_CAT_PAWN | _CAT_RAIL)
_FILTER_RAIL = pymunk.ShapeFilter(categories=_CAT_RAIL, mask=_CAT_PAWN)
_FILTER_PROBE = pymunk.ShapeFilter(categories=_CAT_PROBE, mask=_CAT_SENSOR)
_FILTER_SENSOR = pymunk.ShapeFilter(categories=_CAT_SENSOR, mask=_CAT_PROBE)
_PROBE_RADIUS = 1e-7


@dataclass(frozen=True, slots=True)
class PawnBody:
    """A pawn's body and everything to take out of the space with it."""

    id: str
    seat: str
    body: pymunk.Body
    parts: tuple[Any, ...]  # everything to remove from the space with the body


class World:
    """The pymunk pieces of one layout and face: static rails and sensors built once and put into
    a fresh ``pymunk.Space`` for every shot, and fresh pawn bodies.

    A fresh space per shot keeps every shot independent of the ones before it (Chipmunk numbers
    shapes as they are added, and that numbering orders its contact lists), so the same shot
    gives bit-identical results whatever ran before it; reusing the shapes keeps it cheap.
    A world serves one shot at a time: use one per thread.
    """

    def __init__(self, layout: Layout, face: Face, params: PhysicsParams) -> None:
        check_params(params)
        self.params = p = params
        self.static = static = pymunk.Body(body_type=pymunk.Body.STATIC)
        # a contact's restitution and friction are the pair's, set by the shot's pre_solve
        # handlers every step (Chipmunk would multiply the two shapes' values)
        shapes: list[pymunk.Shape] = []
        for rail in layout.rails:
            seg = pymunk.Segment(static, rail.a, rail.b, rail.thickness / 2)
            seg.collision_type = RAIL
            seg.filter = _FILTER_RAIL
            shapes.append(seg)
        self.rails: tuple[pymunk.Segment, ...] = tuple(cast(list[pymunk.Segment], shapes))
        for c in outside_cells(layout):
            corners = [(c.xmin, c.ymin), (c.xmax, c.ymin), (c.xmax, c.ymax), (c.xmin, c.ymax)]
            shapes.append(_make_sensor(pymunk.Poly(static, corners), OUTSIDE))
        if face.hole_radius:
            shapes.append(_make_sensor(pymunk.Circle(static, face.hole_radius), HOLE))
        self.statics: tuple[Any, ...] = (static, *shapes)
        # what a coasting pawn's centre must keep clear of: segments and how near it may come
        r = p.pawn_radius
        walls = [(rail.a, rail.b, rail.thickness / 2 + r) for rail in layout.rails]
        self._cells = tuple(outside_cells(layout))
        if face.hole_radius:
            walls.append(((0.0, 0.0), (0.0, 0.0), face.hole_radius))
        self._walls = tuple(
            (c, d, reach, (min(c[0], d[0]), min(c[1], d[1]), max(c[0], d[0]), max(c[1], d[1])))
            for c, d, reach in walls
        )
        self._rail_a = np.array([rail.a for rail in layout.rails], dtype=float).reshape(-1, 2)
        self._rail_d = np.array([rail.b for rail in layout.rails], dtype=float).reshape(-1, 2)
        self._rail_d -= self._rail_a
        self._rail_len2 = np.maximum((self._rail_d**2).sum(axis=1), 1e-300)
        self._rail_reach = np.array([rail.thickness / 2 + r for rail in layout.rails])
        self._moment = pymunk.moment_for_circle(p.pawn_mass, 0, p.pawn_radius)
        self.roll_force = p.mu_roll * p.pawn_mass * p.g
        self._space: pymunk.Space | None = None

    @property
    def space(self) -> pymunk.Space | None:
        """The space of the shot using this world now, if any."""
        return self._space

    def new_space(self) -> pymunk.Space:
        """A fresh space holding the static pieces (and taking them from the last one)."""
        self.release()
        p = self.params
        space = pymunk.Space()
        space.iterations = p.iterations
        space.collision_slop = p.collision_slop
        h = p.pymunk_step
        space.sleep_time_threshold = 2 * h
        # overlaps are pushed out at a fixed share a step, whatever the step
        space.collision_bias = max((1 - PUSH_OUT) ** (1 / h), 1e-300)
        space.idle_speed_threshold = 1e-6
        space.add(*self.statics)
        self._space = space
        return space

    def release(self) -> None:
        """Take every piece out of the current space so the next shot can use them."""
        space, self._space = self._space, None
        if space is not None:
            space.remove(*space.bodies, *space.shapes, *space.constraints)

    def in_rails(self, where: np.ndarray, tolerance: float) -> np.ndarray:
        """For each pawn centre (rows of ``where``), whether its footprint overlaps a rail by
        more than ``tolerance``."""
        if not len(self._rail_a):
            return np.zeros(len(where), dtype=bool)
        rel = where[:, None, :] - self._rail_a[None, :, :]
        t = np.clip((rel * self._rail_d).sum(axis=2) / self._rail_len2, 0.0, 1.0)
        off = rel - t[:, :, None] * self._rail_d[None, :, :]
        dist = np.hypot(off[:, :, 0], off[:, :, 1])
        return np.asarray((dist < self._rail_reach - tolerance).any(axis=1))

    def edge_entry(self, a: tuple[float, float], b: tuple[float, float]) -> float | None:
        """The fraction of the way from ``a`` (on the table) to ``b`` at which a point first
        leaves the table's surface, or None if it stays on it."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        first: float | None = None
        for cell in self._cells:
            lo, hi = 0.0, 1.0  # Liang–Barsky clipping of the segment to the cell
            for delta, start, low, high in ((dx, a[0], cell.xmin, cell.xmax),
                                            (dy, a[1], cell.ymin, cell.ymax)):  # fmt: skip
                if delta == 0.0:
                    if not low <= start <= high:
                        lo, hi = 1.0, 0.0
                        break
                    continue
                t0, t1 = (low - start) / delta, (high - start) / delta
                if t0 > t1:
                    t0, t1 = t1, t0
                lo, hi = max(lo, t0), min(hi, t1)
                if lo > hi:
                    break
            if lo <= hi and (first is None or lo < first):
                first = lo
        return first

    def path_is_clear(
        self,
        a: tuple[float, float],
        b: tuple[float, float],
        pawns: dict[str, PawnBody],
        mover: str,
    ) -> bool:
        """True when a pawn's centre can go straight from ``a`` to ``b`` touching nothing: no
        rail, no other pawn, not the hole, with a margin."""
        r, margin = self.params.pawn_radius, COAST_MARGIN
        lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0])
        lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1])
        for c, d, reach, (bx0, by0, bx1, by1) in self._walls:
            near = reach + margin
            if bx0 - near > hi_x or bx1 + near < lo_x or by0 - near > hi_y or by1 + near < lo_y:
                continue  # bounding boxes apart
            if segments_distance(a, b, c, d) < near:
                return False
        near = 2 * r + margin
        for pid, other in pawns.items():
            if pid != mover:
                ox, oy = other.body.position
                if lo_x - near <= ox <= hi_x + near and lo_y - near <= oy <= hi_y + near:
                    if segment_distance(ox, oy, a, b) < near:
                        return False
        return True

    def pawn(self, pid: str) -> PawnBody:
        """A fresh body for pawn ``pid``, with its rim, its probe and its friction joints.

        Bodies and joints are never reused between shots: Chipmunk keeps a body's bias velocity
        and a joint's accumulated impulse from one step to the next, and neither may leak from
        one shot into the next."""
        p = self.params
        body = pymunk.Body(p.pawn_mass, self._moment)
        rim = pymunk.Circle(body, p.pawn_radius)
        rim.collision_type = PAWN
        rim.filter = _FILTER_PAWN
        probe = pymunk.Circle(body, _PROBE_RADIUS)
        probe.sensor = True
        probe.collision_type = PROBE
        probe.filter = _FILTER_PROBE
        roll = pymunk.PivotJoint(self.static, body, (0, 0), (0, 0))
        roll.max_bias = 0
        roll.max_force = self.roll_force
        spin = pymunk.GearJoint(self.static, body, 0, 1)
        spin.max_bias = 0
        spin.max_force = p.spin_damping_torque
        return PawnBody(pid, pawn_seat(pid), body, (body, rim, probe, roll, spin))


def stepper(space: pymunk.Space) -> Callable[[float], None]:
    """A function that advances ``space`` by one step of ``dt``.

    ``Space.step`` wraps Chipmunk's ``cpSpaceStep`` in Python bookkeeping for bodies, shapes and
    callbacks added or removed *during* a step; that bookkeeping costs twice the step itself on a
    small world. The simulator never adds or removes anything during a step (it removes pawns
    between steps), so it calls Chipmunk's step directly when this pymunk exposes it, and
    ``Space.step`` otherwise. Both give bit-identical results (tested).
    """
    handle = getattr(space, "_space", None)
    step = getattr(_cp_lib, "cpSpaceStep", None) if _cp_lib is not None else None
    if handle is None or step is None or not _DIRECT_STEP:
        return space.step
    return functools.partial(step, handle)


_DIRECT_STEP = True
"""Set False to step through ``Space.step`` (the tests compare both paths)."""

try:
    from pymunk._chipmunk_cffi import lib as _cp_lib
except ImportError:  # pragma: no cover - a pymunk without the cffi module
    _cp_lib = None


COAST_MARGIN = 1e-4
"""how far (m) a coasting pawn's path must stay from anything it could touch"""

PUSH_OUT = 0.2
"""the share of an overlap beyond the slop the solver removes each step"""


def segments_distance(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]
) -> float:
    """Distance between the segments a–b and c–d (0 when they cross)."""

    def orient(p: tuple[float, float], q: tuple[float, float], s: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0])

    if orient(c, d, a) * orient(c, d, b) < 0 and orient(a, b, c) * orient(a, b, d) < 0:
        return 0.0
    return min(
        segment_distance(a[0], a[1], c, d),
        segment_distance(b[0], b[1], c, d),
        segment_distance(c[0], c[1], a, b),
        segment_distance(d[0], d[1], a, b),
    )


_local = threading.local()


def world_for(layout: Layout, face: Face, params: PhysicsParams) -> World:
    """This thread's world for ``layout``, ``face`` and ``params`` (a few are kept)."""
    last: tuple[Layout, Face, PhysicsParams, World] | None = getattr(_local, "last", None)
    if last is not None and last[0] is layout and last[1] is face and last[2] is params:
        return last[3]  # the same objects as last time: skip hashing them
    cache: OrderedDict[tuple[Layout, Face, PhysicsParams], World]
    cache = _local.__dict__.setdefault("worlds", OrderedDict())
    key = (layout, face, params)
    world = cache.get(key)
    if world is None:
        world = cache[key] = World(layout, face, params)
        if len(cache) > 8:
            cache.popitem(last=False)[1].release()
    else:
        cache.move_to_end(key)
    _local.last = (layout, face, params, world)
    return world


@functools.lru_cache(maxsize=64)
def check_params(params: PhysicsParams) -> None:
    """``params.check()``, once for each set of parameters."""
    params.check()


def _make_sensor(shape: pymunk.Shape, kind: int) -> pymunk.Shape:
    shape.sensor = True
    shape.collision_type = kind
    shape.filter = _FILTER_SENSOR
    return shape

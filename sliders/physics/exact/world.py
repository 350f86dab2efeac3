"""The records the exact engine's compiled code reads, built once per (layout, face, params) and
cached: the :class:`~sliders.physics.exact.state.Arena` and the
:class:`~sliders.physics.exact.state.Zones`.

Rails are capsules (centre line, unit direction, length, unit normal, half thickness); the table's
edge is the set of rectangles off the surface (as the pymunk engine uses); the parameters are one
vector. The zones let compiled code find a resting pawn's status.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from sliders.boards import Face, Layout, classify, outside_cells
from sliders.boards.faces import worth
from sliders.core.outcome import SEATS, Status
from sliders.physics.exact import state as st
from sliders.physics.exact.state import Arena, Zones
from sliders.physics.model import capture_radius
from sliders.physics.params import PhysicsParams


@dataclass(frozen=True, eq=False)
class ExactWorld:
    """One layout, face and parameter set as the compiled code's records."""

    arena: Arena
    """rails, cells off the table, parameter vector"""
    zones: Zones
    """surface rectangles (board first), each seat's own tracks, the face's zones"""
    memo: dict[object, object] = field(default_factory=dict)
    """tables already checked and rest statuses already found on this world (they depend only on
    the layout, the face and the pawn radius), so a loop of shots pays for them once"""


def world_for(layout: Layout, face: Face, params: PhysicsParams) -> ExactWorld:
    """The cached arrays of ``layout``, ``face`` and ``params``."""
    global _last
    if _last is not None and _last[0] is layout and _last[1] is face and _last[2] is params:
        return _last[3]  # the same objects as last time: skip hashing them
    world = _world(layout, face, params)
    _last = (layout, face, params, world)
    return world


_last: tuple[Layout, Face, PhysicsParams, ExactWorld] | None = None


def param_vector(face: Face, p: PhysicsParams) -> np.ndarray:
    """The compiled code's parameter vector (:class:`~sliders.physics.exact.state.Arena`)."""
    v = np.zeros(st.NPARAM)
    r, m = p.pawn_radius, p.pawn_mass
    h = p.hole_drop_height
    v[st.P_R], v[st.P_M] = r, m
    v[st.P_DEC] = p.mu_roll * p.g
    v[st.P_ALPHA] = p.spin_damping_torque / (0.5 * m * r * r)
    v[st.P_EP], v[st.P_ER] = p.restitution_pawn, p.restitution_rail
    v[st.P_FP], v[st.P_FR] = p.friction_pawn, p.friction_rail
    v[st.P_KO] = p.knock_over_impulse
    v[st.P_KOF] = p.knock_over_moving_factor
    v[st.P_SPREAD] = p.knock_over_spread
    v[st.P_G], v[st.P_H] = p.g, h
    v[st.P_TDROP] = math.sqrt(2 * h / p.g)
    hole = face.hole_radius if face.has_hole else 0.0
    v[st.P_HOLE] = hole
    v[st.P_RC] = capture_radius(hole, p) if hole > 0 else 0.0  # ≤ 0: no base fits (model.py)
    v[st.P_MAXT] = p.max_time
    v[st.P_FALL] = p.topple_time  # a physical time, the same in both engines (model.py)
    v[st.P_HALF], v[st.P_CORNER] = face.half, face.sorry_radius + r
    return v


def _hole_test(layout: Layout, face: Face, params: PhysicsParams) -> float:
    """The radius within which boards.geometry.classify calls a resting centre in the hole: the
    hole's, or (the model's rule) the hole's less a pawn radius. Asked of classify itself, so the
    compiled classification follows it."""

    hole, r = face.hole_radius, params.pawn_radius
    if not face.has_hole:
        return hole
    if hole <= r:
        return hole - r  # no base fits: a centre over the hole is on its edge
    seat = layout.seats[0].name
    probe = classify(layout, face, seat, hole - r / 2, 0.0, r)
    return hole if probe.status is Status.IN_HOLE else hole - r


@functools.lru_cache(maxsize=16)
def _world(layout: Layout, face: Face, params: PhysicsParams) -> ExactWorld:
    rails = np.zeros((len(layout.rails), 10))
    for i, rail in enumerate(layout.rails):
        (ax, ay), (bx, by) = rail.a, rail.b
        length = math.hypot(bx - ax, by - ay)
        ex, ey = ((bx - ax) / length, (by - ay) / length) if length > 0 else (1.0, 0.0)
        rails[i] = (ax, ay, bx, by, ex, ey, length, -ey, ex, rail.thickness / 2)
    cells = np.array([(c.xmin, c.ymin, c.xmax, c.ymax) for c in outside_cells(layout)])
    surface = np.array([(s.xmin, s.ymin, s.xmax, s.ymax) for s in layout.surface])
    own = np.zeros((len(SEATS), len(layout.surface)), dtype=np.bool_)
    for seat in layout.seats:
        for t, track in enumerate(layout.tracks):
            own[SEATS.index(seat.name), t + 1] = track.name in seat.tracks
    choice_max = worth(face.choice_points) if face.choice_points else 0
    edge_max = worth(face.hole_edge_points) if face.has_hole else 0
    face_v = np.array(
        [
            face.hole_radius if face.has_hole else 0.0,
            face.choice_radius,
            choice_max,
            face.base_points,
            face.sorry_radius,
            edge_max,
            params.pawn_radius,
            _hole_test(layout, face, params),
            face.tipping_points,
        ]  # fmt: skip
    )
    rings = np.array(face.rings, dtype=np.float64).reshape(-1, 2)
    corners = np.array(face.corners, dtype=np.float64).reshape(-1, 2)
    removing = face.dots if face.dots_remove else ()  # printed dots that do nothing are not there
    dots = np.array([(d.x, d.y, d.radius) for d in removing], dtype=np.float64).reshape(-1, 3)
    return ExactWorld(
        arena=Arena(rails, cells.reshape(-1, 4), param_vector(face, params)),
        zones=Zones(surface, own, face_v, rings, corners, dots),
    )

"""The exact engine's roll along the hole's rim, event by event: the arc it would roll, the polygon
it rolls when something is within reach of that arc, and the pawns it meets on the way."""

from __future__ import annotations

import math

import pytest

from sliders.boards import face
from sliders.files.layouts import square
from sliders.physics import PhysicsParams
from sliders.physics.exact import state as k
from sliders.physics.exact.paths import arc_segment_distance
from sliders.physics.exact.world import world_for

from .exact_loop import Loop

P = PhysicsParams.default()
R = P.pawn_radius
HOME = face("instant-home")
HOLE = HOME.hole_radius
WORLD = world_for(square("south,west,north,east"), HOME, P)
DEC = P.mu_roll * P.g


def _arc_end(rho: float, sweep: float) -> tuple[float, float]:
    return rho * math.cos(sweep), rho * math.sin(sweep)


@pytest.mark.parametrize(
    ("segment", "expected"),
    [
        (((0.02, 0.0), (0.02, 0.0)), 0.01),  # a point facing the arc's start
        (((0.0, 0.005), (0.0, 0.005)), 0.005),  # a point inside, facing its middle
        (((0.0, -0.02), (0.0, -0.02)), math.hypot(0.01, 0.02)),  # behind it: to its start
        (((-0.02, 0.02), (0.02, 0.02)), 0.01),  # a chord beyond it, nearest the centre there
        (((0.0, 0.0), (0.0, 0.02)), 0.0),  # crossing it
        (((0.0, -0.005), (0.0, -0.02)), math.hypot(0.01, 0.005)),  # crossing the circle off it
    ],
)
def test_arc_segment_distance_is_the_nearest_approach(segment, expected) -> None:
    """The arc of radius 0.01 from direction 0 turning a half turn anticlockwise."""
    (ax, ay), (bx, by) = segment
    got = arc_segment_distance(0.01, 0.0, math.pi, ax, ay, bx, by)
    assert got == pytest.approx(expected, abs=1e-15)
    # the same arc, walked the other way from its far end
    assert arc_segment_distance(0.01, math.pi, -math.pi, ax, ay, bx, by) == pytest.approx(
        expected, abs=1e-15
    )


def test_a_full_turn_or_more_is_the_whole_circle() -> None:
    for sweep in (2 * math.pi, -7.0):
        assert arc_segment_distance(0.01, 1.0, sweep, 0.0, -0.02, 0.0, -0.02) == pytest.approx(
            0.01, abs=1e-15
        )


def _caught(vt: float) -> tuple[float, float, float, float]:
    """A pawn standing just inside the rim at angle 0, leaving it outward far too slowly to climb
    out (its bounce back is under V_SLOW) and moving along it at ``vt``: it rolls along the rim."""
    return math.nextafter(HOLE, 0.0), 0.0, 1e-5, vt


def test_a_pawn_caught_on_the_rim_with_nothing_near_rests_an_arc_further() -> None:
    vt = 0.2
    shot = Loop(WORLD, _caught(vt))
    ((x, y),) = shot.run()
    sweep = 0.5 * vt * vt / DEC / HOLE
    assert 1.0 < sweep < 2 * math.pi
    assert math.hypot(x, y) == pytest.approx(HOLE, abs=1e-9)
    assert math.atan2(y, x) % (2 * math.pi) == pytest.approx(sweep, abs=1e-9)
    assert shot.solved == 1  # its one event: reaching the rim (no corners)


def test_rolling_the_polygon_alone_ends_where_the_arc_does() -> None:
    """Each corner is an event; the sides stay within 5 µm inside the rim and the pawn rests
    within 20 µm of the end of the arc it would roll."""
    vt = 0.2
    rho = HOLE - k.TOUCH
    c, s = math.cos(k.RIM_TURN / 2), math.sin(k.RIM_TURN / 2)
    shot = Loop(WORLD, (rho, 0.0, -vt * s, vt * c))
    shot.on_rim(0)
    ((x, y),) = shot.run()
    sweep = 0.5 * vt * vt / DEC / HOLE
    ex, ey = _arc_end(HOLE, sweep)
    assert 0.0 < HOLE - math.hypot(x, y) < 5e-6
    assert math.hypot(x - ex, y - ey) < 2e-5
    corners = shot.solved - 1  # and the stop
    assert corners == pytest.approx(sweep / k.RIM_TURN, abs=1)
    assert shot.state.flags[0, k.INR] == k.OVER_HOLE  # stopped: no longer rolling along it


def test_a_pawn_rolling_along_the_rim_meets_a_pawn_beside_it() -> None:
    """A pawn standing outside the hole half way along the arc: the roller hits it (it used to be
    put to rest beyond it, passing through it) and nothing ends inside anything."""
    vt = 0.2
    stand = HOLE + 2 * R - 0.002
    half = 0.25 * vt * vt / DEC / HOLE
    sx, sy = stand * math.cos(half), stand * math.sin(half)
    shot = Loop(WORLD, _caught(vt), (sx, sy, 0.0, 0.0))
    (ax, ay), (bx, by) = shot.run()
    assert shot.contacts >= 1  # a pawn–pawn contact
    assert math.hypot(ax - bx, ay - by) >= 2 * R - 1e-9
    assert math.hypot(bx - sx, by - sy) > 1e-3  # pushed on

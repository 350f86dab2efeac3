"""Property tests over thousands of random shots: no pawn passes through a rail, and every pawn
ends in exactly one status (500 random tables and shots in the everyday run, 2000 under
``--slow``)."""

from __future__ import annotations

import math
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.boards import face, overlaps_rail, surface_at
from sliders.core.outcome import ENGINES, IN_PLAY, REMOVED, Status
from sliders.physics import Setup, Shot, simulate, start

from .helpers import SQUARE2, SQUARE4, P, pawn

R = P.pawn_radius
FACES = [face(n) for n in ("race-for-home", "instant-home", "instant-sorry", "danger-dots")]
SEATS4 = ("south", "west", "north", "east")
RANDOM_SHOTS = 2000 if os.environ.get("SLIDERS_SLOW") == "1" else 500
"""the campaign of random tables and shots: the long one under --slow (tests/conftest.py)"""


def _clear_of_rails(layout, x: float, y: float) -> bool:
    # at rest, a pawn never overlaps a rail by more than a millimetre (the solver's slop is 0.1 mm)
    return not overlaps_rail(layout, x, y, R, tolerance=1e-3)


def _side(rail, x: float, y: float) -> tuple[float, float]:
    """(signed side, position along) of a point relative to a rail's centre line."""
    (ax, ay), (bx, by) = rail.a, rail.b
    dx, dy = bx - ax, by - ay
    return (dx * (y - ay) - dy * (x - ax), ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy))


table_pawns = st.lists(
    st.tuples(
        st.sampled_from(SEATS4),
        st.floats(-0.12, 0.12),
        st.floats(-0.12, 0.12),
    ),
    max_size=8,
)

shots = st.tuples(
    st.sampled_from(SEATS4),
    st.floats(0.05, 3.0),
    st.floats(-60.0, 60.0),
    st.floats(-0.042, 0.042),
)


def _table(raw):
    placed, counts = [], {}
    for seat, x, y in raw:
        if counts.get(seat, 0) >= 3:
            continue
        if any(math.hypot(x - p.x, y - p.y) < 2 * R + 1e-4 for p in placed):
            continue
        if overlaps_rail(SQUARE4, x, y, R):
            continue
        counts[seat] = counts.get(seat, 0) + 1
        placed.append(pawn(f"{seat}-{counts[seat]}", x, y))
    return placed


@settings(max_examples=RANDOM_SHOTS, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=table_pawns, shot=shots, face_index=st.integers(0, 3), engine=st.sampled_from(ENGINES))
def test_random_shots_respect_rails_and_end_in_one_status(raw, shot, face_index, engine) -> None:
    seat, speed, angle, offset = shot
    table = _table(raw)
    aim = Shot.from_degrees(seat, speed, angle, offset=offset)
    result = simulate(Setup(SQUARE4, FACES[face_index], engine=engine), table, aim)
    assert len(result.pawns) == len(table) + 1
    assert len({p.id for p in result.pawns}) == len(result.pawns)
    for p in result.pawns:
        assert p.status in IN_PLAY or p.status in REMOVED
        assert (p.status in IN_PLAY) != (p.status in REMOVED)
        if p.status in REMOVED:
            # removed mid-flight, perhaps mid-contact: its centre is never inside a rail
            assert not overlaps_rail(SQUARE4, p.x, p.y, R, tolerance=R), f"{p.id} in a rail"
        else:
            assert _clear_of_rails(SQUARE4, p.x, p.y), f"{p.id} at rest in a rail at {p.x}, {p.y}"
        if p.status in IN_PLAY:
            assert surface_at(SQUARE4, p.x, p.y) is not None
        if p.status is Status.OFF_BOARD:
            # it left over an open edge: its centre is just past the table's surface (pymunk:
            # the step that carried it over) or on its edge, the moment it left (exact)
            assert surface_at(SQUARE4, p.x, p.y) is None or (
                result.engine == "exact" and _on_the_edge(p.x, p.y)
            )


def _on_the_edge(x: float, y: float, within: float = 1e-9) -> bool:
    """A point off the table's surface lies within ``within`` of (x, y)."""
    return any(
        surface_at(SQUARE4, x + dx, y + dy) is None
        for dx, dy in ((within, 0), (-within, 0), (0, within), (0, -within))
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(shot=shots)
def test_every_step_keeps_pawns_on_their_side_of_the_rails(shot) -> None:
    """Step by step: at 3 m/s a pawn moves 12.5 mm a step; no step may carry its centre across a
    rail's centre line (contacts may overlap by a few millimetres for a step or two)."""
    seat, speed, angle, offset = shot
    seat = "south" if seat in ("south", "west") else "north"
    table = [pawn("north-1", 0.0, 0.0), pawn("north-2", 0.03, -0.04), pawn("south-2", -0.04, 0.05)]
    sim = start(
        Setup(SQUARE2, FACES[0]), table, Shot.from_degrees(seat, speed, angle, offset=offset)
    )
    last = sim.positions()
    while sim.moving:
        sim.step()
        now = sim.positions()
        for pid, (x, y, _) in now.items():
            x0, y0, _ = last.get(pid, (x, y, 0.0))
            for rail in SQUARE2.rails:
                s0, t0 = _side(rail, x0, y0)
                s1, t1 = _side(rail, x, y)
                crossed = s0 * s1 < 0 and 0 <= t0 <= 1 and 0 <= t1 <= 1
                assert not crossed, f"{pid} crossed a rail at t={sim.t:.3f}"
            assert not overlaps_rail(SQUARE2, x, y, R, tolerance=R), f"{pid} deep in a rail"
        last = now

"""Property test over the whole legal parameter space, not just the defaults: with any legal
parameters and a random crowded table, a shot raises nothing, leaves every pawn at a finite
place, no pawn at rest inside a rail beyond the slop, one status per pawn, and it ends either
settled before the time limit or reported as timed out, never both; in either engine (the
exact engine also stops a shot at its event cap, reported as timed out)."""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.boards import face, overlaps_rail
from sliders.core.outcome import ENGINES, IN_PLAY, REMOVED, EventType
from sliders.physics import PhysicsParams, Setup, Shot, start
from sliders.physics.exact.simulation import MAX_EVENTS
from sliders.physics.params import ranges

from .helpers import SQUARE4, pawn

FACES = [face(n) for n in ("race-for-home", "instant-home", "instant-sorry", "danger-dots")]
SEATS = ("south", "west", "north", "east")
STEP_BUDGET = 3000
"""the most steps of one drawn shot: keeps the test short; longer time limits are cut to it"""

_WIDE = {"dt", "collision_slop", "spin_damping_torque", "knock_over_impulse", "pawn_mass"}


@st.composite
def legal_params(draw) -> PhysicsParams:
    """Any legal parameters: each drawn within its range (log-uniform where the range spans
    decades), then the limits that tie them together applied."""
    values = {}
    for name, legal in ranges().items():
        lo, hi = legal.lo, legal.hi
        if isinstance(getattr(PhysicsParams.default(), name), int):
            values[name] = draw(st.integers(int(lo), min(int(hi), 40)))
            continue
        if name in _WIDE and lo >= 0:
            low = max(lo, hi * 1e-6)
            u = draw(st.floats(0.0, 1.0))
            value = math.exp(math.log(low) + u * (math.log(hi) - math.log(low)))
        else:
            value = draw(st.floats(lo, hi))
        if legal.lo_open and value <= lo:
            value = lo + (hi - lo) * 1e-3
        values[name] = min(max(value, lo), hi)
    p = PhysicsParams(**values)
    speed_limit = p.pawn_radius / p.dt
    p = p.replace(
        max_speed=min(p.max_speed, speed_limit),
        max_time=max(min(p.max_time, STEP_BUDGET * p.dt), 0.1),
    )
    if p.max_time / p.dt > STEP_BUDGET:  # a fine step: fewer steps is still a legal limit
        p = p.replace(dt=max(p.max_time / STEP_BUDGET, p.dt))
        p = p.replace(max_speed=min(p.max_speed, p.pawn_radius / p.dt))
    p.check()
    return p


crowd = st.lists(
    st.tuples(st.sampled_from(SEATS), st.floats(-0.12, 0.12), st.floats(-0.12, 0.12)),
    min_size=4,
    max_size=12,
)


def _table(raw, r: float):
    placed, counts = [], {}
    for seat, x, y in raw:
        if counts.get(seat, 0) >= 3:
            continue
        if any(math.hypot(x - q.x, y - q.y) < 2 * r + 1e-4 for q in placed):
            continue
        if overlaps_rail(SQUARE4, x, y, r) or abs(x) > 0.13 - r or abs(y) > 0.13 - r:
            continue
        counts[seat] = counts.get(seat, 0) + 1
        placed.append(pawn(f"{seat}-{counts[seat]}", x, y))
    return placed


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    params=legal_params(),
    raw=crowd,
    seat=st.sampled_from(SEATS),
    speed_share=st.floats(0.05, 1.0),
    angle=st.floats(-40.0, 40.0),
    offset_share=st.floats(-1.0, 1.0),
    face_index=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    engine=st.sampled_from(ENGINES),
)
def test_any_legal_parameters_keep_the_model_whole(
    params, raw, seat, speed_share, angle, offset_share, face_index, seed, engine
) -> None:
    r = params.pawn_radius
    table = _table(raw, r)
    offset = offset_share * (SQUARE4.seat(seat).width / 2 - r)
    shot = Shot.from_degrees(seat, speed_share * params.max_speed, angle, offset=offset)
    sim = start(Setup(SQUARE4, FACES[face_index], params, engine), table, replace(shot, seed=seed))
    sim.run()
    result = sim.result()

    assert len(result.pawns) == len(table) + 1
    assert len({p.id for p in result.pawns}) == len(result.pawns)
    for p in result.pawns:
        assert math.isfinite(p.x) and math.isfinite(p.y), p
        assert (p.status in IN_PLAY) != (p.status in REMOVED)
        if p.status in IN_PLAY and result.settled:
            slop = max(params.collision_slop, 1e-4) + 1e-3
            assert not overlaps_rail(SQUARE4, p.x, p.y, r, tolerance=slop), f"{p.id} in a rail"
    ends = [e.type for e in result.events if e.type in (EventType.SETTLED, EventType.TIMED_OUT)]
    assert ends == [EventType.SETTLED if result.settled else EventType.TIMED_OUT]
    assert result.settle_time <= params.max_time + 1e-9
    if not result.settled and engine == "pymunk":
        assert result.settle_time == params.max_time or math.isclose(
            result.settle_time, int(params.max_time / params.dt + 1e-9) * params.dt
        )
    if not result.settled and engine == "exact":  # at the time limit, or stopped by the event cap
        assert result.settle_time == params.max_time or sim.solved >= MAX_EVENTS

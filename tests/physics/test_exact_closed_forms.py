"""The exact engine against closed forms: stopping distance, pawn–pawn hits head-on and oblique,
rail faces and end caps, spin-down, Newton's cradle — to 1e-9 relative, no step term."""

from __future__ import annotations

import math

import pytest

from sliders.boards import Rail, face
from sliders.core.outcome import EventType, PawnRest, Status
from sliders.physics import PhysicsParams, Shot
from sliders.physics.exact import ExactSimulation, simulate_exact
from sliders.physics.exact import state as k

from .helpers import ARENA, Y0, A, arena, pair_closed_form

P = PhysicsParams.default()
RACE = face("race-for-home")
R = P.pawn_radius
REL = 1e-9


def pawn(pid: str, x: float, y: float) -> PawnRest:
    return PawnRest(pid, pid.rsplit("-", 1)[0], x, y, Status.ON_TARGET)


def test_status_codes_are_the_outcome_order() -> None:
    statuses = tuple(Status)
    assert statuses[k.S_OWN_TRACK] is Status.OWN_TRACK
    assert statuses[k.S_OFF_BOARD] is Status.OFF_BOARD
    assert statuses[k.S_IN_HOLE] is Status.IN_HOLE
    assert statuses[k.S_KNOCKED] is Status.KNOCKED_OVER
    assert statuses[k.S_FOUL] is Status.FOUL
    assert statuses[k.S_HOLE_EDGE] is Status.HOLE_EDGE


@pytest.mark.parametrize("speed", [0.05, 0.2, 0.6, 1.0, 2.0, 3.0])
def test_stopping_distance_is_v2_over_2mug(speed: float) -> None:
    result = simulate_exact(ARENA, RACE, [], Shot("south", speed))
    (p,) = result.pawns
    assert p.y - Y0 == pytest.approx(speed * speed / (2 * A), rel=REL)
    assert p.x == 0.0
    assert result.settle_time == pytest.approx(speed / A, rel=REL)
    assert [e.type for e in result.events] == [EventType.RELEASE, EventType.SETTLED]


def _rest_after(start: tuple[float, float], v: tuple[float, float]) -> tuple[float, float]:
    s = math.hypot(*v)
    if s == 0:
        return start
    d = s * s / (2 * A)
    return start[0] + v[0] / s * d, start[1] + v[1] / s * d


@pytest.mark.parametrize("e", [0.3, 0.6, 0.85, 1.0])
@pytest.mark.parametrize("mu", [0.0, 0.05, 0.2, 1.0])
@pytest.mark.parametrize("b", [0.0, 0.004, 0.012, 0.02])
def test_pawn_hit_matches_the_closed_form(e: float, mu: float, b: float) -> None:
    params = P.replace(restitution_pawn=e, friction_pawn=mu, knock_over_impulse=10.0)
    v0, gap = 1.2, 0.3
    shot = Shot("south", v0, offset=b)
    sim = ExactSimulation(ARENA, RACE, [pawn("north-1", 0.0, Y0 + gap)], shot, params)
    sim.run()
    result = sim.result()
    (contact,) = [ev for ev in result.events if ev.type is EventType.CONTACT]
    where, vc, jn, v1, v2, w = pair_closed_form(v0, b, gap, e, mu)
    assert contact.impulse == pytest.approx(jn, rel=REL)
    assert contact.t == pytest.approx(2 * (where[1] - Y0) / (v0 + vc), rel=REL)
    shooter, target = result.pawns
    ex1, ey1 = _rest_after(where, v1)
    ex2, ey2 = _rest_after((0.0, Y0 + gap), v2)
    scale = 0.3
    assert abs(shooter.x - ex1) <= REL * scale and abs(shooter.y - ey1) <= REL * scale
    assert abs(target.x - ex2) <= REL * scale and abs(target.y - ey2) <= REL * scale
    # the struck pawn's direction and speed
    if math.hypot(*v2) > 0:
        moved = math.atan2(target.x, target.y - (Y0 + gap))
        assert moved == pytest.approx(math.atan2(v2[0], v2[1]), rel=REL, abs=1e-12)


def test_spin_from_an_oblique_hit_spins_down_at_the_damping_torque() -> None:
    params = P.replace(friction_pawn=0.3, knock_over_impulse=10.0)
    b, gap = 0.012, 0.3
    where, vc, jn, v1, v2, w = pair_closed_form(1.2, b, gap, params.restitution_pawn, 0.3)
    sim = ExactSimulation(
        ARENA, RACE, [pawn("north-1", 0.0, Y0 + gap)], Shot("south", 1.2, offset=b), params
    )
    tc = 2 * (where[1] - Y0) / (1.2 + vc)
    alpha = params.spin_damping_torque / (0.5 * P.pawn_mass * R * R)
    for dt in (1e-3, 0.05, 0.2):
        sim.run_until(tc + dt)
        spin = sim.velocities()["north-1"][2]
        expect = math.copysign(max(abs(w) - alpha * dt, 0.0), w)
        assert spin == pytest.approx(expect, rel=REL, abs=1e-12)
        assert sim.velocities()["south-1"][2] == pytest.approx(expect, rel=REL, abs=1e-12)


@pytest.mark.parametrize("angle", [5.0, 20.0, 45.0])
@pytest.mark.parametrize("mu", [0.0, 0.1, 0.5])
def test_rail_face_bounce(angle: float, mu: float) -> None:
    """Slanting into a long rail along x = 0.2: restitution on the normal, Coulomb friction (with
    the pawn's moment) on the tangent."""
    h = 0.003
    rail = Rail((0.2 + h, -20.0), (0.2 + h, 5.0), 2 * h)
    params = P.replace(friction_rail=mu, knock_over_impulse=10.0)
    e = params.restitution_rail
    layout = arena(rails=(rail,))
    th = math.radians(angle)
    v0 = math.sqrt(2 * A * 1.5 * (0.2 - R) / math.sin(th))  # meets the rail a third from rest
    sim = ExactSimulation(layout, RACE, [], Shot("south", v0, th), params)
    sim.run()
    result = sim.result()
    (hit,) = [ev for ev in result.events if ev.type is EventType.RAIL]
    d = (0.2 - R) / math.sin(th)
    vc = math.sqrt(v0 * v0 - 2 * A * d)
    m = P.pawn_mass
    vn, vt = vc * math.sin(th), vc * math.cos(th)
    jn = m * (1 + e) * vn
    jt = max(-mu * jn, min(mu * jn, m * vt / 3))
    assert hit.impulse == pytest.approx(jn, rel=REL)
    after = (-e * vn, vt - jt / m)
    (p,) = result.pawns
    ex, ey = _rest_after((0.2 - R, Y0 + d * math.cos(th)), after)
    assert abs(p.x - ex) <= REL and abs(p.y - ey) <= REL


@pytest.mark.parametrize("b", [0.0, 0.005, 0.012])
def test_rail_end_cap_bounce(b: float) -> None:
    """Straight at the round end of a rail lying along the lane's axis ahead."""
    h = 0.003
    rail = Rail((0.0, Y0 + 0.4), (0.0, Y0 + 3.0), 2 * h)
    params = P.replace(friction_rail=0.0, knock_over_impulse=10.0)
    e = params.restitution_rail
    sim = ExactSimulation(arena(rails=(rail,)), RACE, [], Shot("south", 1.0, offset=b), params)
    sim.run()
    (hit,) = [ev for ev in sim.result().events if ev.type is EventType.RAIL]
    rho = R + h
    yc = Y0 + 0.4 - math.sqrt(rho * rho - b * b)
    vc = math.sqrt(1.0 - 2 * A * (yc - Y0))
    nx, ny = -b / rho, (Y0 + 0.4 - yc) / rho
    vn = vc * ny
    after = (-(1 + e) * vn * nx, vc - (1 + e) * vn * ny)
    assert hit.impulse == pytest.approx(P.pawn_mass * (1 + e) * vn, rel=REL)
    (p,) = sim.result().pawns
    ex, ey = _rest_after((b, yc), after)
    assert abs(p.x - ex) <= REL and abs(p.y - ey) <= REL


@pytest.mark.parametrize("count", [2, 3, 5])
def test_newtons_cradle_passes_the_whole_speed_down_a_touching_line(count: int) -> None:
    params = P.replace(restitution_pawn=1.0, friction_pawn=0.0, knock_over_impulse=10.0)
    y1 = Y0 + 0.3
    ids = ["north-1", "north-2", "north-3", "north-4", "south-2"]
    table = [pawn(ids[i], 0.0, y1 + 2 * R * i) for i in range(count)]
    result = simulate_exact(ARENA, RACE, table, Shot("south", 1.0), params)
    contacts = [ev for ev in result.events if ev.type is EventType.CONTACT]
    assert len(contacts) == count
    vc = math.sqrt(1.0 - 2 * A * (y1 - 2 * R - Y0))
    last = result.pawns[-1]
    assert last.y == pytest.approx(y1 + 2 * R * (count - 1) + vc * vc / (2 * A), rel=REL)
    for p, q in zip(result.pawns[:-1], [None, *table[:-1]], strict=True):
        # every other pawn stands where it was hit (the shooter where it touched the first)
        expect = y1 - 2 * R if q is None else q.y
        assert p.y == pytest.approx(expect, rel=REL)


def test_simultaneous_contacts_are_taken_in_pawn_order() -> None:
    """Straight between two touching pawns: both contacts come at the same instant and are
    resolved one at a time, by pawn index then partner — here the table's order decides, and the
    outcome is the mirror image whichever pawn is listed first."""
    params = P.replace(knock_over_impulse=10.0)
    y = Y0 + 0.3
    left, right = pawn("north-1", -R, y), pawn("north-2", R, y)
    one = simulate_exact(ARENA, RACE, [left, right], Shot("south", 1.0), params)
    two = simulate_exact(ARENA, RACE, [right, left], Shot("south", 1.0), params)
    hits = [e for e in one.events if e.type is EventType.CONTACT]
    assert hits[0].pawns == ("south-1", "north-1") and hits[1].pawns == ("south-1", "north-2")
    assert abs(hits[1].t - hits[0].t) <= 1e-12
    hits2 = [e for e in two.events if e.type is EventType.CONTACT]
    assert hits2[0].pawns == ("south-1", "north-2")
    a1, a2 = one.pawn("north-1"), one.pawn("north-2")
    assert a1.x < 0 < a2.x
    b1, b2 = two.pawn("north-1"), two.pawn("north-2")
    assert a1.x == pytest.approx(-b2.x, abs=1e-12) and a1.y == pytest.approx(b2.y, abs=1e-12)
    assert a2.x == pytest.approx(-b1.x, abs=1e-12) and a2.y == pytest.approx(b1.y, abs=1e-12)

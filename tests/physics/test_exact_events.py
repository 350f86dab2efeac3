"""Each kind of event of the exact engine alone, on the compiled loop itself: when it is predicted
and what its resolution leaves, against closed forms (rolling deceleration a = μ·g, restitutions,
the hole's dip). The roll along the hole's rim has its own tests (test_exact_rim.py)."""

from __future__ import annotations

import math

import pytest

from sliders.boards import Rail, face
from sliders.files.layouts import square
from sliders.physics import PhysicsParams
from sliders.physics.exact import state as st
from sliders.physics.exact.world import world_for

from .exact_loop import Loop
from .helpers import arena

P = PhysicsParams.default()
R, M = P.pawn_radius, P.pawn_mass
A = P.mu_roll * P.g
H = 0.003  # the rails' half thickness
OPEN = world_for(arena(), face("race-for-home"), P)  # the table's edge at x = ±1 around y = -6
RAIL_Y = -5.5
RAILED = world_for(
    arena(
        rails=(Rail((-0.5, RAIL_Y), (0.5, RAIL_Y), 2 * H), Rail((0.6, -5.9), (0.6, -4.0), 2 * H))
    ),
    face("race-for-home"),
    P,
)
HOME = face("instant-home")
HOLE, RC = HOME.hole_radius, HOME.hole_radius - R
HOLED = world_for(square("south,west,north,east"), HOME, P)
REL = 1e-12


def travel_time(s: float, v: float) -> float:
    """The time a pawn starting at ``v`` takes to roll ``s`` (closed form)."""
    return (v - math.sqrt(v * v - 2 * A * s)) / A


def speed_after(s: float, v: float) -> float:
    return math.sqrt(v * v - 2 * A * s)


def own(shot: Loop, i: int) -> tuple[float, int]:
    return float(shot.state.own_time[i]), int(shot.state.own_kind[i])


def velocity(shot: Loop, i: int) -> tuple[float, float]:
    return float(shot.state.segments[i, st.VX]), float(shot.state.segments[i, st.VY])


def test_end_of_motion() -> None:
    v = 0.8
    shot = Loop(OPEN, (0.0, -6.0, 0.0, v))
    assert own(shot, 0) == (pytest.approx(v / A, rel=REL), st.K_STOP)
    ((x, y),) = shot.run()
    assert (x, y) == (0.0, pytest.approx(-6.0 + v * v / (2 * A), rel=REL))
    assert shot.solved == 1
    assert shot.state.clock[st.RESTED] == pytest.approx(v / A, rel=REL)
    assert shot.events() == []


def test_a_head_on_pawn_contact() -> None:
    """The contact comes when the centres are 2r apart; equal discs, no spin: the striker keeps
    (1 − e)/2 of its speed, the struck pawn leaves with (1 + e)/2, impulse m(1 + e)v/2."""
    v, gap = 1.0, 0.1
    shot = Loop(OPEN, (0.0, -6.0, 0.0, v), (0.0, -6.0 + gap, 0.0, 0.0))
    t = travel_time(gap - 2 * R, v)
    vc = speed_after(gap - 2 * R, v)
    assert shot.state.pair_time[0, 1] == pytest.approx(t, rel=REL)
    shot.run(until=t)
    assert shot.solved == 1 and shot.contacts == 1
    e = P.restitution_pawn
    assert velocity(shot, 0) == (0.0, pytest.approx(vc * (1 - e) / 2, rel=1e-9))
    assert velocity(shot, 1) == (0.0, pytest.approx(vc * (1 + e) / 2, rel=1e-9))
    ((when, kind, a, b, impulse, cx, cy),) = shot.events()
    assert (kind, a, b) == (st.E_CONTACT, 0, 1)
    assert when == pytest.approx(t, rel=REL)
    assert impulse == pytest.approx(0.5 * M * (1 + e) * vc, rel=1e-9)
    assert (cx, cy) == (0.0, pytest.approx(-6.0 + gap - R, abs=1e-12))


def test_a_slow_contact_is_fully_inelastic() -> None:
    """Closing slower than V_SLOW: the two move on at their mean velocity (momentum kept)."""
    v, closing = 0.3, 0.5 * st.V_SLOW
    shot = Loop(OPEN, (0.0, -6.0, 0.0, v + closing), (0.0, -6.0 + 2 * R + 1e-7, 0.0, v))
    t = float(shot.state.pair_time[0, 1])
    shot.run(until=t)
    assert shot.contacts == 1
    (_, v0), (_, v1) = velocity(shot, 0), velocity(shot, 1)
    assert v0 == pytest.approx(v1, rel=1e-12)
    assert v0 + v1 == pytest.approx(2 * v + closing - 2 * A * t, rel=1e-9)


def test_a_rail_face() -> None:
    """Head on into a face: it bounces back at e_rail times its speed, impulse m(1 + e)v."""
    v = 1.2
    shot = Loop(RAILED, (0.0, -6.0, 0.0, v))
    s = RAIL_Y - H - R - -6.0
    t = travel_time(s, v)
    assert own(shot, 0) == (pytest.approx(t, rel=REL), st.K_RAIL)
    assert shot.state.own_arg[0] == 0
    shot.run(until=own(shot, 0)[0])
    vc, e = speed_after(s, v), P.restitution_rail
    assert velocity(shot, 0) == (0.0, pytest.approx(-e * vc, rel=1e-9))
    ((_, kind, a, _, impulse, cx, cy),) = shot.events()
    assert (kind, a) == (st.E_RAIL, 0)
    assert impulse == pytest.approx(M * (1 + e) * vc, rel=1e-9)
    assert (cx, cy) == (0.0, pytest.approx(RAIL_Y - H, abs=1e-12))


@pytest.mark.parametrize("b", [0.0, 0.006, -0.012])
def test_a_rail_end_cap(b: float) -> None:
    """Rolling along +y at x = 0.6 + b into the near end of a rail along the y axis: it meets the
    round cap when its centre is r + h from the end, the normal from its centre to the end."""
    v = 1.0
    shot = Loop(RAILED, (0.6 + b, -6.0, 0.0, v))
    yc = -5.9 - math.sqrt((R + H) ** 2 - b * b)
    t = travel_time(yc - -6.0, v)
    assert own(shot, 0) == (pytest.approx(t, rel=REL), st.K_RAIL)
    assert shot.state.own_arg[0] == 1
    shot.run(until=own(shot, 0)[0])
    ((_, kind, _, _, impulse, cx, cy),) = shot.events()
    nx, ny = -b / (R + H), (-5.9 - yc) / (R + H)
    assert kind == st.E_RAIL
    assert (cx, cy) == (pytest.approx(0.6 + b + R * nx, abs=1e-12), pytest.approx(yc + R * ny))
    vc, e = speed_after(yc - -6.0, v), P.restitution_rail
    assert impulse == pytest.approx(M * (1 + e) * vc * ny, rel=1e-9)
    vx, vy = velocity(shot, 0)
    assert vx * nx + vy * ny == pytest.approx(-e * vc * ny, rel=1e-9)  # the normal part bounces


def test_the_centre_leaving_the_table() -> None:
    v = 0.5
    shot = Loop(OPEN, (0.9, -6.0, v, 0.0))
    t = travel_time(0.1, v)
    assert own(shot, 0) == (pytest.approx(t, rel=REL), st.K_EDGE)
    shot.run()
    assert shot.status(0) == st.S_OFF_BOARD
    ((when, kind, a, _, _, x, y),) = shot.events()
    assert (kind, a) == (st.E_OFF, 0)
    assert when == pytest.approx(t, rel=REL)
    assert (x, y) == (pytest.approx(1.0, abs=1e-12), -6.0)


def test_crossing_the_hole_rim_inward() -> None:
    v = 0.4
    shot = Loop(HOLED, (0.05, 0.0, -v, 0.0))
    t = travel_time(0.05 - HOLE, v)
    assert own(shot, 0) == (pytest.approx(t, rel=REL), st.K_R_IN)
    shot.run(until=own(shot, 0)[0])
    assert shot.state.flags[0, st.INR] == st.OVER_HOLE
    assert shot.state.segments[0, st.TIN] == pytest.approx(t, rel=REL)
    assert velocity(shot, 0) == (pytest.approx(-speed_after(0.05 - HOLE, v), rel=1e-9), 0.0)


def test_dropping_in_through_the_capture_disc() -> None:
    """Slow enough to stay in the capture disc (radius R − r) for the fall time √(2h/g): it
    drops in that long after its centre entered the disc."""
    vc = 0.06  # at the disc's edge: it would take 2·RC/vc > √(2h/g) to cross it
    v = math.sqrt(vc * vc + 2 * A * (0.02 - RC))
    shot = Loop(HOLED, (0.02, 0.0, -v, 0.0))
    t_in = travel_time(0.02 - RC, v)
    shot.run(until=own(shot, 0)[0])  # crossing the hole's rim
    assert own(shot, 0) == (pytest.approx(t_in, rel=REL), st.K_RC_IN)
    shot.run(until=t_in + 1e-9)
    assert shot.state.flags[0, st.INRC] == 1
    assert own(shot, 0) == (
        pytest.approx(t_in + math.sqrt(2 * P.hole_drop_height / P.g), rel=1e-9),
        st.K_DROP,
    )
    shot.run()
    assert shot.status(0) == st.S_IN_HOLE
    assert [e[1] for e in shot.events()] == [st.E_HOLE]


def test_stopping_in_the_capture_disc_drops_in() -> None:
    """Stopping 0.1 mm inside the disc, sooner than the fall time after entering it."""
    v = math.sqrt(2 * A * (0.004 - (RC - 1e-4)))
    shot = Loop(HOLED, (0.004, 0.0, -v, 0.0))
    shot.run()
    assert shot.status(0) == st.S_IN_HOLE
    ((when, kind, _, _, _, x, _),) = shot.events()
    assert kind == st.E_HOLE
    assert when == pytest.approx(v / A, rel=REL)
    assert x == pytest.approx(RC - 1e-4, abs=1e-12)
    assert shot.solved == 2  # into the disc (it starts over the hole), the stop


@pytest.mark.parametrize("v", [0.6, 0.2])
def test_reaching_the_rim_from_over_the_hole(v: float) -> None:
    """A pawn that starts over the hole (fully dipped by h) reaches the rim moving out: it climbs
    out with √(vn² − 2gh) when it can, else bounces back at e_rail·vn."""
    shot = Loop(HOLED, (0.01, 0.0, v, 0.0))
    assert shot.state.flags[0, st.INR] == st.OVER_HOLE
    t = travel_time(HOLE - 0.01, v)
    assert own(shot, 0) == (pytest.approx(t, rel=REL), st.K_R_OUT)
    shot.run(until=own(shot, 0)[0])
    vn = speed_after(HOLE - 0.01, v)
    need = 2 * P.g * P.hole_drop_height
    if vn * vn > need:
        assert velocity(shot, 0) == (pytest.approx(math.sqrt(vn * vn - need), rel=1e-9), 0.0)
        assert shot.state.flags[0, st.INR] == 0
    else:
        assert velocity(shot, 0) == (pytest.approx(-P.restitution_rail * vn, rel=1e-9), 0.0)
        assert shot.state.flags[0, st.INR] == st.OVER_HOLE


def test_toppling() -> None:
    """A still pawn struck with more than the knock-over impulse (the striker, moving, has a
    higher threshold and stays up) topples at the contact, where it stands, falls for one step
    still moving, and then leaves the table knocked over."""
    v, gap = 2.2, 0.1
    shot = Loop(OPEN, (0.0, -6.0, 0.0, v), (0.0, -6.0 + gap, 0.0, 0.0))
    vc = speed_after(gap - 2 * R, v)
    jn = 0.5 * M * (1 + P.restitution_pawn) * vc
    assert P.knock_over_impulse < jn < P.knock_over_impulse * P.knock_over_moving_factor
    t = float(shot.state.pair_time[0, 1])
    shot.run(until=t)
    kinds = [(e[1], e[2]) for e in shot.events()]
    assert kinds == [(st.E_CONTACT, 0), (st.E_KNOCKED, 1)]
    assert shot.state.flags[1, st.FALL] == 1 and shot.status(1) == st.ON_TABLE
    assert own(shot, 1) == (pytest.approx(t + P.dt, rel=REL), st.K_GONE)
    shot.run(until=t + P.dt)
    assert shot.status(1) == st.S_KNOCKED
    assert shot.now()[1, :2].tolist() == [0.0, -6.0 + gap]  # where it toppled
    shot.run()
    assert shot.status(0) == st.ON_TABLE

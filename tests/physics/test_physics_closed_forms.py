"""The simulator checked against physics: closed forms, conservation, symmetry, determinism.

Laws every engine keeps run in both; the fixed-step integrator's own terms (its leapfrog
stopping distance, the closed-form finish of ``run()``, Chipmunk's direct step) are the pymunk
engine's and are pinned to it (the exact engine's closed forms: test_exact_closed_forms.py).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.boards import Rail, face
from sliders.core.outcome import ENGINES, EventType, Status
from sliders.physics import PhysicsParams, Setup, Shot, Simulation, simulate, start

from .helpers import (
    ARENA,
    RACE,
    SQUARE2,
    SQUARE4,
    Y0,
    A,
    P,
    arena,
    long_lane,
    pair_closed_form,
    pawn,
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("speed", [0.2, 0.35, 0.6, 1.0, 1.5, 2.0, 2.5, 3.0])
def test_stopping_distance_matches_closed_form(speed: float, engine: str) -> None:
    lane = long_lane()
    sim = start(Setup(lane, RACE, engine=engine), [], Shot("south", speed, release=0.1))
    sim.coast = False  # pymunk: every step through Chipmunk
    sim.run()
    (p,) = sim.result().pawns
    assert p.status is Status.OWN_TRACK
    start_y = lane.seats[0].near[1] + 0.1
    travelled = p.y - start_y
    expected = P.stopping_distance(speed)
    # the pymunk engine's leapfrog steps: within μg·h²/8 (a micrometre at the default step)
    assert travelled == pytest.approx(expected, abs=P.deceleration * P.pymunk_step**2 / 8 + 1e-12)
    assert abs(p.x) < 1e-12  # straight down the lane, no drift


@pytest.mark.parametrize("dt", [1 / 240, 1 / 480, 1 / 1000])
def test_stopping_distance_does_not_depend_on_the_step(dt: float) -> None:
    """Leapfrog: each step moves a rolling pawn with its velocity at the middle of the step,
    exact under constant deceleration; only the last step, in which it stops, is off, by at
    most μg·h²/8 short (the plain fixed step overshot by v·h/2, 0.6 mm at 1/1000 s)."""
    params = P.replace(dt=dt)
    lane = long_lane()
    sim = start(Setup(lane, RACE, params, "pymunk"), [], Shot("south", 1.2, release=0.1))
    sim.coast = False
    sim.run()
    (p,) = sim.result().pawns
    travelled = p.y - (lane.seats[0].near[1] + 0.1)
    short = params.stopping_distance(1.2) - travelled
    assert -1e-12 <= short <= params.deceleration * dt * dt / 8 + 1e-12


def _head_on(speed: float, engine: str) -> tuple[np.ndarray, np.ndarray, Simulation]:
    """South pawn slides straight at a north pawn resting on the axis; velocities just before
    and just after. Rolling resistance is an external force, so it is made negligible here: the
    contact alone must conserve momentum."""
    params = P.replace(knock_over_impulse=1.0, mu_roll=0.005)
    target = pawn("north-1", 0.0, 0.0)
    sim = start(Setup(SQUARE2, RACE, params, engine), [target], Shot("south", speed))
    before = None
    while sim.moving:
        v = sim.velocities()
        sim.step()
        if any(e.type is EventType.CONTACT for e in sim.events):
            before = v
            break
    assert before is not None, "the pawns never met"
    sim.step()  # let the contact finish resolving
    after = sim.velocities()
    pre = np.array([before["south-1"][:2], before["north-1"][:2]])
    post = np.array([after["south-1"][:2], after["north-1"][:2]])
    return pre, post, sim


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("speed", [0.6, 1.0, 1.4])
def test_head_on_hit_restitution_and_momentum(speed: float, engine: str) -> None:
    pre, post, sim = _head_on(speed, engine)
    # relative normal velocity reverses at the configured restitution
    approach = pre[0, 1] - pre[1, 1]
    separation = post[1, 1] - post[0, 1]
    assert separation / approach == pytest.approx(P.restitution_pawn, rel=0.02)
    m = P.pawn_mass
    p_before = m * pre.sum(axis=0)
    p_after = m * post.sum(axis=0)
    assert np.linalg.norm(p_after - p_before) <= 0.01 * np.linalg.norm(p_before)


def _kinetic_trace(sim: Simulation) -> list[float]:
    energies = [sim.kinetic_energy()]
    while sim.moving:
        sim.step()
        energies.append(sim.kinetic_energy())
    return energies


@pytest.mark.parametrize(
    "shot",
    [
        Shot("south", 1.2, 0.02),
        Shot("south", 2.5, -0.05, offset=0.02),
        Shot("south", 3.0, 0.15, offset=-0.03),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_energy_never_rises(shot: Shot, engine: str) -> None:
    table = [
        pawn("north-1", 0.0, 0.0),
        pawn("north-2", 0.03, 0.04),
        pawn("west-1", -0.04, 0.02),
        pawn("east-1", 0.05, -0.03),
        pawn("west-2", 0.0, 0.09),
    ]
    sim = start(Setup(SQUARE4, RACE, engine=engine), table, shot)
    energies = _kinetic_trace(sim)
    assert any(e.type is EventType.CONTACT for e in sim.events)
    rises = np.diff(energies)
    assert rises.max() <= 1e-12 * max(energies)


def _mirror_x(p):
    return pawn(p.id, -p.x, p.y)


@pytest.mark.parametrize(
    "angle,offset,speed", [(3.0, 0.01, 0.9), (-7.0, 0.03, 1.6), (1.0, -0.02, 2.2)]
)
@pytest.mark.parametrize("engine", ENGINES)
def test_mirrored_shots_end_mirrored(
    angle: float, offset: float, speed: float, engine: str
) -> None:
    table = [pawn("north-1", 0.01, 0.02), pawn("west-1", -0.05, 0.06), pawn("east-1", 0.04, -0.05)]
    mirrored_table = [_mirror_x(p) for p in table]
    # mirroring in x swaps west and east
    swap = {"west": "east", "east": "west"}
    mirrored_table = [
        pawn(f"{swap.get(p.seat, p.seat)}-{p.id.rsplit('-', 1)[1]}", p.x, p.y)
        for p in mirrored_table
    ]
    shot = Shot.from_degrees("south", speed, angle, offset=offset)
    a = simulate(Setup(SQUARE4, RACE, engine=engine), table, shot)
    mirrored = Shot.from_degrees("south", speed, -angle, offset=-offset)
    b = simulate(Setup(SQUARE4, RACE, engine=engine), mirrored_table, mirrored)
    for pa in a.pawns:
        seat, n = pa.id.rsplit("-", 1)
        pb = b.pawn(f"{swap.get(seat, seat)}-{n}")
        assert pb.x == pytest.approx(-pa.x, abs=1e-6)
        assert pb.y == pytest.approx(pa.y, abs=1e-6)
        assert pb.status == pa.status


@pytest.mark.parametrize("engine", ENGINES)
def test_same_shot_twice_is_bit_identical(engine: str) -> None:
    table = [pawn("north-1", 0.0, 0.01), pawn("north-2", 0.02, 0.05), pawn("west-1", -0.03, -0.02)]
    shot = Shot.from_degrees("south", 2.0, 1.5, offset=0.004)
    params = P.replace(knock_over_spread=0.005)
    first = simulate(
        Setup(SQUARE4, face("instant-home"), params, engine), table, replace(shot, seed=7)
    )
    for _ in range(3):
        again = simulate(
            Setup(SQUARE4, face("instant-home"), params, engine), table, replace(shot, seed=7)
        )
        assert again.to_json() == first.to_json()


@pytest.mark.parametrize("engine", ENGINES)
def test_seed_drives_the_knock_over_draw(engine: str) -> None:
    table = [pawn("north-1", 0.0, 0.0)]
    params = P.replace(knock_over_spread=0.02, knock_over_impulse=0.02)
    shot = Shot("south", 1.45)
    outcomes = {
        simulate(Setup(SQUARE2, RACE, params, engine), table, replace(shot, seed=s))
        .pawn("north-1")
        .status
        for s in range(40)
    }
    assert outcomes == {Status.KNOCKED_OVER, Status.ON_TARGET} or len(outcomes) == 2


def test_params_print_and_override() -> None:
    params = PhysicsParams.default().with_overrides(["mu_roll=0.08", "iterations=12"])
    assert params.mu_roll == 0.08 and params.iterations == 12
    names = [name for name, _, _, doc in params.describe() if doc]
    assert "mu_roll" in names and "knock_over_impulse" in names
    assert PhysicsParams.from_json(params.to_json()) == params
    assert math.isclose(params.stopping_distance(1.0), 1 / (2 * 0.08 * 9.81))


def test_direct_chipmunk_step_matches_space_step(monkeypatch) -> None:
    """The simulator calls Chipmunk's step directly; pymunk's Space.step must give the same bits."""
    import sliders.physics.pymunk_world as sim_module

    table = [pawn("north-1", 0.0, 0.01), pawn("west-1", 0.02, 0.05), pawn("east-1", -0.03, -0.02)]
    shots = [Shot.from_degrees("south", 2.4, 1.0, offset=0.004), Shot("south", 0.62)]
    home = face("instant-home")
    direct = [simulate(Setup(SQUARE4, home, engine="pymunk"), table, s).to_json() for s in shots]
    monkeypatch.setattr(sim_module, "_DIRECT_STEP", False)
    wrapped = [simulate(Setup(SQUARE4, home, engine="pymunk"), table, s).to_json() for s in shots]
    assert direct == wrapped
    assert any(p["status"] == "knocked_over" for p in direct[0]["pawns"])


def _run(sim: Simulation, coast: bool):
    sim.coast = coast
    sim.run()
    return sim.result()


@pytest.mark.parametrize("seed", range(6))
def test_coasting_lands_where_stepping_does(seed: int) -> None:
    """The pymunk engine's run() moves a lone, freely rolling pawn straight to its stop; stepping
    every step must agree to rounding, with the same statuses and events."""
    rng = np.random.default_rng(seed)
    table = [pawn("north-1", 0.05, 0.06), pawn("west-1", -0.07, -0.02)] if seed % 2 else []
    coasted = off = 0
    for _ in range(25):
        shot = Shot.from_degrees(
            "south",
            float(rng.uniform(0.2, 3.0)),
            float(rng.uniform(-12, 12)),
            offset=float(rng.uniform(-0.04, 0.04)),
        )
        fast = start(Setup(SQUARE4, face("instant-home"), engine="pymunk"), table, shot)
        a = _run(fast, True)
        b = _run(start(Setup(SQUARE4, face("instant-home"), engine="pymunk"), table, shot), False)
        coasted += fast.coasted
        assert [p.status for p in a.pawns] == [p.status for p in b.pawns]
        assert [(e.type, e.pawns) for e in a.events[:-1]] == [
            (e.type, e.pawns) for e in b.events[:-1]
        ]
        for ea, eb in zip(a.events[:-1], b.events[:-1], strict=True):
            assert ea.t == pytest.approx(eb.t, abs=1e-9)
            assert (ea.x, ea.y) == pytest.approx((eb.x, eb.y), abs=1e-12)
        off += fast.coasted and a.pawns[0].status is Status.OFF_BOARD
        # rest ignores spin, so a shot ends when its last pawn stops sliding, coasted or not
        assert a.settle_time == b.settle_time and a.settled == b.settled
        for pa, pb in zip(a.pawns, b.pawns, strict=True):
            assert pa.x == pytest.approx(pb.x, abs=1e-12)
            assert pa.y == pytest.approx(pb.y, abs=1e-12)
    assert coasted > 5  # the shortcut is really taken
    assert off > 0  # ...also for pawns that slide off the table


def _struck_direction_error(touch_time: bool) -> float:
    """The largest error (degrees) over oblique hits of the direction in which the pymunk
    engine sends the struck pawn, against the closed form (line of centres at the touch)."""
    worst = 0.0
    for e in (0.6, 0.85, 1.0):
        for mu in (0.0, 0.2):
            for b in (0.004, 0.012, 0.02):
                for v0 in (0.6, 1.2, 2.4):
                    params = P.replace(restitution_pawn=e, friction_pawn=mu, knock_over_impulse=1)
                    table = [pawn("north-1", 0.0, Y0 + 0.3)]
                    sim = start(
                        Setup(ARENA, RACE, params, "pymunk"), table, Shot("south", v0, offset=b)
                    )
                    sim.touch_time = touch_time
                    sim.run()
                    struck = sim.result().pawn("north-1")
                    v2 = pair_closed_form(v0, b, 0.3, e, mu)[4]
                    moved = math.atan2(struck.x, struck.y - (Y0 + 0.3))
                    worst = max(worst, abs(math.degrees(moved - math.atan2(*v2))))
    return worst


def test_a_struck_pawn_leaves_along_the_line_of_centres_at_the_touch() -> None:
    """Each new contact is met where the pawns first touched within the step, not where the
    step found them pressed together: the struck pawn's direction matches the closed form to
    a tenth of a degree at the default step, over restitutions, frictions, offsets and speeds
    up to 2.4 m/s; resolved where the step finds it, it is off by degrees."""
    assert _struck_direction_error(touch_time=True) < 0.1
    assert _struck_direction_error(touch_time=False) > 2.0


def _end_cap_direction_error(touch_time: bool) -> float:
    """The largest error (degrees), over offsets and speeds, of the direction in which a pawn
    leaves the round end of a rail, against the closed form."""
    h, r = 0.003, P.pawn_radius
    rail = Rail((0.0, Y0 + 0.4), (0.0, Y0 + 3.0), 2 * h)
    params = P.replace(friction_rail=0.0, knock_over_impulse=1.0)
    e, rho = params.restitution_rail, r + h
    worst = 0.0
    for b in (0.005, 0.009, 0.012):
        for v0 in (0.8, 1.6, 2.4):
            sim = start(
                Setup(arena(rails=(rail,)), RACE, params, "pymunk"), [], Shot("south", v0, offset=b)
            )
            sim.touch_time = touch_time
            sim.run()
            (p,) = sim.result().pawns
            yc = Y0 + 0.4 - math.sqrt(rho * rho - b * b)
            vc = math.sqrt(v0 * v0 - 2 * A * (yc - Y0))
            nx, ny = -b / rho, (Y0 + 0.4 - yc) / rho
            after = (-(1 + e) * vc * ny * nx, vc - (1 + e) * vc * ny * ny)
            moved = math.atan2(p.x - b, p.y - yc)
            worst = max(worst, abs(math.degrees(moved - math.atan2(*after))))
    return worst


def test_a_pawn_leaves_a_rail_end_from_where_it_touched() -> None:
    """Met where it touched, the bounce off a rail's round end goes the closed form's way to
    within the rolling friction's pull over the contact's step (μg·dt over the speed: 0.15° at
    0.8 m/s); resolved where the step finds the pawn pressed into the rail, by tens of degrees."""
    assert _end_cap_direction_error(touch_time=True) < 0.2
    assert _end_cap_direction_error(touch_time=False) > 1.0


@pytest.mark.parametrize("seed", range(4))
def test_stepping_frame_by_frame_gives_runs_result_to_the_bit(seed: int) -> None:
    """``step()`` (the window, a replay) follows the closed-form finish ``run()`` takes for a lone
    rolling pawn: the same result to the bit, and every frame of the coast on the pawn's path,
    slowing down."""
    rng = np.random.default_rng(100 + seed)
    table = [pawn("north-1", 0.05, 0.06), pawn("west-1", -0.07, -0.02)] if seed % 2 else []
    setup = Setup(SQUARE4, face("instant-home"), engine="pymunk")
    coasted = 0
    for _ in range(20):
        shot = Shot.from_degrees(
            "south",
            float(rng.uniform(0.2, 3.0)),
            float(rng.uniform(-12, 12)),
            offset=float(rng.uniform(-0.04, 0.04)),
        )
        ran = start(setup, table, shot)
        ran.run()
        stepped = start(setup, table, shot)
        speeds: list[float] = []
        while stepped.moving:
            stepped.step()
            if stepped._coasting is not None:
                vx, vy, _ = stepped.velocities()[stepped._coasting.pawn.id]
                speeds.append(math.hypot(vx, vy))
        assert stepped.result() == ran.result()
        assert stepped.coasted == ran.coasted and stepped.steps == ran.steps
        coasted += ran.coasted
        assert speeds == sorted(speeds, reverse=True)  # the shown coast slows down
    assert coasted > 3

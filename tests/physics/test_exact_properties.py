"""The exact engine's invariants: momentum, energy, symmetry, determinism, no tunnelling, one status
per pawn, termination of clusters, the hole and knock-over rules."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sliders.boards import face, overlaps_rail
from sliders.core.outcome import EventType, PawnRest, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Shot
from sliders.physics.exact import ExactSimulation, simulate_exact
from sliders.physics.exact.state import COLLAPSE

from .test_exact_closed_forms import ARENA, RACE, Y0, arena, pawn

P = PhysicsParams.default()
R = P.pawn_radius
SQUARE4 = square("south,west,north,east")
HOME = face("instant-home")
SEATS = ("south", "west", "north", "east")


def crowd(rng: np.random.Generator, count: int, spread: float = 0.1) -> list[PawnRest]:
    """``count`` pawns at rest on the board, apart, none on the south lane's axis near the mouth."""
    placed: list[PawnRest] = []
    used = dict.fromkeys(SEATS, 0)
    while len(placed) < count:
        x, y = (float(v) for v in rng.uniform(-spread, spread, 2))
        if any(math.hypot(x - q.x, y - q.y) < 2 * R + 1e-6 for q in placed):
            continue
        seat = next(s for s in SEATS if used[s] < (3 if s == "south" else 4))
        used[seat] += 1
        placed.append(
            PawnRest(
                f"{seat}-{used[seat] + (1 if seat == 'south' else 0)}", seat, x, y, Status.ON_TARGET
            )
        )
    return placed


def test_momentum_is_conserved_in_pawn_hits() -> None:
    """Without rolling resistance or rails, a cluster break keeps its total momentum."""
    params = P.replace(mu_roll=1e-12, knock_over_impulse=10.0, max_time=2.0)
    rng = np.random.default_rng(4)
    layout = arena(width=20.0, length=40.0)
    y0 = layout.seats[0].near[1] + 1.0
    table = [pawn(f"north-{i + 1}", float(x), float(y0 + 0.3 + y))
             for i, (x, y) in enumerate([(0.0, 0.0), (0.013, 0.025), (-0.012, 0.026), (0.0, 0.06)])]  # fmt: skip
    for _ in range(5):
        shot = Shot("south", float(rng.uniform(0.5, 2.0)), offset=float(rng.uniform(-0.01, 0.01)))
        sim = ExactSimulation(layout, RACE, table, shot, params)
        sim.run_until(1.0)
        assert sum(ev.type is EventType.CONTACT for ev in sim.events) >= 2
        vs = np.array([v[:2] for v in sim.velocities().values()])
        # exact but for pawns left slower than V_REST (1e-6 m/s), which stop
        assert np.allclose(vs.sum(axis=0), (0.0, shot.speed), rtol=0, atol=5e-6)


@pytest.mark.parametrize("seed", range(6))
def test_energy_never_rises(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = crowd(rng, 12)
    shot = Shot.from_degrees("south", float(rng.uniform(0.8, 3.0)), float(rng.uniform(-4, 4)))
    sim = ExactSimulation(SQUARE4, RACE, table, shot, P.replace(dt=1 / 500))
    last = sim.kinetic_energy()
    while sim.moving:
        sim.step()
        now = sim.kinetic_energy()
        assert now <= last * (1 + 1e-12) + 1e-18
        last = now


def _mirror(p: PawnRest) -> PawnRest:
    seat = {"west": "east", "east": "west"}.get(p.seat, p.seat)
    return PawnRest(seat + p.id[len(p.seat) :], seat, -p.x, p.y, p.status)


@pytest.mark.parametrize("seed", range(4))
def test_mirror_symmetry(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = crowd(rng, 8)
    mirrored = [_mirror(q) for q in table]
    v, a, b = (
        float(rng.uniform(0.6, 2.0)),
        float(rng.uniform(-3, 3)),
        float(rng.uniform(-0.03, 0.03)),
    )
    one = simulate_exact(SQUARE4, RACE, table, Shot.from_degrees("south", v, a, offset=b))
    two = simulate_exact(SQUARE4, RACE, mirrored, Shot.from_degrees("south", v, -a, offset=-b))
    for p, q in zip(one.pawns, two.pawns, strict=True):
        assert p.status == q.status
        assert p.x == pytest.approx(-q.x, abs=1e-9) and p.y == pytest.approx(q.y, abs=1e-9)


_RERUN = """
import numpy as np
from sliders.boards import face
from sliders.files.layouts import square
from sliders.core.outcome import PawnRest, Status
from sliders.physics import Shot
from sliders.physics.exact import simulate_exact
rng = np.random.default_rng(7)
table = [PawnRest(f"north-{i+1}", "north", float(x), float(y), Status.ON_TARGET)
         for i, (x, y) in enumerate([(0.0, 0.0), (0.02, 0.03), (-0.03, 0.05), (0.0, 0.08)])]
r = simulate_exact(square("south,west,north,east"), face("race-for-home"), table,
                   Shot.from_degrees("south", 1.7, 0.4, offset=0.004))
print(repr(r))
"""


def test_reruns_are_bit_identical_in_any_process() -> None:
    """A fresh process (its own hash seed, nothing run before) and this one, which has run
    other shots, print the same result to the last digit."""
    there = subprocess.run(
        [sys.executable, "-c", _RERUN], capture_output=True, text=True, check=True
    )
    ns: dict[str, object] = {}
    exec(_RERUN.replace("print(repr(r))", "out = repr(r)"), ns)
    assert ns["out"] == there.stdout.strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    count=st.integers(2, 15),
    speed=st.floats(0.05, 3.0),
    angle=st.floats(-20, 20),
    e=st.floats(0.05, 1.0),
    mu=st.floats(0.0, 1.0),
)
@example(seed=14, count=14, speed=1.0, angle=4.0, e=0.0625, mu=0.0)  # an inelastic collapse
def test_no_tunnelling_no_overlap_one_status_each(seed, count, speed, angle, e, mu) -> None:
    rng = np.random.default_rng(seed)
    table = crowd(rng, count, spread=0.06)
    params = P.replace(
        restitution_pawn=e, restitution_rail=e, friction_pawn=mu, friction_rail=mu, dt=1 / 120
    )
    sim = ExactSimulation(SQUARE4, RACE, table, Shot.from_degrees("south", speed, angle), params)
    while sim.moving:
        sim.step()
        where = list(sim.positions().values())
        for i, (x, y, _) in enumerate(where):
            assert not overlaps_rail(SQUARE4, x, y, R, tolerance=1e-9)
            for x2, y2, _ in where[i + 1 :]:
                assert math.hypot(x - x2, y - y2) >= 2 * R - 1e-9
    assert sim.settled
    result = sim.result()
    ids = [p.id for p in result.pawns]
    assert ids == sim.order and len(set(ids)) == len(ids)
    assert all(isinstance(p.status, Status) for p in result.pawns)


def test_an_inelastic_collapse_ends_with_the_crowd_moving_on_together() -> None:
    """Nearly inelastic, frictionless pawns pressed together hit each other again and again at
    one instant; after COLLAPSE contacts there, the pawns involved move on together: the shot
    settles within a few hundred events, energy never rising (it ran to the event limit
    before)."""
    table = crowd(np.random.default_rng(14), 14, spread=0.06)
    params = P.replace(
        restitution_pawn=0.0625, restitution_rail=0.0625, friction_pawn=0.0, friction_rail=0.0
    )
    sim = ExactSimulation(SQUARE4, RACE, table, Shot.from_degrees("south", 1.0, 4.0), params)
    last = sim.kinetic_energy()
    while sim.moving:
        sim.step()
        assert sim.kinetic_energy() <= last * (1 + 1e-12) + 1e-18
        last = sim.kinetic_energy()
    assert sim.settled and sim.solved < 2_000
    at_once = max(Counter(e.t for e in sim.events if e.type is EventType.CONTACT).values())
    assert COLLAPSE < at_once < 2 * COLLAPSE  # it happened, and was ended soon after


def test_a_pawn_pinned_against_a_rail_and_a_touching_cluster_terminate() -> None:
    # north blocker rail of the 2-seat square is at y = 0.13 + 0.003 (inner face at 0.13)
    layout = square("south,north")
    y_top = 0.13 - R
    table = [pawn("north-1", 0.0, y_top), pawn("north-2", 0.0, y_top - 2 * R),
             pawn("north-3", 2 * R, y_top), pawn("north-4", -2 * R, y_top - 2 * R)]  # fmt: skip
    for speed in (0.3, 1.0, 2.0, 3.0):
        sim = ExactSimulation(layout, RACE, table, Shot("south", speed))
        sim.run()
        assert sim.settled
        where = list(sim.positions().values())
        for i, (x, y, _) in enumerate(where):
            assert not overlaps_rail(layout, x, y, R, tolerance=1e-9)
            for x2, y2, _ in where[i + 1 :]:
                assert math.hypot(x - x2, y - y2) >= 2 * R - 1e-9


# -- the hole ---------------------------------------------------------------------------------------

HOME2 = square("south,north")
FOUL_Y = HOME2.seats[0].near[1] + HOME2.seats[0].foul
A = P.mu_roll * P.g


def speed_to(y: float) -> float:
    return math.sqrt(2 * A * (y - FOUL_Y))


def test_a_pawn_stopping_with_its_base_in_the_hole_drops_in() -> None:
    result = simulate_exact(HOME2, HOME, [], Shot("south", speed_to(0.001)))
    (p,) = result.pawns
    assert p.status is Status.IN_HOLE
    assert [e.type for e in result.events].count(EventType.IN_HOLE) == 1


def test_a_grazing_chord_does_not_capture() -> None:
    """The centre crosses the hole's disc but never the capture disc: no drop, a small slowdown."""
    off = 0.008  # between rc = 2.5 mm and R = 15 mm
    result = simulate_exact(HOME2, HOME, [], Shot("south", speed_to(0.2), offset=off))
    (p,) = result.pawns
    assert p.status is not Status.IN_HOLE
    assert p.y < 0.2 - 1e-3  # it lost speed climbing out


def test_a_fast_pawn_crosses_the_hole_with_the_documented_loss() -> None:
    """Straight over the centre: the ball dips min(h, g·τ²/2) and the normal speed drops to
    sqrt(v_n² − 2·g·d)."""
    v0 = 0.75
    result = simulate_exact(HOME2, HOME, [], Shot("south", v0))
    (p,) = result.pawns
    assert p.status is not Status.IN_HOLE
    h = 0.005
    R_h = HOME.hole_radius
    y_in = -R_h
    v_in = math.sqrt(v0 * v0 - 2 * A * (y_in - FOUL_Y))
    tau = (v_in - math.sqrt(v_in * v_in - 2 * A * 2 * R_h)) / A
    v_out = math.sqrt(v_in * v_in - 2 * A * 2 * R_h)
    dip = min(h, 0.5 * P.g * tau * tau)
    v_after = math.sqrt(v_out * v_out - 2 * P.g * dip)
    assert p.y == pytest.approx(R_h + v_after * v_after / (2 * A), rel=1e-9)


def test_a_slow_pawn_cannot_climb_out_and_drops() -> None:
    result = simulate_exact(HOME2, HOME, [], Shot("south", speed_to(0.05)))
    (p,) = result.pawns
    assert p.status is Status.IN_HOLE


# -- knock-over -------------------------------------------------------------------------------------


def _head_on_impulse(v0: float, gap: float, e: float) -> float:
    vc = math.sqrt(v0 * v0 - 2 * A * (gap - 2 * R))
    return 0.5 * P.pawn_mass * (1 + e) * vc


def test_knock_over_thresholds_depend_on_each_pawns_state() -> None:
    gap = 0.3
    j = _head_on_impulse(1.5, gap, P.restitution_pawn)
    table = [pawn("north-1", 0.0, Y0 + gap)]
    # between K and 1.5·K: the still target topples, the moving shooter stands
    params = (
        P.replace(knock_over_impulse=j / 1.2, knock_over_moving_factor=1.5)
        if hasattr(P, "knock_over_moving_factor")
        else P.replace(knock_over_impulse=j / 1.2)
    )
    result = simulate_exact(ARENA, RACE, table, Shot("south", 1.5), params)
    shooter, target = result.pawns
    assert target.status is Status.KNOCKED_OVER and shooter.status is not Status.KNOCKED_OVER
    # above 1.5·K both topple
    params = params.replace(knock_over_impulse=j / 2)
    result = simulate_exact(ARENA, RACE, table, Shot("south", 1.5), params)
    assert all(p.status is Status.KNOCKED_OVER for p in result.pawns)
    kinds = [e.type for e in result.events]
    assert kinds.count(EventType.KNOCKED_OVER) == 2
    assert kinds.index(EventType.CONTACT) < kinds.index(EventType.KNOCKED_OVER)


def test_a_toppled_pawn_passes_its_momentum_on() -> None:
    """The struck pawn topples, but the contact is resolved first: the shooter keeps only its
    share of the speed, as it would if nothing toppled."""
    gap = 0.3
    j = _head_on_impulse(1.5, gap, P.restitution_pawn)
    table = [pawn("north-1", 0.0, Y0 + gap)]
    standing = simulate_exact(
        ARENA, RACE, table, Shot("south", 1.5), P.replace(knock_over_impulse=10.0)
    )
    toppled = simulate_exact(
        ARENA, RACE, table, Shot("south", 1.5), P.replace(knock_over_impulse=j * 0.9)
    )
    assert toppled.pawns[1].status is Status.KNOCKED_OVER
    assert toppled.pawns[0].y == pytest.approx(standing.pawns[0].y, rel=1e-12)


def test_a_hard_rail_hit_topples() -> None:
    from sliders.boards import Rail

    h = 0.003
    rail = Rail((-1.0, Y0 + 0.3 + h), (1.0, Y0 + 0.3 + h), 2 * h)
    vc = math.sqrt(2.0**2 - 2 * A * (0.3 - R))
    j = P.pawn_mass * (1 + P.restitution_rail) * vc
    layout = arena(rails=(rail,))
    soft = simulate_exact(layout, RACE, [], Shot("south", 2.0), P.replace(knock_over_impulse=j * 2))
    hard = simulate_exact(layout, RACE, [], Shot("south", 2.0), P.replace(knock_over_impulse=j / 2))
    assert soft.pawns[0].status is not Status.KNOCKED_OVER
    assert hard.pawns[0].status is Status.KNOCKED_OVER


def test_a_seeded_spread_draws_deterministically() -> None:
    rng = np.random.default_rng(2)
    table = crowd(rng, 10)
    params = P.replace(knock_over_spread=0.005, knock_over_impulse=0.01)
    shot = Shot("south", 2.0)
    runs = [simulate_exact(SQUARE4, RACE, table, shot, params, seed=s) for s in (1, 1, 2, 3, 4)]
    assert runs[0] == runs[1]
    assert len({tuple(p.status for p in r.pawns) for r in runs}) > 1


def test_a_table_that_cannot_stand_is_refused_as_check_pawns_refuses_it() -> None:
    """The placement fast path never lets through what boards.geometry.check_pawns refuses."""
    from sliders.core.errors import UserError

    good = [pawn("north-1", 0.0, 0.0), pawn("north-2", 0.05, 0.0)]
    simulate_exact(SQUARE4, RACE, good, Shot("south", 0.3))  # the ids are now known
    bad_tables = {
        "overlap": [pawn("north-1", 0.0, 0.0), pawn("north-2", 2 * R - 1e-6, 0.0)],
        "not on the table": [pawn("north-1", 0.0, 0.0), pawn("north-2", 0.5, 0.5)],
        "overlaps a rail": [pawn("north-1", 0.0, 0.0), pawn("north-2", 0.055 - R + 1e-4, -0.3)],
    }
    for what, table in bad_tables.items():
        with pytest.raises(
            UserError, match=what if what != "not on the table" else "is not on the table"
        ):
            simulate_exact(SQUARE4, RACE, table, Shot("south", 0.3))
    # touching exactly (within the tolerance) stands
    simulate_exact(
        SQUARE4, RACE, [pawn("north-1", 0.0, 0.0), pawn("north-2", 2 * R, 0.0)], Shot("south", 0.3)
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), face_name=st.sampled_from(["race-for-home", "instant-home"]))
def test_any_legal_parameters_give_a_sound_shot(seed: int, face_name: str) -> None:
    """Parameters drawn over their whole legal ranges: no exception, finite places, no pawn in a
    rail or another beyond the tolerance, and a time-out reported as such."""
    rng = np.random.default_rng(seed)

    def log_uniform(lo: float, hi: float) -> float:
        return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))

    params = P.replace(
        g=float(rng.uniform(1.0, 30.0)),
        mu_roll=log_uniform(0.005, 1.0),
        spin_damping_torque=log_uniform(1e-9, 1e-2),
        pawn_radius=float(rng.uniform(0.008, 0.02)),
        pawn_mass=log_uniform(0.001, 1.0),
        restitution_pawn=float(rng.uniform(1e-3, 1.0)),
        restitution_rail=float(rng.uniform(1e-3, 1.0)),
        friction_pawn=float(rng.uniform(0.0, 2.0)),
        friction_rail=float(rng.uniform(0.0, 2.0)),
        knock_over_impulse=log_uniform(1e-4, 1.0),
        knock_over_moving_factor=float(rng.uniform(1.0, 10.0)),
        knock_over_spread=float(rng.choice([0.0, log_uniform(1e-5, 1.0)])),
        hole_drop_height=float(rng.uniform(1e-4, 0.05)),
        max_speed=10.0,
        dt=1e-4,  # the check's pymunk bound max_speed·dt <= r (the exact engine has no step)
        max_time=float(rng.choice([0.5, 60.0])),
    )
    params.check()
    r = params.pawn_radius
    placed: list[PawnRest] = []
    ids = [f"{s}-{k}" for s in ("west", "north", "east") for k in range(1, 5)]
    while len(placed) < int(rng.integers(1, 12)):
        x, y = (float(v) for v in rng.uniform(-0.08, 0.08, 2))
        if all(math.hypot(x - q.x, y - q.y) > 2 * r + 1e-6 for q in placed):
            placed.append(pawn(ids[len(placed)], x, y))
    shot = Shot.from_degrees("south", float(rng.uniform(0.05, 10.0)), float(rng.uniform(-30, 30)))
    sim = ExactSimulation(SQUARE4, face(face_name), placed, shot, params, seed=seed)
    sim.run()
    result = sim.result()
    assert result.settled == sim.settled
    assert result.events[-1].type is (EventType.SETTLED if sim.settled else EventType.TIMED_OUT)
    if not sim.settled:
        assert sim.t <= params.max_time
    where = list(sim.positions().values())
    for i, (x, y, th) in enumerate(where):
        assert math.isfinite(x) and math.isfinite(y) and math.isfinite(th)
        assert not overlaps_rail(SQUARE4, x, y, r, tolerance=1e-9)
        for x2, y2, _ in where[i + 1 :]:
            assert math.hypot(x - x2, y - y2) >= 2 * r - 1e-9


@pytest.mark.parametrize("speed", [0.5, 1.0, 1.5, 3.0])
def test_a_pawn_sliding_along_a_rail_past_its_end_goes_on(speed: float) -> None:
    """Released at the widest offset, touching a side rail, a pawn slides along it and past its
    round end at the lane's mouth: one event or two, settled — not a contact found again at the
    same instant until the event cap (as it once was: 200,000 events, a time-out at the mouth)."""
    from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout

    for name in BUILTIN_LAYOUTS:
        layout = load_layout(name)
        for seat in layout.seats:
            limit = seat.width / 2 - R
            for offset in (limit, -limit):
                shot = Shot(seat.name, speed, offset=offset)
                sim = ExactSimulation(layout, face(layout.face), [], shot, P, 0)
                sim.run()
                assert sim.settled and sim.solved < 20, (name, seat.name, offset, sim.solved)
                end = sim.result().pawns[0]
                assert end.status is not Status.TIPPING or abs(end.y) > 0.1, (name, end)

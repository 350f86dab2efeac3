"""A shot's legal ranges are one definition: every entry that refuses a shot refuses exactly
outside them, every entry that clips a shot clips exactly onto them."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.batch import Design, Study, empty_scene, run_study
from sliders.boards import face
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.files.layouts import load_layout
from sliders.game import legal_shot
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.physics import (
    Noise,
    PhysicsParams,
    Setup,
    Shot,
    ShotLimits,
    shot_limits,
    start,
)
from sliders.physics.limits import MAX_ANGLE, MAX_ANGLE_DEG, MIN_SPEED, QUANTITIES
from sliders.physics.noise import apply_errors
from sliders.rules import new_game
from sliders.scenes.table import Flick, Match

P = PhysicsParams.default()
LAYOUT = load_layout("square", ("south", "north"))
FACE = face("race-for-home")
LIMITS = shot_limits(LAYOUT, "south", P)
NUDGE = 1e-6
"""how far beyond a bound a refused value lies (well above the checks' rounding allowance)"""


def _edges() -> list[tuple[str, float, float]]:
    """(quantity, a bound, the value just beyond it) for every bound a check enforces."""
    out = []
    for q in QUANTITIES:
        lo, hi = LIMITS.bounds(q)
        out.append((q, lo, lo - NUDGE if q != "speed" else lo / 2))
        if q != "release":  # beyond the foul line is a foul, not an error
            out.append((q, hi, hi + NUDGE))
    return out


EDGES = _edges()
MIDDLE = {"speed": 0.3, "angle": 0.0, "offset": 0.0, "release": LIMITS.foul}


def _shot(quantity: str, value: float) -> Shot:
    values = {**MIDDLE, quantity: value}
    return Shot("south", values["speed"], values["angle"], values["offset"], values["release"])


def test_the_limits_of_the_square_lane() -> None:
    r = P.pawn_radius
    assert LIMITS == ShotLimits.of(LAYOUT.seat("south"), P)
    assert LIMITS.bounds("speed") == (MIN_SPEED, P.max_speed)
    assert LIMITS.bounds("angle") == (-MAX_ANGLE, MAX_ANGLE) and MAX_ANGLE_DEG == 89
    assert LIMITS.bounds("offset") == (-(0.11 / 2 - r), 0.11 / 2 - r)
    assert LIMITS.bounds("release") == (r, 0.16)
    with pytest.raises(ValueError, match="unknown quantity"):
        LIMITS.bounds("spin")


@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_check_accepts_each_bound_and_refuses_just_beyond(quantity, bound, beyond) -> None:
    LIMITS.check(_shot(quantity, bound))
    with pytest.raises(UserError, match=f"^{quantity} .* (is impossible|outside|behind)"):
        LIMITS.check(_shot(quantity, beyond))
    with pytest.raises(UserError):
        LIMITS.check(_shot(quantity, math.nan))


def test_a_lane_narrower_than_a_pawn_refuses_every_offset() -> None:
    narrow = replace(LAYOUT.seat("south"), width=P.pawn_radius)
    with pytest.raises(UserError, match="wider than south's lane"):
        ShotLimits.of(narrow, P).check(Shot("south", 0.5))


@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_the_shot_command_refuses_exactly_beyond_each_bound(
    capsys, quantity, bound, beyond
) -> None:
    def argv(value: float) -> list[str]:
        v = math.degrees(value) if quantity == "angle" else value
        flags = {**MIDDLE, "angle": 0.0, quantity: v}
        return ["shot", "--seats", "south,north", "--speed", f"{flags['speed']!r}",
                "--angle", f"{flags['angle']!r}", "--offset", f"{flags['offset']!r}",
                "--release", f"{flags['release']!r}"]  # fmt: skip

    assert main(argv(beyond)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--{quantity} " in err, err
    assert main([*argv(bound), "--json"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_batch_grids_refuse_exactly_beyond_each_bound(quantity, bound, beyond) -> None:
    def design(value: float) -> Design:
        v = math.degrees(value) if quantity == "angle" else value
        lo, hi = sorted((v, MIDDLE[quantity]))
        spec = {k: repr(x) for k, x in MIDDLE.items()}
        return Design.grid(**{**spec, quantity: f"{lo!r}:{hi!r}:2"})

    with pytest.raises(UserError, match=f"^--{quantity} "):
        Study.create(empty_scene(), "south", design(beyond))
    Study.create(empty_scene(), "south", design(bound))


@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_the_exact_batch_refuses_exactly_beyond_each_bound(quantity, bound, beyond) -> None:
    from sliders.physics.exact.batch import simulate_batch

    def run(value: float) -> None:
        s = _shot(quantity, value)
        simulate_batch(LAYOUT, FACE, (), "south", np.array([s.speed]), np.array([s.angle]),
                       np.array([s.offset]), np.array([s.release]), P)  # fmt: skip

    run(bound)
    with pytest.raises(UserError, match=f"^{quantity} "):
        run(beyond)


@pytest.mark.parametrize("engine", ["pymunk", "exact"])
@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_both_engines_accept_every_bound(engine, quantity, bound, beyond) -> None:
    shot = _shot(quantity, bound)
    launch = start(Setup(LAYOUT, FACE, P, engine), (), replace(shot, seed=0)).velocities()
    reference = start(Setup(LAYOUT, FACE, P, "exact"), (), replace(shot, seed=0)).velocities()
    ((vx, vy, _),) = launch.values()
    assert list(launch) == ["south-1"]
    assert math.hypot(vx, vy) == pytest.approx(shot.speed, rel=1e-12)
    assert launch["south-1"][:2] == pytest.approx(reference["south-1"][:2], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("engine", ["pymunk", "exact"])
@pytest.mark.parametrize(("quantity", "bound", "beyond"), EDGES)
def test_both_engines_refuse_exactly_beyond_each_bound(engine, quantity, bound, beyond) -> None:
    with pytest.raises(UserError, match=f"^{quantity} "):
        start(Setup(LAYOUT, FACE, P, engine), (), replace(_shot(quantity, beyond), seed=0))


BIG = np.array([50.0, 10.0, 10.0, 10.0])
"""errors far larger than any range: every executed value lands on a bound"""


def test_the_noise_clips_onto_the_bounds() -> None:
    shot = Shot("south", 0.5, 0.0, 0.0, 0.1)
    high = apply_errors(shot, BIG, LAYOUT.seat("south"), P)
    assert (high.speed, high.angle, high.offset) == (P.max_speed, MAX_ANGLE, LIMITS.max_offset)
    assert high.release == 10.1  # pushed past the foul line: a foul, not clipped
    low = apply_errors(shot, np.array([-2.0, -10.0, -10.0, -10.0]), LAYOUT.seat("south"), P)
    assert (low.speed, low.angle, low.offset, low.release) == (
        MIN_SPEED, -MAX_ANGLE, -LIMITS.max_offset, LIMITS.min_release,
    )  # fmt: skip


def test_the_batch_clips_executed_shots_onto_the_same_bounds() -> None:
    noise = Noise(speed_rel=5.0, angle_deg=500.0, offset=1.0)
    study = Study.create(empty_scene(), "south", Design.grid(speed="0.5"), samples=30,
                         noise=noise, seed=3, engine="exact")  # fmt: skip
    t = run_study(study, workers=1).table
    speed, angle, offset = t["exec_speed"], t["exec_angle"], t["exec_offset"]
    assert speed.max() == P.max_speed and speed.min() == MIN_SPEED
    assert np.isclose(np.abs(angle).max(), MAX_ANGLE_DEG, rtol=0, atol=1e-12)
    assert np.abs(angle).max() <= MAX_ANGLE_DEG + 1e-12
    assert np.abs(offset).max() == LIMITS.max_offset


def _match() -> Match:
    return Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1))


def test_the_window_clips_a_flick_and_a_held_pawn_onto_the_bounds() -> None:
    match = _match()
    assert match.limits("south") == LIMITS
    wide = match.flick_shot(Flick("south", "south-1", 0.1, 0.0, 0.05, 80.0))
    assert wide is not None and (wide.speed, wide.angle) == (P.max_speed, MAX_ANGLE)
    wide = match.flick_shot(Flick("south", "south-1", 0.1, 0.0, 0.05, -80.0))
    assert wide is not None and wide.angle == -MAX_ANGLE
    assert match.clamp_hold("south", -1.0, 1.0) == (LIMITS.min_release, LIMITS.max_offset)
    assert match.clamp_hold("south", 1.0, -1.0) == (LIMITS.foul, -LIMITS.max_offset)
    for shot in (_shot(q, b) for q, b, _ in EDGES):
        assert match.clamp_hold("south", shot.release, shot.offset) == (shot.release, shot.offset)


def test_programs_shots_are_clipped_onto_the_same_bounds() -> None:
    state = new_game("race-for-home", ("south", "north"))
    far = legal_shot(Shot("south", 99.0, 3.0, 1.0, -1.0, "south-1"), state, LAYOUT, P)
    assert (far.speed, far.angle, far.offset, far.release) == (
        P.max_speed, MAX_ANGLE, LIMITS.max_offset, LIMITS.min_release,
    )  # fmt: skip
    near = legal_shot(Shot("south", 0.0, -3.0, -1.0, 9.0, "south-1"), state, LAYOUT, P)
    assert (near.speed, near.angle, near.offset, near.release) == (
        MIN_SPEED, -MAX_ANGLE, -LIMITS.max_offset, None,
    )  # fmt: skip
    for q, bound, _ in EDGES:
        shot = replace(_shot(q, bound), pawn="south-1")
        kept = legal_shot(shot, state, LAYOUT, P)
        assert getattr(kept, q) == (None if q == "release" and bound == LIMITS.foul else bound)


def test_the_environments_action_space_is_the_limits() -> None:
    pytest.importorskip("gymnasium")
    from sliders.env.observation import action_bounds

    low, high = action_bounds(LAYOUT, "south", P)
    want = [LIMITS.bounds(q) for q in QUANTITIES]
    np.testing.assert_array_equal(low, np.array([w[0] for w in want], dtype=np.float32))
    np.testing.assert_array_equal(high, np.array([w[1] for w in want], dtype=np.float32))

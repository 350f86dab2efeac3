"""Parameters that cannot break the model: every one has a legal range, values outside it are
refused in one line (exit 2), and values at its edges work. Also the engine switch."""

from __future__ import annotations

import json
import math

import pytest

from sliders.core.errors import UserError
from sliders.core.outcome import EventType, Status
from sliders.files.layouts import square
from sliders.physics import (
    DEFAULT_ENGINE,
    ENGINES,
    PhysicsParams,
    Setup,
    Shot,
    Simulation,
    simulate,
    start,
)
from sliders.physics.params import MAX_STEPS, ranges

from ..helpers import run_main
from .helpers import RACE, SQUARE2, pawn

P = PhysicsParams.default()
R = P.pawn_radius


# the values the issue found breaking the model: each is refused in one line naming its range
REFUSED = [
    ("restitution_pawn=0", "restitution_pawn"),
    ("restitution_rail=0", "restitution_rail"),
    ("spin_damping_torque=0", "spin_damping_torque"),
    ("max_time=1e308", "max_time"),
    ("max_time=1e-300", "max_time"),
    ("dt=1e-320", "dt"),
    ("iterations=1e20", "iterations"),
    ("rest_check_steps=1000000000000", "rest_check_steps"),
    ("pawn_mass=1e300", "pawn_mass"),
    ("friction_pawn=inf", "friction_pawn"),
    ("friction_rail=nan", "friction_rail"),
    ("friction_pawn=-0.1", "friction_pawn"),
    ("mu_roll=0", "mu_roll"),
    ("hole_drop_height=0", "hole_drop_height"),
    ("knock_over_moving_factor=0.5", "knock_over_moving_factor"),
    ("dt=0.0001 max_time=600", "max_time/dt"),
]


@pytest.mark.parametrize("item,name", REFUSED)
@pytest.mark.parametrize("command", ["params", "shot"])
def test_values_outside_the_legal_range_are_refused_in_one_line(
    capsys, command: str, item: str, name: str
) -> None:
    argv = [command]
    for one in item.split():
        argv += ["--param", one]
    if command == "shot":
        argv += ["--speed", "0.6"]
    if command == "params":
        argv += ["--json"]
    code, out, err = run_main(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and name in err, err
    if "·" not in name and "/" not in name and "iterations" not in name:
        assert str(ranges()[name]) in err or "whole number" in err


def test_every_default_is_legal_and_every_range_is_documented() -> None:
    P.check()
    for name, value, legal, doc in P.describe():
        assert value in legal, name
        assert doc, name
        assert math.isfinite(legal.lo) and math.isfinite(legal.hi) and legal.lo < legal.hi


def test_friction_pawn_zero_leaves_rail_friction_alone() -> None:
    """Each pair's coefficient is its own: a spinning-free slide along a rail at an angle loses
    the same to the rail whatever the pawns' rim friction is."""
    shot = Shot.from_degrees("south", 1.2, 25.0, offset=0.02)
    a = simulate(Setup(SQUARE2, RACE, P.replace(friction_pawn=0.0)), [], shot)
    b = simulate(Setup(SQUARE2, RACE, P.replace(friction_pawn=0.5)), [], shot)
    c = simulate(Setup(SQUARE2, RACE, P.replace(friction_rail=0.0)), [], shot)
    assert any(e.type is EventType.RAIL for e in a.events)
    assert (a.pawns[0].x, a.pawns[0].y) == (b.pawns[0].x, b.pawns[0].y)
    assert (a.pawns[0].x, a.pawns[0].y) != (c.pawns[0].x, c.pawns[0].y)


def test_params_json_shows_ranges_and_engines_and_stays_valid_json(capsys) -> None:
    code, out, _ = run_main(capsys, "params", "--json")
    assert code == 0
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert data["engine"]["default"] == DEFAULT_ENGINE and data["engine"]["choices"] == [
        "exact",
        "pymunk",
    ]
    assert set(data["ranges"]) == set(data["physics"])
    assert data["ranges"]["restitution_pawn"] == {
        "min": 0.0,
        "max": 1.0,
        "min_open": True,
        "max_open": False,
    }
    code, text, _ = run_main(capsys, "params")
    assert "(0, 1]" in text and f"engine: {DEFAULT_ENGINE}" in text and "max_time/dt" in text


def test_every_printed_bound_is_accepted_alone_and_combined_limits_name_both() -> None:
    """A bound ``sliders params`` prints is legal with every other parameter at its default
    (rounded inward where six digits cannot show it); the one combined limit names both."""
    for name, legal in ranges().items():
        lo, hi = str(legal)[1:-1].split(", ")
        for text, is_open in ((lo, legal.lo_open), (hi, legal.hi_open)):
            if not is_open:
                whole = isinstance(getattr(P, name), int)
                P.replace(**{name: int(float(text)) if whole else float(text)}).check()
    assert str(ranges()["dt"]) == "[0.0001, 0.0166666]"
    with pytest.raises(UserError) as err:
        P.replace(dt=1e-4, max_time=600.0).check()
    assert "max_time" in str(err.value) and "dt" in str(err.value)


def test_the_pymunk_step_keeps_a_pawn_within_its_radius() -> None:
    assert P.substeps == 1 and P.pymunk_step == P.dt  # the defaults: one step a frame
    for r, dt, v in ((0.005, 1 / 60, 10.0), (0.0125, 1 / 60, 3.0), (0.005, 1e-4, 10.0)):
        params = P.replace(pawn_radius=r, dt=dt, max_speed=v)
        assert v * params.pymunk_step <= r * (1 + 1e-9)
        assert params.pymunk_step * params.substeps == pytest.approx(dt)
        assert v * dt / (params.substeps - 1 or 1) > r or params.substeps == 1


def test_the_extreme_legal_speed_never_tunnels() -> None:
    """For the smallest and largest pawns, the coarsest step and the fastest flick (the pymunk
    engine splitting each frame so that max_speed × step ≤ pawn_radius), a pawn slid at
    max_speed neither passes a blocker rail nor a pawn."""
    closed = square("south")  # blocker rails close the west, north and east sides
    half = closed.board_rect.xmax
    for r, dt, v in ((0.005, 1 / 240, 1.2), (0.005, 1 / 60, 10.0), (0.05, 1 / 60, 10.0),
                     (0.0125, 1 / 240, 3.0)):  # fmt: skip
        params = P.replace(pawn_radius=r, dt=dt, max_speed=v, knock_over_impulse=1.0)
        params.check()
        for angle in (0.0, 20.0, -35.0):
            shot = Shot.from_degrees("south", params.max_speed, angle)
            sim = start(Setup(closed, RACE, params), [], shot)
            while sim.moving:
                sim.step()
                for x, y, _ in sim.positions().values():
                    assert y < half and (abs(x) < half or y < -half), f"r={r} dt={dt} {angle}°"
            end = sim.result().pawns[0]
            if end.status is Status.OFF_BOARD:  # back over the open edge beside the lane
                assert end.y < -half + 1e-3, f"r={r} dt={dt} {angle}°"
        # head-on into a standing pawn: the shooter never passes it
        target = pawn("north-1", 0.0, 0.0)
        sim = start(Setup(SQUARE2, RACE, params), [target], Shot("south", params.max_speed))
        while sim.moving:
            sim.step()
            where = sim.positions()
            if "south-1" in where and "north-1" in where:
                assert where["south-1"][1] < where["north-1"][1], f"r={r} dt={dt}"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_out_is_reported_as_such_never_as_settled(engine: str) -> None:
    params = P.replace(max_time=0.5, mu_roll=0.005)
    result = simulate(Setup(SQUARE2, RACE, params, engine), [], Shot("south", 0.8))
    assert not result.settled
    assert result.events[-1].type is EventType.TIMED_OUT
    assert not any(e.type is EventType.SETTLED for e in result.events)
    assert result.settle_time == pytest.approx(0.5)
    assert ShotResultRoundTrip(result, engine)
    # stepped frame by frame: the same
    sim = start(Setup(SQUARE2, RACE, params, engine), [], Shot("south", 0.8))
    while sim.moving:
        sim.step()
    assert not sim.result().settled and sim.t == pytest.approx(0.5)
    # the smallest legal time limit ends the shot after 0.1 s, timed out
    tiny = simulate(Setup(SQUARE2, RACE, P.replace(max_time=0.1), engine), [], Shot("south", 0.8))
    assert not tiny.settled and tiny.settle_time == pytest.approx(0.1)
    # and a shot that settles says so
    assert simulate(Setup(SQUARE2, RACE, engine=engine), [], Shot("south", 0.6)).settled


def ShotResultRoundTrip(result, engine: str) -> bool:  # noqa: N802 - reads as a claim
    from sliders.core.outcome import ShotResult

    back = ShotResult.from_json(json.loads(json.dumps(result.to_json())))
    return back == result and back.settled == result.settled and back.engine == engine


def test_the_step_count_limit_keeps_every_shot_short() -> None:
    assert P.max_time / P.dt <= MAX_STEPS
    with pytest.raises(UserError, match="max_time/dt"):
        P.replace(dt=1e-4, max_time=600.0).check()


def test_a_pawn_at_rest_with_spin_does_not_keep_the_shot_alive() -> None:
    """A glancing hit leaves both pawns spinning; the shot settles when they stop sliding,
    however long their spin would last."""
    slow_spin = P.replace(spin_damping_torque=1e-9)
    table = [pawn("north-1", 0.012, 0.0)]
    shot = Shot("south", 0.9)
    sim = start(Setup(SQUARE2, RACE, slow_spin), table, shot)
    spun = False
    while sim.moving:
        sim.step()
        spun = spun or any(abs(w) > 1.0 for *_, w in sim.velocities().values())
    result = sim.result()
    assert spun and result.settled
    assert result.settle_time < 3.0  # spin alone would take minutes to die down


def test_engine_switch(capsys) -> None:
    assert DEFAULT_ENGINE == "exact" and ENGINES == ("exact", "pymunk")
    shot = Shot("south", 0.6)
    a = simulate(Setup(SQUARE2, RACE, engine="exact"), [], shot)
    b = simulate(Setup(SQUARE2, RACE), [], shot)
    assert a == b and a.engine == "exact" and a.version
    c = simulate(Setup(SQUARE2, RACE, engine="pymunk"), [], shot)
    assert c != a and c.engine == "pymunk" and c.version
    for engine in ENGINES:
        sim = start(Setup(SQUARE2, RACE, engine=engine), [], shot)
        assert isinstance(sim, Simulation) and sim.engine == engine
    sim = start(Setup(SQUARE2, RACE), [], shot)
    assert isinstance(sim, Simulation) and sim.engine == "exact"
    with pytest.raises(UserError, match="unknown"):
        simulate(Setup(SQUARE2, RACE, engine="bullet"), [], shot)
    try:
        import sliders.physics.exact  # noqa: F401
    except ImportError:
        with pytest.raises(UserError) as err:
            start(Setup(SQUARE2, RACE, engine="exact"), [], shot)
        assert "exact" in str(err.value) and "\n" not in str(err.value)
        code, out, err_text = run_main(capsys, "shot", "--speed", "0.6", "--engine", "exact")
        assert code == 2 and len(err_text.strip().splitlines()) == 1
    code, out, _ = run_main(capsys, "shot", "--speed", "0.6", "--engine", "pymunk", "--json")
    data = json.loads(out)
    assert code == 0 and data["engine"] == "pymunk" and data["sliders_version"]
    assert data["settled"] is True
    code, out, _ = run_main(capsys, "shot", "--speed", "0.6", "--json")
    assert code == 0 and json.loads(out)["engine"] == "exact"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_log_records_the_engine_and_version_of_every_shot(tmp_path, engine: str) -> None:
    from sliders.rules import Game

    result = simulate(Setup(SQUARE2, RACE, engine=engine), [], Shot("south", 0.6))
    game = Game("race-for-home", ["south", "north"])
    game.shoot(result)
    path = tmp_path / "game.json"
    game.save(path)
    shot = json.loads(path.read_text())["steps"][0]["shot"]
    assert shot["engine"] == engine and shot["version"] and shot["settled"] is True
    back = Game.load(path).steps[0].result
    assert back == result and back.engine == engine
    shot["engine"] = "bullet"
    path.write_text(json.dumps({**json.loads(path.read_text()), "steps": [{"shot": shot}]}))
    with pytest.raises(UserError, match="engine"):
        Game.load(path)


@pytest.mark.parametrize("e", [1e-6, 0.01])
def test_an_almost_plastic_rail_leaves_no_pawn_pressed_into_it(e: float) -> None:
    """restitution_rail = 0 is refused; just above it a pawn driven hard into a rail sinks into it
    for a step and is pushed out before the shot settles (it used to rest 11.7 mm inside)."""
    from sliders.boards import overlaps_rail

    closed = square("south")
    params = P.replace(restitution_rail=e, knock_over_impulse=1.0)
    for angle in (0.0, 40.0, -60.0):
        result = simulate(Setup(closed, RACE, params), [], Shot.from_degrees("south", 3.0, angle))
        end = result.pawns[0]
        assert result.settled
        if end.status.in_play:
            assert not overlaps_rail(closed, end.x, end.y, R, tolerance=P.collision_slop + 2e-5)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_engine_checks_parameters_built_in_code_too(engine: str) -> None:
    for bad in (P.replace(restitution_pawn=0.0), P.replace(max_speed=60.0), P.replace(dt=1e-320)):
        with pytest.raises(UserError, match="parameter"):
            simulate(Setup(SQUARE2, RACE, bad, engine), [], Shot("south", 0.5))


def test_a_match_plays_and_logs_in_its_engine_and_play_takes_the_flag(capsys) -> None:
    from sliders.game.config import MatchConfig, SeatSpec
    from sliders.scenes.table import Match

    config = MatchConfig(
        "race-for-home", "square", (SeatSpec("south"), SeatSpec("north")), 1, engine="pymunk"
    )
    match = Match(config)
    match.start(Shot("south", 0.6))
    assert match.sim is not None and match.sim.engine == "pymunk"
    while match.sim.moving:
        match.advance(1.0)
    result, _ = match.finish()
    assert result.engine == "pymunk" and result.settled
    logged = match.game.to_json()["steps"][0]["shot"]
    assert logged["engine"] == "pymunk" and logged["version"]
    # the window's command: an engine that cannot load is one line before any window opens
    try:
        import sliders.physics.exact  # noqa: F401
    except ImportError:
        code, _, err = run_main(capsys, "play", "--engine", "exact")
        assert code == 2 and len(err.strip().splitlines()) == 1 and "exact" in err
    code, _, err = run_main(capsys, "play", "--replay", "game.json", "--engine", "pymunk")
    assert code == 2 and "engine and the physics parameters it was played with" in err


def test_a_saved_parameter_file_loads_back_the_same_parameters(tmp_path, capsys) -> None:
    path = tmp_path / "board.toml"
    code, out, _ = run_main(capsys, "params", "--param", "mu_roll=0.061", "--save", str(path))
    assert code == 0 and "wrote" in out
    code, out, _ = run_main(capsys, "params", "--params", str(path), "--json")
    assert code == 0
    assert PhysicsParams.from_json(json.loads(out)["physics"]) == P.replace(mu_roll=0.061)
    code, out, _ = run_main(capsys, "params", "--params", str(path), "--param", "g=9.8", "--json")
    assert json.loads(out)["physics"]["g"] == 9.8 and json.loads(out)["physics"]["mu_roll"] == 0.061


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[physics]\nmu_roll = 7\n", "mu_roll=7 is outside"),
        ("[physics]\nmu = 0.05\n", "unknown parameter 'mu'"),
        ("mu_roll = 0.05\n", "unknown entry 'mu_roll'"),
        ("[calibration]\n", "no [physics] table"),
        ("[physics\n", "bad TOML"),
    ],
)
def test_a_bad_parameter_file_is_one_line(tmp_path, capsys, text, needle) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    saved = tmp_path / "out.toml"
    code, _, err = run_main(capsys, "params", "--params", str(path), "--save", str(saved))
    assert code == 2 and needle in err and len(err.splitlines()) == 1
    assert not saved.exists()

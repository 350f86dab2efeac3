"""``sliders play --params FILE`` / ``--param NAME=VALUE``: the game is played with those physics
parameters, its log records the ones that differ from the defaults, and a replay re-simulates
with them; logs from before (no ``params``) still load, played with the defaults."""

from __future__ import annotations

import json

import pytest

from sliders.cli import main
from sliders.core.errors import UserError
from sliders.game.config import MatchConfig, config_from_flags, parse_seat_specs
from sliders.game.saves import load_replay, params_of, save_game
from sliders.physics import PhysicsParams, Shot
from sliders.rules import Game

SLOW_BOARD = PhysicsParams.default().with_overrides(["mu_roll=0.08", "restitution_rail=0.4"])


def _played(params, shots=((0.7, 0.0), (0.75, 0.01))):
    """A two-person game on the square with ``params``, two shots slid (through the config)."""
    from sliders.scenes.table import Match

    config = MatchConfig(
        "race-for-home", "square", parse_seat_specs("south,north"), 3, params=params
    )
    match = Match(config)
    for speed, angle in shots:
        match.start(Shot(match.turn, speed, angle, 0.0, None, match.state.next_pawn()))
        match.advance(60.0, max_steps=10**6)
        match.finish()
    return match


def test_the_config_s_params_play_and_are_recorded_in_the_log(tmp_path):
    match = _played(SLOW_BOARD)
    assert match.params == SLOW_BOARD
    assert match.game.params == {"mu_roll": 0.08, "restitution_rail": 0.4}
    save_game(match.game, tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text())
    assert data["params"] == {"mu_roll": 0.08, "restitution_rail": 0.4}
    assert data["schema"] == 2  # an optional field: older readers of schema 2 are not refused
    assert params_of(load_replay(tmp_path / "game.json")) == SLOW_BOARD


def test_a_game_with_the_defaults_records_none_and_an_older_log_loads(tmp_path):
    match = _played(None, shots=((0.7, 0.0),))
    assert match.game.params == {}
    save_game(match.game, tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text())
    assert "params" not in data  # as every log written before parameters were recorded
    game = load_replay(tmp_path / "game.json")
    assert game.params == {} and params_of(game) == PhysicsParams.default()


def test_a_resumed_game_keeps_the_log_s_params():
    from sliders.scenes.table import Match

    first = _played(SLOW_BOARD, shots=((0.7, 0.0),))
    again = Game.from_json(first.game.to_json())
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 3)
    match = Match(config, game=again)
    assert match.params == SLOW_BOARD and match.game.params == first.game.params


def test_a_replay_re_simulates_with_the_log_s_params(tmp_path):
    from sliders.scenes.app import App
    from sliders.scenes.replay import ReplayScreen

    match = _played(SLOW_BOARD)
    save_game(match.game, tmp_path / "game.json")
    app = App((1280, 800), sound=False, think_budget=None)
    try:
        replay = ReplayScreen(app, load_replay(tmp_path / "game.json"))
        assert replay.params == SLOW_BOARD
        app.show(replay)
        for _ in range(20000):
            if replay.finished:
                break
            app.step(0.1, draw=False)
        assert replay.notice is None
        assert [replay.resimulated[i] for i in sorted(replay.resimulated)] == match.results
    finally:
        app.close()


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"mu_roll": "slow"}, "params.mu_roll"),
        ({"no_such_thing": 1.0}, "no_such_thing"),
        ({"mu_roll": -1.0}, "mu_roll"),
    ],
)
def test_a_log_with_bad_params_is_one_line(tmp_path, params, words):
    game = Game("race-for-home", ("south", "north"))
    data = game.to_json() | {"params": params}
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(UserError, match=words) as err:
        load_replay(tmp_path / "bad.json")
    assert "\n" not in str(err.value)


def test_play_takes_params_and_param(tmp_path, monkeypatch):
    from sliders.scenes.app import App
    from sliders.scenes.play import PlayScreen

    (tmp_path / "board.toml").write_text(SLOW_BOARD.to_toml())
    shown = []
    monkeypatch.setattr(App, "run", lambda self: shown.append(self.screen) or 0)
    argv = ["play", "--no-sound", "--params", str(tmp_path / "board.toml")]
    assert main([*argv, "--param", "restitution_pawn=0.7"]) == 0
    (screen,) = shown
    assert isinstance(screen, PlayScreen)
    assert screen.match.params == SLOW_BOARD.with_overrides(["restitution_pawn=0.7"])
    assert screen.match.game.params["restitution_pawn"] == 0.7
    assert config_from_flags(params=SLOW_BOARD).params == SLOW_BOARD


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--param", "mu_roll=-3"], "mu_roll"),
        (["--params", "missing.toml"], "missing.toml"),
        (["--replay", "game.json", "--param", "mu_roll=0.06"], "leave out"),
    ],
)
def test_bad_physics_flags_are_one_line_and_exit_2(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--no-sound", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err

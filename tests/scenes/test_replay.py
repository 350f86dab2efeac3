"""`sliders play --replay`: shots logged as slid are re-simulated and shown along their paths;
logs without slides, or from another physics, replay as glides."""

from __future__ import annotations

import json
import math

import pytest

from sliders.cli import main
from sliders.game.saves import load_replay, save_game
from sliders.rules import ShotStep
from sliders.scenes.app import App
from sliders.scenes.replay import ReplayScreen


@pytest.fixture
def app():
    """A window of its own: another test's window closing does not take it down."""
    a = App((1280, 800), sound=False, think_budget=None)
    yield a
    a.close()


def _replay(app, path, draw=False):
    """Play the log at ``path`` to its end; the screen and the re-simulated film of each step."""
    replay = ReplayScreen(app, load_replay(path))
    app.show(replay)
    films = {}
    for _ in range(20000):
        if replay.finished:
            return replay, films
        if replay.film is not None:
            films[replay.index] = replay.film
        app.step(0.1, draw=draw)
    raise AssertionError("the replay did not finish")


def _shot_steps(game):
    return [(i, s) for i, s in enumerate(game.steps) if isinstance(s, ShotStep)]


def test_a_saved_game_replays_its_shots_re_simulated_exactly(app, finished_game, tmp_path):
    match = finished_game
    save_game(match.game, tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text())
    shots = [s for s in data["steps"] if "shot" in s]
    assert len(shots) == len(match.shots) and all("slide" in s for s in shots)
    replay, films = _replay(app, tmp_path / "game.json", draw=True)
    assert replay.notice is None
    steps = _shot_steps(replay.game)
    for i, step in steps:
        assert replay.resimulated[i] == step.result  # every status, point, event, position
        assert replay.replays(i)
        film = films[i]
        final = film.frames[-1]
        logged = {p.id: (p.x, p.y) for p in step.result.pawns}
        assert final == {pid: logged[pid] for pid in final}  # bit for bit
        assert {p.id for p in step.result.pawns if p.status.in_play} <= set(final)
    # the pawns were shown along their paths, one frame per physics step
    longest = max(films.values(), key=lambda f: len(f.frames))
    assert len(longest.frames) - 1 == math.ceil(longest.sim.t / longest.dt - 1e-9) > 100
    assert replay.state == match.state


def test_a_log_without_slides_replays_gliding(app, finished_game, tmp_path):
    """A schema 1 log, as the window wrote before slides: the layout a bare name."""
    match = finished_game
    data = match.game.to_json() | {"schema": 1, "layout": "square"}
    for step in data["steps"]:
        step.pop("slide", None)
    (tmp_path / "old.json").write_text(json.dumps(data))
    replay, films = _replay(app, tmp_path / "old.json")
    assert not films and not replay.resimulated and replay.notice is None
    assert replay.state == match.state


def test_a_log_from_another_physics_glides_and_says_so_once(app, finished_game, tmp_path):
    match = finished_game
    data = match.game.to_json()
    shots = [s for s in data["steps"] if "shot" in s]
    for step in shots[:3]:
        step["slide"]["speed"] *= 1.01  # as if the physics had changed
    (tmp_path / "other.json").write_text(json.dumps(data))
    replay, films = _replay(app, tmp_path / "other.json")
    steps = _shot_steps(replay.game)
    assert [replay.replays(i) for i, _ in steps[:3]] == [False] * 3
    assert all(replay.replays(i) for i, _ in steps[3:])
    assert replay.notice is not None and "glide" in replay.notice
    assert sum("glide" in line for line in replay.lines) <= 1
    assert replay.state == match.state


def test_a_replay_whose_layout_file_is_gone_is_one_line(finished_game, tmp_path, capsys):
    match = finished_game
    data = match.game.to_json()
    data["layout"]["name"] = str(tmp_path / "gone.toml")
    (tmp_path / "game.json").write_text(json.dumps(data))
    assert main(["play", "--replay", str(tmp_path / "game.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert "gone.toml" in err and "\n" not in err


@pytest.mark.parametrize("key", ["left", "right"])
def test_stepping_through_a_replay_re_simulates_the_shot_shown(app, finished_game, tmp_path, key):
    import pygame

    match = finished_game
    save_game(match.game, tmp_path / "game.json")
    replay = ReplayScreen(app, load_replay(tmp_path / "game.json"))
    app.show(replay)
    for k in (pygame.K_RIGHT, pygame.K_RIGHT):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0))
    app.step(0.01)
    if key == "left":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0))
        app.step(0.01)
    index = replay.index
    assert index == (2 if key == "right" else 1)
    assert replay.film is not None and replay.film.sim.shot.speed == match.shots[index].speed
    app.step(0.01)
    assert replay.resimulated[index] == match.results[index]


def test_a_game_played_in_the_pymunk_engine_replays_in_it(app, finished_game, tmp_path):
    """A log records each shot's engine: a game played in the pymunk engine is re-simulated in
    it, bit for bit, now that the exact engine is the default."""
    from sliders.game.config import MatchConfig, parse_seat_specs
    from sliders.physics import Shot
    from sliders.scenes.table import Match

    config = MatchConfig(
        "race-for-home", "square", parse_seat_specs("south,north"), 4, engine="pymunk"
    )
    match = Match(config)
    for speed, angle in ((0.58, 0.0), (0.62, 0.01), (0.9, -0.02), (0.55, 0.03)):
        seat = match.turn
        match.start(Shot(seat, speed, angle, 0.0, None, match.state.next_pawn()))
        match.advance(60.0, max_steps=10**6)
        match.finish()
    assert {r.engine for r in match.results} == {"pymunk"}
    save_game(match.game, tmp_path / "game.json")
    replay, films = _replay(app, tmp_path / "game.json")
    assert replay.notice is None and films
    assert {film.sim.engine for film in films.values()} == {"pymunk"}
    for i, step in _shot_steps(replay.game):
        assert replay.resimulated[i] == step.result and step.result.engine == "pymunk"

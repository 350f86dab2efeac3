"""The golden fixtures in tests/fixtures replayed exactly: saved shots run again in the engine
each names, saved games re-simulated shot by shot and replayed by the rules, and a scorekeeper
session typed again. The physics is deterministic, so every float must come back bit for bit;
a difference is a change of results. When the change is deliberate (the physics, the rules or
what a command prints), regenerate with ``python tests/fixtures/make_fixtures.py`` and commit
the fixtures' diff with it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from sliders.boards import face
from sliders.game.saves import load_replay, replay_layout
from sliders.physics import PhysicsParams, Setup, simulate
from sliders.rules import ShotStep

FIXTURES = Path(__file__).resolve().parent / "fixtures"
_spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

SHOT_FILES = sorted(
    p for p in (FIXTURES / "shots").glob("*.json") if not p.name.endswith(".scene.json")
)
GAME_FILES = sorted((FIXTURES / "games").glob("*.json"))
SESSIONS = sorted(
    p for p in (FIXTURES / "score").glob("*.json") if not p.name.endswith(".log.json")
)
VERSION_KEYS = ("version", "sliders_version")
"""what a result records of the program that made it, not of the shot: left out of comparisons"""


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _without_versions(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in VERSION_KEYS}


def test_every_case_and_engine_has_its_fixture():
    """The fixtures on disk are those make_fixtures.py writes: none missing, none stale."""
    assert {p.name for p in SHOT_FILES} == {
        f"{name}.{engine}.json" for name in make.SHOTS for engine in make.ENGINES
    }
    assert {p.stem for p in GAME_FILES} == set(make.GAMES)
    assert {p.stem for p in SESSIONS} == set(make.SESSIONS)


@pytest.mark.parametrize("path", SHOT_FILES, ids=lambda p: p.stem)
def test_a_saved_shot_replays_bit_for_bit(path):
    """``sliders shot --scene NAME.scene.json ... --json`` prints what it printed when saved."""
    saved = _read(path)
    name = path.name.split(".")[0]
    assert saved["engine"] == path.name.split(".")[1]  # pinned, whatever the default engine
    argv = make.shot_argv(FIXTURES / "shots" / f"{name}.scene.json", saved["shot"], saved["engine"])
    code, out, err = make.run_cli(argv)
    assert code == 0, err
    again = json.loads(out)
    assert _without_versions(again) == _without_versions(saved)
    assert make.SHOTS[name][2](again), f"the {name} shot no longer shows a {name}"


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_a_saved_game_re_simulates_shot_by_shot(path):
    """Every logged slide, run again from the table the log had before it in the engine that ran
    it, gives the logged outcome exactly: nothing but the physics moves a pawn."""
    game = load_replay(path)
    layout, table_face = replay_layout(game), face(game.face)
    params = PhysicsParams.default()
    shots = [(i, s) for i, s in enumerate(game.steps) if isinstance(s, ShotStep)]
    assert shots and all(s.slide is not None for _, s in shots)
    for i, step in shots:
        assert step.slide is not None
        setup = Setup(layout, table_face, params, step.result.engine)
        result = simulate(setup, game.states[i].table, step.slide)
        assert result == step.result, f"{path.name} step {i + 1}: the shot came out otherwise"


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_a_saved_game_replays_to_the_same_boards(path):
    """The rules replay the log to the same game (written back, it is the same log) and
    ``sliders score --replay`` prints the same rounds and winner."""
    game = load_replay(path)
    assert game.to_json() == _read(path)
    assert game.state.winner is not None
    code, out, err = make.run_cli(["score", "--replay", str(path)])
    assert code == 0, err
    assert out == path.with_suffix(".txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
def test_a_scorekeeper_session_prints_and_saves_the_same(path, tmp_path):
    """The same lines typed into ``sliders score --batch`` print the same screens and save the
    same log."""
    code, out, err = make.run_session(_read(path), tmp_path)
    assert (code, err) == (0, "")
    assert out == path.with_suffix(".out").read_text(encoding="utf-8")
    log = _read(tmp_path / make.SESSION_LOG)
    assert log == _read(path.with_name(path.stem + ".log.json"))

"""The golden games of tests/fixtures played back in the window (`sliders play --replay`): every
shot is re-simulated and matches its log, so none is shown gliding.

Known defect, kept visible: the window re-simulates a shot by stepping it frame by frame, while
a headless game runs it with ``run()``, whose pymunk engine coasts a lone moving pawn to rest in
closed form; the two differ in the last bits, so a headless pymunk game replays gliding. The
pymunk game is marked as an expected failure (strict: once the two agree it must pass)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sliders.game.gamelog import load_replay
from sliders.rules import ShotStep
from sliders.scenes.app import App
from sliders.scenes.replay import ReplayScreen

GAMES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "games").glob("*.json"))
STEPPED_DIFFERS = pytest.mark.xfail(
    strict=True, reason="pymunk: a shot stepped frame by frame differs in the last bits from run()"
)


def _engines(path: Path) -> set[str]:
    steps = json.loads(path.read_text(encoding="utf-8"))["steps"]
    return {s["shot"].get("engine", "") for s in steps if "shot" in s}


CASES = [
    pytest.param(p, id=p.stem, marks=[STEPPED_DIFFERS] if "pymunk" in _engines(p) else [])
    for p in GAMES
]


@pytest.fixture(scope="module")
def app():
    app = App((1280, 800), sound=False, think_budget=None)
    yield app
    app.close()


@pytest.mark.parametrize("path", CASES)
def test_a_golden_game_replays_in_the_window_re_simulated(app, path):
    game = load_replay(path)
    replay = ReplayScreen(app, game)
    app.show(replay)
    for _ in range(100_000):
        if replay.finished:
            break
        app.step(0.25, draw=False)
    else:
        raise AssertionError("the replay did not finish")
    assert replay.notice is None
    shots = [i for i, s in enumerate(game.steps) if isinstance(s, ShotStep)]
    assert shots and all(replay.replays(i) for i in shots)
    assert replay.state == game.state and replay.state.winner is not None

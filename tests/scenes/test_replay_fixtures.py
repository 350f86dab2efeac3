"""The golden games of tests/fixtures played back in the window (`sliders play --replay`): every
shot is re-simulated and matches its log, so none is shown gliding (in both engines: stepping
a shot frame by frame gives the result a headless game runs to, to the bit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sliders.game.saves import load_replay
from sliders.rules import ShotStep
from sliders.scenes.app import App
from sliders.scenes.replay import ReplayScreen

GAMES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "games").glob("*.json"))
CASES = [pytest.param(p, id=p.stem) for p in GAMES]


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


def test_a_result_matches_itself_up_to_rounding_only() -> None:
    """The replay shows a shot re-simulated when it matches the log to 1e-9: rounding in the
    last bits passes, a moved pawn, another status or another event does not."""
    import dataclasses

    game = load_replay(GAMES[0])
    result = next(s.result for s in game.steps if isinstance(s, ShotStep))
    pawn = result.pawns[0]

    def with_pawn(**change: object):  # noqa: ANN202
        return dataclasses.replace(
            result, pawns=(dataclasses.replace(pawn, **change), *result.pawns[1:])
        )

    assert result.matches(result)
    assert result.matches(with_pawn(x=pawn.x + 1e-15))
    assert not result.matches(with_pawn(x=pawn.x + 1e-6))
    other = next(s for s in type(pawn.status) if s is not pawn.status)
    assert not result.matches(with_pawn(status=other))
    assert not result.matches(dataclasses.replace(result, events=result.events[:-1]))
    assert not result.matches(dataclasses.replace(result, engine="other"))

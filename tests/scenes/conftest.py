"""A whole computer-vs-computer game played in the window, shared by the play and replay tests."""

from __future__ import annotations

import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.app import App
from sliders.scenes.screens import PlayScreen, ResultsScreen  # registers every screen
from sliders.scenes.table import Match


@pytest.fixture(scope="session")
def finished_game():
    """A computer-vs-computer game (its ``Match``), headless, played to its results screen. Its
    window is closed once the game is over: a test shows the match in a window of its own (one
    test's window closing would take a shared one down with it)."""
    app = App((1280, 800), sound=False, think_budget=None)
    try:
        config = MatchConfig(
            "race-for-home", "square", parse_seat_specs("south=cpu:easy,north=cpu:easy"), 11
        )
        match = Match(config)
        app.show(PlayScreen(app, match))
        for _ in range(20000):
            if isinstance(app.screen, ResultsScreen):
                break
            app.step(0.05, draw=False)
        else:
            raise AssertionError("the game did not end")
    finally:
        app.close()
    return match

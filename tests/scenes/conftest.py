"""A whole computer-vs-computer game played in the window, shared by the play and replay tests."""

from __future__ import annotations

import pygame
import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.app import App
from sliders.scenes.screens import PlayScreen, ResultsScreen  # registers every screen
from sliders.scenes.table import Match


@pytest.fixture
def finished_game(_finished_game):
    """(app, match): a computer-vs-computer game, headless, played to its results screen (its
    window opened again when another test's window closed the display meanwhile)."""
    app, match = _finished_game
    if not pygame.display.get_init():
        pygame.display.init()
        pygame.font.init()
        app.surface = pygame.display.set_mode(app.windowed_size, pygame.RESIZABLE)
    return app, match


@pytest.fixture(scope="session")
def _finished_game():
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
        yield app, match
    finally:
        app.close()

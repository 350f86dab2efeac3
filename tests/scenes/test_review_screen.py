"""The review screen in a window (headless): the table before the chosen shot with the shot as
slid and the best shot drawn, the chance of winning over the game, stepped by keys and clicks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from sliders.boards import face
from sliders.game.saves import load_replay, replay_layout
from sliders.lab.review import REVIEW_MIND, review_game
from sliders.physics import PhysicsParams
from sliders.scenes.app import App
from sliders.scenes.reviewscreen import ReviewScreen
from sliders.scenes.screens import PlayScreen  # noqa: F401  registers every screen

RACE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "games" / "race-for-home-square-exact.json"
)


def test_the_review_screen_draws_both_shots_and_steps_through_them(tmp_path: Path) -> None:
    review = review_game(RACE, mind=replace(REVIEW_MIND, simulations=40, first=2), limit=3)
    game = load_replay(RACE)
    app = App((1000, 620), sound=False, think_budget=None)
    try:
        screen = ReviewScreen(
            app,
            review,
            game.states,
            replay_layout(game),
            face(game.face),
            PhysicsParams.default().pawn_radius,
        )
        app.show(screen)
        app.step(0.05)
        surface = pygame.display.get_surface()
        pixels = pygame.surfarray.array3d(surface)
        green = (pixels[..., 0] == 90) & (pixels[..., 1] == 220) & (pixels[..., 2] == 120)
        assert green.sum() > 50  # the best shot's arrow (and its figures)
        screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
        assert screen.index == 1
        app.step(0.05)
        button = screen.buttons["prev"].rect.center
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            screen.handle_event(pygame.event.Event(kind, pos=button, button=1))
        assert screen.index == 0
        screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT))
        assert screen.index == 0  # the first shot stays chosen
        screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        assert not app.running
    finally:
        app.close()

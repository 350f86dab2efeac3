"""Every button of the window fires only for a click that began on it, on the screen showing it."""

from __future__ import annotations

import ast
from pathlib import Path

import pygame
import pytest

from sliders.scenes import draw
from sliders.scenes.app import App
from sliders.scenes.setup import SetupScreen, default_seating

FRAME = 1 / 60
SCENES = Path(draw.__file__).parent


def _event(kind: int, pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(kind, pos=pos, button=button)


def _button() -> tuple[draw.Button, list[int]]:
    clicks: list[int] = []
    b = draw.Button("OK", lambda: clicks.append(1), pygame.Rect(10, 10, 100, 40))
    return b, clicks


def test_a_click_on_the_button_fires_it_once() -> None:
    b, clicks = _button()
    assert not b.handle(_event(pygame.MOUSEBUTTONDOWN, (50, 30)))
    assert b.pressed
    assert b.handle(_event(pygame.MOUSEBUTTONUP, (60, 25)))
    assert clicks == [1] and not b.pressed
    assert not b.handle(_event(pygame.MOUSEBUTTONUP, (60, 25)))  # no second release
    assert clicks == [1]


@pytest.mark.parametrize(
    ("down", "up"),
    [
        (None, (50, 30)),  # a release whose press was elsewhere (another screen)
        ((300, 300), (50, 30)),  # pressed beside it, let go on it
        ((50, 30), (300, 300)),  # pressed on it, let go beside it
    ],
)
def test_a_click_that_did_not_begin_and_end_on_it_does_nothing(down, up) -> None:
    b, clicks = _button()
    if down is not None:
        b.handle(_event(pygame.MOUSEBUTTONDOWN, down))
    assert not b.handle(_event(pygame.MOUSEBUTTONUP, up))
    assert clicks == []


def test_other_buttons_and_a_disabled_or_forgotten_button_do_nothing() -> None:
    b, clicks = _button()
    b.handle(_event(pygame.MOUSEBUTTONDOWN, (50, 30), button=3))
    assert not b.handle(_event(pygame.MOUSEBUTTONUP, (50, 30), button=3))
    b.handle(_event(pygame.MOUSEBUTTONDOWN, (50, 30)))
    b.forget()
    assert not b.handle(_event(pygame.MOUSEBUTTONUP, (50, 30)))
    b.enabled = False
    b.handle(_event(pygame.MOUSEBUTTONDOWN, (50, 30)))
    assert not b.handle(_event(pygame.MOUSEBUTTONUP, (50, 30)))
    assert clicks == []


def test_every_screen_uses_the_one_button() -> None:
    """No screen keeps a button class of its own (one behaviour for every button)."""
    for path in sorted(SCENES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        others = [c for c in classes if c.endswith("Button") and path.name != "draw.py"]
        assert not others, (path.name, others)


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None, control="flick")
    a.clock = lambda: a.time
    yield a
    a.close()


def test_the_setup_screens_start_button_needs_its_own_click(app) -> None:
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    start = setup.start_button.rect.center
    pygame.event.post(_event(pygame.MOUSEBUTTONDOWN, (5, 5)))
    pygame.event.post(_event(pygame.MOUSEBUTTONUP, start))
    app.step(FRAME)
    assert app.screen is setup
    pygame.event.post(_event(pygame.MOUSEBUTTONDOWN, start))
    pygame.event.post(_event(pygame.MOUSEBUTTONUP, start))
    app.step(FRAME)
    assert app.screen is not setup


def test_the_setup_screen_seats_a_layout_as_the_game_does() -> None:
    from sliders.game.config import default_seat_specs

    for layout in ("square", "crazy-corner", "solo", "triple-track"):
        specs = default_seat_specs(layout)
        who = default_seating(layout)
        assert list(who) == [s.seat for s in specs]
        assert [w == "human" for w in who.values()] == [s.human for s in specs]
    assert default_seating("no-such-layout") == {}

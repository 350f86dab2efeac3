"""How frames reach the screen and what a frame draws: SDL's software framebuffer where OpenGL
is a software renderer (said by ``sliders --version``); pointer motion alone draws nothing
unless a button lights; a held pawn is drawn over a kept picture, only its own rectangles
presented, and the window then looks exactly as a whole frame draws it."""

from __future__ import annotations

import pygame
import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes import app as app_module
from sliders.scenes.app import ACCELERATION, App, choose_present
from sliders.scenes.controls import hand_spot
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

from ..helpers import run_main
from .person import FRAME, ready


@pytest.fixture
def x11(monkeypatch):
    """The display module as on an X11 display whose OpenGL renderer the test names."""
    monkeypatch.setattr(app_module.pygame.display, "get_driver", lambda: "x11")
    monkeypatch.setattr(app_module, "_renderers", {})
    monkeypatch.setattr(app_module, "_set", [])
    monkeypatch.delenv(ACCELERATION, raising=False)

    def renderer(name):
        monkeypatch.setattr(app_module, "gl_renderer", lambda: name)

    return renderer


def test_a_software_opengl_sends_frames_through_sdls_framebuffer(x11):
    x11("llvmpipe (LLVM 15.0.6, 256 bits)")
    said = choose_present()
    assert "software framebuffer" in said and "llvmpipe" in said
    assert app_module.os.environ[ACCELERATION] == "0"
    assert choose_present() == said  # asked again (another window): the same, still chosen


def test_a_gpu_keeps_opengl_and_a_users_choice_stands(x11, monkeypatch):
    x11("NVIDIA GeForce RTX 3060/PCIe/SSE2")
    assert choose_present() == "x11, OpenGL NVIDIA GeForce RTX 3060/PCIe/SSE2"
    assert ACCELERATION not in app_module.os.environ
    x11("llvmpipe (LLVM 15.0.6, 256 bits)")
    monkeypatch.setattr(app_module, "_renderers", {})
    monkeypatch.setenv(ACCELERATION, "1")
    assert choose_present() == f"x11, {ACCELERATION}=1 as set"
    assert app_module.os.environ[ACCELERATION] == "1"


def test_version_says_how_the_window_draws(capsys):
    code, out, _ = run_main(capsys, "--version")
    assert code == 0
    assert out.splitlines()[1] == "window: dummy video driver", out


@pytest.fixture
def turn():
    """A person's turn with the flick control, the lane pane in and still."""
    app = App((1280, 800), sound=False, think_budget=None, control="flick")
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1,
                         hand="exact")  # fmt: skip
    screen = PlayScreen(app, Match(config))
    app.show(screen)
    ready(app, screen)
    for _ in range(120):  # every camera at rest
        app.step(FRAME)
    yield app, screen
    app.close()


def _motion(pos, buttons=(0, 0, 0)):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))


def test_pointer_motion_alone_draws_a_frame_only_when_a_button_lights(turn):
    app, screen = turn
    drawn = app.draws
    for k in range(30):  # over the table, away from every button
        pygame.mouse.set_pos((300 + 5 * k, 300))
        _motion((300 + 5 * k, 300))
        app.step(FRAME)
    assert app.draws == drawn
    button = screen.overview_button.rect
    pygame.mouse.set_pos(button.center)  # onto the Overview button: it lights
    _motion(button.center)
    app.step(FRAME)
    assert app.draws == drawn + 1


def test_a_held_pawn_draws_only_its_rectangles_and_the_window_is_as_a_whole_frame(
    turn, monkeypatch
):
    app, screen = turn
    match = screen.match
    lane = match.seat("south")
    x, y = screen.lane_view.to_screen(*lane.to_world(*hand_spot(match, "south", 0, 4)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    app.step(FRAME)
    assert screen.held == "south-1"
    presented: list[object] = []
    monkeypatch.setattr(pygame.display, "flip", lambda: presented.append("whole"))
    monkeypatch.setattr(pygame.display, "update", lambda rects: presented.append(list(rects)))
    for k in range(1, 20):
        _motion((x + k, y - 3 * k), (1, 0, 0))
        app.step(FRAME)
    assert screen.held == "south-1" and presented and "whole" not in presented
    window = app.surface.get_width() * app.surface.get_height()
    for rects in presented:
        assert isinstance(rects, list) and rects
        assert sum(r.w * r.h for r in rects) < window / 20, rects
    kept = app.surface.copy()
    screen._drawn_key = None  # the next frame draws the whole window
    app.step(FRAME)
    assert presented[-1] == "whole"
    whole = pygame.image.tobytes(app.surface, "RGB")
    assert pygame.image.tobytes(kept, "RGB") == whole, "a partial frame differs from a whole one"

"""Text that reads: every seat colour with enough contrast on the screens' backgrounds, and the
play screen's title, status and sidebar text neither overlapping nor cut at small windows.

Text is cut in one place (:func:`sliders.scenes.draw.clipped`, an ellipsis): the ``cuts`` fixture
keeps what it cut, and no screen may cut anything at any size tested (640x420 up)."""

from __future__ import annotations

import pygame
import pytest

from sliders.core.outcome import SEATS
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes import draw
from sliders.scenes.app import App
from sliders.scenes.background import FIRST_RUN
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match


@pytest.fixture
def cuts(monkeypatch) -> list[str]:
    """The words :func:`draw.clipped` shortens while the test runs."""
    shortened: list[str] = []
    real = draw.clipped

    def clipped(words: str, size: int, width: int) -> str:
        fitted = real(words, size, width)
        if fitted != words:
            shortened.append(words)
        return fitted

    monkeypatch.setattr(draw, "clipped", clipped)
    return shortened


@pytest.mark.parametrize("seat", SEATS)
def test_every_seat_colour_reads_on_the_backgrounds(seat):
    ink = draw.seat_rgb(seat)
    assert draw.contrast(ink, draw.BACKGROUND) >= 4.5
    assert draw.contrast(ink, draw.PANEL) >= 4.5


@pytest.mark.parametrize("size", [(640, 420), (800, 600), (1000, 700), (1280, 800), (1920, 1080)])
def test_the_play_screens_text_fits(size, monkeypatch, cuts):
    app = App(size, sound=False, think_budget=None)
    try:
        seats = "south,west=cpu,north=cpu,east=cpu"
        match = Match(MatchConfig("race-for-home", "square", parse_seat_specs(seats), 1))
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(60):
            app.step(1 / 60, draw=False)
        drawn: list[tuple[str, pygame.Rect, int]] = []
        real = draw.text

        def text(surface, words, pos, size=24, *args, **kw):
            rect = real(surface, words, pos, size, *args, **kw)
            if surface is app.surface:  # not a score board's own picture
                drawn.append((words, rect, size))
            return rect

        monkeypatch.setattr(draw, "text", text)
        screen.draw(app.surface)
        window = app.surface.get_rect()
        top = [(w, r) for w, r, _ in drawn if r.y < 50 and w]
        assert len(top) == 2, top  # the title and the status line
        assert not top[0][1].colliderect(top[1][1]), top
        for words, rect, _ in drawn:
            assert window.contains(rect), (words, rect)
        if size >= (800, 600):
            # the banner and the messages at least 12 px (the font draws a size at 0.66 px a unit)
            assert min(s for _, _, s in drawn) * draw.SIZE_TO_PX >= 12
        assert not cuts, cuts
    finally:
        app.close()


def _texts(app: App, screen, monkeypatch, sizes: list[int] | None = None):
    """The words ``screen`` draws on the window and their boxes (``sizes`` gets their sizes)."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real = draw.text

    def text(surface, words, pos, size=24, *args, **kw):
        rect = real(surface, words, pos, size, *args, **kw)
        if surface is app.surface and words:
            drawn.append((words, rect))
            if sizes is not None:
                sizes.append(size)
        return rect

    monkeypatch.setattr(draw, "text", text)
    screen.draw(app.surface)
    monkeypatch.setattr(draw, "text", real)
    return drawn


@pytest.mark.parametrize("size", [(640, 420), (800, 600), (1000, 700), (1280, 800), (1920, 1080)])
def test_the_setup_and_results_screens_text_fits(size, finished_game, monkeypatch, cuts):
    from sliders.scenes.results import ResultsScreen
    from sliders.scenes.setup import SetupScreen

    match = finished_game
    app = App(size, sound=False, think_budget=None)
    try:
        four = MatchConfig("race-for-home", "square", parse_seat_specs("south,west,north,east"))
        kinds = "south,west=cpu:easy,north=cpu:medium,east=cpu:hard"  # the longest seat labels
        mixed = Match(MatchConfig("instant-sorry", "square", parse_seat_specs(kinds), 1))
        screens = (SetupScreen(app, four), ResultsScreen(app, match), ResultsScreen(app, mixed))
        # the setup screen with the note it shows while the physics is prepared
        monkeypatch.setattr(app.background, "shown", lambda: f"{FIRST_RUN}… 12 s")
        for screen in screens:
            app.show(screen)
            sizes: list[int] = []
            drawn = _texts(app, screen, monkeypatch, sizes)
            if size >= (800, 600):  # every word at least 12 px, none cut
                assert min(sizes) * draw.SIZE_TO_PX >= 12, (type(screen).__name__, min(sizes))
            window = app.surface.get_rect()
            assert not cuts, (type(screen).__name__, cuts)
            for i, (words, rect) in enumerate(drawn):
                assert window.contains(rect), (type(screen).__name__, words, rect)
                for other, orect in drawn[i + 1 :]:
                    assert not rect.colliderect(orect), (type(screen).__name__, words, other)
    finally:
        app.close()


@pytest.mark.parametrize("size", [(640, 420), (800, 600), (1000, 700), (1280, 800), (1920, 1080)])
def test_the_round_end_heading_is_not_cut(size, monkeypatch, cuts):
    from sliders.scenes.roundend import RoundEndScreen

    app = App(size, sound=False, think_budget=None)
    try:
        match = Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1))
        screen = RoundEndScreen(app, match)
        app.show(screen)
        sizes: list[int] = []
        drawn = _texts(app, screen, monkeypatch, sizes)
        window = app.surface.get_rect()
        for i, (words, rect) in enumerate(drawn):  # inside the window, none over another
            assert window.contains(rect), (words, rect)
            for other, orect in drawn[i + 1 :]:
                assert not rect.colliderect(orect), (words, other)
        assert min(sizes) * draw.SIZE_TO_PX >= 12, min(sizes)
        assert not cuts, cuts
        heads = [(w, r) for w, r in drawn if "South" in w or "Red" in w]
        assert heads, drawn
        for words, rect in heads:
            assert screen.sidebar.contains(rect) or app.surface.get_rect().contains(rect), words
            assert screen.sidebar.inflate(2, 0).contains(rect), (words, rect, screen.sidebar)
    finally:
        app.close()

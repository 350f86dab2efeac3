"""The window prepares the physics and the computers in a thread while it draws: jobs run once
each, in order, say what they do, and the play screen slides nothing until they are done."""

from __future__ import annotations

import threading
import time

import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.physics import REGISTRY, Shot
from sliders.scenes import background, draw
from sliders.scenes.app import App
from sliders.scenes.background import FIRST_RUN, Background
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match


def test_jobs_run_once_in_order_and_say_what_they_do():
    work = Background()
    gate = threading.Event()
    ran: list[str] = []
    work.add("a", "first job", lambda: (gate.wait(5), ran.append("a")))
    work.add("b", "second job", lambda: ran.append("b"))
    work.add("a", "first job again", lambda: ran.append("a again"))
    assert work.busy and work.note == "first job" and not work.ready("a")
    gate.set()
    assert work.wait(5)
    assert ran == ["a", "b"]
    assert work.ready("a") and work.ready("b") and not work.busy and work.note == ""


def test_a_failed_job_is_kept_and_the_window_goes_on():
    work = Background(threaded=False)
    work.add("x", "failing", lambda: 1 / 0)
    assert isinstance(work.error, ZeroDivisionError)
    assert work.ready("x") and not work.busy


def test_a_long_wait_is_shown_with_its_seconds(monkeypatch):
    work = Background()
    gate = threading.Event()
    monkeypatch.setattr(background, "SHOW_AFTER", 0.0)
    work.add("slow", "preparing", lambda: gate.wait(5))
    try:
        assert work.shown().startswith("preparing… ") and work.shown().endswith(" s")
    finally:
        gate.set()
        work.wait(5)
    assert work.shown() == ""


@pytest.fixture
def slow_physics(monkeypatch):
    """The exact engine's preparation held until the test lets it go, said as a compile with 5
    of its 73 parts done."""
    gate = threading.Event()
    engine = REGISTRY["exact"]
    monkeypatch.setattr(engine, "cold", lambda: True)
    monkeypatch.setattr(engine, "prepare", lambda progress: (progress(5, 73), gate.wait(10)))
    monkeypatch.setattr(background, "SHOW_AFTER", 0.0)
    yield gate
    gate.set()


def test_the_play_screen_waits_for_the_physics_and_says_so(slow_physics, monkeypatch):
    app = App((800, 600), sound=False, think_budget=None, background=True)
    try:
        seats = parse_seat_specs("south,north=cpu")
        match = Match(MatchConfig("race-for-home", "square", seats, 1, starter="north"))
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(500):  # the job runs between frames, as the window's loop leaves it room
            app.step(1 / 60)
            if app.background.note.startswith(f"{FIRST_RUN}: part 5 of 73"):
                break  # (the job says FIRST_RUN alone before its first part)
            time.sleep(0.005)
        assert app.background.note.startswith(f"{FIRST_RUN}: part 5 of 73, about ")
        assert not screen.ready() and not match.rolling and not match.shots
        texts: list[str] = []
        real = draw.text

        def text(surface, words, *args, **kw):
            texts.append(words)
            return real(surface, words, *args, **kw)

        monkeypatch.setattr(draw, "text", text)
        screen.draw(app.surface)
        monkeypatch.setattr(draw, "text", real)
        assert any(f"{FIRST_RUN}: part 5 of 73" in w for w in texts), texts
        slow_physics.set()
        assert app.background.wait(60)
        for _ in range(3):
            app.step(1 / 60)
        assert screen.ready()
    finally:
        app.close()


def test_f11_toggles_a_borderless_full_window_and_back():
    """F11 is a borderless window the size of the desktop (no video mode change to wait on a
    window manager for), and back to the window's size."""
    import pygame

    app = App((800, 600), sound=False, think_budget=None)
    try:
        for _ in range(2):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0))
            app.step(1 / 60)
            assert app.fullscreen
            assert app.surface.get_size() == pygame.display.get_desktop_sizes()[0]
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0))
            app.step(1 / 60)
            assert not app.fullscreen and app.surface.get_size() == (800, 600)
    finally:
        app.close()


def test_the_job_gives_way_while_the_window_makes_a_frame():
    """The job's thread makes no Python call while a frame is being made, and goes on after."""
    work = Background()
    stop = threading.Event()
    calls: list[int] = []

    def job() -> None:
        while not stop.is_set():
            calls.append(len(calls))

    work.add("busy", "busy", job)
    try:
        while len(calls) < 100:
            stop.wait(0.001)
        with work.frame():
            stop.wait(0.02)  # the job stops at its next call
            before = len(calls)
            stop.wait(0.05)
            during = len(calls) - before
        stop.wait(0.05)
        after = len(calls) - before - during
    finally:
        stop.set()
        work.wait(5)
    assert during <= 1 and after > 100


def test_the_setup_screen_draws_the_seated_pawns_in_the_background(monkeypatch):
    """The pawns a game's first frame shows are drawn before it, while the player chooses."""
    from sliders.scenes.setup import SetupScreen

    monkeypatch.setattr(REGISTRY["exact"], "prepare", lambda: None)
    app = App((800, 600), sound=False, background=True)
    try:
        config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north=cpu"), 1)
        app.show(SetupScreen(app, config))
        assert app.background.wait(30)
        drawn = {key[:2] for key in draw._sprites()._big}
        assert drawn == {(colour, str(n)) for colour in ("red", "yellow") for n in range(1, 5)}
    finally:
        app.close()


def test_a_person_slides_once_the_physics_is_loaded_while_the_computers_are_prepared():
    """The computer's preparation held: the person at south, who slides first, may slide as
    soon as the physics is loaded; the computer slides nothing until it is prepared."""
    gate = threading.Event()
    app = App((800, 600), sound=False, think_budget=None, background=True)
    try:
        seats = parse_seat_specs("south,north=cpu")
        match = Match(MatchConfig("race-for-home", "square", seats, 1, starter="south"))
        real_prepare = match.turns.prepare
        match.turns.prepare = lambda: (gate.wait(30), real_prepare())  # type: ignore[method-assign]
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(2000):
            app.step(1 / 60)
            if screen.physics_ready():
                break
            time.sleep(0.005)
        app.step(1 / 60)
        assert screen.physics_ready() and not screen.ready()
        assert screen._human_turn() == "south"
        assert match.play(Shot.from_degrees("south", 0.6, 0.0)) and match.rolling
        while match.rolling:
            match.advance(60.0, max_steps=10**7)
            if match.can_finish():
                match.finish()
        for _ in range(30):  # north's turn: it waits for its preparation
            app.step(1 / 60)
        assert match.turn == "north" and not match.rolling and len(match.shots) == 1
        gate.set()
        assert app.background.wait(60)
    finally:
        gate.set()
        app.close()

"""Round-end and results screens: one click presses one button, and a press that began before a
screen appeared does nothing on it; games are shown by name."""

from __future__ import annotations

import pygame
import pytest

from sliders.game.config import MatchConfig, SeatSpec, parse_seat_specs
from sliders.physics import Shot
from sliders.rules import Phase
from sliders.scenes.app import App
from sliders.scenes.play import PlayScreen
from sliders.scenes.results import ResultsScreen, subtitle
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.table import Match

FRAME = 1 / 60


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None)
    yield a
    a.close()


def _round_played(seats: str = "south,north=cpu:easy", seed: int = 2) -> Match:
    """A match whose first round has been slid and waits to be scored."""
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs(seats), seed))
    while match.state.phase is Phase.SHOOTING:
        seat = match.turn
        shot = match.think(None) if match.is_computer(seat) else Shot(seat, 0.58)
        assert shot is not None and match.start(shot)
        match.advance(60.0, max_steps=10**6)
        match.finish()
    return match


def _click(pos: tuple[int, int], down: bool = True, up: bool = True) -> None:
    if down:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    if up:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def _spot_on_both(screen: RoundEndScreen) -> tuple[int, int]:
    """A point on Accept that is also on Continue, where the screen puts it once scored."""
    both = screen.buttons["accept"].rect.clip(screen.buttons["continue"].rect)
    assert both.width > 0 and both.height > 0, "the buttons no longer overlap"
    return both.center


def test_one_click_on_accept_does_not_also_press_continue(app):
    match = _round_played()
    screen = RoundEndScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    assert screen.seat == "south"
    _click(_spot_on_both(screen))
    app.step(FRAME)
    assert screen.scored and screen.seat is None
    assert app.screen is screen, "the click on Accept went on to press Continue"
    _click(screen.buttons["continue"].rect.center)  # a click of its own does
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen) and match.state.round == 2


def test_a_release_without_its_press_does_nothing(app):
    """The button going up over Accept, its press having begun on the play screen before this
    screen appeared: nothing is accepted."""
    match = _round_played()
    screen = RoundEndScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    _click(screen.buttons["accept"].rect.center, down=False)
    app.step(FRAME)
    assert screen.seat == "south" and not screen.scored


def test_a_press_dragged_off_its_button_does_nothing(app):
    match = _round_played()
    screen = RoundEndScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    accept, prev = screen.buttons["accept"].rect, screen.buttons["prev"].rect
    _click(accept.center, up=False)
    _click(prev.center, down=False)
    app.step(FRAME)
    assert screen.seat == "south" and screen.index == 0 and not screen.scored


def test_results_buttons_need_their_own_press(app):
    match = _round_played("south=cpu:easy,north=cpu:easy", seed=11)
    match.score({s: match.assignment_for(s) for s in match.state.seats})
    screen = ResultsScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    again = screen.buttons[0].rect.center
    _click(again, down=False)  # the press that ended the round-end screen
    app.step(FRAME)
    assert app.screen is screen
    _click(again)
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen) and app.screen.match is not match


def test_games_are_shown_by_name():
    specs = (SeatSpec("south"), SeatSpec("west", "cpu"))
    match = Match(MatchConfig("instant-sorry", "crazy-corner", specs))
    assert subtitle(match, 1) == "Instant Sorry! · crazy corner · 1 round"
    match = Match(MatchConfig("race-for-home", "square", (SeatSpec("south"),)))
    assert subtitle(match, 3) == "Race for Home · square · 3 rounds"

"""The help over any screen (F1 or ?: the controls and the rules of the game played, each face's
own), how a pawn on a line scores said before the first score is seen, and a saved game taken
up again from the setup screen."""

from __future__ import annotations

import json
import os

import pygame
import pytest

from sliders.boards import face
from sliders.core.outcome import FACES
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.game.howto import SCORING_LINE, rules_of
from sliders.game.saves import save_game
from sliders.scenes import draw
from sliders.scenes.app import App
from sliders.scenes.play import PlayScreen
from sliders.scenes.resume import ResumeScreen
from sliders.scenes.setup import SetupScreen
from sliders.scenes.table import Match

FRAME = 1 / 60
OWN_RULE = {
    "race-for-home": None,
    "instant-home": "goes HOME at once",
    "instant-sorry": "4/5/6 circle",
    "danger-dots": "danger dot",
}


@pytest.fixture
def app():
    a = App((800, 600), sound=False, think_budget=None)
    a.clock = lambda: a.time
    yield a
    a.close()


def _key(key: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode))


def _words(app: App, monkeypatch) -> list[str]:
    drawn: list[str] = []
    real = draw.text

    def text(surface, words, *args, **kw):
        drawn.append(words)
        return real(surface, words, *args, **kw)

    monkeypatch.setattr(draw, "text", text)
    app.step(FRAME)
    monkeypatch.setattr(draw, "text", real)
    return drawn


@pytest.mark.parametrize("name", FACES)
def test_the_rules_of_each_face_say_how_a_line_scores_and_what_the_face_changes(name):
    rules = " ".join(rules_of(face(name)))
    assert SCORING_LINE in rules and "exact count" in rules and "SORRY!" in rules
    own = OWN_RULE[name]
    for other in OWN_RULE.values():
        if other is not None:
            assert (other in rules) == (other == own), (name, other)


@pytest.mark.parametrize("key, unicode", [(pygame.K_F1, ""), (pygame.K_SLASH, "?")])
def test_the_help_shows_the_controls_and_the_games_rules_and_the_game_waits(
    app, monkeypatch, key, unicode
):
    match = Match(MatchConfig("danger-dots", "square", parse_seat_specs("south=cpu,north=cpu"), 3))
    app.show(PlayScreen(app, match))
    for _ in range(5):
        app.step(FRAME)
    steps = len(match.game.steps)
    _key(key, unicode)
    words = _words(app, monkeypatch)
    assert app.help is not None and app._under is not None
    before = pygame.image.tobytes(app._under, "RGB")  # the screen under the help
    assert "The rules: Danger Dots" in words and any("Flick" in w for w in words), words
    for _ in range(600):  # the computers would have slid by now
        app.step(FRAME)
    assert len(match.game.steps) == steps and not match.rolling
    _key(pygame.K_ESCAPE)
    app.step(FRAME, draw=False)
    assert app.help is None
    assert pygame.image.tobytes(app.surface, "RGB") == before  # the screen as it was


def test_the_help_scrolls_in_a_small_window_and_says_so(monkeypatch):
    app = App((640, 420), sound=False, think_budget=None)
    try:
        app.show(
            SetupScreen(app, MatchConfig("instant-sorry", "square", parse_seat_specs("south")))
        )
        app.step(FRAME)
        _key(pygame.K_F1)
        words = _words(app, monkeypatch)
        lines = app.help.lines
        assert len(lines) > app.help.shown and any("below" in w for w in words)
        seen = set(words)
        for _ in range(len(lines)):
            _key(pygame.K_DOWN)
            seen.update(_words(app, monkeypatch))
        assert {w for w, _ in lines} <= seen  # every line can be read
        assert "The rules: Instant Sorry!" in seen
    finally:
        app.close()


def test_the_game_says_how_a_pawn_on_a_line_scores_before_any_score(app):
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north=cpu"), 1))
    screen = PlayScreen(app, match)
    assert any(SCORING_LINE in m for m in screen.messages[:2])
    setup = SetupScreen(app)
    assert any(SCORING_LINE in line for line in setup.about())


def _saved(tmp_path, name: str, seats: str = "south,north=cpu", seed: int = 2) -> Match:
    """A game with a shot played (a foul), saved as the window's Save game names it."""
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs(seats), seed))
    assert match.start(match.foul_shot("south", "south-1"))
    while match.sim is not None and match.sim.moving:
        match.advance(0.05)
    match.finish()
    save_game(match.game, tmp_path / name)
    return match


def test_a_saved_game_is_taken_up_from_the_setup_screen(app, tmp_path, monkeypatch):
    played = _saved(tmp_path, "sliders-game-20240501-180000.json")
    broken = tmp_path / "sliders-game-20240101-000000.json"
    broken.write_text("{not json")
    os.utime(broken, (1e9, 1e9))  # saved long before: listed after the newest
    monkeypatch.chdir(tmp_path)
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    _key(pygame.K_l)
    app.step(FRAME)
    chooser = app.screen
    assert isinstance(chooser, ResumeScreen)
    assert [s.path.name for s in chooser.saved][0] == "sliders-game-20240501-180000.json"
    assert chooser.saved[0].game is not None and "round 1" in chooser.saved[0].words
    unread = [s for s in chooser.saved if s.game is None]
    assert unread and unread[0].words.startswith("cannot be read")
    _key(pygame.K_RETURN)
    app.step(FRAME)
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    assert len(screen.match.game.steps) == len(played.game.steps)
    assert screen.match.is_computer("north") and not screen.match.is_computer("south")
    assert app.save_path == tmp_path / "sliders-game-20240501-180000.json"  # saved there again


def test_a_finished_game_is_listed_but_not_taken_up(app, tmp_path, finished_game):
    save_game(finished_game.game, tmp_path / "sliders-game-20240301-120000.json")
    chooser = ResumeScreen(app, None, tmp_path)
    app.show(chooser)
    assert chooser.saved and chooser.saved[0].game is None and "over" in chooser.saved[0].words
    chooser.resume()
    assert app.screen is chooser and "over" in chooser.note
    assert json.loads((tmp_path / "sliders-game-20240301-120000.json").read_text())


def test_with_no_saved_games_the_list_says_how_to_make_one(app, tmp_path, monkeypatch):
    chooser = ResumeScreen(app, None, tmp_path)
    app.show(chooser)
    words = _words(app, monkeypatch)
    assert any(w.startswith("No saved games here") for w in words)
    _key(pygame.K_ESCAPE)
    app.step(FRAME)
    assert isinstance(app.screen, SetupScreen)

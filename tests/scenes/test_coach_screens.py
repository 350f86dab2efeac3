"""The coach in the game's screens (headless, by posted events): the review offered on the
results screen and the replay screen, and back; the live chances of winning (W); a hint in a
game that allows them (H), written in the game's log, which still loads and replays."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from pathlib import Path

import pygame
import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.game.saves import load_replay, save_game
from sliders.lab.review import Review, review_of
from sliders.rules import Game
from sliders.scenes import coach
from sliders.scenes.app import App
from sliders.scenes.replay import ReplayScreen
from sliders.scenes.reviewscreen import ReviewScreen
from sliders.scenes.screens import PlayScreen, ResultsScreen
from sliders.scenes.table import Match

from .person import FRAME, ready

RACE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "games" / "race-for-home-square-exact.json"
)
TINY_REVIEW = replace(coach.REVIEWING_MIND, simulations=24, first=2)
TINY_HINT = replace(coach.HINT_MIND, simulations=40, first=2)


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None)
    yield a
    a.close()


def key(app: App, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    app.step(FRAME)


def test_the_replay_screen_offers_the_review_and_comes_back(app, monkeypatch):
    monkeypatch.setattr(coach, "REVIEWING_MIND", TINY_REVIEW)
    data = json.loads(RACE.read_text())
    data["steps"] = data["steps"][:4]  # the first four shots: a short game to review
    replay = ReplayScreen(app, Game.from_json(data))
    app.show(replay)
    app.step(FRAME)
    key(app, pygame.K_r)
    app.step(FRAME)
    review = app.screen
    assert isinstance(review, ReviewScreen)
    assert [s.index for s in review.review.shots] == [0, 1, 2, 3]  # every shot of the log
    key(app, pygame.K_ESCAPE)
    assert app.screen is replay and app.running


def test_the_results_screen_offers_the_review(app, monkeypatch):
    monkeypatch.setattr(coach, "REVIEWING_MIND", TINY_REVIEW)
    monkeypatch.setattr(coach, "review_of", partial(review_of, limit=3))  # kept short
    game = load_replay(RACE)  # a finished game, as the results screen shows one
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1)
    match = Match(config, game=game)
    results = ResultsScreen(app, match)
    app.show(results)
    app.step(FRAME)
    button = next(b for b in results.buttons if b.label == "Review")
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=button.rect.center, button=1))
    app.step(FRAME)
    app.step(FRAME)
    review = app.screen
    assert isinstance(review, ReviewScreen) and isinstance(review.review, Review)
    assert review.review.winner == match.state.winner == "south"
    assert len(review.review.shots) == 3
    review.buttons["close"].action()
    assert app.screen is results


def test_the_chances_of_winning_and_a_hint_written_in_the_log(app, tmp_path):
    app.hints = True
    seats = parse_seat_specs("south=human,north=cpu:easy")
    match = Match(MatchConfig("race-for-home", "square", seats, 3, hand="exact"))
    screen = PlayScreen(app, match)
    screen.coach.hint.mind = TINY_HINT
    app.show(screen)
    ready(app, screen)
    assert not screen.coach.chances.on  # off by default
    key(app, pygame.K_w)
    app.step(FRAME)
    chances = screen.coach.chances.chances(match.state)
    assert chances is not None and set(chances) == {"south", "north"}
    assert all(0 < p < 1 for p in chances.values())
    key(app, pygame.K_h)
    app.step(FRAME)
    hint = screen.coach.current()
    assert hint is not None and hint.seat == "south"
    assert match.game.hints == [(0, hint)]
    saved = save_game(match.game, tmp_path / "game.json")
    data = json.loads(saved.read_text())
    assert data["hints"][0]["step"] == 0 and data["hints"][0]["slide"]["pawn"] == "south-1"
    again = load_replay(saved)  # a log with hints loads; its game is the same
    assert again.hints == match.game.hints and again.states == match.game.states


def test_no_hint_where_the_game_does_not_allow_them(app):
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1))
    screen = PlayScreen(app, match)
    app.show(screen)
    ready(app, screen)
    key(app, pygame.K_h)
    app.step(FRAME)
    assert screen.coach.current() is None and match.game.hints == []

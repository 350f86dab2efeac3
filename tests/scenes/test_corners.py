"""The window in every corner: secondary text and the score track's digits read (contrast from
the theme's colours, sizes from the rendered font), every part of the play, round-end and
results screens inside the window at the smallest, a common and a large size with four seats,
the message log kept, the power gauge off the table, the lane pane sliding without rescaling its
picture, the printed FOUL LINE large enough and never under the held pawn, the chances of
winning adding to 100 % and hints naming pawns as the board does."""

from __future__ import annotations

import pygame
import pytest

from sliders.core.outcome import SEATS
from sliders.files.layouts import BUILTIN_LAYOUTS
from sliders.game.config import MatchConfig, default_seat_specs, parse_seat_specs
from sliders.game.narrate import PAWN_ID, name_pawns
from sliders.scenes import art, draw
from sliders.scenes.app import App
from sliders.scenes.coach import WinChances, whole_percents
from sliders.scenes.play import LOG_LINES, PlayScreen
from sliders.scenes.results import ResultsScreen, scrolled
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.setup import fitted
from sliders.scenes.table import Match

from .person import ready

SIZES = [(640, 420), (800, 600), (1920, 1080)]
FOUR = "south,west=cpu,north=cpu,east=cpu"
FRAME = 1 / 60


def _app(size: tuple[int, int], control: str = "flick") -> App:
    app = App(size, sound=False, think_budget=None, control=control)
    app.clock = lambda: app.time
    return app


def _play(app: App, seats: str = FOUR, layout: str = "square") -> PlayScreen:
    specs = parse_seat_specs(seats) if seats else default_seat_specs(layout)
    screen = PlayScreen(app, Match(MatchConfig("race-for-home", layout, specs, 1)))
    app.show(screen)
    app.step(FRAME)
    ready(app, screen)
    return screen


def _drawn(app: App, screen, monkeypatch) -> list[tuple[str, pygame.Rect, int]]:
    """The words ``screen`` draws on the window, their boxes and sizes."""
    drawn: list[tuple[str, pygame.Rect, int]] = []
    real = draw.text

    def text(surface, words, pos, size=24, *args, **kw):
        rect = real(surface, words, pos, size, *args, **kw)
        if surface is app.surface and words:
            drawn.append((words, rect, size))
        return rect

    monkeypatch.setattr(draw, "text", text)
    screen.draw(app.surface)
    monkeypatch.setattr(draw, "text", real)
    return drawn


# -- the theme ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ink", ["DIM", "TEXT"])
def test_text_reads_on_every_panel_and_square(ink):
    rgb = getattr(draw, ink)
    grounds = [draw.BACKGROUND, draw.PANEL, draw.CELL, *(draw.end_cell(s) for s in SEATS)]
    for ground in grounds:
        assert draw.contrast(rgb, ground) >= 4.5, (ink, ground, draw.contrast(rgb, ground))


def test_secondary_text_and_the_score_tracks_digits_are_at_least_12_px():
    pygame.font.init()
    assert draw.MIN_UI_SIZE * draw.SIZE_TO_PX >= 12  # the least text: a 12 px font
    digits = draw.rendered("0123456789", draw.SCORE_DIGITS, draw.DIM, True)
    assert digits.get_bounding_rect().h >= 12  # the digits themselves, ink to ink


# -- the play screen ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_four_seats_fit_the_sidebar_with_the_log_and_the_overview_button(size, monkeypatch):
    app = _app(size)
    try:
        screen = _play(app)
        for i in range(8):
            screen._say(f"line {i}: Yellow 2 knocks Red 1 off the board")
        window = app.surface.get_rect()
        panels = list(screen.panels().values())
        button = screen.overview_button.rect
        assert len(panels) == 4
        for i, panel in enumerate(panels):
            assert window.contains(panel) and screen.sidebar.contains(panel), (i, panel)
            assert not panel.colliderect(button)
            for other in panels[i + 1 :]:
                assert not panel.colliderect(other)
        assert window.contains(button) and not button.colliderect(screen.play_area)
        log = screen.sidebar.bottom - panels[-1].bottom
        assert log >= LOG_LINES * draw.line_step(draw.ui_size(app.surface, 19)), log
        drawn = _drawn(app, screen, monkeypatch)
        assert any("line 7" in words for words, _, _ in drawn)  # the newest message shown
        for words, rect, _ in drawn:
            assert window.contains(rect), (words, rect)
    finally:
        app.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_power_gauge_is_off_the_table(size):
    app = _app(size, control="aim")
    try:
        screen = _play(app, "south,north=cpu")
        gauge = screen.gauge_rect
        assert gauge.h >= 26 and app.surface.get_rect().contains(gauge)
        assert not gauge.colliderect(screen.play_area)
        for view in screen._panes():
            assert not gauge.colliderect(view.rect)
    finally:
        app.close()


def test_the_lane_pane_slides_away_without_rescaling_its_picture():
    app = _app((800, 600))
    try:
        screen = _play(app, "south,north=cpu")
        view = screen.lane_view
        full = screen.lane_rect
        assert full is not None
        scale = view.scale
        edge = view.to_world(full.right, full.centery)  # the world at the pane's inner edge
        for shown in (0.8, 0.5, 0.2):
            screen.lane_shown = shown
            screen._fit()
            part = screen.lane_rect
            assert part is not None and part.w < full.w
            assert view.scale == scale
            x, y = view.to_world(part.right, part.centery)
            assert abs(x - edge[0]) * scale < 1 and abs(y - edge[1]) * scale < 1
    finally:
        app.close()


@pytest.mark.parametrize("layout", BUILTIN_LAYOUTS)
def test_the_foul_line_words_are_12_px_and_never_under_the_held_pawn(layout):
    app = _app((640, 420))
    try:
        screen = _play(app, "", layout)
        m, view = screen.match, screen.lane_view
        seat = m.seat(m.turn)
        em = round(view.scale * art.FOUL_LABEL_EM)
        assert em >= 12, (layout, em)
        words = draw.font_px(em, True).render("FOUL LINE", True, (0, 0, 0))
        box = words.get_rect(center=view.to_screen(*art.foul_label_spot(seat)))
        if seat.forward[0] != 0:  # printed across a lane that runs across the screen
            box = pygame.Rect(0, 0, box.h, box.w).move(box.centerx - box.h // 2, box.y)
        limit = m.limits(seat.name).max_offset
        ring = view.px(m.params.pawn_radius) + 6  # the held pawn with its ring
        for k in range(-10, 11):
            cx, cy = view.to_screen(*seat.to_world(seat.foul, limit * k / 10))
            held = pygame.Rect(cx - ring, cy - ring, 2 * ring, 2 * ring)
            assert not held.colliderect(box), (layout, k, held, box)
    finally:
        app.close()


# -- the round-end and results screens ----------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_round_end_screen_fits_four_seats(size, monkeypatch):
    app = _app(size)
    try:
        match = Match(MatchConfig("race-for-home", "square", parse_seat_specs(FOUR), 1))
        screen = RoundEndScreen(app, match)
        app.show(screen)
        drawn = _drawn(app, screen, monkeypatch)
        window = app.surface.get_rect()
        panels = list(draw.sidebar_panels(screen.sidebar, match.state.seats, screen.below).values())
        buttons = [screen.buttons[k].rect for k in ("prev", "next", "accept")]
        for rect in [*panels, *buttons, screen.choice_rect]:
            assert window.contains(rect), rect
        for panel in panels:
            assert not any(panel.colliderect(b) for b in buttons)
            assert not panel.colliderect(screen.choice_rect)
        for words, rect, _ in drawn:
            assert window.contains(rect), (words, rect)
    finally:
        app.close()


def test_scrolling_rows_says_how_many_are_out_of_sight():
    rows = list(range(10))
    assert scrolled(rows, 12, 0) == (rows, 0, 0)
    assert scrolled(rows, 4, 0) == ([7, 8, 9], 7, 0)  # a line kept for the sign
    assert scrolled(rows, 4, 3) == ([4, 5, 6], 4, 3)
    assert scrolled(rows, 4, 99) == ([0, 1, 2], 0, 7)  # no farther than the first


def test_the_results_screen_shows_every_round_by_scrolling(finished_game, monkeypatch):
    app = _app((640, 420))
    try:
        screen = ResultsScreen(app, finished_game)
        app.show(screen)
        rounds = finished_game.state.rounds_played
        seen: set[str] = set()
        for _ in range(rounds + 2):
            drawn = _drawn(app, screen, monkeypatch)
            labels = [w for w, _, _ in drawn if w.startswith("round ")]
            seen.update(labels)
            if len(labels) < rounds:  # some rounds out of sight: said so
                assert any("earlier" in w and "later" in w for w, _, _ in drawn), drawn
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP, mod=0))
            app.step(FRAME, draw=False)
        assert len(seen) == rounds, (seen, rounds)
    finally:
        app.close()


# -- the coach's words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "chances",
    [
        {"south": 1 / 3, "north": 1 / 3, "west": 1 / 3},
        {"south": 0.335, "west": 0.335, "north": 0.335},  # each rounds up: 101 % before
        {"south": 0.6, "north": 0.55},  # each from its own model: more than one in all
        {"south": 0.0, "north": 0.0},
        {"south": 0.125, "west": 0.125, "north": 0.125, "east": 0.625},
    ],
)
def test_the_chances_of_winning_add_to_100(chances):
    shares = whole_percents(chances)
    assert sum(shares.values()) == 100 and set(shares) == set(chances)
    assert all(0 <= v <= 100 for v in shares.values())


def test_the_chances_drawn_add_to_100(monkeypatch):
    app = _app((800, 600))
    try:
        hands = {s: None for s in ("south", "west", "north")}
        chances = WinChances(app, None, None, None, hands)  # type: ignore[arg-type]
        monkeypatch.setattr(chances, "chances", lambda key: dict.fromkeys(hands, 0.335))
        drawn: list[str] = []
        real = draw.text
        monkeypatch.setattr(
            draw, "text", lambda s, w, *a, **k: drawn.append(w) or real(s, w, *a, **k)
        )
        chances.draw(app.surface, pygame.Rect(10, 10, 300, 0), None)
        assert sum(int(w[:-1]) for w in drawn if w.endswith("%")) == 100, drawn
    finally:
        app.close()


def test_a_hint_names_pawns_as_the_board_does():
    assert name_pawns("takeout: knock north-1 off the board") == (
        "takeout: knock Yellow 1 off the board"
    )
    assert name_pawns("hit: push east-4, then south-2") == "hit: push Green 4, then Red 2"
    assert not PAWN_ID.search(name_pawns("guard west-3"))
    assert name_pawns("draw to 5 at +0.012,-0.003") == "draw to 5 at +0.012,-0.003"


def test_the_setup_line_keeps_the_clauses_that_fit():
    pygame.font.init()
    words = "as Race for Home; a pawn in the centre hole sends one back to START; " + "x" * 80
    size = draw.MIN_UI_SIZE
    wide = draw.font(size).size(words)[0]
    assert fitted(words, size, wide) == words
    two = "as Race for Home; a pawn in the centre hole sends one back to START"
    assert fitted(words, size, draw.font(size).size(two)[0]) == two
    assert fitted(words, size, draw.font(size).size("as Race for Home")[0]) == "as Race for Home"

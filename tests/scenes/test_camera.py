"""The camera's views on every built-in layout at 1280x800, and its easing."""

from __future__ import annotations

import math

import pygame
import pytest

from sliders.boards import BUILTIN_LAYOUTS
from sliders.boards.layoutfile import read_layout
from sliders.game.config import MatchConfig, SeatSpec
from sliders.scenes.app import App
from sliders.scenes.camera import Camera
from sliders.scenes.controls import hand_spot
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

FRAME = 1 / 60


@pytest.fixture(scope="module")
def app():
    a = App((1280, 800), sound=False, think_budget=None)
    yield a
    a.close()


def _screen(
    app: App, layout: str, seat: str | None = None, seats: tuple[str, ...] = ()
) -> PlayScreen:
    seats = seats or read_layout(layout).default_seats
    match = Match(
        MatchConfig("race-for-home", layout, tuple(SeatSpec(s) for s in seats), 1, starter=seat)
    )
    screen = PlayScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    return screen


def _settle(app: App, screen: PlayScreen, seconds: float = 3.0) -> None:
    for _ in range(round(seconds / FRAME)):
        app.step(FRAME, draw=False)


SEATINGS = [
    (name, read_layout(name).seating(n))
    for name in BUILTIN_LAYOUTS
    for n in read_layout(name).seat_counts
]


@pytest.mark.parametrize(("layout", "seats"), SEATINGS, ids=[f"{n}-{len(s)}" for n, s in SEATINGS])
def test_aiming_shows_the_near_end_of_every_lane_large(app, layout, seats):
    for seat in seats:
        screen = _screen(app, layout, seat, seats)
        m, view = screen.match, screen.view
        lane = m.seat(seat)
        waiting = view.to_screen(*lane.to_world(*hand_spot(m, seat, 0, 4)))
        foul = view.to_screen(*lane.to_world(lane.foul, 0.0))
        assert math.dist(waiting, foul) >= 150, (layout, seat)
        # the hand, the foul line and the aim control's pull-back room are in the play area
        assert screen.play_area.collidepoint(waiting) and screen.play_area.collidepoint(foul)


@pytest.mark.parametrize("layout", BUILTIN_LAYOUTS)
def test_at_rest_the_board_fills_the_play_area(app, layout):
    screen = _screen(app, layout)
    screen.overview = False
    screen._rest_hold = 10.0  # the board after a shot
    _settle(app, screen)
    view = screen.view
    h = screen.match.layout.board_side / 2
    (x0, y0), (x1, y1) = view.to_screen(-h, h), view.to_screen(h, -h)
    assert x1 - x0 >= 450 and y1 - y0 >= 450
    assert screen.play_area.collidepoint(x0, y0) and screen.play_area.collidepoint(x1 - 1, y1 - 1)
    assert 2 * view.px(screen.match.params.pawn_radius) >= 30
    assert view.px(0.014) >= 14  # the ring and zone labels' size


def test_the_camera_eases_without_jumps():
    pygame.display.init()
    layout = Match(MatchConfig("race-for-home", "triple-track", (SeatSpec("south"),
                   SeatSpec("north")), 1)).layout  # fmt: skip
    from sliders.boards import face
    from sliders.scenes.draw import TableView

    cam = Camera(TableView(layout, face("race-for-home"), 0.0125), layout)
    cam.place(pygame.Rect(10, 50, 866, 740))
    cam.aim_at(cam.aim(layout.seat("south")))
    cam.update(FRAME)
    start, goal = cam.centre, cam.board()
    cam.aim_at(goal)
    steps = []
    prev = cam.centre
    for _ in range(240):
        cam.update(FRAME)
        steps.append(math.dist(prev, cam.centre))
        prev = cam.centre
    total = math.dist(start, goal[0])
    assert max(steps) < 0.1 * total  # no frame covers more than a tenth of the way
    assert cam.centre == pytest.approx(goal[0]) and cam.scale == pytest.approx(goal[1])

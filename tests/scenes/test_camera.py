"""The camera's views on every built-in layout at 1280x800, and its easing."""

from __future__ import annotations

import math

import pygame
import pytest

from sliders.files.layouts import BUILTIN_LAYOUTS, read_layout
from sliders.game.config import MatchConfig, SeatSpec
from sliders.scenes.app import App
from sliders.scenes.camera import Camera
from sliders.scenes.controls import hand_spot
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

FRAME = 1 / 60


@pytest.fixture(scope="module")
def app():
    a = App((1280, 800), sound=False, think_budget=None, control="aim")
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


SIZES = [(800, 600), (1280, 800), (1920, 1080)]
BOARD_PX = {(1280, 800): 300, (1920, 1080): 300}
"""the least board width (px) in sight while aiming, by window size (issue 27: 300 at 1280x800)"""
PAWN_PX = 16
"""the least pawn diameter (px) while aiming, the shooter's and the target's"""


@pytest.fixture(scope="module", params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def sized_app(request):
    a = App(request.param, sound=False, think_budget=None)
    yield a
    a.close()


def aiming_geometry(screen: PlayScreen, seat: str) -> dict[str, float]:
    """What the person sees while ``seat`` aims, from the drawn transforms: the board's width
    and the pawns' diameters in the main pane, the hand's room and the pawns in the lane pane."""
    m = screen.match
    lane = m.seat(seat)
    main, side = screen.view, screen.lane_view
    h = m.layout.board_side / 2
    (x0, y0), (x1, y1) = main.to_screen(-h, h), main.to_screen(h, -h)
    assert main.rect.inflate(2, 2).contains(pygame.Rect(x0, y0, x1 - x0, y1 - y0)), "whole board"
    assert screen.lane_rect is not None and side.rect == screen.lane_rect
    assert not side.rect.colliderect(main.rect), "the panes side by side"
    waiting = side.to_screen(*lane.to_world(*hand_spot(m, seat, 0, 4)))
    last = side.to_screen(*lane.to_world(*hand_spot(m, seat, 3, 4)))
    foul = side.to_screen(*lane.to_world(lane.foul, 0.0))
    for point in (waiting, last, foul):
        assert side.rect.collidepoint(point), (point, side.rect)
    r = m.params.pawn_radius
    return {
        "board": x1 - x0,
        "pawn": 2 * main.px(r),
        "hand_pawn": 2 * side.px(r),
        "room": math.dist(waiting, foul),
    }


@pytest.mark.parametrize(("layout", "seats"), SEATINGS, ids=[f"{n}-{len(s)}" for n, s in SEATINGS])
def test_aiming_shows_the_lane_and_the_board_together(sized_app, layout, seats):
    size = sized_app.surface.get_size()
    for seat in seats:
        screen = _screen(sized_app, layout, seat, seats)
        _settle(sized_app, screen, 2.0)
        seen = aiming_geometry(screen, seat)
        assert seen["board"] >= BOARD_PX.get(size, 0), (layout, seat, size, seen)
        assert seen["pawn"] >= PAWN_PX and seen["hand_pawn"] >= PAWN_PX, (layout, seat, seen)
        assert seen["room"] >= 100, (layout, seat, seen)  # room to swing a flick


@pytest.mark.parametrize("layout", BUILTIN_LAYOUTS)
def test_at_rest_the_board_fills_the_play_area(app, layout):
    screen = _screen(app, layout)
    screen.overview = False
    screen._rest_hold = 10.0  # the board after a shot
    _settle(app, screen)
    assert screen.lane_rect is None  # no one aims while the board is shown after a shot
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


def _press(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))


def test_a_person_aims_from_the_overview_too(app):
    screen = _screen(app, "quadruple-track", "south", ("south", "north"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0))
    _settle(app, screen)
    assert screen.overview and screen.lane_rect is not None
    lane = screen.match.seat("south")
    press = screen.view.to_screen(*lane.to_world(lane.foul - 0.005, 0.0))
    assert screen.view.rect.collidepoint(press)
    _press(press)
    app.step(FRAME)
    assert screen.held == "south-1" and screen.control.view is screen.view


def test_a_press_while_the_view_still_moves_is_ignored(app):
    screen = _screen(app, "crazy-corner", "south", ("south", "west"))
    assert 0 < screen.lane_shown < 1  # the lane pane is sliding in
    lane = screen.match.seat("south")
    _press(screen.lane_view.to_screen(*lane.to_world(lane.foul - 0.005, 0.0)))
    app.step(FRAME)
    assert screen.held is None
    _settle(app, screen)
    _press(screen.lane_view.to_screen(*lane.to_world(lane.foul - 0.005, 0.0)))
    app.step(FRAME)
    assert screen.held == "south-1"

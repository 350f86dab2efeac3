"""Every built-in layout is playable by a person: from every seat of every seat count, with
each control, posted mouse events land a pawn on the board's centre ring without a foul."""

from __future__ import annotations

import math

import pytest

from sliders.core.outcome import Status
from sliders.files.layouts import BUILTIN_LAYOUTS, read_layout
from sliders.game.config import MatchConfig, SeatSpec
from sliders.physics import Shot, simulate
from sliders.scenes.app import App
from sliders.scenes.controls import CONTROLS, pull_speed
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

from .person import FRAME, slide_to


def _cases():
    for name in BUILTIN_LAYOUTS:
        spec = read_layout(name)
        for count in spec.seat_counts:
            seats = spec.seating(count)
            for seat in seats:
                yield name, seats, seat


CASES = list(_cases())


@pytest.fixture(scope="module", params=CONTROLS)
def app(request):
    a = App((1280, 800), sound=False, think_budget=None, control=request.param)
    a.clock = lambda: a.time
    yield a
    a.close()


def _aim(match: Match, seat: str) -> tuple[tuple[float, float], float]:
    """Where to aim (a point of the centre ring) and from where across the lane: straight up
    a lane that points at the centre; from the far side of a lane beside the centre (crazy
    corner), across it to the ring's near side, clear of the side rail."""
    lane = match.seat(seat)
    rx, ry = lane.right
    off = -(lane.near[0] * rx + lane.near[1] * ry)  # the board centre's offset from the axis
    if abs(off) < 1e-9:
        return (0.0, 0.0), 0.0
    limit = lane.width / 2 - match.params.pawn_radius
    k = -math.copysign(0.015, off)
    return (rx * k, ry * k), -math.copysign(limit, off)


@pytest.mark.parametrize(("layout", "seats", "seat"), CASES, ids=[
    f"{n}-{len(s)}-{t}" for n, s, t in CASES
])  # fmt: skip
def test_a_person_lands_on_the_centre_ring_from_every_seat(app, layout, seats, seat):
    specs = tuple(SeatSpec(s, "human") for s in seats)
    match = Match(MatchConfig("race-for-home", layout, specs, 1, starter=seat, hand="exact"))
    screen = PlayScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    assert match.state.turn == seat
    slide_to(app, screen, seat, *_aim(match, seat))
    assert match.rolling, "the slide made no shot"
    for _ in range(4000):
        if not match.rolling:
            break
        app.step(FRAME, draw=False)
    rest = match.results[-1].pawn(match.results[-1].shooter)
    assert rest.status is Status.ON_TARGET, (rest, match.shots[-1])
    assert rest.points == 5, (rest, math.hypot(rest.x, rest.y))


@pytest.mark.parametrize("layout", BUILTIN_LAYOUTS)
def test_half_power_reaches_the_rings_on_every_layout(layout):
    """A beginner's straight pull at half power, from the middle of the foul line, stops on the
    board's rings from every seat (the aim control's scale: distance in proportion to the pull,
    half power to the board's centre)."""
    spec = read_layout(layout)
    seats = spec.seating(max(spec.seat_counts))
    match = Match(MatchConfig("race-for-home", layout, tuple(SeatSpec(s, "human") for s in seats)))
    for seat in seats:
        shot = Shot(seat, pull_speed(match, seat, 0.5), 0.0, 0.0, None, f"{seat}-1")
        rest = simulate(match.turns.setup, (), shot).pawn(f"{seat}-1")
        assert rest.status is Status.ON_TARGET and rest.points >= 1, (seat, rest)

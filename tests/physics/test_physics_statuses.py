"""Rest statuses produced by real shots and scenes."""

from __future__ import annotations

import numpy as np
import pytest

from sliders.boards import face
from sliders.boards.geometry import open_spans, way_off
from sliders.core.outcome import STATUSES, EventType, Status
from sliders.files.layouts import load_layout
from sliders.physics import Setup, Shot, Shots, at_rest, simulate, simulate_many
from sliders.physics.exact.resolution import way_off as compiled_way_off
from sliders.physics.exact.world import param_vector

from .helpers import RACE, SQUARE2, SQUARE4, P, pawn, speed_to_reach

R = P.pawn_radius


def test_slow_pawn_stays_on_its_own_track() -> None:
    (p,) = simulate(Setup(SQUARE2, RACE), [], Shot("south", 0.2)).pawns
    assert p.status is Status.OWN_TRACK and p.points == 0
    assert p.y < -0.13


def test_pawn_tipping_over_the_mouth_scores_one() -> None:
    v = speed_to_reach(-0.13 - R / 2)
    (p,) = simulate(Setup(SQUARE2, RACE), [], Shot("south", v)).pawns
    assert p.status is Status.TIPPING and p.points == 1
    assert p.y == pytest.approx(-0.13 - R / 2, abs=2e-4)


@pytest.mark.parametrize(
    "stop_y,points",
    [
        (-0.045 - R + 0.001, 4),  # footprint just over the 4 ring's line scores 4
        (-0.045 - R - 0.001, 3),  # just short of it scores 3
        (0.0, 5),
        (-0.11, 1),
    ],
)
def test_pawn_on_a_ring_line_scores_the_higher_ring(stop_y: float, points: int) -> None:
    (p,) = simulate(Setup(SQUARE2, RACE), [], Shot("south", speed_to_reach(stop_y))).pawns
    assert p.status is Status.ON_TARGET
    assert p.points == points


def test_pawn_on_a_sorry_corner_is_removed() -> None:
    # a pawn at rest touching the corner's quarter disc, then a shot that does not touch it
    corner = pawn("north-1", 0.13 - 0.04, 0.13 - 0.04)
    result = simulate(Setup(SQUARE2, RACE), [corner], Shot("south", 0.2))
    assert result.pawn("north-1").status is Status.SORRY_CORNER
    # a shot that bounces off the track's rail and ends on the far-left corner
    hit = simulate(Setup(SQUARE2, RACE), [], Shot.from_degrees("south", 0.8, 20.0, offset=0.04))
    assert hit.pawns[0].status is Status.SORRY_CORNER
    assert any(e.type is EventType.RAIL for e in hit.events)


def test_fast_pawn_leaves_the_table_off_board() -> None:
    result = simulate(Setup(SQUARE2, RACE), [], Shot.from_degrees("south", 2.5, 20.0))
    (p,) = result.pawns
    assert p.status is Status.OFF_BOARD
    assert [e.type for e in result.events if e.type is EventType.OFF_BOARD] == [EventType.OFF_BOARD]


def test_pawn_pushed_up_another_seats_track() -> None:
    west = pawn("west-1", 0.0, 0.10)
    v = speed_to_reach(0.10 + 0.19)  # arrives with about 0.6 m/s
    result = simulate(Setup(SQUARE4, RACE), [west], Shot("south", v))
    pushed = result.pawn("west-1")
    assert pushed.status is Status.OTHER_TRACK
    assert pushed.y > 0.13 and abs(pushed.x) < 0.055


def test_hard_hit_knocks_a_pawn_over() -> None:
    result = simulate(Setup(SQUARE2, RACE), [pawn("north-1", 0.0, 0.0)], Shot("south", 2.6))
    assert result.pawn("north-1").status is Status.KNOCKED_OVER
    kinds = [e.type for e in result.events]
    assert kinds.index(EventType.CONTACT) < kinds.index(EventType.KNOCKED_OVER)


def test_gentle_hit_does_not_knock_over() -> None:
    result = simulate(Setup(SQUARE2, RACE), [pawn("north-1", 0.0, 0.0)], Shot("south", 0.8))
    assert result.pawn("north-1").status is not Status.KNOCKED_OVER


@pytest.mark.parametrize("name", ["instant-home", "instant-sorry"])
def test_slow_pawn_over_the_hole_drops_in(name: str) -> None:
    result = simulate(Setup(SQUARE2, face(name)), [], Shot("south", speed_to_reach(0.0)))
    assert result.pawns[0].status is Status.IN_HOLE
    assert any(e.type is EventType.IN_HOLE for e in result.events)


def test_hole_edge_scores_four_on_instant_home_and_a_choice_on_instant_sorry() -> None:
    edge = [pawn("south-1", 0.015 + R / 2, 0.0)]
    (home,) = at_rest(SQUARE2, face("instant-home"), edge)
    assert home.status is Status.HOLE_EDGE and home.points == 4
    (sorry,) = at_rest(SQUARE2, face("instant-sorry"), edge)
    assert sorry.status is Status.HOLE_EDGE and sorry.choices == (4, 5, 6)


def test_four_five_six_circle_offers_a_choice() -> None:
    (p,) = at_rest(SQUARE2, face("instant-sorry"), [pawn("south-1", 0.0, 0.05)])
    assert p.status is Status.ON_TARGET and p.choices == (4, 5, 6)


def test_pawn_at_rest_on_a_danger_dot() -> None:
    dots = face("danger-dots")
    d = dots.dots[0]
    (p,) = at_rest(SQUARE2, dots, [pawn("south-1", d.x + R, d.y)])
    assert p.status is Status.DANGER_DOT and p.points == 0
    (q,) = at_rest(SQUARE2, RACE, [pawn("south-1", d.x + R, d.y)])
    assert q.status is Status.ON_TARGET


def test_release_beyond_the_foul_line_is_a_foul() -> None:
    result = simulate(Setup(SQUARE2, RACE), [], Shot("south", 0.6, release=0.2))
    assert result.pawns[0].status is Status.FOUL
    assert [e.type for e in result.events][:2] == [EventType.RELEASE, EventType.FOUL]


TRIPLE = load_layout("triple-track")


@pytest.mark.parametrize("engine", ["exact", "pymunk"])
def test_a_pawn_off_a_side_of_the_board_is_told_from_one_off_a_corner(engine: str) -> None:
    """Triple-track's far side is open: straight up the lane, a fast pawn leaves across the
    middle of the north side (``off_side``); aimed at the corner, by the corner (``off_board``).
    The batch reads the same statuses as the single shot."""
    setup = Setup(TRIPLE, RACE, engine=engine)
    side = simulate(setup, [], Shot("south", 2.5))
    (p,) = side.pawns
    assert p.status is Status.OFF_SIDE and abs(p.x) < 0.02 and p.y == pytest.approx(0.13, abs=0.02)
    assert [e.type for e in side.events if e.type is EventType.OFF_BOARD] == [EventType.OFF_BOARD]
    # a cut sends the pawn in the middle of the board off by the north-east corner
    centre = [pawn("north-1", 0.0, 0.0)]
    corner = simulate(setup, centre, Shot("south", 2.0, offset=-0.02))
    q = corner.pawn("north-1")
    assert q.status is Status.OFF_BOARD and 0.13 - q.x < 0.05 + R and q.y > 0.125
    many = simulate_many(setup, centre, Shots("south", np.full(2, 2.0), np.zeros(2),
                                              np.array([0.0, -0.02])))  # fmt: skip
    assert STATUSES[many.status[0, 1]] is Status.OFF_SIDE  # straight: out across the north side
    assert STATUSES[many.status[1, 1]] is Status.OFF_BOARD


def test_on_the_square_every_pawn_that_leaves_the_board_leaves_by_a_corner() -> None:
    """The square's open edges run from a track's mouth to a corner: a centre crossing one a
    radius clear of the mouth's rail is within a corner's reach (``way_off``)."""
    for edge, spans in open_spans(SQUARE4).items():
        for lo, hi in spans:
            for a in np.linspace(lo + R if lo > -0.13 else lo, hi - R if hi < 0.13 else hi, 50):
                x, y = (a, 0.13) if edge in ("north", "south") else (0.13, a)
                assert way_off(RACE, x, y, R) is Status.OFF_BOARD, (edge, a)


def test_the_compiled_reading_of_the_way_off_is_the_geometrys() -> None:
    """The exact engine's kernel and :func:`way_off` (which the pymunk engine calls) agree at
    every point around the board's edge and beyond a track's end."""
    params = param_vector(RACE, P)
    for a in np.linspace(-0.13, 0.13, 105):
        for x, y in ((a, 0.13), (0.13, a), (-a, -0.13), (-0.13, -a), (a, 0.131), (a, 0.5)):
            code = compiled_way_off(float(x), float(y), params)
            assert STATUSES[code] is way_off(RACE, x, y, R), (x, y)

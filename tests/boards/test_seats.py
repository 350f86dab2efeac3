"""Seats are named by seat or by colour wherever a command, a file or the rules take one; one
parser reads them all."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sliders.cli import main
from sliders.core.errors import UserError
from sliders.core.outcome import parse_seat, parse_seats
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout, read_layout
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.table import Match


@pytest.mark.parametrize(
    ("name", "seat"), [("red", "south"), ("Blue", "west"), (" north ", "north"), ("GREEN", "east")]
)
def test_a_seat_is_a_seat_name_or_a_colour(name, seat):
    assert parse_seat(name) == seat


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("purple", "unknown seat 'purple'; choose from red/south, blue/west"),
        ("red,south", "seat 'south' is named twice"),
        (",", "no seats given"),
    ],
)
def test_a_bad_seat_list_is_one_clear_line(text, message):
    with pytest.raises(UserError, match=message):
        parse_seats(text)


def test_the_shooting_seat_may_be_a_colour(capsys):
    argv = ["shot", "--seats", "red,yellow", "--speed", "0.6", "--json"]
    assert main([*argv, "--seat", "yellow"]) == 0
    by_colour = json.loads(capsys.readouterr().out)
    assert main([*argv, "--seat", "north"]) == 0
    assert json.loads(capsys.readouterr().out) == by_colour
    assert by_colour["shooter"] == "north-1"
    assert main([*argv, "--seat", "mauve"]) == 2
    assert "unknown seat 'mauve'" in capsys.readouterr().err


def test_layouts_take_colours():
    assert load_layout("square", "green,blue").seat_names == ("west", "east")


def test_a_scene_file_may_name_seats_by_colour(tmp_path, capsys):
    from sliders.files.scenes import Scene

    path = tmp_path / "scene.json"
    path.write_text(
        json.dumps({"layout": "square", "face": "instant-home", "seats": ["Yellow", "red"]})
    )
    assert Scene.load(str(path)).seats == ("south", "north")
    assert main(["shot", "--scene", str(path), "--speed", "0.6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shooter"] == "south-1"
    path.write_text(json.dumps({"layout": "square", "face": "instant-home", "seats": ["mauve"]}))
    with pytest.raises(UserError, match=r"scene\.json: seats: unknown seat 'mauve'"):
        Scene.load(str(path))


def test_a_layout_file_may_name_its_seats_by_colour(tmp_path):
    text = """
[[track]]
name = "near"
edge = "south"
[[track]]
name = "far"
edge = "north"
[[seat]]
name = "Red"
track = "near"
[[seat]]
name = "yellow"
track = "far"
"""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    assert load_layout(str(path)).seat_names == ("south", "north")
    assert load_layout(str(path), "yellow,red").seat_names == ("south", "north")


def _every_seat():
    for name in BUILTIN_LAYOUTS:
        count = max(read_layout(name).seat_counts)
        yield from load_layout(name, count).seats


SEATS_OF_EVERY_LAYOUT = list(_every_seat())


@pytest.mark.parametrize("seat", SEATS_OF_EVERY_LAYOUT, ids=lambda s: f"{s.name}@{s.near}")
@given(along=st.floats(-2, 2, allow_nan=False), across=st.floats(-2, 2, allow_nan=False))
@settings(max_examples=50, deadline=None)
def test_from_world_undoes_to_world_on_every_seat(seat, along, across):
    a, c = seat.from_world(*seat.to_world(along, across))
    assert math.isclose(a, along, abs_tol=1e-12) and math.isclose(c, across, abs_tol=1e-12)
    x, y = seat.to_world(along, across)
    assert seat.to_world(*seat.from_world(x, y)) == pytest.approx((x, y), abs=1e-12)
    va, vc = seat.vector_from_world(*seat.vector_to_world(along, across))
    assert (va, vc) == (along, across)  # a lane's axes are the world's: exact


@pytest.mark.parametrize("seat", SEATS_OF_EVERY_LAYOUT, ids=lambda s: f"{s.name}@{s.near}")
def test_a_lanes_frame_points_down_the_lane_and_to_the_right(seat):
    assert seat.from_world(*seat.near) == (0.0, 0.0)
    fx, fy = seat.forward
    assert seat.from_world(seat.near[0] + fx, seat.near[1] + fy) == pytest.approx((1.0, 0.0))
    rx, ry = seat.right
    assert seat.from_world(seat.near[0] + rx, seat.near[1] + ry) == pytest.approx((0.0, 1.0))
    # the shooter's right is clockwise of forward, seen from above
    assert fx * ry - fy * rx == -1
    # the board's centre is down the lane, beyond the foul line
    assert seat.from_world(0.0, 0.0)[0] > seat.foul


def test_the_window_and_the_game_read_lane_points_with_from_world():
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1))
    for name in ("south", "north"):
        seat = match.seat(name)
        assert match.lane_coords(name, 0.03, -0.2) == seat.from_world(0.03, -0.2)

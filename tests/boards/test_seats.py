"""Seats are named by seat or by colour wherever a command, a file or the rules take one; one
parser reads them all."""

from __future__ import annotations

import json

import pytest

from sliders.boards import load_layout
from sliders.cli import main
from sliders.errors import UserError
from sliders.outcome import parse_seat, parse_seats


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
    from sliders.boards.scene import Scene

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

"""Scene files of the wrong shape: each is one line saying which field is wrong, in the words of the
scene file format, not of Python."""

from __future__ import annotations

import json

import pytest

from sliders.boards.scene import Scene, ScenePawn
from sliders.errors import UserError

GOOD = {"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "race-for-home"}
PAWN = {"id": "north-1", "x": 0.004, "y": 0.035}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema": "1"}, "schema '1' is not a schema number"),
        ({"schema": 0}, "schema 0 is not a schema number"),
        ({"schema": 2}, "schema 2 is newer than this version reads"),
        ({"layout": {"name": "square"}}, "layout must be a layout name or file"),
        ({"layout": ""}, "layout must be a layout name or file"),
        ({"seats": None}, "seats must be a list of seat names, got None"),
        ({"seats": [1, 2]}, "seats must be a list of seat names"),
        ({"face": 3}, "unknown face 3"),
        ({"pawns": {"north-1": [0, 0]}}, "pawns must be a list of {id, x, y}"),
        ({"pawns": [5]}, "a pawn must be an object {id, x, y}, got 5"),
        ({"pawns": [{"id": "north-1", "x": 0.0}]}, "a pawn is missing field 'y'"),
        ({"pawns": [{**PAWN, "id": 7}]}, "a pawn id must be text like 'north-1', got 7"),
        ({"pawns": [{**PAWN, "x": True}]}, "pawn north-1: x must be a number of metres, got True"),
        (
            {"pawns": [{**PAWN, "y": "0.1"}]},
            "pawn north-1: y must be a number of metres, got '0.1'",
        ),
        ({"pawns": [{**PAWN, "y": None}]}, "pawn north-1: y must be a number of metres"),
    ],
)
def test_a_field_of_the_wrong_shape_is_named(change, message, tmp_path) -> None:
    path = tmp_path / "scene.json"
    path.write_text(json.dumps({**GOOD, **change}))
    with pytest.raises(UserError) as err:
        Scene.load(str(path))
    text = str(err.value)
    assert text.startswith(f"scene file {path}: ") and message in text, text
    assert "\n" not in text


def test_missing_fields_are_named() -> None:
    for key in ("layout", "face", "seats"):
        data = {k: v for k, v in GOOD.items() if k != key}
        with pytest.raises(UserError, match=f"missing field '{key}'"):
            Scene.from_json(data)


def test_a_good_scene_reads_and_round_trips(tmp_path) -> None:
    data = {**GOOD, "pawns": [PAWN, {"id": "south-2", "x": 0, "y": -0.05}]}
    scene = Scene.from_json(data)
    assert scene.pawns == (ScenePawn("north-1", 0.004, 0.035), ScenePawn("south-2", 0.0, -0.05))
    assert Scene.from_json({**GOOD, "seats": "south,north"}).seats == ("south", "north")
    scene.save(str(tmp_path / "s.json"))
    assert Scene.load(str(tmp_path / "s.json")) == scene

"""Scene files of the wrong shape: each is one line saying which field is wrong, in the words of the
scene file format, not of Python."""

from __future__ import annotations

import json

import pytest

from sliders.core.errors import UserError
from sliders.files.scenes import Scene, ScenePawn

GOOD = {"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "race-for-home"}
PAWN = {"id": "north-1", "x": 0.004, "y": 0.035}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema": "1"}, "schema: expected a whole number within 1..2^31, got '1'"),
        ({"schema": 0}, "schema: expected a whole number within 1..2^31, got 0"),
        ({"schema": True}, "schema: expected a whole number within 1..2^31, got True"),
        ({"schema": 2}, "schema 2 is newer than this version reads"),
        ({"layout": {"name": "square"}}, "layout: expected text of 1 to 4096 characters"),
        ({"layout": ""}, "layout: expected text of 1 to 4096 characters, got ''"),
        ({"seats": None}, "seats: expected a list of 1..4 items, got None"),
        ({"seats": [1, 2]}, "seats[0]: expected text of 1 to 16 characters, got 1"),
        ({"seats": ["south", "up"]}, "seats: unknown seat 'up'"),
        ({"face": 3}, "face: expected one of race-for-home"),
        ({"pawns": {"north-1": [0, 0]}}, "pawns: expected a list of 0..16 items, got an object"),
        ({"pawns": [5]}, "pawns[0]: expected an object {id, x, y}, got 5"),
        ({"pawns": [{"id": "north-1", "x": 0.0}]}, "pawns[0]: missing field 'y'"),
        ({"pawns": [{**PAWN, "id": 7}]}, "pawns[0].id: expected a pawn id SEAT-N"),
        ({"pawns": [{**PAWN, "id": "north-01"}]}, "pawns[0].id: expected a pawn id SEAT-N"),
        ({"pawns": [{**PAWN, "id": "north- 1"}]}, "pawns[0].id: expected a pawn id SEAT-N"),
        ({"pawns": [{**PAWN, "id": "north-+1"}]}, "pawns[0].id: expected a pawn id SEAT-N"),
        ({"pawns": [{**PAWN, "id": "north-5"}]}, "with N from 1 to 4, got 'north-5'"),
        (
            {"pawns": [{**PAWN, "x": True}]},
            "pawns[0].x: expected a number (m) within ±10, got True",
        ),
        (
            {"pawns": [{**PAWN, "y": "0.1"}]},
            "pawns[0].y: expected a number (m) within ±10, got '0.1'",
        ),
        (
            {"pawns": [{**PAWN, "y": None}]},
            "pawns[0].y: expected a number (m) within ±10, got None",
        ),
        ({"pawns": [{**PAWN, "x": 1e300}]}, "pawns[0].x: expected a number (m) within ±10"),
        ({"pawns": [{**PAWN, "z": 0}]}, "pawns[0]: unknown key 'z'"),
        ({"Pawns": [PAWN]}, "unknown key 'Pawns' (known: face, layout, pawns, schema, seats)"),
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

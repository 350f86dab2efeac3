"""`sliders render --scene` refuses a scene that `sliders shot` refuses, with the same words, and
draws nothing; a scene a shot saved draws."""

from __future__ import annotations

import json

import pytest

from sliders.boards.geometry import check_pawns
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.files.layouts import load_layout
from sliders.files.scenes import ScenePawn


def _scene(tmp_path, pawns: list[dict]) -> str:
    path = tmp_path / "scene.json"
    scene = {"schema": 1, "layout": "square", "seats": ["south", "north"]}
    path.write_text(json.dumps({**scene, "face": "race-for-home", "pawns": pawns}))
    return str(path)


@pytest.mark.parametrize(
    ("pawns", "message"),
    [
        ([{"id": "north-1", "x": 5.0, "y": 0.0}], "pawn north-1 at (5, 0) is not on the table"),
        ([{"id": "north-1", "x": 0.0, "y": 0.0}] * 2, "pawn north-1 is on the table twice"),
        (
            [{"id": "north-1", "x": 0.0, "y": 0.0}, {"id": "north-2", "x": 0.001, "y": 0.0}],
            "pawns north-1 and north-2 overlap",
        ),
        ([{"id": "west-1", "x": 0.0, "y": 0.0}], "west-1 does not belong to a seat of this layout"),
        (
            [{"id": "north-5", "x": 0.0, "y": 0.0}],
            "pawns[0].id: expected a pawn id SEAT-N with N from 1 to 4, got 'north-5'",
        ),
        ([{"id": "north", "x": 0.0, "y": 0.0}], "pawns[0].id: expected a pawn id SEAT-N"),
        ([{"id": "north-1", "x": 0.13, "y": 0.0}], "overlaps a rail"),
    ],
)
def test_render_and_shot_refuse_the_same_scenes(pawns, message, tmp_path, capsys) -> None:
    scene = _scene(tmp_path, pawns)
    out = tmp_path / "table.png"
    assert main(["render", "--scene", scene, "--out", str(out)]) == 2
    render_err = capsys.readouterr().err
    assert render_err.count("\n") == 1 and message in render_err, render_err
    assert not out.exists()
    assert main(["shot", "--scene", scene, "--speed", "0.5"]) == 2
    shot_err = capsys.readouterr().err
    assert shot_err.split("error: ")[1] == render_err.split("error: ")[1]


def test_a_scene_a_shot_saved_renders(tmp_path, capsys) -> None:
    scene = _scene(tmp_path, [{"id": "north-1", "x": 0.004, "y": 0.035}])
    after = tmp_path / "after.json"
    argv = ["shot", "--scene", scene, "--speed", "0.8", "--save-scene", str(after)]
    assert main(argv) == 0
    assert main(["render", "--scene", str(after), "--out", str(tmp_path / "t.png")]) == 0
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_check_pawns_takes_pawns_that_touch() -> None:
    layout = load_layout("square", ("south", "north"))
    touching = (ScenePawn("north-1", 0.0, 0.0), ScenePawn("south-1", 0.025, 0.0))
    check_pawns(layout, touching, 0.0125)
    with pytest.raises(UserError, match="overlap"):
        check_pawns(layout, (touching[0], ScenePawn("south-1", 0.0249, 0.0)), 0.0125)

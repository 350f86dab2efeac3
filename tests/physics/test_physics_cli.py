"""The shot, render and params commands as a user runs them."""

from __future__ import annotations

import json

import pytest

from ..helpers import run_main


def test_shot_json_has_pawns_events_params_and_settle_time(capsys) -> None:
    code, out, _ = run_main(
        capsys,
        "shot",
        "--layout",
        "square",
        "--face",
        "race-for-home",
        "--seats",
        "south,north",
        "--seat",
        "south",
        "--speed",
        "0.6",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    (p,) = data["pawns"]
    assert {"id", "seat", "x", "y", "status", "points"} <= set(p)
    assert p["status"] == "on_target" and p["points"] == 5
    assert all({"t", "type"} <= set(e) for e in data["events"])
    assert data["params"]["mu_roll"] == 0.05
    assert data["settle_time"] > 1.0


def test_scene_round_trip_replays_the_same_shot(tmp_path, capsys) -> None:
    scene = tmp_path / "scene.json"
    after = tmp_path / "after.json"
    scene.write_text(
        json.dumps(
            {
                "schema": 1,
                "layout": "square",
                "seats": ["south", "north"],
                "face": "instant-home",
                "pawns": [{"id": "north-1", "x": 0.0, "y": 0.03}],
            }
        )
    )
    args = ["shot", "--scene", str(scene), "--speed", "0.9", "--angle", "1", "--json"]
    code, out1, _ = run_main(capsys, *args, "--save-scene", str(after))
    assert code == 0
    _, out2, _ = run_main(capsys, *args)
    assert json.loads(out1) == json.loads(out2)
    saved = json.loads(after.read_text())
    assert saved["face"] == "instant-home" and {p["id"] for p in saved["pawns"]} <= {
        "south-1",
        "north-1",
    }
    # the saved scene is a valid starting point for the next shot
    code, out3, _ = run_main(
        capsys, "shot", "--scene", str(after), "--seat", "north", "--speed", "0.5", "--json"
    )
    assert code == 0 and json.loads(out3)["shooter"].startswith("north-")


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["shot", "--speed", "4"], "speed"),
        (["shot", "--speed", "-1"], "speed"),
        (["shot", "--speed", "nan"], "speed"),
        (["shot", "--speed", "1", "--angle", "95"], "angle"),
        (["shot", "--speed", "1", "--offset", "0.2"], "offset"),
        (["shot", "--speed", "1", "--release", "2"], "release"),
        (["shot", "--speed", "1", "--seat", "west"], "seat"),
        (["shot", "--speed", "1", "--seats", "south,purple"], "seat"),
        (["shot", "--speed", "1", "--layout", "nowhere"], "layout"),
        (["shot", "--speed", "1", "--param", "mu_roll=-1"], "mu_roll"),
        (["shot", "--speed", "1", "--param", "bogus=1"], "bogus"),
        (["shot", "--speed", "fast"], "speed"),
        (["shot", "--face", "chess", "--speed", "1"], "face"),
        (["render", "--out", "/nonexistent-dir/x.png"], "directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle) -> None:
    code, _, err = run_main(capsys, *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1


def test_broken_scene_file_is_one_line(tmp_path, capsys) -> None:
    for text, needle in [
        ("{not json", "not valid JSON"),
        ('{"layout": "square"}', "missing"),
        ('{"schema": 99, "layout": "square", "seats": [], "face": "x"}', "newer"),
        (
            '{"layout": "square", "seats": ["south"], "face": "race-for-home",'
            ' "pawns": [{"id": "south-1", "x": 5, "y": 0}]}',
            "not on the table",
        ),
    ]:
        path = tmp_path / "bad.json"
        path.write_text(text)
        code, _, err = run_main(capsys, "shot", "--scene", str(path), "--speed", "1")
        assert code == 2, text
        assert needle in err and len(err.strip().splitlines()) == 1


def test_save_scene_is_not_written_on_error(tmp_path, capsys) -> None:
    target = tmp_path / "keep.json"
    target.write_text("precious")
    code, _, _ = run_main(capsys, "shot", "--speed", "9", "--save-scene", str(target))
    assert code == 2 and target.read_text() == "precious"


def test_render_writes_a_png_for_every_face(tmp_path, capsys) -> None:
    for name in ("race-for-home", "instant-home", "instant-sorry", "danger-dots"):
        out = tmp_path / f"{name}.png"
        code, _, _ = run_main(
            capsys, "render", "--face", name, "--seats", "south,west,north,east", "--out", str(out)
        )
        assert code == 0
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.glob(".*.tmp"))


def test_shot_png_draws_the_paths(tmp_path, capsys) -> None:
    out = tmp_path / "shot.png"
    code, _, _ = run_main(capsys, "shot", "--speed", "0.7", "--png", str(out))
    assert code == 0 and out.stat().st_size > 10_000


def test_params_lists_defaults(capsys) -> None:
    code, out, _ = run_main(capsys, "params", "--json")
    data = json.loads(out)
    assert code == 0 and data["physics"]["restitution_pawn"] == 0.85
    assert data["geometry"]["track_width"] == 0.11
    assert len(data["faces"]["danger-dots"]["dots"]) == 8


def test_import_sliders_does_not_load_pygame_or_pymunk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sliders, sliders.cli, sliders.boards, sliders.core.outcome; "
        "print('pygame' in sys.modules, 'pymunk' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_import_physics_leaves_the_exact_engine_until_a_shot_asks_for_it() -> None:
    """``import sliders.physics`` loads neither numba nor the exact engine; its first shot does."""
    import subprocess
    import sys

    code = (
        "import sys, sliders.physics as ph; "
        "print('numba' in sys.modules, 'sliders.physics.exact' in sys.modules); "
        "from sliders.boards import face; from sliders.files.layouts import load_layout; "
        "setup = ph.Setup(load_layout('square', ('south', 'north')), face('race-for-home')); "
        "ph.simulate(setup, (), ph.Shot('south', 0.6)); "
        "print('numba' in sys.modules, 'sliders.physics.exact' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "True", "True"]


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["shot", "--speed", "0.6", "--pawn", "south-9"], "south-9"),
        (["shot", "--speed", "0.6", "--pawn", "south-01"], "south-01"),
        (["shot", "--speed", "0.6", "--pawn", "north-1"], "north-1"),
        (["shot", "--speed", "0.6", "--seed", "-1"], "seed"),
        (["shot", "--speed", "0.6", "--param", "iterations=2.5"], "whole number"),
        (["shot", "--speed", "0.6", "--param", "pawn_radius=0.06"], "legal range"),
    ],
)
def test_impossible_pawns_seeds_and_params(capsys, argv, needle) -> None:
    code, _, err = run_main(capsys, *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_text_output_has_no_trailing_spaces(capsys) -> None:
    code, out, _ = run_main(capsys, "shot", "--speed", "0.6")
    assert code == 0 and all(line == line.rstrip() for line in out.splitlines())

"""`sliders batch`: ranges, errors a user can make, files written, pictures, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import numpy as np
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from sliders.batch import Design, parse_spec
from sliders.batch.tables import read_table
from sliders.cli import main
from sliders.core.errors import UserError


def test_parse_spec_forms() -> None:
    s = parse_spec("speed", "0.3:1.2:10")
    assert (s.lo, s.hi, s.steps) == (0.3, 1.2, 10)
    np.testing.assert_allclose(s.grid_values(), np.linspace(0.3, 1.2, 10))
    assert parse_spec("angle", "-6:6:13").grid_values()[0] == -6
    assert parse_spec("angle", "2").values == (2.0,)
    assert parse_spec("offset", "-0.01,0,0.01").values == (-0.01, 0.0, 0.01)
    assert parse_spec("speed", "0.4:0.8").steps is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0.3:1.2:0", "0 steps"),
        ("0.3:1.2:x", "not a whole number"),
        ("0.3:x:4", "not a number"),
        ("1:2:3:4", "expected"),
        ("1.2:0.3:4", "backwards"),
        ("0.3:1.2:1", "one step"),
        ("nan", "finite"),
    ],
)
def test_malformed_ranges(text, message) -> None:
    with pytest.raises(UserError, match=message):
        parse_spec("speed", text)


def test_grid_order_is_speed_then_angle() -> None:
    d = Design.grid(speed="0.4,0.6", angle="-2,0,2")
    assert d.shape == (2, 3, 1, 1)
    assert d.shots[:, 0].tolist() == [0.4] * 3 + [0.6] * 3
    assert d.shots[:, 1].tolist() == [-2, 0, 2] * 2
    assert d.swept == ("speed", "angle")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--speed", "0.5:3.5:4"], "--speed 0.5..3.5 m/s is impossible"),
        (["--speed", "0.5:1:0"], "0 steps"),
        (["--speed", "0.5:1"], "has no number of steps"),
        (["--speed", "0.5;1;3"], "not a number"),
        (["--speed", "0.6", "--angle", "-95:0:3"], "--angle -95..0° is impossible"),
        (["--speed", "0.6", "--offset", "0.06"], "outside the track"),
        (["--speed", "0.6", "--samples", "0"], "at least one sample"),
        (["--speed", "0.6", "--noise-angle", "-1"], "angle_deg must be"),
        (["--speed", "0.6", "--seat", "east"], "seat"),
        (["--speed", "0.6", "--release", "0.9"], "beyond the end"),
        (["--speed", "0.6", "--random", "0"], "at least one shot"),
        (["--speed", "0.6", "--backend", "dask"], "needs --scheduler"),
        (["--speed", "0.6", "--workers", "0"], "--workers 0"),
    ],
)
def test_impossible_requests_are_one_line_and_status_2(argv, message, tmp_path, capsys) -> None:
    out = tmp_path / "t.parquet"
    assert main(["batch", *argv, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not any(tmp_path.iterdir())


def test_corrupt_scene_file(tmp_path, capsys) -> None:
    scene = tmp_path / "scene.json"
    scene.write_text('{"layout": "square", "seats": ["south"], "pawns": [')
    out = tmp_path / "t.parquet"
    assert main(["batch", "--scene", str(scene), "--speed", "0.6", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid JSON" in err
    scene.write_text('{"layout": "square", "seats": ["south", "north"], "face": "race-for-home",'
                     ' "pawns": [{"id": "north-1", "x": 0.0, "y": 0.0},'
                     ' {"id": "north-2", "x": 0.01, "y": 0.0}]}')  # fmt: skip
    assert main(["batch", "--scene", str(scene), "--speed", "0.6", "--out", str(out)]) == 2
    assert "overlap" in capsys.readouterr().err
    assert not out.exists()


def test_writes_parquet_summary_and_pictures(crowded_scene, tmp_path, capsys) -> None:
    scene = tmp_path / "scene.json"
    crowded_scene.save(str(scene))
    out, heat, board = tmp_path / "t.parquet", tmp_path / "heat.png", tmp_path / "board.png"
    argv = ["batch", "--scene", str(scene), "--speed", "0.5:1.1:3", "--angle", "-4:4:3"]
    argv += ["--samples", "3", "--noise-speed", "0.05", "--seed", "4", "--workers", "1"]
    argv += ["--out", str(out), "--heatmap", str(heat), "--board", str(board), "--quiet"]
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    assert "27 shots" in stdout and "wrote" in stdout
    cols, meta = read_table(str(out))
    assert len(cols["shot"]) == 27 and meta["complete"] is True and meta["seed"] == 4
    assert meta["noise"]["speed_rel"] == 0.05 and meta["noise"]["angle_deg"] == 2.0
    raw = pq.read_table(out)
    assert raw.column("status").type.value_type == "string"
    assert set(raw.column("north-1.status").to_pylist()) <= set(meta["statuses"])
    summary, _ = read_table(str(tmp_path / "t.summary.parquet"))
    assert len(summary["n"]) == 9 and (summary["n"] == 3).all()
    for png in (heat, board):
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and 10_000 < len(data) < 400_000


def test_same_study_as_csv_and_npz(tmp_path, capsys) -> None:
    base = ["batch", "--speed", "0.6,0.9", "--samples", "2", "--seed", "1", "--quiet"]
    assert main([*base, "--out", str(tmp_path / "t.parquet")]) == 0
    assert main([*base, "--out", str(tmp_path / "t.npz")]) == 0
    assert main([*base, "--out", str(tmp_path / "t.txt"), "--format", "csv"]) == 0
    a, _ = read_table(str(tmp_path / "t.parquet"))
    b, meta = read_table(str(tmp_path / "t.npz"))
    assert meta["samples"] == 2
    c = pcsv.read_csv(tmp_path / "t.txt")
    assert (tmp_path / "t.summary.csv").exists()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    np.testing.assert_array_equal(c.column("x").to_numpy(), a["x"])
    assert c.column("status").to_pylist()[0] in meta["statuses"]


def test_ctrl_c_writes_the_finished_part(tmp_path) -> None:
    out = tmp_path / "t.parquet"
    cmd = [sys.executable, "-m", "sliders.cli", "batch", "--speed", "0.4:1.2:40"]
    cmd += ["--angle=-5:5:11", "--samples", "200", "--workers", "1", "--chunk-size", "16"]
    cmd += ["--out", str(out)]
    proc = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # wait for the first progress line: a chunk is done
        if "shots/s" in line:
            break
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted (SIGINT): kept the" in stderr
    cols, meta = read_table(str(out))
    assert meta["complete"] is False and 0 < meta["shots"] < 88000
    assert len(cols["shot"]) == meta["shots"]
    assert (tmp_path / "t.summary.parquet").exists()


def test_random_design_stays_within_its_ranges_and_repeats() -> None:
    a = Design.random(200, 5, speed="0.4:1.0", angle="-6:6", offset="0.01")
    b = Design.random(200, 5, speed="0.4:1.0", angle="-6:6", offset="0.01")
    np.testing.assert_array_equal(a.shots, b.shots)
    assert a.axes is None and a.swept == ("speed", "angle")
    assert (0.4 <= a.shots[:, 0]).all() and (a.shots[:, 0] <= 1.0).all()
    assert (np.abs(a.shots[:, 1]) <= 6).all() and (a.shots[:, 2] == 0.01).all()
    assert np.isnan(a.shots[:, 3]).all()  # on the foul line until a study resolves it
    assert not np.array_equal(a.shots, Design.random(200, 6, speed="0.4:1.0").shots)
    with pytest.raises(UserError, match="with --random"):
        Design.random(10, 1, speed="0.4,0.6")


def test_random_study_from_the_command_line(tmp_path, capsys) -> None:
    out, heat = tmp_path / "r.parquet", tmp_path / "r.png"
    argv = ["batch", "--speed", "0.4:1.0", "--angle=-6:6", "--random", "12", "--samples", "2"]
    assert main([*argv, "--out", str(out), "--heatmap", str(heat), "--quiet"]) == 0
    cols, meta = read_table(str(out))
    assert meta["design"] == "random" and meta["intended"] == 12 and len(cols["shot"]) == 24
    assert heat.read_bytes()[:4] == b"\x89PNG"

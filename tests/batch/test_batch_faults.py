"""A study survives its own samples: a shot the physics refuses is that sample's recorded outcome.
Tables come back from every format alike, and an interrupted study resumes to the very bytes a
whole run writes. Conflicting batch flags are refused with one line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sliders.batch import Design, Study, empty_scene, run_study
from sliders.batch.runners import empty_table
from sliders.batch.tables import read_table, sidecar_path
from sliders.batch.work import FAULT_PAST_END, FAULT_REFUSED, STATUSES
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.core.outcome import Status
from sliders.files.scenes import Scene, ScenePawn
from sliders.physics import Noise, Setup, Shot, simulate

FOUL = STATUSES.index(Status.FOUL)
IN_HAND = STATUSES.index(Status.IN_HAND)


def test_a_release_pushed_past_the_lane_end_is_a_foul_not_the_end_of_the_study(
    tmp_path, capsys
) -> None:
    out = tmp_path / "rel.csv"
    argv = ["batch", "--speed", "0.6", "--release", "0.3", "--noise-release", "0.05"]
    argv += ["--samples", "200", "--workers", "1", "--quiet", "--out", str(out)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    cols, meta = read_table(str(out))
    assert meta["complete"] is True and len(cols["shot"]) == 200
    past = cols["fault"] == FAULT_PAST_END
    assert 0 < past.sum() < 200
    assert f"{past.sum()} of 200 samples were released past the end of south's lane" in err
    assert (cols["status"][past] == FOUL).all() and (cols["points"][past] == 0).all()
    assert not cols["penalty"][past].any() and (cols["settle_time"][past] == 0).all()
    # every such release lies further than any the physics accepted, and the physics refuses it
    assert cols["exec_release"][past].min() > cols["exec_release"][~past].max()
    layout, face = empty_scene().build()
    r = int(np.flatnonzero(past)[0])
    shot = Shot(
        "south",
        0.6,
        math.radians(cols["exec_angle"][r]),
        cols["exec_offset"][r],
        cols["exec_release"][r],
    )
    with pytest.raises(UserError, match="beyond the end"):
        simulate(Setup(layout, face), (), shot)
    # the foul is recorded where the hand let go: the executed release and offset
    seat = layout.seat("south")
    assert (cols["x"][r], cols["y"][r]) == seat.to_world(
        cols["exec_release"][r], cols["exec_offset"][r]
    )


def _lane_pawn_scene() -> Scene:
    """south-1 at rest on south's own lane beside the foul line: the intended release is just
    clear of it, but a sideways error of more than a millimetre puts the pawn on top of it."""
    layout, _ = empty_scene().build()
    x, y = layout.seat("south").to_world(0.16, 0.026)
    return Scene("square", ("south", "north"), "race-for-home", (ScenePawn("south-1", x, y),))


def test_a_release_point_taken_by_a_pawn_leaves_the_pawn_in_hand() -> None:
    design = Design.grid(speed="0.6,0.9")
    study = Study.create(
        _lane_pawn_scene(), "south", design, samples=30, noise=Noise.level("medium"), seed=2
    )
    result = run_study(study, workers=1)
    t = result.table
    refused = t["fault"] == FAULT_REFUSED
    assert result.complete and 0 < refused.sum() < len(refused)
    assert result.faults == {"refused": int(refused.sum())}
    assert (t["status"][refused] == IN_HAND).all() and np.isnan(t["x"][refused]).all()
    assert (t["points"][refused] == 0).all() and (t["contacts"][refused] == 0).all()
    # the table stands as it was: south-1 still on its own track, nothing removed or moved
    own_track = STATUSES.index(Status.OWN_TRACK)
    assert (t["south-1.status"][refused] == own_track).all()
    assert (t["own_delta"][refused] == 0).all() and (t["own_removed"][refused] == 0).all()
    # refused exactly when the executed release overlaps south-1 (2 r = 0.025 m)
    assert (np.abs(t["exec_offset"] - 0.026) < 0.025).tolist() == refused.tolist()


def test_the_command_names_the_first_refusal(tmp_path, capsys) -> None:
    scene = tmp_path / "scene.json"
    _lane_pawn_scene().save(str(scene))
    out = tmp_path / "t.parquet"
    argv = [
        "batch",
        "--scene",
        str(scene),
        "--speed",
        "0.6",
        "--samples",
        "30",
        "--seed",
        "2",
        "--quiet",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "samples were refused by the physics (first: shot" in err
    assert "the release point is taken by pawn south-1" in err


@pytest.fixture
def study() -> Study:
    design = Design.grid(speed="0.5:1.1:4", angle="-5,5")
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0.03),))
    return Study.create(scene, "south", design, samples=5, noise=Noise.level("high"), seed=4)


@pytest.mark.parametrize("fmt", ["csv", "parquet", "npz"])
def test_every_format_reads_back_with_its_types_and_record(study: Study, tmp_path, fmt) -> None:
    result = run_study(study, workers=1)
    result.table["x"][3] = math.nan  # as a refused sample has
    path = str(tmp_path / f"t.{fmt}")
    result.write(path)
    cols, meta = read_table(path)
    assert meta == result.metadata() and meta["complete"] is True
    assert list(cols) == list(result.table)
    for name, values in result.table.items():
        assert cols[name].dtype == values.dtype, name
        np.testing.assert_array_equal(cols[name], values, err_msg=name)


def test_a_csv_sidecar_that_does_not_match_is_not_believed(study: Study, tmp_path) -> None:
    result = run_study(study, workers=1)
    path = tmp_path / "t.csv"
    result.write(str(path))
    side = tmp_path / "t.csv.json"
    assert sidecar_path(str(path)) == str(side)
    kept = path.read_bytes()
    path.write_bytes(kept[: kept.rindex(b"\n", 0, -1) + 1])  # a row short: not that table
    with pytest.raises(UserError, match="does not describe"):
        read_table(str(path))
    path.write_bytes(kept)
    side.unlink()  # a CSV alone is still read, without a record
    cols, meta = read_table(str(path))
    assert meta == {} and len(cols["shot"]) == result.n_shots


@pytest.mark.parametrize("content", [b"", b"PAR1 not really", b"\x00" * 100])
@pytest.mark.parametrize("fmt", ["csv", "parquet", "npz"])
def test_a_file_that_is_no_table_is_one_error(tmp_path, fmt, content) -> None:
    path = tmp_path / f"t.{fmt}"
    path.write_bytes(content)
    with pytest.raises(UserError):
        read_table(str(path))


def _interrupted(study: Study, stop_after: int, workers: int, chunk_size: int = 8):
    seen: list[int] = []

    def stop(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == stop_after:
            raise KeyboardInterrupt

    return run_study(study, workers=workers, chunk_size=chunk_size, on_chunk=stop)


@pytest.mark.parametrize("fmt", ["csv", "parquet", "npz"])
def test_resume_writes_the_bytes_a_whole_run_writes(tmp_path, fmt) -> None:
    args = [
        "batch",
        "--speed",
        "0.5:1.1:4",
        "--angle=-5,5",
        "--samples",
        "6",
        "--seed",
        "9",
        "--noise",
        "high",
        "--quiet",
        "--workers",
        "1",
        "--format",
        fmt,
    ]
    whole, part = tmp_path / f"whole.{fmt}", tmp_path / f"part.{fmt}"
    assert main([*args, "--out", str(whole)]) == 0
    # an interrupted run of the same study, its finished chunks written as the command writes them
    design = Design.grid(speed="0.5:1.1:4", angle="-5,5")
    study = Study.create(
        empty_scene(), "south", design, samples=6, noise=Noise.level("high"), seed=9
    )
    partial = _interrupted(study, 2, workers=1)
    assert not partial.complete and 0 < partial.n_shots < study.n_shots
    partial.write(str(part), fmt)
    assert read_table(str(part))[1]["complete"] is False
    assert main([*args, "--out", str(part), "--resume", "--chunk-size", "5"]) == 0
    names = [f"{{}}.{fmt}", f"{{}}.summary.{fmt}"]
    if fmt == "csv":
        names += [f"{{}}.{fmt}.json", f"{{}}.summary.{fmt}.json"]
    for name in names:
        a = (tmp_path / name.format("whole")).read_bytes()
        assert a == (tmp_path / name.format("part")).read_bytes(), name


def test_resume_with_two_workers_fills_the_gaps(crowded_study: Study) -> None:
    partial = _interrupted(crowded_study, 1, workers=2, chunk_size=2)
    assert not partial.complete
    whole = run_study(crowded_study, workers=1)
    resumed = run_study(crowded_study, workers=2, chunk_size=3, done=partial.table)
    assert resumed.complete and resumed.metadata() == whole.metadata()
    for name, values in whole.table.items():
        np.testing.assert_array_equal(resumed.table[name], values, err_msg=name)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--seed", "10"], "holds another study (seed differs)"),
        (["--samples", "7"], "holds another study (samples differs)"),
        (["--speed", "0.5:1.1:5"], "holds another study"),
    ],
)
def test_resume_refuses_another_study(tmp_path, capsys, change, message) -> None:
    out = tmp_path / "t.csv"
    args = [
        "batch",
        "--speed",
        "0.5:1.1:4",
        "--samples",
        "6",
        "--seed",
        "9",
        "--quiet",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main([*args, *change, "--resume"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert out.read_bytes() == before


def test_resume_needs_a_table(tmp_path, capsys) -> None:
    out = tmp_path / "none.csv"
    assert main(["batch", "--speed", "0.6", "--out", str(out), "--resume", "--quiet"]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    assert not out.exists()


def test_the_empty_table_has_the_study_columns(study: Study) -> None:
    t = empty_table(study)
    assert "north-1.status" in t and all(len(v) == 0 for v in t.values())


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--random", "10"], "--speed 0.5:0.7:3: with --random give a range LO:HI"),
        (["--heatmap-axes", "speed,angle"], "--heatmap-axes without --heatmap"),
        (["--top", "-2"], "--top -2: must be 0 or more"),
        (["--backend", "dask", "--scheduler", "tcp://x:1", "--workers", "2"], "--workers is for"),
        (["--format", "parquet"], "names a csv file but the format is parquet"),
        (["--summary", "s.npz"], "--summary s.npz names a npz file but the format is csv"),
        (["--spee", "0.7"], "unrecognized arguments: --spee"),
        (["--samp", "3"], "unrecognized arguments: --samp"),
    ],
)
def test_conflicting_flags_are_one_line_and_status_2(
    tmp_path, capsys, monkeypatch, extra, message
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["batch", "--speed", "0.5:0.7:3", "--out", "t.csv", "--quiet", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_release_pushed_behind_the_lane_start_is_clipped_to_it() -> None:
    design = Design.grid(speed="0.6", release="0.02")
    study = Study.create(
        empty_scene(), "south", design, samples=40, noise=Noise(release=0.02), seed=1
    )
    t = run_study(study, workers=1).table
    start = 0.0125  # the lane's start plus a pawn's radius
    clipped = t["exec_release"] == start
    assert 0 < clipped.sum() < 40 and (t["exec_release"] >= start).all()
    assert (t["fault"] == 0).all()  # simulated, from the start of the lane


def test_resumed_progress_counts_the_shots_left(empty_study: Study) -> None:
    partial = _interrupted(empty_study, 1, workers=1, chunk_size=5)
    left = empty_study.n_shots - partial.n_shots
    calls: list[tuple[int, int]] = []
    resumed = run_study(
        empty_study,
        workers=1,
        chunk_size=4,
        done=partial.table,
        on_chunk=lambda d, t: calls.append((d, t)),
    )
    assert resumed.complete and calls[-1] == (left, left)
    assert all(t == left for _, t in calls)

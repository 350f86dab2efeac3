"""Studies valued by the game (the chance of winning, with the progress beside it): the hole on
Instant Home, penalties to the seat's pawns on the table, metrics, decimal grids, seat-keyed
draws, rows that replay exactly, and tables written before the value was the chance of
winning."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sliders.ai.value import GameSpot
from sliders.batch import Design, Study, parse_spec, run_study
from sliders.batch.study import decimal_steps
from sliders.batch.summary import metric_column
from sliders.batch.work import STATUSES, errors_for
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.core.outcome import Status
from sliders.files.scenes import Scene, ScenePawn
from sliders.physics import Noise

OWN = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("south-1", 0.0, 0.10),))


def test_the_hole_on_instant_home_is_valued() -> None:
    scene = Scene("square", ("south", "north"), "instant-home", ())
    design = Design.grid(speed="0.6,0.65", angle="-2,0")
    study = Study.create(scene, "south", design, 40, Noise.level("medium"), seed=1)
    result = run_study(study, workers=1)
    t = result.table
    hole = t["status"] == STATUSES.index(Status.IN_HOLE)
    assert hole.any()
    # a pawn in the hole scores no points but sends a scoring pawn HOME: six spaces
    assert np.all(t["progress"][hole] == 6) and np.all(t["points"][hole] == 0)
    # every other outcome on an empty table progresses by its points
    np.testing.assert_array_equal(t["progress"][~hole], t["points"][~hole])
    s = result.summary()
    np.testing.assert_allclose(s["mean_progress"], s["mean_points"] + 6 * s["p_in_hole"])
    # the value is a chance of winning, and a scoring pawn HOME is worth more than any ring
    assert np.all((0 < t["value"]) & (t["value"] < 1))
    assert t["value"][hole].min() > t["value"][~hole].max()


def test_a_penalty_to_an_own_pawn_on_the_table_counts() -> None:
    design = Design.grid(speed="1.2", angle="0")
    study = Study.create(
        OWN,
        "south",
        design,
        30,
        Noise.level("medium"),
        seed=0,
        spot=GameSpot((("south", (3, 2, 0, 0)),)),
    )
    result = run_study(study, workers=1)
    t, s = result.table, result.summary()
    own_gone = np.isin(
        t["south-1.status"], [STATUSES.index(Status.OFF_BOARD), STATUSES.index(Status.SORRY_CORNER)]
    )
    assert own_gone.any()
    assert s["p_penalty"][0] == pytest.approx(np.mean(own_gone | t["penalty"]))
    assert s["p_penalty"][0] > s["p_shot_penalty"][0]
    # the penalty sends the 3 back to START and the pawn's 3 points on the table are lost
    assert np.all(t["progress"][own_gone & ~t["penalty"]] < 0)
    kept = ~own_gone & ~t["penalty"]
    assert t["value"][own_gone & ~t["penalty"]].max() < t["value"][kept].min()


def test_metrics_name_summary_columns() -> None:
    assert metric_column("value") == "mean_value"
    assert metric_column("points") == "mean_points"
    assert metric_column("progress") == "mean_progress"
    assert metric_column("p_in_hole") == "p_in_hole"
    assert metric_column("p_hit") == "p_hit"
    with pytest.raises(UserError, match="--metric"):
        metric_column("p_bogus")


def test_grids_are_the_decimals_written() -> None:
    assert parse_spec("speed", "0.5:0.7:5").grid_values().tolist() == [0.5, 0.55, 0.6, 0.65, 0.7]
    assert parse_spec("speed", "0.3:1.2:10").grid_values()[3] == 0.6
    assert decimal_steps(-6, 6, 13).tolist() == list(range(-6, 7))
    assert decimal_steps(0, 1, 3).tolist() == [0.0, 0.5, 1.0]
    third = decimal_steps(0, 1, 4)
    assert third[1] == 1 / 3 and third[2] == 2 / 3


def test_draws_are_keyed_by_seat_unless_common_random() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    design = Design.grid(speed="0.6")
    noise = Noise.level("high")

    def ctx(seat: str, common: bool) -> object:
        return Study.create(scene, seat, design, 5, noise, seed=9, common_random=common).context

    south, north = errors_for(ctx("south", False), 0, 5), errors_for(ctx("north", False), 0, 5)
    assert not np.array_equal(south[0], north[0]) and not np.array_equal(south[1], north[1])
    south, north = errors_for(ctx("south", True), 0, 5), errors_for(ctx("north", True), 0, 5)
    np.testing.assert_array_equal(south[0], north[0])
    np.testing.assert_array_equal(south[1], north[1])


@pytest.mark.parametrize("engine", ["pymunk", "exact"])
def test_every_row_replays_exactly_with_sliders_shot(tmp_path, capsys, engine) -> None:
    scene = Scene(
        "square",
        ("south", "north"),
        "race-for-home",
        (
            ScenePawn("north-1", 0.0, 0.03),
            ScenePawn("south-1", 0.02, -0.02),
        ),
    )
    path = tmp_path / "scene.json"
    scene.save(str(path))
    out = tmp_path / "t.parquet"
    assert (
        main(
            [
                "batch",
                "--scene",
                str(path),
                "--speed",
                "0.55:0.95:3",
                "--angle",
                "-2.3,1.7",
                "--samples",
                "3",
                "--noise",
                "high",
                "--seed",
                "5",
                "--out",
                str(out),
                "--quiet",
                "--workers",
                "1",
                "--engine",
                engine,
            ]
        )
        == 0
    )
    from sliders.batch.tables import read_table

    t, _ = read_table(str(out))
    capsys.readouterr()
    for r in range(len(t["shot"])):
        argv = [
            "shot",
            "--scene",
            str(path),
            "--seat",
            "south",
            "--speed",
            repr(float(t["exec_speed"][r])),
            "--angle",
            repr(float(t["exec_angle"][r])),
            "--offset",
            repr(float(t["exec_offset"][r])),
            "--release",
            repr(float(t["exec_release"][r])),
            "--seed",
            str(int(t["seed"][r])),
            "--json",
            "--engine",
            engine,
        ]
        assert main(argv) == 0
        got = json.loads(capsys.readouterr().out)
        me = got["pawns"][0]
        assert me["status"] == str(STATUSES[t["status"][r]])
        assert me["x"] == t["x"][r] and me["y"] == t["y"][r], r
        for p in got["pawns"][1:]:
            assert p["status"] == str(STATUSES[t[f"{p['id']}.status"][r]])
        assert math.isfinite(t["value"][r])


def test_bad_metric_and_score_board_are_one_line(capsys) -> None:
    base = ["batch", "--speed", "0.6", "--out", "/tmp/never-written.parquet", "--quiet"]
    assert main([*base, "--metric", "p_nothing"]) == 2
    assert "--metric" in capsys.readouterr().err
    assert main([*base, "--score-board", "south=9,0,0,0"]) == 2
    assert "--score-board" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["parquet", "csv", "npz"])
def test_a_table_from_before_the_chance_of_winning_is_migrated(tmp_path, fmt) -> None:
    """A table written when ``value`` held the change of the progress lead (no ``progress``
    column) reads back with that column as ``progress`` and ``value`` the chance of winning, as
    a new table has them: ``sliders analyse`` and ``--resume`` see the new meaning."""
    from sliders.batch import load
    from sliders.batch.tables import read_table, write_table

    design = Design.grid(speed="0.6,1.2", angle="0")
    study = Study.create(OWN, "south", design, 6, Noise.level("medium"), seed=3,
                         spot=GameSpot((("south", (3, 2, 0, 0)),)))  # fmt: skip
    result = run_study(study, workers=1)
    new = tmp_path / f"new.{fmt}"
    result.write(str(new))
    table, record = read_table(str(new))
    old = {k: v for k, v in table.items() if k not in ("value", "progress")}
    old = {**{k: old[k] for k in list(old)[:16]}, "value": table["progress"],
           **{k: old[k] for k in list(old)[16:]}}  # fmt: skip
    path = tmp_path / f"old.{fmt}"
    write_table(str(path), old, record)
    assert "progress" not in read_table(str(path))[0]
    saved = load(str(path))
    for name in ("value", "progress"):
        np.testing.assert_array_equal(saved.table[name], result.table[name])
    assert list(saved.table) == list(result.table)
    np.testing.assert_array_equal(saved.summary()["mean_value"], result.summary()["mean_value"])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("no shot", "has no column"),
        ("text status", "has no column progress"),
        ("text angle noise", "noise angle_deg must be a finite number >= 0, got '2'"),
        ("unknown noise", "noise has an unknown field 'wobble'"),
    ],
)
def test_a_hostile_older_table_is_one_line(change, words, tmp_path, capsys) -> None:
    """An older table (``value`` and no ``progress``) from elsewhere, without a column the value
    is computed from, or with a sigma that is not a number, is refused in one line by
    ``sliders analyse`` and ``sliders batch --resume``, never a traceback."""
    from sliders.batch.tables import read_table, write_table

    base = ["--speed", "0.6", "--angle", "0", "--samples", "2", "--quiet", "--workers", "1"]
    new = tmp_path / "new.npz"
    assert main(["batch", *base, "--out", str(new)]) == 0
    table, record = read_table(str(new))
    old = {k: v for k, v in table.items() if k != "progress"}
    if change == "no shot":
        del old["shot"]
    elif change == "text status":
        old["status"] = old["status"].astype(str)
    elif change == "text angle noise":
        record = {**record, "noise": {**record["noise"], "angle_deg": "2"}}
    else:
        record = {**record, "noise": {**record["noise"], "wobble": 1.0}}
    path = tmp_path / "old.npz"
    write_table(str(path), old, record)
    capsys.readouterr()
    for argv in (["analyse", str(path)], ["batch", *base, "--out", str(path), "--resume"]):
        before = path.read_bytes()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        if argv[0] == "analyse" or "noise" in change:
            assert words in err, err
        assert path.read_bytes() == before

"""A study gives the same table whatever runs it, and each row is the physics' own result."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.batch import Design, Study, run_study
from sliders.batch.tables import read_table
from sliders.batch.work import STATUSES, errors_for, pawn_columns
from sliders.cli import main
from sliders.core.outcome import Status
from sliders.physics import Noise, Setup, Shot, simulate


def assert_same_table(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert list(a) == list(b)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def test_same_table_with_one_and_two_workers_and_any_chunk_size(crowded_study: Study) -> None:
    one = run_study(crowded_study, workers=1)
    two = run_study(crowded_study, workers=2, chunk_size=5)
    odd = run_study(crowded_study, workers=1, chunk_size=3)
    assert one.complete and two.complete and two.workers == 2
    assert one.n_shots == crowded_study.n_shots == 36
    assert_same_table(one.table, two.table)
    assert_same_table(one.table, odd.table)
    # the study is not trivial: the shot pawn ends in several states and hits the opponents
    assert len(np.unique(one.table["status"])) >= 3
    assert (one.table["opp_delta"] != 0).any()
    assert (one.table["contacts"] > 0).any()


def test_same_table_on_a_dask_local_cluster(crowded_study: Study) -> None:
    distributed = pytest.importorskip("distributed")
    reference = run_study(crowded_study, workers=1, chunk_size=7)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        result = run_study(
            crowded_study, backend="dask", scheduler=cluster.scheduler_address, chunk_size=7
        )
    assert result.complete and result.backend == "dask" and result.workers == 2
    assert_same_table(reference.table, result.table)


def test_another_seed_gives_other_samples(crowded_study: Study) -> None:
    a = run_study(crowded_study, workers=1)
    other = Study.create(
        crowded_study.context.scene,
        "south",
        crowded_study.design,
        samples=4,
        noise=Noise.level("high"),
        seed=8,
    )
    b = run_study(other, workers=1)
    assert not np.array_equal(a.table["exec_speed"], b.table["exec_speed"])


def test_without_noise_every_sample_is_the_single_shot(crowded_scene, tmp_path, capsys) -> None:
    design = Design.grid(speed="0.7,1.2", angle="-2,1.5", offset="0.01")
    study = Study.create(crowded_scene, "south", design, samples=3, noise=Noise(), seed=11)
    table = run_study(study, workers=1).table
    layout, face = crowded_scene.build()
    scene_file = tmp_path / "scene.json"
    crowded_scene.save(str(scene_file))

    for i, (speed, angle, offset, release) in enumerate(study.design.shots):
        rows = np.flatnonzero(table["intended"] == i)
        assert len(rows) == 3
        assert release == layout.seat("south").foul
        shot = Shot.from_degrees("south", speed, angle, offset=offset)
        expected = simulate(Setup(layout, face), crowded_scene.pawns, replace(shot, seed=0))
        speed, angle, offset = float(speed), float(angle), float(offset)
        argv = ["shot", "--scene", str(scene_file), "--seat", "south", "--speed", repr(speed)]
        argv += [f"--angle={angle!r}", "--offset", repr(offset), "--json"]
        assert main(argv) == 0
        cli = json.loads(capsys.readouterr().out)
        me = expected.pawns[0]
        assert cli["pawns"][0] == me.to_json()
        for r in rows:
            assert table["exec_speed"][r] == speed
            assert table["exec_angle"][r] == pytest.approx(angle, rel=1e-12)
            assert STATUSES[table["status"][r]] is me.status
            assert table["points"][r] == me.points
            assert (table["x"][r], table["y"][r]) == (me.x, me.y)
            for q in expected.pawns[1:]:
                status_col, points_col = pawn_columns(q.id)
                assert STATUSES[table[status_col][r]] is q.status
                assert table[points_col][r] == q.points


def test_effects_on_other_pawns_add_up(crowded_study: Study) -> None:
    from sliders.physics import at_rest

    t = run_study(crowded_study, workers=1).table
    table = crowded_study.context.scene.pawns
    removed_codes = [i for i, s in enumerate(STATUSES) if s.removed]
    removed = sum(np.isin(t[pawn_columns(q.id)[0]], removed_codes).astype(int) for q in table)
    np.testing.assert_array_equal(t["opp_removed"], removed)
    layout, face = crowded_study.context.build()
    start = sum(p.points for p in at_rest(layout, face, table))
    after = sum(t[pawn_columns(q.id)[1]].astype(int) for q in table)
    np.testing.assert_array_equal(t["opp_delta"], after - start)
    penal = [STATUSES.index(Status.OFF_BOARD), STATUSES.index(Status.SORRY_CORNER)]
    np.testing.assert_array_equal(t["penalty"], np.isin(t["status"], penal))
    opp = sum(np.isin(t[pawn_columns(q.id)[0]], penal).astype(int) for q in table)
    np.testing.assert_array_equal(t["opp_penalties"], opp)
    np.testing.assert_array_equal(t["penalties"], t["penalty"].astype(int))


def test_executed_shots_carry_the_drawn_errors(empty_study: Study) -> None:
    t = run_study(empty_study, workers=1).table
    ctx = empty_study.context
    for i in range(empty_study.n_intended):
        rows = t["intended"] == i
        errors, seeds = errors_for(ctx, i, ctx.samples)
        np.testing.assert_allclose(t["exec_speed"][rows] / t["speed"][rows] - 1, errors[:, 0])
        np.testing.assert_allclose(
            np.radians(t["exec_angle"][rows] - t["angle"][rows]), errors[:, 1], atol=1e-12
        )
        np.testing.assert_array_equal(t["seed"][rows], seeds)


def test_ctrl_c_keeps_the_finished_chunks(empty_study: Study, tmp_path) -> None:
    calls = []

    def stop_after_first(done: int, total: int) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    partial = run_study(empty_study, workers=1, chunk_size=5, on_chunk=stop_after_first)
    assert calls == [5]
    assert not partial.complete and partial.chunks_done == 1 and partial.chunks_total == 5
    full = run_study(empty_study, workers=1, chunk_size=5)
    assert partial.n_shots == 5
    for name, values in partial.table.items():
        np.testing.assert_array_equal(values, full.table[name][:5], err_msg=name)
    out = tmp_path / "partial.parquet"
    partial.write(str(out))
    cols, meta = read_table(str(out))
    assert meta["complete"] is False and meta["shots"] == 5 and meta["shots_planned"] == 24
    assert len(cols["shot"]) == 5


def test_ctrl_c_with_two_workers_keeps_running_chunks(crowded_study: Study) -> None:
    seen = []

    def stop(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 1:
            raise KeyboardInterrupt

    partial = run_study(crowded_study, workers=2, chunk_size=2, on_chunk=stop)
    full = run_study(crowded_study, workers=1)
    assert not partial.complete
    assert 1 <= partial.chunks_done < partial.chunks_total
    shots = partial.table["shot"]
    assert np.all(np.diff(shots) > 0)
    for name, values in partial.table.items():
        np.testing.assert_array_equal(values, full.table[name][shots], err_msg=name)


def test_release_noise_can_cross_the_foul_line(crowded_scene) -> None:
    design = Design.grid(speed="0.8")
    study = Study.create(
        crowded_scene, "south", design, samples=40, noise=Noise(release=0.01), seed=5
    )
    t = run_study(study, workers=1).table
    foul = t["exec_release"] > study.design.shots[0, 3]
    assert foul.any() and (~foul).any()
    assert (t["status"][foul] == STATUSES.index(Status.FOUL)).all()
    assert math.isclose(float(np.std(t["exec_release"] - t["release"])), 0.01, rel_tol=0.35)

"""A full disk at the end of a batch: the table that cannot be written is refused in one line,
and the finished shots the run saved on the way are kept, marked incomplete, for ``--resume``."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import sliders.batch.runners
from sliders.batch.runners import BatchResult
from sliders.batch.tables import read_table
from sliders.cli import main

ARGV = ["batch", "--engine", "pymunk", "--speed", "0.5:0.7:3", "--angle", "0", "--samples", "1",
        "--workers", "1", "--chunk-size", "1", "--quiet"]  # fmt: skip


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_table_the_full_disk_refuses_keeps_the_saved_shots(fmt, full_disk, monkeypatch, capsys):
    out = full_disk.path / f"t.{fmt}"
    monkeypatch.setattr(sliders.batch.runners, "SAVE_EVERY", 0.0)
    real_write = BatchResult.write
    saves = []

    def write(self, path, fmt=None):
        real_write(self, path, fmt)
        saves.append(self.n_shots)
        if len(saves) == 1:  # the disk fills after the first save
            full_disk.fill()

    monkeypatch.setattr(BatchResult, "write", write)
    code = main([*ARGV, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err  # the machine's fault, not the input's
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "No space left on device" in err and f"it keeps the {saves[0]} shot" in err, err
    cols, record = read_table(str(out))
    assert record["complete"] is False and list(cols["shot"]) == list(range(saves[0]))
    assert sorted(p.name for p in full_disk.path.iterdir() if p.name != ".filler") == sorted(
        [out.name] + ([out.name + ".json"] if fmt == "csv" else [])
    )  # no temporary file left

    # space again: --resume completes the table, as a run without the full disk writes it
    (full_disk.path / ".filler").unlink(missing_ok=True)
    full_disk.full = False
    monkeypatch.setattr(BatchResult, "write", real_write)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*ARGV, "--out", str(out), "--resume"]) == 0
        assert main([*ARGV, "--out", str(full_disk.path / f"whole.{fmt}")]) == 0
    resumed, done = read_table(str(out)), read_table(str(full_disk.path / f"whole.{fmt}"))
    assert resumed[1]["complete"] and list(resumed[0]) == list(done[0])
    assert all(np.array_equal(resumed[0][k], done[0][k], equal_nan=True) for k in done[0])

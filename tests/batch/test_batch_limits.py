"""`sliders batch` refuses, before it starts, what it could not finish: a study too large to hold,
running options it cannot use, outputs it could not write."""

from __future__ import annotations

import pytest

from sliders.batch import Design, Study, empty_scene
from sliders.batch.study import MAX_SHOTS
from sliders.cli import main
from sliders.core.errors import UserError


def _one_line(capsys: pytest.CaptureFixture[str], message: str) -> str:
    """Check stderr; return stdout."""
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    return out


@pytest.mark.parametrize(
    "argv",
    [
        ["--speed", "0.4:1:100000000"],  # a typo in a step count
        ["--speed", "0.4:1:10000", "--angle", "-5:5:10000"],
        ["--speed", "0.4:1", "--random", "100000000000"],
        ["--speed", "0.4:1:1000", "--angle", "-5:5:1000", "--samples", "1000"],
    ],
)
def test_a_study_too_large_to_hold_is_refused_at_once(argv, tmp_path, capsys) -> None:
    assert main(["batch", *argv, "--out", str(tmp_path / "t.parquet"), "--quiet"]) == 2
    _one_line(capsys, f"at most {MAX_SHOTS:,}")
    assert not any(tmp_path.iterdir())


def test_the_limit_applies_from_python_too() -> None:
    with pytest.raises(UserError, match="more than one study holds"):
        Design.grid(speed=(0.4, 1.0, MAX_SHOTS + 1))
    design = Design.grid(speed="0.4:1:1000")
    with pytest.raises(UserError, match=r"1,000 intended × 10,001 samples"):
        Study.create(empty_scene(), "south", design, samples=10_001)
    assert Study.create(empty_scene(), "south", design, samples=10_000).n_shots == MAX_SHOTS


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "--workers 0: need at least 1"),
        (["--chunk-size", "0"], "--chunk-size 0: need at least 1"),
        (["--backend", "dask"], "--backend dask needs --scheduler"),
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is only for --backend dask"),
    ],
)
def test_bad_running_options_are_the_only_line_on_stderr(argv, message, tmp_path, capsys) -> None:
    """Not after the "N shots: ..." line that starts a run."""
    assert main(["batch", "--speed", "0.6", *argv, "--out", str(tmp_path / "t.parquet")]) == 2
    _one_line(capsys, message)


@pytest.mark.parametrize(
    ("outputs", "message"),
    [
        (["--out", "t.parquet", "--summary", "t.parquet"], "--summary t.parquet is the same file"),
        (["--out", "t.csv", "--summary", "./t.csv"], "is the same file as --out t.csv"),
        (
            ["--out", "t.parquet", "--heatmap", "p.png", "--board", "p.png"],
            "--board p.png is the same file as --heatmap p.png",
        ),
        (["--out", "tables"], "cannot write tables: it is a directory"),
        (["--out", "t.parquet", "--board", "tables"], "cannot write tables: it is a directory"),
    ],
)
def test_outputs_that_cannot_all_be_written_are_refused_before_the_run(
    outputs, message, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tables").mkdir()
    assert main(["batch", "--speed", "0.6", "--samples", "2", "--quiet", *outputs]) == 2
    assert _one_line(capsys, message) == ""  # nothing ran
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]

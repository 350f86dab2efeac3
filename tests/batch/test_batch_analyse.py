"""`sliders analyse` and `load()`: a saved table re-summarised and re-drawn without simulating."""

from __future__ import annotations

import numpy as np
import pytest

from sliders.batch import load
from sliders.batch.tables import read_table
from sliders.cli import main


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict:
    d = tmp_path_factory.mktemp("analyse")
    out = {}
    for fmt in ("parquet", "csv", "npz"):
        path = d / f"t.{fmt}"
        argv = [
            "batch",
            "--face",
            "instant-home",
            "--speed",
            "0.55:0.65:3",
            "--angle",
            "-1,1",
            "--samples",
            "6",
            "--seed",
            "2",
            "--out",
            str(path),
            "--quiet",
            "--workers",
            "1",
        ]
        assert main(argv) == 0
        out[fmt] = path
    out["dir"] = d
    return out


@pytest.mark.parametrize("fmt", ["parquet", "csv", "npz"])
def test_the_summary_is_the_one_batch_wrote(saved, fmt) -> None:
    s = load(str(saved[fmt])).summary()
    written, record = read_table(str(saved[fmt]).replace(f"t.{fmt}", f"t.summary.{fmt}"))
    assert record["confidence"] == 0.95 and record["engine"] and record["sliders_version"]
    assert sorted(s) == sorted(written)
    for name, values in s.items():
        np.testing.assert_allclose(values, written[name], rtol=1e-12, err_msg=name)


def test_load_rebuilds_the_study_and_a_dataframe(saved) -> None:
    got = load(str(saved["parquet"]))
    assert got.complete and got.n_shots == 36 and got.study.n_intended == 6
    assert got.study.design.axes["speed"].tolist() == [0.55, 0.6, 0.65]
    pd = pytest.importorskip("pandas")
    df = got.to_pandas()
    assert len(df) == 36 and isinstance(df["status"].dtype, pd.CategoricalDtype)
    assert df.groupby("speed")["value"].mean().index.tolist() == [0.55, 0.6, 0.65]


def test_analyse_draws_and_ranks_by_another_metric(saved, capsys) -> None:
    d = saved["dir"]
    argv = [
        "analyse",
        str(saved["parquet"]),
        "--metric",
        "p_in_hole",
        "--heatmap",
        str(d / "h.png"),
        "--line",
        str(d / "l.png"),
        "--board",
        str(d / "b.png"),
        "--summary",
        str(d / "s.csv"),
        "--confidence",
        "0.8",
        "--top",
        "2",
        "--vmin",
        "0",
        "--vmax",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "p_in_hole" in out and "36 shots" in out
    for name in ("h.png", "l.png", "b.png"):
        assert (d / name).read_bytes()[:4] == b"\x89PNG"
    s, record = read_table(str(d / "s.csv"))
    assert record["confidence"] == 0.8 and record["metric"] == "p_in_hole"
    assert np.all(s["mean_value_hi"] - s["mean_value_lo"] >= 0)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--metric", "nope"], "--metric"),
        (["--confidence", "1.5"], "--confidence"),
        (["--heatmap-axes", "speed,angle"], "--heatmap-axes"),
    ],
)
def test_analyse_refuses_bad_flags_in_one_line(saved, capsys, extra, message) -> None:
    assert main(["analyse", str(saved["parquet"]), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_analyse_refuses_what_is_not_a_table(tmp_path, capsys) -> None:
    bad = tmp_path / "x.parquet"
    bad.write_bytes(b"not parquet")
    assert main(["analyse", str(bad)]) == 2
    assert main(["analyse", str(tmp_path / "missing.parquet")]) == 2
    assert capsys.readouterr().err.count("\n") == 2

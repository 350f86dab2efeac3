"""Random `sliders batch` command lines, good and bad: each ends in status 0 with its outputs, or in
status 2 with one line on stderr and nothing written; never a traceback."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.cli import main

SPECS = [
    "0.6",
    "0.5:0.7:2",
    "0.5:0.7",
    "0.5,0.6",
    "-1",
    "abc",
    "nan",
    "1e400",
    "0:1:0",
    "0.7:0.5:2",
]
ANGLES = ["0", "-3:3:2", "-3:3", "2,-2", "95", "x"]
FLAGS: dict[str, list[str | None]] = {
    "--angle": ANGLES,
    "--offset": ["0", "0.01", "-0.02:0.02:2", "0.2", "-0.01:0.01"],
    "--release": ["0.1", "0.3", "0.5", "-1", "0.1:0.15:2"],
    "--random": ["2", "0", "-1", "x"],
    "--samples": ["1", "2", "0", "-3", "x"],
    "--noise": ["none", "low", "bogus"],
    "--noise-speed": ["0.05", "-1", "inf"],
    "--noise-release": ["0.05", "1e300"],
    "--noise-offset": ["0.05", "nan"],
    "--seed": ["0", "1", "-1", "99999999999999999999"],
    "--workers": ["1", "0"],
    "--chunk-size": ["1", "0", "3"],
    "--top": ["0", "-2", "3"],
    "--confidence": ["0.9", "1", "0", "nan"],
    "--heatmap-axes": ["speed,angle", "speed", "x,y"],
    "--format": ["csv", "npz", "parquet", "xml"],
    "--resume": [None],
    "--seat": ["south", "east", "north"],
    "--pawn": ["south-2", "north-1", "x"],
    "--backend": ["local", "dask", "zzz"],
    "--param": ["dt=0.002", "bogus=1", "mu_roll=-1"],
    "--spee": ["1"],
    "--board": ["b.png"],
}


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    argv = ["batch", "--quiet", "--speed", draw(st.sampled_from(SPECS))]
    names = draw(st.lists(st.sampled_from(sorted(FLAGS)), max_size=5, unique=True))
    for name in names:
        value = draw(st.sampled_from(FLAGS[name]))
        argv += [name] if value is None else [name, value]
    argv += ["--out", draw(st.sampled_from(["t.csv", "t.parquet", "t.npz", "t"]))]
    return argv


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(argv=command_lines())
def test_any_command_line_is_done_or_one_line_and_nothing_written(argv, capsys) -> None:
    with tempfile.TemporaryDirectory() as d:
        local = [
            str(Path(d) / a) if a in ("t.csv", "t.parquet", "t.npz", "t", "b.png") else a
            for a in argv
        ]
        capsys.readouterr()
        status = main(local)
        out, err = capsys.readouterr()
        assert "Traceback" not in err + out
        written = sorted(p.name for p in Path(d).iterdir())
        if status == 2:
            assert err.count("\n") == 1 and err.startswith("sliders batch: error: "), err
            assert written == []
        else:
            assert status == 0, err
            assert written and "wrote " in out

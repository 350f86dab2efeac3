"""A user's mistakes on the command line, met as a user meets them: a misspelt flag is named with
the flag it most looks like, an output name whose extension the command cannot write is refused
before anything runs, a stream such as /dev/null gets no file named after it, and every writer
says what it wrote.

The commands run through :func:`sliders.cli.main` in this process, in a folder of their own; the
two checks whose subject is the process (its exact error output, a table written to a real pipe)
start the command as a user does."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sliders.cli import main

from ..helpers import run_main


def sliders_process(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``sliders ARGV`` started as a user starts it."""
    return subprocess.run(
        [sys.executable, "-m", "sliders.cli", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        timeout=300,
    )


@pytest.fixture
def sliders(tmp_path, monkeypatch, capfd):
    """``sliders(*argv)``: the command run by :func:`main` in ``tmp_path`` (its working folder),
    with what it wrote to standard output and error (as file descriptors: ``/dev/stdout`` too)."""
    monkeypatch.chdir(tmp_path)
    return functools.partial(run_main, capfd)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shot", "--spee", "0.6"], "unrecognized arguments: --spee (did you mean --speed?)"),
        (["shot", "--speed", "0.6", "--angel", "2"], "--angel (did you mean --angle?)"),
        (["shot", "--speed=0.6", "--sed=3"], "--sed (did you mean --seed?)"),
        (["batch", "--speed", "1", "--out", "x.parquet", "--sampels", "3"], "--samples?"),
        (["tournament", "--player", "centre,greedy"], "--player (did you mean --players?)"),
        (["score", "--fase", "instant-home"], "--fase (did you mean --face?)"),
        (["--verison"], "--verison (did you mean --version?)"),
        (["shot", "--speed", "0.6", "--wibble"], "unrecognized arguments: --wibble"),
    ],
)
def test_a_misspelt_flag_is_named_with_the_one_meant(capsys, argv, message) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "required" not in err and len(err.splitlines()) == 1


def test_the_misspelt_flag_is_named_in_a_subprocess_too() -> None:
    run = sliders_process("shot", "--spee", "0.6")
    assert run.returncode == 2 and not run.stdout
    assert run.stderr == (
        "sliders shot: error: unrecognized arguments: --spee (did you mean --speed?)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["shot", "--speed", "0.6", "--angle", "-2", "--offset", "-0.01", "--json"],
        ["shot", "--spee", "0.6", "--help"],  # --help wins, as argparse has it
        ["batch", "--help", "--angle", "-6:6:13"],
    ],
)
def test_values_that_look_like_flags_and_help_are_not_mistakes(capsys, argv) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # pragma: no cover - main turns --help into 0
        code = int(exc.code or 0)
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "x.parqet"], "--out x.parqet: unknown extension .parqet"),
        (["--out", "x.csv", "--summary", "s.txt"], "--summary s.txt: unknown extension .txt"),
        (["--out", "x.csv", "--heatmap", "h.jpg"], "--heatmap h.jpg: pictures are PNG files"),
        (["--out", "x.csv", "--line", "l.svg"], "--line l.svg: pictures are PNG files"),
    ],
)
def test_batch_refuses_an_output_it_cannot_write_before_it_runs(
    sliders, tmp_path, argv, message
) -> None:
    run = sliders("batch", "--speed", "0.6", "--noise", "none", "--quiet", *argv)
    assert run.returncode == 2 and message in run.stderr and not run.stdout
    assert not list(tmp_path.iterdir())


def test_format_names_the_format_of_another_extension(sliders, tmp_path) -> None:
    run = sliders(
        "batch", "--speed", "0.6", "--noise", "none", "--quiet", "--out", "x.dat",
        "--format", "csv",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "x.dat", "x.dat.json", "x.summary.csv", "x.summary.csv.json",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["shot", "--speed", "0.6", "--png", "shot.jpg"],
        ["render", "--out", "table.pdf"],
        ["best", "--speed", "0.6", "--board", "b.gif"],
        ["tournament", "--players", "centre,greedy", "--png", "t.svg"],
    ],
)
def test_a_picture_is_named_png(sliders, tmp_path, argv) -> None:
    run = sliders(*argv)
    assert run.returncode == 2 and "pictures are PNG files" in run.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_stream_gets_no_summary_or_record_beside_it(sliders) -> None:
    before = set(os.listdir("/dev"))
    run = sliders(
        "batch", "--speed", "0.6", "--noise", "none", "--quiet", "--out", "/dev/null",
        "--format", "csv",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert set(os.listdir("/dev")) == before
    assert run.stdout.splitlines()[-1] == "wrote /dev/null"


def test_a_table_can_be_written_to_a_pipe(tmp_path) -> None:
    run = sliders_process(
        "batch", "--speed", "0.6", "--noise", "none", "--quiet", "--out", "/dev/stdout",
        "--format", "csv", cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith('"shot","intended"')
    assert not list(tmp_path.iterdir())


def test_shot_says_what_it_wrote(sliders, tmp_path) -> None:
    run = sliders("shot", "--speed", "0.6", "--png", "s.png", "--save-scene", "s.json")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "wrote s.json, s.png"
    assert (tmp_path / "s.png").stat().st_size > 0 and (tmp_path / "s.json").exists()
    as_json = sliders("shot", "--speed", "0.6", "--png", "j.png", "--json")
    assert as_json.returncode == 0 and as_json.stdout.startswith("{")
    assert as_json.stderr.splitlines()[-1] == "wrote j.png"  # stdout is the JSON alone


def test_params_keeps_its_columns_in_line(capsys) -> None:
    assert main(["params"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("name "))
    header = lines[start]
    end = next(i for i, line in enumerate(lines) if line.startswith("  combined limit"))
    rows = lines[start + 1 : end]
    meaning = header.index("meaning")
    legal = header.index("legal range")
    value = header.index("value")
    assert len(rows) > 10
    for row in rows:  # every column starts under its heading, after two spaces
        assert row[meaning - 2 : meaning] == "  " and row[meaning] != " ", row
        assert row[legal - 2 : legal] == "  " and row[legal] != " ", row
        assert row[value - 2 : value] == "  " and row[value] != " ", row

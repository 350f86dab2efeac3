"""The ``sliders`` command as a whole, seen through ``sliders layouts``: how usage mistakes are
reported, and output into a pipe whose reader has gone."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sliders.cli import main


@pytest.mark.parametrize(
    ("argv", "prefix"),
    [
        (["layouts", "--bogus"], "sliders layouts: error: unrecognized arguments: --bogus"),
        (["layouts", "square", "extra"], "sliders layouts: error: unrecognized arguments: extra"),
        (["--bogus"], "sliders: error: unrecognized arguments: --bogus"),
    ],
)
def test_unknown_arguments_are_named_by_their_command(argv, prefix, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(prefix) and err.count("\n") == 1, err


def test_no_command_lists_them_and_says_so(capsys) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert "layouts" in out and "batch" in out
    assert err == "sliders: error: choose a COMMAND\n"


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    """``sliders layouts --json | head -c 0``: no traceback, the status of a SIGPIPE death."""
    code = "import sys; from sliders.cli import main; sys.exit(main(['layouts', '--json']))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the command writes a byte
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141, err
    assert err == ""


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["render", "--out", ""], "--out"),
        (["render", "--out", "t.png", "--seats", ""], "--seats"),
        (["shot", "--speed", "0.6", "--layout", " "], "--layout"),
        (["shot", "--speed", "0.6", "--param", "mu_roll=0.05", "--param", ""], "--param"),
        (["batch", "--speed", "0.6", "--out", ""], "--out"),
        (["score", "--face", "race-for-home", "--players", "red", "--log", ""], "--log"),
        (["play", "--save", ""], "--save"),
        (["layouts", ""], "layout"),
    ],
)
def test_an_empty_value_is_refused_not_taken_for_the_default(
    argv, flag, tmp_path, monkeypatch, capsys
) -> None:
    """``--out "$UNSET"``: one line naming the flag, nothing written, nothing started."""
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"sliders {argv[0]}: error: argument {flag}: expected a value, got an empty one\n"
    assert not any(tmp_path.iterdir())

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

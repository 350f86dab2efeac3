"""The bad-input reproducers of the fault campaign, run as a user runs them (the installed
``sliders`` entry point, in a fresh process, with a timeout): each ends at once with exit status 2
and one line on stderr, and writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
SCENE = {"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "race-for-home"}

CASES = [
    (["render", "--scene", "/dev/zero", "--out", "o.png"], "is a character device"),
    (["layouts", "/dev/zero"], "is a character device"),
    (["score", "--replay", "/dev/zero"], "is a character device"),
    (["render", "--scene", "deep.json", "--out", "o.png"], "nested more than 32 deep"),
    (["score", "--replay", "bigint.json"], "expected a whole number of at most 40 digits"),
    (["render", "--scene", "x1e400.json", "--out", "o.png"], "pawns[0].x: expected a finite"),
    (["shot", "--spee", "1"], "--spee"),
    (["render", "--layout", "x" * 300, "--out", "o.png"], "unknown layout 'xxx"),
    (["render", "--layout", "x" * 300 + ".toml", "--out", "o.png"], ".toml does not exist"),
    (["shot", "--speed", "0.6", "--save-scene", "x" * 300], "File name too long"),
]


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "bigint.json").write_text('{"schema": ' + "9" * 5000 + "}")
    pawn = '{"id": "north-1", "x": 1e400, "y": 0.03}'
    (tmp_path / "x1e400.json").write_text(json.dumps(SCENE)[:-1] + f', "pawns": [{pawn}]}}')
    return tmp_path


@pytest.mark.parametrize(("argv", "message"), CASES)
def test_reproducer_is_one_line_and_exit_2(workdir, argv, message):
    before = sorted(p.name for p in workdir.iterdir())
    proc = subprocess.run(
        [sys.executable, "-m", "sliders.cli", *argv],
        cwd=workdir,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr
    assert sorted(p.name for p in workdir.iterdir()) == before


def test_an_operating_system_error_a_command_let_through_is_one_line(monkeypatch, capsys):
    """The last net: an OSError escaping a command (a name too long, a full disk) is one line
    naming the file; exit status 1 when the machine is at fault (a full disk), 2 when the input
    is (a name too long)."""
    import sliders.cli.layouts as layouts_command
    from sliders.cli import main

    def full(_args):
        raise OSError(28, "No space left on device", "out/big.csv")

    monkeypatch.setattr(layouts_command, "run", full)
    assert main(["layouts"]) == 1
    err = capsys.readouterr().err
    assert err == "sliders layouts: error: out/big.csv: No space left on device\n"

    def too_long(_args):
        raise OSError(36, "File name too long", "x" * 300)

    monkeypatch.setattr(layouts_command, "run", too_long)
    assert main(["layouts"]) == 2
    assert capsys.readouterr().err.endswith(": File name too long\n")

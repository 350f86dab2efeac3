"""``sliders practice``: bad input is one line and exit status 2 before any window opens; a good
command gets as far as the window, with the table from --scene when the file exists."""

from __future__ import annotations

import json

import pytest

import sliders.cli.play as play_command
from sliders.cli import main

SCENE = {"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "instant-home",
         "pawns": [{"id": "north-1", "x": 0.0, "y": 0.03}]}  # fmt: skip


class _Window(Exception):
    pass


@pytest.fixture
def opened(monkeypatch):
    seen = {}

    def window(size, args):
        seen["size"] = size
        raise _Window

    monkeypatch.setattr(play_command, "open_play_window", window)
    return seen


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--hand", "wobbly"], "unknown hand"),
        (["--layout", "nosuch"], "unknown layout"),
        (["--scene", "."], "is a directory"),
        (["--scene", "no/such/dir/t.json"], "directory no/such/dir does not exist"),
        (["--scene", "west.json"], "no seat 'west'"),
        (["--scene", "table.json", "--face", "danger-dots"], "leave out --face"),
        (["--control", "x"], "choose from flick, aim"),
    ],
)
def test_bad_input_is_one_line_before_the_window(
    argv, words, tmp_path, monkeypatch, capsys, opened
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "table.json").write_text(json.dumps(SCENE))
    west = SCENE | {"pawns": [{"id": "west-1", "x": 0.0, "y": 0.0}]}
    (tmp_path / "west.json").write_text(json.dumps(west))
    assert main(["practice", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and not opened


def test_a_good_command_reaches_the_window(tmp_path, monkeypatch, opened):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "table.json").write_text(json.dumps(SCENE))
    for argv in (["--scene", "table.json"], ["--layout", "crazy-corner", "--size", "800x600"]):
        with pytest.raises(_Window):
            main(["practice", *argv])
    assert opened["size"] == (800, 600)

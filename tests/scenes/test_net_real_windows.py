"""A hosted game between two people, each in a real window of their own under one virtual X
display, driven by real pointer events (``xdotool``): the host serves the game on the loopback,
each window aims its seat's shots and sees the other's roll, and both windows end with the
host's log, step for step, with no shot run differently. Slow, and skipped where Xvfb or
xdotool is missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sliders.game.saves import load_replay

from ..helpers import virtual_display
from .test_net_window import Served, served  # noqa: F401  # the host on the loopback

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent


@pytest.fixture
def wide_display():
    with virtual_display("1700x700x24") as display:
        yield display


def test_two_people_play_a_hosted_game_in_two_real_windows(
    wide_display: str,
    served: Served,  # noqa: F811
    tmp_path: Path,
) -> None:
    env = {**os.environ, "DISPLAY": wide_display, "PYTHONPATH": str(HERE.parent.parent)}
    room = served.room
    seats = (("south", "0"), ("north", "850"))
    windows = [
        subprocess.Popen(
            [sys.executable, str(HERE / "net_window.py"), served.url, room.codes[seat], x, "0"]
            + [str(tmp_path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seat, x in seats
    ]
    ran = [w.communicate(timeout=600) for w in windows]
    said = "\n".join(
        f"{seat}: {err.strip()}" for (seat, _), (_, err) in zip(seats, ran, strict=True)
    )
    assert all(w.returncode == 0 for w in windows), f"{said}\n{served.story()}"
    outs = [json.loads(out.strip().splitlines()[-1]) for out, _ in ran]
    logged = load_replay(room.log).to_json()["steps"]
    assert len(logged) == 9  # one round of four shots each, and its scoring
    assert "by" not in logged[8]  # each window's round-end choice made in time (clicked)
    for out in outs:
        assert out["slid"] == 4, out["seat"]
        assert out["steps"] == logged and out["mismatches"] == []

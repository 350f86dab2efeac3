"""The game in a real window under a virtual X display, driven by real pointer events
(``xdotool``), once the physics and the computer are prepared in the background: a half-power
straight pull with the exact hand lands on ring 5. (The longest frame is printed by the
program, not asserted: ``benchmarks/window_wait.py`` measures it.) Slow, and skipped where Xvfb
or xdotool is missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import virtual_display

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent


@pytest.fixture
def display():
    with virtual_display("1280x800x24") as display:
        yield display


def test_a_slide_in_a_real_window(display, tmp_path):
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(HERE.parent.parent)}
    run = subprocess.run(
        [sys.executable, str(HERE / "real_window.py"), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["shots"] == 1 and out["status"] == "ON_TARGET" and out["points"] == 5, out


def test_the_practice_sandbox_in_a_real_window(display, tmp_path):
    """A pawn dragged onto the board, a slide aimed with the aim help drawn, a hint, an undo:
    all by real pointer and key events (tests/scenes/real_practice.py)."""
    env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(HERE.parent.parent)}
    run = subprocess.run(
        [sys.executable, str(HERE / "real_practice.py"), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["placed"] == ["north-1"] and out["help_solved"] >= 1 and out["hint"], out
    assert out["after_shot"] == ["north-1", "south-1"] and out["after_undo"] == ["north-1"], out

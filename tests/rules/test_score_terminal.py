"""`sliders score` at a terminal: lines are typed with line editing and history (the standard
library's readline), and Ctrl-C saves the game and says how to resume it."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NEW_GAME = ["score", "--face", "race-for-home", "--players", "red,yellow"]

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "openpty"), reason="needs a pseudo-terminal"
)


class Terminal:
    """``sliders ARGV`` with a pseudo-terminal for its standard input, output and error."""

    def __init__(self, *argv: str) -> None:
        self.fd, child = os.openpty()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "100"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sliders.cli", *argv],
            stdin=child,
            stdout=child,
            stderr=child,
            env=env,
            start_new_session=True,
        )
        os.close(child)
        self.seen = ""
        self.read = 0  # where the last text waited for ended

    def until(self, text: str, timeout: float = 60.0) -> str:
        """Read until ``text`` has been shown after the last text waited for; everything shown
        so far."""
        end = time.monotonic() + timeout
        while text not in self.seen[self.read :]:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never shown; the screen: {self.seen!r}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    self.seen += os.read(self.fd, 4096).decode("utf-8", "replace")
                except OSError:  # the child closed its end
                    break
        if text in self.seen[self.read :]:
            self.read = self.seen.index(text, self.read) + len(text)
        return self.seen

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            os.close(self.fd)


LEFT, UP = b"\x1b[D", b"\x1b[A"


def test_the_arrow_keys_edit_the_line_and_recall_the_last_one(tmp_path) -> None:
    log = tmp_path / "game.json"
    term = Terminal(*NEW_GAME, "--log", str(log))
    try:
        term.until("red> ")
        term.type(b"rd 3" + LEFT * 3 + b"e\r")  # "red 3" once the cursor went back for the e
        term.until("yellow> ")
        term.type(b"yellow 2\r")
        term.until("red> ")
        term.type(UP + UP + b"\x7f4\r")  # recall "red 3", make it "red 4"
        term.until("yellow> ")
        term.type(b"quit\r")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    steps = json.loads(log.read_text())["steps"]
    assert len(steps) == 3
    assert "error" not in term.seen and "^[[" not in term.seen


def test_ctrl_c_saves_the_game_and_says_how_to_resume_it(tmp_path) -> None:
    log = tmp_path / "game.json"
    term = Terminal(*NEW_GAME, "--log", str(log))
    try:
        term.until("red> ")
        term.type(b"red 3\r")
        term.until("yellow> ")
        os.killpg(term.proc.pid, signal.SIGINT)
        shown = term.until("sliders score --log")
        assert term.close() == 130
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    assert f"the game is saved in {log}; resume it with: sliders score --log {log}" in shown
    assert "Traceback" not in shown
    assert len(json.loads(log.read_text())["steps"]) == 1


def test_ctrl_c_without_a_log_says_the_game_was_not_saved(tmp_path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *NEW_GAME],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write("red 3\n")
    proc.stdin.flush()
    while "yellow to slide" not in proc.stdout.readline():
        pass
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted; the game was not saved (start one with --log FILE" in err
    assert not list(tmp_path.iterdir())

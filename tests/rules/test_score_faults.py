"""The scorekeeper never crashes and never loses a step: odd digits, its own faults, a second
session on the same log, a kill -9 in the middle of a game, logs with numbers out of range."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from sliders.cli import main
from sliders.rules import Game

PYTHON = sys.executable
START = ["--face", "race-for-home", "--players", "red,yellow"]


def score(monkeypatch, capsys, args: list[str], lines: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("red ²", "unknown word '²'"),
        ("red#² 3", "'red#²': a roller pawn number is 1 to 4"),
        ("red#٣ 3", "a roller pawn number is 1 to 4"),
        ("red ٣", "unknown word '٣'"),
        ("red hole@²", "'²' is not a square"),
        ("red 3, yellow#+1 off", "a roller pawn number is 1 to 4"),
    ],
)
def test_digits_that_are_not_ascii_are_one_line_and_the_game_goes_on(
    monkeypatch, capsys, tmp_path, line, message
):
    log = tmp_path / "g.json"
    face = ["--face", "instant-home", "--players", "red,yellow", "--log", str(log)]
    code, _out, err = score(monkeypatch, capsys, face, [line, "red 3"])
    assert code == 0
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    assert len(Game.load(log).steps) == 1


def test_a_non_ascii_move_at_round_end_is_one_line(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    lines = ["red 3", "yellow 3"] * 4 + ["red 3²@0", "ok"]
    code, out, err = score(monkeypatch, capsys, [*START, "--log", str(log)], lines)
    assert code == 0 and err.count("\n") == 1 and "'3²@0': write moves as POINTS@SQUARE" in err
    assert "round 2 begins" in out
    assert len(Game.load(log).steps) == 9


def test_a_fault_in_one_line_is_one_line_and_nothing_is_lost(monkeypatch, capsys, tmp_path):
    """Any unexpected error while handling a line is reported in one line; the game so far is
    kept and saved, and the next lines are handled as usual."""
    import sliders.cli.score as command

    real = command.parse_shot

    def flaky(state, line):
        if "tip" in line:
            raise ZeroDivisionError("a bug")
        return real(state, line)

    monkeypatch.setattr(command, "parse_shot", flaky)
    log = tmp_path / "g.json"
    code, _out, err = score(
        monkeypatch, capsys, [*START, "--log", str(log)], ["red 3", "yellow tip", "yellow 2"]
    )
    assert code == 0
    assert err.count("\n") == 1 and "ZeroDivisionError: a bug" in err and "Traceback" not in err
    assert len(Game.load(log).steps) == 2

    # in --batch mode the script stops there, exit 2, with what came before saved
    log2 = tmp_path / "g2.json"
    code, _out, err = score(
        monkeypatch, capsys, [*START, "--log", str(log2), "--batch"], ["red 3", "yellow tip"]
    )
    assert code == 2 and err.count("\n") == 1 and "line 2: could not be handled" in err
    assert len(Game.load(log2).steps) == 1


def _keeper(log, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [PYTHON, "-m", "sliders.cli", "score", *START, "--log", str(log), *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _steps(log) -> int:
    try:
        return len(json.loads(log.read_text())["steps"])
    except (OSError, ValueError):
        return -1


def test_two_scorekeepers_on_one_log(monkeypatch, capsys, tmp_path):
    """The second session is refused in one line naming the first one's pid; the first one's
    shots all survive."""
    log = tmp_path / "g.json"
    first = _keeper(log)
    try:
        assert first.stdin is not None
        first.stdin.write("red 3\n")
        first.stdin.flush()
        _wait_for(lambda: _steps(log) == 1)
        code, _out, err = score(monkeypatch, capsys, ["--log", str(log)], ["yellow 4", "red 2"])
        assert code == 2 and err.count("\n") == 1, err
        assert f"is open for writing in another session (pid {first.pid})" in err
        first.stdin.write("yellow 2\n")
        first.stdin.close()
        assert first.wait(timeout=30) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert _steps(log) == 2
    # the first session has finished: the log is free again, and its lock file gone
    code, out, err = score(monkeypatch, capsys, ["--log", str(log)], ["red 5"])
    assert code == 0 and err == "" and "resumed" in out
    assert _steps(log) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_window_cannot_save_over_a_log_a_scorekeeper_holds(tmp_path):
    from sliders.core.errors import UserError
    from sliders.game.saves import save_game

    log = tmp_path / "g.json"
    first = _keeper(log)
    try:
        _wait_for(lambda: _steps(log) == 0)
        with pytest.raises(UserError, match=f"another session \\(pid {first.pid}\\)"):
            save_game(Game("race-for-home", ["south"]), log)
    finally:
        first.kill()
        first.wait()
    assert _steps(log) == 0 and json.loads(log.read_text())["seats"] == ["south", "north"]
    save_game(Game("race-for-home", ["south"]), log)  # killed: the lock went with it
    assert json.loads(log.read_text())["seats"] == ["south"]


def test_kill_9_mid_game_then_resume(monkeypatch, capsys, tmp_path):
    """Every step typed before the kill is in the log; the next session resumes it (the dead
    session's lock does not hold it) and no temporary file is left behind."""
    log = tmp_path / "g.json"
    keeper = _keeper(log)
    assert keeper.stdin is not None
    for n, line in enumerate(["red 3", "yellow 2", "red tip", "yellow off"], 1):
        keeper.stdin.write(line + "\n")
        keeper.stdin.flush()
        _wait_for(lambda n=n: _steps(log) == n)
    os.kill(keeper.pid, signal.SIGKILL)
    keeper.wait()
    # a temporary file a write killed half-way would have left, named for the dead process
    (tmp_path / f".g.json.{keeper.pid}.k1ll3d00.tmp").write_text('{"half": ')
    code, out, err = score(monkeypatch, capsys, ["--log", str(log)], ["red 4", "yellow 1"])
    assert code == 0 and err == "", err
    assert "resumed" in out and "after 4 steps" in out
    game = Game.load(log)
    assert len(game.steps) == 6 and game.state.turn == "south"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def _log_with(**changes) -> dict:
    data = {
        "schema": 2,
        "kind": "sorry-sliders-game",
        "face": "race-for-home",
        "seats": ["south", "north"],
        "starter": "south",
        "steps": [
            {
                "shot": {
                    "face": "race-for-home",
                    "shooter": "south-1",
                    "pawns": [
                        {"id": "south-1", "seat": "south", "x": 0.0, "y": 0.01,
                         "status": "on_target", "points": 5, "choices": [5]}
                    ],
                    "events": [{"t": 0.0, "type": "release", "pawns": ["south-1"],
                                "impulse": 0.0, "x": 0.0, "y": -0.3}],
                    "settle_time": 1.2,
                },
                "home": {},
                "slide": {"seat": "south", "pawn": "south-1", "speed": 0.6, "angle_rad": 0.0,
                          "offset": 0.0, "release": None, "seed": 3},
            }
        ],
    }  # fmt: skip
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[int(k)] if k.isdigit() else node[k]
        last = keys[-1]
        if value is _DELETE:
            del node[last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return data


_DELETE = object()
PAWN = "steps__0__shot__pawns__0__"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"schema": 0}, "schema: expected a whole number"),
        ({"schema": False}, "schema: expected a whole number"),
        ({"starter": 3}, "starter: expected text"),
        ({"seats": "south"}, "seats: expected a list"),
        ({"seats": [1]}, "seats[0]: expected text"),
        ({PAWN + "points": 1e308}, "shot.pawns[0].points: expected a whole number within 0..6"),
        ({PAWN + "points": -1}, "shot.pawns[0].points: expected a whole number within 0..6"),
        ({PAWN + "points": 3.7}, "shot.pawns[0].points: expected a whole number"),
        ({PAWN + "points": "1"}, "shot.pawns[0].points: expected a whole number"),
        ({PAWN + "points": True}, "shot.pawns[0].points: expected a whole number"),
        ({PAWN + "choices": [1e308]}, "shot.pawns[0].choices[0]: expected a whole number"),
        ({PAWN + "x": 1e308}, "shot.pawns[0].x: expected a number (m) within ±10"),
        ({PAWN + "id": "south-01"}, "shot.pawns[0].id: expected a pawn id SEAT-N"),
        ({"steps__0__slide__speed": 1e308}, "slide.speed: expected a number (m/s) within 0..10"),
        ({"steps__0__home": {"south-1": 9}}, "home.south-1: expected a whole number within 0..3"),
        ({"steps__0__shot__events__0__t": -1}, "shot.events[0].t: expected a number (s)"),
        ({"steps__0__Shot": 1}, "step 1: unknown key 'Shot'"),
        ({"Steps": []}, "unknown key 'Steps'"),
    ],
)
def test_logs_with_numbers_out_of_range_are_refused_by_both_readers(
    capsys, tmp_path, changes, message
):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_log_with()))
    assert main(["score", "--replay", str(good)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_log_with(**changes)))
    for command in (["score", "--replay", str(bad)], ["play", "--replay", str(bad)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and f"game log {bad}: " in err, err


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e400", "9" * 5000])
@pytest.mark.parametrize("field", ["x", "points"])
def test_logs_with_numbers_json_cannot_hold_are_refused(capsys, tmp_path, token, field):
    text = json.dumps(_log_with(**{PAWN + field: 12345.5}))
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace("12345.5", token))
    for command in (["score", "--replay", str(bad)], ["play", "--replay", str(bad)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"steps[0].shot.pawns[0].{field}: expected" in err, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--replay", "g.json", "--face", "race-for-home"], "leave out --face"),
        (["--replay", "g.json", "--players", "red"], "leave out --players"),
        (["--replay", "g.json", "--log", "h.json"], "leave out --log"),
        (["--replay", "g.json", "--starter", "red"], "leave out --starter"),
        (["--replay", "g.json", "--boards", "red=0,0,2,6"], "leave out --boards"),
        (["--replay", "g.json", "--round", "3"], "leave out --round"),
        (["--repl", "g.json"], "unrecognized arguments: --repl"),
        (["--face", "race-for-home", "--boards", "red=²,0,0,0"], "a square is 0 (START) to 6"),
        (["--face", "race-for-home", "--boards", "red=٣,0,0,0"], "a square is 0 (START) to 6"),
    ],
)
def test_conflicting_or_abbreviated_flags_are_refused(monkeypatch, capsys, args, message):
    code, _out, err = score(monkeypatch, capsys, args, [])
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_undecodable_bytes_and_endless_lines_are_mistyped_lines(monkeypatch, capsys, tmp_path):
    """Input that is not UTF-8 (read strictly, as in a UTF-8 locale) and a line of megabytes are
    each one line of complaint; the lines around them count."""
    raw = b"red 3\n\xff\xfe 3\n" + b"x" * 3_000_000 + b"\nyellow 2\n"
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdin", stdin)
    log = tmp_path / "g.json"
    assert main(["score", *START, "--log", str(log)]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 2 and "unknown player '\ufffd\ufffd'" in lines[0], err
    assert lines[1] == "error: a line of more than 1000 characters"
    assert len(out) < 10_000
    assert len(Game.load(log).steps) == 2

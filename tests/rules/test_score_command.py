"""`sliders score`, driven through its standard input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from sliders.cli import main
from sliders.core.outcome import Status
from sliders.rules import Game, Phase

PYTHON = sys.executable

ROUND_1 = ["red 5", "blue track"] * 4 + ["ok"]
ROUND_2 = ["blue track", "red tip"] * 4 + ["ok"]


def score(monkeypatch, capsys, args: list[str], lines: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_game_through_standard_input(tmp_path):
    log = tmp_path / "game.json"
    script = "\n".join(ROUND_1 + ROUND_2) + "\n"
    proc = subprocess.run(
        [PYTHON, "-m", "sliders.cli", "score", "--face", "race-for-home"]
        + ["--players", "red,blue", "--log", str(log)],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert "red to slide (4 in hand)" in out
    assert "round 1 scoring:" in out and "5@0 5@0 5@0 5@0   [suggested]" in out
    assert "round 2 begins; blue slides first" in out
    assert "red has all four pawns HOME and wins at the end of round 2!" in out
    assert "red wins in round 2" in out
    game = Game.load(log)
    assert game.state.winner == "south" and game.state.player("south").all_home
    assert len(game.steps) == 18


def test_a_mistyped_line_is_explained_and_the_game_goes_on(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    lines = ["blue 3", "red banana", "red 9", "red 3", "red#1 tip", "blue 2, red#1 tip"]
    code, out, err = score(
        monkeypatch,
        capsys,
        ["--face", "race-for-home", "--players", "red,blue", "--log", str(log)],
        lines,
    )
    assert code == 0
    errors = err.splitlines()
    assert errors == [
        "error: it is red's turn, not blue's",
        "error: unknown word 'banana' (try 'help')",
        "error: no ring is worth 9 on race-for-home",
        "error: it is blue's turn, not red's",  # the first pair is always the shot
    ]
    state = Game.load(log).state
    assert {p.id: p.status for p in state.table} == {
        "south-1": Status.TIPPING,
        "west-1": Status.ON_TARGET,
    }
    assert state.turn == "south"
    assert "red#1 tip 1" in out


def test_log_resume_continues_where_it_stopped(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    start = ["--face", "instant-home", "--players", "yellow,green", "--log", str(log)]
    code, out, _ = score(monkeypatch, capsys, start, ["yellow 3", "green 2"])
    assert code == 0 and f"saved to {log}" in out
    code, out, _ = score(monkeypatch, capsys, ["--log", str(log)], ["yellow hole@0", "green edge"])
    assert code == 0
    assert out.startswith(f"resumed {log} after 2 steps\n")
    assert "yellow scoring pawn 1 jumps HOME from START" in out
    state = Game.load(log).state
    assert state.player("north").board == (6, 0, 0, 0)
    assert [p.id for p in state.table] == ["north-1", "east-1", "east-2"]
    assert state.turn == "north"
    # resuming with the same setup is fine, with another one is refused
    code, _, _ = score(monkeypatch, capsys, start, [])
    assert code == 0
    code, _, err = score(monkeypatch, capsys, ["--log", str(log), "--face", "danger-dots"], [])
    assert code == 2 and err.count("\n") == 1 and "holds a game of instant-home" in err
    # so is another starter: the command names a different game
    code, _, err = score(monkeypatch, capsys, [*start, "--starter", "green"], [])
    assert code == 2 and err == f"sliders score: error: {log} is a game yellow started, not green\n"
    code, _, _ = score(monkeypatch, capsys, [*start, "--starter", "north"], [])
    assert code == 0


def test_round_end_choice_undo_and_knocks(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    lines = ["red 3", "red 4, red#1 off", "red 1", "undo", "red 2", "red#4 tip"]
    lines += ["red 9@0", "red 4@0", "moves red", "red 4@0 2@0 1@0", "ok"]
    code, out, err = score(
        monkeypatch,
        capsys,
        ["--face", "race-for-home", "--players", "red", "--log", str(log)],
        lines,
    )
    assert code == 0, err
    assert "took back red#3's shot" in out
    assert "red#1 went off the board: out for the round (penalty)" in out
    assert err.splitlines() == [
        "error: red's pawns do not score that (on 4, on 2, tip 1)",
        "error: red#3's 2 can still move the pawn on square START; "
        "points are lost only when no pawn can take them",
    ]
    assert "4@0 2@0 1@0   [chosen]" in out
    state = Game.load(log).state
    assert state.round == 2 and state.phase is Phase.SHOOTING
    assert sorted(state.player("south").board) == [0, 1, 2, 4]


def test_batch_stops_at_the_first_bad_line_and_keeps_what_was_recorded(
    monkeypatch, capsys, tmp_path
):
    log = tmp_path / "g.json"
    args = ["--face", "danger-dots", "--players", "red,blue", "--batch", "--log", str(log)]
    code, out, err = score(monkeypatch, capsys, args, ["# a comment", "red dot", "", "red 3"])
    assert code == 2
    assert err == "sliders score: error: line 4: it is blue's turn, not red's\n"
    assert "red>" not in out  # no prompts in batch mode
    assert len(Game.load(log).steps) == 1


def test_replay_prints_the_result(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    args = ["--face", "race-for-home", "--players", "red,blue", "--log", str(log)]
    score(monkeypatch, capsys, args, ROUND_1 + ROUND_2)
    code, out, _ = score(monkeypatch, capsys, ["--replay", str(log)], [])
    assert code == 0
    assert out.splitlines()[0] == "race-for-home: red, blue; 18 steps"
    assert "1      5 5 5 5" in out and "2      HOME HOME HOME HOME" in out
    assert out.splitlines()[-1] == "red won in round 2"


def test_help_lists_the_words(monkeypatch, capsys):
    code, out, _ = score(
        monkeypatch, capsys, ["--face", "instant-sorry", "--players", "red"], ["help"]
    )
    assert code == 0
    for word in ("sorry", "off", "tip", "track", "hole", "edge", "over", "foul", "dot", "undo"):
        assert f"red {word}" in out or word in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--face", "race-for-home"], "say --face and --players"),
        (["--face", "race-for-home", "--players", "red,purple"], "unknown player 'purple'"),
        (["--face", "race-for-home", "--players", "red,red"], "named twice"),
        (["--face", "race-for-home", "--players", "red", "--starter", "blue"], "not playing"),
    ],
)
def test_bad_setup_is_one_line_and_exit_2(monkeypatch, capsys, args, message):
    code, _, err = score(monkeypatch, capsys, args, [])
    assert code == 2 and err.count("\n") == 1 and message in err


def test_bad_flag_is_one_line_and_exit_2():
    proc = subprocess.run(
        [PYTHON, "-m", "sliders.cli", "score", "--face", "chess", "--players", "red"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "invalid choice: 'chess'" in proc.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{ broken", "is not valid JSON"),
        (json.dumps({"schema": 99, "face": "race-for-home"}), "newer than this sliders reads"),
        (
            json.dumps({"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [7]}),
            "step 1",
        ),
    ],
)
def test_broken_log_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    for args in (["--log", str(path)], ["--replay", str(path)]):
        code, _, err = score(monkeypatch, capsys, args, [])
        assert code == 2 and err.count("\n") == 1 and message in err
    assert path.read_text() == content  # a broken log is never overwritten


def test_boards_resume_a_game_in_progress(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    args = ["--face", "instant-sorry", "--boards", "red=0,0,2,home", "yellow=6,home,1,start"]
    args += ["--round", "4", "--starter", "yellow", "--log", str(log)]
    code, out, err = score(monkeypatch, capsys, args, ["quit"])
    assert code == 0 and err == ""
    assert "-- instant-sorry, round 4, yellow started --" in out
    assert "red    START START     2  HOME" in out
    assert "yellow START     1  HOME  HOME" in out
    data = json.loads(log.read_text())
    assert data["schema"] == 3 and data["round"] == 4
    assert data["boards"] == {"south": [0, 0, 2, 6], "north": [6, 6, 1, 0]}
    # the same command resumes the log; other boards or another round are refused
    code, out, _ = score(monkeypatch, capsys, args, ["yellow 3", "quit"])
    assert code == 0 and "yellow#1 on 3" in out
    for other in (["--boards", "red=0,0,0,6"], ["--round", "5"]):
        code, _, err = score(monkeypatch, capsys, ["--log", str(log), *other], [])
        assert code == 2 and err.count("\n") == 1 and str(log) in err
    code, out, _ = score(monkeypatch, capsys, ["--replay", str(log)], [])
    assert "3      START START 2 HOME" in out and "round 4: red to slide" in out


def test_a_player_may_not_throw_points_away_at_the_scorekeeper(monkeypatch, capsys):
    lines = ["red 1", "red 2", "red track", "red track", "red 1@4", "red 1@5 2@4", "ok"]
    code, out, err = score(
        monkeypatch, capsys, ["--face", "race-for-home", "--boards", "red=5,4,6,6"], lines
    )
    assert code == 0
    assert "error: red can use 2 scores this round" in err and err.count("\n") == 1
    assert "red has all four pawns HOME and wins at the end of round 1!" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--boards", "red=0,0,2"], "4 scoring pawns, not 3"),
        (["--boards", "red=0,0,2,x"], "a square is 0 (START) to 6 (HOME), not 'x'"),
        (["--boards", "red"], "write PLAYER=SQUARES"),
        (["--boards", "red=0,0,0,1", "south=1,1,1,1"], "given twice"),
        (["--boards", "red=6,6,home,h"], "all four pawns HOME already"),
        (["--boards", "purple=0,0,0,1"], "unknown player 'purple'"),
        (["--players", "red", "--boards", "blue=0,0,0,1"], "blue has a score board but is not"),
        (["--boards", "red=0,0,0,1", "--round", "0"], "whole number from 1, not 0"),
    ],
)
def test_bad_boards_are_one_line_and_exit_2(monkeypatch, capsys, args, message):
    code, _, err = score(monkeypatch, capsys, ["--face", "race-for-home", *args], [])
    assert code == 2 and err.count("\n") == 1 and message in err

"""The tournament: its statistics, seeded games, resuming from the results file, players people
write, and the command line."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from sliders.cli import main
from sliders.core.errors import UserError
from sliders.tournament.players import make_player
from sliders.tournament.report import pairings, ratings, text_table, wilson
from sliders.tournament.run import Job, Settings, play_game, read_results, run

FAST = dict(games=1, face="race-for-home", layout="square", seats=("south", "north"), seed=3)


def settings(players=("centre", "centre:high"), max_rounds=2, **kw) -> Settings:
    return Settings(tuple(players), **{**FAST, **kw}, max_rounds=max_rounds)


def test_wilson_intervals_match_the_published_figures():
    # the table: 17 of 18, 20 of 22, 25 of 28
    assert [round(v, 2) for v in wilson(17, 18)] == [0.74, 0.99]
    assert [round(v, 2) for v in wilson(20, 22)] == [0.72, 0.97]
    assert [round(v, 2) for v in wilson(25, 28)] == [0.73, 0.96]
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(1 - hi) and lo < 0.5 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def _game(a, b, winner):
    return {"players": {a: {}, b: {}}, "winner": winner}


def test_ratings_order_players_by_results_and_are_symmetric():
    even = [_game("a", "b", "a"), _game("a", "b", "b")] * 5
    r = ratings(["a", "b"], even)
    assert r["a"] == pytest.approx(r["b"]) == pytest.approx(1500)
    chain = [_game("a", "b", "a")] * 8 + [_game("a", "b", "b")] * 2
    chain += [_game("b", "c", "b")] * 8 + [_game("b", "c", "c")] * 2
    r = ratings(["a", "b", "c"], chain)
    assert r["a"] > r["b"] > r["c"]
    assert r["a"] - r["b"] == pytest.approx(r["b"] - r["c"], abs=1)
    assert sum(r.values()) / 3 == pytest.approx(1500)
    # an unbeaten player stays finite
    r = ratings(["a", "b"], [_game("a", "b", "a")] * 10)
    assert math.isfinite(r["a"]) and r["a"] > r["b"]


def test_pairings_count_wins_and_draws():
    games = [
        _game("a", "b", "a"),
        _game("a", "b", None),
        _game("a", "b", "b"),
        _game("a", "b", "a"),
    ]
    (p,) = pairings(["a", "b"], games)
    assert (p.games, p.wins_a, p.wins_b, p.draws) == (4, 2, 1, 1)
    assert p.rate_a == pytest.approx(0.625)


def _strip(record):
    out = json.loads(json.dumps(record))
    for st in out["players"].values():
        st.pop("think"), st.pop("think_max")
    return out


def test_a_game_is_the_same_for_the_same_seed_and_players_swap_seats():
    s = settings(("cpu:easy", "centre"), max_rounds=3)
    first = play_game(Job(s, 0, 0, ""))
    again = play_game(Job(s, 0, 0, ""))
    other = play_game(Job(s, 0, 1, ""))
    assert _strip(first) == _strip(again)
    assert first["seats"] == {"south": "cpu:easy", "north": "centre"}
    assert other["seats"] == {"south": "centre", "north": "cpu:easy"}
    for st in first["players"].values():
        assert st["shots"] > 0 and 0 <= st["points"] <= 6 * st["shots"]


def test_a_tournament_resumes_from_its_results_file(tmp_path):
    path = str(tmp_path / "t.jsonl")
    seen = []
    s1 = settings(games=1)
    games = run(s1, path, 1, lambda done, total: seen.append((done, total)))
    assert len(games) == 1 and seen == [(1, 1)]
    # a killed run leaves a torn line: dropped on resume
    with open(path, "a") as fh:
        fh.write('{"pairing": 0, "ga')
    with pytest.raises(UserError, match="another tournament"):
        read_results(path, settings(games=2, seed=4))
    seen.clear()
    s2 = settings(games=3)
    with pytest.raises(UserError, match="another tournament"):  # --games is part of it too
        read_results(path, s2)


def test_another_tournament_is_named_by_what_differs(tmp_path):
    """Players as the flag writes them, never two descriptions that read alike (``a list of 3,
    not a list of 3``)."""
    path = str(tmp_path / "t.jsonl")
    run(settings(players=("centre", "centre:high", "greedy"), games=1), path, 1, lambda *a: None)
    with pytest.raises(UserError) as err:
        read_results(path, settings(players=("centre", "centre:high", "race")))
    message = str(err.value)
    assert "(players centre,centre:high,greedy, not centre,centre:high,race)" in message
    many = tuple(f"centre:{k / 10:g}" for k in range(1, 12))
    run(settings(players=many, games=1, max_rounds=1), str(tmp_path / "m.jsonl"), 1, print)
    other = (*many[:5], "greedy", *many[6:])
    with pytest.raises(UserError, match=r"players 'centre:0\.6' at place 6, not 'greedy'\)"):
        read_results(str(tmp_path / "m.jsonl"), settings(players=other, max_rounds=1))


def test_more_games_continue_a_tournament_only_with_the_same_settings(tmp_path):
    path = str(tmp_path / "t.jsonl")
    s = settings(games=2)
    calls = []
    first = run(s, path, 1, lambda d, t: calls.append(d))
    assert len(first) == 2
    lines = open(path).read().splitlines()
    open(path, "w").write("\n".join(lines[:2]) + "\n" + lines[2][:10])  # one game and a torn one
    calls.clear()
    again = run(s, path, 1, lambda d, t: calls.append(d))
    assert calls == [2]  # only the missing game was played
    assert [_strip(g) for g in again] == [_strip(g) for g in first]


def test_parallel_workers_give_the_same_games(tmp_path):
    s = settings(("centre", "centre:high", "centre:medium"), games=2, max_rounds=1)
    one = run(s, str(tmp_path / "a.jsonl"), 1)
    two = run(s, str(tmp_path / "b.jsonl"), 2)
    assert [_strip(g) for g in one] == [_strip(g) for g in two]
    assert "6 of 6 games played" in text_table(list(s.players), one, 6)


def test_a_players_own_function_plays(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybot.py").write_text(
        "def play(turn):\n"
        "    return (0.6, float(turn.rng.normal(0, 0.02)), 0.0, None)\n"
        "def broken(turn):\n"
        "    return 'straight'\n"
    )
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "tournament",
            "--players",
            "mybot:play,centre",
            "--games",
            "2",
            "--max-rounds",
            "2",
            "--jobs",
            "2",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "mybot:play vs centre" in out
    assert (tmp_path / "tournament.png").read_bytes()[:4] == b"\x89PNG"
    lines = (tmp_path / "tournament.jsonl").read_text().splitlines()
    assert len(lines) == 3
    player = make_player("mybot:broken", "south", np.random.default_rng(0))
    from sliders.game import HeadlessGame

    g = HeadlessGame("race-for-home", "square", ("south", "north"), 1)
    with pytest.raises(UserError, match="expected a Shot"):
        player.choose_shot(g.state, g.layout, g.face, g.params)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--players", "cpu:easy"], "at least two"),
        (["--players", "cpu:easy,cpu:easy"], "twice"),
        (["--players", "cpu:expert,centre"], "unknown strength"),
        (["--players", "wizard,centre"], "unknown player"),
        (["--players", "net:a/b,centre"], "net:NAME"),
        (["--players", "net:a,centre", "--clock", "0"], "--clock 0"),
        (["--players", "centre:shaky,greedy"], "unknown hand"),
        (["--players", "nosuchmodule_xyz:play,centre"], "cannot import"),
        (["--players", "json:nope,centre"], "no function"),
        (["--players", "centre,greedy", "--games", "0"], "--games"),
        (["--players", "centre,greedy", "--jobs", "0"], "--jobs"),
        (["--players", "centre,greedy", "--seed", "-1"], "--seed"),
        (["--players", "centre,greedy", "--layout", "nowhere"], "nowhere"),
        (["--players", "centre,greedy", "--face", "chess"], "chess"),
        (["--players", "centre,greedy", "--seats", "south,west,north"], "two seats"),
        (["--players", "centre,greedy", "--games", "x"], "invalid int"),
        (["--players", "centre,greedy", "--engine", "warp"], "invalid choice"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert not list(tmp_path.iterdir())  # nothing written


def test_another_tournaments_results_file_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    args = [
        "tournament",
        "--players",
        "centre,centre:high",
        "--games",
        "1",
        "--max-rounds",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--results",
        str(path),
    ]
    assert main(args) == 0
    before = path.read_text()
    capsys.readouterr()
    assert main([*args[:-2], "--seed", "9", "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert "another tournament" in err and err.count("\n") == 1
    assert path.read_text() == before
    path.write_text("hello\n")
    assert main(args) == 2
    assert "not a tournament results file" in capsys.readouterr().err


def test_an_interrupted_parallel_tournament_keeps_its_games_and_resumes(tmp_path):
    path = str(tmp_path / "t.jsonl")
    s = settings(("centre", "centre:high", "centre:low"), games=2, max_rounds=1)

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(s, path, 2, stop)
    kept = read_results(path, s)
    assert len(kept) == 2
    seen = []
    games = run(s, path, 2, lambda d, t: seen.append(d))
    assert len(games) == 6 and seen == [3, 4, 5, 6]
    assert len({(g["pairing"], g["game"]) for g in games}) == 6


def test_any_face_and_layout(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    args = [
        "tournament",
        "--players",
        "centre,cpu:easy",
        "--games",
        "2",
        "--max-rounds",
        "2",
        "--jobs",
        "1",
        "--quiet",
        "--layout",
        "head-to-head",
        "--face",
        "instant-home",
        "--results",
        str(path),
    ]
    assert main(args) == 0
    header, *games = (json.loads(line) for line in path.read_text().splitlines())
    assert header["layout"] == "head-to-head" and header["face"] == "instant-home"
    assert header["seats"] == ["south", "north"] and len(games) == 2


def test_ctrl_c_keeps_the_games_played_and_the_same_command_resumes(tmp_path, monkeypatch, capsys):
    """A real SIGINT to the command and its workers (as a terminal sends it): one line, exit
    status 130, no worker left, the results file whole; running the command again (through
    ``main``, in this process) finishes."""

    path = tmp_path / "t.jsonl"
    argv = [
        sys.executable,
        "-m",
        "sliders.cli",
        "tournament",
        "--players",
        "centre,centre:high,centre:low,centre:medium",
        "--games",
        "4",
        "--max-rounds",
        "3",
        "--jobs",
        "2",
        "--quiet",
        "--results",
        str(path),
    ]
    proc = subprocess.Popen(
        argv,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.count("\n") == 1 and "resume" in err
    for _ in range(100):  # the fork server and resource tracker follow their parent out
        left = running_in_group(proc.pid)
        if not left:
            break
        time.sleep(0.1)
    assert left == []
    kept = path.read_text().splitlines()
    assert all(json.loads(line) for line in kept)
    assert f"{len(kept) - 1} of 24 games played" in out
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(argv[3:]) == 0, capsys.readouterr().err
    assert "24 of 24 games played" in capsys.readouterr().out
    assert len(path.read_text().splitlines()) == 25


def test_the_table_keeps_its_columns_in_line_whatever_the_names():
    long_a = "cpu:hand=0.5,mind=classic"
    long_b = "my_long_module_name:my_long_function"
    stats = {"shots": 4, "points": 8, "think": 0.4, "think_max": 0.2}
    games = [
        {"players": {long_a: stats, long_b: stats}, "winner": long_a},
        {"players": {long_a: stats, "centre": stats}, "winner": None},
    ]
    lines = text_table([long_a, long_b, "centre"], games, 6).splitlines()
    players = lines[lines.index("") + 1 : lines.index("", 3)]
    pairs = lines[lines.index("", 3) + 1 :]
    for table in (players, pairs):
        ends = {len(line) for line in table}
        assert len(ends) == 1, table  # every row ends under the header's last column
        assert all(line.rstrip() == line for line in table)
    assert players[1].startswith(long_a + " ") or players[1].startswith(long_b + " ")


def test_a_parameter_file_plays_the_games_and_is_kept_in_the_results_file(tmp_path, capsys):
    board = tmp_path / "board.toml"
    board.write_text("[physics]\nmu_roll = 0.07\n")
    path = tmp_path / "t.jsonl"
    args = ["tournament", "--players", "centre,centre:high", "--games", "1", "--max-rounds", "1"]
    args += ["--jobs", "1", "--quiet", "--results", str(path)]
    assert main([*args, "--params", str(board)]) == 0
    header = json.loads(path.read_text().splitlines()[0])
    assert header["params"] == {"mu_roll": 0.07} and header["engine"]
    capsys.readouterr()
    assert main(args) == 2  # the defaults are another tournament
    assert "another tournament (params" in capsys.readouterr().err
    assert "params" not in settings(games=1).header()  # the defaults: the file as it was


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGKILL"])
def test_a_signalled_tournament_ends_its_workers_and_keeps_its_games(tmp_path, sig):
    """SIGTERM and SIGHUP: one line naming the signal with the resume hint, exit status 128 + it;
    SIGKILL: the workers, fork server and resource tracker follow the command out within 2 s.
    Either way no traceback, and the results file holds whole games.

    The signal is sent once two games are in, with thousands to go: the games are short (dozens
    a second once the workers run), so a shorter tournament could end before a signal sent by a
    test that the machine's load keeps waiting, and exit 0, rightly."""

    path = tmp_path / "t.jsonl"
    argv = [sys.executable, "-m", "sliders.cli", "tournament", "--players",
            "centre,centre:high,centre:low", "--games", "2000", "--max-rounds", "3", "--jobs", "2",
            "--quiet", "--results", str(path)]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    number = getattr(signal, sig)
    os.kill(proc.pid, number)
    out, err = proc.communicate(timeout=60)
    gone = time.time()
    assert "Traceback" not in err, err
    if sig == "SIGKILL":
        assert proc.returncode == -number
    else:
        assert proc.returncode == 128 + number, err
        assert err.count("\n") == 1 and sig in err and "resume" in err, err
    left = b""
    while time.time() < gone + 2:
        left = running_in_group(proc.pid)
        if not left:
            break
        time.sleep(0.1)
    assert left == []
    lines = path.read_text().splitlines()
    assert all(json.loads(line) for line in lines)
    assert len(lines) - 1 < 6000  # stopped with games to play


@pytest.mark.slow
def test_a_signal_landing_inside_the_pools_locking_still_ends_the_tournament(tmp_path):
    """A stop signal whose handler runs while the pool's ``wait`` holds some of its futures' locks
    (the moment it landed in once, by chance, and the pool's shutdown then waited for ever on the
    lock left held): here the signal is sent from there on purpose, on the sixth wait."""

    path = tmp_path / "t.jsonl"
    script = f"""
import os, signal, sys
import concurrent.futures._base as base
calls = [0]
def enter(self):
    calls[0] += 1
    for i, future in enumerate(self.futures):
        future._condition.acquire()
        if i == 0 and calls[0] == 6:
            os.kill(os.getpid(), signal.SIGTERM)  # its handler runs before the next lock is taken
base._AcquireFutures.__enter__ = enter
from sliders.cli import main
sys.exit(main(["tournament", "--players", "centre,centre:high,centre:low", "--games", "2000",
               "--max-rounds", "3", "--jobs", "2", "--quiet", "--results", {str(path)!r}]))
"""
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 128 + 15, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        proc.stderr.strip().splitlines()[-1].startswith("sliders tournament: interrupted (SIGTERM)")
    )
    lines = path.read_text().splitlines()
    assert all(json.loads(line) for line in lines) and len(lines) - 1 < 6000


def running_in_group(group: int) -> list[str]:
    """The processes of process group ``group`` still running, as ``ps`` lines. An ended process
    its new parent has not reaped yet (a zombie) holds nothing and is not counted."""

    ps = subprocess.run(
        ["ps", "-e", "-o", "pid=,pgid=,stat=,args="], capture_output=True, text=True
    ).stdout
    rows = [line.split(None, 3) for line in ps.splitlines()]
    return [" ".join(r) for r in rows if len(r) >= 3 and r[1] == str(group) and r[2][0] != "Z"]

"""``sliders host`` and ``sliders join`` as commands, and the example bot of docs/protocol.md: bad
input in one line, and (under --slow) a host process killed outright and resumed from its log
while its bots reconnect."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sliders.cli import main
from sliders.game.config import config_from_flags
from sliders.game.saves import load_replay
from sliders.net.client import Client
from sliders.net.host import Host, new_room, parse_host_seats

ROOT = Path(__file__).resolve().parents[2]


def example_bot() -> Any:
    spec = importlib.util.spec_from_file_location("net_bot", ROOT / "examples" / "net_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_bots_play_a_hosted_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = example_bot()
    plans = parse_host_seats("south=remote,north=remote")
    config = config_from_flags("instant-home", "square", "south=human,north=human", 3)
    room = new_room("1", config, plans, tmp_path, 1)

    async def play() -> None:
        host = Host([room])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        await asyncio.gather(*(bot.play(url, "1", c, i) for i, c in enumerate(room.codes.values())))
        await host.wait()
        await host.close()

    asyncio.run(play())
    assert len(load_replay(room.log).steps) == 9
    out = capsys.readouterr().out
    assert "playing south in room 1" in out and "over:" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["host", "--rooms", "0"], "--rooms 0: from 1 to 1000"),
        (["host", "--seats", "south=remote,north=robot"], "--seats"),
        (["host", "--stand-in", "genius"], "unknown strength"),
        (["host", "--resume", "missing.json"], "missing.json"),
        (["host", "--dir", "no/such/folder"], "not a folder"),
        (["join", "127.0.0.1:1"], "give a seat's --code, or --watch"),
        (["join", "127.0.0.1:1", "--code", "1234"], "32 hexadecimal digits"),
        (["join", "127.0.0.1:1", "--room", "../etc", "--watch"], "hello.room"),
        (["join", "127.0.0.1:1", "--watch"], "cannot reach 127.0.0.1:1"),
        (["join", "127.0.0.1:1", "--watch", "--text"], "cannot reach 127.0.0.1:1"),
        (["join", "127.0.0.1:1", "--code", "ab" * 16, "--text"], "give --bot PLAYER too"),
        (["join", "127.0.0.1:1", "--watch", "--bot", "centre"], "--bot plays a seat"),
        (["join", "127.0.0.1:1", "--watch", "--size", "9x9"], "--size"),
        (["join", "127.0.0.1:1", "--watch", "--control", "kick"], "--control"),
        (["host", "--seats", "south=human,north=human"], "one seat is played at the host's"),
        (["host", "--seats", "south=human,north=remote", "--size", "9x9"], "--size"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def _sliders(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *args], stdout=subprocess.PIPE, text=True, env=env
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_a_host_killed_outright_resumes_from_its_log_and_its_bots_come_back(tmp_path: Path) -> None:
    port = str(_free_port())
    host = _sliders("host", "--port", port, "--json", "--dir", str(tmp_path), "--seats",
                    "south=remote,north=remote", "--max-rounds", "2", "--seed", "5")  # fmt: skip
    assert host.stdout is not None
    listing = json.loads(host.stdout.readline())
    codes = listing["rooms"]["1"]["codes"]
    log = Path(listing["rooms"]["1"]["log"])
    bots = [
        _sliders("join", f"127.0.0.1:{port}", "--code", c, "--bot", "centre:low")
        for c in codes.values()
    ]
    resumed = None
    try:
        while not log.exists() or len(load_replay(log).steps) < 4:
            time.sleep(0.05)
        host.send_signal(signal.SIGKILL)
        host.wait()
        before = load_replay(log).to_json()["steps"]
        resumed = _sliders(
            "host", "--port", port, "--json", "--resume", str(log), "--max-rounds", "2"
        )
        assert resumed.stdout is not None
        again = json.loads(resumed.stdout.readline())
        assert again["rooms"]["1"]["codes"] == codes  # the same codes still let the players in
        assert all(b.wait(timeout=120) == 0 for b in bots)  # the same bots, reconnected
        assert resumed.wait(timeout=30) == 0
    finally:
        for proc in [*bots, resumed]:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    logged = load_replay(log)
    assert logged.to_json()["steps"][: len(before)] == before
    assert logged.state.finished or logged.state.round == 3
    assert all("joining again" in (b.stdout.read() if b.stdout else "") for b in bots)


def test_a_human_seat_is_played_at_the_hosts_own_window(tmp_path: Path) -> None:
    """``sliders host --seats south=human,...`` opens its window joined to south with its code,
    as a client: a spectator sees south connected (named ``host``) as soon as the host listens."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    argv = ["host", "--seats", "south=human,north=remote", "--port", "0", "--json"]
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *argv, "--dir", str(tmp_path), "--no-sound"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())

        async def seats() -> list[dict[str, Any]]:
            url = f"127.0.0.1:{listing['port']}"
            for _ in range(100):
                watcher = await Client.join(url, "1", watch=True)
                await watcher.close()
                if any(s["connected"] for s in watcher.welcome["seats"]):
                    return list(watcher.welcome["seats"])
                await asyncio.sleep(0.1)
            return []

        found = asyncio.run(seats())
        assert {s["seat"]: (s["connected"], s["name"]) for s in found} == {
            "south": (True, "host"),
            "north": (False, ""),
        }
    finally:
        host.kill()
        host.wait()


def test_a_tournament_seats_a_bot_that_joins_over_the_network(tmp_path: Path) -> None:
    """``sliders tournament --players net:ex,centre`` prints the bot's join line, waits for it,
    plays, and tells the bot the tournament is over."""
    argv = ["tournament", "--players", "net:ex,centre", "--games", "2", "--max-rounds", "1"]
    results = str(tmp_path / "t.jsonl")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *argv, "--results", results, "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert run.stdout is not None
    line = run.stdout.readline().split()  # net:ex: join 127.0.0.1:PORT --room tournament --code C
    assert line[:2] == ["net:ex:", "join"] and line[3:5] == ["--room", "tournament"]
    asyncio.run(example_bot().play(line[2], "tournament", line[6], 1))
    out = run.stdout.read()
    assert run.wait(timeout=60) == 0
    assert "shots lost by network players (clock or bad message): {'net:ex': 0}" in out
    assert len(Path(results).read_text().splitlines()) == 3  # the header and two games


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_host_stopped_by_a_signal_says_how_to_take_its_game_up_again(tmp_path: Path, sig) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--dir",
         str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert host.stdout is not None
    log = json.loads(host.stdout.readline())["rooms"]["1"]["log"]
    host.send_signal(sig)
    _, err = host.communicate(timeout=30)
    assert host.returncode == 128 + sig
    assert err.count("\n") == 1 and f"sliders host --resume {log}" in err, err
    assert f"({signal.Signals(sig).name})" in err
    assert load_replay(log).steps == []  # the log is whole, and --resume reads it

"""Random argv for the two commands that serve or wait on the network, ``host`` and ``join``, run as
real processes on the loopback (the other commands' argv is fuzzed in-process by
test_fuzz_inputs.py; hostile messages to a host by tests/net).

A run that ends by itself ends with status 0, 1 (the host could not be reached) or 2, says one line
on stderr when it is not 0, and on 2 has written nothing. A run still going after a few seconds
(it hosts, or it plays: a valid argv) is sent SIGTERM and must end within seconds with one line
and status 143, its game log whole. Never a traceback.

``join`` meets a real host (its address and seat codes are among the values drawn). Under
``--slow`` only: each case starts a process. The suite draws the same cases each run;
``SLIDERS_FUZZ_EXAMPLES`` sizes a campaign of fresh ones."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.cli import _subparsers, build_parser

pytestmark = pytest.mark.slow

FUZZ = settings(
    max_examples=int(os.environ.get("SLIDERS_FUZZ_EXAMPLES", "30")),
    derandomize="SLIDERS_FUZZ_EXAMPLES" not in os.environ,  # the suite's cases, the same each run
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ROOT = Path(__file__).resolve().parents[2]
RUNNING = 4.0
"""seconds a run may take to end by itself; one still going then is stopped with SIGTERM"""
NEVER = {"-h", "--help", "--public", "--port", "--fullscreen"}
"""flags not drawn: help is tested apart, tests listen on the loopback only, on a free port"""


def _flags() -> dict[str, list[str]]:
    subs = _subparsers(build_parser())
    return {
        name: sorted({o for a in subs[name]._actions for o in a.option_strings} - NEVER)
        for name in ("host", "join")
    }


FLAGS = _flags()
VALUES = [
    "0", "1", "-1", "2", "0.5", "1e308", "nan", "inf", "9" * 50, "", "-", "square", "solo",
    "triple-track", "race-for-home", "instant-home", "danger-dots", "south", "south=remote",
    "south=cpu:easy,north=remote", "south=human,north=human", "south=cpu:nope", "north=remote",
    "cpu:easy", "centre", "nope:x", "steady", "shaky", "exact", "pymunk", "aim", "flick",
    "800x600", "0x0", "game.json", "bad.json", "missing.json", "/dev/zero", ".", "out",
    "no/such/dir", "x" * 300, "127.0.0.1:1", "localhost:0", "ws://127.0.0.1:1", "[::1]:1",
    "not an address", "0" * 32, "g" * 32, "@ADDRESS", "@CODE", "@ROOM",
]  # fmt: skip


@pytest.fixture(scope="module")
def serving(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A host of two rooms, every seat remote: the address, a room and a seat's code to join."""
    where = tmp_path_factory.mktemp("host")
    proc = _start(["host", "--rooms", "2", "--port", "0", "--seed", "1"], where)
    try:
        text = ""
        deadline = time.monotonic() + 120
        while "--code" not in text and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            text += proc.stdout.readline() if proc.stdout else ""
        found = re.search(r"join (\S+) --room (\S+) --code (\w+)", text)
        assert found, text
        yield {"@ADDRESS": found[1], "@ROOM": found[2], "@CODE": found[3]}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


GOOD = {
    "--face": ["race-for-home", "instant-home", "instant-sorry", "danger-dots"],
    "--layout": ["square", "solo", "triple-track", "head-to-head", "crazy-corner"],
    "--seats": ["south=remote,north=cpu:easy", "south=cpu:easy,north=cpu:easy",
                "south=human,north=remote", "south=remote,north=remote", "south=cpu:easy"],
    "--seed": ["1", "7"], "--engine": ["exact", "pymunk"], "--hand": ["steady", "exact"],
    "--rooms": ["1", "3", "1000000"], "--max-rounds": ["1", "3"], "--resume": ["game.json"],
    "--dir": ["out", "."], "--turn-timeout": ["0.1", "2"], "--stand-in": ["easy", "medium"],
    "--clock": ["0.2", "5"], "--control": ["aim", "flick"], "--size": ["800x600", "640x420"],
    "--room": ["@ROOM", "2"], "--code": ["@CODE"], "--bot": ["centre", "cpu:easy", "greedy"],
    "--name": ["ann"], "--reconnect": ["0.5", "5"],
}  # fmt: skip
"""values each flag takes, drawn as often as the hostile ones so that many runs get past the
parser and serve, play or watch"""


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    """Flags, mostly each with a value (good for it or hostile), now and then a stray value."""
    command = draw(st.sampled_from(sorted(FLAGS)))
    argv = [command]
    for _ in range(draw(st.integers(0, 4))):
        flag = draw(st.sampled_from(FLAGS[command]))
        kind = draw(st.sampled_from(["good", "good", "hostile", "bare", "stray"]))
        if kind == "stray":
            argv.append(draw(st.sampled_from(VALUES)))
        elif kind == "bare" or (kind == "good" and flag not in GOOD):
            argv.append(flag)
        else:
            argv += [flag, draw(st.sampled_from(GOOD[flag] if kind == "good" else VALUES))]
    if command == "join" and draw(st.integers(0, 3)):
        argv.insert(1, "@ADDRESS")  # reach the host often, not only by chance
    if command == "host":
        argv += ["--port", "0"]
    return argv


def _start(argv: list[str], where: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "XDG_DATA_HOME": str(where / ".data")}  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *argv], cwd=where, env=env, text=True,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@FUZZ
@given(argv=argvs())
def test_any_argv_of_host_or_join_ends_cleanly(argv, serving, tmp_path_factory):
    where = tmp_path_factory.mktemp("case")
    (where / "game.json").write_text(
        (ROOT / "tests" / "fixtures" / "games" / "race-for-home-square-exact.json").read_text()
    )
    (where / "bad.json").write_text('{"schema": 2, "steps": 1}')
    (where / "out").mkdir()
    argv = [serving.get(a, a) for a in argv]
    before = _snapshot(where)
    proc = _start(argv, where)
    try:
        out, err = proc.communicate(timeout=RUNNING)
        stopped = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        stopped = True
    said = f"{argv}: status {proc.returncode}, stderr {err!r}"
    assert "Traceback" not in err and "terminate called" not in err, said
    lines = [line for line in err.splitlines() if line.strip()]
    if stopped:
        assert proc.returncode in (143, -signal.SIGTERM), said
        assert len(lines) <= 1, said
    else:
        assert proc.returncode in (0, 1, 2), said
        if proc.returncode:
            assert len(lines) == 1 and lines[0].startswith("sliders"), said
        if proc.returncode == 2:
            assert _snapshot(where) == before, said
    for log in where.glob("*.json"):
        json.loads(log.read_text())  # every log written is whole
    assert not list(where.glob("*.tmp")), said
    shutil.rmtree(where, ignore_errors=True)

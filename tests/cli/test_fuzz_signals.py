"""Signals at random moments: SIGINT, SIGTERM or SIGHUP sent to a real ``sliders`` process
(``batch``, ``batch --resume``, ``best``, ``tournament``, ``analyse``, ``render``) at a random delay,
from the moment its modules start loading to after its work is done. Whenever it lands: no
traceback; an interrupted command says one line and ends with the status a shell gives a process
that signal stopped (130, 143, 129); every file is whole (no temporary file left, every table and
results file reads); and ``--resume`` (the same command, for a tournament) completes what was kept,
equal to an uninterrupted run.

The delay counts from the moment the process has set its signal handlers (its first step, read
from /proc): before that the interpreter itself is starting, and a signal ends it as the operating
system ends any process, silently (a shell shows 130, 143 or 129). So does a signal that lands
once the command has finished and reported, while the interpreter exits (it gives the signals
back to the system then).

A few cases run in the everyday suite, more under ``--slow``; ``SLIDERS_FUZZ_LONG=1`` runs the long
campaign (``SLIDERS_FUZZ_SIGNALS`` sets its size)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sliders.batch.tables import read_table
from sliders.cli import main

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")

LONG = os.environ.get("SLIDERS_FUZZ_LONG") == "1"
CASES = int(os.environ.get("SLIDERS_FUZZ_SIGNALS", "120" if LONG else "2"))
SLOW_CASES = 12
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

BATCH = ["batch", "--engine", "pymunk", "--speed", "0.5:0.7:3", "--angle", "0", "--samples", "2",
         "--workers", "1", "--chunk-size", "1", "--quiet", "--out", "t.parquet"]  # fmt: skip
TOURNAMENT = ["tournament", "--players", "centre,centre:low", "--games", "2", "--jobs", "1",
              "--max-rounds", "3", "--quiet", "--results", "r.jsonl"]  # fmt: skip
COMMANDS = {
    "batch": BATCH,
    "resume": [*BATCH, "--resume"],
    "best": ["best", "--speed", "0.55:0.6", "--angle=-1:1", "--final", "2", "--board", "b.png"],
    "tournament": TOURNAMENT,
    "analyse": ["analyse", "s.csv", "--summary", "sum.csv"],
    "render": ["render", "--out", "p.png", "--dpi", "20"],
}
"""what each case runs, in a fresh copy of the folder the fixture prepares"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The inputs (a CSV table, a half-done batch table to resume), and what the batch writes when
    nothing stops it (the tournament's: see _check)."""
    d = tmp_path_factory.mktemp("signals")
    assert _in(d, [*BATCH[:-1], "s.csv"]) == 0
    assert _in(d, [*BATCH[:-1], "whole.parquet"]) == 0
    cols, record = read_table(str(d / "whole.parquet"))
    half = {k: v[:3] for k, v in cols.items()}
    from sliders.batch.tables import write_table

    write_table(str(d / "t.parquet"), half, {**record, "complete": False, "shots": 3})
    return d


def _handlers_set(pid: int) -> bool:
    """Whether process ``pid`` catches SIGTERM: the command's first step (Python alone does not)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # gone already
    caught = int(
        next(line for line in text.splitlines() if line.startswith("SigCgt:")).split()[1], 16
    )
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def _run(argv: list[str], where: Path, delay: float, sig: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", *argv], cwd=where, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    start = time.monotonic()
    while not _handlers_set(proc.pid) and time.monotonic() - start < 60:
        time.sleep(0.002)
    time.sleep(delay)
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=600)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _check(name: str, where: Path, folder: Path, done: subprocess.CompletedProcess, sig: int):
    err = done.stderr
    said = f"{name}: status {done.returncode}, stderr {err!r}"
    assert "Traceback" not in err and "terminate called" not in err, said
    lines = [line for line in err.splitlines() if line.strip()]
    if done.returncode == -sig and done.stdout and not err:
        pass  # the command had finished and reported: the interpreter was exiting (see above)
    elif done.returncode != 0:
        assert done.returncode == 128 + sig, said
        assert len(lines) == 1 and "interrupted" in lines[0], said
    leftovers = [p.name for p in where.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, (said, leftovers)
    for table in where.glob("*.parquet"):
        read_table(str(table))  # whole: a damaged table is a UserError
    for table in where.glob("*.csv"):
        read_table(str(table))
    if name == "tournament":
        # the games kept are completed by the same command, as an uninterrupted run plays them
        assert _in(where, TOURNAMENT) == 0, said
        if not (folder / "whole.jsonl").exists():  # played once, when first needed
            assert _in(folder, [*TOURNAMENT[:-1], "whole.jsonl"]) == 0
        assert _games(where / "r.jsonl") == _games(folder / "whole.jsonl"), said
    if name in ("batch", "resume") and (where / "t.parquet").exists():
        # what was kept is completed by --resume, as an uninterrupted run writes it
        assert _in(where, [*BATCH, "--resume"]) == 0, said
        got, _ = read_table(str(where / "t.parquet"))
        want, _ = read_table(str(folder / "whole.parquet"))
        assert all(np.array_equal(got[k], want[k], equal_nan=True) for k in want), said


def _in(where: Path, argv: list[str]) -> int:
    """``sliders ARGV`` run in this process, in folder ``where``."""
    cwd = os.getcwd()
    os.chdir(where)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(argv)
    finally:
        os.chdir(cwd)


def _games(path: Path) -> list[tuple]:
    """A results file's games: who played, with what seed, and who won (not the time taken)."""
    games = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return sorted((g["pairing"], g["game"], g["seed"], g["winner"]) for g in games)


def _case(seed: int, folder: Path, tmp_path: Path, name: str | None = None) -> None:
    rng = random.Random(seed)
    name = name or rng.choice(sorted(COMMANDS))
    sig = rng.choice(SIGNALS)
    delay = rng.uniform(0.0, 4.0) ** 2 / 4  # 0..4 s, the first second most often (the imports)
    where = tmp_path / f"case{seed}"
    shutil.copytree(folder, where)
    done = _run(COMMANDS[name], where, delay, sig)
    _check(name, where, folder, done, sig)


@pytest.mark.parametrize("seed", range(CASES))
def test_a_signal_at_a_random_moment(seed, folder, tmp_path):
    # everyday: the batch and analyse; the long campaign: every command
    _case(seed, folder, tmp_path, None if LONG else ("batch", "analyse")[seed % 2])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1000 + SLOW_CASES))
def test_a_signal_at_a_random_moment_of_every_command(seed, folder, tmp_path):
    _case(seed, folder, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 1.8, 2.5, 3.0])
def test_ctrl_c_while_the_modules_load(delay, folder, tmp_path):
    where = tmp_path / "w"
    shutil.copytree(folder, where)
    done = _run(["analyse", "s.csv"], where, delay, signal.SIGINT)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 130) or (done.returncode == -2 and done.stdout), done.stderr
    if done.returncode == 130:
        assert done.stderr.count("\n") == 1 and "interrupted" in done.stderr, done.stderr


class _SignalWhenCollected:
    def __del__(self) -> None:
        signal.raise_signal(signal.SIGTERM)  # the handler runs here, inside the finaliser


def test_a_signal_inside_a_finaliser_still_stops_the_command(capsys):
    from sliders.cli import Interrupted, _raise_interrupted, _unraisables_redelivered, stop_signals

    previous = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Interrupted) as info:
        with _unraisables_redelivered(), stop_signals(_raise_interrupted):
            _SignalWhenCollected()  # dropped at once: SIGTERM arrives during its finaliser
            for _ in range(10_000):
                time.sleep(0.001)  # the signal is delivered again, and lands here
    assert info.value.signum == signal.SIGTERM
    assert "Traceback" not in capsys.readouterr().err
    assert signal.getsignal(signal.SIGTERM) is previous


class _HalfBuilt:
    """An object whose making a stop signal interrupts, as Ctrl-C does a native library's object
    (numba's compiler wraps what LLVM returns): its ``__init__`` stops before its attribute, and
    its finaliser, which needs it, fails."""

    def __init__(self, sig: int) -> None:
        signal.raise_signal(sig)  # the handler runs here: Interrupted
        self.made = True

    def __del__(self) -> None:
        assert self.made  # AttributeError: never made


def test_what_an_interrupt_left_half_built_finalises_unsaid(capsys):
    from sliders.cli import (
        Interrupted,
        _raise_interrupted,
        _stops,
        _unraisables_redelivered,
        stop_signals,
        stopped_by,
    )

    _stops.clear()
    try:
        with _unraisables_redelivered():
            try:
                with stop_signals(_raise_interrupted):
                    _HalfBuilt(signal.SIGHUP)
            except Interrupted:
                pass  # leaving this frees the interrupt's traceback, and the object it holds
            assert stopped_by() == signal.SIGHUP
        assert capsys.readouterr().err == ""
        _stops.clear()
        with _unraisables_redelivered():
            _HalfBuilt.__new__(_HalfBuilt).__del__  # noqa: B018 - made and dropped at once
        assert "AttributeError" in capsys.readouterr().err  # no interrupt: a fault, and said
    finally:
        _stops.clear()


SITE = """
import signal, sys

class HalfBuilt:
    def __init__(self):
        signal.raise_signal(signal.SIGINT)
        self.made = True

    def __del__(self):
        assert self.made

def profile(frame, event, arg):
    if event == "call" and frame.f_globals.get("__name__") == "sliders.cli.layouts":
        sys.setprofile(None)
        HalfBuilt()

sys.setprofile(profile)
"""
"""Ctrl-C as the command's first step makes an object (at its module's first call)"""


def test_an_interrupt_that_leaves_an_object_half_built_is_one_line(tmp_path):
    """Once told, the stop ends the process without finalising what it interrupted (an object
    of a native library, say, whose finaliser would fail: a traceback after the line)."""
    (tmp_path / "sitecustomize.py").write_text(SITE)
    path = os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[2])])
    done = subprocess.run(
        [sys.executable, "-m", "sliders.cli", "layouts"], env={**os.environ, "PYTHONPATH": path},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stderr == "sliders layouts: interrupted\n"


def test_what_an_interrupt_broke_failing_after_it_is_reported_as_the_stop(monkeypatch, capsys):
    """A library that swallows the interrupt (an import it half did) fails later on what it left
    half-done: the stop is reported, in one line, not that failure; without a stop, the failure
    goes on up as before."""
    import sliders.cli as cli

    def swallowed(args):
        try:
            signal.raise_signal(signal.SIGTERM)
        except KeyboardInterrupt:
            pass  # as the import system did with numba's half-imported types
        raise AttributeError("partially initialized module 'numba.core.types' has no 'misc'")

    monkeypatch.setitem(cli.COMMANDS, "layouts", (cli.flags.layouts, swallowed))
    assert cli.main(["layouts"]) == 143
    assert capsys.readouterr().err == "sliders layouts: interrupted (SIGTERM)\n"

    def broken(args):
        raise AttributeError("a fault")

    monkeypatch.setitem(cli.COMMANDS, "layouts", (cli.flags.layouts, broken))
    with pytest.raises(AttributeError):
        cli.main(["layouts"])


@pytest.mark.parametrize("fault", ["FileNotFoundError", "ValueError"])
def test_a_worker_that_starts_after_its_run_ended_ends_quietly(fault):
    """The fork server's children: a worker reading its setup after the run ended (its
    semaphores gone) says nothing; any other failure is printed."""
    code = f"import sliders.batch.forked\nraise {fault}('the setup')"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert ("Traceback" in done.stderr) == (fault == "ValueError"), done.stderr

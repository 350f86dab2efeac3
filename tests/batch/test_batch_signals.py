"""Real signals sent to a real `sliders batch`: a second Ctrl-C, SIGTERM and SIGHUP still write the
finished shots, whole and marked incomplete; a kill -9 of the parent leaves no process behind (no
worker, fork server or resource tracker) and nothing holding its output pipe open.

Each run starts in a session of its own, so its process group holds the command and everything it
started; /proc tells which of them are still alive."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import numpy as np
import pytest

from sliders.batch import Design, Study, empty_scene
from sliders.batch.runners import drop_workers
from sliders.batch.tables import read_table
from sliders.batch.work import run_chunk
from sliders.physics import Noise

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

# long enough (tens of seconds) that the signals always land mid-run; the run then stops at once
STUDY = ["--speed", "0.4:1.2:40", "--angle=-5:5:11", "--samples", "200", "--seed", "5"]


def _start(out: Path, *extra: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "sliders.cli", "batch", *STUDY, "--out", str(out), *extra]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # the first progress line: a chunk is finished
        if "shots/s" in line:
            return proc
    proc.kill()
    pytest.fail("the run ended before its first chunk: " + proc.communicate()[1])


def _group(pgid: int) -> list[str]:
    """The live processes of process group ``pgid`` (zombies left aside), as pid and name."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            text = stat.read_text()
            name_end = text.rindex(")")
            state, _ppid, group = text[name_end + 2 :].split()[:3]
            if int(group) == pgid and state != "Z":
                found.append(f"{stat.parent.name} {text[text.index('(') : name_end + 1]}")
    return found


def _gone(pgid: int, within: float = 5.0) -> list[str]:
    """Wait until no process of the group is left; what is still there after ``within`` s."""
    deadline = time.monotonic() + within
    while (left := _group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _check_incomplete(out: Path, stderr: str, name: str) -> None:
    assert f"interrupted ({name}): kept the" in stderr
    assert "Traceback" not in stderr
    cols, meta = read_table(str(out))
    assert meta["complete"] is False and meta["shots_planned"] == 88000
    assert 0 < meta["shots"] == len(cols["shot"]) < 88000
    assert np.all(np.diff(cols["shot"]) > 0)
    # the rows kept are the rows a whole run has: the first and the last shot, simulated again
    design = Design.grid(speed="0.4:1.2:40", angle="-5:5:11")
    study = Study.create(empty_scene(), "south", design, 200, Noise.level("medium"), seed=5)
    for r in (0, len(cols["shot"]) - 1):
        shot = int(cols["shot"][r])
        again = run_chunk(study.context, shot, shot + 1, study.slice(shot, shot + 1))
        for name, values in again.items():
            assert cols[name][r] == values[0] or np.isnan(values[0]), name
    assert [p.name for p in out.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_second_ctrl_c_stops_at_once_and_keeps_the_finished_shots(tmp_path) -> None:
    out = tmp_path / "t.csv"
    proc = _start(out, "--workers", "2", "--chunk-size", "500")
    os.killpg(proc.pid, signal.SIGINT)  # as the terminal sends it: to every process of the group
    time.sleep(0.3)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=180)  # a bound for a hung run, not a speed test
    # 130; or, when the second lands as the interpreter exits after the report, killed by the
    # signal itself (docs/errors.md): the same status to a shell
    assert proc.returncode in (130, -signal.SIGINT), stderr
    _check_incomplete(out, stderr, "SIGINT")
    assert _gone(proc.pid) == []


@pytest.mark.parametrize(
    ("sig", "status", "workers"),
    [
        (signal.SIGTERM, 143, "1"),
        (signal.SIGTERM, 143, "2"),
        (signal.SIGHUP, 129, "2"),
    ],
)
def test_sigterm_and_sighup_write_the_finished_shots(tmp_path, sig, status, workers) -> None:
    out = tmp_path / "t.parquet"
    proc = _start(out, "--workers", workers, "--chunk-size", "200")
    os.kill(proc.pid, sig)  # to the command alone, as `kill PID` does
    _, stderr = proc.communicate(timeout=180)  # a bound for a hung run, not a speed test
    assert proc.returncode == status, stderr
    _check_incomplete(out, stderr, signal.Signals(sig).name)
    assert (tmp_path / "t.summary.parquet").exists()
    assert _gone(proc.pid) == []


def test_workers_killed_while_sending_a_result_do_not_hang_the_shutdown() -> None:
    """The hang a stop-at-once could meet: a worker killed half-way through sending its result
    leaves the pool's manager thread waiting for the rest of the message. Results of 32 MB keep
    the workers sending most of the time; before :func:`drop_workers` closed this process's end
    of the result pipe, every one of these shutdowns hung."""
    for trial in range(3):
        pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver"))
        futures = [pool.submit(bytes, 32_000_000) for _ in range(6)]
        wait(futures, return_when=FIRST_COMPLETED)
        time.sleep(0.01 * trial)
        drop_workers(pool)
        closing = threading.Thread(
            target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True}, daemon=True
        )
        closing.start()
        closing.join(60)  # a bound for a hung shutdown, not a speed test
        assert not closing.is_alive(), f"trial {trial}: the pool's shutdown hung"


def test_kill_9_of_the_parent_leaves_no_process_and_frees_the_pipe(tmp_path) -> None:
    out = tmp_path / "t.parquet"
    proc = _start(out, "--workers", "2", "--chunk-size", "50")
    assert len(_group(proc.pid)) >= 4  # the command, its fork server, tracker and workers
    os.kill(proc.pid, signal.SIGKILL)
    # the output pipes reach their end: no orphan holds them open
    proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert _gone(proc.pid) == []
    assert list(tmp_path.iterdir()) == []  # nothing half-written


@pytest.mark.slow
def test_ctrl_c_on_a_dask_local_cluster_is_one_line_and_keeps_the_finished_chunks(
    tmp_path,
) -> None:
    """Under --slow: it starts a Dask cluster of its own (ten seconds of processor time); a run on
    a Dask cluster is checked in every run of the suite by tests/batch/test_batch_runs.py."""
    pytest.importorskip("distributed")
    out = tmp_path / "t.npz"
    proc = _start(out, "--backend", "dask-local", "--workers", "2", "--chunk-size", "50")
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    lines = [line for line in stderr.splitlines() if "shots/s" not in line]
    assert len(lines) == 1, stderr
    _check_incomplete(out, stderr, "SIGINT")
    assert _gone(proc.pid, within=15) == []

"""The first use of the exact engine on a machine compiles it (tens of seconds, minutes on a busy
machine): a command says so on one line before it starts, and says nothing once it is cached.

A cold cache is played by replacing :func:`sliders.cli.prepare.exact_cache_cold` (as on a fresh
clone, without minutes of compiling) and running the command through :func:`sliders.cli.main`
in this process; a warm and an empty cache are met by a process of their own."""

from __future__ import annotations

import functools
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sliders.cli import prepare
from sliders.cli.prepare import NOTE, exact_cache_cold, prepare_engine

from ..helpers import run_main

ROOT = Path(__file__).resolve().parents[2]


def python(code: str, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=600,
    )


def test_an_empty_cache_is_cold_and_reading_it_compiles_nothing(tmp_path) -> None:
    run = python(
        "from sliders.cli.prepare import exact_cache_cold; print(exact_cache_cold())",
        NUMBA_CACHE_DIR=str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True\n"
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]


@pytest.fixture
def cold(monkeypatch, capsys):
    """``cold(*argv)``: the command run by :func:`main` as if the exact engine's cache were cold."""
    monkeypatch.setattr(prepare, "exact_cache_cold", lambda: True)
    return functools.partial(run_main, capsys)


def test_a_warm_cache_says_nothing(capsys) -> None:
    from sliders.physics.exact import ensure_compiled

    ensure_compiled(quiet=True)  # compiled (or loaded) and cached, as after the first run
    assert not exact_cache_cold()
    run = subprocess.run(
        [sys.executable, "-m", "sliders.cli", "shot", "--speed", "0.6"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    assert run.returncode == 0 and "preparing" not in run.stderr and "compiled" not in run.stderr
    assert not prepare_engine(None)
    assert not capsys.readouterr().err


def test_a_cold_cache_is_announced_on_one_line_before_the_shot(cold) -> None:
    run = cold("shot", "--speed", "0.6")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == NOTE
    assert run.stderr.count(NOTE) == 1 and "settled" in run.stdout


def test_the_note_waits_for_the_flags_to_be_checked(cold) -> None:
    run = cold("shot", "--speed", "9")
    assert run.returncode == 2 and NOTE not in run.stderr


def test_the_pymunk_engine_needs_no_note(cold, capsys) -> None:
    run = cold("shot", "--speed", "0.6", "--engine", "pymunk")
    assert run.returncode == 0 and NOTE not in run.stderr
    assert not prepare_engine("pymunk")
    assert not capsys.readouterr().err


def test_batch_announces_before_its_study_is_checked(cold, tmp_path) -> None:
    out = str(tmp_path / "t.parquet")
    run = cold("batch", "--speed", "0.6", "--noise", "none", "--quiet", "--out", out)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == NOTE
    bad = cold("batch", "--speed", "0.6", "--out", str(tmp_path / "no" / "t.parquet"))
    assert bad.returncode == 2 and NOTE not in bad.stderr  # a bad output fails first


def test_the_progress_counts_parts_and_says_the_time_left() -> None:
    """A part a second: a line every ten parts off a terminal, with the time left at that pace."""
    out = io.StringIO()
    now = [0.0]
    meter = prepare._Meter(out, clock=lambda: now[0])
    for done in range(1, 26):
        now[0] = float(done)
        meter(done, 25)
    assert out.getvalue().splitlines() == [
        "  compiled: part 10 of 25, about 15 s left",
        "  compiled: part 20 of 25, about 5 s left",
        "  compiled: part 25 of 25",
    ]

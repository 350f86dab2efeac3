"""The first use of the exact engine on a machine compiles it (tens of seconds, minutes on a busy
machine): a command says so on one line before it starts, and says nothing once it is cached."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sliders.cli.prepare import NOTE, announce_compile, exact_cache_cold

ROOT = Path(__file__).resolve().parents[2]

COLD = """
import sys
import sliders.cli.prepare as prepare
prepare.exact_cache_cold = lambda: True  # as on a fresh clone, without minutes of compiling
from sliders.cli import main
sys.exit(main(sys.argv[1:]))
"""


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
    assert not announce_compile(None)
    assert not capsys.readouterr().err


def test_a_cold_cache_is_announced_on_one_line_before_the_shot() -> None:
    run = python(COLD, "shot", "--speed", "0.6")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == NOTE
    assert run.stderr.count("preparing") == 1 and "settled" in run.stdout


def test_the_note_waits_for_the_flags_to_be_checked() -> None:
    run = python(COLD, "shot", "--speed", "9")
    assert run.returncode == 2 and NOTE not in run.stderr


def test_the_pymunk_engine_needs_no_note(capsys) -> None:
    run = python(COLD, "shot", "--speed", "0.6", "--engine", "pymunk")
    assert run.returncode == 0 and NOTE not in run.stderr
    assert not announce_compile("pymunk")
    assert not capsys.readouterr().err


def test_batch_announces_before_its_study_is_checked(tmp_path) -> None:
    out = str(tmp_path / "t.parquet")
    run = python(COLD, "batch", "--speed", "0.6", "--noise", "none", "--quiet", "--out", out)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == NOTE
    bad = python(COLD, "batch", "--speed", "0.6", "--out", str(tmp_path / "no" / "t.parquet"))
    assert bad.returncode == 2 and NOTE not in bad.stderr  # a bad output fails first

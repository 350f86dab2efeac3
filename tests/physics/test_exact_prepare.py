"""Preparing the exact engine for a window: a cold cache is compiled by a child process (whose
compiler holds no lock of the window's interpreter), then loaded here; a warm one is only
loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sliders.physics import REGISTRY
from sliders.physics.exact import compile as exact_compile

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def steps(monkeypatch):
    """The steps :meth:`ExactEngine.prepare` takes, in order, none of them done."""
    done: list[str] = []
    monkeypatch.setattr(exact_compile, "compile_in_child", lambda: done.append("child") or True)
    monkeypatch.setattr(exact_compile, "ensure_compiled", lambda quiet=False: done.append("load"))
    monkeypatch.setattr("sliders.physics.exact.ensure_compiled", exact_compile.ensure_compiled)
    return done


def test_a_cold_cache_is_compiled_by_a_child_then_loaded(steps, monkeypatch) -> None:
    monkeypatch.setattr(exact_compile, "compile_needed", lambda: True)
    REGISTRY["exact"].prepare()
    assert steps == ["child", "load"]


def test_a_warm_cache_is_only_loaded(steps, monkeypatch) -> None:
    monkeypatch.setattr(exact_compile, "compile_needed", lambda: False)
    REGISTRY["exact"].prepare()
    assert steps == ["load"]


@pytest.mark.slow
def test_the_child_fills_an_empty_cache(tmp_path) -> None:
    """A whole compile (tens of seconds): afterwards this process finds the cache warm."""
    code = (
        "from sliders.physics.exact.compile import compile_in_child, compile_needed\n"
        "before = compile_needed()\n"
        "print(before, compile_in_child(), compile_needed())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path)},
        timeout=1200,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "True True False\n"
    assert [p for p in tmp_path.rglob("*") if p.suffix == ".nbc"]

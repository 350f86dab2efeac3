"""The static checks, run with the suite so a change that breaks them fails here: ruff's lint and
format check over the code, and mypy over the package as ``[tool.mypy]`` in pyproject.toml
configures it (strict on the core layers outcome, boards, physics, rules and game; checked, not
strict, elsewhere). Each test skips, saying why, only when its tool is not installed
(``pip install -e ".[dev]"`` installs both)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODE = ["sliders", "tests", "benchmarks", "docs"]
"""the folders ruff reads"""
TIMEOUT = 600


def run_tool(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` from the project's root, in this interpreter's environment."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[dev]' installs it)")
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def test_ruff_finds_nothing_to_lint():
    proc = run_tool("ruff", "check", "--no-cache", *CODE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_code_is_as_ruff_formats_it():
    proc = run_tool("ruff", "format", "--check", "--no-cache", *CODE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_finds_no_error():
    """Strict on the core layers, checked elsewhere; its cache is the project's ``.mypy_cache``
    (ignored by git), so a run after a small change takes seconds."""
    proc = run_tool("mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout, proc.stdout

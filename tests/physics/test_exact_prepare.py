"""Preparing the exact engine for a window: a cold cache is compiled by a child process (whose
compiler holds no lock of the window's interpreter), then loaded here; a warm one is only
loaded."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from sliders.physics import REGISTRY
from sliders.physics.exact import compile as exact_compile

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def steps(monkeypatch):
    """The steps :meth:`ExactEngine.prepare` takes, in order, none of them done."""
    done: list[str] = []
    monkeypatch.setattr(
        exact_compile, "compile_in_child", lambda progress=None: done.append("child") or True
    )
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
def test_the_child_fills_an_empty_cache_and_counts_its_parts(tmp_path) -> None:
    """A whole compile (tens of seconds): the parts are told one by one up to all of them, and
    afterwards this process finds the cache warm."""
    code = (
        "from sliders.physics.exact.compile import compile_in_child, compile_needed, parts\n"
        "told = []\n"
        "before = compile_needed()\n"
        "done = compile_in_child(lambda k, n: told.append((k, n)))\n"
        "assert [k for k, _ in told] == list(range(1, parts() + 1)), told\n"
        "assert {n for _, n in told} == {parts()}, told\n"
        "print(before, done, compile_needed())\n"
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


def test_the_build_compiles_with_the_numba_the_package_runs_with() -> None:
    """The kernels compiled by the build serve the installed package only under the same numba:
    the build's requirements name it as the dependencies do."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())

    def numba(requirements: list[str]) -> str:
        (found,) = [r for r in requirements if re.match(r"numba\b", r)]
        return found

    assert numba(project["build-system"]["requires"]) == numba(project["project"]["dependencies"])


@pytest.mark.slow
def test_a_built_wheel_carries_kernels_that_load_elsewhere_without_compiling(tmp_path) -> None:
    """The wheel the build makes holds the compiled kernels, and a process running the package
    from the wheel's files, in another folder, loads every kernel without compiling one."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        z.extractall(tmp_path / "site")
    cached = [n for n in names if n.startswith("sliders/physics/exact/__pycache__/")]
    assert "sliders/physics/exact/__pycache__/kernels.sources" in cached
    assert sum(n.endswith(".nbi") for n in cached) >= exact_compile.parts()
    code = (
        "from sliders.physics.exact.compile import ensure_compiled, compile_needed\n"
        "told = []\n"
        "cold = compile_needed()\n"
        "ensure_compiled(progress=lambda k, n: told.append(k))\n"
        "import sliders; print(cold, told, sliders.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
        env={**env, "PYTHONPATH": str(tmp_path / "site")}, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"False [] {tmp_path / 'site' / 'sliders' / '__init__.py'}\n"

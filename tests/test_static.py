"""The static checks, run with the suite so a change that breaks them fails here: ruff's lint and
format check over the code, and mypy over the package as ``[tool.mypy]`` in pyproject.toml
configures it (strict on the core layers outcome, boards, physics, rules and game; checked, not
strict, elsewhere). Each test skips, saying why, only when its tool is not installed
(``pip install -e ".[dev]"`` installs both)."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
import tomllib
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


def test_no_function_is_more_complex_than_the_bar_but_those_being_split():
    """ruff's McCabe check (C901) is part of the lint above, at ``max-complexity`` 15; a file
    the config excuses from it must still hold a function over the bar, so the excuse goes
    when the function is split."""
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    lint = lint["lint"]
    assert "C90" in lint["select"] and lint["mccabe"]["max-complexity"] == 15
    excused = {path for path, codes in lint.get("per-file-ignores", {}).items() if "C901" in codes}
    proc = run_tool(
        "ruff", "check", "--isolated", "--no-cache", "--select", "C901",
        "--config", "lint.mccabe.max-complexity = 15", "--output-format", "json", "sliders",
    )  # fmt: skip
    over = {Path(d["filename"]).relative_to(ROOT).as_posix() for d in json.loads(proc.stdout)}
    assert over <= excused, f"functions over complexity 15: {sorted(over - excused)}"
    assert excused <= over, f"remove the C901 ignores of {sorted(excused - over)}: none is over"


def test_the_code_is_as_ruff_formats_it():
    proc = run_tool("ruff", "format", "--check", "--no-cache", *CODE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_finds_no_error():
    """Strict on the core layers, checked elsewhere; its cache is the project's ``.mypy_cache``
    (ignored by git), so a run after a small change takes seconds."""
    proc = run_tool("mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout, proc.stdout


ASSERTING_CALLS = {
    "raises",
    "warns",
    "fail",
    "api_test",
    "seed_test",
    "check_env",
    "parallel_api_test",
}
"""calls that are themselves assertions (pytest's, numpy.testing's assert_*, the environments'
API checks)"""


def _called(function: ast.AST) -> set[str]:
    """The names a function calls (``f(...)`` and ``x.f(...)`` both give ``f``)."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            target = node.func
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute):
                names.add(target.attr)
    return names


def test_every_test_asserts_something():
    """Each test holds an ``assert``, or calls (perhaps through the suite's own helpers) a check
    that fails: a test that cannot fail is not a test."""
    functions: dict[str, list[ast.AST]] = {}
    tests: list[tuple[str, ast.AST]] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                functions.setdefault(node.name, []).append(node)
                if node.name.startswith("test") and path.name.startswith("test_"):
                    tests.append((f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", node))

    def direct(function: ast.AST) -> bool:
        calls = _called(function)
        return any(isinstance(n, ast.Assert) for n in ast.walk(function)) or any(
            name in ASSERTING_CALLS or name.startswith("assert_") for name in calls
        )

    asserting = {name for name, defs in functions.items() if any(direct(d) for d in defs)}
    while True:  # a helper that calls an asserting helper asserts too
        more = {
            name
            for name, defs in functions.items()
            if name not in asserting and any(_called(d) & asserting for d in defs)
        }
        if not more:
            break
        asserting |= more
    silent = [where for where, node in tests if not direct(node) and not _called(node) & asserting]
    assert not silent, "tests that assert nothing:\n" + "\n".join(silent)


PROJECT_WIDE = {
    "test_doc_blocks.py",
    "test_fixtures.py",
    "test_layers.py",
    "test_one_way.py",
    "test_package.py",
    "test_processes.py",
    "test_readme.py",
    "test_site.py",
}
"""the test files at the top of tests/: checks of the whole project, not of one subpackage (and
this file)"""


def test_the_tests_are_laid_out_like_the_packages():
    """A test file lives in ``tests/<subpackage>/`` after the subpackage of ``sliders`` it tests,
    or at the top when it checks the whole project; ``tests/fixtures`` holds data and its maker."""
    subpackages = {p.parent.name for p in (ROOT / "sliders").glob("*/__init__.py")}
    misplaced = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        where = path.relative_to(ROOT / "tests").parts
        if len(where) == 1:
            ok = where[0] in PROJECT_WIDE | {Path(__file__).name}
        else:
            ok = len(where) == 2 and where[0] in subpackages
        if not ok:
            misplaced.append(str(path.relative_to(ROOT)))
    assert not misplaced, f"test files outside tests/<subpackage>/: {misplaced}"
    assert {p.name for p in (ROOT / "tests").glob("test_*.py")} >= PROJECT_WIDE

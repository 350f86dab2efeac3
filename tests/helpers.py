"""What tests across the suite share: a command run through :func:`sliders.cli.main` in this
process, and docs/make_docs.py (the documents' examples and code blocks), imported once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from sliders.cli import main

ROOT = Path(__file__).resolve().parent.parent


class _Capture(Protocol):
    def readouterr(self) -> Any: ...


class Run(NamedTuple):
    """A command's exit status and what it wrote (unpacks as ``code, out, err``)."""

    returncode: int
    stdout: str
    stderr: str


def run_main(capture: _Capture, *argv: str) -> Run:
    """``sliders ARGV`` run by :func:`main` in this process; ``capture`` is pytest's ``capsys``
    or ``capfd`` (file descriptors: what goes to ``/dev/stdout`` too)."""
    capture.readouterr()
    code = main(list(argv))
    out, err = capture.readouterr()
    return Run(code, out, err)


def _load_make_docs() -> Any:
    if "make_docs" in sys.modules:
        return sys.modules["make_docs"]
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "docs" / "make_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_docs"] = module
    spec.loader.exec_module(module)
    return module


make_docs = _load_make_docs()

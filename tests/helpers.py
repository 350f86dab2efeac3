"""What tests across the suite share: a command run through :func:`sliders.cli.main` in this
process, docs/make_docs.py (the documents' examples and code blocks) imported once, and a virtual
display for the tests that play in a real window."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import pytest

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


@contextlib.contextmanager
def virtual_display(screen: str) -> Iterator[str]:
    """A virtual X display (Xvfb) with one screen of ``screen`` (``"1280x800x24"``), for a real
    window driven by xdotool; the test is skipped where Xvfb, xdotool or xwininfo is missing."""
    if not (shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("xwininfo")):
        pytest.skip("needs Xvfb, xdotool and xwininfo")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)

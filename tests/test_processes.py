"""The suite's own guard (tests/conftest.py): a process a test starts and leaves running is found
at the session's end (and ended there); one that has ended is not."""

from __future__ import annotations

import os
import subprocess
import sys

from .conftest import left_behind


def test_a_process_left_running_is_found_and_one_ended_is_not() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert child.pid in left_behind(os.getpid())
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.pid not in left_behind(os.getpid())

import os
import signal
import tempfile

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MPLBACKEND", "Agg")

# A suite started in the background (``cmd &`` in a script, nohup) inherits SIGINT ignored, and so
# would every command it starts; the Ctrl-C tests need the terminal's ordinary disposition.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--slow",
        action="store_true",
        help="also run the slow checks (mypy over the package, long campaigns); CI runs them",
    )


def pytest_configure(config):
    # a campaign sized when its module is imported reads SLIDERS_SLOW (see slow_or())
    if config.getoption("--slow"):
        os.environ["SLIDERS_SLOW"] = "1"
    # drills and measured hands are kept in a data folder of the suite's, never the user's
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="sliders-test-data-")


FIRST = (
    "tests/batch/test_batch_signals.py::",
    "tests/tournament/test_tournament.py::test_ctrl_c",
    "tests/batch/test_batch_cli.py::test_ctrl_c",
    "tests/physics/test_physics_touching.py::",
    "tests/physics/test_physics_properties.py::",
    "tests/scenes/test_match_cpu_games.py::",
    "tests/test_static.py::",
)
"""the longest tests (most of them start processes and wait for them), run first so that with
``-n auto`` none of them starts last and leaves the other workers idle"""


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: the rest keep order
    if config.getoption("--slow") or os.environ.get("SLIDERS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


class FullDisk:
    """A folder whose disk can be filled: a small tmpfs mounted on it where this session may mount
    one (as root; ``SLIDERS_TEST_NO_MOUNT=1`` says not to), else the writes under it made to fail with
    ENOSPC once filled (``os.write``,
    ``os.fsync`` and ``os.ftruncate`` of the files in it), which is what a full disk does to a
    writer. ``real`` says which."""

    def __init__(self, path, monkeypatch):
        import subprocess

        self.path, self._mp, self.full = path, monkeypatch, False
        path.mkdir()
        self.real = (
            os.geteuid() == 0
            and os.environ.get("SLIDERS_TEST_NO_MOUNT") != "1"  # to try the other way
            and subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(path)],
                capture_output=True,
            ).returncode
            == 0
        )
        if not self.real:
            self._patch()

    def fill(self):
        """From now on every write in the folder fails for want of space."""
        if self.real:
            fd = os.open(self.path / ".filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            try:
                size = 2**16
                while size:  # down to the last byte
                    try:
                        os.write(fd, b"\0" * size)
                    except OSError:
                        size //= 2
            finally:
                os.close(fd)
        self.full = True

    def _patch(self):
        import errno

        folder = os.path.realpath(self.path)

        def failing(real):
            def call(fd, *args):
                if self.full:
                    try:
                        where = os.readlink(f"/proc/self/fd/{fd}")
                    except OSError:
                        where = ""
                    if where.startswith(folder + os.sep):
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                return real(fd, *args)

            return call

        for name in ("write", "fsync", "ftruncate"):
            self._mp.setattr(os, name, failing(getattr(os, name)))

    def close(self):
        if self.real:
            import subprocess

            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


@pytest.fixture
def full_disk(tmp_path, monkeypatch):
    disk = FullDisk(tmp_path / "disk", monkeypatch)
    try:
        yield disk
    finally:
        disk.close()


# -- no process left behind -----------------------------------------------------------------------

LEFT_GRACE = 10.0
"""s: how long the session's end waits for the processes its tests started to end on their own"""
KEPT_FOR_THE_SESSION = ("multiprocessing.forkserver", "multiprocessing.resource_tracker")
"""the helpers Python's multiprocessing keeps for the whole process (not a test's)"""


def _processes() -> dict[int, tuple[int, str, str]]:
    """Every process of the machine: pid -> (parent pid, state, command line), from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode(errors="replace")
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        found[int(entry)] = (int(ppid), state, cmdline)
    return found


def left_behind(root: int) -> dict[int, str]:
    """The live processes descended from ``root`` (zombies aside: they hold nothing), but for
    :data:`KEPT_FOR_THE_SESSION`: pid -> command line."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    out, stack = {}, [root]
    while stack:
        for pid in children.get(stack.pop(), []):
            stack.append(pid)
            _, state, cmdline = table[pid]
            if state != "Z" and not any(k in cmdline for k in KEPT_FOR_THE_SESSION):
                out[pid] = cmdline
    return out


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind():
    """At the session's end (each xdist worker's too), no process a test started is still
    running, pass or fail: one found after a grace period is ended (SIGKILL, by its pid) and
    named in an error, which fails the run."""
    yield
    if not os.path.isdir("/proc"):  # not Linux: nothing to read the processes from
        return
    import time

    me = os.getpid()
    deadline = time.monotonic() + LEFT_GRACE
    left = left_behind(me)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = left_behind(me)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert not left, "processes the tests left behind (ended now): " + "; ".join(
        f"{pid} {cmdline[:120]}" for pid, cmdline in sorted(left.items())
    )

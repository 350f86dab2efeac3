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

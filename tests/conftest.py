import os
import signal

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


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow") or os.environ.get("SLIDERS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

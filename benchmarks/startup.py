"""Start-up of the command line: the processor time of ``sliders --help`` and of each
``sliders COMMAND --help``, and the modules each loads.

    python benchmarks/startup.py [--runs 5]

Each help is run ``--runs`` times in a fresh interpreter (``python -m sliders.cli ... --help``);
the figure is the median of the child's user + system time (processor time, so the machine's
other work changes it less than wall-clock time). Beside it: how many of the package's modules
and how many modules in all it loaded, and any of the heavy libraries (numpy, pymunk, scipy,
matplotlib, numba, pygame, pandas, Dask, pyarrow) among them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from sliders.cli import COMMANDS

HEAVY = ("numpy", "pymunk", "scipy", "matplotlib", "numba", "pygame", "pandas", "dask", "pyarrow")

MODULES = """
import contextlib, io, json, sys
from sliders.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)))
"""


def processor_time(argv: list[str]) -> float:
    """User + system seconds of one ``python -m sliders.cli ARGV`` (its output discarded)."""
    before = os.times()
    subprocess.run(
        [sys.executable, "-m", "sliders.cli", *argv], stdout=subprocess.DEVNULL, check=True
    )
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def modules(argv: list[str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", MODULES, *argv], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each help (default: 5)")
    runs = parser.parse_args().runs
    print(f"load average {os.getloadavg()[0]:.2f}; median of {runs} runs")
    print(f"{'command':<28} {'cpu s':>6} {'sliders':>8} {'modules':>8}  heavy")
    for command in ["", *COMMANDS]:
        argv = [command, "--help"] if command else ["--help"]
        cpu = statistics.median(processor_time(argv) for _ in range(runs))
        loaded = modules(argv)
        own = sum(1 for m in loaded if m == "sliders" or m.startswith("sliders."))
        heavy = sorted({m.split(".")[0] for m in loaded} & set(HEAVY))
        name = f"sliders {' '.join(argv)}"
        print(f"{name:<28} {cpu:6.3f} {own:8d} {len(loaded):8d}  {', '.join(heavy) or '-'}")


if __name__ == "__main__":
    main()

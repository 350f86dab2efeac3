"""Start-up: the command line's helps, and a new user's first minute from the install on.

    python benchmarks/startup.py [--runs 5]
    python benchmarks/startup.py --first-run [--before REF] [--busy N]

**Helps.** Each help is run ``--runs`` times in a fresh interpreter (``python -m sliders.cli ...
--help``); the figure is the median of the child's user + system time (processor time, so the
machine's other work changes it less than wall-clock time). Beside it: how many of the package's
modules and how many modules in all it loaded, and any of the heavy libraries (numpy, pymunk,
scipy, matplotlib, numba, pygame, pandas, Dask, pyarrow) among them.

**First run** (``--first-run``): for this checkout's last commit and for ``--before`` (a commit,
default the one before the kernels were compiled at install), each in a clean copy of its own
(``git worktree``) and a new virtual environment, with numba's cache empty: the README's install
(``pip install -e``; packages pip has downloaded before come from its cache), then the first
``sliders shot --speed 0.6``, then the first slide in the window (``sliders play``'s play screen
on the square, a person at south who slides first against ``cpu:easy``, from the process's start
to the first pawn sliding, the person letting go at the first frame the window lets them: the
physics and the computer prepared in the background as the window's own loop draws, under SDL's
dummy driver), then a second first slide (the cache as the first left it), then a window joined to a
host on the loopback (the host in a thread of the same process, so its figures count the host's
start too): the seconds from the join to the first frame the person may slide. Each first use
starts from the kernels' cache as the install left it (copied aside after the install and put
back before it). Each is timed in wall-clock
seconds and in processor seconds (user + system of the process and its children). ``--busy N``
keeps N busy loops running meanwhile (a machine at load N). It takes minutes: two installs, and
the commit before compiles its kernels at its first run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


ROOT = Path(__file__).resolve().parents[1]
BEFORE = "7bc3bb8"
"""the last commit whose kernels were compiled at their first use, not at install"""

FIRST_SLIDE = """
import os, sys, time
t0 = time.perf_counter()
os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
from dataclasses import replace
from sliders.game.config import config_from_flags
from sliders.physics import Shot
from sliders.scenes.app import App
from sliders.scenes.screens import PlayScreen
from sliders.scenes.table import Match

app = App((1280, 800), sound=False, background=True)
config = config_from_flags("race-for-home", "square", "south=human,north=cpu:easy", 1)
match = Match(replace(config, starter="south"))
screen = PlayScreen(app, match)
app.show(screen)
plain, longest = app.step, [0.0]

def step(dt, draw=True):  # each frame of the window's own loop (App.run)
    t = time.perf_counter()
    plain(dt, draw)
    longest[0] = max(longest[0], time.perf_counter() - t)
    if screen._human_turn() == "south":  # the person lets go at the first moment they may
        match.play(Shot.from_degrees("south", 0.6, 0.0))
    if match.rolling or time.perf_counter() - t0 > 600:
        app.running = False

app.step = step
app.run()
print(f"{time.perf_counter() - t0:.2f} {longest[0]:.3f}")
"""


JOINED = """
import asyncio, os, sys, tempfile, threading, time
t0 = time.perf_counter()
os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
from dataclasses import replace
from pathlib import Path
from sliders.game.config import config_from_flags
from sliders.net.host import Host, new_room, parse_host_seats
from sliders.net.link import Link
from sliders.physics import Shot
from sliders.scenes.app import App
from sliders.scenes.remote import NetMatch
from sliders.scenes.screens import PlayScreen

config = replace(config_from_flags("race-for-home", "square", "south,north", 1), starter="south")
plans = parse_host_seats("south=remote,north=cpu:easy")
room = new_room("1", config, plans, Path(tempfile.mkdtemp()), 1)
loop = asyncio.new_event_loop()
host = Host([room])
threading.Thread(target=loop.run_forever, daemon=True).start()
asyncio.run_coroutine_threadsafe(host.start(), loop).result(60)
t1 = time.perf_counter()  # the host is up: the window joins now
app = App((1280, 800), sound=False, background=True)
link = Link(f"127.0.0.1:{host.port}", "1", room.codes["south"], name="ann")
match = NetMatch(link, link.open())
screen = PlayScreen(app, match)
app.show(screen)
plain, longest = app.step, [0.0]

def step(dt, draw=True):  # each frame of the window's own loop (App.run)
    t = time.perf_counter()
    plain(dt, draw)
    longest[0] = max(longest[0], time.perf_counter() - t)
    if screen._human_turn() == "south" or time.perf_counter() - t0 > 600:
        app.running = False

app.step = step
app.run()
print(f"{time.perf_counter() - t1:.2f} {longest[0]:.3f}", flush=True)
os._exit(0)
"""


def timed(argv: list[str], **kw: object) -> tuple[float, float, str]:
    """Wall-clock and processor seconds (user + system, children included) of a command, and
    what it printed."""
    before, t0 = os.times(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, **kw)  # type: ignore[call-overload]
    wall, after = time.perf_counter() - t0, os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu, done.stdout


def first_run(ref: str, label: str, work: Path) -> list[tuple[str, str, float, float, str]]:
    """Install ``ref`` in a new environment and time its first shot and slides."""
    tree, venv = work / f"tree-{label}", work / f"venv-{label}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), ref],
                   check=True)  # fmt: skip
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PYTHON"))}
        rows = []
        w, c, _ = timed([str(venv / "bin" / "pip"), "install", "-q", "-e", str(tree)], env=env)
        rows.append((label, "install (pip install -e)", w, c, ""))
        cache = tree / "sliders" / "physics" / "exact" / "__pycache__"
        installed = work / f"cache-{label}"  # the kernels' cache as the install left it
        if cache.exists():
            shutil.copytree(cache, installed)
        python = str(venv / "bin" / "python")
        steps = [
            ("first sliders shot", [str(venv / "bin" / "sliders"), "shot", "--speed", "0.6"]),
            ("first slide in the window", [python, "-c", FIRST_SLIDE]),
            ("again, the cache warm", [python, "-c", FIRST_SLIDE]),
            ("a joined window may slide", [python, "-c", JOINED]),
        ]
        for which, argv in steps:
            if which.startswith(("first", "a joined")):  # as just installed
                shutil.rmtree(cache, ignore_errors=True)
                if installed.exists():
                    shutil.copytree(installed, cache)
            w, c, out = timed(argv, env=env, cwd=work)
            if argv[0] == python:
                w, longest = (float(x) for x in out.split())
                rows.append((label, which, w, c, f"longest frame {1000 * longest:.0f} ms"))
            else:
                rows.append((label, which, w, c, ""))
        return rows
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       check=False)  # fmt: skip


def first_runs(before: str | None, busy: int) -> None:
    loops = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(busy)]
    work = Path(tempfile.mkdtemp(prefix="sliders-first-run-"))
    try:
        print(f"{busy} busy loops, load average {os.getloadavg()[0]:.1f} at the start, "
              f"on {os.cpu_count()} cores")  # fmt: skip
        rows = first_run("HEAD", "now", work)
        if before:
            rows += first_run(before, f"before ({before})", work)
        print(f"{'version':<20} {'step':<28} {'wall s':>7} {'cpu s':>7}")
        for label, step, wall, cpu, note in rows:
            print(f"{label:<20} {step:<28} {wall:7.1f} {cpu:7.1f}  {note}")
        print(f"(first slide: seconds from the process's start; load average at the end "
              f"{os.getloadavg()[0]:.1f})")  # fmt: skip
    finally:
        for loop in loops:
            loop.kill()
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each help (default: 5)")
    parser.add_argument("--first-run", action="store_true", help="time install to first slide")
    parser.add_argument(
        "--before", default=BEFORE, help=f"the version before (default {BEFORE}; '' for none)"
    )
    parser.add_argument("--busy", type=int, default=0, help="busy loops meanwhile (default 0)")
    args = parser.parse_args()
    if args.first_run:
        first_runs(args.before, args.busy)
        return
    runs = args.runs
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

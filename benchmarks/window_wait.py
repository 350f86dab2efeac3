"""The longest frame of a game's first minute in the window: the setup screen while the physics
is prepared in the background (compiled on its first run on a machine), the play screen while
the computers are prepared, the first computer's first think, the first shot in flight.

    SDL_VIDEODRIVER=dummy python benchmarks/window_wait.py [--seats north=cpu,south=cpu]
        [--layout square] [--start-after 1.0] [--shots 3] [--size 1280x800] [--cold] [--busy N]

The window runs its own loop (a frame every 1/60 s, as ``App.run``), and after ``--start-after``
seconds on the setup screen starts the game the setup screen shows. Each frame's wall time
(``App.step``, input, update and drawing) is put down to what the window was doing then; the
table prints, for each phase, its frames, its length and its longest frame (a frame over 100 ms
is a freeze a person sees); the longest five are listed with the processor time the window's
own thread spent in them (the rest is waiting: for the job's thread, or for a busy machine's
cores). Whether the physics was compiled in this run is printed first: ``--cold`` points numba's
cache at an empty temporary folder (``NUMBA_CACHE_DIR``) for the first-run figure, and ``--busy N``
keeps N busy loops (``python -c "while 1: pass"``) running meanwhile, a machine under load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from sliders.game.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.physics import REGISTRY  # noqa: E402
from sliders.scenes.app import FPS, App  # noqa: E402
from sliders.scenes.screens import PlayScreen, SetupScreen  # noqa: E402


def phase(app: App) -> str:
    """What the window is doing this frame."""
    screen = app.screen
    if isinstance(screen, SetupScreen):
        return "setup, physics " + ("ready" if not app.background.busy else "preparing")
    if not isinstance(screen, PlayScreen):
        return type(screen).__name__
    m = screen.match
    if not screen.ready():
        return "play, preparing"
    if m.rolling:
        return "shot in flight"
    if m.is_computer(m.turn):
        return "computer thinking" if screen._cpu is None else "computer aiming"
    return "person to slide"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", default="north=cpu,south=cpu")
    ap.add_argument("--layout", default="square")
    ap.add_argument("--start-after", type=float, default=1.0)
    ap.add_argument("--shots", type=int, default=3)
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds at most")
    ap.add_argument("--cold", action="store_true", help="start from an empty numba cache")
    ap.add_argument("--busy", type=int, default=0, help="busy loops to run meanwhile")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="sliders-numba-") as empty:
        if args.cold:
            os.environ["NUMBA_CACHE_DIR"] = empty  # read when numba is first imported, below
        loops = [
            subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)
        ]
        try:
            run(args, w, h)
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()


def run(args: argparse.Namespace, w: int, h: int) -> None:
    """The window's first minute, timed frame by frame."""
    load = os.getloadavg()[0]
    cold = REGISTRY["exact"].cold()
    print(f"physics compiled in this run: {'yes' if cold else 'no (cached)'}")
    app = App((w, h), sound=False)
    config = MatchConfig("race-for-home", args.layout, parse_seat_specs(args.seats), 1)
    app.show(SetupScreen(app, config))
    phases: dict[str, list[float]] = {}
    began = last = time.perf_counter()
    started = False
    worst: list[tuple[float, float, str, str]] = []
    while app.running:
        now = time.perf_counter()
        if now - began > args.limit:
            print(f"stopped after {args.limit:.0f} s")
            break
        if not started and now - began >= args.start_after:
            assert isinstance(app.screen, SetupScreen)
            app.screen.start()
            started = True
        name = phase(app)
        note = app.background.note
        t0, c0 = time.perf_counter(), time.thread_time()
        app.step(now - last)
        took, cpu = time.perf_counter() - t0, time.thread_time() - c0
        phases.setdefault(name, []).append(took)
        worst.append((took, cpu, name, note))
        last = now
        screen = app.screen
        if isinstance(screen, PlayScreen) and len(screen.match.results) >= args.shots:
            break
        time.sleep(max(0.0, 1 / FPS - (time.perf_counter() - now)))
    total = time.perf_counter() - began
    print(f"{'phase':24} {'frames':>7} {'seconds':>8} {'longest ms':>11}")
    for name, times in phases.items():
        print(f"{name:24} {len(times):7d} {sum(times):8.1f} {1000 * max(times):11.1f}")
    longest = max(max(t) for t in phases.values())
    for took, cpu, name, note in sorted(worst, reverse=True)[:5]:
        said = f" ({note})" if note else ""
        print(f"  {1000 * took:7.1f} ms ({1000 * cpu:.1f} ms of the window's CPU)  {name}{said}")
    print(
        f"whole run {total:.1f} s, longest frame {1000 * longest:.1f} ms; {args.busy} busy loops, "
        f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
        f"on {os.cpu_count()} cores"
    )
    app.close()


if __name__ == "__main__":
    main()

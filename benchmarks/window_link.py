"""How long a thread beside the window waits for the interpreter while the window's frames run
late: the thread a window's link to a host runs in (``sliders join``), or the host itself when
it serves from the window's process (``sliders host --seats SEAT=human``).

    SDL_VIDEODRIVER=dummy python benchmarks/window_link.py [--seconds 8] [--layout square]

The window plays a game of computers (in the layout's usual seats) and draws every frame back to back (a late window,
whose frame took longer than 1/60 s); beside it an asyncio loop in a thread of its own wakes
every 10 ms, as the link's does to read the host. Printed for each way of ending a frame: how
late each wake-up was (median, 99th percentile, worst). ``nap``: each frame then waits
``NAP`` (as ``App.run`` does); ``none``: the next frame starts at once (as ``App.run`` did).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402

from sliders.core.errors import UserError  # noqa: E402
from sliders.game.config import config_from_flags, default_seat_specs  # noqa: E402
from sliders.physics import REGISTRY  # noqa: E402
from sliders.scenes.app import FPS, NAP, App  # noqa: E402
from sliders.scenes.screens import PlayScreen, ResultsScreen  # noqa: E402
from sliders.scenes.table import Match  # noqa: E402

TICK = 0.01
"""seconds the loop beside the window sleeps between wake-ups"""


def match(layout: str) -> Match:
    """A game of computers in ``layout``'s usual seats, for the window to play and draw."""
    seats = ",".join(f"{s.seat}=cpu:easy" for s in default_seat_specs(layout))
    return Match(config_from_flags(None, layout, seats, 1))


def lateness(seconds: float, nap: float, layout: str) -> np.ndarray:
    """Seconds each wake-up of a loop beside the window came late, over ``seconds`` of frames
    drawn back to back, each followed by a wait of ``nap`` seconds."""
    loop = asyncio.new_event_loop()
    late: list[float] = []
    done = threading.Event()

    async def wake() -> None:
        while not done.is_set():
            t = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - t - TICK)

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    app = App((1280, 800), sound=False, think_budget=None)
    try:
        app.show(PlayScreen(app, match(layout)))
        task = asyncio.run_coroutine_threadsafe(wake(), loop)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if isinstance(app.screen, ResultsScreen):
                app.show(PlayScreen(app, match(layout)))
            app.step(1 / FPS)
            if nap:
                time.sleep(nap)
        done.set()
        task.result(5)
    finally:
        app.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
    return np.array(late)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--layout", default="square")
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds {args.seconds:g}: more than 0")
    try:
        match(args.layout)
    except UserError as exc:
        parser.error(str(exc))
    REGISTRY["exact"].prepare()
    print(f"a loop beside a late window, waking every {TICK * 1e3:g} ms, {args.seconds:g} s each:")
    rows = {}
    for name, nap in (("none", 0.0), ("nap", NAP)):
        late = lateness(args.seconds, nap, args.layout) * 1e3
        rows[name] = late
        print(
            f"  {name:>4}: {len(late):5d} wake-ups, late by median {np.median(late):7.1f} ms, "
            f"p99 {np.percentile(late, 99):7.1f} ms, worst {late.max():7.1f} ms"
        )
    worst = rows["none"].max() / max(rows["nap"].max(), 1e-3)
    print(f"  the worst wait with the nap: {worst:.0f}x shorter")


if __name__ == "__main__":
    main()

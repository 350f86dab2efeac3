"""Single flicks read in a real X window: a steady 125 Hz pointer device (XTest, from a process of
its own) swings a pawn up the south lane at 600 px/s, 8 degrees right of straight, while the
window runs its own loop (``App.run``) with its frames slowed to 60, 30, 15 and 7 a second (each
frame's work made to last 1/fps - 6 ms, blocking the input as a slow machine's frame does, then
6 ms of waiting for the next frame, polling the input, as ``tests/scenes/test_flick_frames.py``
has it), and
at 60 frames a second with a stall of 50, 100 and 150 ms in the middle of the swing. Each
flick's launch speed and direction are compared with the swing's.

    DISPLAY=:99 python benchmarks/flick.py [--flicks 5] [--size 1280x800] [--fps N ...] [--dump FILE]

Needs an X display (``Xvfb :99 -screen 0 1920x1080x24 &``) and libXtst (installed with
xdotool). On a busy machine start the display at real-time priority (``chrt -f 5 Xvfb ...``),
as the device runs: a real X server reads the mouse as it reports, but a virtual one starved of
the processor hands the window the device's reports in bursts long after they were made, and no
window can tell when they happened. ``--dump`` keeps what the window saw of each flick, for
reading it again. The table has the worst single flick of each row (speed in % of the swing's, direction
in degrees), and every flick's speed error. The window's present path is printed first.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "x11"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from frame import run_for  # noqa: E402  (the window's own loop until done)

from sliders.game.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.scenes.app import POLL, App, open_window  # noqa: E402
from sliders.scenes.controls import FLICK_GAIN, hand_spot  # noqa: E402
from sliders.scenes.screens import PlayScreen  # noqa: E402  (registers every screen)
from sliders.scenes.table import Match  # noqa: E402

DEVICE = Path(__file__).with_name("xdevice.py")
SWING = 600.0
"""pixels a second of the swing, once up to speed"""
TILT = 8.0
"""degrees right of straight up the screen"""
STEPS = 36
"""reports in the swing"""
ROWS = [(60, 0.0), (30, 0.0), (15, 0.0), (7, 0.0), (60, 0.05), (60, 0.1), (60, 0.15)]
"""(frames a second, stall in seconds) of each row"""
STALL_AT = (0.06, 0.15, 0.24)
"""seconds into the swing a stall begins, in turn"""


def one_flick(
    app: App, fps: float, stall: float, k: int, dump: list[dict[str, object]] | None = None
) -> tuple[float, float] | None:
    """(relative speed error, direction error in degrees) of one flick; None when it slid
    nothing. ``dump`` gets what the window's hand saw and when the device sent each report."""
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1 + k,
                         hand="exact")  # fmt: skip
    match = Match(config)
    screen = PlayScreen(app, match)
    app.show(screen)
    plain = App.step.__get__(app)
    deadline = time.perf_counter() + 120

    def until(done: Callable[[], bool]) -> None:
        run_for(app, 120, done)

    until(lambda: screen.ready() and screen.lane_shown == 1.0 and screen.lane_camera.settled(1.0))
    settled = time.perf_counter() + 1.5
    until(lambda: time.perf_counter() > settled)  # every camera at rest
    lane = match.seat("south")
    x0, y0 = screen.lane_view.to_screen(*lane.to_world(*hand_spot(match, "south", 0, 4)))
    ox, oy = pygame.display.get_window_position()
    start = time.perf_counter() + 0.8 + (k * 0.0137) % (1 / fps)  # a different phase each time
    begin = start + 0.2
    stall_begins = begin + STALL_AT[k % len(STALL_AT)] if stall else math.inf
    device = subprocess.Popen(
        [sys.executable, str(DEVICE), "swing", str(ox + x0), str(oy + y0), str(SWING),
         str(TILT), str(STEPS), repr(start)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    busy = max(1 / fps - 0.006, 0.0)

    def slowed(dt: float, draw: bool = True) -> None:
        nonlocal stall_begins
        t0 = time.perf_counter()
        plain(dt, draw)
        until_t = t0 + busy
        if time.perf_counter() >= stall_begins:
            until_t += stall
            stall_begins = math.inf
        while time.perf_counter() < until_t:  # the frame's work: no input read meanwhile
            pass
        while time.perf_counter() < until_t + 0.006 - POLL:  # the wait for the next frame
            time.sleep(POLL)
            app.poll()
        if match.shots or time.perf_counter() > deadline:
            app.running = False

    app.step = slowed  # type: ignore[method-assign]
    app.running = True
    app.run()
    app.step = plain  # type: ignore[method-assign]
    sent, _ = device.communicate(timeout=30)
    if not match.shots:  # the press missed the pawn (the window was still settling)
        return None
    shot = match.shots[-1]
    v_along, v_across = lane.vector_from_world(math.sin(math.radians(TILT)),
                                               math.cos(math.radians(TILT)))  # fmt: skip
    meant = math.atan2(v_across, v_along)
    got = shot.speed / (SWING * FLICK_GAIN) - 1, math.degrees(shot.angle - meant)
    hand = getattr(screen.control, "hand", None)
    if dump is not None and hand is not None:
        dump.append({
            "fps": fps, "stall": stall, "k": k, "speed": got[0], "angle": got[1],
            "device": json.loads(sent), "samples": hand.samples, "pulls": hand.pulls,
            "history": hand.history, "presses": hand.presses,
            "began": sorted(hand.began.items()),
        })  # fmt: skip
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flicks", type=int, default=5, help="flicks a row (default 5)")
    ap.add_argument("--size", default="1280x800", help="window size, WxH (default 1280x800)")
    ap.add_argument(
        "--fps",
        type=int,
        action="append",
        help="only the rows at these frames a second (repeat it; default every row)",
    )
    ap.add_argument("--dump", type=Path, help="write every flick's pointer events and the "
                    "device's report times to this JSON file")  # fmt: skip
    args = ap.parse_args()
    dump: list[dict[str, object]] = []
    w, h = (int(v) for v in args.size.lower().split("x"))
    app = open_window((w, h), fullscreen=False, sound=False, save_path=None)
    app.control = "flick"
    print(f"a real X window {w}x{h} ({app.present}); a {SWING:.0f} px/s swing {TILT:.0f} degrees "
          f"right, a 125 Hz device; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
          "cores")  # fmt: skip
    print(f"{'frames/s':>8} {'stall ms':>8} {'worst speed %':>14} {'worst angle deg':>16}  "
          "every flick's speed %")  # fmt: skip
    for fps, stall in ROWS:
        if args.fps and fps not in args.fps:
            continue
        got = []
        for k in range(args.flicks):
            for _ in range(3):
                one = one_flick(app, fps, stall, k, dump)
                if one is not None:
                    got.append(one)
                    break
            else:
                raise SystemExit(f"three swings at {fps} frames/s slid nothing")
        speed = max((g[0] for g in got), key=abs)
        angle = max((g[1] for g in got), key=abs)
        every = " ".join(f"{100 * g[0]:+.1f}" for g in got)
        print(f"{fps:8d} {1000 * stall:8.0f} {100 * speed:+14.1f} {angle:+16.2f}  {every}",
              flush=True)  # fmt: skip
        if args.dump:
            part = args.dump.with_name(args.dump.name + ".part")
            part.write_text(json.dumps(dump))
            part.replace(args.dump)
    app.close()


if __name__ == "__main__":
    main()

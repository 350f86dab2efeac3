"""A steady pointer device on an X display, for the benchmarks that measure the window in a real
X window: it moves the pointer (and presses its button) through the XTest extension at a steady
report rate, as a mouse does, from a process of its own (so its work is not counted as the
window's). Driven by ``benchmarks/frame.py`` and ``benchmarks/flick.py``; on its own:

    DISPLAY=:99 python benchmarks/xdevice.py circle CX CY R SECONDS [--rate 125]
    DISPLAY=:99 python benchmarks/xdevice.py drag X Y R SECONDS [--rate 125]
    DISPLAY=:99 python benchmarks/xdevice.py swing X Y SPEED TILT STEPS START [--rate 125]

``circle``: the pointer goes round a circle of radius R pixels about (CX, CY), one turn every
3 s, for SECONDS. ``drag``: presses at (X, Y), carries it round a circle of radius R above
it, a turn a second, for SECONDS, comes back, holds still 0.3 s and lets go. ``swing``: a flick, as ``tests/scenes/test_flick_frames.py`` scripts it: the
pointer comes toward (X, Y) for 60 reports (4 px left and 2 px down each, over the window),
goes there and
presses at the monotonic clock's START (``time.perf_counter`` on Linux,
shared by every process), waits 0.2 s, swings STEPS reports at SPEED pixels a second (reached
with a 30 ms time constant) TILT degrees right of straight up, and lets go 1 ms after its last
report. Each report is sent when due on the monotonic clock (slept for, then spun the last
half millisecond), and the times they went out are printed, one line of JSON. The process
asks for real-time scheduling (``SCHED_FIFO``) where it may, so a busy machine does not make the
device's reports unsteady, as a mouse's are not.

Needs libX11 and libXtst (installed with xdotool); loads them with ctypes.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import math
import os
import time


class Pointer:
    """The X display's pointer, moved and pressed through XTest."""

    def __init__(self) -> None:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XFlush.argtypes = [ctypes.c_void_p]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        xtst.XTestFakeMotionEvent.argtypes = (
            [ctypes.c_void_p] + [ctypes.c_int] * 3 + [ctypes.c_ulong]
        )
        xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                              ctypes.c_ulong]  # fmt: skip
        self.display = x11.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("xdevice: cannot open the X display (is DISPLAY set?)")
        self._x11, self._xtst = x11, xtst

    def move(self, x: float, y: float) -> None:
        self._xtst.XTestFakeMotionEvent(self.display, -1, round(x), round(y), 0)
        self._x11.XFlush(self.display)

    def button(self, down: bool) -> None:
        self._xtst.XTestFakeButtonEvent(self.display, 1, int(down), 0)
        self._x11.XSync(self.display, 0)  # done by the server before this process goes on


def wait_until(due: float) -> float:
    """Sleep until half a millisecond before ``due``, spin the rest; the clock's reading."""
    left = due - time.perf_counter()
    if left > 0.0006:
        time.sleep(left - 0.0005)
    while (now := time.perf_counter()) < due:
        pass
    return now


def circle(pointer: Pointer, cx: float, cy: float, r: float, seconds: float, rate: float,
           turn: float = 3.0, start: float = 0.0) -> None:  # fmt: skip
    """Round a circle, one turn every ``turn`` seconds, from ``start`` radians."""
    t0 = time.perf_counter()
    k = 0
    while True:
        k += 1
        t = wait_until(t0 + k / rate) - t0
        if t > seconds:
            return
        a = start + 2 * math.pi * t / turn
        pointer.move(cx + r * math.cos(a), cy + r * math.sin(a))


def drag(pointer: Pointer, x: float, y: float, r: float, seconds: float, rate: float) -> None:
    """Press at (x, y), carry it round a circle of radius ``r`` above it (a turn a second), come
    back, hold still and let go."""
    pointer.move(x, y)
    time.sleep(0.1)
    pointer.button(True)
    time.sleep(0.1)
    circle(pointer, x, y - r, r, seconds, rate, turn=1.0, start=math.pi / 2)
    pointer.move(x, y)
    time.sleep(0.3)
    pointer.button(False)


FREE = 60
"""reports of the pointer's free motion toward the pawn before a swing"""


def swing_path(
    speed: float, tilt: float, steps: int, rate: float
) -> list[tuple[float, float, float]]:
    """(seconds after the swing begins, dx, dy) of each report of the swing (dy up is negative)."""
    ux, uy = math.sin(math.radians(tilt)), -math.cos(math.radians(tilt))
    out = []
    for k in range(1, steps + 1):
        u = k / rate
        d = speed * (u - 0.03 * (1 - math.exp(-u / 0.03)))
        out.append((u, ux * d, uy * d))
    return out


def swing(pointer: Pointer, x: float, y: float, speed: float, tilt: float, steps: int,
          start: float, rate: float) -> dict[str, object]:  # fmt: skip
    first = start - 0.05 - FREE / rate  # the hand comes to the pawn, then presses on it
    for k in range(FREE):
        wait_until(first + k / rate)
        pointer.move(x + 240 - 4 * k, y - 120 + 2 * k)
    wait_until(start)
    pointer.move(x, y)
    pointer.button(True)
    begin = start + 0.2
    sent = []
    for u, dx, dy in swing_path(speed, tilt, steps, rate):
        sent.append(wait_until(begin + u))
        pointer.move(x + dx, y + dy)
    up = wait_until(begin + steps / rate + 0.001)
    pointer.button(False)
    late = max(s - (begin + u) for s, (u, _, _) in zip(sent, swing_path(speed, tilt, steps, rate),
                                                       strict=True))  # fmt: skip
    return {"begin": begin, "released": up, "latest_report_ms": round(1000 * late, 3),
            "sent": sent}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("circle")
    for name in ("cx", "cy", "r", "seconds"):
        c.add_argument(name, type=float)
    d = sub.add_parser("drag")
    for name in ("x", "y", "r", "seconds"):
        d.add_argument(name, type=float)
    s = sub.add_parser("swing")
    for name in ("x", "y", "speed", "tilt"):
        s.add_argument(name, type=float)
    s.add_argument("steps", type=int)
    s.add_argument("start", type=float)
    for p in (c, d, s):
        p.add_argument("--rate", type=float, default=125.0, help="reports a second (default 125)")
    args = ap.parse_args()
    try:  # a mouse's reports are steady: keep this process's off a busy machine's queue
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except (AttributeError, OSError):
        pass
    pointer = Pointer()
    if args.what == "circle":
        circle(pointer, args.cx, args.cy, args.r, args.seconds, args.rate)
    elif args.what == "drag":
        drag(pointer, args.x, args.y, args.r, args.seconds, args.rate)
    else:
        out = swing(pointer, args.x, args.y, args.speed, args.tilt, args.steps, args.start,
                    args.rate)  # fmt: skip
        print(json.dumps(out))


if __name__ == "__main__":
    main()

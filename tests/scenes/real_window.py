"""A game in a real window, driven by real pointer events: run as a program on an X display
(``DISPLAY``), it opens the window at 800x600, waits until the physics and the computer are
ready (drawing all the while), then has ``xdotool`` press in the person's lane (the aim
control), pull straight back and let go when the power meter is half way up, and steps the window until the shot is applied. It prints one
line of JSON: the shots played, the pawn's fate and points, the longest frame (ms), and where
the screenshots (``import``, when installed) were saved.

    DISPLAY=:99 python tests/scenes/real_window.py OUT_DIR

Every action waits on what the window says it took in (:class:`Driver`: the pointer where it
was sent, a pawn held, the slide rolling, its result applied), never on a number of frames.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "x11"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from sliders.game.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.scenes.app import App  # noqa: E402
from sliders.scenes.controls import PULL_MAX  # noqa: E402
from sliders.scenes.screens import PlayScreen  # noqa: E402
from sliders.scenes.table import Match  # noqa: E402

FRAME = 1 / 60
STUCK = 120.0
"""seconds after which a wait ends the program with what it waited for: the bound of a stuck
window, not a guess of how long anything takes"""


class Driver:
    """A real window stepped frame by frame (at ``FRAME``) and driven by ``xdotool``: each
    action waits until the window itself says it took the event in, so a busy machine only
    makes the run longer. ``frame`` steps the window once (it may measure the frame)."""

    def __init__(self, frame: Callable[[], None], title: str = "Sorry! Sliders") -> None:
        self.frame, self.title = frame, title
        self._wid = ""

    def until(self, done: Callable[[], object], what: str) -> None:
        """Step frames until ``done()`` (checked before each frame and after the last)."""
        end = time.perf_counter() + STUCK
        while not done():
            if time.perf_counter() > end:
                raise SystemExit(f"the window never showed {what} in {STUCK:.0f} s")
            self.frame()

    def wid(self) -> str:
        if not self._wid:
            self._wid = window_id(self.title)
        return self._wid

    def xdo(self, *args: object) -> None:
        subprocess.run(["xdotool", *map(str, args)], check=True)

    def move(self, x: float, y: float) -> None:
        """The pointer to (x, y) in the window, once the window sees it there."""
        at = (round(x), round(y))
        self.xdo("mousemove", "--window", self.wid(), *at)
        self.until(lambda: pygame.mouse.get_pos() == at, f"the pointer at {at}")

    def press(self, done: Callable[[], object], what: str) -> None:
        self.xdo("mousedown", "1")
        self.until(done, what)

    def release(self, done: Callable[[], object], what: str) -> None:
        self.xdo("mouseup", "1")
        self.until(done, what)

    def click(self, done: Callable[[], object], what: str) -> None:
        self.xdo("click", "1")
        self.until(done, what)

    def click_at(self, x: float, y: float, done: Callable[[], object], what: str) -> None:
        """Move to (x, y) and click there, the pointer held meanwhile (:func:`the_pointer`)."""
        with the_pointer():
            self.move(x, y)
            self.xdo("click", "1")
        self.until(done, what)

    def key(self, name: str, done: Callable[[], object], what: str) -> None:
        self.xdo("key", name)
        self.until(done, what)


@contextlib.contextmanager
def the_pointer() -> Iterator[None]:
    """The display's one pointer, held by one program while it moves it and presses: the
    windows of one test share it, and a click sent just after another program moved the pointer
    lands in that program's window (a file lock a display; the events are the window's once
    ``xdotool`` has sent them)."""
    display = os.environ.get("DISPLAY", "").replace(":", "-").replace("/", "-")
    with open(Path(tempfile.gettempdir()) / f"sliders-pointer{display}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def window_id(title: str = "Sorry! Sliders") -> str:
    """The game window's X id (from the display's window tree)."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree"], capture_output=True, text=True, check=True
    ).stdout
    return next(line.split()[0] for line in tree.splitlines() if f'"{title}"' in line)


def wait_for_half_power(app: App, control) -> None:  # type: ignore[no-untyped-def]
    """Poll the window's input until the aim control's meter is next half way up (a moment
    still to come, at least 50 ms away): the moment to let go for the board's centre."""
    meter = control.meter
    let_go = control.pressed_at + meter.period / 4 - 0.004
    while let_go < time.perf_counter() + 0.05:  # the next rise still to come
        let_go += meter.period
    while time.perf_counter() < let_go:
        app.poll()
        time.sleep(0.001)


def main(out: Path) -> None:
    app = App((800, 600), sound=False, control="aim")
    seats = parse_seat_specs("south,north=cpu:easy")
    match = Match(MatchConfig("race-for-home", "square", seats, 1, hand="exact"))
    screen = PlayScreen(app, match)
    app.show(screen)
    longest = 0.0

    def frame() -> None:
        nonlocal longest
        t0 = time.perf_counter()
        app.step(FRAME)
        longest = max(longest, time.perf_counter() - t0)
        time.sleep(max(FRAME - (time.perf_counter() - t0), 0.0))

    drive = Driver(frame)
    drive.until(
        lambda: screen.ready() and screen.lane_shown == 1.0 and screen.lane_camera.settled(1.0),
        "the play screen ready, the lane pane in and still",
    )
    wid = drive.wid()
    shots: list[str] = []

    def shoot(name: str) -> None:
        if shutil.which("import"):
            path = out / f"{name}.png"
            subprocess.run(["import", "-window", wid, str(path)], check=True)
            shots.append(str(path))

    shoot("aim-view")
    lane, view = match.seat("south"), screen.lane_view
    px, py = view.to_screen(*lane.to_world(lane.foul - 0.005, 0.0))
    fx, fy = view.to_screen(*lane.to_world(lane.foul + 0.1, 0.0))  # toward the board
    ux, uy = (
        (fx - px) / max(abs(fx - px) + abs(fy - py), 1),
        (fy - py) / max(abs(fx - px) + abs(fy - py), 1),
    )
    drive.move(px, py)
    drive.press(lambda: screen.held is not None, "the pawn held")
    pawn = view.to_screen(*lane.to_world(*screen.control.hold))
    pull = PULL_MAX / 2
    for k in (0.25, 0.5, 0.75, 1.0):
        drive.move(pawn[0] - ux * pull * k, pawn[1] - uy * pull * k)
    shoot("pulled")
    # let go when the meter's marker is next half way up (xdotool's start-up, a few
    # milliseconds, is a percent of power or two: still ring 5)
    wait_for_half_power(app, screen.control)
    drive.release(lambda: match.rolling or match.results, "the pawn slid")
    drive.until(lambda: match.results and not match.rolling, "the shot applied")
    shoot("after")
    rest = match.results[-1].pawn(match.results[-1].shooter)
    print(
        json.dumps(
            {
                "shots": len(match.results),
                "status": rest.status.name if rest else None,
                "points": rest.points if rest else None,
                "longest_frame_ms": round(1000 * longest, 1),
                "screenshots": shots,
            }
        )
    )
    app.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

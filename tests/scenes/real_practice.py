"""The practice sandbox in a real window, driven by real pointer events: run as a program on an
X display (``DISPLAY``), it opens practice at 1000x700, waits for the physics, then has
``xdotool`` drag a yellow pawn from the panel onto the board, turn the aim help on (A), press in
the lane and pull back (a screenshot with the help drawn), let go, ask for a hint (H, a
screenshot with its arrow) and take the shot back (Z). It prints one line of JSON: the pawns on
the table after each step, whether the help and the hint were drawn, the longest frame while
the hint was searched in the background (ms, printed, not asserted) and the screenshots
(``import``, when installed).

    DISPLAY=:99 python tests/scenes/real_practice.py OUT_DIR

Every action waits on what the window says it took in (``real_window.Driver``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from real_window import Driver, wait_for_half_power  # noqa: I001  (sets the video driver before pygame loads)

from sliders.scenes.app import App
from sliders.scenes.controls import PULL_MAX
from sliders.scenes.practice import PracticeScreen, scene_for

FRAME = 1 / 60


def main(out: Path) -> None:
    app = App((1000, 700), sound=False, control="aim")
    screen = PracticeScreen(app, scene_for("race-for-home", "square"), "exact")
    app.show(screen)

    longest = {"now": 0.0}

    def frame() -> None:
        t0 = time.perf_counter()
        app.step(FRAME)
        longest["now"] = max(longest["now"], time.perf_counter() - t0)
        time.sleep(max(FRAME - (time.perf_counter() - t0), 0.0))

    drive = Driver(frame)
    drive.until(
        lambda: screen.ready() and screen.lane_shown == 1.0 and screen.lane_camera.settled(1.0),
        "the practice screen ready, the lane pane in and still",
    )
    wid = drive.wid()
    shots: list[str] = []
    seen: dict[str, object] = {}

    def shoot(name: str) -> None:
        if shutil.which("import"):
            path = out / f"{name}.png"
            subprocess.run(["import", "-window", wid, str(path)], check=True)
            shots.append(str(path))

    def on_table() -> list[str]:
        return sorted(p.id for p in screen.table.pawns)

    swatch = dict(screen.swatches)["north"].center
    drive.move(*swatch)
    drive.press(lambda: screen.drag is not None, "a yellow pawn taken from the panel")
    spot = screen.view.to_screen(0.012, 0.03)
    for k in (0.3, 0.6, 1.0):
        drive.move(swatch[0] + (spot[0] - swatch[0]) * k, swatch[1] + (spot[1] - swatch[1]) * k)
    drive.release(lambda: screen.drag is None and screen.table.pawns, "the pawn put down")
    seen["placed"] = [p.id for p in screen.table.pawns]
    drive.key("a", lambda: screen.help.on, "the aim help on")
    lane, view = screen.table.seat("south"), screen.lane_view
    px, py = view.to_screen(*lane.to_world(lane.foul - 0.005, 0.0))
    drive.move(px, py)
    drive.press(lambda: screen.held is not None, "the pawn held")
    pawn = view.to_screen(*lane.to_world(*screen.control.hold))
    fx, fy = view.to_screen(*lane.to_world(lane.foul + 0.1, 0.0))
    norm = max(abs(fx - pawn[0]) + abs(fy - pawn[1]), 1)
    ux, uy = (fx - pawn[0]) / norm, (fy - pawn[1]) / norm
    for k in (0.25, 0.5):
        drive.move(pawn[0] - ux * PULL_MAX * k, pawn[1] - uy * PULL_MAX * k + 4 * k)
    drive.until(lambda: screen.help.solved >= 1, "the aim help's path")
    drive.frame()  # the path drawn
    seen["help_solved"] = screen.help.solved
    shoot("practice-aim-help")
    wait_for_half_power(app, screen.control)
    drive.release(lambda: screen.table.rolling or len(screen.table.pawns) > 1, "the pawn slid")
    drive.until(lambda: not screen.table.rolling and len(on_table()) > 1, "the shot at rest")
    seen["after_shot"] = on_table()
    longest["now"] = 0.0
    drive.key("h", lambda: screen.hint.found(screen.hinted) is not None, "a hint found")
    drive.frame()  # its arrow drawn
    seen["hint"] = screen.hint.found(screen.hinted) is not None
    seen["longest_frame_ms_while_hinting"] = round(1000 * longest["now"], 1)
    shoot("practice-hint")
    shot = seen["after_shot"]
    drive.key("z", lambda: on_table() != shot, "the shot taken back")
    seen["after_undo"] = on_table()
    shoot("practice-undone")
    print(json.dumps({**seen, "screenshots": shots}))
    app.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""A person's seat of a hosted game in a real window, driven by real pointer events: run as a
program on an X display, it joins ``URL`` with ``CODE`` (the window at X, Y on the screen, titled
after its seat), and each time its seat is to shoot has ``xdotool`` press in its lane, pull
straight back and let go; at the round's end it clicks Accept (the suggested scoring) and
Continue; it steps the window until the game is over. It prints one line of
JSON: its seat, the shots it slid, the game's steps as this window has them, the shots that ran
differently here, and the screenshots (``import``, when installed).

    DISPLAY=:99 python tests/scenes/net_window.py URL CODE X Y OUT_DIR
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "x11"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FRAME = 1 / 60


def main(url: str, code: str, x: int, y: int, out: Path) -> None:
    os.environ["SDL_VIDEO_WINDOW_POS"] = f"{x},{y}"
    import pygame

    from sliders.net.link import Link
    from sliders.scenes.app import NAP, App
    from sliders.scenes.controls import PULL_MAX
    from sliders.scenes.remote import NetMatch
    from sliders.scenes.screens import PlayScreen, ResultsScreen, RoundEndScreen

    link = Link(url, "1", code)
    match = NetMatch(link, link.open())
    seat = match.me or ""
    app = App((800, 600), sound=False, control="aim")
    title = f"Sorry! Sliders {seat}"
    pygame.display.set_caption(title)
    screen = PlayScreen(app, match)
    app.show(screen)

    def frames(n: int) -> None:
        for _ in range(n):
            t0 = time.perf_counter()
            app.step(FRAME)
            time.sleep(max(FRAME - (time.perf_counter() - t0), NAP))

    def window() -> str:
        tree = subprocess.run(
            ["xwininfo", "-root", "-tree"], capture_output=True, text=True, check=True
        ).stdout
        return next(line.split()[0] for line in tree.splitlines() if f'"{title}"' in line)

    def xdo(*args: object) -> None:
        subprocess.run(["xdotool", *map(str, args)], check=True)
        frames(3)

    shots: list[str] = []
    slid = 0
    end = time.perf_counter() + 500
    while not (isinstance(app.screen, ResultsScreen) and match.over is not None):
        if time.perf_counter() > end:
            raise SystemExit(
                f"{seat}: the game did not end ({slid} slid; {type(app.screen).__name__}, "
                f"{len(match.game.steps)} steps, {match.state.phase}, turn {match.turn}, "
                f"rolling {match.rolling}, awaiting {match.awaiting}, "
                f"pending {[m['type'] for m in match._pending][:5]}, seats {match.who()})"
            )
        frames(1)
        scoring = app.screen
        if isinstance(scoring, RoundEndScreen) and (scoring.seat == seat or scoring.scored):
            button = scoring.buttons["accept" if scoring.seat == seat else "continue"]
            wid = window()
            xdo("mousemove", "--window", wid, *button.rect.center)
            xdo("click", "1")
            continue
        play = app.screen
        if not isinstance(play, PlayScreen) or play._human_turn() != seat:
            continue
        if not (play.lane_shown == 1.0 and play.lane_camera.settled(1.0)):
            continue
        wid = window()
        lane, view = match.seat(seat), play.lane_view
        across = 0.01 * (slid - 1.5)
        px, py = view.to_screen(*lane.to_world(lane.foul - 0.005, across))
        fx, fy = view.to_screen(*lane.to_world(lane.foul + 0.1, across))
        norm = max(abs(fx - px) + abs(fy - py), 1)
        ux, uy = (fx - px) / norm, (fy - py) / norm
        xdo("mousemove", "--window", wid, px, py)
        xdo("mousedown", "1")
        if play.held is None:
            xdo("mouseup", "1")
            continue
        pawn = view.to_screen(*lane.to_world(*play.control.hold))
        for k in (0.25, 0.5):
            pull = PULL_MAX * (0.45 + 0.02 * slid) * k * 2
            xdo(
                "mousemove", "--window", wid, round(pawn[0] - ux * pull), round(pawn[1] - uy * pull)
            )
        meter = play.control.meter  # let go on the meter's next rise at the power meant
        let_go = play.control.pressed_at + (0.45 + 0.02 * slid) * meter.period / 2
        while let_go < time.perf_counter() + 0.05:
            let_go += meter.period
        while time.perf_counter() < let_go:
            app.poll()
            time.sleep(0.001)
        xdo("mouseup", "1")
        slid += 1
        if shutil.which("import") and slid == 1:
            frames(20)
            path = out / f"{seat}-rolling.png"
            subprocess.run(["import", "-window", wid, str(path)], check=True)
            shots.append(str(path))
    print(
        json.dumps(
            {
                "seat": seat,
                "slid": slid,
                "steps": match.game.to_json()["steps"],
                "mismatches": match.mismatches,
                "screenshots": shots,
            }
        )
    )
    app.close()
    link.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5]))

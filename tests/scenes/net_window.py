"""A person's seat of a hosted game in a real window, driven by real pointer events: run as a
program on an X display, it joins ``URL`` with ``CODE`` (the window at X, Y on the screen, titled
after its seat), and each time its seat is to shoot has ``xdotool`` press in its lane, pull
straight back and let go; at the round's end it clicks Accept (the suggested scoring) and
Continue; it steps the window until the game is over. It prints one line of
JSON: its seat, the shots it slid, the game's steps as this window has them, the shots that ran
differently here, and the screenshots (``import``, when installed).

    DISPLAY=:99 python tests/scenes/net_window.py URL CODE X Y OUT_DIR

Every action waits on what the window says it took in (``real_window.Driver``: the pointer where
it was sent, a pawn held, the shot sent, the round-end choice taken), never on a number of
frames; the game's end is what the window shows (the results screen and the host's end).
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
    from real_window import STUCK, Driver, the_pointer

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

    def frame() -> None:
        t0 = time.perf_counter()
        app.step(FRAME)
        time.sleep(max(FRAME - (time.perf_counter() - t0), NAP))

    drive = Driver(frame, title)
    shots: list[str] = []
    slid = 0
    # the window waits on its game; a game that stops moving for STUCK seconds is a stuck one
    moved, progress = time.perf_counter(), None
    while not (isinstance(app.screen, ResultsScreen) and match.over is not None):
        now = (len(match.game.steps), type(app.screen).__name__, match.turn, match.rolling)
        if now != progress:
            moved, progress = time.perf_counter(), now
        if time.perf_counter() > moved + STUCK:
            raise SystemExit(
                f"{seat}: the game stood still for {STUCK:.0f} s ({slid} slid; "
                f"{type(app.screen).__name__}, "
                f"{len(match.game.steps)} steps, {match.state.phase}, turn {match.turn}, "
                f"rolling {match.rolling}, awaiting {match.awaiting}, "
                f"pending {[m['type'] for m in match._pending][:5]}, seats {match.who()})"
            )
        frame()
        scoring = app.screen
        if isinstance(scoring, RoundEndScreen) and (scoring.seat == seat or scoring.scored):
            choosing = scoring.seat == seat
            button = scoring.buttons["accept" if choosing else "continue"]
            drive.click_at(
                *button.rect.center,
                lambda s=scoring, c=choosing: app.screen is not s or (c and s.seat != seat),
                "the round-end button taken",
            )
            continue
        play = app.screen
        if not isinstance(play, PlayScreen) or play._human_turn() != seat:
            continue
        if not (play.lane_shown == 1.0 and play.lane_camera.settled(1.0)):
            continue
        wid = drive.wid()
        lane, view = match.seat(seat), play.lane_view
        across = 0.01 * (slid - 1.5)
        px, py = view.to_screen(*lane.to_world(lane.foul - 0.005, across))
        fx, fy = view.to_screen(*lane.to_world(lane.foul + 0.1, across))
        norm = max(abs(fx - px) + abs(fy - py), 1)
        ux, uy = (fx - px) / norm, (fy - py) / norm
        with the_pointer():  # the other window's program keeps off the pointer meanwhile
            drive.move(px, py)
            drive.press(lambda p=play: p.held is not None, "the pawn held")
            pawn = view.to_screen(*lane.to_world(*play.control.hold))
            for k in (0.25, 0.5):
                pull = PULL_MAX * (0.45 + 0.02 * slid) * k * 2
                drive.move(pawn[0] - ux * pull, pawn[1] - uy * pull)
            meter = play.control.meter  # let go on the meter's next rise at the power meant
            let_go = play.control.pressed_at + (0.45 + 0.02 * slid) * meter.period / 2
            while let_go < time.perf_counter() + 0.05:
                let_go += meter.period
            while time.perf_counter() < let_go:
                app.poll()
                time.sleep(0.001)
            drive.release(
                lambda p=play: p.held is None and (match.awaiting or match.rolling or p is not app.screen
                                                  or p._human_turn() != seat),
                "the shot sent to the host",
            )  # fmt: skip
        slid += 1
        if shutil.which("import") and slid == 1:
            drive.until(lambda: match.rolling or match.results, "the shot rolling here")
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

"""The flick through the whole window at slow frame rates: a scripted swing, its events posted
when a 125 Hz mouse would report them, the window's frames slowed to 60, 30, 15 and 7 frames a
second (each frame's work blocking the input polls as a slow draw does), launches the same pawn
at the same speed within 3 %."""

from __future__ import annotations

import math

import pygame
import pytest

from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.app import POLL, App
from sliders.scenes.controls import FLICK_GAIN, hand_spot
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

from .person import ready

DEVICE = 1 / 125
"""seconds between a mouse's reports"""
SWING = 560.0
"""pixels a second the hand swings the pawn up the lane at"""
TOLERANCE = 0.03


def _events(x0: int, y0: int, t0: float) -> list[tuple[float, int, tuple[int, int]]]:
    """(time, kind, pos): the pointer moving freely to the pawn, the press, a short pause, the
    swing up the screen (speeding up over 40 ms, then steady) and the release while moving."""
    out = []
    for k in range(60):  # free motion toward the pawn, at the device's rate
        t = t0 + k * DEVICE
        out.append((t, pygame.MOUSEMOTION, (x0 - 240 + 4 * k, y0 + 120 - 2 * k)))
    press = t0 + 60 * DEVICE + 0.05
    out.append((press, pygame.MOUSEBUTTONDOWN, (x0, y0)))
    start = press + 0.2
    for k in range(1, 26):
        u = k * DEVICE
        d = SWING * (u - 0.04 * (1 - math.exp(-u / 0.04)))
        out.append((start + u, pygame.MOUSEMOTION, (x0, round(y0 - d))))
    out.append((start + 25 * DEVICE + 0.001, pygame.MOUSEBUTTONUP, out[-1][2]))
    return out


def _swing(fps: float, phase: float = 0.0) -> float:
    """The launch speed (m/s) of the scripted swing with the window's frames at ``fps``, the
    swing begun ``phase`` seconds into a frame."""
    app = App((1280, 800), sound=False, think_budget=None, control="flick")
    try:
        now = [0.0]
        app.clock = lambda: now[0]
        config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1,
                             hand="exact")  # fmt: skip
        match = Match(config)
        screen = PlayScreen(app, match)
        app.show(screen)
        app.step(1 / 60)
        ready(app, screen)
        lane = match.seat("south")
        x0, y0 = screen.lane_view.to_screen(*lane.to_world(*hand_spot(match, "south", 0, 4)))
        frame = 1 / fps
        busy = max(frame - 0.006, 0.0)  # the frame's own work: no polls meanwhile
        now[0] = app.time
        queue = _events(x0, y0, app.time + 0.013 + phase)
        end = queue[-1][0] + 0.5

        def post_until(t: float) -> None:
            while queue and queue[0][0] <= t:
                _, kind, pos = queue.pop(0)
                extra = {"button": 1} if kind != pygame.MOUSEMOTION else {"rel": (0, 0)}
                pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))

        t = now[0]
        while t < end and not match.shots:
            t += busy
            poll = t
            while poll < now[0] + frame:  # the wait for the next frame, polling the input
                post_until(poll)
                app.clock = lambda p=poll: p
                app.poll()
                poll += POLL
            now[0] += frame
            app.clock = lambda: now[0]
            post_until(now[0])
            app.step(frame)
            t = now[0]
        assert match.shots, f"no shot at {fps} frames/s"
        return match.shots[-1].speed
    finally:
        app.close()


@pytest.mark.parametrize("phase", [0.0, 0.047, 0.11])
def test_a_swing_launches_at_the_same_speed_at_any_frame_rate(phase):
    # measured (m/s, the swing meant 0.556 over its last 60 ms), phases 0 / 0.047 / 0.11 s:
    # 60 fps 0.548 / 0.548 / 0.550, 30 fps 0.551 / 0.556 / 0.551,
    # 15 fps 0.553 / 0.543 / 0.551, 7 fps 0.563 / 0.532 / 0.562
    speeds = {fps: _swing(fps, phase) for fps in (60, 30, 15, 7)}
    assert speeds[60] == pytest.approx(SWING * FLICK_GAIN, rel=TOLERANCE)
    for fps, v in speeds.items():
        assert v == pytest.approx(speeds[60], rel=TOLERANCE), (fps, speeds)

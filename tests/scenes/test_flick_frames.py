"""The flick through the whole window at slow frame rates and through stalls: a scripted swing,
its events posted when a 125 Hz mouse would report them, the window's frames slowed to 60, 30,
15 and 7 frames a second (each frame's work blocking the input polls, as a slow draw does), or
a stall of 50-150 ms injected in the middle of the swing. Every single flick, not only their
mean, launches within 3 % of the swing's speed and 1 degree of its direction."""

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
SWING = 600.0
"""pixels a second the hand swings the pawn up the lane at, once up to speed"""
TILT = math.radians(8.0)
"""the swing's direction: this far to the right of straight up the screen"""
STEPS = 36
"""the swing's motion events (0.29 s of motion)"""
SPEED_TOLERANCE = 0.03
ANGLE_TOLERANCE = math.radians(1.0)
FPS = (60, 30, 15, 7)
PHASES = (0.0, 0.013, 0.047, 0.071, 0.11)
STALLS = (0.05, 0.1, 0.15)
STALL_AT = (0.06, 0.15, 0.24)
"""seconds into the swing's motion a stall begins (the last ends after the release)"""


def _events(x0: int, y0: int, t0: float) -> list[tuple[float, int, tuple[int, int]]]:
    """(time, kind, pos): the pointer moving freely to the pawn, the press, a short pause, the
    swing (speeding up over 30 ms, then steady) and the release while moving."""
    out = []
    for k in range(60):  # free motion toward the pawn, at the device's rate
        t = t0 + k * DEVICE
        out.append((t, pygame.MOUSEMOTION, (x0 - 240 + 4 * k, y0 + 120 - 2 * k)))
    press = t0 + 60 * DEVICE + 0.05
    out.append((press, pygame.MOUSEBUTTONDOWN, (x0, y0)))
    start = press + 0.2
    ux, uy = math.sin(TILT), -math.cos(TILT)
    for k in range(1, STEPS + 1):
        u = k * DEVICE
        d = SWING * (u - 0.03 * (1 - math.exp(-u / 0.03)))
        out.append((start + u, pygame.MOUSEMOTION, (round(x0 + ux * d), round(y0 + uy * d))))
    out.append((start + STEPS * DEVICE + 0.001, pygame.MOUSEBUTTONUP, out[-1][2]))
    return out


def flick(
    fps: float, phase: float = 0.0, stall: float = 0.0, stall_at: float = 0.0
) -> tuple[float, float]:
    """(relative speed error, direction error in radians) of the scripted swing's shot, with
    the window's frames at ``fps``, the swing begun ``phase`` seconds into a frame, and (when
    ``stall``) the frame under way ``stall_at`` seconds into the swing's motion lasting
    ``stall`` seconds longer."""
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
        swing_start = queue[61][0] + 0.2
        stall_begins = swing_start + stall_at if stall else math.inf
        end = queue[-1][0] + 0.5

        def post_until(t: float) -> None:
            while queue and queue[0][0] <= t:
                _, kind, pos = queue.pop(0)
                extra = {"button": 1} if kind != pygame.MOUSEMOTION else {"rel": (0, 0)}
                pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))

        t = now[0]
        while t < end and not match.shots:
            t += busy
            if t >= stall_begins:  # this frame's work takes the stall longer
                t += stall
                stall_begins = math.inf
            poll = t
            while poll < now[0] + frame:  # the wait for the next frame, polling the input
                post_until(poll)
                app.clock = lambda p=poll: p
                app.poll()
                poll += POLL
            now[0] = max(now[0] + frame, t)
            app.clock = lambda: now[0]
            post_until(now[0])
            app.step(frame)
            t = now[0]
        assert match.shots, f"no shot at {fps} frames/s"
        shot = match.shots[-1]
        assert shot.pawn == "south-1" and shot.speed > 0.2, shot
        v_along, v_across = lane.vector_from_world(math.sin(TILT), math.cos(TILT))
        meant = math.atan2(v_across, v_along)  # screen up is the world's +y
        return shot.speed / (SWING * FLICK_GAIN) - 1, shot.angle - meant
    finally:
        app.close()


@pytest.mark.parametrize("fps", FPS)
def test_every_flick_launches_true_at_any_frame_rate(fps):
    for phase in PHASES:
        speed, angle = flick(fps, phase)
        assert abs(speed) <= SPEED_TOLERANCE, (fps, phase, speed)
        assert abs(angle) <= ANGLE_TOLERANCE, (fps, phase, math.degrees(angle))


@pytest.mark.parametrize("stall", STALLS)
def test_every_flick_launches_true_through_a_stall(stall):
    for fps in (60, 30):
        for at in STALL_AT:
            for phase in PHASES[:3]:
                speed, angle = flick(fps, phase, stall, at)
                assert abs(speed) <= SPEED_TOLERANCE, (fps, stall, at, phase, speed)
                assert abs(angle) <= ANGLE_TOLERANCE, (fps, stall, at, phase, angle)

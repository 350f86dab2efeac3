"""A synthetic person at the window: slides a pawn through the play screen's own input code, by
pointer events posted at the moments a 125 Hz mouse would report them, the window's input clock
following those moments (the window polls its queue every ``POLL`` seconds between frames, as
:meth:`sliders.scenes.app.App.run` does).

The person means a shot (a speed and a direction, or a moment to let go) and their hand is off
by a draw of human-like motor noise, from a :class:`numpy.random.Generator` they are given:

- a **flick** (:meth:`SyntheticPerson.flick`): the swing's speed off by a relative error and its
  direction by an angle;
- an **aim** (:meth:`SyntheticPerson.aim`): the press, a straight pull back, and the release
  off the moment meant by a time error.

The window turns what the hand did into the shot (nothing else is drawn): ``match.shots[-1]``.
``benchmarks/skill.py`` and the tests measure the skill curve with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from sliders.boards import Seat
from sliders.core.outcome import Shot
from sliders.scenes.app import POLL, App
from sliders.scenes.controls import (
    FLICK_GAIN,
    AimControl,
    hand_spot,
    meter_times,
    pull_power,
)
from sliders.scenes.play import PlayScreen

DEVICE = 1 / 125
"""seconds between a mouse's reports"""
FRAME = 1 / 60
"""seconds a frame"""
SWING_EVENTS = 25
"""reports of the flick's swing, the last of them at full speed (fewer where the swing would
otherwise cross the foul line, down to ``MIN_SWING_EVENTS``)"""
MIN_SWING_EVENTS = 14
MARGIN = 0.005
"""metres behind the foul line the swing is planned to leave the pawn"""
RISE = 0.04
"""seconds the swing takes to come up to speed (an exponential approach)"""
PULL = 100
"""pixels the aim's pull goes back"""

Event = tuple[float, int, tuple[int, int]]


@dataclass
class Attempt:
    """What a synthetic person meant, what their hand did and the shot the window made."""

    meant_speed: float
    meant_angle: float
    """radians, to the shooter's right of straight"""
    error: float
    """the hand's draw: the relative speed error (flick) or the release time error (aim, s)"""
    angle_error: float
    """the hand's draw of the direction (flick, radians; aim: 0)"""
    shot: Shot | None
    """the shot the window released (None: none, e.g. a foul or a pawn put back)"""


class SyntheticPerson:
    """Slides ``seat``'s next pawn on ``screen`` (in ``app``, whose input clock it drives)."""

    def __init__(self, app: App, screen: PlayScreen, seat: str, gain: float = 1.0) -> None:
        self.app, self.screen, self.seat = app, screen, seat
        self.gain = gain
        """how much harder than the speed meant this person swings: learnt from practice
        (one flick without error: the speed meant over the speed the window made), as a person
        learns how hard a flick the window needs"""
        self.now = app.time
        app.clock = self._clock

    def _clock(self) -> float:
        return self.now

    # -- time --------------------------------------------------------------------------------------

    def run(self, events: list[Event], until: Callable[[], bool] | None = None) -> None:
        """Post ``events`` at their times, polling every ``POLL`` s and making a frame every
        ``FRAME`` s, until they are all posted and a frame has followed the last (or ``until``
        says so)."""
        queue = sorted(events, key=lambda e: e[0])
        end = (queue[-1][0] if queue else self.now) + 2 * FRAME
        next_frame = self.now + FRAME
        while self.now < end:
            while queue and queue[0][0] <= self.now:
                _, kind, pos = queue.pop(0)
                extra: dict[str, Any] = (
                    {"button": 1} if kind != pygame.MOUSEMOTION else {"rel": (0, 0)}
                )
                if kind == pygame.MOUSEMOTION and self.screen.control.engaged:
                    extra["buttons"] = (1, 0, 0)
                pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))
            if self.now >= next_frame - 1e-9:
                self.app.step(FRAME, draw=False)
                next_frame += FRAME
                if until is not None and until():
                    return
            else:
                self.app.poll()
            self.now += POLL

    def wait(self, seconds: float) -> None:
        self.run([(self.now + seconds, pygame.NOEVENT, (0, 0))])

    def ready(self, limit: float = 10.0) -> None:
        """Frames until the lane pane is in and still (a press before that is ignored)."""
        s = self.screen
        start = self.now
        while not (s.lane_shown == 1.0 and s.lane_camera.settled(1.0)):
            self.run([], until=lambda: True)
            if self.now - start > limit:
                raise RuntimeError("the lane pane never came to rest")

    # -- geometry ------------------------------------------------------------------------------------

    def screen_at(self, along: float, across: float) -> tuple[float, float]:
        lane = self.screen.match.seat(self.seat)
        return self.screen.lane_view.to_screen(*lane.to_world(along, across))

    def metres_per_pixel(self) -> float:
        a = self.screen_at(0.0, 0.0)
        b = self.screen_at(0.1, 0.0)
        return 0.1 / math.hypot(b[0] - a[0], b[1] - a[1])

    def heading(self, angle: float) -> tuple[float, float]:
        """The unit vector on screen pointing down the lane turned ``angle`` (radians) to the
        shooter's right."""
        o = self.screen_at(0.0, 0.0)
        a = self.screen_at(0.1 * math.cos(angle), 0.1 * math.sin(angle))
        d = math.hypot(a[0] - o[0], a[1] - o[1])
        return (a[0] - o[0]) / d, (a[1] - o[1]) / d

    def needed_speed(self, along: float, across: float, target: tuple[float, float]) -> float:
        """The speed that stops a lone pawn released at (along, across) on ``target`` (world)."""
        m = self.screen.match
        x, y = m.seat(self.seat).to_world(along, across)
        distance = math.hypot(target[0] - x, target[1] - y)
        return m.limits(self.seat).clip_speed(math.sqrt(2 * m.params.deceleration * distance))

    # -- the flick -----------------------------------------------------------------------------------

    def flick(self, target: tuple[float, float], speed_error: float, angle_error: float) -> Attempt:
        """Swing the next pawn from the middle of the lane straight at ``target`` (world) at the
        speed that stops it there, the swing ``speed_error`` (relative) too hard and
        ``angle_error`` (radians, to the right) off."""
        self.ready()
        m = self.screen.match
        lane = m.seat(self.seat)
        hand = m.state.player(self.seat).in_hand
        a0, c0 = hand_spot(m, self.seat, 0, len(hand))
        grab = self.screen_at(a0, c0)
        t = self.now + 0.01
        events: list[Event] = []
        for k in range(40):  # the pointer moving freely to the pawn
            u = (k + 1) / 40
            pos = (grab[0] - 160 * (1 - u), grab[1] + 80 * (1 - u))
            events.append((t + k * DEVICE, pygame.MOUSEMOTION, _px(pos)))
        t += 40 * DEVICE + 0.05
        events.append((t, pygame.MOUSEBUTTONDOWN, _px(grab)))
        # the swing: planned to leave the pawn ``MARGIN`` behind the foul line (the pawn follows
        # the pointer once it is on the lane; begun behind the hand where the lane is short);
        # cut short where a harder swing than planned would cross the line
        mpp = self.metres_per_pixel()
        along = begin = a0
        speed, events_n = 0.0, SWING_EVENTS
        for _ in range(5):
            speed = self.needed_speed(along, 0.0, target)
            planned = speed * self.gain / FLICK_GAIN * _travel(SWING_EVENTS * DEVICE) * mpp
            begin = lane.foul - MARGIN - planned  # behind the hand: the pawn waits for it
            along = m.clamp_hold(self.seat, begin + planned, 0.0)[0]
        hand_speed = speed * self.gain * (1 + speed_error) / FLICK_GAIN  # pixels a second
        while events_n > MIN_SWING_EVENTS and (
            begin + hand_speed * _travel(events_n * DEVICE) * mpp > lane.foul - 0.002
        ):
            events_n -= 1
        start = self.screen_at(begin, 0.0)
        for k in range(1, 49):  # carried to the middle of the lane, where the swing begins
            u = k / 48
            pos = (grab[0] + (start[0] - grab[0]) * u, grab[1] + (start[1] - grab[1]) * u)
            events.append((t + k * DEVICE, pygame.MOUSEMOTION, _px(pos)))
        t += 48 * DEVICE + 0.2  # held still, then the swing
        angle = _angle_to(lane, along, target)
        duration = events_n * DEVICE
        dx, dy = self.heading(angle + angle_error)
        last = start
        for k in range(1, events_n + 1):
            u = k * DEVICE
            d = hand_speed * (u - RISE * (1 - math.exp(-u / RISE)))
            last = (start[0] + dx * d, start[1] + dy * d)
            events.append((t + u, pygame.MOUSEMOTION, _px(last)))
        events.append((t + duration + 0.001, pygame.MOUSEBUTTONUP, _px(last)))
        before = len(m.shots)
        self.run(events)
        shot = m.shots[-1] if len(m.shots) > before else None
        return Attempt(speed, angle, speed_error, angle_error, shot)

    # -- the aim and its meter -----------------------------------------------------------------------

    def aim(self, target: tuple[float, float], time_error: float) -> Attempt:
        """Press in the middle of the lane at the foul line, pull straight back from ``target``
        (world), and let go ``time_error`` seconds off the moment the meter's marker, on its
        second rise, gives the power that stops the pawn on ``target``."""
        self.ready()
        control = self.screen.control
        assert isinstance(control, AimControl), "the window's control is not aim"
        m = self.screen.match
        lane = m.seat(self.seat)
        press = self.screen_at(lane.foul - 0.004, 0.0)
        t = self.now + 0.01
        events: list[Event] = [(t, pygame.MOUSEBUTTONDOWN, _px(press))]
        angle = _angle_to(lane, lane.foul, target)
        dx, dy = self.heading(angle)
        back = press
        for k in range(1, 13):  # the pull back, over about 0.1 s
            back = (press[0] - dx * PULL * k / 12, press[1] - dy * PULL * k / 12)
            events.append((t + k * DEVICE, pygame.MOUSEMOTION, _px(back)))
        speed = self.needed_speed(lane.foul, 0.0, target)
        power = pull_power(m, self.seat, speed)
        rise, _ = meter_times(control.meter.period, power)
        moment = control.meter.period + rise  # the second rise: time to aim first
        events.append((t + moment + time_error, pygame.MOUSEBUTTONUP, _px(back)))
        before = len(m.shots)
        self.run(events)
        shot = m.shots[-1] if len(m.shots) > before else None
        return Attempt(speed, angle, time_error, 0.0, shot)


def _travel(duration: float) -> float:
    """How far (in units of the swing's full speed times a second) a swing of ``duration``
    seconds goes, coming up to speed over ``RISE``."""
    return duration - RISE * (1 - math.exp(-duration / RISE))


def _angle_to(lane: Seat, along: float, target: tuple[float, float]) -> float:
    """The angle (radians, to the shooter's right) from (along, 0) of ``lane`` to ``target``."""
    a, c = lane.from_world(*target)
    return math.atan2(c, a - along)


def _px(pos: tuple[float, float]) -> tuple[int, int]:
    return round(pos[0]), round(pos[1])

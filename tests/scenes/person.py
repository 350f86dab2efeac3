"""A person at the window, scripted: slides by posted mouse events through either control.

Every frame is ``App.step(FRAME)``; the app's input clock is its stepped clock, so a slide is
the same every run.
"""

from __future__ import annotations

import math

import pygame

from sliders.scenes.app import App
from sliders.scenes.controls import FLICK_GAIN, PULL_MAX, hand_spot, meter_times, pull_power
from sliders.scenes.hand import fit_velocity
from sliders.scenes.play import PlayScreen

FRAME = 1 / 60


def needed_speed(screen: PlayScreen, distance: float) -> float:
    """The release speed that stops a lone pawn ``distance`` metres away (the physics'
    closed-form stopping distance, inverted by bisection)."""
    p = screen.match.params
    lo, hi = 0.0, p.max_speed
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if p.stopping_distance(mid) < distance else (lo, mid)
    return (lo + hi) / 2


def ready(app: App, screen: PlayScreen, frames: int = 600) -> None:
    """Step until the lane pane is in and still (a press before that is ignored)."""
    for _ in range(frames):
        if screen.lane_shown == 1.0 and screen.lane_camera.settled(1.0):
            return
        app.step(FRAME, draw=False)
    raise AssertionError("the lane pane never came to rest")


def post(kind: int, pos: tuple[float, float], **kw) -> None:
    pygame.event.post(pygame.event.Event(kind, pos=(round(pos[0]), round(pos[1])), **kw))


def slide_to(
    app: App, screen: PlayScreen, seat: str, target: tuple[float, float], across: float
) -> None:
    """Slide ``seat``'s next pawn from ``across`` on its lane so that it stops at ``target``
    (world, m), with the app's control: released where the control releases, aimed at the
    target, at the speed that stops there."""
    m = screen.match
    lane = m.seat(seat)
    r = m.params.pawn_radius
    along = lane.foul if app.control == "aim" else lane.release_min + r
    start = lane.to_world(along, across)
    dx, dy = target[0] - start[0], target[1] - start[1]
    distance = math.hypot(dx, dy)
    speed = needed_speed(screen, distance)
    ux, uy = dx / distance, dy / distance  # world, +y up
    if app.control == "aim":
        _aim(app, screen, seat, lane.to_world(lane.foul - 0.005, across), (ux, uy), speed)
    else:
        _flick(app, screen, seat, across, (ux, uy), speed)


def _aim(app, screen, seat, press, direction, speed) -> None:
    """Press, pull back along ``direction``, let go when the meter gives ``speed``: the input
    clock is the frames' own, so the moment is exact to a frame."""
    ready(app, screen)
    now, clock = [app.time], app.clock
    app.clock = lambda: now[0]

    def frame() -> None:
        app.step(FRAME)
        now[0] += FRAME

    view = screen.lane_view
    post(pygame.MOUSEBUTTONDOWN, view.to_screen(*press), button=1)
    frame()
    assert screen.held is not None, "the press took no pawn"
    control = screen.control
    lane = screen.match.seat(seat)
    ax, ay = view.to_screen(*lane.to_world(*control.hold))
    to = (ax - direction[0] * PULL_MAX / 2, ay + direction[1] * PULL_MAX / 2)
    post(pygame.MOUSEMOTION, to, rel=(0, 0), buttons=(1, 0, 0))
    frame()
    rise, _ = meter_times(control.meter.period, pull_power(screen.match, seat, speed))
    let_go = control.pressed_at + control.meter.period + rise
    while now[0] + FRAME <= let_go:
        frame()
    now[0] = let_go  # the release pulled at the very moment
    post(pygame.MOUSEBUTTONUP, to, button=1)
    app.step(FRAME)
    app.clock = clock


def _flick(app, screen, seat, across, direction, speed) -> None:
    ready(app, screen)
    m, view = screen.match, screen.lane_view
    lane = m.seat(seat)
    hand = m.state.player(seat).in_hand
    a0, c0 = hand_spot(m, seat, 0, len(hand))
    post(pygame.MOUSEBUTTONDOWN, view.to_screen(*lane.to_world(a0, c0)), button=1)
    app.step(FRAME)
    assert screen.held == hand[0], "the press took no pawn"
    for k in range(1, 13):  # carry it slowly across the lane, behind its start
        c = c0 + (across - c0) * k / 12
        post(
            pygame.MOUSEMOTION, view.to_screen(*lane.to_world(a0, c)), rel=(0, 0), buttons=(1, 0, 0)
        )
        app.step(FRAME)
    for _ in range(10):  # hold still
        app.step(FRAME)
    x0, y0 = view.to_screen(*lane.to_world(a0, across))
    px_speed = speed / FLICK_GAIN
    frames = 6
    # the pointer moves by whole pixels: start the flick a fraction of a pixel along so that the
    # pixels it passes give the hand (a line fitted to them) the speed meant, as a person
    # adjusts a flick (on the longest lanes 1 % of speed is 3 cm of travel)
    lead = min(
        (k / 16 for k in range(16)),
        key=lambda f: abs(_fitted(x0, y0, direction, px_speed, frames, f) - px_speed),
    )
    for k in range(1, frames + 1):  # the flick, on screen at the hand's speed
        d = px_speed * FRAME * k + lead
        pos = (x0 + direction[0] * d, y0 - direction[1] * d)
        post(pygame.MOUSEMOTION, pos, rel=(0, 0), buttons=(1, 0, 0))
        if k == frames:
            post(pygame.MOUSEBUTTONUP, pos, button=1)
        app.step(FRAME)


def _fitted(x0, y0, direction, px_speed, frames, lead) -> float:
    """The speed (pixels a second) the hand fits to a flick's whole-pixel positions."""
    samples = [(0.0, float(round(x0)), float(round(y0)))]
    for k in range(1, frames + 1):
        d = px_speed * FRAME * k + lead
        samples.append(
            (k * FRAME, float(round(x0 + direction[0] * d)), float(round(y0 - direction[1] * d)))
        )
    vx, vy = fit_velocity(samples)
    return math.hypot(vx, vy)

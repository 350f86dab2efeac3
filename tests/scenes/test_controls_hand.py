"""The hand sampler alone: one scripted hand motion, pulled from the queue at different frame
rates and through a stall, gives the same release velocity."""

from __future__ import annotations

import math

import pytest

from sliders.scenes.hand import Hand, fit_velocity, stamps

DEVICE = 1 / 125  # a mouse reporting at 125 Hz
TOLERANCE = 0.02  # measured worst: 0.8 % (30 fps, a 200 ms stall in the middle)
RELEASE = 0.60  # the hand lets go 0.6 s after taking the pawn


def _path(t: float) -> tuple[float, float]:
    """A flick: still for 0.1 s, then a smooth speed-up to 900 px/s up and a little right."""
    u = max(t - 0.1, 0.0)
    s = 900 * (u - 0.08 * (1 - math.exp(-u / 0.08)))  # speed 900 (1 - e^(-u/0.08))
    return 300 + 0.2 * s, 700 - s


def _speed_at(t: float) -> float:
    u = max(t - 0.1, 0.0)
    return 900 * (1 - math.exp(-u / 0.08)) * math.hypot(1, 0.2)


def _flick(frame_times: list[float]) -> tuple[float, float]:
    """The release velocity the hand measures when the window pulls events at ``frame_times``."""
    events = []  # the device reports every DEVICE seconds, when the pointer's pixel changes
    last = tuple(round(v) for v in _path(0.0))
    for k in range(1, round(RELEASE / DEVICE) + 1):
        here = tuple(round(v) for v in _path(k * DEVICE))
        if here != last:
            events.append((k * DEVICE, *here))
            last = here
    hand = Hand()
    hand.begin(0.0, *_path(0.0))
    queue = list(events)
    for t in frame_times:
        if t > RELEASE:
            x, y = _path(RELEASE)
            while queue:
                hand.add(t, *queue.pop(0)[1:])
            return hand.release(t, round(x), round(y))
        hand.pulled(t)
        while queue and queue[0][0] <= t:
            _, x, y = queue.pop(0)
            hand.add(t, x, y)
    raise AssertionError("the frames end before the release")


def _frames(fps: float, stall_at: float | None = None, stall: float = 0.2) -> list[float]:
    out, t = [], 0.0
    while t < RELEASE + 0.5:
        t += 1 / fps
        if stall_at is not None and stall_at <= t < stall_at + 1 / fps:
            t += stall
        out.append(t)
    return out


@pytest.mark.parametrize("stall_at", [None, 0.15, 0.3])
def test_the_same_hand_gives_the_same_release_speed_at_any_frame_rate(stall_at):
    speeds = {}
    for fps in (30, 60, 144):
        vx, vy = _flick(_frames(fps, stall_at))
        speeds[fps] = math.hypot(vx, vy)
        assert vy < 0 and abs(vx / vy + 0.2) < 0.03, "the direction is the hand's"
    ref = _flick(_frames(1000))
    ref_speed = math.hypot(*ref)
    for fps, v in speeds.items():
        assert v == pytest.approx(ref_speed, rel=TOLERANCE), (fps, stall_at, speeds)
    # and the fit stands for the hand's speed over the last few hundredths of a second
    assert _speed_at(RELEASE - 0.03) * 0.98 < ref_speed < _speed_at(RELEASE) * 1.01


@pytest.mark.parametrize("fps", [30, 60, 144])
def test_a_stall_at_the_release_loses_no_flick(fps):
    # every event of the last 200 ms, the release included, is pulled in one burst
    v = math.hypot(*_flick(_frames(fps, stall_at=0.45)))
    # the last 150 ms of motion arrive in one burst with the release: measured worst 2.0 %
    assert v == pytest.approx(math.hypot(*_flick(_frames(1000))), rel=0.03)


def test_a_hand_that_stops_before_letting_go_slides_nothing():
    hand = Hand()
    hand.begin(0.0, 0, 0)
    for k in range(1, 20):
        hand.add(k / 60, 0, -10 * k)
    for k in range(20, 40):
        hand.pulled(k / 60)  # the hand holds still for a third of a second
    assert hand.release(40 / 60, 0, -190) == (0.0, 0.0)


def test_one_stray_last_sample_is_dropped_from_the_fit():
    samples = [(k * 0.008, 0.0, -8.0 * k) for k in range(10)]  # 1000 px/s up
    clean = fit_velocity(samples)
    samples.append((samples[-1][0] + 0.0005, 0.0, -8.0 * 9 - 40))  # a doubled, jumped event
    assert fit_velocity(samples) == pytest.approx(clean)
    assert clean[1] == pytest.approx(-1000)


def test_a_batch_is_spread_back_at_the_device_rate_not_over_the_whole_stall():
    steady = [k / 100 for k in range(1, 31)]  # one event a frame at 100 Hz
    burst = [0.5] * 5  # five events pulled after a 0.2 s stall
    times = stamps(steady + burst)
    assert times[-5:] == pytest.approx([0.31, 0.32, 0.33, 0.34, 0.35])
    assert times[:30] == pytest.approx(steady)


def _burst(fps: int, hover: bool) -> float:
    """A scripted swing as a test driver sends it: the pawn taken, a pause, then 14 steps of
    7 px every 10 ms (700 px/s) and the release; before it, free motion at the same rate if
    ``hover``. The speed measured when the window pulls at ``fps``."""
    free = [(0.01 * k, 100 + 3 * k, 100 + 4 * k) for k in range(100)] if hover else []
    swing = [(1.6 + 0.01 * k, 443, 689 - 7 * k) for k in range(1, 15)]
    hand = Hand()
    frames = [k / fps for k in range(1, round(3 * fps))]
    queue = [("free", *e) for e in free] + [("take", 1.3, 443, 689)] + [("path", *e) for e in swing]
    for t in frames:
        if t > swing[-1][0]:
            for _kind, _, x, y in queue:
                hand.add(t, x, y)
            return math.hypot(*hand.release(t, *swing[-1][1:]))
        hand.pulled(t)
        while queue and queue[0][1] <= t:
            kind, _, x, y = queue.pop(0)
            {"free": hand.observe, "take": hand.begin, "path": hand.add}[kind](t, x, y)
    raise AssertionError("no release")


@pytest.mark.parametrize("fps", [30, 60, 144])
def test_a_short_scripted_swing_is_measured_at_its_own_rate(fps):
    assert _burst(fps, hover=True) == pytest.approx(700, rel=TOLERANCE)
    assert _burst(fps, hover=False) == pytest.approx(700, rel=0.05)  # no free motion seen


def _slow_pulls(fps: float, lag: float, told: bool, phase: float) -> float:
    """A flick as a person makes one, read by a window on a busy machine: free motion toward
    the pawn (60 reports at 125 Hz), a last move onto it and, 50 ms later, the press; 0.2 s
    later a swing of 36 reports at 600 px/s up, and the release. The window pulls the queue at
    ``fps`` frames a second; each pull reads the queue as it begins and the clock ``lag``
    seconds later, so a report that came in meanwhile is read by the next pull although it
    happened before this one's time. ``told``: the hand is told when each pull began. The
    speed measured."""
    free = [(phase + k * DEVICE, 700.0 - 4 * k, 500.0 + 2 * k) for k in range(60)]
    press = free[-1][0] + 0.058
    swing = [(press + 0.2 + k * DEVICE, 460.0, 620.0 - 600 * k * DEVICE) for k in range(1, 37)]
    queue = [("free", *e) for e in free] + [("free", press - 0.05, 460.0, 620.0)]
    queue += [("take", press, 460.0, 620.0)] + [("path", *e) for e in swing]
    hand = Hand()
    begins = [k / fps for k in range(1, round(3 * fps))]
    for began in begins:
        t = began + lag
        if began > swing[-1][0] + 0.001:
            rest = [e for e in queue if e[1] <= began]
            for _kind, _, x, y in rest:
                hand.add(t, x, y)
            return math.hypot(*hand.release(t, *swing[-1][1:]))
        hand.pulled(t, began if told else None)
        while queue and queue[0][1] <= began:  # read as the pull began
            kind, _, x, y = queue.pop(0)
            {"free": hand.observe, "take": hand.begin, "path": hand.add}[kind](t, x, y)
    raise AssertionError("no release")


@pytest.mark.parametrize("fps", [7, 15, 30])
def test_a_pull_that_read_the_clock_late_does_not_bend_the_device_rate(fps):
    worst = max(abs(_slow_pulls(fps, 0.004, True, p / 10) / 600 - 1) for p in range(10))
    assert worst < 0.03  # measured: 2.3 % at 7 frames/s, 1.0 % at 15, 0.4 % at 30

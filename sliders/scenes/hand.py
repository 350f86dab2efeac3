"""The hand, measured: pointer samples with the time they happened and the velocity they show.

pygame-ce (2.5) does not pass SDL's event timestamps on, and SDL 2 stamps an event when the
queue is pumped anyway, so the window stamps each event with a high-resolution clock when it
pulls it from the queue (:class:`Hand` ``add(t_pulled, x, y)``). Events pulled together (one
frame's worth, or a burst after a stall) carry one pull time; :func:`stamps` spreads each such
batch back over the time since the previous pull at the device's own event rate, so the times
follow the hand, not the frame. :func:`fit_velocity` is a least-squares line through the samples
of the last ``window`` seconds, refitted without a last sample that sits far off the line (a
late or doubled event), so one stray sample does not spoil the speed.

Everything here is plain arithmetic on numbers: no pygame, testable on its own.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

WINDOW = 0.06
"""seconds of pointer motion the release velocity is fitted over"""
MIN_SAMPLES = 3
"""fewer samples than this in the window: widen it to the last this many"""
OUTLIER = 3.0
"""a last sample further than this many RMS residuals off the line (and 2 px) is dropped"""
RATE_SPAN = 0.4
"""seconds of pulls (the last ones) the device's event rate is estimated over"""
MIN_RATE_EVENTS = 8
"""events needed before the device's rate is taken as known"""

Sample = tuple[float, float, float]  # (t_pulled, x, y)


@dataclass
class Hand:
    """The pointer's path since the pawn was taken: positions and the times they were pulled.

    ``add`` takes each pointer position with the clock reading at which the window pulled its
    event from the queue; ``pulled`` records a pull that brought no motion (so a still hand is
    seen to be still); ``velocity`` is the pointer's velocity at the last sample, in the
    positions' units per second.
    """

    window: float = WINDOW
    samples: list[Sample] = field(default_factory=list)
    pulls: list[float] = field(default_factory=list)

    def clear(self) -> None:
        self.samples.clear()
        self.pulls.clear()

    def begin(self, t: float, x: float, y: float) -> None:
        """The pawn is taken at (x, y), its event pulled at ``t``."""
        self.clear()
        self.add(t, x, y)

    def add(self, t: float, x: float, y: float) -> None:
        self.pulled(t)
        self.samples.append((t, x, y))
        del self.samples[:-256]

    def pulled(self, t: float) -> None:
        """The window pulled the queue at ``t`` (with or without motion in it)."""
        if not self.pulls or t > self.pulls[-1]:
            self.pulls.append(t)
            del self.pulls[:-512]

    def timed(self) -> list[Sample]:
        """The samples with the times they are taken to have happened (see :func:`stamps`)."""
        times = stamps([s[0] for s in self.samples], self.pulls)
        return [(t, x, y) for t, (_, x, y) in zip(times, self.samples, strict=True)]

    def velocity(self) -> tuple[float, float]:
        """The pointer's velocity at its last sample."""
        return fit_velocity(self.timed(), self.window)

    def release(self, t: float, x: float, y: float) -> tuple[float, float]:
        """The velocity the hand let go with, the button's release pulled at ``t`` at (x, y).

        A release where the pointer last was only tells when the hand let go: if that was more
        than ``window`` after the last motion, the hand had stopped (velocity 0); else the
        motion's velocity stands. A release elsewhere is one more sample of the motion.
        """
        if not self.samples:
            return 0.0, 0.0
        _, lx, ly = self.samples[-1]
        still = math.hypot(x - lx, y - ly) < 0.5
        self.add(t, x, y)
        timed = self.timed()
        if still:
            t_up = timed.pop()[0]
            self.samples.pop()
            if len(timed) < 2 or t_up - timed[-1][0] > self.window:
                return 0.0, 0.0
        return fit_velocity(timed, self.window)


def stamps(pulled: Sequence[float], pulls: Sequence[float] = ()) -> list[float]:
    """When each sample happened, given when it was pulled (non-decreasing) and every time the
    queue was pulled (``pulls``, with or without motion).

    A sample pulled at ``t`` happened after the pull before ``t`` and no later than ``t``. Within
    that interval it is placed one device interval after the sample before it (a mouse reports
    at a steady rate while it moves, see :func:`device_rate`), so a batch that waited in the
    queue (a slow frame, a stall) covers the time it took the hand, not one instant, and a
    sample pulled a frame late is not taken for a slow hand. Before the rate is known a batch
    is spread evenly over its interval.
    """
    pull_times = sorted(set(pulls) | set(pulled))
    settled = [t for t in pulled if t < pulled[-1]] if pulled else []
    rate = device_rate([t for t in settled if t >= settled[-1] - RATE_SPAN]) if settled else 0.0
    out: list[float] = []
    i = 0
    while i < len(pulled):
        t = pulled[i]
        j = i
        while j < len(pulled) and pulled[j] == t:
            j += 1
        k = j - i
        before = bisect_left(pull_times, t)
        lo = pull_times[before - 1] if before > 0 else t
        for n in range(k):
            if rate > 0 and out:
                guess = out[-1] + 1.0 / rate
            else:
                guess = lo + (n + 1) * (t - lo) / k
            out.append(min(max(guess, lo), t))
        i = j
    return out


def device_rate(pulled: Sequence[float]) -> float:
    """The pointer's events a second, from when they were pulled: for each pull, the events
    pulled after it over the time from it to the last pull, averaged over the pulls that leave
    at least ``MIN_RATE_EVENTS`` events after them (so the phase of the frames against the
    device's reports averages out). 0 when there are too few events to say."""
    if not pulled:
        return 0.0
    last = pulled[-1]
    rates = []
    i = 0
    while i < len(pulled):
        first = pulled[i]
        while i < len(pulled) and pulled[i] == first:
            i += 1
        n = len(pulled) - i
        if n < MIN_RATE_EVENTS or last <= first:
            break
        rates.append(n / (last - first))
    return sum(rates) / len(rates) if rates else 0.0


def fit_velocity(samples: Sequence[Sample], window: float = WINDOW) -> tuple[float, float]:
    """The velocity at the last sample: the slope of a least-squares line through (t, x) and
    (t, y) over the last ``window`` seconds (at least ``MIN_SAMPLES`` samples), without the last
    sample when it lies far off the line the others make. (0, 0) when there is no motion to fit.
    """
    if len(samples) < 2:
        return 0.0, 0.0
    t_end = samples[-1][0]
    chosen = [s for s in samples if t_end - s[0] <= window + 1e-9]
    if len(chosen) < MIN_SAMPLES:
        chosen = list(samples[-MIN_SAMPLES:])
    fit = _line(chosen)
    if fit is None:
        return 0.0, 0.0
    if len(chosen) >= MIN_SAMPLES + 1:
        rest = _line(chosen[:-1])
        if rest is not None and _stray(chosen, rest):
            return rest[0], rest[1]
    return fit[0], fit[1]


def _line(samples: Sequence[Sample]) -> tuple[float, float, float, float, float] | None:
    """(vx, vy, x0, y0, t0): slopes and values at the mean time of a least-squares fit."""
    n = len(samples)
    t0 = sum(s[0] for s in samples) / n
    x0 = sum(s[1] for s in samples) / n
    y0 = sum(s[2] for s in samples) / n
    stt = sum((s[0] - t0) ** 2 for s in samples)
    if stt <= 1e-12:
        return None
    vx = sum((s[0] - t0) * (s[1] - x0) for s in samples) / stt
    vy = sum((s[0] - t0) * (s[2] - y0) for s in samples) / stt
    return vx, vy, x0, y0, t0


def _stray(samples: Sequence[Sample], fit: tuple[float, float, float, float, float]) -> bool:
    """True when the last sample is far off ``fit`` (a line through the ones before it)."""
    vx, vy, x0, y0, t0 = fit

    def off(s: Sample) -> float:
        return math.hypot(s[1] - (x0 + vx * (s[0] - t0)), s[2] - (y0 + vy * (s[0] - t0)))

    before = [off(s) for s in samples[:-1]]
    rms = math.sqrt(sum(d * d for d in before) / len(before))
    last = off(samples[-1])
    return last > 2.0 and last > OUTLIER * max(rms, 0.5)

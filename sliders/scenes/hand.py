"""The hand, measured: pointer samples with the time they happened and the velocity they show.

pygame-ce (2.5) does not pass SDL's event timestamps on, and SDL 2 stamps an event when the
queue is pumped anyway, so the window stamps each event with a high-resolution clock when it
pulls it from the queue (:class:`Hand`). Events pulled together (one frame's worth, or a burst
after a stall) carry one pull time; what is known of each is that it happened after the pull
before began and no later than its own ended (a pull takes time: on a busy machine the window
may wait for a core between reading the queue and reading the clock, and an event that came in
meanwhile is read by the next pull although it happened before this one's clock reading). A pointer device reports at a steady rate while it moves
(learnt from every stretch of the pointer's motion by what those bounds allow,
:func:`session_rate`), so the last stretch of steady motion is timed at that rate, with the phase
the most of its bounds allow (:func:`steady_times`: an event the system delivered late is
outvoted, not taken for a change of rate); earlier samples are chained at the device's interval within their
bounds (:func:`stamps`). The times then follow the hand, not the frame.

:func:`fit_velocity` is a least-squares line through the samples of the last ``window`` seconds,
refitted without a last sample that sits far off the line (a late or doubled event), so one stray
sample does not spoil the speed. Everything here is plain arithmetic on numbers: no pygame,
testable on its own.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

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
MIN_RATE_TIME = 0.12
"""seconds of steady motion needed before the device's rate is learnt from it"""
MIN_STEP = 2.0
"""pixels an event, at least, for motion to count as steady (slower, a mouse skips reports)"""
MAX_GAP = 0.05
"""seconds between pulls with events, at most, within one stretch of steady motion"""
STEADY_RATES = (40.0, 2000.0)
"""events a second a pointer device may report at (the range a steady rate is sought in)"""
WELL_TIMED = 1.3
"""the pulls tell a steady rate when the rates they allow are within this factor"""
MAX_STALL = 0.3
"""seconds between pulls with motion, at most, that a slow frame may account for"""
QUIET = 0.02
"""seconds of empty pulls that tell the pointer stopped reporting (it moved no more)"""
RUN_MAX = 48
"""samples, at most, in the stretch of steady motion timed together"""
SILENCE = 3.0
"""device intervals without an event, seen by the polls, that break a stretch of steady motion
(the hand paused)"""
HISTORY = 1024
"""motion events kept for learning the device's rate"""

Sample = tuple[float, float, float]  # (t_pulled, x, y)


@dataclass
class Hand:
    """The pointer as the window saw it: every motion event with the time its batch was pulled,
    every pull, and the path since the pawn was taken (``begin``).

    ``add`` takes a pointer position of the held pawn's path, ``observe`` one of the pointer
    moving freely (it teaches the device's event rate, see :func:`session_rate`), each with the
    clock reading at which the window pulled its event from the queue; ``pulled`` records every
    pull, with or without motion (so a still hand is seen to be still). ``velocity`` and
    ``release`` give the pointer's velocity in the positions' units per second.
    """

    window: float = WINDOW
    samples: list[Sample] = field(default_factory=list)
    pulls: list[float] = field(default_factory=list)
    history: list[Sample] = field(default_factory=list)
    presses: list[float] = field(default_factory=list)
    """when pawns were taken (a hand pauses to press: the motion before is another stretch)"""
    began: dict[float, float] = field(default_factory=dict)
    """when each pull (by its time) began: an event it did not bring happened after that"""

    def clear(self) -> None:
        """Forget the path (the device's rate learnt so far stays)."""
        self.samples.clear()

    def begin(self, t: float, x: float, y: float) -> None:
        """The pawn is taken at (x, y), its event pulled at ``t``."""
        self.clear()
        self.presses.append(t)
        del self.presses[:-HISTORY]
        self.add(t, x, y)

    def add(self, t: float, x: float, y: float) -> None:
        self.observe(t, x, y)
        self.samples.append((t, x, y))
        del self.samples[:-HISTORY]

    def observe(self, t: float, x: float, y: float) -> None:
        """A motion event of the pointer, pulled at ``t``."""
        self.pulled(t)
        self.history.append((t, x, y))
        del self.history[:-HISTORY]

    def pulled(self, t: float, began: float | None = None) -> None:
        """The window pulled the queue at ``t`` (with or without motion in it), having begun to
        at ``began`` (default ``t``)."""
        if began is not None and began < t:
            self.began[t] = began
        if not self.pulls or t > self.pulls[-1]:
            self.pulls.append(t)
        else:  # a poll told after the events it came before
            i = bisect_left(self.pulls, t)
            if self.pulls[i] != t:
                self.pulls.insert(i, t)
        if len(self.pulls) > 3 * HISTORY:
            del self.pulls[: -2 * HISTORY]
            self.began = {k: v for k, v in self.began.items() if k >= self.pulls[0]}

    def rate(self) -> float:
        """The device's events a second, from the free motion seen so far and the path (0: not
        known yet)."""
        done = [s for s in self.history if s[0] < self.history[-1][0]] if self.history else []
        return session_rate(done, self.pulls, self.presses, self.began)

    def timed(self) -> list[Sample]:
        """The path with the times its samples are taken to have happened: the last stretch of
        steady motion fitted to every pull (:func:`steady_times`), the samples before it
        chained (:func:`stamps`)."""
        rate = self.rate()
        times = stamps([s[0] for s in self.samples], self.pulls, rate, self.began)
        fitted = steady_times(self.samples, self.pulls, rate, self.began)
        times[len(times) - len(fitted) :] = fitted
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
        if still:
            timed = self.timed()
            earlier = [p for p in self.pulls if p < t]
            t_up = max(earlier[-1] if earlier else t, timed[-1][0])  # the earliest it can be
            if len(timed) < 2 or t_up - timed[-1][0] > self.window:
                return 0.0, 0.0
            return fit_velocity(timed, self.window)
        self.add(t, x, y)
        return fit_velocity(self.timed(), self.window)


_NONE: Mapping[float, float] = MappingProxyType({})


def _after(
    pull_times: Sequence[float], t: float, began: Mapping[float, float], first: float
) -> float:
    """The earliest an event pulled at ``t`` happened: when the pull before it began (``first``
    when there was none)."""
    before = bisect_left(pull_times, t)
    if before == 0:
        return first
    p = pull_times[before - 1]
    return began.get(p, p)


def session_rate(
    history: Sequence[Sample],
    pulls: Sequence[float] = (),
    presses: Sequence[float] = (),
    began: Mapping[float, float] = _NONE,
) -> float:
    """The pointer device's events a second, from motion events with their pull times, every
    pull of the queue (``pulls``, with or without events, and when each ``began``) and when a
    button was pressed (``presses``: a stretch of motion ends there).

    Only stretches of steady motion count: consecutive pulls that each brought events moving
    at least ``MIN_STEP`` pixels an event, with no quiet between them: no more than ``MAX_GAP``
    seconds apart, or (a slow frame pulls a stretch of motion at once) no more than
    ``MAX_STALL`` apart with less than ``QUIET`` seconds between the first and the last empty
    pull between them (the pointer kept reporting while the window was busy). Each event of a
    stretch happened after the pull before the one that brought it and no later than that
    one, so each pair of an early and a late event bounds the device's interval; the
    stretch's interval is the middle of what the pairs allow (:func:`_interval`). The rate is
    one over the stretches' intervals averaged, each weighed by how closely its stretch tells
    it (one over the square of the width of what it allows); 0 when less than
    ``MIN_RATE_TIME`` seconds of such motion has been seen.
    """
    batches: list[tuple[float, int, float]] = []  # (pulled at, events, pixels an event)
    prev: tuple[float, float] | None = None
    for t, x, y in history:
        step = 0.0 if prev is None else math.hypot(x - prev[0], y - prev[1])
        prev = (x, y)
        if batches and batches[-1][0] == t:
            _, k, total = batches[-1]
            batches[-1] = (t, k + 1, total + step)
        else:
            batches.append((t, 1, step))
    pull_times = sorted(set(pulls) | {b[0] for b in batches})
    events = 0
    time = 0.0
    told: list[tuple[float, float]] = []  # (interval, how closely the stretch tells it)
    stretch: list[tuple[float, int]] = []  # (pulled at, events) of the stretch going on

    def close() -> None:
        nonlocal events, time
        if len(stretch) > 1:
            spans = []  # (lo, hi, first event, last event) of each batch
            n = 0
            for t, k in stretch:
                spans.append((_after(pull_times, t, began, -math.inf), t, n, n + k - 1))
                n += k
            interval, spread = _interval(spans)
            if interval > 0:
                events += n - 1
                time += (n - 1) * interval
                told.append((interval, spread))
        stretch.clear()

    for t, k, total in batches:
        steady = total / k >= MIN_STEP
        pressed = any(stretch and stretch[-1][0] <= p <= t for p in presses)
        if steady and stretch and not pressed and _unbroken(stretch[-1][0], t, pulls):
            stretch.append((t, k))
            continue
        close()
        if steady:
            stretch.append((t, k))
    close()
    if time < MIN_RATE_TIME or events < MIN_RATE_EVENTS:
        return 0.0
    weights = [1 / max(spread, 1e-5) ** 2 for _, spread in told]
    return sum(weights) / sum(w * interval for w, (interval, _) in zip(weights, told, strict=True))


ENDS = 32
"""batches at each end of a stretch whose events are paired to tell the device's interval"""


LIKELY_STEPS = 64
"""intervals tried between the least and the most a stretch allows (:func:`_likeliest`)"""


def _interval(spans: Sequence[tuple[float, float, int, int]]) -> tuple[float, float]:
    """The device's interval from a stretch of consecutive events pulled in batches, each
    batch given as (lo, hi, first event, last event): its events happened after ``lo`` (minus
    infinity for what the first pull brought) and no later than ``hi``. Events i of batch A and j of a later batch B bound the interval s:
    (lo_B - hi_A) / (j - i) <= s <= (hi_B - lo_A) / (j - i), most closely for A's last and
    B's first event below, A's first and B's last above. The middle of what every pair of
    batches (of the first and last ``ENDS``) allows, or, where a few events came late and no
    interval fits them all, of what nine pairs in ten at least a quarter of the stretch apart
    allow; and the width of that range (a stretch pulled in a few batches tells the interval
    loosely, one polled often closely)."""
    chosen = list(spans) if len(spans) <= 2 * ENDS else [*spans[:ENDS], *spans[-ENDS:]]
    far = max((spans[-1][3] + 1) // 4, 1)
    lower, upper, wide_lower, wide_upper = [], [], [], []
    for a, (lo_a, hi_a, first_a, last_a) in enumerate(chosen):
        for lo_b, hi_b, first_b, last_b in chosen[a + 1 :]:
            below = (lo_b - hi_a) / (first_b - last_a)
            above = (hi_b - lo_a) / (last_b - first_a)
            lower.append(below)
            upper.append(above)
            if first_b - last_a >= far:
                wide_lower.append(below)
                wide_upper.append(above)
    if not lower:
        return 0.0, 0.0
    lo, hi = max(lower), min(upper)
    if not math.isfinite(hi):  # only the first pull's batch, which may have waited for ever
        return 0.0, 0.0
    if lo <= hi:
        return _likeliest(spans, lo, hi), hi - lo
    if wide_lower:
        wide_lower.sort()
        wide_upper.sort()
        lo, hi = wide_lower[(9 * len(wide_lower)) // 10], wide_upper[len(wide_upper) // 10]
    return max((lo + hi) / 2, 0.0), abs(hi - lo)


def _likeliest(spans: Sequence[tuple[float, float, int, int]], lo: float, hi: float) -> float:
    """The device's interval the batches make likeliest, between ``lo`` and ``hi``: with the
    events' phase unknown, an interval is as likely as the range of phases it leaves every
    event within its batch's bounds is wide, so the mean over [lo, hi] weighed by that width
    (the middle of [lo, hi] when the width is the same throughout)."""
    if hi - lo < 1e-9:
        return max(lo, 0.0)
    total = weighed = 0.0
    for k in range(LIKELY_STEPS):
        s = lo + (hi - lo) * (k + 0.5) / LIKELY_STEPS
        early = max(b_lo - first * s for b_lo, _, first, _ in spans)
        late = min(b_hi - last * s for _, b_hi, _, last in spans)
        width = max(late - early, 0.0)
        total += width
        weighed += width * s
    return weighed / total if total > 0 else (lo + hi) / 2


def _unbroken(last: float, t: float, pulls: Sequence[float]) -> bool:
    """True when motion pulled at ``last`` and next at ``t`` may have gone on between: pulled
    close together, or with the empty pulls between them no more than ``QUIET`` after ``last``
    (the window was busy, not the pointer still)."""
    if t - last <= MAX_GAP:
        return True
    if t - last > MAX_STALL:
        return False
    i = bisect_left(pulls, t) - 1
    quiet = pulls[i] - last if i >= 0 and pulls[i] > last else 0.0
    return quiet < QUIET


def stamps(
    pulled: Sequence[float],
    pulls: Sequence[float] = (),
    rate: float = 0.0,
    began: Mapping[float, float] = _NONE,
) -> list[float]:
    """When each sample happened, given when it was pulled (non-decreasing) and every time the
    queue was pulled (``pulls``, with or without motion, and when each ``began``).

    A sample pulled at ``t`` happened after the pull before ``t`` began and no later than ``t``. Within
    that interval it is placed one device interval after the sample before it (a mouse reports
    at a steady rate while it moves: ``rate``, else :func:`device_rate` of the samples), so a batch that waited in the
    queue (a slow frame, a stall) covers the time it took the hand, not one instant, and a
    sample pulled a frame late is not taken for a slow hand. Before the rate is known a batch
    is spread evenly over its interval.
    """
    pull_times = sorted(set(pulls) | set(pulled))
    if rate <= 0:
        settled = [t for t in pulled if t < pulled[-1]] if pulled else []
        recent = [t for t in settled if t >= settled[-1] - RATE_SPAN] if settled else []
        rate = device_rate(recent)
    out: list[float] = []
    i = 0
    while i < len(pulled):
        t = pulled[i]
        j = i
        while j < len(pulled) and pulled[j] == t:
            j += 1
        k = j - i
        lo = _after(pull_times, t, began, t)
        for n in range(k):
            if rate > 0 and out:
                guess = out[-1] + 1.0 / rate
            else:
                guess = lo + (n + 1) * (t - lo) / k
            out.append(min(max(guess, lo), t))
        i = j
    return out


def steady_times(
    samples: Sequence[Sample],
    pulls: Sequence[float],
    rate: float = 0.0,
    began: Mapping[float, float] = _NONE,
) -> list[float]:
    """When the samples of the last stretch of steady motion happened (a list as long as that
    stretch; empty when there is none).

    While a pointer moves steadily its device reports at one rate, so the n-th sample before the
    last happened at ``a - n·s`` (``s`` the device's interval), and each sample happened after
    the pull before the one that brought it and no later than that one. Every such bound is a
    linear constraint on (a, s) (the pull before began, ``began``): the times are the middle of what every pull allows, with ``s``
    the known device interval (``rate``) if the pulls allow it, else the middle of the intervals
    they allow. A stretch whose pulls allow no steady rate is shortened from its start.
    """
    run = _steady_run(samples)
    if len(run) < 2:
        return []
    pull_times = sorted(set(pulls) | {s[0] for s in samples})
    bounds = []
    for i in run:
        t = samples[i][0]
        bounds.append((_after(pull_times, t, began, t - 0.1), t))
    if rate > 0:  # the device fell silent (the hand paused) where the polls saw no event
        gaps = [
            n for n in range(1, len(bounds)) if bounds[n][0] - bounds[n - 1][1] > SILENCE / rate
        ]
        bounds = bounds[gaps[-1] :] if gaps else bounds
    while len(bounds) >= 2:
        fit = _steady_fit(bounds, rate)
        if fit is not None:
            a, step = fit
            m = len(bounds)
            return [a - (m - 1 - n) * step for n in range(m)]
        bounds.pop(0)
    return []


def _steady_run(samples: Sequence[Sample]) -> list[int]:
    """Indices of the last stretch of steady motion (at most ``RUN_MAX`` samples): each sample
    at least ``MIN_STEP`` pixels from the one before. A pause between two samples is not told
    by when they were pulled (a slow frame pulls a whole stretch of motion at once) but by the
    pulls between them: :func:`steady_times` drops what no steady rate fits."""
    run: list[int] = []
    for i in range(len(samples) - 1, 0, -1):
        _, x, y = samples[i]
        _, xp, yp = samples[i - 1]
        if math.hypot(x - xp, y - yp) < MIN_STEP or len(run) >= RUN_MAX:
            break
        run.append(i)
    return run[::-1]


def _steady_fit(bounds: Sequence[tuple[float, float]], rate: float) -> tuple[float, float] | None:
    """(a, s) with ``lo_n <= a - (m-1-n)·s <= hi_n`` for every sample n of m, or None.

    With the device's rate known, ``s`` is its interval and ``a`` the time the most bounds allow
    (:func:`_phase`): an event the window saw late (the system delivered it after a poll it
    should have come before) is outvoted, not taken for a change of the device's rate."""
    m = len(bounds)
    if rate > 0:
        return _phase(bounds, 1.0 / rate), 1.0 / rate

    def window(step: float) -> tuple[float, float]:
        lo = max(b[0] + (m - 1 - n) * step for n, b in enumerate(bounds))
        hi = min(b[1] + (m - 1 - n) * step for n, b in enumerate(bounds))
        return lo, hi

    steps = [1.0 / STEADY_RATES[1] * (STEADY_RATES[1] / STEADY_RATES[0]) ** (k / 400)
             for k in range(401)]  # fmt: skip
    fits = [s for s in steps if (w := window(s))[0] <= w[1]]
    if not fits:
        return None
    if rate > 0 and fits[0] <= 1.0 / rate <= fits[-1]:
        step = 1.0 / rate
    elif fits[-1] <= WELL_TIMED * fits[0]:
        step = fits[len(fits) // 2]
    else:  # the pulls hardly tell the rate (one burst): spread it over the time it waited
        even = (bounds[-1][1] - bounds[0][0]) / m
        step = min(max(even, fits[0]), fits[-1])
    lo, hi = window(step)
    if lo > hi:  # a gap in the feasible steps: take the nearest feasible one
        step = min(fits, key=lambda s: abs(s - step))
        lo, hi = window(step)
    return (lo + hi) / 2, step


def _phase(bounds: Sequence[tuple[float, float]], step: float) -> float:
    """The time of the last of ``m`` samples ``step`` apart that the most of their bounds
    (``lo_n <= a - (m-1-n)·step <= hi_n``) allow, the middle of where they do; the latest
    such stretch when several allow as many."""
    m = len(bounds)
    ends = []
    for n, (lo, hi) in enumerate(bounds):
        shift = (m - 1 - n) * step
        ends += [(lo + shift, 0), (hi + shift, 1)]  # a bound opens before one closes there
    ends.sort()
    best, start, count = -1, 0.0, 0
    found = (0.0, 0.0)
    for x, closes in ends:
        if closes:
            if count >= best:
                best, found = count, (start, x)
            count -= 1
        else:
            count += 1
            start = x
    return (found[0] + found[1]) / 2


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

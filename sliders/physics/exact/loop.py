"""The event loop that drives the exact engine, and the one entry compiled code offers for a shot.

The loop keeps, for every pawn on the table, its next own event and, for every pair, the time of
its next contact (:mod:`~sliders.physics.exact.prediction`). It jumps to the earliest, resolves it
(:mod:`~sliders.physics.exact.resolution`), re-predicts what involves the pawns it changed and
repeats, until nothing translates, the log is full, the time asked for is reached or the shot
runs out of time or events.

Tie rule: events closer in time than ``TIE`` (1e-12 s) to the earliest are taken one at a time in
a fixed order: by pawn index (the shooter is 0, then the table's pawns in order), then by partner
(another pawn by its index, then the pawn's own event, whose rails are in layout order).

Tolerances: two shapes whose gap is at most ``TOUCH`` (1e-9 m) touch; a touching pair that is
approaching faster than ``V_EPS`` (1e-9 m/s) is resolved at once, one that is not is left to
separate (or to creep in by less than the tolerance). Contacts are found as roots, so overlaps are
rounding errors (well under ``TOUCH``). A pawn left slower than ``V_REST`` (1e-6 m/s) by a contact
or a rim bounce stops (it would roll less than 1e-12 m).

Inelastic collapse: a pawn chasing another (or pressed against it by their different
decelerations) would hit it again and again at ever shorter intervals. A contact slower than
``V_SLOW`` (1e-4 m/s) is therefore fully inelastic along the normal, and a pair that would touch
again at once after a contact is resolved is a resting contact: the two then move on together
with their mean velocity (momentum kept, energy lost), which ends the sequence. Three or more
pawns pressed together (a crowd rolling on as one, pushed by their different decelerations) can
go on hitting each other at one instant, each contact stopping one pair and sending the next at
each other, ever more slowly but without end: after ``COLLAPSE`` (100) pawn–pawn contacts at one
instant, the pawns they involved move on together at their mean velocity, the same numbers for
each, which ends it.

One shot and a batch of shots go the same way: :func:`lay_out` puts the pawns down and
:func:`solve` runs the loop and reads every pawn's state at the time reached; :func:`run_batch`
calls both for each of its shots, as :class:`~sliders.physics.exact.ExactSimulation` does for its
one, so a batch row is bit for bit the single shot; :func:`run_each` does the same for one shot on
each of many tables (many games' shots), keeping every shot's log of events as well.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from sliders.physics.exact.classification import classify_at
from sliders.physics.exact.motion import states_at
from sliders.physics.exact.prediction import predict_all, repredict
from sliders.physics.exact.resolution import (
    move_together,
    press_together,
    resolve_contact,
    resolve_own,
)
from sliders.physics.exact.state import (
    COLLAPSE,
    CONTACTS,
    FALL,
    FULL,
    HIT,
    INF,
    INR,
    INRC,
    LOG_COLUMNS,
    NOW,
    ON_TABLE,
    OVER_HOLE,
    P_HOLE,
    P_MAXT,
    P_RC,
    RECORDED,
    RESTED,
    RUNNING,
    S_FOUL,
    S_KNOCKED,
    SETTLED,
    SOLVED,
    STAT,
    T0,
    TIE,
    TIMEOUT,
    TIN,
    TRC,
    VX,
    VY,
    XFALL,
    YFALL,
    Arena,
    State,
    X,
    Y,
    Zones,
    kernel,
    new_state,
    place,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from sliders.physics.exact.state import Bools, Floats, Ints

GOING_ON = -1
"""the loop has not met a reason to stop"""


# -- one shot -------------------------------------------------------------------------------------


@kernel
def lay_out(state: State, table: Floats, start: Floats, velocity: Floats, foul: bool) -> None:
    """Set ``state`` for a shot at time 0: pawn 0 released at ``start`` with ``velocity`` (left
    where it was released, off the table, when the release is a ``foul``), pawns 1… at rest at
    ``table``'s points; the clock and counters at 0."""
    if foul:
        place(state, 0, start[0], start[1], 0.0, 0.0)
        state.flags[0, STAT] = S_FOUL
    else:
        place(state, 0, start[0], start[1], velocity[0], velocity[1])
    for i in range(table.shape[0]):
        place(state, i + 1, table[i, 0], table[i, 1], 0.0, 0.0)
    clock, counts = state.clock, state.counts
    clock[NOW], clock[RESTED] = 0.0, 0.0
    counts[SOLVED], counts[RECORDED], counts[CONTACTS] = 0, 0, 0


@kernel
def solve(
    state: State,
    arena: Arena,
    tough: Floats,
    until: float,
    max_events: int,
    fresh: bool,
    now: Floats,
) -> int:
    """:func:`start` (when ``fresh``), :func:`advance`, and every pawn's (x, y, vx, vy, spin,
    heading) at the time reached into ``now`` (n × 6); returns what :func:`advance` ended with.
    ``tough``: each pawn's knock-over threshold for the shot."""
    if fresh:
        start(state, 0.0, arena)
    code = advance(state, arena, tough, until, max_events)
    states_at(state, reached(state, code), arena.params, now)
    return code


@kernel
def reached(state: State, code: int) -> float:
    """The time a run of the loop that ended with ``code`` reached: when the last translation
    ended, if the shot settled, else the clock."""
    return float(state.clock[RESTED] if code == SETTLED else state.clock[NOW])


@kernel
def start(state: State, now: float, arena: Arena) -> None:
    """Set the hole flags of pawns placed at ``now`` and predict every event."""
    seg, flags, params = state.segments, state.flags, arena.params
    for i in range(seg.shape[0]):
        if flags[i, STAT] != ON_TABLE:
            continue
        seg[i, T0] = now
        if params[P_HOLE] > 0.0:
            d = math.hypot(seg[i, X], seg[i, Y])
            if d < params[P_HOLE]:
                flags[i, INR] = OVER_HOLE
                seg[i, TIN] = -INF  # already dipped as far as it goes
            if d < params[P_RC]:
                flags[i, INRC] = 1
                seg[i, TRC] = -INF
    predict_all(state, now, arena)


# -- the loop -------------------------------------------------------------------------------------


@kernel
def advance(state: State, arena: Arena, tough: Floats, until: float, max_events: int) -> int:
    """Process events in time order up to time ``until``.

    ``state.clock`` holds the time reached and the time the last translation ended;
    ``state.counts`` the events solved, the events recorded (in ``state.log``; recording stops
    with FULL when it is full) and the pawn–pawn contacts. Returns RUNNING (reached ``until``),
    SETTLED (no pawn translates), FULL, or TIMEOUT (``max_events`` or ``max_time`` was reached
    while pawns still roll)."""
    seg, flags, pair_time, own_time = state.segments, state.flags, state.pair_time, state.own_time
    clock, counts, log_rows = state.clock, state.counts, state.log.shape[0]
    max_time = arena.params[P_MAXT]
    instant, t_instant, hits = 0, -INF, 0  # this instant's number, time and pawn–pawn contacts
    while True:
        if not anything_rolls(seg, flags) and not _pending(own_time):
            return SETTLED
        if log_rows > 0 and counts[RECORDED] + 3 > log_rows:
            return FULL
        tmin = _earliest(own_time, pair_time)
        if tmin > max_time or tmin > until or counts[SOLVED] >= max_events:
            return _out_of_time(clock, counts[SOLVED], tmin, until, max_time, max_events)
        counts[SOLVED] += 1
        a, b = _first_due(own_time, pair_time, tmin)
        now = pair_time[a, b] if b >= 0 else own_time[a]
        if now < clock[NOW]:
            now = clock[NOW]  # never step back in time (ties taken after an earlier one)
        clock[NOW] = now
        if b >= 0:
            if now > t_instant + TIE:
                instant, t_instant, hits = counts[SOLVED], now, 0
            hits += 1
            flags[a, HIT], flags[b, HIT] = instant, instant
        _resolve(state, a, b, now, arena, tough)
        if hits > COLLAPSE:
            _press(state, instant, now, arena)
            t_instant, hits = -INF, 0
        if not anything_rolls(seg, flags):
            clock[RESTED] = now


@kernel
def _out_of_time(
    clock: Floats, solved: int, tmin: float, until: float, max_time: float, max_events: int
) -> int:
    """Why the loop stops before the event due at ``tmin``, past ``until``, ``max_time`` or
    ``max_events`` (GOING_ON: it does not); the clock set to the time reached."""
    if tmin > max_time and until >= max_time:
        clock[NOW] = max_time
        return TIMEOUT
    if tmin > until:
        clock[NOW] = until
        return RUNNING
    if solved >= max_events:
        return TIMEOUT
    return GOING_ON


@kernel
def _earliest(own_time: Floats, pair_time: Floats) -> float:
    """The time of the earliest event predicted."""
    n = own_time.shape[0]
    tmin = INF
    for i in range(n):
        if own_time[i] < tmin:
            tmin = own_time[i]
        for j in range(i + 1, n):
            if pair_time[i, j] < tmin:
                tmin = pair_time[i, j]
    return tmin


@kernel
def _first_due(own_time: Floats, pair_time: Floats, tmin: float) -> tuple[int, int]:
    """The event due within TIE of ``tmin`` that comes first by the tie rule: (pawn, partner),
    the partner -1 for the pawn's own event."""
    n = own_time.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if pair_time[i, j] <= tmin + TIE:
                return i, j
        if own_time[i] <= tmin + TIE:
            return i, -1
    return -1, -1


@kernel
def _resolve(state: State, a: int, b: int, now: float, arena: Arena, tough: Floats) -> None:
    """Resolve the event due at ``now`` (pawn ``a``'s contact with pawn ``b``, or its own event
    when ``b`` is -1) and re-predict what involves the pawns it changed; a pair that would touch
    again at once after their contact moves on together. ``tough``: each pawn's knock-over
    threshold for the shot."""
    if b < 0:
        resolve_own(state, a, now, arena, tough)
        repredict(state, a, now, arena)
        return
    resolve_contact(state, a, b, now, arena.params, tough)
    repredict(state, a, now, arena)
    repredict(state, b, now, arena)
    if state.pair_time[a, b] <= now + TIE:
        move_together(state, a, b)
        repredict(state, a, now, arena)
        repredict(state, b, now, arena)
        if state.pair_time[a, b] <= now + TIE:
            state.pair_time[a, b] = INF
            state.pair_time[b, a] = INF


@kernel
def _press(state: State, instant: int, now: float, arena: Arena) -> None:
    """The pawns that hit each other at ``instant`` move on together, and what involves them is
    re-predicted."""
    press_together(state, instant, now, arena.params)
    flags = state.flags
    for i in range(flags.shape[0]):
        if flags[i, STAT] == ON_TABLE and flags[i, HIT] == instant:
            repredict(state, i, now, arena)


@kernel
def anything_rolls(seg: Floats, flags: Ints) -> bool:
    """Whether a pawn on the table translates."""
    for i in range(seg.shape[0]):
        if flags[i, STAT] == ON_TABLE and (seg[i, VX] != 0.0 or seg[i, VY] != 0.0):
            return True
    return False


@kernel
def _pending(own_time: Floats) -> bool:
    """Whether a pawn has an own event to come (a drop, a fall) though nothing translates."""
    for i in range(own_time.shape[0]):
        if own_time[i] < INF:
            return True
    return False


# -- many shots of one table ----------------------------------------------------------------------


class BatchOut(NamedTuple):
    """What :func:`run_batch` writes: one row per shot, one column per pawn."""

    status: NDArray[np.int8]
    """status codes"""
    points: NDArray[np.int16]
    where: Floats
    """shots × pawns × (x, y)"""
    times: Floats
    """settle times"""
    contacts: Ints
    """pawn–pawn contacts"""
    settled: Bools
    """False: the shot timed out"""


@njit(cache=True, error_model="numpy", nogil=True)  # allocates: with reference counting
def run_batch(
    table: Floats,
    seats: Ints,
    starts: Floats,
    velocities: Floats,
    fouls: Bools,
    arena: Arena,
    zones: Zones,
    tough: Floats,
    max_events: int,
    out: BatchOut,
) -> None:
    """Solve every shot of one table to rest: shot ``s`` slides pawn 0 (of seat ``seats[0]``) from
    ``starts[s]`` at ``velocities[s]`` (a foul when ``fouls[s]``) among the pawns at ``table``
    (seats ``seats[1:]``), by :func:`lay_out` and :func:`solve` as one shot is. Writes each
    pawn's status code, points and place, the settle time, the pawn–pawn contacts and whether the
    shot settled. ``tough``: the pawns' knock-over thresholds, one row per shot, or one row for
    every shot."""
    n = table.shape[0] + 1
    state = new_state(n, 0)
    now = np.zeros((n, 6))
    status, points, where, times, contacts, settled = out
    for s in range(starts.shape[0]):
        lay_out(state, table, starts[s], velocities[s], fouls[s])
        code = solve(state, arena, tough[s % tough.shape[0]], INF, max_events, True, now)
        times[s] = reached(state, code)
        settled[s] = code == SETTLED
        contacts[s] = state.counts[CONTACTS]
        for i in range(n):
            status[s, i], points[s, i], x, y = _rest(state, i, now, seats[i], zones)
            where[s, i, 0], where[s, i, 1] = x, y


@kernel
def _rest(
    state: State, i: int, now: Floats, seat: int, zones: Zones
) -> tuple[int, int, float, float]:
    """Pawn ``i``'s (status, points, x, y) as the single shot reports it: where it left the table
    if it did (a falling pawn: knocked over where it toppled), else where it is now and what it
    rests on."""
    seg, flags = state.segments, state.flags
    if flags[i, STAT] != ON_TABLE:
        return flags[i, STAT], 0, now[i, 0], now[i, 1]
    if flags[i, FALL] == 1:
        return S_KNOCKED, 0, seg[i, XFALL], seg[i, YFALL]
    code, points = classify_at(now[i, 0], now[i, 1], seat, zones)
    return code, points, now[i, 0], now[i, 1]


# -- one shot on each of many tables --------------------------------------------------------------


@njit(cache=True, error_model="numpy", nogil=True)  # allocates: with reference counting
def run_each(
    first: Ints,
    table: Floats,
    starts: Floats,
    velocities: Floats,
    fouls: Bools,
    tough: Floats,
    arena: Arena,
    max_events: int,
    log_rows: int,
    now: Floats,
    stat: Ints,
    clock: Floats,
    counts: Ints,
    codes: Ints,
) -> tuple[Floats, Ints]:
    """Solve shot ``k`` to rest on its own table, by :func:`lay_out` and :func:`solve` as one
    shot is, its log drained whenever it is full (``log_rows`` rows, as one shot's): its pawns
    are rows ``first[k]`` (the shooter, from ``starts[k]`` at ``velocities[k]``, a foul when
    ``fouls[k]``) to ``first[k + 1]`` of ``table`` (the table's pawns; the shooter's row unused)
    and ``tough`` (each pawn's knock-over threshold). Writes each pawn's (x, y, vx, vy, spin,
    heading) at the time reached into ``now`` and its status code (ON_TABLE or how it left)
    into ``stat``, each shot's [NOW, RESTED] into ``clock``, its counts into ``counts`` and what
    the loop ended with into ``codes``. Returns every shot's recorded rows one after the other,
    and where each shot's begin (``k``) and end (``k + 1``)."""
    k_shots = starts.shape[0]
    log = np.zeros((16 * k_shots + log_rows, LOG_COLUMNS))
    at = 0
    log_first = np.zeros(k_shots + 1, dtype=np.int64)
    for k in range(k_shots):
        a, b = first[k], first[k + 1]
        n = b - a
        state = new_state(n, log_rows)
        lay_out(state, table[a + 1 : b].copy(), starts[k], velocities[k], fouls[k])
        tough_k = tough[a:b].copy()
        now_k = np.zeros((n, 6))
        fresh = True
        while True:
            code = solve(state, arena, tough_k, INF, max_events, fresh, now_k)
            fresh = False
            rec = state.counts[RECORDED]
            if at + rec > log.shape[0]:
                bigger = np.zeros((2 * log.shape[0] + rec, log.shape[1]))
                bigger[:at] = log[:at]
                log = bigger
            log[at : at + rec] = state.log[:rec]
            at += rec
            state.counts[RECORDED] = 0
            if code != FULL:
                break
        log_first[k + 1] = at
        codes[k] = code
        clock[k, NOW], clock[k, RESTED] = state.clock[NOW], state.clock[RESTED]
        for c in range(3):
            counts[k, c] = state.counts[c]
        for i in range(n):
            stat[a + i] = state.flags[i, STAT]
            for c in range(6):
                now[a + i, c] = now_k[i, c]
    return log[:at], log_first

"""One shot in the exact engine, with the pymunk engine's public interface.

:class:`ExactSimulation` builds the shot's state arrays, lets the compiled event loop
(:func:`sliders.physics.exact.loop.solve`) run to a time or to rest, and turns what it records
into the shared vocabulary (events, rest statuses, a :class:`~sliders.core.outcome.ShotResult`).
``step()`` advances ``params.dt`` of time; positions at any time are the formula of each pawn's
current segment, so a window drawing frames shows the exact trajectories. The state arrays are
laid out when the shot first runs: :func:`run_fresh` solves many shots not yet run (one on each
of many tables, as many games' shots are) in one compiled call instead, each to the same bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np

from sliders.boards import Face, Layout
from sliders.boards.geometry import PlacedPawn, check_pawns
from sliders.core.outcome import (
    SEATS,
    Event,
    EventType,
    PawnRest,
    Shot,
    ShotResult,
    Status,
    pawn_seat,
)
from sliders.physics.exact import state as st
from sliders.physics.exact.classification import classify_at, placement_clear
from sliders.physics.exact.compile import ensure_compiled
from sliders.physics.exact.loop import lay_out, run_each, solve
from sliders.physics.exact.world import ExactWorld, world_for
from sliders.physics.model import knock_over_thresholds
from sliders.physics.params import PhysicsParams
from sliders.physics.shot import check_seed, engine_version, place_shooter

MAX_EVENTS = 200_000
"""events one shot may take before it is stopped and reported as a time-out"""

_RECORD_ROWS = 256
_KINDS = {
    st.E_CONTACT: EventType.CONTACT,
    st.E_RAIL: EventType.RAIL,
    st.E_KNOCKED: EventType.KNOCKED_OVER,
    st.E_OFF: EventType.OFF_BOARD,
    st.E_HOLE: EventType.IN_HOLE,
}
_STATUSES = tuple(Status)


def simulate_exact(
    layout: Layout,
    face: Face,
    table: Sequence[PlacedPawn],
    shot: Shot,
    params: PhysicsParams | None = None,
    seed: int | np.random.Generator | None = None,
) -> ShotResult:
    """Slide one pawn and solve the shot exactly until no pawn translates."""
    sim = ExactSimulation(layout, face, table, shot, params, seed)
    sim.run()
    return sim.result()


class ExactSimulation:
    """One shot, solved event by event.

    ``step()`` advances ``params.dt`` of time; ``run()`` goes to rest (or ``max_time``);
    ``moving`` tells whether any pawn still translates; ``settled`` whether the shot came to rest
    (False after a time-out); ``positions()`` gives every pawn still on the table at time ``t``.
    """

    def __init__(
        self,
        layout: Layout,
        face: Face,
        table: Sequence[PlacedPawn],
        shot: Shot,
        params: PhysicsParams | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        ensure_compiled()
        self.engine = "exact"
        self._version: str | None = None
        self.layout, self.face = layout, face
        self.params = p = params or PhysicsParams.default()
        check_seed(seed)
        self._seed = seed
        self._rng: np.random.Generator | None = None
        self.shot = shot
        self.t = 0.0
        self.events: list[Event] = []
        self.removed: dict[str, PawnRest] = {}
        self.settled = False

        seat = layout.seat(shot.seat)
        self.world: ExactWorld = world_for(layout, face, p)
        _check_table(self.world, layout, table, p.pawn_radius)
        shooter, start, velocity, foul = place_shooter(layout, seat, table, shot, p)
        self.shooter = shooter

        self.order = [shooter, *(q.id for q in table)]
        n = len(self.order)
        txy = np.array([(q.x, q.y) for q in table], dtype=np.float64).reshape(-1, 2)
        self._start = (txy, np.array(start), np.array(velocity), foul)
        """what :func:`lay_out` puts down: the table, the shooter's start and velocity, a foul"""
        self._state: st.State | None = None
        """the loop's state, laid out when the shot first runs (:func:`run_fresh` solves a shot
        not yet run without it)"""
        # where everything is at t = 0, as lay_out puts it: the shooter (still, if a foul), then
        # the table's pawns at rest; every pawn on the table but a fouled shooter
        self._now = np.zeros((n, 6))
        self._now[0, :2] = start
        if not foul:
            self._now[0, 2:4] = velocity
        self._now[1:, :2] = txy
        self._stat = np.full(n, st.ON_TABLE, dtype=np.int64)
        """each pawn on the table (ON_TABLE) or the status code it left with"""
        if foul:
            self._stat[0] = st.S_FOUL
        self._counts = np.zeros(3, dtype=np.int64)
        """events solved, recorded and pawn–pawn contacts so far"""
        # each pawn's knock-over threshold for the shot, drawn at its start (model.py)
        self._tough = (
            knock_over_thresholds(p, self.rng, n)
            if p.knock_over_spread > 0
            else (np.full(n, p.knock_over_impulse))
        )
        self._event(EventType.RELEASE, (shooter,), start)
        if foul:
            self._event(EventType.FOUL, (shooter,), start)
            self.removed[shooter] = PawnRest(shooter, shot.seat, start[0], start[1], Status.FOUL)
        self._fresh = True  # the loop has not seen this shot yet
        self.moving = True

    # -- public ---------------------------------------------------------------------------------

    def run(self) -> None:
        """Solve the shot until no pawn translates, or ``max_time`` passes."""
        if self.moving:
            self._advance(math.inf)

    def run_until(self, t: float) -> None:
        """Solve the shot up to time ``t`` (or rest, if it comes first)."""
        if self.moving and t > self.t:
            self._advance(t)

    def step(self) -> None:
        """Advance ``params.dt`` of time (for callers that draw every frame)."""
        if self.moving:
            self._advance(self.t + self.params.dt)

    @property
    def contacts(self) -> int:
        """Pawn–pawn contacts so far."""
        return int(self._counts[st.CONTACTS])

    @property
    def solved(self) -> int:
        """Events solved so far; a shot that reaches MAX_EVENTS is stopped and reported as
        timed out (before ``max_time``)."""
        return int(self._counts[st.SOLVED])

    def positions(self) -> dict[str, tuple[float, float, float]]:
        """(x, y, heading) of each pawn still on the table."""
        now = self._now
        return {
            pid: (float(now[i, 0]), float(now[i, 1]), float(now[i, 5]))
            for i, pid in enumerate(self.order)
            if self._stat[i] == st.ON_TABLE
        }

    def velocities(self) -> dict[str, tuple[float, float, float]]:
        """(vx, vy, spin) of each pawn still on the table."""
        now = self._now
        return {
            pid: (float(now[i, 2]), float(now[i, 3]), float(now[i, 4]))
            for i, pid in enumerate(self.order)
            if self._stat[i] == st.ON_TABLE
        }

    def kinetic_energy(self) -> float:
        """Translational plus spin energy of the pawns on the table, J."""
        p = self.params
        inertia = 0.5 * p.pawn_mass * p.pawn_radius**2
        total = 0.0
        for vx, vy, w in self.velocities().values():
            total += 0.5 * p.pawn_mass * (vx * vx + vy * vy) + 0.5 * inertia * w * w
        return total

    def result(self) -> ShotResult:
        """Every pawn's rest status and points, and the events, once the shot has settled (or
        as things stand now, if it is still running)."""
        now, memo, removed = self._now.tolist(), self.world.memo, self.removed
        pawns = []
        for i, pid in enumerate(self.order):
            rest = removed.get(pid)
            if rest is None:
                x, y = now[i][0], now[i][1]
                known = cast(PawnRest | None, memo.get((pid, x, y)))
                rest = known or self._rest(pid, x, y)
            pawns.append(rest)
        events = list(self.events)
        if not self.moving:
            events.append(Event(self.t, EventType.SETTLED if self.settled else EventType.TIMED_OUT))
        if self._version is None:
            self._version = engine_version(self.engine)
        return ShotResult(
            face=self.face.name,
            shooter=self.shooter,
            pawns=tuple(pawns),
            events=tuple(events),
            settle_time=self.t,
            settled=self.settled,
            engine=self.engine,
            version=self._version,
        )

    def _rest(self, pid: str, x: float, y: float) -> PawnRest:
        """A pawn's rest status at (x, y), found by the compiled classification (which follows
        boards.geometry.classify; tested) and remembered."""
        w = self.world
        seat = pawn_seat(pid)
        code, points = classify_at(x, y, SEATS.index(seat), w.zones)
        status = _STATUSES[code]
        rest = PawnRest(pid, seat, x, y, status, points, self._choices(status, x, y))
        _remember(w.memo, (pid, x, y), rest)
        return rest

    def _choices(self, status: Status, x: float, y: float) -> tuple[int, ...]:
        face, r = self.face, self.params.pawn_radius
        if status is Status.HOLE_EDGE:
            return face.hole_edge_points
        if status is Status.ON_TARGET and face.choice_radius:
            if math.hypot(x, y) < face.choice_radius + r:
                return face.choice_points
        return ()

    @property
    def rng(self) -> np.random.Generator:
        """The shot's random generator, made from its seed when first needed (a generator
        given as the seed is used as it is)."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng

    # -- the loop -------------------------------------------------------------------------------

    def _laid_out(self) -> st.State:
        """The loop's state, the pawns laid out at t = 0 the first time it is asked for."""
        if self._state is None:
            self._state = state = st.new_state(len(self.order), _RECORD_ROWS)
            lay_out(state, *self._start)
            self._counts, self._stat = state.counts, state.flags[:, st.STAT]
        return self._state

    def _advance(self, until: float) -> None:
        arena, state = self.world.arena, self._laid_out()
        while True:
            code = solve(state, arena, self._tough, until, MAX_EVENTS, self._fresh, self._now)
            self._fresh = False
            self._drain(state.log[: state.counts[st.RECORDED]])
            state.counts[st.RECORDED] = 0
            if code != st.FULL:
                break
        self._reached(code, state.clock)

    def _reached(self, code: int, clock: np.ndarray) -> None:
        """Where a run of the loop that ended with ``code`` left the shot (``clock``: the
        state's [NOW, RESTED])."""
        if code == st.SETTLED:
            self.moving = False
            self.settled = True
            self.t = float(clock[st.RESTED])
        elif code == st.TIMEOUT:
            self.moving = False
            self.t = float(clock[st.NOW])
        else:
            self.t = float(clock[st.NOW])

    def _drain(self, rows: np.ndarray) -> None:
        """Turn the loop's recorded ``rows`` into events (and removals)."""
        order = self.order
        for t, kind, a, b, impulse, x, y in rows.tolist():
            etype = _KINDS[int(kind)]
            pawns = (order[int(a)], order[int(b)]) if b >= 0 else (order[int(a)],)
            self.events.append(Event(float(t), etype, pawns, float(impulse), float(x), float(y)))
            if etype in _REMOVALS:
                pid = order[int(a)]
                status = _REMOVALS[etype]
                if status is Status.OFF_BOARD and self._stat[int(a)] == st.S_OFF_SIDE:
                    status = Status.OFF_SIDE  # across a side, clear of the corners
                self.removed[pid] = PawnRest(pid, pawn_seat(pid), float(x), float(y), status)

    def _event(self, kind: EventType, pawns: tuple[str, ...], at: tuple[float, float]) -> None:
        self.events.append(Event(self.t, kind, pawns, 0.0, at[0], at[1]))


def run_fresh(sims: Sequence[ExactSimulation]) -> None:
    """Run each of ``sims`` to rest as its :meth:`~ExactSimulation.run` does, bit for bit (the
    same loop from the same start, its log drained as often): the shots not yet run, one on
    each of many tables, in one compiled call a world (the others one at a time)."""
    fresh: dict[int, list[ExactSimulation]] = {}
    for sim in sims:
        if sim._fresh and sim._state is None:
            fresh.setdefault(id(sim.world), []).append(sim)
        else:
            sim.run()
    for group in fresh.values():
        _run_together(group)


def _run_together(sims: list[ExactSimulation]) -> None:
    """Fresh shots of one world solved in one call of :func:`run_each`."""
    sizes = [len(sim.order) for sim in sims]
    first = np.zeros(len(sims) + 1, dtype=np.int64)
    first[1:] = np.cumsum(sizes)
    rows = int(first[-1])
    table, tough = np.zeros((rows, 2)), np.empty(rows)
    starts, velocities = np.empty((len(sims), 2)), np.empty((len(sims), 2))
    fouls = np.empty(len(sims), dtype=np.bool_)
    for k, sim in enumerate(sims):
        a, b = first[k], first[k + 1]
        table[a + 1 : b], starts[k], velocities[k], fouls[k] = sim._start
        tough[a:b] = sim._tough
    now, stat = np.zeros((rows, 6)), np.empty(rows, dtype=np.int64)
    clock, counts = np.zeros((len(sims), 2)), np.zeros((len(sims), 3), dtype=np.int64)
    codes = np.zeros(len(sims), dtype=np.int64)
    log, at = run_each(
        first, table, starts, velocities, fouls, tough, sims[0].world.arena, MAX_EVENTS,
        _RECORD_ROWS, now, stat, clock, counts, codes,
    )  # fmt: skip
    for k, sim in enumerate(sims):
        a, b = first[k], first[k + 1]
        sim._fresh = False
        sim._now, sim._stat, sim._counts = now[a:b], stat[a:b], counts[k]
        sim._drain(log[at[k] : at[k + 1]])
        sim._reached(int(codes[k]), clock[k])


def _check_table(world: ExactWorld, layout: Layout, table: Sequence[PlacedPawn], r: float) -> None:
    """boards.geometry.check_pawns, skipped when compiled code finds every pawn clear by a
    margin and the ids were checked before (it gives the messages when something is wrong)."""
    ids = tuple(q.id for q in table)
    if ("ids", ids) in world.memo:
        xy = np.array([(q.x, q.y) for q in table], dtype=np.float64).reshape(-1, 2)
        arena, zones = world.arena, world.zones
        if np.isfinite(xy).all() and placement_clear(xy, arena.rails, zones.surface, r, 1e-12):
            return
    check_pawns(layout, table, r)
    _remember(world.memo, ("ids", ids), True)


def _remember(memo: dict[object, object], key: object, value: object) -> None:
    if len(memo) > 50_000:
        memo.clear()
    memo[key] = value


_REMOVALS = {
    EventType.KNOCKED_OVER: Status.KNOCKED_OVER,
    EventType.OFF_BOARD: Status.OFF_BOARD,
    EventType.IN_HOLE: Status.IN_HOLE,
}
"""the events that take a pawn out of play, and its status (a toppled pawn's is recorded as it
topples, though it falls for ``topple_time`` more)"""

"""The pymunk engine: a shot in a Chipmunk world built from a layout, a face and the pawns on the
table, stepped at a fixed ``dt`` (the model it implements: docs/model.md).

Top-down, zero gravity. Rolling resistance is Coulomb friction to the table: a ``PivotJoint`` to the
static body with no bias and ``max_force = μ·m·g`` (and a ``GearJoint`` for spin), so it stays in C
and brings a pawn exactly to rest. Each contact's restitution and friction are the pair's, set by
the collision handlers every step, which also test every step's contact impulse for knock-over.
Each pawn carries a point-sized probe that only sensors see: a pawn is off the board the step its
centre leaves the table's surface, and the hole's sensor times how long its centre stays over the
hole (a check after each step applies the climb out of it). A shot settles when no pawn slides
(spin does not count).

Use :func:`simulate_pymunk` for one shot to rest, or :class:`PymunkSimulation` to step a shot frame
by frame; :mod:`sliders.physics.interface` chooses between this engine and the exact one. The
Chipmunk pieces a shot runs in are :mod:`sliders.physics.pymunk_world`'s; how a shot starts (the
pawn, its release, a foul) is :mod:`sliders.physics.shot`'s, shared with the exact engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import pymunk

from sliders.boards import (
    Face,
    Layout,
    segment_distance,
    surface_at,
)
from sliders.boards.geometry import PlacedPawn, check_pawns, way_off
from sliders.core.outcome import (
    Event,
    EventType,
    PawnRest,
    Shot,
    ShotResult,
    Status,
)
from sliders.core.signals import held_stops
from sliders.physics.model import (
    REST_SPEED,
    capture_radius,
    climb_out,
    knock_over_thresholds,
    topples,
)
from sliders.physics.params import PhysicsParams
from sliders.physics.pymunk_world import (
    HOLE,
    OUTSIDE,
    PAWN,
    PROBE,
    RAIL,
    PawnBody,
    check_params,
    stepper,
    world_for,
)
from sliders.physics.shot import check_seed, engine_version, place_shooter, rest_of


def simulate_pymunk(
    layout: Layout,
    face: Face,
    table: Sequence[PlacedPawn],
    shot: Shot,
    params: PhysicsParams | None = None,
    seed: int | np.random.Generator | None = None,
) -> ShotResult:
    """Slide one pawn and run the pymunk world until every pawn is at rest (or removed), or
    the shot times out."""
    sim = PymunkSimulation(layout, face, table, shot, params, seed)
    sim.run()
    return sim.result()


class PymunkSimulation:
    """One shot in the pymunk engine, stepped at the fixed ``params.pymunk_step`` (``params.dt``
    unless a pawn at ``max_speed`` would move more than its radius in one).

    ``step()`` advances one frame of ``params.dt``; ``moving`` tells whether the shot is still going (until it
    settles or times out); ``positions()`` gives every pawn still in the world; ``result()``
    classifies the rest state.
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
        self.engine = "pymunk"
        self.settled = False
        """True once everything has stopped (False while running and after a time-out)"""
        self.layout, self.face = layout, face
        self.params = p = params or PhysicsParams.default()
        check_params(p)
        check_seed(seed)
        self._seed = seed
        self._rng: np.random.Generator | None = None
        self.shot = shot
        self.t = 0.0
        self.steps = 0
        self._h = p.pymunk_step
        """the fixed step: ``params.dt``, or the equal part of it that keeps max_speed × step
        within a pawn's radius"""
        self._substeps = p.substeps
        self.events: list[Event] = []
        self.removed: dict[str, PawnRest] = {}
        self._was_moving: dict[pymunk.Body, bool] = {}  # before the step, by pre_solve
        self._quiet: set[frozenset[pymunk.Body]] = set()  # touching pairs left alone so far
        self._rewound: dict[pymunk.Body, float] = {}  # put back to where a new contact began
        # where each of those was found at the end of the step, and its velocity then
        self._found: dict[pymunk.Body, tuple[float, float, float, float]] = {}
        # new contacts put off to the next step (a pawn met an earlier one in the same step)
        self._put_off: set[frozenset[object]] = set()
        self._late_rail: set[pymunk.Body] = set()  # put-off rail contacts met in this step
        # the pairs (pawn and pawn, pawn and rail) in contact in this step and in the last
        self._touching: set[frozenset[object]] = set()
        self._touched_last: set[frozenset[object]] = set()
        self.touch_time = True
        """meet each new contact where it began within the step (see :meth:`_meet`); set
        False before running to resolve contacts where the step finds them, as Chipmunk alone
        does"""
        self._hole_in: dict[str, float] = {}  # when each pawn's centre came over the hole
        self._hole_capture: dict[str, float] = {}  # ... and within the capture radius
        self._capture_radius = capture_radius(face.hole_radius, p)
        # no impulse at or below this topples anything (the sharp threshold; with a spread,
        # every impulse is tested)
        self._topple_floor = p.knock_over_impulse if p.knock_over_spread <= 0 else 0.0
        self._spin_down = p.spin_damping_torque / pymunk.moment_for_circle(
            p.pawn_mass, 0, p.pawn_radius
        )

        seat = layout.seat(shot.seat)
        check_pawns(layout, table, p.pawn_radius)
        shooter, start, velocity, foul = place_shooter(layout, seat, table, shot, p)
        self.shooter = shooter

        self.world = world_for(layout, face, p)
        self.space = space = self.world.new_space()
        self._step = stepper(space)
        self._doomed: list[str] = []  # removed during this step: taken out after it
        # toppled: when each leaves, and the earliest step count after which it may
        self._falling: dict[str, tuple[float, int]] = {}
        self._pawns: dict[str, PawnBody] = {}
        self._by_body: dict[pymunk.Body, PawnBody] = {}
        for q in table:
            self._add_pawn(q.id, (q.x, q.y), (0.0, 0.0))
            if face.hole_radius and math.hypot(q.x, q.y) < face.hole_radius:
                # standing over the hole (on its edge): its ball has long dipped as far as it goes
                self._hole_in[q.id] = -math.inf
        self.order = [shooter, *(q.id for q in table)]
        # each pawn's knock-over threshold for the shot, drawn at its start (model.py)
        self._tough: dict[str, float] = {}
        if p.knock_over_spread > 0:
            drawn = knock_over_thresholds(p, self.rng, len(self.order)).tolist()
            self._tough = dict(zip(self.order, drawn, strict=True))
        self._events(EventType.RELEASE, (shooter,), x=start[0], y=start[1])
        if foul:
            self._events(EventType.FOUL, (shooter,), x=start[0], y=start[1])
            self.removed[shooter] = PawnRest(shooter, shot.seat, start[0], start[1], Status.FOUL)
        else:
            self._add_pawn(shooter, start, (0.0, 0.0))
            self._set_velocity(self._pawns[shooter].body, *velocity)
        self._install_handlers(space)
        for q in table:
            if math.hypot(q.x, q.y) < self._capture_radius:
                # at rest with its base over the hole: it drops in at once
                self._remove(space, self._pawns[q.id], Status.IN_HOLE, EventType.IN_HOLE, 0.0)
        self._drop_doomed()
        self._final: dict[str, tuple[float, float, float]] | None = None
        self.coast = True
        """``run()`` may move a lone pawn rolling freely straight to where it stops (see
        :meth:`_coast_plan`); set False to step every step."""
        self.coasted = False
        """True when ``run()`` finished the shot in closed form"""
        self._coast_events = -1
        self._coast_next = 0
        self._coast_wait = p.rest_check_steps // 2
        self._coasting: _Coast | None = None  # step() showing a coast frame by frame
        self.moving = not foul
        self._max_steps = int(p.max_time / self._h + 1e-9)  # steps within max_time
        if foul:
            self._finish(settled=True)

    # -- public ---------------------------------------------------------------------------------

    def run(self) -> None:
        """Step until no pawn translates any more (settled), or until ``max_time`` (timed out)."""
        p = self.params
        step, dt, k = self._step, self._h, p.rest_check_steps
        doomed, falling, hole_in = self._doomed, self._falling, self._hole_in
        rewound = self._rewound
        max_steps = self._max_steps
        with held_stops() as interrupted:  # a Chipmunk callback would drop an interrupt
            while self.moving:
                n = min(k, max_steps - self.steps)
                if n <= 0:
                    break
                for _ in range(n):
                    step(dt)
                    self.steps += 1
                    if self._touching or self._touched_last:
                        self._next_contacts()
                    if rewound:
                        self._after_meeting()
                    if hole_in:
                        self._leave_hole()
                    if doomed or falling:
                        self._drop_doomed()
                        if not self._pawns:
                            break  # nothing left on the table: done now, as step() is
                if interrupted:
                    return  # the interrupt is delivered on leaving
                self.t = self.steps * dt
                lone = self._lone_mover()
                if lone is None and self._pressed_apart():
                    lone = _SEVERAL
                self.moving = lone is not None
                plan = self._coast_plan(lone) if lone and self.coast else None
                if plan and self._coast_land(plan):
                    self.t = self.steps * dt
                    self.moving = False
        self._finish(settled=not self.moving)

    def run_until(self, t: float) -> None:
        """Go on by whole steps to the first step at or past time ``t`` (or to rest, if it
        comes first)."""
        while self.moving and self.t < t - 1e-12:
            self.step()

    def step(self) -> None:
        """Advance one frame of ``params.dt``: one fixed step, or the ``params.substeps`` steps
        it is split into (for callers that draw every frame)."""
        with held_stops():
            self._frame()

    def _frame(self) -> None:
        for _ in range(self._substeps):
            if not self.moving:
                return
            if self._coasting is not None:
                self._coast_step(self._coasting)
                continue
            self._step(self._h)
            self.steps += 1
            if self._touching or self._touched_last:
                self._next_contacts()
            if self._rewound:
                self._after_meeting()
            if self._hole_in:
                self._leave_hole()
            if self._doomed or self._falling:
                self._drop_doomed()
            self.t = self.steps * self._h
            if self.steps % self.params.rest_check_steps == 0 or not self._pawns:
                if not self._translating() and not self._pressed_apart():
                    self._finish(settled=True)
                elif self.coast:  # where run() tries its closed-form finish
                    self._coasting = self._coast_plan(self._lone_mover() or _SEVERAL)
            if self.moving and self.steps >= self._max_steps:
                self._finish(settled=False)

    def _coast_step(self, plan: _Coast) -> None:
        """One step of a coasting pawn, shown where its plan has it; at the plan's last step,
        landed as ``run()`` lands it."""
        self.steps += 1
        n = self.steps - plan.start
        if n < plan.steps:
            plan.pawn.body.position = plan.at(n)
            plan.pawn.body.velocity = plan.velocity(n)
        else:
            self._coasting = None
            if self._coast_land(plan):
                self.t = self.steps * self._h
                self._finish(settled=True)
                return
        self.t = self.steps * self._h

    def positions(self) -> dict[str, tuple[float, float, float]]:
        """(x, y, heading) of each pawn still on the table."""
        if self._final is not None:
            return dict(self._final)
        return {pid: (*pw.body.position, pw.body.angle) for pid, pw in self._pawns.items()}

    def velocities(self) -> dict[str, tuple[float, float, float]]:
        """(vx, vy, spin) of each pawn still on the table, now (a body carries its velocity
        over the next step: see :meth:`_set_velocity`)."""
        if self._final is not None:
            return dict.fromkeys(self._final, (0.0, 0.0, 0.0))
        return {pid: self._velocity_now(pw.body) for pid, pw in self._pawns.items()}

    def _velocity_now(self, body: pymunk.Body) -> tuple[float, float, float]:
        """``body``'s velocity at the end of the last step (:meth:`_set_velocity`'s inverse)."""
        vx, vy = body.velocity
        mean = math.hypot(vx, vy)
        if mean > _REST_SPEED:
            ah = self.params.deceleration * self._h
            speed = mean + ah / 2 if mean >= ah / 2 else math.sqrt(2 * ah * mean)
            vx, vy = vx * speed / mean, vy * speed / mean
        return vx, vy, body.angular_velocity

    def kinetic_energy(self) -> float:
        if self._final is not None:
            return 0.0
        p = self.params
        m, moment = p.pawn_mass, p.pawn_mass * p.pawn_radius**2 / 2
        return sum(
            (m * (vx * vx + vy * vy) + moment * w * w) / 2
            for vx, vy, w in (self._velocity_now(pw.body) for pw in self._pawns.values())
        )

    def result(self) -> ShotResult:
        """Every pawn's rest status and points, and the events, once the shot has settled (or
        as things stand now, if it is still running)."""
        r = self.params.pawn_radius
        where = self.positions()
        pawns = []
        for pid in self.order:
            if pid in self.removed:
                pawns.append(self.removed[pid])
            else:
                x, y, _ = where[pid]
                pawns.append(rest_of(self.layout, self.face, pid, x, y, r))
        events = list(self.events)
        if not self.moving:
            end = EventType.SETTLED if self.settled else EventType.TIMED_OUT
            events.append(Event(round(self.t, 9), end))
        return ShotResult(
            face=self.face.name,
            shooter=self.shooter,
            pawns=tuple(pawns),
            events=tuple(events),
            settle_time=self.t,
            settled=self.settled,
            engine=self.engine,
            version=engine_version(self.engine),
        )

    def _finish(self, settled: bool) -> None:
        """Drop into the hole the pawns standing with their centre within its capture radius,
        keep the final positions and hand the world's pieces back for the next shot."""
        self.settled = settled
        if self._final is None:
            t = round(self.t, 9)
            for pawn in list(self._pawns.values()):
                if pawn.id not in self.removed and abs(pawn.body.position) < self._capture_radius:
                    self._remove(self.space, pawn, Status.IN_HOLE, EventType.IN_HOLE, t)
            while self._doomed or self._falling:
                self._drop_doomed(everything=True)
            if self.world.space is self.space:
                self._final = self.positions()
                self.world.release()
            else:
                raise RuntimeError("another shot on this thread reused this shot's world")
        self.moving = False

    # -- building -------------------------------------------------------------------------------

    def _add_pawn(self, pid: str, pos: tuple[float, float], vel: tuple[float, float]) -> None:
        pawn = self.world.pawn(pid)
        body = pawn.body
        body.position = pos
        body.velocity = vel
        self.space.add(*pawn.parts)
        self._pawns[pid] = pawn
        self._by_body[body] = pawn

    def _install_handlers(self, space: pymunk.Space) -> None:
        space.on_collision(PAWN, PAWN, pre_solve=self._pawn_pre, post_solve=self._pawn_hit)
        space.on_collision(PAWN, RAIL, pre_solve=self._rail_pre, post_solve=self._rail_hit)
        space.on_collision(PROBE, OUTSIDE, pre_solve=self._fell_off)
        space.on_collision(PROBE, HOLE, pre_solve=self._over_hole)

    # -- collision callbacks (called from inside space.step) ---------------------------------------

    def _now(self, space: pymunk.Space) -> float:
        # callbacks run inside the step that has not been counted yet
        return round((self.steps + 1) * self._h, 9)

    def _pawn_pre(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        """The pair's restitution and friction, and whether each pawn moves before the step;
        a new contact is met where the pawns first touched (see :meth:`_meet`).

        Two pawns that touch (overlapping by no more than the slop), neither approaching nor
        parting, are left alone this step: no impulse would act between them, and a hit that
        reaches one of
        them in this step is passed to the other in the next, as a pairwise impulse with the
        pair's restitution (the model's cradle; solved together with the hit, the pair would
        take it as one body)."""
        a, b = arb.bodies
        (xa, ya), (vxa, vya) = a.position, a.velocity
        (xb, yb), (vxb, vyb) = b.position, b.velocity
        p = self.params
        dx, dy = xb - xa, yb - ya
        gap = math.hypot(dx, dy)
        if (
            gap >= 2 * p.pawn_radius - p.collision_slop
            and abs((vxa - vxb) * dx + (vya - vyb) * dy) <= _TOUCH_SPEED * gap
        ):
            arb.process_collision = False
            self._quiet.add(frozenset((a, b)))
            return
        key: frozenset[object] = frozenset((a, b))
        self._touching.add(key)
        first = arb.is_first_contact
        if not first and self._put_off and _pop(self._put_off, key):
            first = True
            self._quiet.add(frozenset((a, b)))  # reported as a new contact
        s = None
        if first and self.touch_time:
            h = self._h
            # their separation at the start of the step, and how it changed within it
            dx, dy = (xb - vxb * h) - (xa - vxa * h), (yb - vyb * h) - (ya - vya * h)
            s = _entry_time(dx, dy, vxb - vxa, vyb - vya, 2 * self.params.pawn_radius, h)
            if self._later_than_another(s, (a, b), None):
                arb.process_collision = False
                self._put_off.add(key)
                return
        if first and self._falling and self._gone_before(s, a, b):
            arb.process_collision = False  # a toppled pawn that has left by then
            return
        arb.process_collision = True
        arb.restitution = p.restitution_pawn
        arb.friction = p.friction_pawn
        moving = self._was_moving
        moving[a] = abs(a.velocity) > _REST_SPEED
        moving[b] = abs(b.velocity) > _REST_SPEED
        if first:
            _forget_cached_impulse(arb)
            if s is not None:
                nx, ny = dx + (vxb - vxa) * s, dy + (vyb - vya) * s
                norm = math.hypot(nx, ny)
                self._meet(arb, (a, b), s, nx / norm, ny / norm)

    def _rail_pre(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        body = arb.bodies[0]
        rail = cast(pymunk.Segment, arb.shapes[1])
        key: frozenset[object] = frozenset((body, rail))
        self._touching.add(key)
        first = arb.is_first_contact
        if not first and self._put_off and _pop(self._put_off, key):
            first = True
            self._late_rail.add(body)  # reported as a new contact
        touch = None
        if first and self.touch_time:
            (x, y), (vx, vy) = body.position, body.velocity
            h = self._h
            touch = _rail_touch(
                (x - vx * h, y - vy * h), (vx, vy), rail.a, rail.b,
                rail.radius + self.params.pawn_radius, h,
            )  # fmt: skip
            if self._later_than_another(touch and touch[0], (body,), rail):
                arb.process_collision = False
                self._put_off.add(key)
                return
        if first and self._falling and self._gone_before(touch and touch[0], body):
            arb.process_collision = False  # a toppled pawn that has left by then
            return
        arb.process_collision = True
        arb.restitution = self.params.restitution_rail
        arb.friction = self.params.friction_rail
        self._was_moving[body] = abs(body.velocity) > _REST_SPEED
        if first:
            _forget_cached_impulse(arb)
            if touch is not None:
                self._meet(arb, (body,), *touch)

    def _next_contacts(self) -> None:
        """After a step: the pairs in contact in it become the last step's."""
        self._touched_last, self._touching = self._touching, self._touched_last
        self._touching.clear()

    def _later_than_another(
        self,
        s: float | None,
        bodies: tuple[pymunk.Body, ...],
        rail: pymunk.Segment | None,
    ) -> bool:
        """Whether a new contact of ``bodies`` (with each other, or of the one body with the
        rail ``rail``) that began ``s`` into this step (None: at its end) comes after another
        new contact of one of them in the same step: it is then put off to the next step, and
        met there (where it began, if the pawns still meet on their new paths) once the earlier
        one has changed their velocities, as the contacts come one after another in the model.
        Solved in the same step, the two would act at once, the second from where the step
        found it (a pawn that hits two others within a step, or a pawn and a rail). Crossing
        the hole's rim outward, which changes a pawn's velocity, counts as such an event.

        Every new contact of a pawn in this step has it overlapping the other shape where the
        step found them, so those are the only candidates; a contact put off from the last
        step began before this step and comes first."""
        h = self._h
        if s is None:
            s = h
        p = self.params
        r = p.pawn_radius
        for body in bodies:
            if body in self._rewound:
                return True  # it already met a contact in this step, no later than this one
            x, y, vx, vy = self._found_at(body)
            x0, y0 = x - vx * h, y - vy * h
            if self._hole_in and self._by_body[body].id in self._hole_in:
                # over the hole: crossing its rim outward, it climbs (its velocity changes)
                back = self._crossed_out(x, y, vx, vy, self.face.hole_radius)
                if back is not None and h - back < s - 1e-12:
                    return True
            for other in self._pawns.values():
                ob = other.body
                if ob is body or ob in bodies:
                    continue
                ox, oy, ovx, ovy = self._found_at(ob)
                if abs(ox - x) >= 2 * r or abs(oy - y) >= 2 * r:
                    continue
                if math.hypot(ox - x, oy - y) >= 2 * r:
                    continue
                dx, dy = (ox - ovx * h) - x0, (oy - ovy * h) - y0
                t = _entry_time(dx, dy, ovx - vx, ovy - vy, 2 * r, h)
                if t is not None and t < s - 1e-12 and self._new(t, frozenset((body, ob))):
                    return True
            for seg in self.world.rails:
                ra, rb = seg.a, seg.b
                if seg is rail or segment_distance(x, y, ra, rb) >= seg.radius + r:
                    continue
                touch = _rail_touch((x0, y0), (vx, vy), ra, rb, seg.radius + r, h)
                if touch is not None and touch[0] < s - 1e-12:
                    if self._new(touch[0], frozenset((body, seg))):
                        return True
        return False

    def _new(self, t: float, pair: frozenset[object]) -> bool:
        """Whether a contact of ``pair`` found in this step that began ``t`` into it is a new
        one: it began in this step, or before it (its pawns met in the last step after one of
        them was struck, or it was put off) without being in contact in the last step."""
        return t >= 0 or pair not in self._touched_last or pair in self._put_off

    def _found_at(self, body: pymunk.Body) -> tuple[float, float, float, float]:
        """Where the step found ``body`` and the velocity it moved with (before a contact met
        in this step put it back)."""
        found = self._found.get(body)
        if found is not None:
            return found
        (x, y), (vx, vy) = body.position, body.velocity
        return x, y, vx, vy

    def _gone_before(self, s: float | None, *bodies: pymunk.Body) -> bool:
        """Whether one of ``bodies`` is a toppled pawn that leaves the table before a contact
        that begins ``s`` into this step (None: at its end): the contact never happens."""
        t = self.steps * self._h + (self._h if s is None else s)
        for body in bodies:
            fall = self._falling.get(self._by_body[body].id)
            if fall is not None and fall[0] < t - 1e-12:
                return True
        return False

    def _meet(
        self, arb: pymunk.Arbiter, bodies: tuple[pymunk.Body, ...], s: float, nx: float, ny: float
    ) -> None:
        """Resolve a new contact where it began rather than where the step found it.

        Chipmunk moves every body by its velocity over the step and only then looks for
        contacts, so a contact found at the end of a step has the pawns pressed into each other
        (or a rail) by up to the distance they travel in a step, and its impulse would act along
        the line of centres *there*: a struck pawn would leave off by an angle of the order of
        (speed·dt)/(2·radius), and the pair would part from the wrong place. Within a step every
        body moves in a straight line at its velocity, so the moment ``s`` of first touch
        (measured from the start of the step; negative when they already touched at its start)
        is the root of a quadratic. The pawns are put back where they touched, the contact's
        normal ``(nx, ny)`` and points are set there, and after the step (see
        :meth:`_after_meeting`) each moves on from that place at its velocity after the contact
        for the rest of the step. Directions and speeds after the contact are then those of the
        exact engine to within the rolling deceleration over one step, and positions differ by
        the step's own first-order term, as in free rolling.
        """
        h = self._h
        old = arb.contact_point_set
        if nx * old.normal.x + ny * old.normal.y < 0:
            nx, ny = -nx, -ny  # keep Chipmunk's sense of the normal (from the first shape)
        r = self.params.pawn_radius
        rewound = self._rewound
        for body in bodies:
            if body in rewound:
                return  # a second new contact of this pawn in the same step: left as found
        for body in bodies:
            rewound[body] = s
            self._found[body] = (*body.position, *body.velocity)
            pawn = self._by_body[body]
            for joint in pawn.parts[3:]:
                joint.pre_solve = _let_go
            if body.is_sleeping:
                # a sleeping body did not move in this step: nothing to put back. Setting its
                # position would wake it inside the step, which corrupts Chipmunk's lists of
                # sleeping bodies and contacts (the next step never returns)
                continue
            x, y = body.position
            vx, vy = body.velocity
            body.position = (x - vx * (h - s), y - vy * (h - s))
            # its velocity and spin at the touch (it carries its mean velocity over the step
            # and its spin at the step's start)
            vx, vy, w = self._velocity_now(body)
            speed = math.hypot(vx, vy)
            if speed > _REST_SPEED:
                k = max(speed - self.params.deceleration * s, 0.0) / speed
                body.velocity = (vx * k, vy * k)
            body.angular_velocity = math.copysign(max(abs(w) - self._spin_down * s, 0.0), w)
        ax, ay = bodies[0].position
        point = pymunk.Vec2d(ax + nx * r, ay + ny * r)
        arb.contact_point_set = pymunk.ContactPointSet(
            pymunk.Vec2d(nx, ny), (pymunk.ContactPoint(point, point, 0.0),)
        )

    def _after_meeting(self) -> None:
        """After a step in which new contacts were met where they began (the friction joints
        of their pawns let go for the step): each pawn rolls on from the place of touch with
        its velocity after the contact, decelerating, for the rest of the step, its spin
        running down, and carries its mean velocity over the next step."""
        h = self._h
        for body, s in self._rewound.items():
            roll, spin = self._by_body[body].parts[3:]
            roll.pre_solve = spin.pre_solve = None
            roll.max_force = self.world.roll_force
            spin.max_force = self.params.spin_damping_torque
            rest = h - s
            self._roll_on(body, *body.position, *body.velocity, rest)
            w = body.angular_velocity
            body.angular_velocity = math.copysign(max(abs(w) - self._spin_down * rest, 0.0), w)
        self._rewound.clear()
        self._found.clear()

    def _speeds(self, mean: float) -> tuple[float, float]:
        """A pawn's speed at the start and at the end of a step it moves through at ``mean``
        (its mean velocity over the step, see :meth:`_set_velocity`)."""
        ah = self.params.deceleration * self._h
        start = mean + ah / 2 if mean >= ah / 2 else math.sqrt(2 * ah * mean)
        return start, max(start - ah, 0.0)

    def _time_to(self, distance: float, speed: float) -> float:
        """How long a pawn rolling at ``speed`` takes to cover ``distance`` (decelerating;
        ``inf`` if it stops first)."""
        a = self.params.deceleration
        left = speed * speed - 2 * a * distance
        if left < 0.0:
            return math.inf
        return 2 * distance / (speed + math.sqrt(left))

    def _time_from(self, distance: float, speed: float) -> float:
        """How long ago a pawn rolling at ``speed`` now was ``distance`` behind (decelerating)."""
        a = self.params.deceleration
        return 2 * distance / (speed + math.sqrt(speed * speed + 2 * a * distance))

    def _crossed_out(self, x: float, y: float, vx: float, vy: float, radius: float) -> float | None:
        """How long before the end of this step a pawn found at ``(x, y)`` and moving through
        it at ``(vx, vy)`` (its mean velocity over the step), at or beyond ``radius`` from the
        hole's centre, crossed that circle outward (the whole step when its straight path was
        not inside within the step: it was at the rim as the step began), or None when it is
        not moving outward."""
        mean = math.hypot(vx, vy)
        if mean <= 0.0:
            return None
        ux, uy = vx / mean, vy / mean
        back = _behind(x, y, ux, uy, radius)
        if back is None:
            return None if x * ux + y * uy <= 0.0 else self._h
        return min(self._time_from(back, self._speeds(mean)[1]), self._h)

    def _came_within(self, x: float, y: float, vx: float, vy: float, radius: float) -> float:
        """When, from the start of this step, a pawn starting it at ``(x, y)`` and moving
        through it at ``(vx, vy)`` (its mean velocity) came within ``radius`` of the hole's
        centre (0 if it started within it or never did)."""
        mean = math.hypot(vx, vy)
        if mean <= 0.0:
            return 0.0
        ahead = _ahead(x, y, vx / mean, vy / mean, radius)
        if ahead is None:
            return 0.0
        return min(self._time_to(ahead, self._speeds(mean)[0]), self._h)

    def _roll_on(
        self, body: pymunk.Body, x: float, y: float, vx: float, vy: float, dt: float
    ) -> None:
        """Put ``body`` where it rolls to from ``(x, y)`` at ``(vx, vy)`` in the last ``dt`` of
        this step, decelerating (the closed form), with its mean velocity over the next step."""
        speed = math.hypot(vx, vy)
        if speed <= _REST_SPEED:
            body.position = (x, y)
            body.velocity = (0.0, 0.0)
            return
        a = self.params.deceleration
        run = speed * dt - a * dt * dt / 2 if speed > a * dt else speed * speed / (2 * a)
        body.position = (x + vx / speed * run, y + vy / speed * run)
        self._set_velocity(body, vx, vy, dt)

    def _set_velocity(self, body: pymunk.Body, vx: float, vy: float, later: float = 0.0) -> None:
        """Give ``body`` the velocity ``(vx, vy)`` it has ``later`` seconds before the end of
        this step (or, negative, after its start), slowed by rolling resistance to the step's
        end, as the mean velocity over the next step, which Chipmunk moves it by.

        Chipmunk moves a body by its velocity and then applies the forces (semi-implicit
        Euler): with the velocity of the start of each step, a pawn would roll v·h/2 too far.
        A body in this engine carries instead its mean velocity over the next step: u − a·h/2
        for speed u at the step's start, while it rolls through the step (leapfrog, exact under
        the constant deceleration a = μg), or the u²/(2ah) that brings it to where it stops
        within the step; each step's friction joint then takes a·h off it, which keeps it the
        mean velocity of the next step until the last one (off by at most a·h²/8)."""
        speed = math.hypot(vx, vy)
        if speed <= _REST_SPEED:
            body.velocity = (vx, vy)
            return
        a, h = self.params.deceleration, self._h
        u = speed - a * later
        mean = u - a * h / 2 if u >= a * h else max(u, 0.0) ** 2 / (2 * a * h)
        body.velocity = (vx * mean / speed, vy * mean / speed)

    def _pawn_hit(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        """Every step of a contact: the impulse it delivered this step may topple either pawn
        (the contact is resolved first; the pawn leaves between steps). Its first step is
        reported as a contact event."""
        a, b = (self._by_body[cast(pymunk.Body, s.body)] for s in arb.shapes)
        impulse = abs(arb.total_impulse.dot(arb.normal))  # the normal impulse alone
        quiet = self._quiet
        if arb.is_first_contact or (quiet and _pop(quiet, frozenset((a.body, b.body)))):
            point = (
                arb.contact_point_set.points[0].point_a if arb.contact_point_set.points else (0, 0)
            )
            when = self._touched(a.body)
            self.events.append(Event(when, EventType.CONTACT, (a.id, b.id), impulse, *point))
        if impulse > self._topple_floor:
            for pawn in (a, b):
                if pawn.id not in self.removed and self._topples(pawn, impulse):
                    self._knock_over(space, pawn)

    def _rail_hit(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        pawn = self._by_body[cast(pymunk.Body, arb.shapes[0].body)]
        impulse = abs(arb.total_impulse.dot(arb.normal))  # the normal impulse alone
        late = self._late_rail and _pop(self._late_rail, pawn.body)
        if arb.is_first_contact or late:
            point = (
                arb.contact_point_set.points[0].point_a if arb.contact_point_set.points else (0, 0)
            )
            when = self._touched(pawn.body)
            self.events.append(Event(when, EventType.RAIL, (pawn.id,), impulse, *point))
        if impulse > self._topple_floor and pawn.id not in self.removed:
            if self._topples(pawn, impulse):
                self._knock_over(space, pawn)

    def _knock_over(self, space: pymunk.Space, pawn: PawnBody) -> None:
        """Topple ``pawn`` (at the moment of touch, when this step met the contact there): the
        contact that did it is resolved in this step, and the pawn keeps sliding and hitting
        for ``topple_time`` (so that a pawn touching it receives its momentum: the cradle); it
        leaves after the step ending at or after that time (no contact beginning later takes
        place), and never before the next step."""
        when = self._touched(pawn.body)
        self._remove(space, pawn, Status.KNOCKED_OVER, EventType.KNOCKED_OVER, when, linger=True)

    def _touched(self, body: pymunk.Body) -> float:
        """When a contact of ``body`` found in this step began: the moment of touch if the step
        met it there (see :meth:`_meet`), else the step's end."""
        s = self._rewound.get(body)
        if s is None:
            return round((self.steps + 1) * self._h, 9)
        return round(self.steps * self._h + s, 9)

    def _fell_off(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        """Every step a pawn's probe touches the outside: off the board once its centre is."""
        pawn = self._by_body[cast(pymunk.Body, arb.shapes[0].body)]
        if pawn.id not in self.removed and surface_at(self.layout, *pawn.body.position) is None:
            status = way_off(self.face, *pawn.body.position, self.params.pawn_radius)
            self._remove(space, pawn, status, EventType.OFF_BOARD, self._now(space))

    def _over_hole(self, arb: pymunk.Arbiter, space: pymunk.Space, _: object) -> None:
        """Every step a pawn's centre ends over the hole: when it came over the hole and within
        the capture radius, on its straight path through the step; it drops in once its centre
        has stayed within the capture radius for the drop time (at that moment), or has come
        to rest there."""
        pawn = self._by_body[cast(pymunk.Body, arb.shapes[0].body)]
        if pawn.id in self.removed:
            return
        h = self._h
        start = self.steps * h
        x, y, vx, vy = self._found_at(pawn.body)
        x0, y0 = x - vx * h, y - vy * h  # where it started the step
        if pawn.id not in self._hole_in:
            self._hole_in[pawn.id] = start + self._came_within(
                x0, y0, vx, vy, self.face.hole_radius
            )
        rc = self._capture_radius
        entered = self._hole_capture.get(pawn.id)
        drop = self.params.drop_time
        if math.hypot(x, y) < rc:
            if entered is None:
                entered = start + self._came_within(x0, y0, vx, vy, rc)
                self._hole_capture[pawn.id] = entered
            if abs(pawn.body.velocity) <= _REST_SPEED:  # at rest there: it drops at once
                self._remove(space, pawn, Status.IN_HOLE, EventType.IN_HOLE, self._now(space))
            elif start + h - entered >= drop - 1e-9:
                self._remove(space, pawn, Status.IN_HOLE, EventType.IN_HOLE, entered + drop)
        elif entered is not None:
            # it left the capture radius in this step: in, if only after the drop time
            left = self._crossed_out(x, y, vx, vy, rc) or 0.0
            if start + h - left - entered >= drop - 1e-9:
                self._remove(space, pawn, Status.IN_HOLE, EventType.IN_HOLE, entered + drop)
            else:
                del self._hole_capture[pawn.id]

    def _leave_hole(self) -> None:
        """After a step, for each pawn that was over the hole: one whose centre has crossed the
        rim outward (at the moment it did, on its straight path through the step) has dipped
        for the time τ it was over the hole and must climb out (:func:`model.climb_out`): its
        outward speed falls, or, too slow, it rolls back in. It then moves on from the rim with
        its new velocity for the rest of the step. (Checked here rather than by the sensor's
        separate callback, which also comes when Chipmunk puts a pawn to sleep or wakes it.)"""
        p, radius, h = self.params, self.face.hole_radius, self._h
        now = self.steps * h
        for pid, t_in in list(self._hole_in.items()):
            pawn = self._pawns.get(pid)
            if pawn is None or pid in self.removed:
                del self._hole_in[pid]
                self._hole_capture.pop(pid, None)
                continue
            body = pawn.body
            x, y = body.position
            if math.hypot(x, y) < radius:
                continue
            del self._hole_in[pid]
            self._hole_capture.pop(pid, None)
            vx, vy, _ = self._velocity_now(body)  # at the end of the step
            speed = math.hypot(vx, vy)
            if speed <= _REST_SPEED:
                continue  # it stopped: nothing to climb
            ux, uy = vx / speed, vy / speed
            gone = _behind(x, y, ux, uy, radius)  # how far it went past the rim
            if gone is None:
                if x * ux + y * uy <= 0.0:
                    continue  # pushed out sideways by another pawn: nothing to climb
                # at the rim as the step began, moving nearly along it
                gone = speed * h + p.deceleration * h * h / 2
            back = min(self._time_from(gone, speed), h)  # how long ago it crossed
            cx, cy = x - ux * gone, y - uy * gone  # on the rim
            k = (speed + p.deceleration * back) / speed  # its speed there
            vx, vy = vx * k, vy * k
            vx, vy = self._climb(cx, cy, vx, vy, now - back - t_in)
            inward = vx * cx + vy * cy < 0
            if inward:
                self._hole_in[pid] = t_in  # rolls back in, still dipped
            self._roll_on(body, cx, cy, vx, vy, back)
            x, y = body.position
            far = math.hypot(x, y)
            if inward and far >= radius:  # kept inside the rim
                body.position = (x * radius / far * (1 - 1e-9), y * radius / far * (1 - 1e-9))

    def _climb(self, x: float, y: float, vx: float, vy: float, tau: float) -> tuple[float, float]:
        """The velocity of a pawn whose centre reaches the hole's rim at ``(x, y)`` moving
        out at ``(vx, vy)`` after ``tau`` over the hole: its outward component changed by
        :func:`model.climb_out`, its component along the rim kept."""
        d = math.hypot(x, y)
        nx, ny = x / d, y / d
        vn = vx * nx + vy * ny
        new = climb_out(vn, tau, self.params)
        return vx + (new - vn) * nx, vy + (new - vn) * ny

    def _topples(self, pawn: PawnBody, impulse: float) -> bool:
        """Whether the normal ``impulse`` topples ``pawn`` (:func:`model.topples`): above its
        threshold for the shot, times knock_over_moving_factor if it was moving before the
        step."""
        p = self.params
        threshold = self._tough.get(pawn.id, p.knock_over_impulse)
        return topples(impulse, threshold, self._was_moving.get(pawn.body, False), p)

    @property
    def rng(self) -> np.random.Generator:
        """The shot's random generator, made from its seed when first needed (a generator
        given as the seed is used as it is)."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng

    def _remove(
        self,
        space: pymunk.Space,
        pawn: PawnBody,
        status: Status,
        kind: EventType,
        t: float,
        linger: bool = False,
    ) -> None:
        """``pawn`` leaves play now (its status, event and place are this moment's); it leaves
        the space after this step, or, with ``linger``, after the first step that ends
        ``topple_time`` after this one."""
        x, y = pawn.body.position
        self.removed[pawn.id] = PawnRest(pawn.id, pawn.seat, x, y, status)
        self.events.append(Event(t, kind, (pawn.id,), 0.0, x, y))
        if linger:
            # it leaves at t + topple_time, and not before the end of the next step
            self._falling[pawn.id] = (t + self.params.topple_time, self.steps + 2)
        else:
            self._doomed.append(pawn.id)

    def _drop_doomed(self, everything: bool = False) -> None:
        """Take the pawns removed during the last step out of the space (between steps); a
        toppled one once its fall has ended (``everything``: at once)."""
        if self._falling:
            # a fall ends with the step that ends at or after its time (no contact that begins
            # later takes place: see _gone_before)
            now = round(self.steps * self._h, 9) + 1e-9
            for pid, (leave, after) in list(self._falling.items()):
                if everything or (leave <= now and self.steps >= after):
                    self._doomed.append(pid)
                    del self._falling[pid]
        for pid in self._doomed:
            pawn = self._pawns.pop(pid)
            del self._by_body[pawn.body]
            self.space.remove(*pawn.parts)
        self._doomed.clear()

    def _coast_plan(self, pawn: PawnBody) -> _Coast | None:
        """The closed-form finish of a lone rolling pawn's slide, when nothing can touch it.

        With one pawn awake, rolling resistance takes exactly μ·g·dt off its speed each step
        and the position steps with the speed before that, so from speed s it has travelled
        dt·(n·s − μg·dt·n(n−1)/2) after n steps, straight on, and stops after
        M = ⌈s/(μg·dt)⌉ steps. When that path stays clear of every rail, every other pawn and
        the hole, the pawn stops where the plan says, or, if its centre leaves the table on
        the way, is removed off the board at the first step past the edge: the same place and
        step that stepping reaches, to rounding (about 1e-15 m). Tried when one pawn is awake
        and something happened since the last try, waiting twice as long after each failed
        try. ``run()`` lands the plan at once (:meth:`_coast_land`); ``step()`` shows it frame
        by frame and lands it at its last step, so both give the same result to the bit.
        """
        if pawn is _SEVERAL or len(self.events) == self._coast_events:
            return None
        if pawn.id in self.removed:
            return None  # toppled, it leaves after this step
        if self.steps < self._coast_next:
            return None
        self._coast_events = len(self.events)
        # a failed try waits twice as long as the last before the next
        self._coast_wait *= 2
        self._coast_next = self.steps + self._coast_wait
        body, p = pawn.body, self.params
        vx, vy = body.velocity
        speed = math.hypot(vx, vy)
        h = self._h
        dv = p.mu_roll * p.g * h
        if speed <= dv:
            return None
        x0, y0 = body.position
        plan = _Coast(pawn, self.steps, x0, y0, vx / speed, vy / speed, speed, dv, h)
        steps = math.ceil(speed / dv)
        total = plan.travelled(steps)
        exit_at = self.world.edge_entry((x0, y0), (x0 + plan.ux * total, y0 + plan.uy * total))
        if exit_at is not None:
            edge = exit_at * total
            # the first step whose position is past the edge
            half = speed + dv / 2
            n = max(1, math.ceil((half - math.sqrt(max(half * half - 2 * dv * edge / h, 0))) / dv))
            while n < steps and plan.travelled(n) <= edge:
                n += 1
            while n > 1 and plan.travelled(n - 1) > edge:
                n -= 1
            steps = n
        plan.steps, plan.off = steps, exit_at is not None
        k = p.rest_check_steps
        # stepping notices rest at the first rest check once the pawn has stopped
        done = -(-(self.steps + steps) // k) * k if exit_at is None else self.steps + steps
        if done > self._max_steps:
            return None  # stepping reaches the time limit first
        if not self.world.path_is_clear((x0, y0), plan.at(steps), self._pawns, pawn.id):
            return None
        if self._pressed_apart(skip=pawn):  # its own path is clear: the others must be
            return None
        plan.done = done
        return plan

    def _coast_land(self, plan: _Coast) -> bool:
        """Put a coasting pawn where its plan ends (:meth:`_coast_plan`), at the plan's step.
        Returns True when nothing moves any more."""
        body = plan.pawn.body
        body.position = plan.at(plan.steps)
        self.coasted = True
        if not plan.off:
            body.velocity = (0.0, 0.0)
            body.angular_velocity = 0.0
            self.steps = plan.done
            return True
        # the removal is stamped inside the step that crosses the edge
        self.steps = plan.start + plan.steps - 1
        status = way_off(self.face, *plan.pawn.body.position, self.params.pawn_radius)
        self._remove(self.space, plan.pawn, status, EventType.OFF_BOARD, self._now(self.space))
        self.steps += 1
        self._drop_doomed()
        if self._translating():
            return False
        if self._pawns:  # rest is noticed at the end of the step's chunk (none left: at once)
            k = self.params.rest_check_steps
            self.steps = min(-(-self.steps // k) * k, self._max_steps)
        return True

    def _translating(self) -> bool:
        """True while some pawn moves (its spin alone does not count)."""
        return any(abs(pw.body.velocity) > _REST_SPEED for pw in self._pawns.values())

    def _pressed_apart(self, skip: PawnBody | None = None) -> bool:
        """True when a pawn (other than ``skip``) still overlaps a rail or another pawn by more
        than the slop (a hard hit pressed it in): those pawns are woken so the solver pushes
        them out before the shot may settle."""
        pawns = [pw for pw in self._pawns.values() if pw is not skip]
        if not pawns:
            return False
        p = self.params
        tol = p.collision_slop + _REST_OVERLAP
        where = np.array([tuple(pw.body.position) for pw in pawns])
        pressed = self.world.in_rails(where, tol)
        if len(pawns) > 1:
            diff = where[:, None, :] - where[None, :, :]
            gap = np.hypot(diff[:, :, 0], diff[:, :, 1])
            np.fill_diagonal(gap, np.inf)
            pressed |= (gap < 2 * p.pawn_radius - tol).any(axis=1)
        for pw, hit in zip(pawns, pressed, strict=True):
            if hit:
                pw.body.activate()
        return bool(pressed.any())

    def _lone_mover(self) -> PawnBody | None:
        """The one pawn awake, ``_SEVERAL`` when more are, None when all are asleep."""
        lone = None
        for pw in self._pawns.values():
            if abs(pw.body.velocity) > _REST_SPEED:
                if lone is not None:
                    return _SEVERAL
                lone = pw
        return lone

    def _events(
        self, kind: EventType, pawns: tuple[str, ...], x: float = 0.0, y: float = 0.0
    ) -> None:
        self.events.append(Event(round(self.t, 9), kind, pawns, 0.0, x, y))


_T = TypeVar("_T")

_SEVERAL = PawnBody("", "", pymunk.Body(), ())
"""stands for "more than one pawn is moving" """


@dataclass
class _Coast:
    """A lone pawn's slide finished in closed form (:meth:`PymunkSimulation._coast_plan`): from
    ``(x0, y0)`` at step ``start``, heading ``(ux, uy)`` at ``speed``, losing ``dv`` each step of
    ``h``; it stops (or, ``off``, leaves the table) after ``steps`` steps, and stepping notices it
    at step ``done``."""

    pawn: PawnBody
    start: int
    x0: float
    y0: float
    ux: float
    uy: float
    speed: float
    dv: float
    h: float
    steps: int = 0
    off: bool = False
    done: int = 0

    def travelled(self, n: int) -> float:
        return self.h * (n * self.speed - self.dv * n * (n - 1) / 2)

    def at(self, n: int) -> tuple[float, float]:
        reach = self.travelled(n)
        return self.x0 + self.ux * reach, self.y0 + self.uy * reach

    def velocity(self, n: int) -> tuple[float, float]:
        speed = max(self.speed - n * self.dv, 0.0)
        return self.ux * speed, self.uy * speed


_REST_SPEED = REST_SPEED

_TOUCH_SPEED = 1e-9
"""two touching pawns closing slower than this (m/s) are not pressing on each other (as in the
exact engine)"""


def _forget_cached_impulse(arb: pymunk.Arbiter) -> None:
    """Zero a new contact's accumulated impulses.

    Chipmunk keeps the contact of two shapes that parted for a few steps and, when they touch
    again, copies the old contact's accumulated impulse into the new one. It does not apply it
    (a first contact is not warm-started), but the solver counts the new impulse from it: the
    impulse reported for the new contact is then the old one plus the new, and the solver may
    take back up to the old one (a pull between parting shapes)."""
    raw = getattr(arb, "_arbiter", None)
    if raw is None:  # pragma: no cover - a pymunk that hides its arbiter
        return
    for i in range(raw.count):
        raw.contacts[i].jnAcc = 0.0
        raw.contacts[i].jtAcc = 0.0


def _let_go(joint: pymunk.Constraint, space: pymunk.Space) -> None:
    """A friction joint's pre-solve in a step that meets a new contact of its pawn: the joint
    lets go for the step (the contact alone acts; the rolling resistance over the step is
    applied after it). Called before the solver, when the pawn is awake."""
    joint.max_force = 0.0


def _pop(items: set[_T], item: _T) -> bool:
    """Remove ``item`` from ``items``; whether it was there."""
    if item in items:
        items.remove(item)
        return True
    return False


_REST_OVERLAP = 1e-5
"""at rest no pawn overlaps a rail or another pawn by more than collision_slop plus this, m"""


_BACK = 4
"""how many steps before the step that finds it a new contact may have begun: a pawn struck in a
step rolls on from the moment it was struck to the step's end, up to two steps if that contact
was itself put off, and may reach another pawn on the way"""


def _entry_time(dx: float, dy: float, wx: float, wy: float, reach: float, h: float) -> float | None:
    """When, within ``[-_BACK·h, h]``, a separation starting at ``(dx, dy)`` and changing at
    ``(wx, wy)`` first falls to ``reach`` (the earlier root of |d + w·s| = reach), or None."""
    a = wx * wx + wy * wy
    b = dx * wx + dy * wy
    c = dx * dx + dy * dy - reach * reach
    disc = b * b - a * c
    if a <= 0.0 or disc < 0.0 or b >= 0.0:
        return None
    root = math.sqrt(disc)
    # the earlier root of a·s² + 2b·s + c = 0, in the form that keeps its precision
    s = c / (root - b) if c > 0 else (-b - root) / a
    return s if -_BACK * h <= s <= h else None


def _ahead(x: float, y: float, ux: float, uy: float, radius: float) -> float | None:
    """How far a point at ``(x, y)`` moving along the unit vector ``(ux, uy)`` goes before
    it comes within ``radius`` of the origin (0 if it is within it), or None if it never
    does."""
    b = x * ux + y * uy
    c = x * x + y * y - radius * radius
    if c <= 0.0:
        return 0.0
    disc = b * b - c
    if b >= 0.0 or disc < 0.0:
        return None
    return c / (-b + math.sqrt(disc))  # the smaller root of D² + 2b·D + c = 0


def _behind(x: float, y: float, ux: float, uy: float, radius: float) -> float | None:
    """How far back a point at ``(x, y)``, at or beyond ``radius`` from the origin, moving along
    the unit vector ``(ux, uy)``, crossed that circle outward (its last crossing), or None when
    it is not moving outward or its straight path was never inside the circle."""
    b = x * ux + y * uy
    if b <= 0.0:
        return None
    c = max(x * x + y * y - radius * radius, 0.0)
    disc = b * b - c
    if disc < 0.0:
        return None
    return c / (b + math.sqrt(disc))  # the smaller root of D² − 2b·D + c = 0


def _rail_touch(
    start: tuple[float, float],
    v: tuple[float, float],
    a: tuple[float, float],
    b: tuple[float, float],
    reach: float,
    h: float,
) -> tuple[float, float, float] | None:
    """When, within ``[-_BACK·h, h]`` of a step that began at ``start`` moving at ``v``, a pawn first
    touched the rail a–b (its centre came within ``reach`` of the segment: its side band or an
    end disc), and the unit normal from the pawn toward the rail there; or None."""
    (x0, y0), (vx, vy) = start, v
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey)
    best: tuple[float, float, float] | None = None
    if length > 0:
        nx, ny = -ey / length, ex / length
        side = (x0 - a[0]) * nx + (y0 - a[1]) * ny
        towards = vx * nx + vy * ny
        if side * towards < 0:
            s = (abs(side) - reach) / abs(towards)
            along = ((x0 + vx * s - a[0]) * ex + (y0 + vy * s - a[1]) * ey) / (length * length)
            if -_BACK * h <= s <= h and 0.0 <= along <= 1.0:
                sign = -1.0 if side > 0 else 1.0
                best = (s, sign * nx, sign * ny)
    for cx, cy in (a, b):
        s_cap = _entry_time(cx - x0, cy - y0, -vx, -vy, reach, h)
        if s_cap is not None and (best is None or s_cap < best[0]):
            dx, dy = cx - (x0 + vx * s_cap), cy - (y0 + vy * s_cap)
            d = math.hypot(dx, dy)
            best = (s_cap, dx / d, dy / d)
    return best

"""The planner: the shot that gives the best chance of winning the game, under the seat's own hand.

A turn's search, stepped one batch of simulations at a time (:class:`PlanSearch`, so a window can
run it in slices between frames):

1. **Candidates of every kind**, each an intended shot released where the pawn fits: a draw to
   the best spots of every value (each ring, the rest of the board, tipping over the edge of its
   own track; :func:`sliders.ai.aims.target_spots`), the hole where it sends a pawn HOME; hits on
   every pawn on the table, straight through at three weights; cut shots that send an
   opponent's pawn into each SORRY! corner and off the board (aimed at the contact point, as a
   billiards player aims a cut); guards that stop in front of the seat's own pawns on the target.
2. **Samples under the seat's own hand**: every candidate is slid a few times with execution
   errors drawn from the seat's noise, in the exact engine's batch path (compiled, tens of
   thousands of shots a second). Sample ``j`` of every candidate has the same hand (common random
   numbers), so candidates are compared on equal luck.
3. **Valued by the chance of winning**: each outcome (every pawn's status and points) goes
   through the rules engine (:func:`sliders.rules.apply_shot`: penalties, Instant Home, a win) and
   the resulting game is valued by the chance of winning fitted on whole games
   (:mod:`sliders.ai.win`, which reads the race model :mod:`sliders.ai.race`); outcomes repeat,
   so each distinct one is valued once.
4. **Successive halving with shared outcomes**: candidates are ranked by a kernel-smoothed mean
   — the samples of nearby candidates count too, weighted by a Gaussian in units of the hand's
   noise, as digital curling programs share outcomes between nearby shots — the best third
   keeps going with twice the samples, the best two are refined by shots one noise-sigma
   around them, and the last few race to the end of the budget.

The shot played is the best intended shot with one more draw of the same hand. Every draw comes
from the player's generator in a fixed order, so the search does not depend on how its steps are
spread over frames, and a seed fixes the play.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from sliders.ai.aims import (
    HOLE,
    aim_at,
    choices_of,
    lane_mouth,
    shot_odds,
    target_spots,
)
from sliders.ai.race import RaceModel
from sliders.ai.release import fallback_shot, fit_release, free_offset, free_release
from sliders.ai.win import WinModel
from sliders.boards import Face, Layout
from sliders.errors import UserError
from sliders.outcome import STATUSES, BatchResult, PawnRest, ShotResult, Status, pawn_seat
from sliders.physics import Noise, PhysicsParams, Setup, Shot, Shots, simulate_many
from sliders.physics.noise import apply_errors
from sliders.rules import GameState, RulesError, apply_shot

MAX_ANGLE = math.radians(80)
"""no intended shot is aimed wider than this off the lane's axis"""
MIN_SPEED = 0.01
BANDWIDTH = 0.5
"""kernel bandwidth in units of the hand's noise"""
MAX_SAMPLES = 256
"""samples of one candidate at most"""
CHUNK = 64
"""simulations a step solves in one batch at most (a whole candidate at least)"""
KEEP = 1 / 3
"""share of the candidates each halving keeps"""
CUT_LIMIT = math.radians(65)
"""cut shots thinner than this (angle between the shot and the struck pawn's path) are not tried"""
UNSETTLED_COST = 40
"""what a sample that ran to the engine's event limit unsettled costs the budget, in simulations
(it took about as long as that many): the budget stays a count, so play stays reproducible"""


@dataclass(frozen=True, slots=True)
class Mind:
    """How a computer thinks: its search and its budget a decision.

    ``kind`` ``plan`` is the planner (this module): ``simulations`` a decision (a sample that
    runs to the engine's event limit counts :data:`UNSETTLED_COST`), ``first`` samples a
    candidate in its first round. ``kind`` ``classic`` is the search the computer used before
    (:class:`sliders.ai.player.ShotSearch`: ``candidates`` simulated once, ``finalists`` sampled
    ``samples`` times, scored by the points of the next position). ``seconds`` caps a decision's
    wall time, every slice counted (None, the default of every named mind: no cap, so a seed
    fixes the play; with a cap, a decision that reaches it depends on the machine's speed).
    """

    name: str
    simulations: int
    first: int = 4
    kind: str = "plan"
    candidates: int = 0
    finalists: int = 0
    samples: int = 0
    seconds: float | None = None

    @property
    def budget(self) -> int:
        if self.kind == "classic":
            return self.candidates + self.finalists * self.samples
        return self.simulations


@dataclass(eq=False)
class _Candidate:
    kind: str
    label: str
    x: np.ndarray  # speed, angle, offset
    release: float  # along the lane (the foul line, or further back when it is taken)
    values: list[float] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else -math.inf


@cache
def race_model(
    layout: Layout, face: Face, seat: str, hand: Noise, params: PhysicsParams
) -> RaceModel:
    """The race model of ``hand`` shooting from ``seat`` (cached: built once a process)."""
    return RaceModel(shot_odds(layout, face, seat, hand, params))


@cache
def win_model(
    layout: Layout, face: Face, seat: str, hand: Noise, params: PhysicsParams
) -> WinModel:
    """The chance of winning for ``hand`` shooting from ``seat`` (cached: built once a process)."""
    return WinModel(race_model(layout, face, seat, hand, params))


class PlanSearch:
    """One turn's planning, advanced one batch of simulations per :meth:`step`."""

    def __init__(
        self,
        seat: str,
        hand: Noise,
        mind: Mind,
        rng: np.random.Generator,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams,
    ) -> None:
        if state.turn != seat:
            raise UserError(f"it is not {seat}'s turn")
        pawn = state.next_pawn()
        if pawn is None:
            raise UserError(f"{seat} has no pawn in hand")
        self.seat_name, self.hand, self.mind, self.rng = seat, hand, mind, rng
        self.state, self.layout, self.face, self.params = state, layout, face, params
        self.pawn = pawn
        self.seat = layout.seat(seat)
        self.model = win_model(layout, face, seat, hand, params)
        self.simulations = 0
        self.evaluated = 0
        self.cost = 0
        """the budget spent: a simulation each, more for one that ran to the engine's limit"""
        self.thought = 0.0
        """seconds spent stepping so far"""
        self._cache: dict[tuple, float] = {}
        self.max_samples = 1 if hand.is_zero else MAX_SAMPLES
        self.errors = hand.draw(rng, self.max_samples)
        self.seeds = rng.integers(2**63, size=self.max_samples)
        self.sigma = np.array([hand.speed_rel, math.radians(hand.angle_deg), hand.offset])
        self.candidates = self._candidates()
        self.pool: list[_Candidate] = list(self.candidates)
        self._live: list[_Candidate] = list(self.candidates)
        self._target = min(mind.first, self.max_samples)
        self._queue: list[_Candidate] = list(self._live)
        self._refined = False
        self._done = not self.candidates

    # -- stepping -------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._done

    def step(self) -> bool:
        """Sample the next candidates of the stage, up to :data:`CHUNK` simulations in one batch,
        each up to the stage's count; True once done."""
        if self._done:
            return True
        # What each candidate would get if no sample ran unsettled (an unsettled one costs more
        # and can only shorten the later ones): solved together, then kept as one at a time would.
        plan: list[tuple[_Candidate, int]] = []
        left, total = self.mind.simulations - self.cost, 0
        while self._queue and (not plan or total < CHUNK):
            cand = self._queue.pop(0)
            want = min(min(self._target, self.max_samples) - cand.n, max(left, 0))
            plan.append((cand, want))
            left -= max(want, 0)
            total += max(want, 0)
        res = self._simulate([(c, w) for c, w in plan if w > 0])
        kept: list[tuple[_Candidate, int, int]] = []
        row = 0
        for k, (cand, want) in enumerate(plan):
            if want <= 0:
                continue
            take = min(want, max(self.mind.simulations - self.cost, 0))
            if take > 0:
                self.simulations += take
                unsettled = int(np.count_nonzero(~res.settled[row : row + take]))
                self.cost += take + UNSETTLED_COST * unsettled
                kept.append((cand, row, take))
            row += want
            if self.cost >= self.mind.simulations:
                self._queue = [c for c, _ in plan[k + 1 :]] + self._queue
                break
        if kept:
            values = self._values(res, np.concatenate([np.arange(r, r + n) for _, r, n in kept]))
            at = 0
            for cand, _, n in kept:
                cand.values += values[at : at + n]
                at += n
        if self.cost >= self.mind.simulations:
            self._done = True
        elif not self._queue:
            self._next_stage()
        return self._done

    def run(self, seconds: float | None = None) -> bool:
        """Step until done, or for at most ``seconds`` of wall time; True once done. The mind's
        cap (``Mind.seconds``) counts the time of every slice together."""
        end = None if seconds is None else time.perf_counter() + seconds
        while not self._done:
            t0 = time.perf_counter()
            self.step()
            now = time.perf_counter()
            self.thought += now - t0
            if self.mind.seconds is not None and self.thought >= self.mind.seconds:
                self._done = True
            if end is not None and now >= end:
                break
        return self._done

    def best(self) -> Shot:
        """The intended shot with the best smoothed value so far."""
        if not self.candidates:
            return self._fallback()
        sampled = [c for c in self.pool if c.n]
        if not sampled:
            return self._shot(self.candidates[0])
        most = max(c.n for c in sampled)
        contenders = [c for c in sampled if c.n * 2 >= most]
        score = self._smoothed(contenders)
        i = max(range(len(contenders)), key=lambda k: (score[k], contenders[k].n))
        return self._shot(contenders[i])

    def best_candidate(self) -> tuple[str, str, float]:
        """(kind, label, smoothed value) of the shot :meth:`best` returns."""
        shot = self.best()
        for c in self.pool:
            if self._shot(c) == shot:
                return c.kind, c.label, float(self._smoothed([c])[0])
        return "fallback", "a gentle slide", math.nan

    def executed(self) -> Shot:
        """The best intended shot as the seat's hand plays it (one draw of its noise)."""
        shot = self.best()
        (e,) = self.hand.draw(self.rng, 1)
        return self._fit(apply_errors(shot, e, self.seat, self.params))

    # -- the stages -----------------------------------------------------------------------------

    def _next_stage(self) -> None:
        ranked = self._ranked(self._live)
        if len(ranked) > 3:
            self._live = ranked[: max(3, math.ceil(len(ranked) * KEEP))]
            self._target = min(self._target * 2, self.max_samples)
        elif not self._refined and self.sigma.any():
            self._refined = True
            fresh = [n for c in ranked[:2] for n in self._neighbours(c)]
            self.pool += fresh
            self._live = ranked + fresh
        else:
            if self._target >= self.max_samples:
                self._done = True
                return
            self._target = min(self._target * 2, self.max_samples)
        self._queue = list(self._live)

    def _neighbours(self, c: _Candidate) -> list[_Candidate]:
        out = []
        for ds, da in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x = c.x.copy()
            x[0] *= 1 + ds * self.sigma[0]
            x[1] += da * self.sigma[1]
            if MIN_SPEED <= x[0] <= self.params.max_speed and abs(x[1]) <= MAX_ANGLE:
                out.append(_Candidate(c.kind, c.label + " (refined)", x, c.release))
        return out

    def _ranked(self, cands: list[_Candidate]) -> list[_Candidate]:
        score = self._smoothed(cands)
        order = sorted(range(len(cands)), key=lambda i: (-score[i], -cands[i].n))
        return [cands[i] for i in order]

    def _smoothed(self, cands: list[_Candidate]) -> np.ndarray:
        """Kernel-weighted means over every candidate sampled (see the module, step 4)."""
        if not self.sigma.any():
            return np.array([c.mean for c in cands])
        everyone = [c for c in self.pool if c.n]
        xs = np.array([c.x for c in everyone]).reshape(-1, 3)
        rel = np.array([c.release for c in everyone])
        sums = np.array([sum(c.values) for c in everyone])
        ns = np.array([c.n for c in everyone], dtype=float)
        at = np.array([c.x for c in cands])
        live = self.sigma > 0  # speeds are positive, so the bandwidth's zeros are sigma's
        h = (
            BANDWIDTH
            * self.sigma
            * np.stack([at[:, 0], np.ones(len(cands)), np.ones(len(cands))], axis=1)
        )
        d = (xs[None, :, live] - at[:, None, live]) / h[:, None, live]
        z = np.sum(d**2, axis=2)
        same = rel[None, :] == np.array([c.release for c in cands])[:, None]
        w = np.where(same, np.exp(-0.5 * z), 0.0)
        out = np.empty(len(cands))
        for i, c in enumerate(cands):
            den = w[i] @ ns
            out[i] = (w[i] @ sums) / den if den > 0 else c.mean
        return out

    # -- sampling and valuing -------------------------------------------------------------------

    def _simulate(self, plan: list[tuple[_Candidate, int]]):  # noqa: ANN202 - a BatchResult
        """Solve ``n`` more samples of each candidate of ``plan`` in one batch, in order."""
        if not plan:
            return None
        x = np.concatenate([np.repeat(c.x[None, :], n, axis=0) for c, n in plan])
        e = np.concatenate([self.errors[c.n : c.n + n] for c, n in plan])
        seeds = np.concatenate([self.seeds[c.n : c.n + n] for c, n in plan])
        release = np.concatenate([np.full(n, c.release) for c, n in plan])
        limit = self.seat.width / 2 - self.params.pawn_radius
        speed = np.clip(x[:, 0] * (1 + e[:, 0]), 1e-3, self.params.max_speed)
        angle = np.clip(x[:, 1] + e[:, 1], -math.radians(89), math.radians(89))
        offset = np.clip(x[:, 2] + e[:, 2], -limit, limit)
        setup = Setup(self.layout, self.face, self.params, "exact")
        many = Shots(self.seat_name, speed, angle, offset, release, seeds, self.pawn, refuse=False)
        return simulate_many(setup, self.state.table, many)

    def _values(self, res, rows: np.ndarray) -> list[float]:  # noqa: ANN001 - BatchResult
        """The value of each row ``rows`` of ``res``, each distinct outcome valued once."""
        codes = np.concatenate(
            [res.refused[rows, None], res.status[rows], res.points[rows]], axis=1, dtype=np.int16
        )
        codes = np.ascontiguousarray(codes)
        keys = codes.view(np.dtype((np.void, codes.itemsize * codes.shape[1]))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        got = [self._value(res, int(rows[f])) for f in first]
        return [got[j] for j in inverse.ravel()]

    def _value(self, res: BatchResult, s: int) -> float:
        refused = bool(res.refused[s])
        key = (refused, res.status[s].tobytes(), res.points[s].tobytes())
        got = self._cache.get(key)
        if got is not None:
            return got
        pawns = []
        for k, pid in enumerate(res.order):
            status = STATUSES[int(res.status[s, k])]
            if refused and k == 0:
                status = Status.FOUL
            points = int(res.points[s, k])
            choices = choices_of(self.face, status, points) if status.in_play else (0,)
            xy = float(res.x[s, k]), float(res.y[s, k])
            pawns.append(PawnRest(pid, pawn_seat(pid), *xy, status, max(choices), choices))
        result = ShotResult(self.face.name, self.pawn, tuple(pawns))
        try:
            after, _ = apply_shot(self.state, result)
            got = self.model.win_probability(after, self.seat_name)
        except RulesError:
            got = -1.0
        self.evaluated += 1
        self._cache[key] = got
        return got

    # -- candidates -----------------------------------------------------------------------------

    def _candidates(self) -> list[_Candidate]:
        table = self.state.table
        seat, p = self.seat, self.params
        r = p.pawn_radius
        got = free_release(table, seat, r)
        if got is None:
            return []
        along, first = got
        mouth = lane_mouth(self.layout, seat)
        limit = seat.width / 2 - r

        def offsets(*wishes: float) -> list[float]:
            out: list[float] = []
            for w in wishes:
                o = free_offset(table, seat, along, w, r)
                o = first if o is None else o
                if all(abs(o - q) > 1e-9 for q in out):
                    out.append(o)
            return out

        cands: list[_Candidate] = []

        def add(
            kind: str, label: str, x: float, y: float, offset: float, beyond: float = 0.0
        ) -> None:
            aim = aim_at(seat, p, along, offset, x, y, mouth, beyond)
            if aim is not None:
                cands.append(_Candidate(kind, label, np.array([aim[0], aim[1], offset]), along))

        for value, spots in target_spots(self.layout, self.face, self.seat_name, r).items():
            kind = "hole" if value == HOLE else "draw"
            for spot in spots:
                for o in offsets(spot.offset, 0.0):
                    add(kind, f"draw to {value} at {spot.x:+.3f},{spot.y:+.3f}", spot.x, spot.y, o)
        wide = offsets(0.0, -0.5 * limit, 0.5 * limit)
        for q in table:
            mine = q.seat == self.seat_name
            for o in wide:
                for beyond, how in ((0.04, "nudge"), (0.12, "push"), (0.35, "clear")):
                    if mine and how == "clear":
                        continue
                    add("hit", f"{how} {q.id}", q.x, q.y, o, beyond)
            if not mine:
                for tx, ty, where in self._sinks(q):
                    for o in wide:
                        cut = self._cut(q, tx, ty, along, o, mouth)
                        if cut is not None:
                            cands.append(_Candidate("takeout", f"knock {q.id} {where}", cut, along))
            elif q.status is Status.ON_TARGET and q.points >= 3:
                for short in (0.05, 0.08):
                    qa, qc = seat.from_world(q.x, q.y)
                    gx, gy = seat.to_world(qa - short, qc * (qa - short - along) / (qa - along))
                    for o in offsets(0.0):
                        add("guard", f"guard {q.id}", gx, gy, o)
        return cands

    def _sinks(self, q: PawnRest) -> list[tuple[float, float, str]]:
        """Where to send an opponent's pawn: each SORRY! corner, and off the board's far side."""
        f = self.face
        out = [(cx, cy, "into a SORRY! corner") for cx, cy in f.corners]
        h = f.half + 0.05
        for ex, ey in ((h, q.y), (-h, q.y), (q.x, h), (q.x, -h)):
            out.append((ex, ey, "off the board"))
        return out

    def _cut(
        self, q: PawnRest, tx: float, ty: float, along: float, offset: float, mouth: float
    ) -> np.ndarray | None:
        """The shot (speed, angle, offset) that strikes ``q`` so it runs to (tx, ty): aimed at the
        contact point two radii behind ``q`` on that line."""
        p, seat = self.params, self.seat
        r = p.pawn_radius
        ux, uy = tx - q.x, ty - q.y
        dist = math.hypot(ux, uy)
        if dist < 1e-9:
            return None
        ux, uy = ux / dist, uy / dist
        gx, gy = q.x - 2 * r * ux, q.y - 2 * r * uy
        sx, sy = seat.to_world(along, offset)
        vx, vy = gx - sx, gy - sy
        path = math.hypot(vx, vy)
        if path < 1e-9:
            return None
        cos_cut = (vx * ux + vy * uy) / path
        if cos_cut < math.cos(CUT_LIMIT):
            return None
        aim = aim_at(seat, p, along, offset, gx, gy, mouth)
        if aim is None:
            return None
        struck = math.sqrt(2 * p.deceleration * (dist + 0.02))
        at_contact = struck / (cos_cut * (1 + p.restitution_pawn) / 2)
        speed = math.sqrt(at_contact**2 + 2 * p.deceleration * path)
        if speed > p.max_speed:
            return None
        return np.array([speed, aim[1], offset])

    # -- shots ----------------------------------------------------------------------------------

    def _shot(self, c: _Candidate) -> Shot:
        speed = float(min(max(c.x[0], MIN_SPEED), self.params.max_speed))
        angle = float(min(max(c.x[1], -MAX_ANGLE), MAX_ANGLE))
        release = None if c.release >= self.seat.foul - 1e-12 else c.release
        shot = Shot(self.seat_name, speed, angle, float(c.x[2]), release, self.pawn)
        return self._fit(shot)

    def _fit(self, shot: Shot) -> Shot:
        shot = replace(
            shot,
            speed=min(max(shot.speed, MIN_SPEED), self.params.max_speed),
            angle=min(max(shot.angle, -MAX_ANGLE), MAX_ANGLE),
        )
        return fit_release(shot, self.state, self.layout, self.params)

    def _fallback(self) -> Shot:
        return fallback_shot(self.state, self.layout, self.params, self.seat_name, self.pawn)

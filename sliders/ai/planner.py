"""The one shot search: the shot that gives the best chance of winning the game, under a hand.

The computer players choose every shot with it, and ``sliders best`` (:mod:`sliders.lab.search`)
searches a box of shots with it. A search, stepped one batch of simulations at a time
(:class:`PlanSearch`, so a window can run it in slices between frames), with the settings of a
:class:`Mind` (its budget, and how it spends it):

1. **Candidates of every kind** (or the intended shots given, e.g. a grid over a box), each an
   intended shot released where the pawn fits: a draw to the best spots of every value (each
   ring, the rest of the board, tipping over the edge of its own track;
   :func:`sliders.ai.aims.target_spots`), the hole where it sends a pawn HOME; hits on every pawn
   on the table, straight through at three weights; cut shots that send an opponent's pawn into
   each SORRY! corner and off the board (aimed at the contact point, as a billiards player aims a
   cut); guards that stop in front of the seat's own pawns on the target.
2. **Samples under the seat's own hand**: every candidate is slid a few times with execution
   errors drawn from the seat's noise, in the exact engine's batch path (compiled, tens of
   thousands of shots a second). Sample ``j`` of every candidate has the same hand (common random
   numbers), so candidates are compared on equal luck.
3. **Valued by the chance of winning**, the one value (:mod:`sliders.ai.value`): each outcome
   (every pawn's status and points) goes through the rules engine
   (:func:`sliders.rules.apply_shot`: penalties, Instant Home, a win) and the resulting game is
   valued by the chance of winning fitted on whole games (:mod:`sliders.ai.win`, which reads the
   race model :mod:`sliders.ai.race`); outcomes repeat, so each distinct one is valued once.
   The value is taken in expectation over the other seats' knocks still to come this round
   (:mod:`sliders.ai.exposure`): a pawn of the seat left where an opponent's shot can cut it
   into a SORRY! corner or off an open edge of the board is valued, with the chance of that
   knock, as knocked there (its score gone, the penalty applied by the rules engine).
   ``Mind.exposure`` turns it off.
4. **Successive halving with shared outcomes**: candidates are ranked by a kernel-smoothed mean
   — the samples of nearby candidates count too, weighted by a Gaussian in units of the hand's
   noise, as digital curling programs share outcomes between nearby shots — the best third
   keeps going with twice the samples, the best two are refined by shots one noise-sigma
   around them, and the last few race to the end of the budget (or to the mind's most samples
   a candidate).

The shot played is the best intended shot with one more draw of the same hand. Every draw comes
from the player's generator in a fixed order, so the search does not depend on how its steps are
spread over frames, and a seed fixes the play.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

import numpy as np

from sliders.ai.aims import HOLE, aim_at, lane_mouth, target_spots
from sliders.ai.classic import candidate_shots
from sliders.ai.exposure import knock_chances, knock_threats, shots_to_come
from sliders.ai.release import fallback_shot, fit_release, free_offset, free_release
from sliders.ai.value import Valuer, win_model
from sliders.boards import Face, Layout
from sliders.core.errors import UserError
from sliders.core.outcome import BatchResult, PawnRest, Status, pawn_seat
from sliders.physics import Noise, PhysicsParams, Setup, Shot, Shots, simulate_many
from sliders.physics.noise import apply_errors
from sliders.rules import GameState, RulesError, spared_penalties

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
GUARD_SHORT = 0.045
"""a sample rests *short* in play at least this far short of the board's centre (m, along the
line of play): in front of ring 4, in the way of shots at the centre"""
IN_PLAY = np.array([s.in_play for s in Status])
FOUL = list(Status).index(Status.FOUL)
OWN_TRACK = list(Status).index(Status.OWN_TRACK)
CORNER = list(Status).index(Status.SORRY_CORNER)
KNOCKED_OVER = list(Status).index(Status.KNOCKED_OVER)
MIN_THREAT = 0.02
"""a pawn's chance of being knocked to a penalty below this is not valued (it moves a value by
less than the noise of its samples)"""
UNSETTLED_COST = 40
"""what a sample that ran to the engine's event limit unsettled costs the budget, in simulations
(it took about as long as that many): the budget stays a count, so play stays reproducible"""


@dataclass(frozen=True, slots=True)
class Mind:
    """How a search thinks: its budget and how it spends it.

    ``simulations`` a decision (a sample that runs to the engine's event limit counts
    :data:`UNSETTLED_COST`); ``first`` samples a candidate in its first round; ``samples`` a
    candidate at most; ``keep`` the share of candidates each halving keeps; ``refine``: the best
    two are refined by shots this many noise-sigmas around them (0: not refined); ``bandwidth`` the kernel's, in
    units of the hand's noise (0: each candidate by its own samples). ``shots`` says which
    candidates it considers: ``plan``, every kind (see the module); ``classic``, the candidates
    of the search the computer used before the planner (:mod:`sliders.ai.classic`), at most
    ``pool`` of them. ``seconds`` caps a decision's wall time, every slice counted (None, the
    default of every named mind: no cap, so a seed fixes the play; with a cap, a decision that
    reaches it depends on the machine's speed).
    """

    name: str
    simulations: int
    first: int = 4
    samples: int = MAX_SAMPLES
    keep: float = KEEP
    refine: float = 1.0
    bandwidth: float = BANDWIDTH
    shots: str = "plan"
    pool: int = 0
    seconds: float | None = None
    exposure: bool = True

    @property
    def budget(self) -> int:
        return self.simulations


@dataclass(eq=False)
class _Candidate:
    kind: str
    label: str
    x: np.ndarray  # speed, angle, offset
    release: float  # along the lane (the foul line, or further back when it is taken)
    values: list[float] = field(default_factory=list)
    touched: list[bool] = field(default_factory=list)
    """each sample: the shot pawn touched another pawn"""
    cost: list[bool] = field(default_factory=list)
    """each sample: an opponent lost points"""
    short: list[bool] = field(default_factory=list)
    """each sample: the shot pawn rests in play short of the centre (``GUARD_SHORT``), not on
    its own track"""

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else -math.inf


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
        *,
        shots: np.ndarray | None = None,
        pawn: str | None = None,
    ) -> None:
        """``shots`` (k × 4: speed m/s, angle rad, offset m, release m down the lane), when
        given, are the candidates (refined within their range) instead of the mind's; ``pawn``
        the roller pawn to slide (None: the seat's next in hand)."""
        if state.turn != seat:
            raise UserError(f"it is not {seat}'s turn")
        pawn = pawn or state.next_pawn()
        if pawn is None:
            raise UserError(f"{seat} has no pawn in hand")
        self.seat_name, self.hand, self.mind, self.rng = seat, hand, mind, rng
        self.state, self.layout, self.face, self.params = state, layout, face, params
        self.pawn = pawn
        self.seat = layout.seat(seat)
        self.setup = Setup(layout, face, params, "exact")
        """what the search simulates in: the exact engine's batch path, whatever the game's engine"""
        self.model = win_model(layout, face, seat, hand, params)
        self.valuer = Valuer(state, seat, self.model)
        self.simulations = 0
        self.cost = 0
        """the budget spent: a simulation each, more for one that ran to the engine's limit"""
        self.thought = 0.0
        """seconds spent stepping so far"""
        self.max_samples = 1 if hand.is_zero else mind.samples
        self.errors = hand.draw(rng, self.max_samples)
        self.seeds = rng.integers(2**63, size=self.max_samples)
        self.sigma = np.array([hand.speed_rel, math.radians(hand.angle_deg), hand.offset])
        self._box = (np.array([MIN_SPEED, -MAX_ANGLE]), np.array([params.max_speed, MAX_ANGLE]))
        if shots is not None and len(shots):  # refined within the given shots' speeds and angles
            self._box = (shots[:, :2].min(axis=0), shots[:, :2].max(axis=0))
        self.candidates = self._given(shots) if shots is not None else self._candidates()
        self.pool: list[_Candidate] = list(self.candidates)
        self._live: list[_Candidate] = list(self.candidates)
        self._target = min(mind.first, self.max_samples)
        self._queue: list[_Candidate] = list(self._live)
        self._refined = mind.refine <= 0
        self._done = not self.candidates

    @property
    def evaluated(self) -> int:
        """Distinct outcomes valued so far."""
        return self.valuer.valued

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
        res = self._simulate([(c, w) for c, w in plan if w > 0])  # None: nothing to sample
        kept: list[tuple[_Candidate, int, int]] = []
        row = 0
        for k, (cand, want) in enumerate(plan):
            if want <= 0:
                continue
            take = min(want, max(self.mind.simulations - self.cost, 0))
            if take > 0:
                assert res is not None  # a candidate wanting samples had them solved
                self.simulations += take
                unsettled = int(np.count_nonzero(~res.settled[row : row + take]))
                self.cost += take + UNSETTLED_COST * unsettled
                kept.append((cand, row, take))
            row += want
            if self.cost >= self.mind.simulations:
                self._queue = [c for c, _ in plan[k + 1 :]] + self._queue
                break
        if kept and res is not None:
            rows = np.concatenate([np.arange(r, r + n) for _, r, n in kept])
            values = self._values(res, rows)
            touched, cost, short = self._facts(res, rows)
            at = 0
            for cand, _, n in kept:
                cand.values += values[at : at + n]
                cand.touched += touched[at : at + n].tolist()
                cand.cost += cost[at : at + n].tolist()
                cand.short += short[at : at + n].tolist()
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

    def ranking(self) -> list[_Candidate]:
        """Every candidate sampled, best first: those sampled at least half as much as the most
        (the first is the one :meth:`best` plays), then the others, each group by smoothed
        value (ties: more samples first)."""
        sampled = [c for c in self.pool if c.n]
        if not sampled:
            return []
        most = max(c.n for c in sampled)
        ahead = [c for c in sampled if c.n * 2 >= most]
        behind = [c for c in sampled if c.n * 2 < most]
        return self._ranked(ahead) + (self._ranked(behind) if behind else [])

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
            self._live = ranked[: max(3, math.ceil(len(ranked) * self.mind.keep))]
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
            x[0] *= 1 + ds * self.mind.refine * self.sigma[0]
            x[1] += da * self.mind.refine * self.sigma[1]
            lo, hi = self._box
            if np.all(lo <= x[:2]) and np.all(x[:2] <= hi):
                out.append(_Candidate(c.kind, c.label + " (refined)", x, c.release))
        return out

    def _ranked(self, cands: list[_Candidate]) -> list[_Candidate]:
        score = self._smoothed(cands)
        order = sorted(range(len(cands)), key=lambda i: (-score[i], -cands[i].n))
        return [cands[i] for i in order]

    def _smoothed(self, cands: list[_Candidate]) -> np.ndarray:
        """Kernel-weighted means over every candidate sampled (see the module, step 4)."""
        if not self.sigma.any() or self.mind.bandwidth <= 0:
            return np.array([c.mean for c in cands])
        everyone = [c for c in self.pool if c.n]
        xs = np.array([c.x for c in everyone]).reshape(-1, 3)
        rel = np.array([c.release for c in everyone])
        sums = np.array([sum(c.values) for c in everyone])
        ns = np.array([c.n for c in everyone], dtype=float)
        at = np.array([c.x for c in cands])
        live = self.sigma > 0  # speeds are positive, so the bandwidth's zeros are sigma's
        h = (
            self.mind.bandwidth
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

    def _simulate(self, plan: list[tuple[_Candidate, int]]) -> BatchResult | None:
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
        many = Shots(self.seat_name, speed, angle, offset, release, seeds, self.pawn, refuse=False)
        return simulate_many(self.setup, self.state.table, many)

    def _values(self, res: BatchResult, rows: np.ndarray) -> list[float]:
        """The value of each row ``rows`` of ``res``, each distinct outcome valued once."""
        codes = np.concatenate(
            [res.refused[rows, None], res.status[rows], res.points[rows]], axis=1, dtype=np.int16
        )
        codes = np.ascontiguousarray(codes)
        keys = codes.view(np.dtype((np.void, codes.itemsize * codes.shape[1]))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        got = np.array([self._value(res, int(rows[f])) for f in first])
        values = got[inverse]
        if not self.mind.exposure:
            return values.tolist()
        status = res.status[rows].astype(np.int64)
        status[res.refused[rows], 0] = FOUL
        threats = knock_threats(
            self.state, self.seat_name, self.layout, self.face, self.params,
            res.order, status, res.x[rows], res.y[rows],
        )  # fmt: skip
        if threats is None:
            return values.tolist()
        threats = knock_chances(threats, shots_to_come(self.state, self.seat_name))
        threats[threats < MIN_THREAT] = 0.0
        at, pawn = np.nonzero(threats)
        pairs, back = np.unique(inverse[at] * threats.shape[1] + pawn, return_inverse=True)
        outcome, column = divmod(pairs, threats.shape[1])
        knocked = np.array(
            [
                self._value(res, int(rows[first[j]]), int(k))
                for j, k in zip(outcome, column, strict=True)
            ]
        )
        loss = threats[at, pawn] * (got[inverse[at]] - knocked[back.ravel()])
        np.subtract.at(values, at, loss)
        return values.tolist()

    def _value(self, res: BatchResult, s: int, knocked: int | None = None) -> float:
        """The one value (:class:`~sliders.ai.value.Valuer`) of sample ``s``: a refused shot is
        a foul (its pawn never reaches the table); an outcome the rules refuse, -1. ``knocked``:
        the pawn (a column of the sample) is valued as knocked into a SORRY! corner (off the
        board is the same to the rules: its score gone, a penalty)."""
        status = res.status[s].astype(np.int16)
        if res.refused[s]:
            status[0] = FOUL
        points = res.points[s].astype(np.int16)
        if knocked is not None:  # by an opponent's shot: a house rule may spare the penalty
            spared = Status.SORRY_CORNER in spared_penalties(self.state.house, knocked=True)
            status[knocked], points[knocked] = KNOCKED_OVER if spared else CORNER, 0
        row = np.stack([status, points], axis=1).ravel()
        try:
            return self.valuer.of_codes(res.order, row.tolist(), progress=False)[0]
        except RulesError:
            return -1.0

    def _facts(self, res: BatchResult, rows: np.ndarray) -> tuple[np.ndarray, ...]:
        """What each sample of ``rows`` did, for a reader of the kinds of shot (``touched``,
        ``cost``, ``short`` of :class:`_Candidate`)."""
        status = res.status[rows]
        in_play = IN_PLAY[status]
        opp = np.array([pawn_seat(q) != self.seat_name for q in res.order])
        before = np.array([0] + [q.points if q.status.in_play else 0 for q in self.state.table])
        after = np.where(in_play, res.points[rows], 0)
        cost = ((after - before)[:, opp]).sum(axis=1) < 0
        fx, fy = self.seat.forward
        along = res.x[rows, 0] * fx + res.y[rows, 0] * fy
        short = in_play[:, 0] & (along < -GUARD_SHORT) & (status[:, 0] != OWN_TRACK)
        return res.contacts[rows] > 0, cost, short

    # -- candidates -----------------------------------------------------------------------------

    def _candidates(self) -> list[_Candidate]:
        """The mind's candidates: every kind (``plan``), or the classic search's."""
        if self.mind.shots == "classic":
            return self._classic()
        got = free_release(self.state.table, self.seat, self.params.pawn_radius)
        if got is None:
            return []
        s = self
        return _Planned(s.state, s.layout, s.face, s.params, s.seat_name, *got).candidates()

    def _given(self, shots: np.ndarray) -> list[_Candidate]:
        """The intended shots given (speed, angle, offset, release), as candidates."""
        return [
            _Candidate("grid", f"{x[0]:.3f} m/s at {math.degrees(x[1]):+.2f}°", x[:3].copy(), x[3])
            for x in np.asarray(shots, dtype=float)
        ]

    def _classic(self) -> list[_Candidate]:
        """The classic search's candidates (:func:`sliders.ai.classic.candidate_shots`): the
        most promising half of ``pool`` and a random draw of the others."""
        pool = candidate_shots(
            self.state, self.layout, self.face, self.params, self.seat_name, self.pawn
        )
        want = self.mind.pool
        if want and len(pool) > want:
            fixed = want // 2
            rest = self.rng.choice(len(pool) - fixed, size=want - fixed, replace=False)
            pool = pool[:fixed] + [pool[fixed + i] for i in sorted(rest)]
        return [
            _Candidate(
                "classic",
                label,
                np.array([shot.speed, shot.angle, shot.offset]),
                self.seat.foul if shot.release is None else shot.release,
            )
            for shot, label in pool
        ]

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


def plan_candidates(
    state: GameState,
    layout: Layout,
    face: Face,
    params: PhysicsParams,
    seat_name: str,
    pawn: str,
) -> list[tuple[str, str, Shot]]:
    """The planner's candidates of every kind (see the module, step 1) as intended shots, each
    with its kind (``draw``, ``hole``, ``hit``, ``takeout``, ``guard``) and label, in the order
    the search makes them; none when no release is free. The tournament's yardsticks try them."""
    got = free_release(state.table, layout.seat(seat_name), params.pawn_radius)
    if got is None:
        return []
    seat = layout.seat(seat_name)
    out = []
    for c in _Planned(state, layout, face, params, seat_name, *got).candidates():
        release = None if c.release >= seat.foul - 1e-12 else c.release
        shot = Shot(seat_name, float(c.x[0]), float(c.x[1]), float(c.x[2]), release, pawn)
        out.append((c.kind, c.label, fit_release(shot, state, layout, params)))
    return out


class _Planned:
    """The planner's candidates of every kind for one search (see the module, step 1), released
    at ``along`` down the lane (``first``: the first free offset there)."""

    def __init__(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams,
        seat_name: str,
        along: float,
        first: float,
    ) -> None:
        self.layout, self.face, self.seat_name = layout, face, seat_name
        self.along, self.first = along, first
        self.seat, self.p, self.table = layout.seat(seat_name), params, state.table
        self.mouth = lane_mouth(layout, self.seat)
        self.out: list[_Candidate] = []

    def candidates(self) -> list[_Candidate]:
        r = self.p.pawn_radius
        for value, spots in target_spots(self.layout, self.face, self.seat_name, self.p).items():
            kind = "hole" if value == HOLE else "draw"
            for spot in spots:
                for o in self.offsets(spot.offset, 0.0):
                    self.add(
                        kind, f"draw to {value} at {spot.x:+.3f},{spot.y:+.3f}", spot.x, spot.y, o
                    )
        limit = self.seat.width / 2 - r
        wide = self.offsets(0.0, -0.5 * limit, 0.5 * limit)
        for q in self.table:
            mine = q.seat == self.seat_name
            self.hits(q, wide, mine)
            if not mine:
                self.takeouts(q, wide)
            elif q.status is Status.ON_TARGET and q.points >= 3:
                self.guards(q)
        return self.out

    def offsets(self, *wishes: float) -> list[float]:
        """Free offsets across the lane nearest each wish, without repeats."""
        out: list[float] = []
        for w in wishes:
            o = free_offset(self.table, self.seat, self.along, w, self.p.pawn_radius)
            o = self.first if o is None else o
            if all(abs(o - q) > 1e-9 for q in out):
                out.append(o)
        return out

    def add(
        self, kind: str, label: str, x: float, y: float, offset: float, beyond: float = 0.0
    ) -> None:
        aim = aim_at(self.seat, self.p, self.along, offset, x, y, self.mouth, beyond)
        if aim is not None:
            x3 = np.array([aim[0], aim[1], offset])
            self.out.append(_Candidate(kind, label, x3, self.along))

    def hits(self, q: PawnRest, wide: list[float], mine: bool) -> None:
        """Straight at ``q``, at three weights (an own pawn is never cleared)."""
        for o in wide:
            for beyond, how in ((0.04, "nudge"), (0.12, "push"), (0.35, "clear")):
                if mine and how == "clear":
                    continue
                self.add("hit", f"{how} {q.id}", q.x, q.y, o, beyond)

    def takeouts(self, q: PawnRest, wide: list[float]) -> None:
        """Cut shots sending an opponent's ``q`` into each SORRY! corner and off the board."""
        for tx, ty, where in self.sinks(q):
            for o in wide:
                cut = self.cut(q, tx, ty, o)
                if cut is not None:
                    self.out.append(_Candidate("takeout", f"knock {q.id} {where}", cut, self.along))

    def guards(self, q: PawnRest) -> None:
        """Shots stopping a little short of the seat's own ``q``, in the way of shots at it."""
        qa, qc = self.seat.from_world(q.x, q.y)
        for short in (0.05, 0.08):
            gx, gy = self.seat.to_world(
                qa - short, qc * (qa - short - self.along) / (qa - self.along)
            )
            for o in self.offsets(0.0):
                self.add("guard", f"guard {q.id}", gx, gy, o)

    def sinks(self, q: PawnRest) -> list[tuple[float, float, str]]:
        """Where to send an opponent's pawn: each SORRY! corner, and off the board's far side."""
        f = self.face
        out = [(cx, cy, "into a SORRY! corner") for cx, cy in f.corners]
        h = f.half + 0.05
        for ex, ey in ((h, q.y), (-h, q.y), (q.x, h), (q.x, -h)):
            out.append((ex, ey, "off the board"))
        return out

    def cut(self, q: PawnRest, tx: float, ty: float, offset: float) -> np.ndarray | None:
        """The shot (speed, angle, offset) that strikes ``q`` so it runs to (tx, ty): aimed at the
        contact point two radii behind ``q`` on that line."""
        p, seat, along, mouth = self.p, self.seat, self.along, self.mouth
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

"""A computer player: a hand that slides and a mind that chooses the shot.

A computer seat has a **hand**, the execution noise of every shot it slides (the batch's noise
levels: ``none``, ``low``, ``medium``, ``high``), and a **mind**, how it chooses (:class:`Mind`):

- the planner's minds, ``weak``, ``fair`` and ``strong``, choose the shot with the best chance
  of winning the game under their own hand (:mod:`sliders.ai.planner`), with a budget of
  simulations a decision that grows from one to the next;
- ``classic`` is the search the computer used before the planner, kept for comparison: candidate
  shots simulated once as intended, the best few again under the hand's noise, the best mean
  value of the next position (:mod:`sliders.ai.evaluate`) wins.

The strengths are a hand and a mind together: ``easy`` (hand ``high``, mind ``weak``), ``medium``
(``medium``, ``fair``) and ``hard`` (``low``, ``strong``).

Every shot, intended or executed, is released where the pawn fits (:mod:`sliders.ai.release`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from sliders.ai.aims import aim_at
from sliders.ai.evaluate import board_worth, position_value
from sliders.ai.planner import Mind, PlanSearch, win_model
from sliders.ai.release import (
    RELEASE_CLEARANCE,
    fallback_shot,
    fit_release,
    free_offset,
    free_release,
)
from sliders.ai.win import WinModel
from sliders.boards import Face, Layout, Seat, load_layout
from sliders.boards import face as face_named
from sliders.errors import UserError
from sliders.outcome import SEATS, ShotResult, pawn_seat
from sliders.physics import NOISE_LEVELS, Noise, PhysicsParams, Setup, Shot, simulate
from sliders.physics.noise import apply_errors
from sliders.rules import (
    HOME,
    Assignment,
    GameState,
    InstantHome,
    Phase,
    RulesError,
    apply_assignment,
    apply_shot,
    default_assignment,
    legal_assignments,
)

__all__ = [
    "MINDS",
    "RELEASE_CLEARANCE",
    "STRENGTHS",
    "ComputerPlayer",
    "Mind",
    "ShotSearch",
    "Strength",
    "fallback_shot",
    "fit_release",
    "free_offset",
    "free_release",
    "strength",
]

MAX_AIM = math.radians(40)
"""classic candidates aimed wider than this off the lane's axis are not tried"""

MINDS: dict[str, Mind] = {
    "weak": Mind("weak", simulations=400, first=4),
    "fair": Mind("fair", simulations=1500, first=8),
    "strong": Mind("strong", simulations=5000, first=16),
    "classic": Mind("classic", 0, kind="classic", candidates=40, finalists=8, samples=16),
}
"""The minds a computer seat can have, weakest first (see the module)."""

CLASSIC_MINDS: dict[str, Mind] = {
    "easy": Mind("classic", 0, kind="classic", candidates=6, finalists=2, samples=2),
    "medium": Mind("classic", 0, kind="classic", candidates=16, finalists=4, samples=6),
    "hard": MINDS["classic"],
}
"""The budgets the classic search had under each strength before the planner (``hard``'s is
the ``classic`` mind)."""


@dataclass(frozen=True, slots=True)
class Strength:
    """How a computer plays: the ``hand`` that slides (its execution noise, one of the batch's
    :data:`~sliders.physics.NOISE_LEVELS`) and the ``mind`` that chooses."""

    name: str
    hand: Noise
    mind: Mind
    hand_name: str = ""

    @property
    def noise(self) -> Noise:
        return self.hand

    @property
    def budget(self) -> int:
        """Simulations a decision (at most)."""
        return self.mind.budget

    @property
    def candidates(self) -> int:
        return self.mind.candidates

    @property
    def finalists(self) -> int:
        return self.mind.finalists

    @property
    def samples(self) -> int:
        return self.mind.samples

    def describe(self) -> str:
        return f"hand {self.hand_name or 'custom'}, mind {self.mind.name}"


def make_strength(hand: str, mind: str, name: str = "") -> Strength:
    """The strength of a ``hand`` (a noise level, or a multiple of the ``medium`` one: see
    :meth:`~sliders.physics.Noise.hand`) and a ``mind`` (see :data:`MINDS`)."""
    noise = Noise.hand(hand)  # a level, or a multiple of the medium one
    if mind not in MINDS:
        raise UserError(f"unknown mind {mind!r} (choose from {', '.join(MINDS)})")
    return Strength(name or f"hand={hand},mind={mind}", noise, MINDS[mind], hand)


PRESETS: dict[str, tuple[str, str]] = {
    "easy": ("high", "weak"),
    "medium": ("medium", "fair"),
    "hard": ("low", "strong"),
}
"""Each strength's hand and mind."""

STRENGTHS: dict[str, Strength] = {
    name: make_strength(hand, mind, name) for name, (hand, mind) in PRESETS.items()
}


def strength(name: str) -> Strength:
    try:
        return STRENGTHS[name]
    except KeyError:
        raise UserError(
            f"unknown computer strength {name!r} (choose from {', '.join(STRENGTHS)})"
        ) from None


def classic(level: str) -> Strength:
    """The computer of strength ``level`` as it played before the planner: the same hand, the
    classic search with that strength's old budget."""
    hand, _ = PRESETS[level]
    return Strength(f"classic {level}", NOISE_LEVELS[hand], CLASSIC_MINDS[level], hand)


class ComputerPlayer:
    """A computer seat. ``seed`` (an int or a numpy Generator) fixes every choice it makes."""

    def __init__(
        self,
        seat: str,
        level: str | Strength = "medium",
        seed: int | np.random.Generator | None = None,
        engine: str | None = None,
    ) -> None:
        self.seat = seat
        self.strength = level if isinstance(level, Strength) else strength(level)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.engine = engine
        """the engine the classic search simulates in when the game names none"""

    @property
    def plans(self) -> bool:
        """True when its mind is the planner's (it values positions by the chance of winning)."""
        return self.strength.mind.kind == "plan"

    def search(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams | None = None,
        engine: str | None = None,
    ) -> ShotSearch | PlanSearch:
        """A search for this turn's shot, to be stepped (``step()``, or ``run(seconds)`` in
        slices). The planner simulates in the exact engine's batch path whatever the game's
        engine; the classic search in the physics ``engine`` the game is played in (None: the
        default)."""
        p = params or PhysicsParams.default()
        s = self.strength
        if self.plans:
            return PlanSearch(self.seat, s.hand, s.mind, self.rng, state, layout, face, p)
        return ShotSearch(self, state, layout, face, p, engine or self.engine)

    def choose_shot(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams | None = None,
    ) -> Shot:
        """The shot this player plays now: the best intended shot, as its hand executes it."""
        search = self.search(state, layout, face, params)
        search.run()
        return search.executed()

    def win_probability(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> float:
        """This seat's chance of winning from ``state``, as the planner judges it for its hand
        (:class:`sliders.ai.win.WinModel`)."""
        p = params or PhysicsParams.default()
        return win_model(layout, face, self.seat, self.strength.hand, p).win_probability(
            state, self.seat
        )

    def choose_assignment(self, state: GameState) -> Assignment:
        """The legal assignment of this round's points that leaves the best score board: by the
        chance of winning for a planner (:class:`~sliders.ai.win.WinModel`, as played on the
        square), by the board's worth for the classic mind.

        Ties go to the rules engine's order of preference (HOME pawns, then spaces moved, then
        safety), which :func:`sliders.rules.legal_assignments` already lists first-best.
        """

        board = state.player(self.seat).board
        options = legal_assignments(state, self.seat)
        if not options:
            return ()
        default = default_assignment(state, self.seat)
        if self.plans and state.phase is Phase.SCORING:
            model = self._model(state)
            me = state.player(self.seat)

            def chance(a: Assignment) -> tuple[float, bool]:
                after = replace(me, board=apply_assignment(board, a))
                moved = replace(
                    state.with_player(after),
                    table=tuple(q for q in state.table if q.seat != self.seat),
                )
                if all(sq == HOME for sq in after.board):
                    return (2.0, a == default)
                return (model.win_probability(moved, self.seat), a == default)

            return max(options, key=chance)

        def key(a: Assignment) -> tuple[float, bool]:
            return (board_worth(apply_assignment(board, a)), a == default)

        return max(options, key=key)

    def prepare(self, layout: Layout, face: Face, params: PhysicsParams | None = None) -> None:
        """Measure this hand's odds and build the planner's models now (once a process; see
        :func:`sliders.ai.aims.shot_odds`), so that no decision of the game waits for them (a
        tournament calls it when it seats the player); without it the first decision does the
        work."""
        if self.plans:
            p = params or PhysicsParams.default()
            win_model(layout, face, self.seat, self.strength.hand, p)
            self._face_model(face.name)

    def _model(self, state: GameState) -> WinModel:
        return self._face_model(state.face)

    def _face_model(self, face_name: str) -> WinModel:
        """The planner's chance of winning for choices made without the table at hand (round-end
        assignments, Instant Home): this hand's odds as measured from a seat of the square."""
        layout = load_layout("square", SEATS)
        seat = self.seat if self.seat in layout.seat_names else SEATS[0]
        hand = self.strength.hand
        return win_model(layout, face_named(face_name), seat, hand, PhysicsParams.default())

    def choose_home(
        self,
        state: GameState,
        result: ShotResult,
        pawn: str,
        home: Mapping[str, int] | None = None,
    ) -> int | None:
        """Which scoring pawn this seat's roller pawn ``pawn``, dropped into the hole on Instant
        Home by ``result``, sends HOME: the one that leaves the best position (the chance of
        winning for a planner, :func:`position_value` for the classic mind; ties go to the
        rules' default, the pawn furthest from HOME). ``home`` holds the choices made for pawns
        that left play earlier in the shot. None when no scoring pawn can go HOME.
        """
        chosen = dict(home or {})
        chosen.pop(pawn, None)
        _, happened = apply_shot(state, result, chosen)
        default = next(
            (h.scoring for h in happened if isinstance(h, InstantHome) and h.cause == pawn), None
        )
        if default is None:
            return None
        model = self._model(state) if self.plans else None
        best, best_key = default, (-math.inf, False)
        for index in range(len(state.player(self.seat).board)):
            try:
                after, _ = apply_shot(state, result, {**chosen, pawn: index})
            except RulesError:
                continue  # already HOME, or taken by an earlier pawn in the hole
            worth = (
                model.win_probability(after, self.seat)
                if model is not None
                else position_value(after, self.seat)
            )
            key = (worth, index == default)
            if key > best_key:
                best, best_key = index, key
        return best


@dataclass(slots=True)
class _Candidate:
    shot: Shot
    label: str
    first: float = 0.0
    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else -math.inf


@dataclass
class ShotSearch:
    """One turn's search, advanced one simulation per :meth:`step`.

    The result does not depend on how the steps are spread over frames: every random draw is
    taken in step order from the player's generator.
    """

    player: ComputerPlayer
    state: GameState
    layout: Layout
    face: Face
    params: PhysicsParams
    engine: str | None = None
    simulations: int = 0
    _queue: list[tuple[int, np.ndarray | None]] = field(default_factory=list)
    _stage: int = 1
    _done: bool = False

    def __post_init__(self) -> None:
        seat = self.player.seat
        if self.state.turn != seat:
            raise UserError(f"it is not {seat}'s turn")
        pawn = self.state.next_pawn()
        if pawn is None:
            raise UserError(f"{seat} has no pawn in hand")
        self.pawn = pawn
        self.seat = self.layout.seat(seat)
        self.setup = Setup(self.layout, self.face, self.params, self.engine)
        self.base = position_value(self.state, seat)
        s = self.player.strength
        pool = candidate_shots(self.state, self.layout, self.face, self.params, seat, pawn)
        if len(pool) > s.candidates:
            # the first half of the budget goes to the most promising candidates (the pool
            # lists them first); the rest is a random draw from the others
            fixed = s.candidates // 2
            rest = self.player.rng.choice(
                len(pool) - fixed, size=s.candidates - fixed, replace=False
            )
            pool = pool[:fixed] + [pool[fixed + i] for i in sorted(rest)]
        self.candidates = [_Candidate(shot, label) for shot, label in pool]
        self._queue = [(i, None) for i in range(len(self.candidates))]
        if not self.candidates:
            self._done = True

    @property
    def done(self) -> bool:
        return self._done

    def step(self) -> bool:
        """Run one simulation; True once the search is over."""
        if self._done:
            return True
        index, errors = self._queue.pop(0)
        cand = self.candidates[index]
        shot = cand.shot if errors is None else self._perturb(cand.shot, errors)
        value = self._value(shot)
        if errors is None:
            cand.first = value
        else:
            cand.total += value
            cand.n += 1
        if not self._queue:
            self._next_stage()
        return self._done

    def run(self, seconds: float | None = None) -> bool:
        """Step until done, or for at most ``seconds`` of wall time; True once done."""
        end = None if seconds is None else time.perf_counter() + seconds
        while not self._done:
            self.step()
            if end is not None and time.perf_counter() >= end:
                break
        return self._done

    def best(self) -> Shot:
        """The intended shot with the best value so far (with no candidate at all: a gentle
        straight slide from the first free release point)."""
        if not self.candidates:
            return fallback_shot(self.state, self.layout, self.params, self.player.seat, self.pawn)
        if any(c.n for c in self.candidates):
            pick = max(self.candidates, key=lambda c: c.mean)
        else:
            pick = max(self.candidates, key=lambda c: c.first)
        return pick.shot

    def executed(self) -> Shot:
        """The best intended shot as the player's hand plays it (one draw of its noise)."""
        shot = self.best()
        (e,) = self.player.strength.noise.draw(self.player.rng, 1)
        return self._perturb(shot, e)

    # -- inside ---------------------------------------------------------------------------------

    def _next_stage(self) -> None:
        s = self.player.strength
        if self._stage == 1 and s.finalists and s.samples:
            self._stage = 2
            ranked = sorted(range(len(self.candidates)), key=lambda i: -self.candidates[i].first)[
                : s.finalists
            ]
            errors = s.noise.draw(self.player.rng, len(ranked) * s.samples)
            self._queue = [
                (i, errors[k * s.samples + j])
                for k, i in enumerate(ranked)
                for j in range(s.samples)
            ]
        else:
            self._done = True

    def _perturb(self, shot: Shot, e: np.ndarray) -> Shot:
        """``shot`` with errors ``e``, released where the pawn fits: a hand that lands on a pawn
        standing at the release point slides its own beside it, at the nearest free offset."""
        return fit_release(
            apply_errors(shot, e, self.seat, self.params), self.state, self.layout, self.params
        )

    def _value(self, shot: Shot) -> float:
        self.simulations += 1
        seed = int(self.player.rng.integers(2**32))
        try:
            result = simulate(self.setup, self.state.table, replace(shot, seed=seed))
            after, _ = apply_shot(self.state, result)
        except (UserError, RulesError):
            return -math.inf
        return position_value(after, self.player.seat) - self.base


def candidate_shots(
    state: GameState,
    layout: Layout,
    face: Face,
    params: PhysicsParams,
    seat_name: str,
    pawn: str,
) -> list[tuple[Shot, str]]:
    """Shots worth trying, each with a label, the most promising first: straight placements at
    the middle of the board, hits on the pawns on the table, then placements over a grid of the
    board from the middle of the lane and from either side of it.

    Every candidate is released where the physics accepts it: on the foul line at an offset
    clear of the pawns standing there (a wished-for offset that is taken moves to the nearest
    free one), or, when pawns block the whole width of the foul line, further back down the lane.
    """
    seat = layout.seat(seat_name)
    r = params.pawn_radius
    limit = seat.width / 2 - r
    lane = _lane_end(layout, seat)
    release = free_release(state.table, seat, r)
    if release is None:
        return []
    along0, first = release

    def origin(wish: float) -> float:
        found = free_offset(state.table, seat, along0, wish, r)
        return first if found is None else found

    c_along, c_across = seat.from_world(0.0, 0.0)
    grid = sorted(
        ((d, c) for d in (-0.06, -0.03, 0.0, 0.03, 0.06) for c in (-0.06, -0.03, 0.0, 0.03, 0.06)),
        key=lambda dc: (abs(dc[0]) + abs(dc[1]), dc),
    )
    middle = origin(0.0)
    placements: list[tuple[Shot, str]] = []
    for offset in _unique(middle, origin(-limit * 0.6), origin(limit * 0.6)):
        for depth, side in grid:
            target = seat.to_world(c_along + depth, c_across + side)
            shot = _aim(seat, params, lane, along0, offset, target, 0.0, pawn)
            if shot is not None:
                placements.append((shot, f"stop at {target[0]:+.2f},{target[1]:+.2f}"))
    hits: list[tuple[Shot, str]] = []
    for q in state.table:
        for extra, how in ((0.04, "nudge"), (0.12, "push"), (0.35, "clear")):
            if pawn_seat(q.id) == seat_name and how == "clear":
                continue
            for offset in _unique(middle, origin(-limit * 0.5), origin(limit * 0.5)):
                shot = _aim(seat, params, lane, along0, offset, (q.x, q.y), extra, pawn)
                if shot is not None:
                    hits.append((shot, f"{how} {q.id}"))
    straight = [p for p in placements if p[0].offset == middle]
    core, later = straight[:5], straight[5:] + [p for p in placements if p[0].offset != middle]
    return core + hits + later


def _unique(*values: float) -> list[float]:
    out: list[float] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _aim(
    seat: Seat,
    params: PhysicsParams,
    lane: float,
    release: float,
    offset: float,
    target: tuple[float, float],
    beyond: float,
    pawn: str,
) -> Shot | None:
    """The shot released at (``release``, ``offset``) that stops ``beyond`` metres past
    ``target``, if it is aimable down the lane (which ends ``lane`` metres from its near end)
    without riding the side rails."""
    aim = aim_at(seat, params, release, offset, *target, mouth=lane, beyond=beyond)
    if aim is None:
        return None
    speed, angle = aim
    return Shot(seat.name, speed, angle, offset, None if release == seat.foul else release, pawn)


def _lane_end(layout: Layout, seat: Seat) -> float:
    """How far down the lane its own tracks reach: from the foul line, each own track the lane
    is on carries it to that track's far end."""
    rects = [t.rect for t in layout.tracks if t.name in seat.tracks]
    along = seat.foul
    while True:
        x, y = seat.to_world(along + 1e-9, 0.0)
        far = max(
            (
                max(
                    seat.from_world(cx, cy)[0] for cx in (q.xmin, q.xmax) for cy in (q.ymin, q.ymax)
                )
                for q in rects
                if q.contains(x, y)
            ),
            default=along,
        )
        if far <= along + 1e-12:
            return along
        along = far

"""The players a tournament knows by name, and how a name becomes a player at a seat.

=====================  ==========================================================================
``cpu:easy[:HAND]`` …  the computer strengths of :mod:`sliders.ai` (``easy``, ``medium``, ``hard``),
                       with another hand named after it, or a hand and a mind
                       (``cpu:hand=low,mind=strong``; the seat parser's
                       :func:`sliders.game.config.parse_computer` reads what follows ``cpu:``)
``HAND``               ``low``, ``medium``, ``high`` (the batch's noise levels) or a number, that
                       many times the ``medium`` hand's noise (``1.5``)
``centre[:HAND]``      slides straight at the board's centre from the middle of the foul line, at
                       the speed that stops there; noiseless unless a hand is named (``low``,
                       ``medium``, ``high``: the batch's noise levels)
``greedy[:HAND]``      "most points now": simulates the computer's first 40 candidate shots once
                       each as intended and plays the one that leaves its own pawns on the table
                       worth the most points (a penalty counts -6); noiseless unless a hand is
                       named
``race[:HAND]``        the rules-aware greedy: simulates up to 100 of the computer's candidate
                       shots once each as intended and plays the one with the best *progress
                       lead* if the round were scored now (:func:`sliders.ai.progress_lead`: its
                       own progress minus its opponents' mean, each seat's best legal
                       assignment by exact count, penalties applied); noiseless unless a hand is
                       named
``aggressive[:HAND]``  a yardstick of a style (:class:`StyleBot`): the planner's candidates of
                       every kind, each slid a few times under its hand, valued by the other
                       seats' penalties first (:class:`AggressiveBot`); noiseless unless a hand
                       is named
``defensive[:HAND]``   the same, valued by the progress lead less its own penalties and its
                       pawns' exposure to knocks onto a corner or off the board
                       (:class:`DefensiveBot`)
``mixed[:HAND]``       both (:class:`MixedBot`)
``net:NAME``           a bot that joins over the network (any language: docs/protocol.md); the
                       tournament prints its join code and waits for it, and it loses a shot it
                       does not send within the clock (``--clock``) or sends wrong
``MODULE:FUNCTION``    a function you write, called each turn with a :class:`Turn`; it returns a
                       :class:`~sliders.physics.Shot` or ``(speed, angle, offset, release)``
=====================  ==========================================================================

Every player's shot is made legal before it is slid (:func:`sliders.game.legal_shot`). Players
other than the computer take the rules' default round-end assignment and Instant Home choice.
Players that simulate (the computer, greedy, race) simulate in the physics engine the games are
played in.
"""

from __future__ import annotations

import importlib
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sliders.ai import ComputerPlayer
from sliders.ai.aims import choices_of
from sliders.ai.exposure import expected_knocks, knock_threats
from sliders.ai.planner import plan_candidates
from sliders.ai.player import candidate_shots
from sliders.ai.value import progress_lead
from sliders.boards import Face, Layout, worth
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, ShotResult, Status
from sliders.game.config import parse_computer
from sliders.net.lounge import CURRENT
from sliders.physics import (
    NOISE_LEVELS,
    Noise,
    PhysicsParams,
    Setup,
    Shot,
    ShotLimits,
    Shots,
    simulate,
    simulate_many,
)
from sliders.physics.noise import apply_errors
from sliders.rules import (
    HOME,
    NO_KNOCK_PENALTY,
    Assignment,
    GameState,
    Happening,
    Penalty,
    RulesError,
    apply_shot,
    default_assignment,
)

BUILTIN = (
    "cpu:easy",
    "cpu:medium",
    "cpu:hard",
    "centre",
    "greedy",
    "race",
    "aggressive",
    "defensive",
    "mixed",
)


@dataclass(frozen=True, slots=True)
class Turn:
    """What a user's function is told each turn: its ``seat`` and the ``pawn`` to slide, the
    game ``state`` (:class:`sliders.rules.GameState`: score boards, the pawns on the table), the
    ``layout``, ``face`` and physics ``params`` (to simulate with :func:`sliders.physics.simulate`
    if it likes), and ``rng``, a generator seeded for this game and seat."""

    seat: str
    pawn: str
    state: GameState
    layout: Layout
    face: Face
    params: PhysicsParams
    rng: np.random.Generator


def check_name(name: str) -> str:
    """``name`` if it names a player (a user's function is imported to check it), else
    :class:`UserError` in one line."""
    kind, _, arg = name.partition(":")
    if kind == "net":
        if not _NET_NAME.fullmatch(arg):
            raise UserError(f"player {name!r}: net:NAME with 1 to 32 letters, digits, - or _")
        return name
    make_player(name, "south", np.random.default_rng(0))
    return name


_NET_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


def net_names(names: Sequence[str]) -> list[str]:
    """The NAMEs of the ``net:NAME`` players among ``names``."""
    return [n.partition(":")[2] for n in names if n.partition(":")[0] == "net"]


def make_player(name: str, seat: str, rng: np.random.Generator, engine: str | None = None) -> Any:
    """The player ``name`` at ``seat``, its random draws from ``rng``; players that simulate
    with the physics engine of the game take ``engine`` (None: the default)."""
    kind, _, arg = name.partition(":")
    if kind == "cpu":
        return ComputerPlayer(seat, parse_computer(arg, f"player {name!r}"), rng, engine)
    if kind == "net":
        if not CURRENT:
            raise UserError(f"player {name!r} joins over the network: seat it in a tournament")
        return CURRENT[-1].player(check_name(name).partition(":")[2], seat)
    if kind in ("centre", "center", "greedy", "race", *STYLES):
        hand = _hand(name, arg)
        if kind in STYLES:
            return STYLES[kind](seat, hand, rng, engine)
        if kind == "greedy":
            return GreedyPlayer(seat, hand, rng, engine)
        if kind == "race":
            return RaceGreedy(seat, hand, rng, engine)
        return CentreBot(seat, hand, rng)
    if arg:
        return FunctionPlayer(seat, load_function(name), rng)
    raise UserError(
        f"unknown player {name!r} (cpu:easy, cpu:medium, cpu:hard, cpu:hand=H,mind=M, "
        "centre[:HAND], greedy[:HAND], race[:HAND], aggressive[:HAND], defensive[:HAND], "
        "mixed[:HAND], net:NAME or MODULE:FUNCTION)"
    )


def _hand(name: str, level: str) -> Noise:
    """A bot's hand: none, a named noise level, or a multiple of the ``medium`` one."""
    if not level:
        return NOISE_LEVELS["none"]
    try:
        return Noise.hand(level)
    except UserError as err:
        raise UserError(f"player {name!r}: {err}") from None


def load_function(name: str) -> Callable[[Turn], Any]:
    """The function ``MODULE:FUNCTION`` names, imported (the current directory is searched
    first, so a ``mybot.py`` beside you is found)."""
    module_name, _, func_name = name.rpartition(":")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"player {name!r}: cannot import {module_name!r} ({exc})") from None
    except Exception as exc:  # a user's module failing as it loads
        raise UserError(f"player {name!r}: importing {module_name!r} failed: {exc!r}") from None
    func = getattr(module, func_name, None)
    if not callable(func):
        raise UserError(f"player {name!r}: {module_name} has no function {func_name!r}")
    return func


class _RulesDefaults:
    """Round-end assignment and Instant Home choice left to the rules' defaults."""

    seat: str

    def choose_assignment(self, state: GameState) -> Assignment:

        return default_assignment(state, self.seat)

    def choose_home(
        self,
        state: GameState,
        result: ShotResult,
        pawn: str,
        home: Mapping[str, int] | None = None,
    ) -> int | None:
        return None


class CentreBot(_RulesDefaults):
    """Straight at the centre of the board from the middle of the foul line."""

    def __init__(self, seat: str, hand: Noise, rng: np.random.Generator) -> None:
        self.seat, self.hand, self.rng = seat, hand, rng

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        p = params or PhysicsParams.default()
        seat = layout.seat(self.seat)
        along, across = seat.from_world(0.0, 0.0)  # the board's centre
        da = along - seat.foul
        angle = math.atan2(across, da)
        speed = ShotLimits.of(seat, p).clip_speed(
            math.sqrt(2 * p.deceleration * math.hypot(da, across))
        )
        shot = Shot(self.seat, speed, angle, 0.0, None, state.next_pawn())
        return _executed(shot, self.hand, self.rng, layout, p)


class GreedyPlayer(_RulesDefaults):
    """The candidate shot that leaves its own pawns worth the most points right now."""

    PENALTY = 6.0
    CANDIDATES = 40
    """candidates simulated a turn, the most promising first (as many as the hard computer's)"""

    def __init__(
        self, seat: str, hand: Noise, rng: np.random.Generator, engine: str | None = None
    ) -> None:
        self.seat, self.hand, self.rng, self.engine = seat, hand, rng, engine

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        p = params or PhysicsParams.default()
        pawn = state.next_pawn()
        assert pawn is not None
        best: tuple[float, Shot] | None = None
        pool = candidate_shots(state, layout, face, p, self.seat, pawn)[: self.CANDIDATES]
        setup = Setup(layout, face, p, self.engine)
        for shot, _ in pool:
            try:
                result = simulate(setup, state.table, replace(shot, seed=0))
                after, happened = apply_shot(state, result)
            except (UserError, RulesError):
                continue
            value = self.value(after, happened)
            if best is None or value > best[0]:
                best = (value, shot)
        if best is None:
            return CentreBot(self.seat, self.hand, self.rng).choose_shot(state, layout, face, p)
        return _executed(best[1], self.hand, self.rng, layout, p)

    def value(self, after: GameState, happened: Sequence[Happening]) -> float:
        """What a candidate's outcome is worth: its own pawns' points on the table, -6 a
        penalty of its own."""
        return sum(worth(q.choices) for q in after.on_table(self.seat)) - self.PENALTY * sum(
            1 for h in happened if isinstance(h, Penalty) and h.seat == self.seat
        )


class RaceGreedy(GreedyPlayer):
    """The rules-aware greedy: the candidate shot whose outcome leaves the best progress lead if
    the round were scored now (:func:`sliders.ai.value.progress_lead`): every seat's roller
    pawns on the table moving its scoring pawns by its best legal assignment (exact count to
    HOME, each scoring pawn once), penalties already applied by the rules, a won game counting
    every scoring pawn HOME. A yardstick that knows the game, with no search beyond the shot."""

    CANDIDATES = 100

    def value(self, after: GameState, happened: Sequence[Happening]) -> float:
        return progress_lead(after, self.seat)


class StyleBot(_RulesDefaults):
    """A yardstick of one style (:meth:`score`): it tries the planner's candidates of every kind
    (:func:`sliders.ai.planner.plan_candidates`: draws, hits, cut shots into each SORRY! corner
    and off the board, guards), each slid :data:`SAMPLES` times under its own hand (once as
    intended when noiseless, the same draws of the hand for every candidate), and plays the one
    whose outcomes score best on average. Its shots are simulated in the game's engine, every
    outcome applied by the rules engine."""

    STYLE = ""
    CANDIDATES = 120
    """candidates tried a turn at most, in the planner's order"""
    SAMPLES = 4
    """outcomes a candidate with a hand (its expected score)"""
    PENALTY = 6.0
    """what one penalty is worth beyond the spaces it moves: a scoring pawn's whole race"""

    def __init__(
        self, seat: str, hand: Noise, rng: np.random.Generator, engine: str | None = None
    ) -> None:
        self.seat, self.hand, self.rng, self.engine = seat, hand, rng, engine

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        p = params or PhysicsParams.default()
        pawn = state.next_pawn()
        assert pawn is not None
        pool = [shot for _, _, shot in plan_candidates(state, layout, face, p, self.seat, pawn)]
        pool = pool[: self.CANDIDATES]
        if not pool:
            return CentreBot(self.seat, self.hand, self.rng).choose_shot(state, layout, face, p)
        n = 1 if self.hand.is_zero else self.SAMPLES
        errors = self.hand.draw(self.rng, n)
        seeds = self.rng.integers(2**63, size=n)
        seat = layout.seat(self.seat)
        limit = seat.width / 2 - p.pawn_radius
        x = np.repeat(np.array([(c.speed, c.angle, c.offset) for c in pool]), n, axis=0)
        e = np.tile(errors, (len(pool), 1))
        release = np.repeat([seat.foul if c.release is None else c.release for c in pool], n)
        many = Shots(
            self.seat,
            np.clip(x[:, 0] * (1 + e[:, 0]), 1e-3, p.max_speed),
            np.clip(x[:, 1] + e[:, 1], -math.radians(89), math.radians(89)),
            np.clip(x[:, 2] + e[:, 2], -limit, limit),
            release,
            np.tile(seeds, len(pool)),
            pawn,
            refuse=False,
        )
        res = simulate_many(Setup(layout, face, p, self.engine), state.table, many)
        known: dict[tuple, float] = {}
        statuses = tuple(Status)
        codes = res.status.astype(np.int64)
        codes[res.refused, 0] = statuses.index(Status.FOUL)
        scores = np.empty(len(pool) * n)
        for row in range(len(scores)):
            key = (tuple(codes[row]), tuple(int(v) for v in res.points[row]))
            if key not in known:
                known[key] = self._outcome(state, face, res.order, codes[row], res.points[row])
            scores[row] = known[key]
        if self.minds_exposure:
            scores -= self._at_risk(state, layout, face, p, res.order, codes, res.points,
                                    res.x, res.y)  # fmt: skip
        means = scores.reshape(len(pool), n).mean(axis=1)
        best = pool[int(np.argmax(means))]
        return _executed(best, self.hand, self.rng, layout, p)

    minds_exposure = False
    """whether the style minds its own pawns left where an opponent can knock them into a
    corner or off the board (:meth:`_at_risk`)"""

    def _outcome(
        self, state: GameState, face: Face, order: Sequence[str], codes: Any, points: Any
    ) -> float:
        statuses = tuple(Status)
        pawns = []
        for k, pid in enumerate(order):
            if k and not any(q.id == pid for q in state.table):
                continue
            status = statuses[int(codes[k])]
            choices = choices_of(face, status, int(points[k]))
            pawns.append(PawnRest(pid, pid.rpartition("-")[0], 0.0, 0.0, status, max(choices),
                                  choices))  # fmt: skip
        try:
            after, happened = apply_shot(state, ShotResult(face.name, order[0], tuple(pawns)))
        except RulesError:
            return -math.inf
        return self.score(after, happened)

    def score(self, after: GameState, happened: Sequence[Happening]) -> float:
        """What the style makes of an outcome (the game after it, what happened)."""
        raise NotImplementedError

    def penalties(self, happened: Sequence[Happening], mine: bool) -> int:
        """Penalties that sent a scoring pawn back: the seat's own (``mine``) or the others'."""
        return sum(
            1
            for h in happened
            if isinstance(h, Penalty) and h.scoring is not None and (h.seat == self.seat) == mine
        )

    def _at_risk(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        p: PhysicsParams,
        order: tuple[str, ...],
        codes: np.ndarray,
        points: np.ndarray,
        x: np.ndarray,
        y: np.ndarray,
    ) -> np.ndarray:
        """Each outcome's spaces the seat can expect to lose this round to its pawns being
        knocked into a SORRY! corner or off the board
        (:func:`sliders.ai.exposure.knock_threats`): each
        pawn's chance times its score and the penalty, the seat's highest scoring pawn not
        HOME (as the pawn counts in the progress lead: what it covers if scored now)."""
        threats = knock_threats(state, self.seat, layout, face, p, order, codes, x, y)
        if threats is None:
            return np.zeros(len(codes))
        board = state.player(self.seat).board
        loss = max((sq for sq in board if sq < HOME), default=0)
        if NO_KNOCK_PENALTY in state.house:  # a knock by another seat costs no penalty
            loss = 0
        return (expected_knocks(threats) * (loss + points)).sum(axis=1)

    def _spaces_at_risk(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        p: PhysicsParams,
        pawns: Sequence[tuple[str, float, float, Status]],
    ) -> float:
        """:meth:`_at_risk` of one table, given as (id, x, y, status) a pawn, each scoring its
        ring (``points`` of 1 apiece is enough for a reader: the penalty is what counts)."""
        statuses = tuple(Status)
        order = tuple(q[0] for q in pawns)
        codes = np.array([[statuses.index(q[3]) for q in pawns]])
        xs, ys = np.array([[q[1] for q in pawns]]), np.array([[q[2] for q in pawns]])
        return float(self._at_risk(state, layout, face, p, order, codes, np.ones_like(xs),
                                   xs, ys)[0])  # fmt: skip


class AggressiveBot(StyleBot):
    """Takes every penalty it can: the outcome's penalties of the other seats (each worth
    :data:`PENALTY` spaces beyond the spaces it sends back), then the progress lead."""

    STYLE = "aggressive"

    def score(self, after: GameState, happened: Sequence[Happening]) -> float:
        return self.PENALTY * self.penalties(happened, False) + progress_lead(after, self.seat)


class DefensiveBot(StyleBot):
    """Gives nothing away: the progress lead, its own penalties (each :data:`PENALTY` beyond
    the spaces they cost) and the spaces its pawns left open to a knock onto a corner or off the
    board are expected to lose (:func:`sliders.ai.exposure.knock_threats`), so it keeps off the
    lines to the corners and the open edges and plays guards."""

    STYLE = "defensive"
    minds_exposure = True

    def score(self, after: GameState, happened: Sequence[Happening]) -> float:
        return progress_lead(after, self.seat) - self.PENALTY * self.penalties(happened, True)


class MixedBot(StyleBot):
    """Both: takes a knock to a penalty when one is there, and minds its own exposure as the
    defensive bot does."""

    STYLE = "mixed"
    minds_exposure = True

    def score(self, after: GameState, happened: Sequence[Happening]) -> float:
        return (
            progress_lead(after, self.seat)
            + self.PENALTY * self.penalties(happened, False)
            - self.PENALTY * self.penalties(happened, True)
        )


STYLES: dict[str, type[StyleBot]] = {
    "aggressive": AggressiveBot,
    "defensive": DefensiveBot,
    "mixed": MixedBot,
}
"""The yardsticks of a style, by name (see :class:`StyleBot`)."""


class FunctionPlayer(_RulesDefaults):
    """A user's function ``f(turn) -> Shot | (speed, angle, offset, release)``: m/s, radians
    to the shooter's right, metres to the right of the lane's axis, metres down the lane from its
    near end (None: on the foul line)."""

    def __init__(self, seat: str, func: Callable[[Turn], Any], rng: np.random.Generator) -> None:
        self.seat, self.func, self.rng = seat, func, rng

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot:
        p = params or PhysicsParams.default()
        pawn = state.next_pawn()
        assert pawn is not None
        out = self.func(Turn(self.seat, pawn, state, layout, face, p, self.rng))
        if isinstance(out, Shot):
            return out if out.seat == self.seat else Shot(self.seat, *_fields(out)[1:])
        try:
            speed, angle, offset, where = out
            release = None if where is None else float(where)
            speed, angle, offset = float(speed), float(angle), float(offset)
        except (TypeError, ValueError):
            raise UserError(
                f"player function {self.func.__name__} returned {out!r}: expected a Shot or "
                "(speed, angle, offset, release)"
            ) from None
        return Shot(self.seat, speed, angle, offset, release, pawn)


def _fields(shot: Shot) -> tuple[Any, ...]:
    return (shot.seat, shot.speed, shot.angle, shot.offset, shot.release, shot.pawn)


def _executed(
    shot: Shot, hand: Noise, rng: np.random.Generator, layout: Layout, p: PhysicsParams
) -> Shot:
    if hand.is_zero:
        return shot
    (e,) = hand.draw(rng, 1)
    return apply_errors(shot, e, layout.seat(shot.seat), p)

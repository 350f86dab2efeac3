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
from sliders.ai.player import candidate_shots
from sliders.ai.value import progress_lead
from sliders.boards import Face, Layout, worth
from sliders.core.errors import UserError
from sliders.core.outcome import ShotResult
from sliders.game.config import parse_computer
from sliders.net.lounge import CURRENT
from sliders.physics import NOISE_LEVELS, Noise, PhysicsParams, Setup, Shot, ShotLimits, simulate
from sliders.physics.noise import apply_errors
from sliders.rules import (
    Assignment,
    GameState,
    Happening,
    Penalty,
    RulesError,
    apply_shot,
    default_assignment,
)

BUILTIN = ("cpu:easy", "cpu:medium", "cpu:hard", "centre", "greedy", "race")


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
    if kind in ("centre", "center", "greedy", "race"):
        hand = _hand(name, arg)
        if kind == "greedy":
            return GreedyPlayer(seat, hand, rng, engine)
        if kind == "race":
            return RaceGreedy(seat, hand, rng, engine)
        return CentreBot(seat, hand, rng)
    if arg:
        return FunctionPlayer(seat, load_function(name), rng)
    raise UserError(
        f"unknown player {name!r} (cpu:easy, cpu:medium, cpu:hard, cpu:hand=H,mind=M, "
        "centre[:HAND], greedy[:HAND], race[:HAND], net:NAME or MODULE:FUNCTION)"
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

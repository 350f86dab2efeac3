"""A computer player: a hand that slides and a mind that chooses the shot.

A computer seat has a **hand**, the execution noise of every shot it slides (the batch's noise
levels: ``none``, ``low``, ``medium``, ``high``), and a **mind**, how it chooses (:class:`Mind`):

- the planner's minds, ``weak``, ``fair`` and ``strong``, choose the shot with the best chance
  of winning the game under their own hand (:mod:`sliders.ai.planner`), with a budget of
  simulations a decision that grows from one to the next; ``deep`` is ``strong`` with ten times
  its search (its budget, its first samples a candidate and its most), the same value: a yardstick
  of what more search buys, not a strength (a decision takes about four times as long);
- ``classic`` is the budget and the candidates of the search the computer used before the
  planner, kept for comparison, as a setting of the same search: 40 candidate shots of the
  classic kinds (:mod:`sliders.ai.classic`) sampled once under the hand, the better ones again,
  168 simulations in all, each candidate judged by its own samples.

Every mind values positions one way, the chance of winning (:mod:`sliders.ai.value`): its shots,
its round-end assignments and its Instant Home choices.

The strengths are a hand and a mind together: ``easy`` (hand ``high``, mind ``weak``), ``medium``
(``medium``, ``fair``) and ``hard`` (``low``, ``strong``).

Every shot, intended or executed, is released where the pawn fits (:mod:`sliders.ai.release`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from sliders.ai.classic import candidate_shots
from sliders.ai.planner import Mind, PlanSearch
from sliders.ai.release import (
    RELEASE_CLEARANCE,
    fallback_shot,
    fit_release,
    free_offset,
    free_release,
)
from sliders.ai.value import win_model
from sliders.ai.win import WinModel, board_worth
from sliders.boards import Face, Layout
from sliders.boards import face as face_named
from sliders.core.errors import UserError
from sliders.core.outcome import SEATS, ShotResult
from sliders.files.layouts import load_layout
from sliders.physics import NOISE_LEVELS, Noise, PhysicsParams, Shot
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
    "Strength",
    "candidate_shots",
    "fallback_shot",
    "fit_release",
    "free_offset",
    "free_release",
    "prepare_players",
    "strength",
]

MINDS: dict[str, Mind] = {
    "weak": Mind("weak", simulations=400, first=4),
    "fair": Mind("fair", simulations=1500, first=8),
    "strong": Mind("strong", simulations=5000, first=16),
    "deep": Mind("deep", simulations=50_000, first=160, samples=2560),
    "classic": Mind(
        "classic", 168, first=1, samples=16, refine=0.0, bandwidth=0.0, shots="classic", pool=40
    ),
}
"""The minds a computer seat can have, weakest first (see the module)."""

CLASSIC_MINDS: dict[str, Mind] = {
    "easy": replace(MINDS["classic"], simulations=10, samples=2, pool=6),
    "medium": replace(MINDS["classic"], simulations=40, samples=6, pool=16),
    "hard": MINDS["classic"],
}
"""The budgets the classic search had under each strength before the planner (``hard``'s is
the ``classic`` mind), as settings of the one search."""


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
        self.rng = np.random.default_rng(seed)  # a generator is used as it is
        self.engine = engine
        """the physics engine of the game it plays (its search simulates in the exact engine's
        batch path whatever it is)"""

    def search(
        self,
        state: GameState,
        layout: Layout,
        face: Face,
        params: PhysicsParams | None = None,
        engine: str | None = None,
    ) -> PlanSearch:
        """The search for this turn's shot, to be stepped (``step()``, or ``run(seconds)`` in
        slices). It simulates in the exact engine's batch path whatever the game's ``engine``."""
        p = params or PhysicsParams.default()
        s = self.strength
        return PlanSearch(self.seat, s.hand, s.mind, self.rng, state, layout, face, p)

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
        """The legal assignment of this round's points that leaves the best score board, by the
        chance of winning (:class:`~sliders.ai.win.WinModel`, as played on the square).

        Ties go to the rules engine's order of preference (HOME pawns, then spaces moved, then
        safety), which :func:`sliders.rules.legal_assignments` already lists first-best.
        """

        board = state.player(self.seat).board
        options = legal_assignments(state, self.seat)
        if not options:
            return ()
        default = default_assignment(state, self.seat)
        if state.phase is not Phase.SCORING:  # no round to score: the worth the chance reads

            def key(a: Assignment) -> tuple[float, bool]:
                return (board_worth(apply_assignment(board, a)), a == default)

            return max(options, key=key)
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

    def prepare(self, layout: Layout, face: Face, params: PhysicsParams | None = None) -> None:
        """Measure this hand's odds and build the planner's models now (once a process; see
        :func:`sliders.ai.aims.shot_odds`), so that no decision of the game waits for them (a
        tournament calls it when it seats the player); without it the first decision does the
        work."""
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
        Home by ``result``, sends HOME: the one that leaves the best chance of winning (ties go
        to the rules' default, the pawn furthest from HOME). ``home`` holds the choices made for pawns
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
        model = self._model(state)
        best, best_key = default, (-math.inf, False)
        for index in range(len(state.player(self.seat).board)):
            try:
                after, _ = apply_shot(state, result, {**chosen, pawn: index})
            except RulesError:
                continue  # already HOME, or taken by an earlier pawn in the hole
            key = (model.win_probability(after, self.seat), index == default)
            if key > best_key:
                best, best_key = index, key
        return best


def prepare_players(
    players: Iterable[object], layout: Layout, face: Face, params: PhysicsParams | None = None
) -> None:
    """Let every player among ``players`` that prepares (a :class:`ComputerPlayer`, which
    measures its hand's odds and builds its models once a process, or any player with a
    ``prepare(layout, face, params)`` method) do it for a game on ``layout`` and ``face`` before
    its first turn: the tournament and the environments when they seat them, the window in the
    background while it draws."""
    for player in players:
        prepare = getattr(player, "prepare", None)
        if callable(prepare):
            prepare(layout, face, params)

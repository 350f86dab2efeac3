"""The skill curve: how often a hand of a given steadiness stops a straight shot in ring 5, how
often a steadier hand beats a shakier one, and where each computer strength sits on a person's
curve.

A **synthetic person** is a hand of human-like motor noise. Through the window
(:mod:`sliders.scenes.synthetic`, ``benchmarks/skill.py``) their flick is off in speed by a
relative error and in direction by an angle, each drawn from a normal law of the level's spread
(:data:`FLICK_LEVELS`); their aim is let go off the meter's moment by a time error
(:data:`TIMING_LEVELS`). The window turns that into a shot with nothing drawn. Headless, the
same person is the :class:`~sliders.physics.Noise` of those spreads (:func:`flick_hand`: no
offset or release error), sliding straight at the board's centre from the middle of the foul
line (:class:`~sliders.tournament.players.CentreBot`): ``benchmarks/skill.py`` checks that the
two give the same ring-5 rates before the games are played headless.

Ring 5 is the race-for-home face's centre ring: a pawn at rest touching it scores 5
(:func:`ring5_rate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sliders.ai import MINDS, PRESETS, ComputerPlayer, Strength
from sliders.boards import face as face_named
from sliders.files.layouts import load_layout
from sliders.game.config import layout_seats
from sliders.game.headless import HeadlessGame
from sliders.physics import NOISE_LEVELS, Noise, PhysicsParams, Setup, simulate
from sliders.tournament.players import CentreBot

FLICK_LEVELS: tuple[tuple[float, float], ...] = ((0.02, 0.5), (0.05, 1.0), (0.10, 2.0), (0.20, 4.0))
"""a synthetic person's flick, steadiest first: (release-speed spread, relative; direction
spread, degrees), one standard deviation"""
TIMING_LEVELS: tuple[float, ...] = (0.010, 0.020, 0.040, 0.080)
"""a synthetic person's aim, steadiest first: the spread of the moment they let go (s)"""
ANGLE_PER_SPEED = 20.0
"""degrees of direction spread for each unit of relative speed spread along the person curve
(the flick levels' own ratio: 5 % goes with 1°)"""
FACE = "race-for-home"
TOP = 5
"""the points of ring 5"""

PERSON_LIKE: dict[str, float] = {"easy": 0.149, "medium": 0.065, "hard": 0.031}
"""each computer strength's place on a person's curve: the flick speed spread (with
:data:`ANGLE_PER_SPEED` degrees of direction spread a unit) of the synthetic person whose ring-5
rate on the empty square equals the strength's hand's (measured by ``benchmarks/skill.py``,
:func:`person_like`; the setup screen shows it)"""


def flick_hand(speed_rel: float, angle_deg: float) -> Noise:
    """A synthetic person's flick as a hand: the spreads, nothing else."""
    return Noise(speed_rel, angle_deg, 0.0, 0.0)


def person_hand(speed_rel: float) -> Noise:
    """The person curve's hand of ``speed_rel`` speed spread."""
    return flick_hand(speed_rel, ANGLE_PER_SPEED * speed_rel)


def curve_line() -> str:
    """Where the computer strengths sit on a person's curve, in a line."""
    parts = ", ".join(f"{PERSON_LIKE[name]:.1%} ({name})" for name in ("hard", "medium", "easy"))
    return f"A computer slides like a person whose flick speed varies by {parts}"


def ring5_rate(
    layout: str, hand: Noise, n: int, rng: np.random.Generator, params: PhysicsParams | None = None
) -> float:
    """The share of ``n`` straight shots at the centre of the empty board, from the middle of
    the foul line of ``layout``'s first seat, that ``hand`` stops in ring 5."""
    p = params or PhysicsParams.default()
    seats = layout_seats(layout)
    game = HeadlessGame(FACE, layout, seats, 0)
    state = game.state
    seat = state.turn
    assert seat is not None
    built = load_layout(layout, seats)
    face = face_named(FACE)
    setup = Setup(built, face, p)
    bot = CentreBot(seat, hand, rng)
    hits = 0
    for _ in range(n):
        shot = bot.choose_shot(state, built, face, p)
        result = simulate(setup, state.table, shot)
        me = next(q for q in result.pawns if q.id == result.shooter)
        hits += me.status.in_play and me.points >= TOP
    return hits / n


@dataclass(frozen=True, slots=True)
class Match:
    """Games between two synthetic people: ``wins`` of the first, ``losses``, ``draws``."""

    games: int
    wins: int
    losses: int
    draws: int

    @property
    def share(self) -> float:
        """The first's share of the games, a draw half."""
        return (self.wins + self.draws / 2) / self.games


def head_to_head(
    steady: Noise, shaky: Noise, games: int, seed: int, layout: str = "square", max_rounds: int = 40
) -> Match:
    """``games`` of race for home on ``layout`` between two synthetic people, each choosing as
    the ``weak`` computer mind does and sliding with their hand, the first to slide alternating
    (every draw from ``seed``)."""
    seats = layout_seats(layout)[:2]
    wins = losses = draws = 0
    for g, stream in enumerate(np.random.SeedSequence(seed).spawn(games)):
        a, b, phys = (np.random.default_rng(s) for s in stream.spawn(3))
        players = {
            seats[0]: ComputerPlayer(seats[0], Strength("steady", steady, MINDS["weak"]), a),
            seats[1]: ComputerPlayer(seats[1], Strength("shaky", shaky, MINDS["weak"]), b),
        }
        game = HeadlessGame(
            FACE, layout, seats, int(phys.integers(2**31)), starter=seats[g % 2],
            max_rounds=max_rounds,
        )  # fmt: skip
        game.play(players)
        wins += game.winner == seats[0]
        losses += game.winner == seats[1]
        draws += game.winner is None
    return Match(games, wins, losses, draws)


def person_like(rate: float, curve: Sequence[tuple[float, float]]) -> float:
    """The speed spread of the person curve (``curve``: (speed spread, ring-5 rate), steadiest
    first, rates falling) whose ring-5 rate is ``rate``, interpolated on a log scale."""
    pts = sorted(curve)
    if rate >= pts[0][1]:
        return pts[0][0]
    for (s0, r0), (s1, r1) in zip(pts, pts[1:], strict=False):
        if r1 <= rate <= r0:
            u = (r0 - rate) / (r0 - r1) if r0 > r1 else 0.0
            return math.exp(math.log(s0) + u * (math.log(s1) - math.log(s0)))
    return pts[-1][0]


def strength_hands() -> dict[str, Noise]:
    """Each computer strength's hand."""
    return {name: NOISE_LEVELS[hand] for name, (hand, _) in PRESETS.items()}

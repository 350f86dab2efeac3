"""The chance of winning from a game state: a logistic model fitted on whole simulated games.

The planner values every outcome it simulates by this chance. For each seat it reads four
features of the state:

- ``lead``: the seat's worth (:func:`seat_worth`: spaces its scoring pawns have moved, a bonus
  a pawn HOME, most of what its roller pawns on the table will add at round end) minus the worth
  of the leading opponent;
- ``lead × stage``: the same lead, weighted by how far the game has gone (the furthest seat's
  spaces moved, over the 24 a game needs): a lead of three spaces decides little in the first
  round and much in the last;
- ``race``: the log-odds of the race model (:class:`sliders.ai.race.RaceModel`), which knows
  the exact count to HOME and the odds of each value under the hand;
- ``shots``: the seat's roller pawns still to slide this round minus the opponents' (mean).

With two seats its chance is ``σ(w · features)``, the weights :data:`WEIGHTS` (the features of
the two seats are opposite, so this is also ``exp(w · x / 2)`` normalised over the seats, the
form it takes with more seats).
The weights were fitted by maximum likelihood on the positions of 400 two-seat games of Race for
Home between computer players on the square, each position labelled by who went on to win
(``python benchmarks/win_model.py`` plays the games, fits the weights and prints them with the
held-out log loss of this model and of the race model alone).

Why not the race model alone: it takes each shot's odds from an empty board, so it expects a
seat to finish in two or three rounds; real games, with pawns knocked about and crowded rings,
last five to twelve. It values every draw of the first round within 0.6 points of a percent of
each other (a 1 and a 5 alike), and a planner that followed it won 9 of 24 games against the
classic search; valued by this model, 938 of 1,000. Fitted on games, the lead carries most of
the weight and the race model sharpens the end game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from sliders.ai.race import RaceModel, remember
from sliders.rules import HOME, GameState, Phase, apply_assignment, default_assignment, scores_of

FEATURES = ("lead", "lead_stage", "race", "shots")
WEIGHTS = (0.0947, 0.04987, 0.05013, 0.6283)
"""fitted by ``benchmarks/win_model.py`` (see the module)"""
SPACES = 24
"""spaces a seat's four scoring pawns move in a game"""
RACE_CLIP = 1e-4
"""the race model's chance is clipped to [this, 1 - this] before its log-odds"""
HOME_BONUS = 3.0
"""a seat's worth: extra worth of a scoring pawn HOME, beyond its six spaces"""
TABLE_WEIGHT = 0.8
"""a seat's worth: share of the round-end points of its roller pawns on the table counted now"""


@dataclass
class WinModel:
    """The chance of winning (see the module), with the race model of the seat's hand."""

    race: RaceModel
    weights: tuple[float, ...] = WEIGHTS
    _worth: dict[tuple, float] = field(default_factory=dict, init=False, repr=False)
    _chances: dict[tuple, dict[str, float]] = field(default_factory=dict, init=False, repr=False)

    def win_probability(self, state: GameState, seat: str) -> float:
        """``seat``'s chance of winning from ``state`` (1 once it has won, 0 once another
        has)."""
        return self.win_probabilities(state)[seat]

    def win_probabilities(self, state: GameState) -> dict[str, float]:
        """Each seat's chance of winning from ``state``."""
        if state.winner is not None:
            return {s: float(s == state.winner) for s in state.seats}
        key = _reads(state)
        got = self._chances.get(key)
        if got is None:
            x = features(state, self.race.win_probabilities(state), self.worth)
            w = np.asarray(self.weights)
            odds = {s: math.exp(0.5 * float(w @ x[s])) for s in state.seats}
            total = sum(odds.values())
            got = remember(self._chances, key, {s: o / total for s, o in odds.items()})
        return dict(got)

    def worth(self, state: GameState, seat: str) -> float:
        """:func:`seat_worth`, remembered by what it depends on (the face,
        the seat's board and the scores its pawns on the table offer)."""
        key = (state.face, state.player(seat).board, _offers(state, seat))
        got = self._worth.get(key)
        if got is None:
            got = remember(self._worth, key, seat_worth(state, seat))
        return got


def _reads(state: GameState) -> tuple:
    """All that the model reads of ``state`` (so equal keys give equal chances): the seats and
    the round's starter, whether pawns are still being slid, and each seat's score board, the
    scores its pawns on the table offer and the roller pawns in its hand."""
    shooting = state.phase is Phase.SHOOTING
    return (
        state.face,
        state.seats,
        state.starter,
        shooting,
        tuple(
            (
                state.player(s).board,
                _offers(state, s),
                len(state.player(s).in_hand) if shooting else 0,
            )
            for s in state.seats
        ),
    )


def _offers(state: GameState, seat: str) -> tuple[tuple[int, ...], ...]:
    """The scores ``seat``'s roller pawns on the table offer, sorted."""
    return tuple(sorted(scores_of(q, state.face_record) for q in state.on_table(seat)))


def features(
    state: GameState,
    race: Mapping[str, float],
    worth: Callable[[GameState, str], float] | None = None,
) -> dict[str, np.ndarray]:
    """Each seat's features (in the order of :data:`FEATURES`), from ``state``, the race
    model's chances ``race`` and each seat's ``worth``."""
    worth = worth or seat_worth
    worth_of = {s: worth(state, s) for s in state.seats}
    shooting = state.phase is Phase.SHOOTING
    hand = {s: len(state.player(s).in_hand) if shooting else 0 for s in state.seats}
    stage = max(sum(state.player(s).board) for s in state.seats) / SPACES
    out = {}
    for s in state.seats:
        others = [o for o in state.seats if o != s]
        lead = worth_of[s] - max((worth_of[o] for o in others), default=0.0)
        shots = hand[s] - (sum(hand[o] for o in others) / len(others) if others else 0.0)
        p = min(max(race[s], RACE_CLIP), 1 - RACE_CLIP)
        out[s] = np.array([lead, lead * stage, math.log(p / (1 - p)), shots])
    return out


def seat_worth(state: GameState, seat: str) -> float:
    """A seat's worth, the model's ``lead`` feature: its score board now, plus its table pawns'
    round-end points (by the rules' default assignment, weighted by :data:`TABLE_WEIGHT`)."""
    board = state.player(seat).board
    now = board_worth(board)
    if not state.on_table(seat):
        return now
    after = apply_assignment(board, default_assignment(state, seat))
    return now + TABLE_WEIGHT * (board_worth(after) - now)


def board_worth(board: Sequence[int]) -> float:
    """Spaces moved by the scoring pawns, with :data:`HOME_BONUS` for each pawn HOME."""
    return float(sum(board)) + HOME_BONUS * sum(1 for sq in board if sq == HOME)

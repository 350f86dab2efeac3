"""The planner's chance of winning: a logistic model over the lead, the stage, the race model and
the shots left."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.ai.aims import shot_odds
from sliders.ai.race import RaceModel
from sliders.ai.win import FEATURES, WEIGHTS, WinModel, features
from sliders.boards import face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import NOISE_LEVELS, PhysicsParams
from sliders.rules import HOME, Phase, new_game


@pytest.fixture(scope="module")
def model() -> WinModel:
    layout = load_layout("square", ("south", "north"))
    odds = shot_odds(
        layout, face("race-for-home"), "south", NOISE_LEVELS["low"], PhysicsParams.default()
    )
    return WinModel(RaceModel(odds))


def _game(south, north, starter="south", seats=("south", "north"), **kw):
    boards = dict(zip(seats, (south, north, (0,) * 4, (0,) * 4), strict=False))
    state = new_game("race-for-home", list(seats), starter, boards)
    return replace(state, **kw)


BOARDS = [b for b in itertools.product(range(HOME + 1), repeat=4) if b != (HOME,) * 4]


def test_two_seats_take_the_fitted_logistic_and_sum_to_one(model):
    """With two seats the chance is σ(w·x) of the seat's own features, and the two sum to 1."""
    rng = np.random.default_rng(0)
    for _ in range(40):
        a = BOARDS[int(rng.integers(len(BOARDS)))]
        b = BOARDS[int(rng.integers(len(BOARDS)))]
        state = _game(a, b)
        got = model.win_probabilities(state)
        x = features(state, model.race.win_probabilities(state))
        z = float(np.dot(WEIGHTS, x["south"]))
        assert got["south"] == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)
        assert sum(got.values()) == pytest.approx(1.0)
        assert x["north"] == pytest.approx(-x["south"])  # the features are opposite


def test_more_spaces_moved_is_never_worse_in_the_same_race(model):
    """Moving a scoring pawn one space on, against a fixed opponent at the start of a round,
    raises the chance unless the race model (the exact count) objects more than the lead
    pleases; a pawn sent HOME always raises it."""
    rng = np.random.default_rng(1)
    for board in [BOARDS[i] for i in rng.choice(len(BOARDS), 80, replace=False)]:
        other = BOARDS[int(rng.integers(len(BOARDS)))]
        base = model.win_probability(_game(board, other), "south")
        for i, sq in enumerate(board):
            home = list(board)
            home[i] = HOME
            if sq != HOME and not all(s == HOME for s in home):
                assert model.win_probability(_game(tuple(home), other), "south") > base


def test_a_lead_counts_for_more_late_in_the_game(model):
    """Two spaces ahead weigh more when both seats are near HOME than in the first round."""
    early = model.win_probability(_game((2, 0, 0, 0), (0, 0, 0, 0)), "south")
    late = model.win_probability(_game((6, 6, 4, 4), (6, 6, 4, 2)), "south")
    assert 0.5 < early < late


def test_a_won_game_is_worth_one_and_a_lost_game_nothing(model):
    won = _game((6, 6, 6, 5), (0, 0, 0, 0), winner="south", phase=Phase.OVER, turn=None)
    assert model.win_probability(won, "south") == 1.0
    assert model.win_probability(won, "north") == 0.0


def test_a_knocked_off_opponent_is_worth_more_than_a_pawn_of_ones_own_on_the_table(model):
    """North's pawn on the 5 is a threat; the same spot taken by south's own pawn (north's
    gone) is better for south, and both beat an empty table with south to play less."""
    north5 = PawnRest("north-1", "north", 0.0, 0.0, Status.ON_TARGET, 5)
    south5 = PawnRest("south-1", "south", 0.0, 0.0, Status.ON_TARGET, 5)
    hands = {"south": ("south-2", "south-3", "south-4"), "north": ("north-2", "north-3", "north-4")}
    base = _game((3, 3, 0, 0), (3, 3, 0, 0), turn="south")
    players = tuple(replace(p, in_hand=hands[p.seat]) for p in base.players)
    theirs = replace(base, players=players, table=(north5,))
    mine = replace(base, players=players, table=(south5,))
    assert model.win_probability(mine, "south") > 0.5 > model.win_probability(theirs, "south")


def test_four_seats_share_the_chances():
    layout = load_layout("square", ("south", "west", "north", "east"))
    odds = shot_odds(
        layout, face("race-for-home"), "south", NOISE_LEVELS["medium"], PhysicsParams.default()
    )
    model = WinModel(RaceModel(odds))
    seats = ("south", "west", "north", "east")
    state = _game((6, 6, 2, 0), (3, 0, 0, 0), seats=seats)
    got = model.win_probabilities(state)
    assert sum(got.values()) == pytest.approx(1.0)
    assert got["south"] == max(got.values())
    # the same boards, no table: they differ only by the tie rule (turn order)
    assert got["north"] == pytest.approx(got["east"], rel=0.01)
    assert len(FEATURES) == len(WEIGHTS)

"""The race model: the chance of winning, from score boards, pawns on the table and shots left."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from sliders.ai.aims import PENALTY, ShotOdds, shot_odds
from sliders.ai.race import RaceModel
from sliders.boards import face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import NOISE_LEVELS, PhysicsParams
from sliders.rules import HOME, Phase, new_game


def _even_odds(hit: float = 0.6, penalty: float = 0.05) -> ShotOdds:
    """A hand that lands what it aims at with the same chance whatever the value; a miss lands
    one of the other values at random, or a penalty."""
    outcomes = (PENALTY, (), (1,), (2,), (3,), (4,), (5,))
    probs = []
    for aim in range(1, 6):
        row = np.zeros(len(outcomes))
        row[0] = penalty
        row[1 + aim] = hit
        others = [1 + v for v in range(1, 6) if v != aim] + [1]
        row[others] += (1 - hit - penalty) / len(others)
        probs.append(row)
    return ShotOdds(tuple(range(1, 6)), outcomes, np.array(probs))


@pytest.fixture(scope="module")
def even() -> RaceModel:
    return RaceModel(_even_odds())


@pytest.fixture(scope="module")
def measured() -> RaceModel:
    layout = load_layout("square", ("south", "north"))
    odds = shot_odds(
        layout, face("race-for-home"), "south", NOISE_LEVELS["medium"], PhysicsParams.default()
    )
    return RaceModel(odds)


def _game(south, north, starter="south", **kw):
    state = new_game("race-for-home", ["south", "north"], starter, {"south": south, "north": north})
    return replace(state, **kw)


BOARDS = [b for b in itertools.product(range(HOME + 1), repeat=4) if b != (HOME,) * 4]


def test_one_pawn_nearer_home_never_lowers_the_chance_of_winning(even):
    """With a hand as good at every value, every step toward HOME helps (or changes nothing),
    for every board of the seat against a fixed opponent, at the start of a round."""
    rng = np.random.default_rng(0)
    opponent = (3, 2, 0, 0)
    for board in [BOARDS[i] for i in rng.choice(len(BOARDS), 150, replace=False)]:
        base = even.win_probability(_game(board, opponent), "south")
        for i, sq in enumerate(board):
            if sq == HOME:
                continue
            nearer = list(board)
            nearer[i] = sq + 1
            if all(s == HOME for s in nearer):
                continue
            got = even.win_probability(_game(tuple(nearer), opponent), "south")
            assert got >= base - 1e-9, (board, i)


def test_a_pawn_home_and_an_opponent_further_back_help_with_a_measured_hand(measured):
    """With the measured odds of a real hand some values are easier to land than others, so a
    pawn one square on is not always better placed; but a pawn HOME always is, and an opponent
    sent back to START never helps it."""
    rng = np.random.default_rng(1)
    for board in [BOARDS[i] for i in rng.choice(len(BOARDS), 60, replace=False)]:
        other = BOARDS[int(rng.integers(len(BOARDS)))]
        base = measured.win_probability(_game(board, other), "south")
        for i, sq in enumerate(board):
            home = list(board)
            home[i] = HOME
            if sq != HOME and not all(s == HOME for s in home):
                assert measured.win_probability(_game(tuple(home), other), "south") >= base - 1e-9
        for j, sq in enumerate(other):
            if sq != HOME:
                back = list(other)
                back[j] = 0
                assert measured.win_probability(_game(board, tuple(back)), "south") >= base - 1e-9


def test_a_won_game_is_worth_one_and_a_lost_game_nothing(measured):
    won = _game((6, 6, 6, 5), (0, 0, 0, 0), winner="south", phase=Phase.OVER, turn=None)
    assert measured.win_probability(won, "south") == 1.0
    assert measured.win_probability(won, "north") == 0.0


def test_home_at_round_end_wins(measured):
    """The round is over and south's last pawn on the table scores exactly what it needs:
    south wins when the round is scored (north cannot finish this round)."""
    table = (PawnRest("south-1", "south", 0.0, 0.0, Status.ON_TARGET, 5),)
    state = _game((6, 6, 6, 1), (2, 0, 0, 0), table=table, phase=Phase.SCORING, turn=None)
    players = tuple(replace(p, in_hand=()) for p in state.players)
    state = replace(state, players=players)
    assert measured.win_probability(state, "south") == pytest.approx(1.0)


def test_symmetric_between_seats(measured):
    """The seats' chances sum to 1, and swapping the boards and the starter swaps them."""
    rng = np.random.default_rng(2)
    for _ in range(30):
        a = BOARDS[int(rng.integers(len(BOARDS)))]
        b = BOARDS[int(rng.integers(len(BOARDS)))]
        one = measured.win_probabilities(_game(a, b, "south"))
        two = measured.win_probabilities(_game(b, a, "north"))
        assert sum(one.values()) == pytest.approx(1.0)
        assert one["south"] == pytest.approx(two["north"])
        assert one["north"] == pytest.approx(two["south"])


def test_equal_boards_differ_only_by_the_tie_rule(even):
    """Equal boards one pawn from winning, likely this round: a tie goes to the round's
    starter, so the starter is ahead."""
    got = even.win_probabilities(_game((6, 6, 6, 5), (6, 6, 6, 5), "south"))
    assert got["south"] > 0.8 > 0.2 > got["north"]
    swapped = even.win_probabilities(_game((6, 6, 6, 5), (6, 6, 6, 5), "north"))
    assert swapped["north"] == pytest.approx(got["south"])


def test_a_one_is_worth_more_than_a_five_when_it_reaches_home(measured):
    """Three pawns HOME and the last on square 5, south's shots all slid: a pawn on the table
    worth 1 wins the game at round end, one worth 5 cannot be used (HOME only by exact count),
    and north, one pawn from HOME with four shots to come, may well finish first."""

    def with_pawn(points: int) -> float:
        table = (PawnRest("south-1", "south", 0.0, 0.0, Status.ON_TARGET, points),)
        state = _game((6, 6, 6, 5), (6, 6, 6, 3), table=table, turn="north")
        state = state.with_player(replace(state.player("south"), in_hand=()))
        return measured.win_probability(state, "south")

    assert with_pawn(1) > with_pawn(5) + 0.2

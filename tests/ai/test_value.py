"""A shot's value through the rules engine: the hole, penalties to any pawn, the 4/5/6 choice,
exact count to HOME, opponents' losses, an instant win."""

from __future__ import annotations

import pytest

from sliders.ai.value import FULL, GameSpot, Valuer, parse_score_boards
from sliders.errors import UserError
from sliders.outcome import Event, EventType, PawnRest, ShotResult, Status


def rest(pid: str, status: Status, points: int = 0, choices: tuple[int, ...] = ()) -> PawnRest:
    return PawnRest(pid, pid.rsplit("-", 1)[0], 0.0, 0.0, status, points, choices)


def spot(**boards: tuple[int, ...]) -> GameSpot:
    return GameSpot(tuple(sorted(boards.items())))


def test_the_hole_on_instant_home_sends_the_furthest_pawn_home() -> None:
    v = Valuer("instant-home", ("south", "north"), "south", (), spot(south=(0, 2, 4, 0)))
    hole = ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v(hole) == 6  # a pawn on START jumps HOME: six spaces
    ring5 = ShotResult("instant-home", "south-1", (rest("south-1", Status.ON_TARGET, 5),))
    assert v(ring5) == 5
    edge = ShotResult("instant-home", "south-1", (rest("south-1", Status.HOLE_EDGE, 4),))
    assert v(edge) == 4


def test_the_hole_on_instant_sorry_is_a_penalty() -> None:
    v = Valuer("instant-sorry", ("south", "north"), "south", (), spot(south=(5, 3, 0, 0)))
    hole = ShotResult("instant-sorry", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v(hole) == -5


def test_the_456_choice_takes_the_best_legal_count() -> None:
    # square 2: 4 brings it HOME exactly, 5 and 6 overshoot it but fit the pawns on START
    v = Valuer("instant-sorry", ("south", "north"), "south", (), spot(south=(2, 6, 6, 6)))
    circle = rest("south-1", Status.ON_TARGET, 6, (4, 5, 6))
    assert v(ShotResult("instant-sorry", "south-1", (circle,))) == 4  # only 4 is legal, and wins


def test_exact_count_to_home_loses_points_that_overshoot() -> None:
    v = Valuer("race-for-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 3)))
    four = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 4),))
    three = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 3),))
    assert v(four) == 0
    assert v(three) == 3


def test_a_penalty_to_an_own_pawn_on_the_table_counts() -> None:
    table = (rest("south-1", Status.ON_TARGET, 5),)
    v = Valuer("race-for-home", ("south", "north"), "south", table, spot(south=(3, 0, 0, 0)))
    # before: 3 on the board and 5 to come (onto a START pawn: 3 + 5 would overshoot) = 8
    knocked = ShotResult(
        "race-for-home",
        "south-2",
        (rest("south-1", Status.OFF_BOARD), rest("south-2", Status.ON_TARGET, 2)),
        (Event(0.5, EventType.OFF_BOARD, ("south-1",)),),
    )
    assert v(knocked) == (0 + 2) - 8  # the penalty sends the 3 back to START


def test_an_opponents_loss_is_a_gain_shared_among_opponents() -> None:
    table = (rest("north-1", Status.ON_TARGET, 5),)
    gone = (rest("north-1", Status.KNOCKED_OVER), rest("south-1", Status.OWN_TRACK))
    two = Valuer("race-for-home", ("south", "north"), "south", table)
    assert two(ShotResult("race-for-home", "south-1", gone)) == 5
    four = Valuer("race-for-home", ("south", "west", "north", "east"), "south", table)
    assert four(ShotResult("race-for-home", "south-1", gone)) == pytest.approx(5 / 3)


def test_an_instant_win_counts_all_24_spaces() -> None:
    v = Valuer("instant-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 1)))
    hole = ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v(hole) == FULL - 19


def test_a_foul_costs_nothing_but_the_pawn() -> None:
    table = (rest("south-1", Status.ON_TARGET, 3),)
    v = Valuer("race-for-home", ("south", "north"), "south", table)
    assert v.foul("south-2") == 0


def test_values_are_cached_by_outcome() -> None:
    v = Valuer("race-for-home", ("south", "north"), "south", ())
    r = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 2),))
    assert v(r) == v(r) == 2
    assert len(v._cache) == 1


def test_score_boards_parse_by_seat_or_colour() -> None:
    got = parse_score_boards(["red=0,1,2,3", "north=6,0,0,0"], ("south", "north"))
    assert got.board("south") == (0, 1, 2, 3) and got.board("north") == (6, 0, 0, 0)
    for bad in ("south=0,1,2", "south=7,0,0,0", "west=0,0,0,0", "south", "south=a,b,c,d"):
        with pytest.raises(UserError):
            parse_score_boards([bad], ("south", "north"))
    with pytest.raises(UserError):
        parse_score_boards(["south=0,0,0,0", "red=1,0,0,0"], ("south", "north"))

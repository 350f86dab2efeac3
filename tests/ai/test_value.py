"""A shot's value (the chance of winning after it) and its progress through the rules engine:
the hole, penalties to any pawn, the 4/5/6 choice, exact count to HOME, opponents' losses, an
instant win."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

import pytest

from sliders.ai.value import FULL, GameSpot, Valuer, parse_score_boards, study_state, win_model
from sliders.boards import face
from sliders.core.errors import UserError
from sliders.core.outcome import Event, EventType, PawnRest, ShotResult, Status
from sliders.files.layouts import load_layout
from sliders.physics import Noise, PhysicsParams
from sliders.rules import apply_shot


def Valuer_(
    face_name: str,
    seats: Sequence[str],
    seat: str,
    table: Sequence[PawnRest],
    spot: GameSpot | None = None,
) -> Valuer:
    """A study's valuer for the medium hand on the square."""
    model = win_model(
        load_layout("square", tuple(seats)),
        face(face_name),
        seat,
        Noise.level("medium"),
        PhysicsParams.default(),
    )
    return Valuer.at(face_name, seats, seat, table, model, spot or GameSpot())


def rest(pid: str, status: Status, points: int = 0, choices: tuple[int, ...] = ()) -> PawnRest:
    return PawnRest(pid, pid.rsplit("-", 1)[0], 0.0, 0.0, status, points, choices)


def spot(**boards: tuple[int, ...]) -> GameSpot:
    return GameSpot(tuple(sorted(boards.items())))


def test_the_hole_on_instant_home_sends_the_furthest_pawn_home() -> None:
    v = Valuer_("instant-home", ("south", "north"), "south", (), spot(south=(0, 2, 4, 0)))
    hole = ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v.progress(hole) == 6  # a pawn on START jumps HOME: six spaces
    ring5 = ShotResult("instant-home", "south-1", (rest("south-1", Status.ON_TARGET, 5),))
    assert v.progress(ring5) == 5
    edge = ShotResult("instant-home", "south-1", (rest("south-1", Status.HOLE_EDGE, 4),))
    assert v.progress(edge) == 4


def test_the_hole_on_instant_sorry_is_a_penalty() -> None:
    v = Valuer_("instant-sorry", ("south", "north"), "south", (), spot(south=(5, 3, 0, 0)))
    hole = ShotResult("instant-sorry", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v.progress(hole) == -5


def test_the_456_choice_takes_the_best_legal_count() -> None:
    # square 2: 4 brings it HOME exactly, 5 and 6 overshoot it but fit the pawns on START
    v = Valuer_("instant-sorry", ("south", "north"), "south", (), spot(south=(2, 6, 6, 6)))
    circle = rest("south-1", Status.ON_TARGET, 6, (4, 5, 6))
    assert (
        v.progress(ShotResult("instant-sorry", "south-1", (circle,))) == 4
    )  # only 4 is legal, and wins


def test_exact_count_to_home_loses_points_that_overshoot() -> None:
    v = Valuer_("race-for-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 3)))
    four = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 4),))
    three = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 3),))
    assert v.progress(four) == 0
    assert v.progress(three) == 3


def test_a_penalty_to_an_own_pawn_on_the_table_counts() -> None:
    table = (rest("south-1", Status.ON_TARGET, 5),)
    v = Valuer_("race-for-home", ("south", "north"), "south", table, spot(south=(3, 0, 0, 0)))
    # before: 3 on the board and 5 to come (onto a START pawn: 3 + 5 would overshoot) = 8
    knocked = ShotResult(
        "race-for-home",
        "south-2",
        (rest("south-1", Status.OFF_BOARD), rest("south-2", Status.ON_TARGET, 2)),
        (Event(0.5, EventType.OFF_BOARD, ("south-1",)),),
    )
    assert v.progress(knocked) == (0 + 2) - 8  # the penalty sends the 3 back to START


def test_an_opponents_loss_is_a_gain_shared_among_opponents() -> None:
    table = (rest("north-1", Status.ON_TARGET, 5),)
    gone = (rest("north-1", Status.KNOCKED_OVER), rest("south-1", Status.OWN_TRACK))
    two = Valuer_("race-for-home", ("south", "north"), "south", table)
    assert two.progress(ShotResult("race-for-home", "south-1", gone)) == 5
    four = Valuer_("race-for-home", ("south", "west", "north", "east"), "south", table)
    assert four.progress(ShotResult("race-for-home", "south-1", gone)) == pytest.approx(5 / 3)


def test_an_instant_win_counts_all_24_spaces() -> None:
    v = Valuer_("instant-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 1)))
    hole = ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v.progress(hole) == FULL - 19


def test_a_foul_costs_nothing_but_the_pawn() -> None:
    table = (rest("south-1", Status.ON_TARGET, 3),)
    v = Valuer_("race-for-home", ("south", "north"), "south", table)
    assert v.progress(v.foul_result("south-2")) == 0
    assert v.foul("south-2") < v.before  # a pawn fewer to slide: a lower chance


def test_values_are_cached_by_outcome() -> None:
    v = Valuer_("race-for-home", ("south", "north"), "south", ())
    r = ShotResult("race-for-home", "south-1", (rest("south-1", Status.ON_TARGET, 2),))
    assert v(r) == v(r) and v.progress(r) == 2
    assert v.valued == 1  # the rules ran once
    on_target = list(Status).index(Status.ON_TARGET)
    assert v.of_codes(("south-1",), (on_target, 2)) == (v(r), 2)
    assert v.valued == 1


def test_the_value_is_the_chance_of_winning_after_the_shot() -> None:
    """The value of a shot is the seat's chance of winning in the game the rules leave (a win
    is 1); the progress beside it is a derived quantity, not a second value."""
    v = Valuer_("instant-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 1)))
    hole = ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),))
    assert v(hole) == 1.0
    ring = ShotResult("instant-home", "south-1", (rest("south-1", Status.ON_TARGET, 5),))
    after = study_state("instant-home", ("south", "north"), "south", (), spot(south=(6, 6, 6, 1)))
    played, _ = apply_shot(after, ring)
    assert v(ring) == v.model.win_probability(played, "south")
    one = ShotResult("instant-home", "south-1", (rest("south-1", Status.ON_TARGET, 1),))
    assert 0 < v(one) < v(ring) < 1  # the 5 takes the last pawn HOME at the round's end


def test_score_boards_parse_by_seat_or_colour() -> None:
    got = parse_score_boards(["red=0,1,2,3", "north=6,0,0,0"], ("south", "north"))
    assert got.board("south") == (0, 1, 2, 3) and got.board("north") == (6, 0, 0, 0)
    for bad in ("south=0,1,2", "south=7,0,0,0", "west=0,0,0,0", "south", "south=a,b,c,d"):
        with pytest.raises(UserError):
            parse_score_boards([bad], ("south", "north"))
    with pytest.raises(UserError):
        parse_score_boards(["south=0,0,0,0", "red=1,0,0,0"], ("south", "north"))


MODEL_BITS = """
import hashlib
import numpy as np
from sliders.ai.value import win_model
from sliders.ai.aims import shot_odds
from sliders.boards import face
from sliders.files.layouts import load_layout
from sliders.physics import Noise, PhysicsParams
from sliders.physics.model import knock_over_thresholds
layout, hand, p = load_layout("square", ("south", "north")), Noise.level("medium"), PhysicsParams.default()
h = hashlib.sha256()
for name in ("instant-home", "race-for-home"):
    odds = shot_odds(layout, face(name), "south", hand, p)
    h.update(odds.probs.tobytes())
    race = win_model(layout, face(name), "south", hand, p).race
    for tries in range(1, 5):
        for distance in range(1, 7):
            h.update(race.pawn_cdf(distance, tries).tobytes())
h.update(knock_over_thresholds(p.replace(knock_over_spread=0.01), np.random.default_rng(1), 999).tobytes())
print(h.hexdigest())
"""


@pytest.mark.slow
def test_the_value_is_the_same_bits_whatever_vector_instructions_numpy_uses() -> None:
    """numpy picks its sorting and its vector logarithm and powers by the processor (AVX-512 or
    not), and they differ in ties and in the last bit; the shot odds, the race model and the
    knock-over draws must not, or two machines value (and replay) the same game differently."""

    def bits(disabled: str) -> str:
        env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disabled)
        done = subprocess.run(
            [sys.executable, "-c", MODEL_BITS], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    assert bits("") == bits("X86_V4 AVX512_ICL AVX512_SPR AVX512_SKX AVX512F")

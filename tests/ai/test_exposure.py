"""Exposure to knocks: which pawns an opponent's shot still to come can cut into a SORRY! corner or
off an open edge of the board, and the planner valuing its outcomes in expectation over them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sliders.ai.exposure import THREAT, expected_knocks, knock_chances, knock_threats
from sliders.ai.planner import PlanSearch
from sliders.ai.player import STRENGTHS
from sliders.ai.value import GameSpot, study_state
from sliders.boards import face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import PhysicsParams
from sliders.rules import CORNERS_ONLY

SEATS = ("south", "north")
LAYOUT = load_layout("square", SEATS)
FACE = face("race-for-home")
P = PhysicsParams.default()
ON = list(Status).index(Status.ON_TARGET)
OWN = list(Status).index(Status.OWN_TRACK)


def _state(turn="south", table=()):
    spot = GameSpot((("south", (5, 3, 0, 0)), ("north", (5, 3, 0, 0))))
    return study_state("race-for-home", SEATS, turn, table, spot)


def _threat(state, seat, pawns):
    order = tuple(p[0] for p in pawns)
    status = np.array([[p[3] for p in pawns]])
    x, y = np.array([[p[1] for p in pawns]]), np.array([[p[2] for p in pawns]])
    return knock_threats(state, seat, LAYOUT, FACE, P, order, status, x, y)


def test_a_pawn_near_a_corner_is_exposed_and_one_in_the_centre_much_less():
    state = _state()  # south to slide: north's pawns are exposed to south's shots
    near = _threat(state, "north", [("north-1", 0.085, 0.06, ON)])[0, 0]
    centre = _threat(state, "north", [("north-1", 0.0, 0.0, ON)])[0, 0]
    assert 0.5 * THREAT < near <= THREAT
    assert 0 < centre < near / 2


def test_a_guard_closes_the_cut_and_own_pawns_are_not_threatened_by_their_own_seat():
    state = _state()
    open_ = _threat(state, "north", [("north-1", 0.085, 0.06, ON)])[0, 0]
    # pawns standing across every line from south's foul line to the contact point
    guards = [("north-2", 0.06, 0.0, ON), ("north-3", 0.075, 0.02, ON), ("north-4", 0.04, 0.0, ON)]
    guarded = _threat(state, "north", [("north-1", 0.085, 0.06, ON), *guards])
    assert guarded is None or guarded[0, 0] < open_
    # south's own pawn: nobody but south is to slide... south is, so north's hand decides
    assert _threat(state, "south", [("south-1", 0.085, 0.06, ON)]) is not None
    nobody = replace(state, players=tuple(replace(p, in_hand=()) if p.seat == "north" else p
                                          for p in state.players))  # fmt: skip
    assert _threat(nobody, "south", [("south-1", 0.085, 0.06, ON)]) is None


def test_pawns_on_their_own_track_and_other_seats_pawns_are_not_counted():
    state = _state()
    assert _threat(state, "north", [("north-1", 0.0, -0.2, OWN)]) is None
    assert _threat(state, "north", [("south-1", 0.085, 0.06, ON)]) is None


def test_several_exposed_pawns_share_one_knock():
    t = np.array([[0.35, 0.35, 0.35, 0.35], [0.1, 0.2, 0.0, 0.0]])
    got = expected_knocks(t)
    assert got[0].sum() == 1.0 and np.allclose(got[1], t[1])


def test_every_shot_still_to_come_can_knock_a_pawn():
    t = np.array([[0.3, 0.0], [0.9, 0.9]])
    one, three = knock_chances(t, 1), knock_chances(t, 3)
    assert np.allclose(one[0], [0.3, 0.0]) and np.isclose(three[0, 0], 1 - 0.7**3)
    assert np.allclose(three[1], 1 - 0.1**3)  # two pawns, three shots: each its own chance
    assert knock_chances(t, 1)[1].sum() == 1.0  # one shot knocks one pawn at most


def test_the_planner_values_an_exposed_outcome_below_the_same_outcome_guarded():
    # south's pawn on the 2 near the north-east corner, north still to slide: the planner's
    # values with exposure are never above those without, and below them for some samples
    table = (PawnRest("south-1", "south", 0.085, 0.06, Status.ON_TARGET, 2),)
    state = _state("south", table)
    hard = STRENGTHS["hard"]
    got = {}
    for exposure in (True, False):
        mind = replace(hard.mind, simulations=200, exposure=exposure)
        search = PlanSearch("south", hard.hand, mind, np.random.default_rng(3), state, LAYOUT,
                            FACE, P)  # fmt: skip
        search.run()
        got[exposure] = [v for c in search.pool for v in c.values]
    with_, without = np.array(got[True]), np.array(got[False])
    assert len(with_) == len(without)
    assert np.all(with_ <= without + 1e-12) and np.any(with_ < without - 1e-3)


TRIPLE = load_layout("triple-track", SEATS)


def _threat_on(layout, state, seat, pawns):
    order = tuple(p[0] for p in pawns)
    status = np.array([[p[3] for p in pawns]])
    x, y = np.array([[p[1] for p in pawns]]), np.array([[p[2] for p in pawns]])
    got = knock_threats(state, seat, layout, FACE, P, order, status, x, y)
    return 0.0 if got is None else float(got[0, 0])


def test_an_open_edge_is_a_sink_as_a_corner_is():
    # triple-track: both seats slide up one lane from the south, and the board's north, east and
    # west edges are open; north's pawn in the middle is one straight hit from falling off the
    # far edge (a penalty, as a corner is), as exposed as a pawn by a corner on the square
    state = _state()
    centre = _threat_on(TRIPLE, state, "north", [("north-1", 0.0, 0.03, ON)])
    by_corner = _threat_on(LAYOUT, state, "north", [("north-1", 0.085, 0.06, ON)])
    assert centre > 0.5 * THREAT and centre >= 0.8 * by_corner
    # a guard standing in front of it, between the lane and the pawn, closes the straight hit
    guarded = _threat_on(TRIPLE, state, "north",
                         [("north-1", 0.0, 0.03, ON), ("north-2", 0.0, -0.02, ON)])  # fmt: skip
    assert guarded < centre
    # north's pawn in front of the north track: on the square a straight hit sends it onto that
    # track (it stays in play), on triple-track off the open north edge
    ahead = [("north-1", 0.0, 0.09, ON)]
    assert _threat_on(LAYOUT, state, "north", ahead) < 0.1 * THREAT
    assert _threat_on(TRIPLE, state, "north", ahead) > 0.9 * THREAT


def test_under_corners_only_a_side_is_no_sink_and_the_square_is_as_by_the_rulebook():
    """With the house rule ``corners-only`` a pawn off a side costs no penalty: triple-track's
    pawn in front of the open north side is read as far less exposed (only a cut towards a
    corner is left), while one a straight hit sends off by a corner is as exposed as before,
    and on the square nothing changes."""
    plain, house = _state(), replace(_state(), house=(CORNERS_ONLY,))
    ahead = [("north-1", 0.0, 0.09, ON)]
    assert _threat_on(TRIPLE, plain, "north", ahead) > 0.9 * THREAT
    assert _threat_on(TRIPLE, house, "north", ahead) < 0.3 * THREAT  # a thin cut to a corner
    by_corner = [("north-1", 0.1, 0.09, ON)]  # a straight hit sends it off by the corner
    assert _threat_on(TRIPLE, house, "north", by_corner) > 0.5 * THREAT
    for pawns in (ahead, by_corner, [("north-1", 0.085, 0.06, ON)]):
        assert _threat_on(LAYOUT, house, "north", pawns) == _threat_on(
            LAYOUT, plain, "north", pawns
        )

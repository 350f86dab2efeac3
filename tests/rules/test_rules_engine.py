"""One table of cases per rule of the rulebook."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sliders.core.outcome import Event, EventType, ShotResult, Status
from sliders.rules import (
    HOME,
    Advanced,
    InstantHome,
    Move,
    PawnRemoved,
    Penalty,
    Phase,
    PointsLost,
    RoundOver,
    RulesError,
    Won,
    apply_shot,
    check_assignment,
    default_assignment,
    legal_assignments,
    new_game,
    score_round,
    scores_of,
)

S = Status

# --- removal and penalty -------------------------------------------------------------------

PENALTY_CASES = [
    # face, board before, status of the shot pawn, board after
    ("race-for-home", (0, 3, 5, 0), S.SORRY_CORNER, (0, 3, 0, 0)),
    ("race-for-home", (0, 3, 5, 0), S.OFF_BOARD, (0, 3, 0, 0)),
    ("race-for-home", (0, 0, 0, 0), S.SORRY_CORNER, (0, 0, 0, 0)),  # all on START: no penalty
    ("race-for-home", (6, 6, 2, 6), S.OFF_BOARD, (6, 6, 0, 6)),  # HOME pawns are safe
    ("race-for-home", (6, 0, 6, 0), S.SORRY_CORNER, (6, 0, 6, 0)),  # nothing but START and HOME
    ("race-for-home", (4, 1, 4, 6), S.SORRY_CORNER, (0, 1, 4, 6)),  # one of two equals
    ("instant-sorry", (2, 4, 0, 6), S.IN_HOLE, (2, 0, 0, 6)),  # Instant Sorry!: hole = penalty
    ("danger-dots", (2, 4, 0, 6), S.SORRY_CORNER, (2, 0, 0, 6)),
    ("instant-home", (1, 5, 3, 0), S.OFF_BOARD, (1, 0, 3, 0)),
]


@pytest.mark.parametrize(("face", "before", "status", "after"), PENALTY_CASES)
def test_penalty_sends_highest_non_home_pawn_to_start(kit, face, before, status, after):
    state = kit.position(face, ("south", "west"), {"south": before})
    state, happened = kit.play(state, status)
    assert state.player("south").board == after
    assert state.player("south").removed == ("south-1",)
    assert state.on_table() == ()
    removed = [h for h in happened if isinstance(h, PawnRemoved)]
    assert removed == [PawnRemoved("south-1", "south", status, penalty=True)]
    (penalty,) = [h for h in happened if isinstance(h, Penalty)]
    moved = [i for i in range(4) if before[i] != after[i]]
    assert penalty.scoring == (moved[0] if moved else None)


NO_PENALTY_CASES = [
    ("race-for-home", S.OTHER_TRACK),
    ("race-for-home", S.KNOCKED_OVER),
    ("race-for-home", S.FOUL),
    ("instant-sorry", S.FOUL),
    ("danger-dots", S.DANGER_DOT),
    ("danger-dots", S.KNOCKED_OVER),
]


@pytest.mark.parametrize(("face", "status"), NO_PENALTY_CASES)
def test_removed_without_penalty(kit, face, status):
    state = kit.position(face, ("south", "north"), {"south": (3, 5, 0, 6)})
    state, happened = kit.play(state, status)
    assert state.player("south").board == (3, 5, 0, 6)
    assert state.player("south").removed == ("south-1",)
    assert state.on_table() == ()
    assert happened[0] == PawnRemoved("south-1", "south", status, penalty=False)
    assert not any(isinstance(h, Penalty) for h in happened)


def test_a_knocked_pawn_costs_its_owner_the_penalty(kit):
    state = kit.position("race-for-home", ("south", "west"), {"south": (4, 0, 0, 0)})
    state = replace(state, players=state.players)
    state, _ = kit.play(state, S.ON_TARGET, 3)  # red's pawn on 3
    state = state.with_player(replace(state.player("west"), board=(2, 5, 0, 0)))
    # blue slides and knocks red#1 off the board; blue's own pawn stops on 2
    result = kit.shot(state, S.ON_TARGET, 2, others={"south-1": kit.rest("south-1", S.OFF_BOARD)})
    state, happened = apply_shot(state, result)
    assert state.player("south").board == (0, 0, 0, 0)
    assert state.player("west").board == (2, 5, 0, 0)
    assert Penalty("south", "south-1", 0, 4) in happened
    assert [p.id for p in state.on_table()] == ["west-1"]


def test_removals_follow_event_order(kit):
    """Two of one player's pawns leave in one shot: two penalties, in the order they fell."""
    state = kit.position("race-for-home", ("south", "west"), {"west": (1, 2, 3, 0)})
    state, _ = kit.play(state, S.ON_TARGET, 2)
    state, _ = kit.play(state, S.ON_TARGET, 2)
    state, _ = kit.play(state, S.ON_TARGET, 2)
    result = kit.shot(
        state,
        S.OFF_BOARD,
        others={"south-1": kit.rest("south-1", S.OFF_BOARD)},
        shooter="west-2",
    )
    result = replace(
        result,
        events=(
            Event(0.5, EventType.OFF_BOARD, ("west-2",)),
            Event(0.2, EventType.OFF_BOARD, ("south-1",)),
        ),
    )
    state, happened = apply_shot(state, result)
    removed = [h.pawn for h in happened if isinstance(h, PawnRemoved)]
    assert removed == ["south-1", "west-2"]
    assert state.player("west").removed == ("west-2",)
    assert state.player("west").board == (1, 2, 0, 0)


def test_a_second_penalty_in_one_shot_takes_the_next_highest(kit):
    state = kit.position("race-for-home", ("south", "west"), {"south": (1, 2, 3, 0)})
    state, _ = kit.play(state, S.ON_TARGET, 2)  # south-1
    state, _ = kit.play(state, S.OWN_TRACK)  # west-1
    result = kit.shot(state, S.SORRY_CORNER, others={"south-1": kit.rest("south-1", S.OFF_BOARD)})
    state, _ = apply_shot(state, result)
    assert state.player("south").board == (1, 0, 0, 0)


# --- what a pawn scores ------------------------------------------------------------------------

SCORE_CASES = [
    # face, status, points carried, choices carried, what it scores
    ("race-for-home", S.ON_TARGET, 3, (), (3,)),  # between 2 and 3: the physics carries the higher
    ("race-for-home", S.ON_TARGET, 5, (), (5,)),
    ("race-for-home", S.TIPPING, 1, (), (1,)),
    ("race-for-home", S.OWN_TRACK, 0, (), (0,)),
    ("instant-home", S.HOLE_EDGE, 4, (), (4,)),
    ("instant-sorry", S.HOLE_EDGE, 4, (), (4, 5, 6)),
    ("instant-sorry", S.ON_TARGET, 4, (4, 5, 6), (4, 5, 6)),
    ("instant-sorry", S.ON_TARGET, 2, (), (2,)),
    ("danger-dots", S.ON_TARGET, 4, (), (4,)),
]


@pytest.mark.parametrize(("face", "status", "points", "choices", "scores"), SCORE_CASES)
def test_what_a_pawn_scores(kit, face, status, points, choices, scores):
    assert scores_of(kit.rest("south-1", status, points, choices), face) == scores


@pytest.mark.parametrize(
    ("plan", "after"),
    [
        # the pawn between rings 2 and 3 carries 3; tipping 1; own track 0
        ([(S.ON_TARGET, 3, ()), (S.TIPPING, 1, ()), (S.OWN_TRACK, 0, ())], (3, 1, 0, 0)),
        ([(S.ON_TARGET, 5, ()), (S.ON_TARGET, 5, ()), (S.ON_TARGET, 2, ())], (5, 5, 2, 0)),
        ([(S.OWN_TRACK, 0, ())] * 4, (0, 0, 0, 0)),
    ],
)
def test_round_end_scores_each_pawn_in_play(kit, plan, after):
    state = kit.position("race-for-home", ("south", "west"))
    state = kit.finish(state, {"south": plan})
    assert state.phase is Phase.SCORING
    state, happened = score_round(state)
    assert tuple(sorted(state.player("south").board, reverse=True)) == after
    assert state.player("west").board == (0, 0, 0, 0)
    assert state.round == 2


# --- moving scoring pawns ----------------------------------------------------------------------


def scoring_position(kit, face, board, plan):
    state = kit.position(face, ("south", "west"), {"south": board})
    return kit.finish(state, {"south": plan})


def test_each_scoring_pawn_moves_once(kit):
    state = scoring_position(kit, "race-for-home", (0, 0, 0, 0), [(S.ON_TARGET, 2, ())] * 2)
    with pytest.raises(RulesError, match="moves only once"):
        check_assignment(state, "south", [Move("south-1", 0, 2), Move("south-2", 0, 2)])
    for a in legal_assignments(state, "south"):
        assert len({m.scoring for m in a}) == len(a)
        assert len({m.pawn for m in a}) == len(a)
    state, _ = score_round(state)
    assert sorted(state.player("south").board) == [0, 0, 2, 2]


OVERSHOOT_CASES = [
    # board, scores of the roller pawns in play, board after the default, points lost
    ((5, 6, 6, 6), [3], (5, 6, 6, 6), [3]),  # no pawn can take 3: lost
    ((5, 2, 6, 6), [3], (5, 5, 6, 6), []),  # 3 overshoots from 5, so it goes to the pawn on 2
    ((4, 6, 6, 6), [2], (6, 6, 6, 6), []),  # exact count to HOME
    ((4, 4, 6, 6), [3, 2], (6, 4, 6, 6), [3]),  # only the 2 fits; the 3 is lost
    ((5, 5, 5, 5), [5, 4, 1], (6, 5, 5, 5), [5, 4]),
]


@pytest.mark.parametrize(("board", "points", "after", "lost"), OVERSHOOT_CASES)
def test_home_only_by_exact_count_and_unusable_points_are_lost(kit, board, points, after, lost):
    plan = [(S.ON_TARGET, p, ()) for p in points]
    state = scoring_position(kit, "race-for-home", board, plan)
    state2, happened = score_round(state)
    assert state2.player("south").board == after
    assert sorted(h.points for h in happened if isinstance(h, PointsLost)) == sorted(lost)


def test_an_overshooting_move_is_illegal(kit):
    state = scoring_position(kit, "race-for-home", (5, 2, 6, 6), [(S.ON_TARGET, 3, ())])
    with pytest.raises(RulesError, match="overshoots HOME"):
        check_assignment(state, "south", [Move("south-1", 0, 3)])
    with pytest.raises(RulesError, match="already HOME"):
        check_assignment(state, "south", [Move("south-1", 2, 3)])
    with pytest.raises(RulesError, match="can still move"):
        check_assignment(state, "south", [])  # points are lost only when unusable
    assert check_assignment(state, "south", [Move("south-1", 1, 3)]) == (Move("south-1", 1, 3),)


MOST_SCORES_CASES = [
    # face, board, each roller pawn's scores, how many scores a legal assignment uses,
    # an assignment that uses fewer, and why it is refused
    ("race-for-home", (5, 4, 6, 6), [(1,), (2,)], 2, [("south-1", 1, 1)], "can use 2 scores"),
    ("race-for-home", (5, 4, 6, 6), [(1,), (2,)], 2, [("south-2", 1, 2)], "1 can still move"),
    (
        "race-for-home",
        (3, 4, 0, 6),
        [(3,), (2,), (5,)],
        3,
        [("south-1", 2, 3), ("south-2", 1, 2)],  # 3 onto START strands the 5
        "can use 3 scores",
    ),
    ("race-for-home", (5, 5, 5, 5), [(5,), (4,), (1,)], 1, [], "1 can still move"),
    ("race-for-home", (4, 4, 6, 6), [(3,), (2,)], 1, [], "2 can still move"),
    ("instant-sorry", (5, 2, 6, 6), [(4, 5, 6), (1,)], 2, [("south-2", 1, 1)], "can use 2"),
    ("instant-sorry", (2, 1, 6, 6), [(4, 5, 6)] * 2, 2, [("south-1", 0, 4)], "can still move"),
]


@pytest.mark.parametrize(("face", "board", "scores", "most", "fewer", "why"), MOST_SCORES_CASES)
def test_a_player_may_not_throw_points_away(kit, face, board, scores, most, fewer, why):
    """A legal assignment uses as many scores as any assignment can: moving 1 onto the 4 alone
    would strand the 2, while 1 onto the 5 and 2 onto the 4 use both."""
    plan = [(S.ON_TARGET, max(c), c if len(c) > 1 else ()) for c in scores]
    state = scoring_position(kit, face, board, plan)
    options = legal_assignments(state, "south")
    assert options and all(len(a) == most for a in options)
    for a in options:
        assert check_assignment(state, "south", a) == a
    assert len(default_assignment(state, "south")) == most
    moves = [Move(pid, i, pts) for pid, i, pts in fewer]
    assert tuple(sorted(moves, key=lambda m: m.pawn)) not in options
    with pytest.raises(RulesError, match=why):
        check_assignment(state, "south", moves)
    with pytest.raises(RulesError, match=why):
        score_round(state, {"south": moves})


def test_the_issues_example_wins_by_using_both_scores(kit):
    state = scoring_position(
        kit, "race-for-home", (5, 4, 6, 6), [(S.ON_TARGET, 1, ()), (S.ON_TARGET, 2, ())]
    )
    assert legal_assignments(state, "south") == [(Move("south-1", 0, 1), Move("south-2", 1, 2))]
    state, happened = score_round(state)
    assert state.winner == "south" and not any(isinstance(h, PointsLost) for h in happened)


def test_the_player_may_choose_another_legal_assignment(kit):
    state = scoring_position(
        kit, "race-for-home", (3, 1, 0, 0), [(S.ON_TARGET, 3, ()), (S.ON_TARGET, 2, ())]
    )
    assert default_assignment(state, "south") == (Move("south-1", 0, 3), Move("south-2", 2, 2))
    chosen = [Move("south-1", 2, 3), Move("south-2", 3, 2)]
    state, happened = score_round(state, {"south": chosen})
    assert state.player("south").board == (3, 1, 3, 2)
    assert [h.scoring for h in happened if isinstance(h, Advanced)] == [2, 3]


DEFAULT_CASES = [
    # board, scores, board after the default assignment
    ((5, 0, 0, 0), [1, 5], (6, 5, 0, 0)),  # HOME first
    ((0, 3, 0, 0), [2], (2, 3, 0, 0)),  # bring a START pawn within reach of HOME
    ((1, 2, 6, 6), [3], (4, 2, 6, 6)),  # keep the highest non-HOME square low
    ((0, 0, 0, 0), [5, 4, 3, 2], (5, 4, 3, 2)),
]


@pytest.mark.parametrize(("board", "points", "after"), DEFAULT_CASES)
def test_default_assignment(kit, board, points, after):
    plan = [(S.ON_TARGET, p, ()) for p in points]
    state = scoring_position(kit, "race-for-home", board, plan)
    state, _ = score_round(state)
    assert state.player("south").board == after


# --- rounds, turns, winning ----------------------------------------------------------------------


def test_turns_pass_to_the_left_and_the_next_round_starts_left_of_the_starter():
    state = new_game("race-for-home", ("east", "south", "north"), starter="north")
    assert state.seats == ("south", "north", "east")
    order = []
    while state.phase is Phase.SHOOTING:
        order.append(state.turn)
        state, happened = apply_shot(
            state,
            ShotResult(
                state.face,
                state.next_pawn() or "",
                (*state.table, _rest(state.next_pawn() or "", S.OWN_TRACK)),
            ),
        )
    assert order == ["north", "east", "south"] * 4
    assert happened[-1] == RoundOver(1)
    state, _ = score_round(state)
    assert state.starter == "east" and state.turn == "east" and state.round == 2
    state = _skip_round(state)
    assert state.starter == "south"


def _rest(pid, status):
    from sliders.core.outcome import PawnRest, pawn_seat

    return PawnRest(pid, pawn_seat(pid), 0, 0, status)


def _skip_round(state):
    while state.phase is Phase.SHOOTING:
        pid = state.next_pawn() or ""
        state, _ = apply_shot(
            state, ShotResult(state.face, pid, (*state.table, _rest(pid, S.OWN_TRACK)))
        )
    return score_round(state)[0]


TIE_CASES = [
    # seats, starter, seats finishing this round, winner
    (("south", "west", "north", "east"), "north", ("south", "west"), "south"),
    (("south", "west", "north", "east"), "north", ("east", "south"), "east"),
    (("south", "west", "north", "east"), "north", ("north", "east"), "north"),  # starter wins
    (("south", "west", "north", "east"), "west", ("south", "east", "west"), "west"),
    (("south", "north"), "north", ("south", "north"), "north"),
    (("west", "north", "east"), "east", ("west", "north"), "west"),
]


@pytest.mark.parametrize(("seats", "starter", "finishers", "winner"), TIE_CASES)
def test_tie_goes_to_the_player_closest_to_the_starter(kit, seats, starter, finishers, winner):
    state = kit.position(
        "race-for-home", seats, {s: (5, 6, 6, 6) for s in finishers}, starter=starter
    )
    state = kit.finish(state, {s: [(S.TIPPING, 1, ())] for s in finishers})
    state, happened = score_round(state)
    assert state.phase is Phase.OVER and state.winner == winner
    assert happened[-1] == Won(winner, 1, instant=False)
    for s in finishers:
        assert state.player(s).all_home


def test_solo_counts_rounds_until_all_home(kit):
    state = new_game("race-for-home", ["red"])
    rounds = 0
    while not state.finished:
        state = kit.finish(state, {"south": [(S.ON_TARGET, 3, ())] * 4})
        state, _ = score_round(state)
        rounds += 1
    assert rounds == 2 and state.rounds_played == 2 and state.winner == "south"


# --- Instant Home -----------------------------------------------------------------------------


HOLE_CASES = [
    # board before, caller's choice, board after
    ((3, 0, 5, 6), None, (3, 6, 5, 6)),  # default: the pawn furthest back
    ((3, 0, 5, 6), 2, (3, 0, 6, 6)),
    ((4, 2, 2, 5), None, (4, 6, 2, 5)),
]


@pytest.mark.parametrize(("before", "choice", "after"), HOLE_CASES)
def test_instant_home_hole_sends_a_pawn_home_at_once(kit, before, choice, after):
    state = kit.position("instant-home", ("south", "west"), {"south": before})
    home = None if choice is None else {"south-1": choice}
    state, happened = apply_shot(state, kit.shot(state, S.IN_HOLE), home)
    assert state.player("south").board == after
    assert state.player("south").removed == ("south-1",)
    assert any(isinstance(h, InstantHome) for h in happened)
    assert not any(isinstance(h, Penalty) for h in happened)
    assert state.turn == "west"


def test_instant_home_fourth_pawn_wins_mid_round(kit):
    state = kit.position("instant-home", ("south", "west"), {"west": (6, 6, 0, 6)})
    state, _ = kit.play(state, S.ON_TARGET, 5)
    state, happened = kit.play(state, S.IN_HOLE)
    assert state.phase is Phase.OVER and state.winner == "west" and state.round == 1
    assert happened[-1] == Won("west", 1, instant=True)
    assert state.player("south").in_hand  # mid-round
    with pytest.raises(RulesError, match="game is over"):
        kit.play(state, S.OWN_TRACK)


def test_instant_home_edge_scores_four(kit):
    state = scoring_position(kit, "instant-home", (0, 0, 0, 0), [(S.HOLE_EDGE, 4, ())])
    state, _ = score_round(state)
    assert sorted(state.player("south").board) == [0, 0, 0, 4]


def test_knocking_another_pawn_into_the_hole_helps_its_owner(kit):
    state = kit.position("instant-home", ("south", "west"), {"south": (2, 0, 0, 0)})
    state, _ = kit.play(state, S.HOLE_EDGE, 4)
    result = kit.shot(state, S.ON_TARGET, 3, others={"south-1": kit.rest("south-1", S.IN_HOLE)})
    state, happened = apply_shot(state, result)
    assert state.player("south").board == (2, 6, 0, 0)
    assert InstantHome("south", "south-1", 1, 0) in happened


# --- Instant Sorry! -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "choices"), [(S.ON_TARGET, (4, 5, 6)), (S.HOLE_EDGE, ())], ids=["circle", "edge"]
)
def test_instant_sorry_circle_and_edge_give_a_choice(kit, status, choices):
    state = scoring_position(kit, "instant-sorry", (1, 2, 0, 6), [(status, 4, choices)])
    offered = {(m.scoring, m.points) for a in legal_assignments(state, "south") for m in a}
    assert {p for _, p in offered} == {4, 5, 6}
    assert (0, 5) in offered and (1, 4) in offered and (2, 6) in offered
    assert (1, 5) not in offered  # 2 + 5 overshoots
    assert (0, 6) not in offered  # 1 + 6 overshoots
    assert default_assignment(state, "south") == (Move("south-1", 2, 6),)  # START to HOME
    state, _ = score_round(state, {"south": [Move("south-1", 2, 4)]})
    assert state.player("south").board == (1, 2, 4, 6)


def test_instant_sorry_choice_must_be_offered(kit):
    state = scoring_position(kit, "instant-sorry", (0, 0, 0, 0), [(S.ON_TARGET, 3, ())])
    with pytest.raises(RulesError, match="scores 3, not 5"):
        check_assignment(state, "south", [Move("south-1", 0, 5)])


# --- Danger Dots ------------------------------------------------------------------------------


def test_danger_dot_pawn_removed_and_scores_nothing(kit):
    state = kit.position("danger-dots", ("south", "west"))
    state, _ = kit.play(state, S.ON_TARGET, 4)  # south-1 on 4
    result = kit.shot(state, S.ON_TARGET, 2, others={"south-1": kit.rest("south-1", S.DANGER_DOT)})
    state, happened = apply_shot(state, result)  # west bumps it onto a dot
    assert PawnRemoved("south-1", "south", S.DANGER_DOT, penalty=False) in happened
    state = kit.finish(state, {})
    state, _ = score_round(state)
    assert state.player("south").board == (0, 0, 0, 0)
    assert sorted(state.player("west").board) == [0, 0, 0, 2]


# --- validation -------------------------------------------------------------------------------


def test_shot_out_of_turn_or_not_in_hand(kit):
    state = kit.position("race-for-home", ("south", "west"))
    with pytest.raises(RulesError, match="red's turn, not blue's"):
        apply_shot(state, kit.shot(state, S.OWN_TRACK, shooter="west-1"))
    state, _ = kit.play(state, S.OWN_TRACK)
    state, _ = kit.play(state, S.OWN_TRACK)
    with pytest.raises(RulesError, match="not in hand"):
        apply_shot(state, kit.shot(state, S.OWN_TRACK, shooter="south-1"))


def test_shot_must_list_the_whole_table(kit):
    state = kit.position("race-for-home", ("south", "west"))
    state, _ = kit.play(state, S.OWN_TRACK)
    bare = ShotResult(state.face, "west-1", (kit.rest("west-1", S.OWN_TRACK),))
    with pytest.raises(RulesError, match="leaves out red#1"):
        apply_shot(state, bare)
    extra = kit.shot(state, S.OWN_TRACK)
    extra = replace(extra, pawns=(*extra.pawns, kit.rest("west-3", S.OWN_TRACK)))
    with pytest.raises(RulesError, match="blue#3, not on the table"):
        apply_shot(state, extra)


@pytest.mark.parametrize(
    ("face", "status", "points", "message"),
    [
        ("race-for-home", S.IN_HOLE, 0, "no centre hole"),
        ("danger-dots", S.HOLE_EDGE, 4, "no centre hole"),
        ("race-for-home", S.DANGER_DOT, 0, "no danger dots"),
        ("race-for-home", S.ON_TARGET, 6, "must score 1 to 5"),
        ("race-for-home", S.ON_TARGET, 0, "must score 1 to 5"),
        ("race-for-home", S.IN_HAND, 0, "back into the hand"),
    ],
)
def test_statuses_the_face_cannot_produce(kit, face, status, points, message):
    state = kit.position(face, ("south",))
    with pytest.raises(RulesError, match=message):
        kit.play(state, status, points)


def test_phases_are_enforced(kit):
    state = kit.position("race-for-home", ("south",))
    with pytest.raises(RulesError, match="round is not over"):
        score_round(state)
    state = kit.finish(state, {})
    with pytest.raises(RulesError, match="score the round first"):
        kit.play(state, S.OWN_TRACK)
    with pytest.raises(RulesError, match="not playing"):
        score_round(state, {"west": ()})


@pytest.mark.parametrize(
    ("face", "seats", "starter", "message"),
    [
        ("snakes", ["red"], None, "unknown face"),
        ("race-for-home", [], None, "at least one player"),
        ("race-for-home", ["red", "south"], None, "named twice"),
        ("race-for-home", ["purple"], None, "unknown player"),
        ("race-for-home", ["red"], "blue", "not playing"),
    ],
)
def test_new_game_validation(face, seats, starter, message):
    with pytest.raises(RulesError, match=message):
        new_game(face, seats, starter)


def test_new_game_accepts_colours_and_orders_seats():
    state = new_game("danger-dots", ["green", "red", "west"])
    assert state.seats == ("south", "west", "east")
    assert state.turn == state.starter == "south"
    assert state.player("east").in_hand == ("east-1", "east-2", "east-3", "east-4")
    assert all(p.board == (0, 0, 0, 0) for p in state.players)
    assert HOME == 6


# --- a game in progress ---------------------------------------------------------------------


def test_new_game_starts_from_given_score_boards():
    state = new_game(
        "instant-home",
        ["red", "yellow"],
        "yellow",
        boards={"red": (0, 0, 2, 6), "north": [6, 1, 0, 6]},
        round=4,
    )
    assert state.player("south").board == (0, 0, 2, 6)
    assert state.player("north").board == (6, 1, 0, 6)
    assert state.round == 4 and state.turn == state.starter == "north"
    assert state.player("north").in_hand == ("north-1", "north-2", "north-3", "north-4")
    assert new_game("race-for-home", ["red", "blue"], boards={"blue": (1, 1, 1, 1)}).player(
        "south"
    ).board == (0, 0, 0, 0)  # a seat left out starts on START


@pytest.mark.parametrize(
    ("boards", "round_", "message"),
    [
        ({"blue": (0, 0, 0, 1)}, 1, "blue has a score board but is not playing"),
        ({"red": (0, 0, 1)}, 1, "4 scoring pawns, not 3"),
        ({"red": (0, 0, 0, 7)}, 1, "squares 0 \\(START\\) to 6 \\(HOME\\), not 7"),
        ({"red": (0, 0, 0, -1)}, 1, "not -1"),
        ({"red": (0, 0, 0, 1.5)}, 1, "not 1.5"),
        ({"red": "0006"}, 1, "a list of squares"),
        ({"red": (6, 6, 6, 6)}, 1, "all four pawns HOME already"),
        ({"red": (0, 0, 0, 1), "south": (0, 0, 0, 2)}, 1, "given twice"),
        ({"mauve": (0, 0, 0, 1)}, 1, "unknown player 'mauve'"),
        ({}, 0, "round is a whole number from 1, not 0"),
    ],
)
def test_new_game_refuses_impossible_boards(boards, round_, message):
    with pytest.raises(RulesError, match=message):
        new_game("race-for-home", ["red", "yellow"], boards=boards, round=round_)


def test_a_resumed_game_plays_on_by_the_rules(kit):
    """From red on 5, 5, 6, 6 in round 3, two scores of 1 take red HOME at the end of the round."""
    state = new_game("race-for-home", ["red", "yellow"], boards={"red": (5, 5, 6, 6)}, round=3)
    state = kit.finish(state, {"south": [(S.TIPPING, 1, ()), (S.TIPPING, 1, ())]})
    state, happened = score_round(state)
    assert state.winner == "south" and happened[-1] == Won("south", 3, instant=False)


# --- seats: one parser, seat names or colours -------------------------------------------------


@pytest.mark.parametrize(
    ("given", "seats"),
    [
        ("red,yellow", ("south", "north")),
        (" Green , south ", ("south", "east")),
        (["blue", "EAST", "yellow"], ("west", "north", "east")),
    ],
)
def test_one_seat_parser_for_every_list_of_seats(given, seats):
    from sliders.boards import parse_seats
    from sliders.core.outcome import parse_seats as vocabulary_parse_seats
    from sliders.files.layouts import load_layout

    assert parse_seats is vocabulary_parse_seats
    assert parse_seats(given) == seats
    assert load_layout("square", given).seat_names == seats
    assert (
        new_game("race-for-home", given if isinstance(given, list) else given.split(",")).seats
        == seats
    )

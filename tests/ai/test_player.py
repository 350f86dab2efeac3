"""Computer players: determinism, a preference for clearly better shots, assignment choices."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sliders.ai import STRENGTHS, ComputerPlayer, position_value, strength
from sliders.boards import face, load_layout
from sliders.errors import UserError
from sliders.outcome import PawnRest, Status
from sliders.physics import simulate
from sliders.rules import HOME, PlayerState, apply_assignment, apply_shot, new_game


def _state(face_name: str, boards: dict[str, tuple[int, ...]], table=(), hands=None):
    state = new_game(face_name, list(boards))
    players = []
    for p in state.players:
        on_table = {q.id for q in table if q.seat == p.seat}
        hand = tuple(pid for pid in p.in_hand if pid not in on_table)
        if hands and p.seat in hands:
            hand = hands[p.seat]
        players.append(replace(p, board=boards[p.seat], in_hand=hand))
    return replace(state, players=tuple(players), table=tuple(table))


def test_same_seed_same_play_however_it_is_sliced():
    layout, f = load_layout("square"), face("race-for-home")
    table = (PawnRest("north-1", "north", 0.01, 0.03, Status.ON_TARGET, 4),)
    state = _state("race-for-home", {"south": (0,) * 4, "north": (0,) * 4}, table)
    whole = ComputerPlayer("south", "medium", seed=7).search(state, layout, f)
    whole.run()
    sliced = ComputerPlayer("south", "medium", seed=7).search(state, layout, f)
    while not sliced.step():
        pass
    assert whole.simulations == sliced.simulations == STRENGTHS["medium"].budget
    assert whole.best() == sliced.best()
    assert whole.executed() == sliced.executed()
    a = ComputerPlayer("south", "medium", seed=7).choose_shot(state, layout, f)
    b = ComputerPlayer("south", "medium", seed=7).choose_shot(state, layout, f)
    c = ComputerPlayer("south", "medium", seed=8).choose_shot(state, layout, f)
    assert a == b
    assert a != c


def test_takes_the_hole_that_wins_instant_home():
    """Three scoring pawns HOME on Instant Home: the hole wins at once, and the player sees it."""
    layout, f = load_layout("square"), face("instant-home")
    state = _state("instant-home", {"south": (6, 6, 6, 0), "north": (3, 3, 0, 0)})
    search = ComputerPlayer("south", "hard", seed=1).search(state, layout, f)
    search.run()
    assert search.simulations <= 300
    result = simulate(layout, f, state.table, search.best(), seed=0)
    after, _ = apply_shot(state, result)
    assert result.pawn("south-1").status is Status.IN_HOLE
    assert after.winner == "south"


def test_knocks_the_leader_off_the_bullseye():
    """North sits on the 5 and needs exactly what it has; a plain placement leaves it there."""
    layout, f = load_layout("square"), face("race-for-home")
    north = PawnRest("north-1", "north", 0.0, 0.0, Status.ON_TARGET, 5)
    state = _state(
        "race-for-home",
        {"south": (0, 0, 0, 0), "north": (6, 6, 6, 1)},
        (north,),
        hands={"north": ("north-2", "north-3", "north-4")},
    )
    before = position_value(state, "south")
    search = ComputerPlayer("south", "hard", seed=3).search(state, layout, f)
    search.run()
    result = simulate(layout, f, state.table, search.best(), seed=0)
    after, _ = apply_shot(state, result)
    kept = after.table_pawn("north-1")
    assert kept is None or kept.points < 5
    assert position_value(after, "south") > before


def test_assignment_takes_a_pawn_home_by_exact_count():
    table = (
        PawnRest("south-1", "south", 0.0, 0.05, Status.ON_TARGET, 3),
        PawnRest("south-2", "south", 0.0, -0.05, Status.ON_TARGET, 2),
    )
    state = _state("race-for-home", {"south": (4, 3, 0, 0), "north": (0,) * 4}, table)
    moves = ComputerPlayer("south", "easy", seed=0).choose_assignment(state)
    after = apply_assignment(state.player("south").board, moves)
    assert after.count(HOME) == 2
    assert isinstance(state.player("south"), PlayerState)


def test_unknown_strength_is_a_user_error():
    with pytest.raises(UserError, match="strength"):
        strength("grandmaster")

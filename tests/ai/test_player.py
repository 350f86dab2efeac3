"""Computer players: determinism, a preference for clearly better shots, assignment choices."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.ai import STRENGTHS, ComputerPlayer, make_strength, strength
from sliders.boards import face
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import PhysicsParams, Setup, simulate
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
    assert whole.simulations == sliced.simulations <= STRENGTHS["medium"].budget
    assert whole.best() == sliced.best()
    assert whole.executed() == sliced.executed()
    a = ComputerPlayer("south", "medium", seed=7).choose_shot(state, layout, f)
    b = ComputerPlayer("south", "medium", seed=7).choose_shot(state, layout, f)
    c = ComputerPlayer("south", "medium", seed=8).choose_shot(state, layout, f)
    assert a == b
    assert a != c


def test_takes_the_hole_that_wins_instant_home():
    """Three scoring pawns HOME on Instant Home: the hole wins at once. A steady hand plays the
    hole itself; the hard computer's hand, which drops in only now and then, still goes for it
    rather than for a ring."""
    layout, f = load_layout("square"), face("instant-home")
    state = _state("instant-home", {"south": (6, 6, 6, 0), "north": (3, 3, 0, 0)})
    steady = ComputerPlayer("south", make_strength("none", "fair"), seed=1)
    search = steady.search(state, layout, f)
    search.run()
    assert search.best_candidate()[0] == "hole"
    result = simulate(Setup(layout, f, engine="exact"), state.table, replace(search.best(), seed=0))
    after, _ = apply_shot(state, result)
    assert result.pawn("south-1").status is Status.IN_HOLE
    assert after.winner == "south"

    hard = ComputerPlayer("south", "hard", seed=1).search(state, layout, f)
    hard.run()
    assert hard.simulations <= STRENGTHS["hard"].budget
    shot = hard.best()
    hand = STRENGTHS["hard"].hand
    rng = np.random.default_rng(5)
    seat = layout.seat("south")
    dropped = sum(
        simulate(Setup(layout, f, engine="exact"), (), replace(hand.execute(shot, rng, seat, PhysicsParams.default()), seed=0)).pawn("south-1").status is Status.IN_HOLE
        for _ in range(40)
    )  # fmt: skip
    assert dropped >= 1


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
    player = ComputerPlayer("south", "hard", seed=3)
    before = player.win_probability(state, layout, f)
    search = player.search(state, layout, f)
    search.run()
    result = simulate(Setup(layout, f), state.table, replace(search.best(), seed=0))
    after, _ = apply_shot(state, result)
    kept = after.table_pawn("north-1")
    assert kept is None or kept.points < 5
    assert player.win_probability(after, layout, f) > before


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


def test_release_points_found_free_are_accepted_on_every_layout_and_seat():
    """Pawns scattered near the foul line of every seat of every built-in layout: the release
    the computer settles on (the nearest free offset, or further back) is one the physics takes."""
    import numpy as np

    from sliders.ai.player import fit_release, free_release
    from sliders.boards.geometry import check_pawns
    from sliders.files.layouts import BUILTIN_LAYOUTS, read_layout
    from sliders.physics import PhysicsParams, Shot

    params = PhysicsParams.default()
    r = params.pawn_radius
    rng = np.random.default_rng(3)
    f = face("race-for-home")
    tried = 0
    for name in BUILTIN_LAYOUTS:
        spec = read_layout(name)
        layout = load_layout(name, spec.seating(max(spec.seat_counts)))
        for seat in layout.seats:
            others = [s for s in layout.seat_names if s != seat.name] or [seat.name]
            for _ in range(6):
                table: list[PawnRest] = []
                for k in range(int(rng.integers(1, 4))):
                    along = seat.foul + float(rng.uniform(-2 * r, 2 * r))
                    across = float(rng.uniform(-1, 1)) * (seat.width / 2 - r - 0.001)
                    owner = others[k % len(others)]
                    p = PawnRest(f"{owner}-{k + 1}", owner, *seat.to_world(along, across),
                                 Status.OWN_TRACK)  # fmt: skip
                    try:
                        check_pawns(layout, [*table, p], r)
                    except UserError:
                        continue
                    table.append(p)
                if free_release(table, seat, r) is None:
                    continue
                wish = float(rng.uniform(-0.04, 0.04))
                state = _state(
                    "race-for-home", {s: (0,) * 4 for s in layout.seat_names}, tuple(table)
                )
                state = replace(state, turn=seat.name)
                shot = fit_release(Shot(seat.name, 0.5, 0.0, wish), state, layout, params)
                if shot.offset == wish and any(
                    math.dist((q.x, q.y), seat.to_world(seat.foul, wish)) < 2 * r for q in table
                ):  # nothing free across the foul line: the computer goes further back
                    along, offset = free_release(table, seat, r)
                    shot = Shot(seat.name, 0.5, 0.0, offset, along)
                simulate(
                    Setup(layout, f, params), table, replace(shot, seed=0)
                )  # accepted: no UserError
                tried += 1
    assert tried > 40


def test_prepare_builds_the_planners_models_before_the_first_decision():
    """A game seats a planner with prepare(): its hand's odds are measured then, and its first
    decision builds no model."""
    from sliders.ai.value import race_model, win_model

    layout = load_layout("square", ("south", "north"))
    f = face("danger-dots")
    hand = make_strength("0.7", "weak")  # a hand no other test measures
    player = ComputerPlayer("south", hand, np.random.default_rng(3))
    before = win_model.cache_info().misses
    player.prepare(layout, f)
    assert win_model.cache_info().misses == before + 2  # this table, and the square's
    built = race_model.cache_info().misses
    state = new_game("danger-dots", ["south", "north"], "south")
    player.choose_shot(state, layout, f)
    assert race_model.cache_info().misses == built
    assert win_model.cache_info().misses == before + 2

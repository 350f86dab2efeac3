"""Properties over random games: random shots, random knocks, random legal assignments."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.core.outcome import FACES, SEATS, PawnRest, ShotResult, Status, pawn_id
from sliders.rules import HOME, Game, GameState, Phase, legal_assignments

S = Status
COMMON = [
    S.OWN_TRACK,
    S.TIPPING,
    S.OTHER_TRACK,
    S.OFF_BOARD,
    S.SORRY_CORNER,
    S.KNOCKED_OVER,
    S.FOUL,
]
EXTRA = {
    "race-for-home": [],
    "instant-home": [S.IN_HOLE, S.HOLE_EDGE],
    "instant-sorry": [S.IN_HOLE, S.HOLE_EDGE],
    "danger-dots": [S.DANGER_DOT],
}

fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rests(draw, face: str, pid: str) -> PawnRest:
    """A random place for a pawn to end up after a shot on ``face``."""
    status = draw(st.sampled_from([*COMMON, *EXTRA[face], S.ON_TARGET, S.ON_TARGET]))
    seat = pid.rsplit("-", 1)[0]
    if status is S.ON_TARGET:
        if face == "instant-sorry" and draw(st.booleans()):
            return PawnRest(pid, seat, 0, 0, status, 4, (4, 5, 6))
        top = 3 if face == "instant-sorry" else 5
        return PawnRest(pid, seat, 0, 0, status, draw(st.integers(1, top)))
    points = {S.TIPPING: 1, S.HOLE_EDGE: 4}.get(status, 0)
    return PawnRest(pid, seat, 0, 0, status, points)


@st.composite
def random_shot(draw, state: GameState) -> ShotResult:
    pid = draw(st.sampled_from(state.player(state.turn or "").in_hand))
    pawns = [draw(rests(state.face, pid))]
    for p in state.table:
        pawns.append(draw(rests(state.face, p.id)) if draw(st.integers(0, 3)) == 0 else p)
    return ShotResult(state.face, pid, tuple(pawns))


def check_invariants(before: GameState, after: GameState) -> None:
    for p in after.players:
        assert all(0 <= sq <= HOME for sq in p.board)
        old = before.player(p.seat).board
        for i in range(4):
            if old[i] == HOME:
                assert p.board[i] == HOME, "a HOME pawn moved"
        everyone = {pawn_id(p.seat, n) for n in range(1, 5)}
        places = [set(p.in_hand), {t.id for t in after.on_table(p.seat)}, set(p.removed)]
        assert sum(len(x) for x in places) == 4, "a roller pawn is in two places"
        assert set().union(*places) == everyone, "a roller pawn is missing"
    assert all(t.status.in_play for t in after.table)
    if after.phase is Phase.SHOOTING:
        assert after.turn is not None and after.player(after.turn).in_hand
    if after.phase is Phase.SCORING:
        assert all(not p.in_hand for p in after.players)


def play_random(data, game: Game, steps: int) -> None:
    for _ in range(steps):
        before = game.state
        if before.finished:
            return
        if before.phase is Phase.SHOOTING:
            game.shoot(data.draw(random_shot(before)))
        else:
            choice = {
                seat: data.draw(st.sampled_from(legal_assignments(before, seat)))
                for seat in before.seats
                if data.draw(st.booleans())
            }
            game.score(choice)
        check_invariants(before, game.state)


seat_sets = st.lists(st.sampled_from(SEATS), min_size=1, max_size=4, unique=True)


@fast
@given(data=st.data(), face=st.sampled_from(FACES), seats=seat_sets)
def test_random_games_keep_the_invariants(data, face, seats):
    game = Game(face, seats, data.draw(st.sampled_from(seats)))
    play_random(data, game, steps=data.draw(st.integers(0, 60)))


@fast
@given(data=st.data(), face=st.sampled_from(FACES), seats=seat_sets)
def test_json_round_trip_gives_an_equal_state(data, face, seats):
    game = Game(face, seats)
    play_random(data, game, steps=data.draw(st.integers(0, 40)))
    text = json.dumps(game.to_json())
    again = Game.from_json(json.loads(text))
    assert again.state == game.state
    assert again.to_json() == game.to_json()
    assert GameState.from_json(json.loads(json.dumps(game.state.to_json()))) == game.state


@fast
@given(
    data=st.data(),
    face=st.sampled_from(FACES),
    seats=st.lists(st.sampled_from(SEATS), min_size=2, max_size=4, unique=True),
    wild_rounds=st.integers(0, 3),
)
def test_random_games_always_end(data, face, seats, wild_rounds):
    """Any start, then every shot tipping (1 point): each non-HOME pawn moves one a round, so
    the game is over within six more rounds."""
    game = Game(face, seats)
    while game.state.round <= wild_rounds and not game.state.finished:
        play_random(data, game, steps=1)
    limit = game.state.round + 6
    while not game.state.finished:
        state = game.state
        assert state.round <= limit
        if state.phase is Phase.SHOOTING:
            pid = state.next_pawn() or ""
            mine = PawnRest(pid, pid.rsplit("-", 1)[0], 0, 0, S.TIPPING, 1)
            game.shoot(ShotResult(state.face, pid, (mine, *state.table)))
        else:
            game.score()
        check_invariants(state, game.state)
    assert game.state.winner in game.state.seats
    assert game.state.player(game.state.winner).all_home

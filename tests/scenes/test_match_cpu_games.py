"""Computer-vs-computer games: every one ends with a winner, and no computer ever has a shot
refused by the physics (the release points it chooses are free).

The games are played by the cheap driver (:class:`sliders.game.HeadlessGame`: each computer's
search runs to the end, the shot runs to rest in one go, Instant Home choices and round-end
assignments are the computers' own); the window drives the same turn machine, and a game played
through the window's screens ends as the same game headless. The suite plays one game of every
face on every built-in layout with the layout's default seats (24 games, a minute of one core):
six of them, every layout once and every face at least once, in the everyday run, the other 18
under ``--slow``. ``SLIDERS_CPU_GAMES=200`` plays 200 (none of them left to ``--slow``), cycling
on through every other number of seats each layout takes (about ten minutes of one core: a
computer's turn simulates eleven shots).
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import replace

import pytest

from sliders.boards import face
from sliders.core.outcome import FACES, PawnRest, Status
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout, read_layout
from sliders.game import HeadlessGame
from sliders.game.config import MatchConfig, SeatSpec
from sliders.physics import Setup, Shot
from sliders.scenes.table import Match

CHOSEN = int(os.environ.get("SLIDERS_CPU_GAMES", "0"))
GAMES = CHOSEN or len(FACES) * len(BUILTIN_LAYOUTS)
EVERYDAY = {
    ("square", "instant-sorry"),
    ("crazy-corner", "race-for-home"),
    ("head-to-head", "instant-home"),
    ("triple-track", "instant-home"),
    ("quadruple-track", "instant-sorry"),
    ("solo", "danger-dots"),
}
"""the (layout, face) of the default-seat games the everyday run plays (every layout once, every
face at least once, the shorter games); the others are ``--slow``"""
MAX_SHOTS = 4000
"""a game still going after this many shots has stopped making progress: the test fails"""


def play_out(game: HeadlessGame) -> int:
    """Play ``game`` to its end with every seat a computer; the number of shots slid."""
    while not game.over:
        assert game.shots < MAX_SHOTS, f"no winner after {game.shots} shots"
        game.step()
    return game.shots


def setups() -> list[tuple[str, str, tuple[str, ...]]]:
    """(layout, face, seats): every face on every built-in layout with its default seats first,
    then every other number of seats each layout takes."""
    first, more = [], []
    for name in BUILTIN_LAYOUTS:
        spec = read_layout(name)
        for f in FACES:
            first.append((name, f, spec.default_seats))
            for n in spec.seat_counts:
                if n != len(spec.default_seats):
                    more.append((name, f, spec.seating(n)))
    return first + more


def easy_game(layout: str, face_name: str, seats: tuple[str, ...], seed: int) -> HeadlessGame:
    return HeadlessGame(face_name, layout, seats, seed, computers=dict.fromkeys(seats, "easy"))


def easy_match(layout: str, face_name: str, seats: tuple[str, ...], seed: int) -> Match:
    specs = tuple(SeatSpec(s, "cpu", "easy") for s in seats)
    return Match(MatchConfig(face_name, layout, specs, seed))


def games() -> list[object]:
    """The ``GAMES`` games, cycling through every face on every layout (default seats first, then
    every other seat count), as (game number, layout, face, seats)."""
    plan = setups()
    out = []
    for i in range(GAMES):
        layout, f, seats = plan[i % len(plan)]
        slow = not CHOSEN and (layout, f) not in EVERYDAY
        out.append(
            pytest.param(
                i,
                layout,
                f,
                seats,
                id=f"{i}-{layout}-{f}-{len(seats)}",
                marks=[pytest.mark.slow] if slow else [],
            )
        )
    return out


def test_the_games_cover_every_layout_and_face():
    plan = setups()
    assert {p[0] for p in plan} == set(BUILTIN_LAYOUTS)
    assert {p[:2] for p in plan[: len(FACES) * len(BUILTIN_LAYOUTS)]} >= EVERYDAY
    assert {layout for layout, _ in EVERYDAY} == set(BUILTIN_LAYOUTS)
    assert {f for _, f in EVERYDAY} == set(FACES)


@pytest.mark.parametrize(("i", "layout", "f", "seats"), games())
def test_every_computer_game_ends_with_a_winner(
    i: int, layout: str, f: str, seats: tuple[str, ...]
) -> None:
    """Game ``i`` to its winner (a solo game ends when its one player has every scoring pawn
    HOME)."""
    started = time.perf_counter()
    game = easy_game(layout, f, seats, 1000 + i)
    shots = play_out(game)
    where = f"game {i}: {f} on {layout} with {', '.join(seats)}"
    assert game.winner in seats, where
    assert game.turns.refused == [], f"{where}: {game.turns.refused}"
    for line in game.turns.told:  # every shot told in a full sentence
        assert line[0].isupper() and line[-1] in ".!" and "…" not in line, line
    elapsed = time.perf_counter() - started
    print(
        f"\n{where}: {shots} shots, {game.state.round} rounds, {elapsed:.1f} s "
        f"({1000 * elapsed / max(shots, 1):.1f} ms a shot)"
    )


def test_seed_1006_plays_to_its_end():
    """The game that used to end in round 5 with 'the release point is taken by pawn north-3'."""
    computers = {"south": "hard", "north": "easy"}
    game = HeadlessGame("race-for-home", "square", ("south", "north"), 1006, computers=computers)
    play_out(game)
    assert game.winner in ("south", "north")
    assert game.turns.refused == []


def test_the_window_plays_the_same_game_as_the_headless_driver():
    """A computer game played through the window's screens, frame by frame (Instant Home: the
    choices of pawns in the hole too), and the same seed played by the cheap driver: the same
    shots, the same log, the same final state."""
    from sliders.scenes.app import App
    from sliders.scenes.screens import PlayScreen, ResultsScreen  # registers every screen

    seats = ("south", "north")
    match = easy_match("square", "instant-home", seats, 11)
    app = App((1280, 800), sound=False, think_budget=None)
    try:
        app.show(PlayScreen(app, match))
        for _ in range(20000):
            if isinstance(app.screen, ResultsScreen):
                break
            app.step(0.05, draw=False)
    finally:
        app.close()
    assert match.state.winner in seats, "the game in the window did not end"
    game = easy_game("square", "instant-home", seats, 11)
    play_out(game)
    assert game.turns.shots == match.shots
    assert game.turns.game.to_json() == match.game.to_json()
    assert game.state == match.state


def test_a_refused_shot_is_told_and_the_seat_shoots_again():
    """A pawn knocked back onto the foul line: a shot released on top of it is refused in one
    line, nothing is slid, and it is still the same seat's turn with the same pawns in hand."""
    match = easy_match("square", "race-for-home", ("south", "north"), 3)
    lane = match.seat("south")
    x, y = lane.to_world(lane.foul, 0.0)
    table = (PawnRest("north-3", "north", x, y, Status.OWN_TRACK),)
    _set_table(match, table)
    match.news()
    assert match.start(Shot("south", 0.6, 0.0, 0.0)) is False
    assert not match.rolling
    (line,) = match.news()
    assert line == (
        "Red's shot is refused (the release point is taken by pawn north-3): Red shoots again."
    )
    assert match.turn == "south" and len(match.state.player("south").in_hand) == 4
    assert match.refused and match.shots == []
    shot = match.think(None)  # the computer looks again, and chooses a free release point
    assert shot is not None and match.start(shot)


def test_computers_release_beside_a_pawn_on_the_foul_line():
    """Pawns standing on the foul line: every candidate and the executed shot fit beside them
    (or behind them, when the whole width of the line is taken)."""
    from sliders.ai import ComputerPlayer
    from sliders.ai.player import candidate_shots, free_release
    from sliders.physics import PhysicsParams, simulate

    params = PhysicsParams.default()
    layout, f = load_layout("square"), face("race-for-home")
    lane = layout.seat("south")
    r = params.pawn_radius
    for across in ((0.0,), (-0.03, 0.03), (-0.04, 0.0, 0.04)):
        table = tuple(
            PawnRest(f"north-{k + 1}", "north", *lane.to_world(lane.foul, c), Status.OWN_TRACK)
            for k, c in enumerate(across)
        )
        match = easy_match("square", "race-for-home", ("south", "north"), 5)
        _set_table(match, table)
        pool = candidate_shots(match.state, layout, f, params, "south", "south-1")
        assert pool
        release = free_release(table, lane, r)
        assert release is not None
        if len(across) == 3:  # the whole line is taken: the pawn goes back down the lane
            assert release[0] < lane.foul
        for shot, _ in pool:
            simulate(
                Setup(layout, f, params), table, replace(shot, seed=0)
            )  # accepted: no UserError
        for seed in range(20):
            cpu = ComputerPlayer("south", "easy", seed)
            shot = cpu.choose_shot(match.state, layout, f, params)
            simulate(Setup(layout, f, params), table, replace(shot, seed=0))


def _set_table(match: Match, table: tuple[PawnRest, ...]) -> None:
    """Stand ``table`` on the match's table as if earlier shots had left it there."""
    match.game._states[-1] = dataclasses.replace(match.state, table=table)

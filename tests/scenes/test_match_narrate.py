"""Each shot told in full sentences, from the physics' events and rest statuses and what the
rules did: who knocked whom where, where the slid pawn stopped, penalties, HOME, a win."""

from __future__ import annotations

from dataclasses import replace

from sliders.boards import face
from sliders.core.outcome import Event, EventType, PawnRest, ShotResult, Status
from sliders.game.config import MatchConfig, SeatSpec
from sliders.game.narrate import narrate_scoring, narrate_shot, pawn_name, wrap
from sliders.physics import Shot
from sliders.rules import Advanced, GameState, PointsLost, apply_shot, new_game
from sliders.scenes.table import Match


def _state(face_name: str, boards: dict[str, tuple[int, ...]], table=()) -> GameState:
    state = new_game(face_name, list(boards))
    players = []
    for p in state.players:
        on_table = {q.id for q in table if q.seat == p.seat}
        hand = tuple(pid for pid in p.in_hand if pid not in on_table)
        players.append(replace(p, board=boards[p.seat], in_hand=hand))
    return replace(state, players=tuple(players), table=tuple(table))


def _tell(state: GameState, pawns, events=(), home=None) -> list[str]:
    result = ShotResult(state.face, pawns[0].id, tuple(pawns), tuple(events))
    _, happened = apply_shot(state, result, home)
    return narrate_shot(result, happened, state.table, face(state.face))


def _contact(t: float, a: str, b: str) -> Event:
    return Event(t, EventType.CONTACT, (a, b), impulse=0.01)


def test_names_are_colours_and_numbers():
    assert pawn_name("south-3") == "Red 3"
    assert pawn_name("north-1") == "Yellow 1"


def test_a_pawn_that_stops_in_a_ring():
    state = _state("race-for-home", {"south": (0,) * 4, "north": (0,) * 4})
    lines = _tell(state, [PawnRest("south-1", "south", 0.0, 0.03, Status.ON_TARGET, 4)])
    assert lines == ["Red 1 stops in ring 4 (4 points)."]
    lines = _tell(state, [PawnRest("south-1", "south", 0.1, 0.1, Status.ON_TARGET, 1)])
    assert lines == ["Red 1 stops on the board outside the rings (1 point)."]
    lines = _tell(state, [PawnRest("south-1", "south", 0.0, -0.2, Status.OWN_TRACK)])
    assert lines == ["Red 1 stops on Red's own track (no points yet)."]


def test_a_knock_off_the_board_sends_the_owner_back():
    north = PawnRest("north-1", "north", 0.0, 0.02, Status.ON_TARGET, 5)
    state = _state("race-for-home", {"south": (0,) * 4, "north": (3, 1, 0, 0)}, (north,))
    lines = _tell(
        state,
        [
            PawnRest("south-1", "south", 0.0, 0.05, Status.ON_TARGET, 3),
            replace(north, x=0.0, y=0.2, status=Status.OFF_BOARD, points=0, choices=()),
        ],
        [_contact(0.8, "south-1", "north-1"), Event(1.1, EventType.OFF_BOARD, ("north-1",))],
    )
    assert lines == [
        "Red 1 knocks Yellow 1 off the board: Yellow's pawn on 3 goes back to START.",
        "Red 1 stops in ring 3 (3 points).",
    ]


def test_knocks_are_told_in_the_order_they_happened_and_a_nudge_is_not_a_move():
    a = PawnRest("north-1", "north", 0.0, 0.06, Status.ON_TARGET, 3)
    b = PawnRest("north-2", "north", 0.05, 0.0, Status.ON_TARGET, 3)
    state = _state("race-for-home", {"south": (0,) * 4, "north": (0,) * 4}, (a, b))
    lines = _tell(
        state,
        [
            PawnRest("south-1", "south", 0.0, -0.05, Status.ON_TARGET, 3),
            replace(a, x=0.0, y=0.01, points=5, choices=()),  # pushed into the bull's-eye
            replace(b, x=0.055),  # moved, but still in ring 3
        ],
        [_contact(0.9, "south-1", "north-2"), _contact(1.0, "north-2", "north-1")],
    )
    assert lines == [
        "Red 1 nudges Yellow 2, which stays in ring 3 (3 points).",
        "Yellow 2 knocks Yellow 1 into ring 5 (5 points).",
        "Red 1 stops in ring 3 (3 points).",
    ]


def test_instant_home_the_hole_and_a_win():
    state = _state("instant-home", {"south": (6, 6, 6, 2), "north": (0,) * 4})
    lines = _tell(state, [PawnRest("south-1", "south", 0.0, 0.0, Status.IN_HOLE)])
    assert lines == [
        "Red 1 drops into the hole: Red's pawn on 2 goes HOME.",
        "Red has all four pawns HOME and wins at once!",
    ]


def test_instant_sorry_the_hole_and_the_choice_circle():
    state = _state("instant-sorry", {"south": (4, 2, 0, 0), "north": (0,) * 4})
    lines = _tell(state, [PawnRest("south-1", "south", 0.0, 0.0, Status.IN_HOLE)])
    assert lines == ["Red 1 drops into the hole: Red's pawn on 4 goes back to START."]
    circle = PawnRest("south-1", "south", 0.03, 0.0, Status.ON_TARGET, 6, (4, 5, 6))
    assert _tell(state, [circle]) == ["Red 1 stops in the 4/5/6 circle (4, 5 or 6 points)."]


def test_removals_without_a_penalty_and_with_nothing_to_send_back():
    state = _state("race-for-home", {"south": (0,) * 4, "north": (0,) * 4})
    foul = _tell(state, [PawnRest("south-1", "south", 0.0, -0.1, Status.FOUL)])
    assert foul == [
        "Red 1 is a foul (the hand crossed the foul line): out for the round, no penalty."
    ]
    corner = _tell(state, [PawnRest("south-1", "south", 0.12, 0.12, Status.SORRY_CORNER)])
    assert corner == [
        "Red 1 stops on a SORRY! corner: out for the round, and Red has no pawn to send back."
    ]


def test_a_match_tells_every_shot_and_a_refusal_through_news():
    specs = (SeatSpec("south", "cpu", "easy"), SeatSpec("north", "cpu", "easy"))
    match = Match(MatchConfig("race-for-home", "square", specs, 7))
    assert match.news() == []
    assert match.start(Shot("south", 0.6))
    assert match.sim is not None
    match.sim.run()
    match.finish()
    lines = match.news()
    assert lines and lines[-1].startswith("Red 1 ")
    assert match.news() == []  # each line once
    assert not match.start(Shot("north", 5.0))  # faster than any flick: refused, told
    (refused,) = match.news()
    assert refused.startswith("Yellow's shot is refused (speed 5 m/s is impossible")
    assert refused.endswith("Yellow shoots again.")


def test_wrap_keeps_every_word():
    line = "Red 3 knocks Yellow 1 off the board: Yellow's pawn on 4 goes back to START."
    pieces = wrap(line, lambda s: len(s) <= 20)
    assert " ".join(pieces) == line
    assert all(len(p) <= 20 for p in pieces)
    assert wrap("incomprehensibilities", lambda s: len(s) <= 5) == ["incomprehensibilities"]
    assert wrap("", lambda s: True) == []


def test_the_play_screen_shows_each_shot_told_in_full():
    from sliders.scenes.app import App
    from sliders.scenes.play import PlayScreen

    app = App((1280, 800), sound=False, think_budget=None)
    try:
        specs = (SeatSpec("south", "cpu", "easy"), SeatSpec("north", "cpu", "easy"))
        match = Match(MatchConfig("race-for-home", "square", specs, 5))
        screen = PlayScreen(app, match)
        app.show(screen)
        for _ in range(5000):
            if len(match.results) >= 2:
                break
            app.step(1 / 30, draw=False)
        app.step(1 / 30)  # and drawn, the long lines wrapped to the panel
        told = match.told
        assert len(told) >= 2
        assert all(line in screen.messages for line in told[-2:])
    finally:
        app.close()


def test_a_refused_computer_shot_in_the_window_is_told_and_played_again():
    """No exception from a refused shot reaches the window's loop: the screen tells it in one
    line and the computer aims again, then slides."""
    import dataclasses

    from sliders.scenes.app import App
    from sliders.scenes.play import CPU_REACH, PlayScreen

    app = App((1280, 800), sound=False, think_budget=None)
    try:
        specs = (SeatSpec("south", "cpu", "easy"), SeatSpec("north", "cpu", "easy"))
        match = Match(MatchConfig("race-for-home", "square", specs, 5))
        lane = match.seat("south")
        x, y = lane.to_world(lane.foul, 0.0)
        table = (PawnRest("north-3", "north", x, y, Status.OWN_TRACK),)
        match.game._states[-1] = dataclasses.replace(match.state, table=table)
        screen = PlayScreen(app, match)
        app.show(screen)
        screen._cpu = (Shot("south", 0.6, 0.0, 0.0, None, "south-1"), CPU_REACH)
        screen.lane_seat, screen.lane_shown = "south", 1.0  # its lane pane in: the hand moves
        app.step(1 / 30)
        assert app.screen is screen and not match.rolling
        assert screen.messages[-1] == (
            "Red's shot is refused (the release point is taken by pawn north-3): Red shoots again."
        )
        for _ in range(200):
            if match.rolling:
                break
            app.step(1 / 30)
        assert match.rolling and match.shots[-1].seat == "south"
    finally:
        app.close()


def test_round_end_scoring_names_pawns_as_a_person_does():
    """The round-end screen's lines name a pawn "Red 3", as every other line does, not the
    log's ``red#3``."""
    moved = narrate_scoring(Advanced("south", "south-3", 0, 5, 0, 5))
    assert moved == "Red 3 scores 5: pawn 1 START → 5"
    lost = narrate_scoring(PointsLost("north", "north-2", 4))
    assert lost == "Yellow 2 scores 4 but no pawn can take it: lost"

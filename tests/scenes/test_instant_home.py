"""Instant Home in the window: the owner of a roller pawn that drops into the hole chooses which
scoring pawn goes HOME (a person on a picker, driven here by posted input events; a computer by
itself), before the shot's outcome is applied, and the log keeps the choice."""

from __future__ import annotations

import math

import pygame
import pytest

from sliders.core.outcome import PawnRest, ShotResult, Status
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.physics import Shot
from sliders.rules import HOME, Move, Phase
from sliders.scenes import draw
from sliders.scenes.app import App
from sliders.scenes.play import PlayScreen
from sliders.scenes.table import Match

from .person import slide_to

FRAME = 1 / 60
SOUTH = (4, 1, 0, 2)
"""south's score board in round 2: pawn 3 is furthest from HOME, pawn 2 the second furthest"""


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None, control="aim")
    a.clock = lambda: a.time
    yield a
    a.close()


def _round_two(seats: str, south: tuple[int, ...] = SOUTH) -> Match:
    """An Instant Home match at the start of round 2, south to slide first, south's scoring
    pawns on ``south`` (round 1 played as written: south's pawn k scored or dropped into the
    hole for scoring pawn k, north's pawns fouled)."""
    config = MatchConfig(
        "instant-home", "square", parse_seat_specs(seats), 3, starter="north", hand="exact"
    )
    match = Match(config)
    game = match.game
    while game.state.phase is Phase.SHOOTING:
        s = game.state
        pid = s.next_pawn()
        n = int(pid[-1])
        points = south[n - 1] if s.turn == "south" else 0
        home = {}
        if points == HOME:  # into the hole: that scoring pawn goes HOME
            rest = PawnRest(pid, s.turn, 0.0, 0.0, Status.IN_HOLE)
            home = {pid: n - 1}
        elif points:
            rest = PawnRest(pid, s.turn, -0.1 + 0.04 * n, 0.09, Status.ON_TARGET, points, (points,))
        else:
            rest = PawnRest(pid, s.turn, 0.0, 0.0, Status.FOUL)
        game.shoot(ShotResult(s.face, pid, (*s.table, rest)), home)
    moves = [Move(f"south-{k + 1}", k, p) for k, p in enumerate(south) if 0 < p < HOME]
    game.score({"south": moves})
    assert game.state.player("south").board == south and game.state.turn == "south"
    return match


def _show(app: App, match: Match) -> PlayScreen:
    screen = PlayScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    return screen


def _post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))


def _slide(app: App, screen: PlayScreen, seat: str, speed: float, across: float) -> None:
    """A person's slide by posted mouse events (the aim control): from ``across`` on the
    foul line, straight up the lane at ``speed`` m/s."""
    m = screen.match
    lane = m.seat(seat)
    target = lane.to_world(lane.foul + m.params.stopping_distance(speed), across)
    slide_to(app, screen, seat, target, across)
    assert m.rolling, "the slide made no shot"
    assert m.shots[-1].speed == pytest.approx(speed, rel=0.02)


def _until(app: App, done, frames: int = 3000) -> None:
    for _ in range(frames):
        if done():
            return
        app.step(FRAME, draw=False)
    raise AssertionError("did not happen in time")


def _click_scoring_pawn(screen: PlayScreen, index: int) -> None:
    choice = screen.picking
    panel = draw.sidebar_panels(screen.sidebar, screen.match.state.seats)[choice.seat]
    x, y, _ = draw.scoring_spots(panel, choice.board, large=True)[index]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))


def test_a_person_clicks_the_scoring_pawn_that_goes_home(app):
    match = _round_two("south,north")
    screen = _show(app, match)
    _slide(app, screen, "south", 0.645, 0.0)  # straight down the axis into the hole
    _until(app, lambda: screen.picking is not None)
    choice = screen.picking
    assert (choice.seat, choice.pawn, choice.board) == ("south", "south-1", SOUTH)
    assert choice.options == (0, 1, 2, 3) and choice.default == 2  # furthest from HOME
    assert match.rolling and len(match.game.steps) == 9  # nothing applied yet
    for _ in range(30):  # the game waits for the choice
        app.step(FRAME, draw=True)
    assert screen.picking is choice and len(match.game.steps) == 9
    _click_scoring_pawn(screen, 1)  # the second furthest
    app.step(FRAME, draw=True)
    assert screen.picking is None and not match.rolling
    step = match.game.steps[-1]
    assert step.result.pawn("south-1").status is Status.IN_HOLE
    assert step.home == {"south-1": 1}
    assert step.slide is not None and step.slide.pawn == "south-1"
    assert match.state.player("south").board == (4, HOME, 0, 2)
    assert match.state.turn == "north"


def test_enter_takes_the_suggested_pawn_and_keys_pick_by_number(app):
    match = _round_two("south,north")
    screen = _show(app, match)
    _slide(app, screen, "south", 0.645, 0.0)
    _until(app, lambda: screen.picking is not None)
    _post_key(pygame.K_9)  # not a scoring pawn: ignored
    app.step(FRAME)
    assert screen.picking is not None
    _post_key(pygame.K_RETURN)
    app.step(FRAME)
    assert screen.picking is None
    assert match.game.steps[-1].home == {"south-1": 2}
    assert match.state.player("south").board == (4, 1, HOME, 2)


def test_a_number_key_picks_that_scoring_pawn(app):
    match = _round_two("south,north")
    screen = _show(app, match)
    _slide(app, screen, "south", 0.645, 0.0)
    _until(app, lambda: screen.picking is not None)
    _post_key(pygame.K_4)
    app.step(FRAME)
    assert match.game.steps[-1].home == {"south-1": 3}
    assert match.state.player("south").board == (4, 1, 0, HOME)


def test_the_owner_chooses_when_another_player_bumps_the_pawn_in(app):
    match = _round_two("south,north")
    screen = _show(app, match)
    match.start(Shot("south", 0.62, 0.0, -0.03, None, "south-1"))  # stops beyond the hole
    _until(app, lambda: match.state.turn == "north")
    assert match.state.table[0].status is Status.ON_TARGET
    match.start(Shot("north", 0.68, math.radians(5.5), 0.02, None, "north-1"))  # knocks it in
    _until(app, lambda: screen.picking is not None)
    assert screen.picking.seat == "south" and screen.picking.pawn == "south-1"
    _click_scoring_pawn(screen, 0)
    app.step(FRAME)
    step = match.game.steps[-1]
    assert step.result.shooter == "north-1" and step.home == {"south-1": 0}
    assert match.state.player("south").board == (HOME, 1, 0, 2)


def test_no_picker_when_there_is_no_real_choice(app):
    match = _round_two("south,north", (0, 0, 0, 0))
    screen = _show(app, match)
    _slide(app, screen, "south", 0.645, 0.0)
    _until(app, lambda: not match.rolling)
    assert screen.picking is None
    assert match.game.steps[-1].home == {"south-1": 0}


def test_a_computer_sends_home_the_pawn_that_leaves_it_best_placed():
    """Red has a pawn on the hole's edge (4 points at round end) and its scoring pawns on 2 and
    4: sending the one on 4 HOME lets the 4 points take the other HOME by exact count; the
    default (the pawn furthest from HOME) would waste them."""
    match = _round_two("south=cpu,north", (HOME, HOME, 2, 4))
    state = match.state
    edge = PawnRest("south-1", "south", 0.0, -0.02, Status.HOLE_EDGE, 4, (4,))
    match.game.shoot(ShotResult(state.face, "south-1", (edge,)))
    north = PawnRest("north-1", "north", 0.0, 0.2, Status.FOUL)
    match.game.shoot(ShotResult(state.face, "north-1", (edge, north)))
    state = match.state
    hole = PawnRest("south-2", "south", 0.0, 0.0, Status.IN_HOLE)
    result = ShotResult(state.face, "south-2", (edge, hole))
    choice = match.home_choice(result, {})
    assert choice is not None and choice.default == 2 and choice.options == (2, 3)
    assert match.home_for(choice, result, {}) == 3
    assert match.home_choice(result, {"south-2": 3}) is None


def test_a_computer_seat_chooses_without_a_picker(app):
    # the classic mind chooses by the chance of winning, as every mind does (see tests/ai)
    match = _round_two("south=cpu:mind=classic,north")
    screen = PlayScreen(app, match)
    app.show(screen)
    match.start(Shot("south", 0.645, 0.0, 0.0, None, "south-1"))  # its hand, into the hole
    _until(app, lambda: not match.rolling)
    assert screen.picking is None
    step = match.game.steps[-1]
    assert step.result.pawn("south-1").status is Status.IN_HOLE
    assert step.home == {"south-1": 2}  # nothing on the table: the furthest pawn gains most
    assert match.state.player("south").board == (4, 1, HOME, 2)

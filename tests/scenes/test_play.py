"""The play screens under the dummy video driver, driven by posted input events and a stepped
clock: every frame is ``App.step(dt)`` with a fixed dt, so each run is deterministic."""

from __future__ import annotations

import json
import math

import pygame
import pytest

from sliders.cli import main
from sliders.core.outcome import ENGINES, SEAT_COLOURS, Status
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.game.saves import load_replay
from sliders.physics import Shot
from sliders.rules import Game, Phase
from sliders.scenes.app import App
from sliders.scenes.controls import FLICK_GAIN, hand_spot
from sliders.scenes.play import PlayScreen
from sliders.scenes.replay import ReplayScreen
from sliders.scenes.results import ResultsScreen
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.setup import SetupScreen
from sliders.scenes.table import Match

from .person import ready

FRAME = 1 / 60


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None, control="flick")
    a.clock = lambda: a.time  # input stamped with the stepped clock
    yield a
    a.close()


def _play(app: App, seats: str, face: str = "race-for-home", seed: int = 1) -> PlayScreen:
    match = Match(MatchConfig(face, "square", parse_seat_specs(seats), seed, hand="exact"))
    screen = PlayScreen(app, match)
    app.show(screen)
    app.step(FRAME)
    if not match.is_computer(match.turn):
        ready(app, screen)
    return screen


def _post(kind: int, pos: tuple[int, int], **kw) -> None:
    pygame.event.post(pygame.event.Event(kind, pos=pos, **kw))


def _hand_pixel(screen: PlayScreen, seat: str, index: int = 0) -> tuple[int, int]:
    m = screen.match
    n = len(m.state.player(seat).in_hand)
    return screen.lane_view.to_screen(*m.seat(seat).to_world(*hand_spot(m, seat, index, n)))


def _until(app: App, done, frames: int = 20000, dt: float = FRAME, draw: bool = False) -> None:
    for _ in range(frames):
        if done():
            return
        app.step(dt, draw=draw)
    raise AssertionError("did not happen in time")


def test_drag_and_release_makes_a_shot_with_the_pointer_velocity(app):
    screen = _play(app, "south=human,north=human")
    m = screen.match
    start = _hand_pixel(screen, "south")
    _post(pygame.MOUSEBUTTONDOWN, start, button=1)
    app.step(FRAME)
    assert screen.held == "south-1"
    path = [(start[0] + k, start[1] - 6 * k) for k in range(1, 9)]  # up the screen, a bit right
    for p in path[:-1]:
        _post(pygame.MOUSEMOTION, p, rel=(1, -6), buttons=(1, 0, 0))
        app.step(FRAME)
    _post(pygame.MOUSEMOTION, path[-1], rel=(1, -6), buttons=(1, 0, 0))
    _post(pygame.MOUSEBUTTONUP, path[-1], button=1)
    let_go = screen.lane_view.to_world(*path[-1])  # the camera holds still while a pawn is held
    app.step(FRAME)
    assert m.shots, "no shot was made"
    shot = m.shots[-1]
    # the pointer's velocity on screen (60 px/s right, 360 px/s up) at the flick's fixed gain
    speed = FLICK_GAIN * math.hypot(60, 360)
    assert shot.pawn == "south-1" and shot.seat == "south"
    assert shot.speed == pytest.approx(speed, rel=1e-6)
    assert math.degrees(shot.angle) == pytest.approx(math.degrees(math.atan2(1, 6)), abs=1e-6)
    # released where the pawn was held: on the lane, behind the foul line
    seat = m.seat("south")
    along, across = m.clamp_hold("south", *m.lane_coords("south", *let_go))
    assert shot.release == pytest.approx(along) and shot.release < seat.foul
    assert shot.offset == pytest.approx(across)
    _until(app, lambda: not m.rolling)
    rest = m.results[-1].pawn("south-1")
    assert rest.y > seat.to_world(shot.release, 0)[1] + 0.1  # it went up the lane
    assert m.state.turn == "north"


def test_a_slow_pull_back_is_no_shot(app):
    screen = _play(app, "south=human,north=human")
    start = _hand_pixel(screen, "south")
    _post(pygame.MOUSEBUTTONDOWN, start, button=1)
    app.step(FRAME)
    _post(pygame.MOUSEMOTION, (start[0], start[1] - 30), rel=(0, -30), buttons=(1, 0, 0))
    app.step(FRAME)
    for _ in range(10):  # hold still, then let go
        app.step(FRAME)
    _post(pygame.MOUSEBUTTONUP, (start[0], start[1] - 30), button=1)
    app.step(FRAME)
    assert not screen.match.shots
    assert screen.match.state.player("south").in_hand[0] == "south-1"


def test_dragging_over_the_foul_line_is_a_foul(app):
    screen = _play(app, "south=human,north=human")
    m = screen.match
    start = _hand_pixel(screen, "south")
    _post(pygame.MOUSEBUTTONDOWN, start, button=1)
    app.step(FRAME)
    foul_y = screen.lane_view.to_screen(*m.seat("south").to_world(m.seat("south").foul, 0))[1]
    y = start[1]
    while y > foul_y - 10:
        y -= 15
        _post(pygame.MOUSEMOTION, (start[0], y), rel=(0, -15), buttons=(1, 0, 0))
        app.step(FRAME)
    _post(pygame.MOUSEBUTTONUP, (start[0], y), button=1)
    app.step(FRAME)
    _until(app, lambda: m.results)
    assert m.results[-1].pawn("south-1").status is Status.FOUL
    assert "south-1" in m.state.player("south").removed
    assert m.state.turn == "north"
    told = [line for line in screen.messages if "foul" in line.lower()]
    assert len(told) == 1 and "Red 1" in told[0], screen.messages  # once, by the pawn's name


def test_escape_pauses_the_physics_and_closing_mid_shot_exits(app):
    screen = _play(app, "south=cpu:easy,north=cpu:easy", seed=5)
    m = screen.match
    _until(app, lambda: m.rolling and m.sim is not None and m.sim.t > 10 * m.params.dt)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    app.step(FRAME)
    t = m.sim.t
    for _ in range(30):
        app.step(FRAME)
    assert screen.paused and m.sim.t == t
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    app.step(FRAME)
    app.step(FRAME)
    assert m.sim.t > t
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step(FRAME)
    assert not app.running


@pytest.mark.parametrize("engine", ENGINES)
def test_physics_steps_do_not_depend_on_the_frame_rate(engine: str):
    """The pymunk engine runs the same fixed steps whatever the frame rate; the exact engine is
    solved to each frame's time, and ends the same to the bit however the time is cut."""
    config = MatchConfig(
        "race-for-home", "square", parse_seat_specs("south,north"), 3, engine=engine
    )
    finals = []
    for fps in (30, 60, 144):
        m = Match(config)
        m.start(m.flick_shot(_flick()))
        frames = 0
        while m.sim.moving:
            m.advance(1 / fps)
            frames += 1
        assert m.sim.engine == engine
        finals.append((m.sim.t, m.sim.positions(), m.sim.result()))
    assert finals[0] == finals[1] == finals[2]


def _flick():
    from sliders.scenes.table import Flick

    return Flick("south", "south-1", 0.1, 0.0, 0.62, 0.01)


def test_window_resize_refits_the_board(app):
    screen = _play(app, "south=human,north=cpu:easy")
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    app.step(FRAME)
    assert app.surface.get_size() == (900, 600)
    assert app.surface.get_rect().contains(screen.view.rect)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0))
    for _ in range(180):  # the camera eases out to the whole table
        app.step(FRAME)
    assert screen.overview
    x0, y0, x1, y1 = screen.view.bounds
    corners = [screen.view.to_screen(x, y) for x in (x0, x1) for y in (y0, y1)]
    assert all(screen.view.rect.inflate(2, 2).collidepoint(c) for c in corners)


def test_setup_screen_starts_the_chosen_game(app):
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    for key in (pygame.K_RIGHT, pygame.K_RIGHT):  # face: two to the right
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen)
    cfg = app.screen.match.config
    assert cfg.face == "instant-sorry" and cfg.layout == "square"
    assert [(s.seat, s.kind) for s in cfg.seats] == [("south", "human"), ("north", "cpu")]


def _click(pos: tuple[int, int]) -> None:
    _post(pygame.MOUSEBUTTONDOWN, pos, button=1)
    _post(pygame.MOUSEBUTTONUP, pos, button=1)


@pytest.mark.parametrize("layout", ["crazy-corner", "solo", "head-to-head", "triple-track"])
def test_choosing_a_layout_on_the_setup_screen_seats_its_players(app, layout):
    from sliders.files.layouts import read_layout

    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    while setup.layout != layout:
        _click(setup.rows[1][2].center)  # the layout row's right arrow
        app.step(FRAME)
    seats = read_layout(layout).default_seats
    assert [s for s in setup.seats() if setup.who.get(s, "off") != "off"] == list(seats)
    _click(setup.start_button.rect.center)
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen), setup.note
    assert app.screen.match.config.seat_names == seats


def test_the_setup_screen_names_games_and_sets_the_control(app):
    from sliders.scenes.setup import game_name

    assert [game_name(f) for f in ("race-for-home", "instant-sorry")] == [
        "Race for Home",
        "Instant Sorry!",
    ]
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    control_row = setup.row_names().index("control")
    before = app.control
    _click(setup.rows[control_row][2].center)
    app.step(FRAME)
    assert app.control != before and app.control in ("aim", "flick")
    # a press that began elsewhere does not click the arrow it is let go on
    _post(pygame.MOUSEBUTTONDOWN, (5, 5), button=1)
    _post(pygame.MOUSEBUTTONUP, setup.rows[control_row][2].center, button=1)
    app.step(FRAME)
    assert app.control != before
    app.step(FRAME)


def test_the_setup_screen_offers_the_flick_first_and_the_meter_with_the_aim(app):
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    assert app.control == "flick" and "meter" not in setup.row_names()
    assert setup.hand == "exact"  # a person's own hand: no handicap unless chosen
    setup.change("control", 1)
    assert app.control == "aim" and setup.row_names().index("meter") == 3
    app.step(FRAME)
    meter = setup.row_names().index("meter")
    _click(setup.rows[meter][2].center)  # the next meter: fast
    app.step(FRAME)
    assert app.meter == "fast"
    setup.start()
    app.step(FRAME)
    screen = app.screen
    assert isinstance(screen, PlayScreen) and screen.control.meter.period == 0.7


def test_a_pause_button_fires_only_on_its_own_click(app):
    screen = _play(app, "south=human,north=human")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    app.step(FRAME)
    assert screen.paused
    resume = screen.buttons[0].rect.center
    _post(pygame.MOUSEBUTTONUP, resume, button=1)  # a release whose press was not here
    app.step(FRAME)
    assert screen.paused
    _click(resume)
    app.step(FRAME)
    assert not screen.paused


def test_the_pause_menu_saves_the_game_as_it_stands(app, tmp_path):
    """*Save game* on the pause menu (its button, or S) writes the log whole, every settled
    shot in it, and says where; a folder that cannot take it is said, not a crash."""
    screen = _play(app, "south=human,north=human")
    m = screen.match
    m.start(Shot("south", 0.6, 0.0, 0.0, None, "south-1"))
    _until(app, lambda: len(m.results) == 1)
    app.save_path = tmp_path / "game.json"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    app.step(FRAME)
    assert screen.paused and [b.label for b in screen.buttons][1] == "Save game"
    app.step(FRAME, draw=True)  # the buttons are laid out as the menu is drawn
    _click(screen.buttons[1].rect.center)
    app.step(FRAME, draw=True)
    saved = load_replay(tmp_path / "game.json")
    assert len(saved.steps) == len(m.game.steps) == 1 and saved.state == m.game.state
    assert screen.saved_note == f"Saved to {tmp_path / 'game.json'}" and screen.paused
    app.save_path = tmp_path / "no" / "such" / "game.json"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0))
    app.step(FRAME)
    assert screen.saved_note.startswith("Not saved: ") and screen.paused


def test_a_saved_game_is_taken_up_where_it_was_saved(app, tmp_path, monkeypatch):
    """``sliders play --resume FILE`` opens the game of a log saved mid-round on its next turn,
    a person in each seat the log gives a person's hand; Save game then writes that file again."""
    import sliders.cli.play as play_command

    screen = _play(app, "south=human,north=cpu:easy")
    m = screen.match
    m.start(Shot("south", 0.6, 0.0, 0.0, None, "south-1"))
    _until(app, lambda: len(m.results) == 1)
    path = tmp_path / "game.json"
    app.save_path = path
    screen.save()
    opened: dict[str, object] = {}

    def window(size, args):  # type: ignore[no-untyped-def]
        taken = App((800, 600), sound=False, think_budget=None, control="flick",
                    save_path=args.save)  # fmt: skip
        opened["app"] = taken
        return taken

    def run(self):  # type: ignore[no-untyped-def]
        self.step(FRAME)
        opened["screen"] = self.screen
        return 0

    monkeypatch.setattr(play_command, "open_play_window", window)
    monkeypatch.setattr(App, "run", run)
    assert main(["play", "--resume", str(path)]) == 0
    taken = opened["screen"]
    assert isinstance(taken, PlayScreen)
    assert taken.match.state == m.game.state and taken.match.turn == "north"
    assert taken.match.is_computer("north") and not taken.match.is_computer("south")
    assert opened["app"].save_path == path


def test_a_shot_ends_for_the_player_soon_after_nothing_visibly_moves(app):
    from sliders.scenes.play import SETTLE_PAUSE, STILL_MOVE, STILL_TIME

    screen = _play(app, "south=human,north=human")
    m = screen.match
    waits = []
    # a pawn to the centre, then one that clips it off-centre: the clipped pawns spin on
    for shot in (Shot("south", 0.586, 0.0, 0.0, None, "south-1"), Shot("north", 0.8, 0.0, 0.01)):
        results = len(m.results)
        m.start(shot)
        last_move, before, t = 0.0, m.positions(), 0.0
        while len(m.results) == results:
            app.step(FRAME, draw=False)
            t += FRAME
            now = m.positions()
            if any(math.dist(before.get(p, xy), xy) > STILL_MOVE / 10 for p, xy in now.items()):
                last_move = t
            before = now
            assert t < 30
        waits.append(t - last_move)
    assert max(waits) <= STILL_TIME + SETTLE_PAUSE + 3 * FRAME, waits


def test_a_person_chooses_another_assignment_at_round_end(app):
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north=cpu:easy"), 2)
    match = Match(config)
    shots = [(0.45, 0.021), (0.67, -0.015), (0.57, -0.003), (0.63, 0.017)]
    k = 0
    for _ in range(8):  # play rounds, scoring each by default, until one leaves south a choice
        while match.state.phase is Phase.SHOOTING:
            seat = match.turn
            if match.is_computer(seat):
                match.start(match.think(None))
            else:
                speed, angle = shots[k % 4]
                k += 1
                match.start(Shot(seat, speed, angle, 0.0, None, match.state.next_pawn()))
            match.advance(60.0, max_steps=10**6)
            match.finish()
        screen = RoundEndScreen(app, match)
        app.show(screen)
        app.step(FRAME)
        options = screen.options
        if len(options) > 1:
            break
        match.score({})
    else:
        pytest.fail("no round in eight left south a choice")
    round_now = match.state.round
    before = match.state.player("south").board
    pick = options[1]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.step(FRAME)
    assert screen.scored
    step = match.game.steps[-1]
    assert tuple(sorted(step.assignments["south"], key=lambda m: m.pawn)) == tuple(
        sorted(pick, key=lambda m: m.pawn)
    )
    after = match.state.player("south").board
    assert sum(after) - sum(before) == sum(m.points for m in pick)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen) and match.state.round == round_now + 1


def test_the_first_message_says_who_starts_or_whose_turn_it_is_in_a_round_taken_up(
    app, finished_game
):
    assert _play(app, "south,north").messages[0] == "Round 1: Red slides first"
    taken_up = finished_game.game.to_json()  # two shots into its first round (a saved game)
    taken_up["steps"] = taken_up["steps"][:2]
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1)
    match = Match(config, game=Game.from_json(taken_up))
    assert match.turn is not None and match.state.round == 1
    colour = SEAT_COLOURS[match.turn].capitalize()
    assert PlayScreen(app, match).messages[0] == f"Round 1: {colour} to slide"


def test_computer_against_computer_plays_to_a_winner(finished_game):
    match = finished_game
    state = match.state
    assert state.phase is Phase.OVER and state.winner in ("south", "north")
    assert state.player(state.winner).all_home
    assert len(match.results) == len(match.shots) >= 8
    assert state.rounds_played >= 1


def test_a_saved_game_replays_to_the_same_final_state(app, finished_game, tmp_path):
    match = finished_game
    app.show(ResultsScreen(app, match))
    app.save_path = tmp_path / "game.json"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0))
    app.step(FRAME)
    data = json.loads((tmp_path / "game.json").read_text())
    assert data["layout"] == {"name": "square", "seats": ["south", "north"]}
    assert data["face"] == "race-for-home"
    assert list(tmp_path.iterdir()) == [tmp_path / "game.json"]  # no temporary file left
    game = load_replay(tmp_path / "game.json")
    replay = ReplayScreen(app, game)
    app.show(replay)
    _until(app, lambda: replay.finished, dt=0.1, draw=True)
    assert replay.state == match.state
    assert replay.state.winner == match.state.winner


def test_play_again_lets_the_winner_start(app, finished_game):
    match = finished_game
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.show(ResultsScreen(app, match))
    app.step(FRAME)
    assert isinstance(app.screen, PlayScreen)
    assert app.screen.match.state.starter == match.state.winner
    assert app.screen.match.state.round == 1


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "--seats", "south=robot"], "expected SEAT=human"),
        (["play", "--seats", "south=cpu:grandmaster"], "unknown strength"),
        (["play", "--seats", "purple=human"], "unknown seat"),
        (["play", "--layout", "nowhere"], "unknown layout"),
        (["play", "--size", "10x10"], "--size"),
        (["play", "--control", "joystick"], "--control 'joystick': choose from flick, aim"),
        (["play", "--control", ""], "--control"),
        (["play", "--meter", "turbo"], "--meter 'turbo': choose from slow, normal, fast"),
        (["practice", "--meter", "x"], "--meter 'x': choose from slow, normal, fast"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_a_broken_replay_file_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{}]}')
    assert main(["play", "--replay", str(bad)]) == 2
    assert "step 1" in capsys.readouterr().err
    assert main(["play", "--replay", str(tmp_path / "missing.json")]) == 2


def test_the_command_module_loads_pygame_only_when_run():
    import subprocess
    import sys

    code = (
        "import sys, sliders.cli, sliders.cli.play, sliders.scenes.table, sliders.ai;"
        "sliders.cli.build_parser(); print('pygame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

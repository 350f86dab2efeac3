"""The practice sandbox and the drills in a window (headless), driven by posted mouse and key
events as a person would: pawns dragged from the panel, moved and taken away, a slide, undo
and retry, the table saved and loaded as a scene file, the aim help and a hint drawn; a drill
played to its end from the setup screen, its best score kept as ``sliders drills`` keeps it."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from sliders.files.scenes import Scene
from sliders.game.drills import LADDER, MAX_TRY, TRIES, best_scores
from sliders.game.hand import kept_spreads
from sliders.game.narrate import PAWN_ID
from sliders.physics import Shot
from sliders.scenes import coach
from sliders.scenes.app import App
from sliders.scenes.controls import PULL_MAX
from sliders.scenes.practice import DrillScreen, DrillsScreen, PracticeScreen, scene_for
from sliders.scenes.screens import SetupScreen

from .person import FRAME, post, slide_to

TINY = replace(coach.HINT_MIND, simulations=40, first=2)


@pytest.fixture
def app():
    a = App((1280, 800), sound=False, think_budget=None, control="aim")
    yield a
    a.close()


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    post(pygame.MOUSEBUTTONDOWN, pos, button=button)
    app.step(FRAME)
    post(pygame.MOUSEBUTTONUP, pos, button=button)
    app.step(FRAME)


def key(app: App, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    app.step(FRAME)


def drag(app: App, start: tuple[int, int], end: tuple[int, int]) -> None:
    post(pygame.MOUSEBUTTONDOWN, start, button=1)
    app.step(FRAME)
    post(pygame.MOUSEMOTION, end, rel=(0, 0), buttons=(1, 0, 0))
    app.step(FRAME)
    post(pygame.MOUSEBUTTONUP, end, button=1)
    app.step(FRAME)


def settle(app: App, screen: PracticeScreen) -> None:
    for _ in range(2000):
        app.step(FRAME, draw=False)
        if not screen.table.rolling and screen.camera.settled(0.5) and screen.lane_settled():
            app.step(FRAME)  # drawn: the panel's places known
            return
    raise AssertionError("the table never came to rest")


def green(app: App) -> int:
    px = pygame.surfarray.array3d(app.surface)
    return int(((px[..., 0] == 90) & (px[..., 1] == 220) & (px[..., 2] == 120)).sum())


def test_the_sandbox_places_slides_undoes_retries_saves_and_loads(app, tmp_path):
    path = tmp_path / "table.json"
    screen = PracticeScreen(app, scene_for("race-for-home", "square"), "exact", str(path))
    app.show(screen)
    settle(app, screen)
    table = screen.table
    yellow = dict(screen.swatches)["north"]
    drag(app, yellow.center, screen.view.to_screen(0.0, 0.03))  # a new pawn from the panel
    assert [p.id for p in table.pawns] == ["north-1"]
    moved = screen.view.to_screen(0.03, 0.03)
    placed = table.state.table[0]
    drag(app, screen.view.to_screen(placed.x, placed.y), moved)  # moved on the table
    assert table.pawns[0].x == pytest.approx(0.03, abs=0.004)
    drag(app, dict(screen.swatches)["east"].center, screen.view.to_screen(0.0, -0.06))
    click(app, screen.view.to_screen(0.0, -0.06), button=3)  # right-click: taken away
    assert [p.id for p in table.pawns] == ["north-1"]
    key(app, pygame.K_s)
    assert Scene.load(str(path)).pawns == table.pawns  # the format `sliders shot --scene` reads

    screen.help.on = True
    slide_to(app, screen, "south", (0.0, 0.0), 0.0)  # aimed at the centre: help drawn meanwhile
    assert screen.help.solved >= 1
    settle(app, screen)
    assert {p.id for p in table.pawns} == {"north-1", "south-1"}
    after = table.pawns
    key(app, pygame.K_r)  # retry: the table before the shot
    assert [p.id for p in table.pawns] == ["north-1"]
    key(app, pygame.K_z)  # undo the retry: the shot's table again
    assert table.pawns == after
    key(app, pygame.K_c)
    assert table.pawns == ()
    key(app, pygame.K_l)  # load the saved table: a new sandbox on it
    loaded = app.screen
    assert isinstance(loaded, PracticeScreen) and loaded is not screen
    assert loaded.table.pawns == Scene.load(str(path)).pawns


def test_the_aim_help_is_solved_once_an_aim_and_the_hint_is_drawn(app):
    screen = PracticeScreen(app, scene_for("race-for-home", "square"), "exact")
    screen.hint.mind = TINY
    app.show(screen)
    settle(app, screen)
    table = screen.table
    shot = Shot("south", 0.6, 0.0, 0.0, pawn="south-1")
    first = screen.help.at(table.state.table, shot)
    assert first is not None and screen.help.at(table.state.table, shot) is first
    path, rest = first
    assert screen.help.solved == 1 and len(path) == 2 and rest is not None and rest.status.in_play
    before = green(app)
    key(app, pygame.K_h)
    app.step(FRAME)
    got = screen.hint.found(screen.hinted)
    assert got is not None and got[0].seat == "south"
    assert not PAWN_ID.search(got[1]), got[1]  # pawns named as the board shows them
    assert green(app) > before + 30  # the ghost arrow


def test_a_drill_from_the_setup_screen_is_scored_and_its_best_kept(app):
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    click(app, setup.drills_button.rect.center)
    ladder = app.screen
    assert isinstance(ladder, DrillsScreen)
    click(app, ladder.rows[0].center)  # the first drill: stop in the centre ring
    drill = app.screen
    assert isinstance(drill, DrillScreen) and drill.drill.kind == "centre"
    for _ in range(TRIES):
        for _ in range(400):
            app.step(FRAME, draw=False)
            if drill.reset_in <= 0 and not drill.table.rolling:
                break
        slide_to(app, drill, "south", (0.0, 0.0), 0.0)
        settle(app, drill)
    assert drill.finished and len(drill.scores) == TRIES
    assert best_scores()[drill.drill.name] >= sum(drill.scores) > 0
    # every try told as the hand made it, and the drill's spread shown and kept
    told = [m for m in drill.messages if m.startswith("your aim: ")]
    aimed = ("of your aim", "straight on your aim")
    assert told and all("m/s" in m and any(a in m for a in aimed) for m in told), drill.messages
    kept = kept_spreads()
    assert kept and kept[-1].drill == drill.drill.name and kept[-1].n == TRIES
    assert drill.spread.startswith("your spread: speed ") and drill.spread in drill.messages
    key(app, pygame.K_RETURN)  # again
    assert drill.scores == [] and drill.table.pawns == drill.drill.scene.pawns
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.screen, DrillsScreen)


def _half_pull(app: App, drill: DrillScreen, hold: float) -> None:
    """Press in the middle of the foul line, pull straight back half of ``PULL_MAX`` and let
    go ``hold`` seconds after the press (the input clock: the frames')."""
    for _ in range(600):  # the table set again, the lane pane in and still
        app.step(FRAME, draw=False)
        if drill.reset_in <= 0 and not drill.table.rolling and drill.lane_shown == 1.0:
            if drill.lane_camera.settled(1.0):
                break
    now, clock = [app.time], app.clock
    app.clock = lambda: now[0]
    lane = drill.table.seat("south")
    press = drill.lane_view.to_screen(*lane.to_world(lane.foul - 0.004, 0.0))
    post(pygame.MOUSEBUTTONDOWN, press, button=1)
    app.step(FRAME)
    assert drill.held is not None, "the press took no pawn"
    pressed = now[0]
    post(pygame.MOUSEMOTION, (press[0], press[1] + PULL_MAX // 2), rel=(0, 0), buttons=(1, 0, 0))
    while now[0] < pressed + hold:
        now[0] += FRAME
        app.step(FRAME, draw=False)
    post(pygame.MOUSEBUTTONUP, (press[0], press[1] + PULL_MAX // 2), button=1)
    app.step(FRAME)
    app.clock = clock
    settle(app, drill)


def test_identical_half_pulls_score_only_as_well_as_their_timing():
    """The aim control's power is the meter's at the release: the same half pull let go a
    fifth of a second after the press stops short every time; let go on the meter's half way
    it stops on the centre ring."""
    app = App((1280, 800), sound=False, think_budget=None, control="aim")
    try:
        drill = DrillScreen(app, LADDER[0])
        app.show(drill)
        settle(app, drill)
        period = drill.control.meter.period
        for _ in range(TRIES):
            _half_pull(app, drill, 0.2)
        careless = sum(drill.scores)
        assert drill.finished and careless <= TRIES * MAX_TRY // 2, drill.scores
        key(app, pygame.K_RETURN)
        for _ in range(TRIES):
            _half_pull(app, drill, period / 4)  # the marker half way up: half power
        assert sum(drill.scores) >= TRIES * MAX_TRY - 2 > careless, drill.scores
    finally:
        app.close()


def test_practice_opens_from_the_setup_screen_on_the_game_chosen(app):
    setup = SetupScreen(app)
    app.show(setup)
    app.step(FRAME)
    setup.change("face", 1)
    key(app, pygame.K_p)
    screen = app.screen
    assert isinstance(screen, PracticeScreen)
    assert screen.table.face.name == setup.face and screen.table.layout.name == setup.layout

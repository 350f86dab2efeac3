"""The game log: JSON with a schema version, replayed through the engine on loading."""

from __future__ import annotations

import json

import pytest

from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Shot, ShotResult, Status
from sliders.rules import (
    SCHEMA,
    Game,
    InstantHome,
    LayoutRef,
    Move,
    Phase,
    ScoreStep,
    ShotStep,
)


def rest(pid, status, points=0, choices=()):
    return PawnRest(pid, pid.rsplit("-", 1)[0], 0.1, -0.2, status, points, choices)


def short_game() -> Game:
    game = Game("instant-home", ["red", "blue"])
    game.shoot(ShotResult("instant-home", "south-1", (rest("south-1", Status.ON_TARGET, 3),)))
    for _ in range(6):
        s = game.state
        pid = s.next_pawn() or ""
        game.shoot(ShotResult(s.face, pid, (*s.table, rest(pid, Status.OWN_TRACK))))
    s = game.state
    pid = s.next_pawn() or ""
    game.shoot(ShotResult(s.face, pid, (*s.table, rest(pid, Status.IN_HOLE))), {pid: 2})
    assert game.state.phase is Phase.SCORING
    game.score({"south": [Move("south-1", 3, 3)]})
    return game


def test_log_records_every_choice_and_replays():
    game = short_game()
    data = game.to_json()
    assert data["schema"] == 2 and data["face"] == "instant-home"
    assert data["steps"][-2]["home"] == {"west-4": 2}
    assert data["steps"][-1]["score"] == {
        "south": [{"pawn": "south-1", "scoring": 3, "points": 3}],
        "west": [],
    }
    again = Game.from_json(json.loads(json.dumps(data)))
    assert again.state == game.state
    assert again.state.player("west").board == (0, 0, 6, 0)
    assert again.state.player("south").board == (0, 0, 0, 3)
    assert isinstance(again.steps[-1], ScoreStep) and isinstance(again.steps[0], ShotStep)


def test_default_choices_are_recorded_as_made():
    game = Game("instant-home", ["red"])
    happened = game.shoot(ShotResult("instant-home", "south-1", (rest("south-1", Status.IN_HOLE),)))
    assert happened[1] == InstantHome("south", "south-1", 0, 0)
    assert game.to_json()["steps"][0]["home"] == {"south-1": 0}


def test_undo_takes_back_steps():
    game = short_game()
    before = game.states[-2]
    assert isinstance(game.undo(), ScoreStep)
    assert game.state == before
    while game.undo():
        pass
    assert game.state == Game("instant-home", ["red", "blue"]).state


def test_save_and_load(tmp_path):
    game = short_game()
    path = tmp_path / "game.json"
    game.save(path)
    assert Game.load(path).state == game.state
    assert not [p for p in tmp_path.iterdir() if p.name != "game.json"]  # no temporary left


BROKEN = [
    ({"schema": SCHEMA + 1, "face": "race-for-home"}, "newer than this sliders reads"),
    ([1, 2], "not a game log"),
    ({"face": "race-for-home"}, "no schema number"),
    ({"schema": 1, "kind": "chess"}, "not a game log"),
    ({"schema": 1, "seats": ["south"], "steps": []}, "missing field 'face'"),
    (
        {"schema": 1, "face": "snap", "seats": ["south"], "steps": []},
        "face: expected one of race-for-home",
    ),
    (
        {"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{"dance": 1}]},
        "step 1: neither a shot nor a score",
    ),
    (
        {"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{"shot": {}}]},
        "step 1: shot: missing field 'face'",
    ),
    (
        {
            "schema": 1,
            "face": "race-for-home",
            "seats": ["south"],
            "steps": [
                {
                    "shot": ShotResult(
                        "race-for-home", "south-2", (rest("south-2", Status.FOUL),)
                    ).to_json()
                },
                {
                    "shot": ShotResult(
                        "race-for-home", "south-2", (rest("south-2", Status.FOUL),)
                    ).to_json()
                },
            ],
        },
        "step 2: red#2 is not in hand",
    ),
    (
        {"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{"score": {}}]},
        "step 1: the round is not over",
    ),
]


@pytest.mark.parametrize(("data", "message"), BROKEN)
def test_broken_logs_are_one_clear_line(data, message):
    with pytest.raises(UserError) as info:
        Game.from_json(data)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_broken_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{ not json")
    with pytest.raises(UserError, match="not valid JSON"):
        Game.load(path)
    with pytest.raises(UserError, match="not found"):
        Game.load(tmp_path / "missing.json")


def test_layout_and_slides_round_trip():
    game = Game("race-for-home", ["south", "north"], layout="crazy-corner")
    assert game.layout == LayoutRef("crazy-corner", ("south", "north"))
    slide = Shot("south", 0.6125, -0.031, 0.012, 0.1, "south-1", 2**62 + 7)
    game.shoot(ShotResult(game.face, "south-1", (rest("south-1", Status.OWN_TRACK),)), slide=slide)
    game.shoot(ShotResult(game.face, "north-1", (*game.state.table, rest("north-1", Status.FOUL))))
    data = json.loads(json.dumps(game.to_json()))
    assert data["schema"] == 2  # a game from round 1, all on START, keeps schema 2
    assert data["layout"] == {"name": "crazy-corner", "seats": ["south", "north"]}
    assert data["steps"][0]["slide"] == {
        "seat": "south",
        "pawn": "south-1",
        "speed": 0.6125,
        "angle_rad": -0.031,
        "offset": 0.012,
        "release": 0.1,
        "seed": 2**62 + 7,
    }
    assert "slide" not in data["steps"][1]
    again = Game.from_json(data)
    assert again.layout == game.layout and again.state == game.state
    assert [s.slide for s in again.steps] == [slide, None]
    assert again.to_json() == data


def test_a_scorekeepers_log_has_no_layout():
    data = short_game().to_json()
    assert "layout" not in data and all("slide" not in s for s in data["steps"])
    assert Game.from_json(data).layout is None


def test_schema_1_logs_still_load():
    """Schema 1: no slides, and the layout (if any) a name beside the rules' fields."""
    game = short_game()
    data = game.to_json() | {"schema": 1, "layout": "head-to-head"}
    again = Game.from_json(json.loads(json.dumps(data)))
    assert again.state == game.state
    assert again.layout == LayoutRef("head-to-head", ("south", "west"))
    del data["layout"]
    assert Game.from_json(data).layout is None


def test_a_slide_must_be_of_the_pawn_shot():
    game = Game("race-for-home", ["south"])
    result = ShotResult(game.face, "south-1", (rest("south-1", Status.OWN_TRACK),))
    with pytest.raises(UserError, match="the slide is of red#2"):
        game.shoot(result, slide=Shot("south", 0.5, pawn="south-2"))
    assert not game.steps


def _with_slide(slide):
    shot = ShotResult("race-for-home", "south-1", (rest("south-1", Status.OWN_TRACK),))
    return {
        "schema": 2,
        "face": "race-for-home",
        "seats": ["south"],
        "steps": [{"shot": shot.to_json(), "slide": slide}],
    }


GOOD_SLIDE = {"seat": "south", "pawn": "south-1", "speed": 0.5}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            _with_slide(GOOD_SLIDE | {"speed": "fast"}),
            "step 1: slide.speed: expected a number (m/s)",
        ),
        (
            _with_slide(GOOD_SLIDE | {"speed": -1}),
            "step 1: slide.speed: expected a number (m/s) within 0..10, got -1",
        ),
        (
            _with_slide(GOOD_SLIDE | {"angle_rad": None}),
            "step 1: slide.angle_rad: expected a number",
        ),
        (
            _with_slide(GOOD_SLIDE | {"seed": 1.5}),
            "step 1: slide.seed: expected a whole number within 0..2^128-1",
        ),
        (
            _with_slide(GOOD_SLIDE | {"pawn": "north-1"}),
            "step 1: slide.pawn: expected a pawn id SEAT-N with N from 1 to 4 of south",
        ),
        (_with_slide(GOOD_SLIDE | {"pawn": "south-2"}), "the slide is of red#2"),
        (_with_slide([1]), "step 1: slide: expected an object"),
        (_with_slide(GOOD_SLIDE) | {"layout": 3}, "layout: expected text"),
        (_with_slide(GOOD_SLIDE) | {"layout": {"seats": []}}, "layout: missing field 'name'"),
        (
            _with_slide(GOOD_SLIDE) | {"layout": {"name": "square", "seats": ["mauve"]}},
            "unknown player 'mauve'",
        ),
    ],
)
def test_broken_layouts_and_slides_are_one_clear_line(data, message):
    with pytest.raises(UserError) as info:
        Game.from_json(data)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_slide_with_defaults_reads():
    slide = Game.from_json(_with_slide(GOOD_SLIDE)).steps[0].slide
    assert slide == Shot("south", 0.5, pawn="south-1")


def test_a_game_resumed_from_score_boards_round_trips_as_schema_3():
    game = Game("race-for-home", ["red", "blue"], boards={"blue": (6, 1, 0, 6)}, round=3)
    game.shoot(ShotResult(game.face, "south-1", (rest("south-1", Status.ON_TARGET, 3),)))
    data = json.loads(json.dumps(game.to_json()))
    assert data["schema"] == SCHEMA == 3 and data["round"] == 3
    assert data["boards"] == {"south": [0, 0, 0, 0], "west": [6, 1, 0, 6]}
    again = Game.from_json(data)
    assert again.state == game.state and again.round == 3 and again.resumed
    assert not Game("race-for-home", ["red"]).resumed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"boards": [0, 0, 0, 1]}, 'the boards must be {"south"'),
        (
            {"boards": {"south": [0, 0, 9, 1]}},
            r"boards\.south\[2\]: expected a whole number within 0\.\.6, got 9",
        ),
        ({"boards": {"east": [0, 0, 0, 1]}}, "green has a score board but is not playing"),
        ({"round": "3"}, "round: expected a whole number"),
    ],
)
def test_a_broken_resumed_log_is_one_line(change, message):
    data = {"schema": 3, "face": "race-for-home", "seats": ["south"], "steps": [], **change}
    with pytest.raises(UserError, match=message) as info:
        Game.from_json(data)
    assert "\n" not in str(info.value)


def test_hints_round_trip_and_a_log_without_them_has_none():
    data = _with_slide(GOOD_SLIDE)
    assert Game.from_json(data).hints == []  # an older log: no hints
    hint = Shot("south", 0.61, 0.02, 0.01, None, "south-1")
    data["hints"] = [{"step": 0, "slide": hint.to_json()}]
    game = Game.from_json(data)
    assert game.hints == [(0, hint)] and len(game.steps) == 1  # the steps are not changed
    assert game.to_json()["hints"] == data["hints"]
    assert "hints" not in Game.from_json(_with_slide(GOOD_SLIDE)).to_json()


@pytest.mark.parametrize(
    ("hints", "message"),
    [
        ({"step": 0}, "hints: expected a list"),
        ([{"step": -1, "slide": GOOD_SLIDE}], "hints[0].step: expected a whole number"),
        ([{"step": 0}], "hints[0]: missing field 'slide'"),
        ([{"step": 0, "slide": GOOD_SLIDE | {"speed": 99}}], "hints[0].slide.speed"),
        ([{"step": 0, "slide": GOOD_SLIDE, "why": 1}], "hints[0]"),
    ],
)
def test_broken_hints_are_one_clear_line(hints, message):
    with pytest.raises(UserError) as info:
        Game.from_json(_with_slide(GOOD_SLIDE) | {"hints": hints})
    assert message in str(info.value) and "\n" not in str(info.value)

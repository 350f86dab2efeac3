"""The game log: JSON with a schema version, replayed through the engine on loading."""

from __future__ import annotations

import json

import pytest

from sliders.errors import UserError
from sliders.outcome import PawnRest, ShotResult, Status
from sliders.rules import SCHEMA, Game, InstantHome, Move, Phase, ScoreStep, ShotStep


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
    assert data["schema"] == SCHEMA and data["face"] == "instant-home"
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
    ({"schema": 1, "seats": ["south"], "steps": []}, "setup is broken (missing 'face')"),
    ({"schema": 1, "face": "snap", "seats": ["south"], "steps": []}, "unknown face"),
    (
        {"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{"dance": 1}]},
        "step 1: neither a shot nor a score",
    ),
    (
        {"schema": 1, "face": "race-for-home", "seats": ["south"], "steps": [{"shot": {}}]},
        "step 1 is broken (missing 'face')",
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

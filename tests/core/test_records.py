"""One serialiser for the records written to files: each record goes to JSON and back unchanged,
and the files keep the exact format they had (key names, key order, what is left out)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field

import pytest

from sliders.core import records
from sliders.core.outcome import Event, EventType, PawnRest, Shot, ShotResult, Status
from sliders.files.scenes import Scene, ScenePawn
from sliders.rules import GameState, Move, Phase, new_game
from sliders.rules.gamelog import LayoutRef
from sliders.rules.state import PlayerState

PAWN = PawnRest("south-1", "south", 0.1, -0.2, Status.ON_TARGET, 4)
CHOICE = PawnRest("north-2", "north", 0.0, 0.02, Status.ON_TARGET, 6, (4, 5, 6))
EVENT = Event(0.25, EventType.CONTACT, ("south-1", "north-2"), 0.003, 0.01, 0.02)
RESULT = ShotResult("instant-sorry", "south-1", (PAWN, CHOICE), (EVENT,), 1.5, True, "exact", "9")
STATE = new_game("instant-sorry", ("south", "north"))


def _again(record):  # type: ignore[no-untyped-def]
    text = json.dumps(record.to_json())
    return type(record).from_json(json.loads(text))


@pytest.mark.parametrize(
    "record",
    [
        PAWN,
        CHOICE,
        EVENT,
        Event(1.0, EventType.SETTLED),
        RESULT,
        ShotResult("race-for-home", "south-1", (PAWN,)),
        Move("south-1", 2, 5),
        PlayerState("west", (0, 3, 6, 6), ("west-3", "west-4"), ("west-1",)),
        STATE,
        GameState(
            "danger-dots",
            ("south", "north"),
            STATE.players,
            (PAWN,),
            3,
            "north",
            None,
            Phase.SCORING,
            "north",
        ),  # fmt: skip
    ],
    ids=lambda r: type(r).__name__,
)
def test_every_record_comes_back_from_its_json_unchanged(record) -> None:
    assert _again(record) == record


def test_the_file_formats_are_as_they_were() -> None:
    assert json.dumps(PAWN.to_json()) == (
        '{"id": "south-1", "seat": "south", "x": 0.1, "y": -0.2, "status": "on_target", '
        '"points": 4, "choices": [4]}'
    )
    assert json.dumps(EVENT.to_json()) == (
        '{"t": 0.25, "type": "contact", "pawns": ["south-1", "north-2"], "impulse": 0.003, '
        '"x": 0.01, "y": 0.02}'
    )
    unsimulated = ShotResult("race-for-home", "south-1", (PAWN,))
    assert list(unsimulated.to_json()) == [
        "face", "shooter", "pawns", "events", "settle_time", "settled",
    ]  # fmt: skip
    assert list(RESULT.to_json())[-2:] == ["engine", "version"]
    assert json.dumps(Move("south-1", 2, 5).to_json()) == (
        '{"pawn": "south-1", "scoring": 2, "points": 5}'
    )
    assert list(STATE.to_json()) == [
        "face", "seats", "players", "table", "round", "starter", "turn", "phase", "winner",
    ]  # fmt: skip
    assert STATE.to_json()["phase"] == "shooting" and STATE.to_json()["turn"] == "south"
    assert json.dumps(STATE.players[0].to_json()) == (
        '{"seat": "south", "board": [0, 0, 0, 0], "in_hand": '
        '["south-1", "south-2", "south-3", "south-4"], "removed": []}'
    )
    assert json.dumps(LayoutRef("square", ("south", "north")).to_json()) == (
        '{"name": "square", "seats": ["south", "north"]}'
    )
    slide = Shot("south", 0.6, 0.01, -0.02, None, "south-2", 7)
    assert json.dumps(slide.to_json()) == (
        '{"seat": "south", "pawn": "south-2", "speed": 0.6, "angle_rad": 0.01, '
        '"offset": -0.02, "release": null, "seed": 7}'
    )
    assert Shot.from_json(slide.to_json()) == slide


def test_a_scene_file_keeps_its_format() -> None:
    scene = Scene(
        "square", ("south", "north"), "instant-home", (ScenePawn("north-1", 0.01, -0.02),)
    )
    assert json.dumps(scene.to_json()) == (
        '{"schema": 1, "layout": "square", "seats": ["south", "north"], "face": "instant-home", '
        '"pawns": [{"id": "north-1", "x": 0.01, "y": -0.02}]}'
    )
    assert Scene.from_json(json.loads(json.dumps(scene.to_json()))) == scene


def test_what_a_record_leaves_out_takes_its_default() -> None:
    short = {"id": "east-3", "x": 0.0, "y": 0.1, "status": "tipping", "points": 1}
    assert PawnRest.from_json(short) == PawnRest("east-3", "east", 0.0, 0.1, Status.TIPPING, 1)
    assert Event.from_json({"t": 0.5, "type": "settled"}) == Event(0.5, EventType.SETTLED)
    with pytest.raises(KeyError):
        Event.from_json({"type": "settled"})
    with pytest.raises(ValueError):
        Event.from_json({"t": 0.5, "type": "no such event"})


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    n: int


@dataclass(frozen=True)
class Outer:
    name: str
    colour: Colour
    inner: Inner
    many: tuple[Inner, ...] = ()
    pair: tuple[int, str] = (0, "")
    maybe: float | None = None
    tags: dict[str, int] = field(default_factory=dict)


def test_the_helper_reads_back_by_the_fields_types() -> None:
    record = Outer("a", Colour.RED, Inner(1), (Inner(2), Inner(3)), (4, "b"), 0.5, {"k": 1})
    data = records.to_json(record)
    assert data == {
        "name": "a", "colour": "red", "inner": {"n": 1}, "many": [{"n": 2}, {"n": 3}],
        "pair": [4, "b"], "maybe": 0.5, "tags": {"k": 1},
    }  # fmt: skip
    assert records.from_json(Outer, json.loads(json.dumps(data))) == record
    assert records.from_json(Outer, {**data, "maybe": None}).maybe is None
    assert records.to_json(record, rename={"name": "called"}, omit=("tags",))["called"] == "a"
    assert "tags" not in records.to_json(record, omit=("tags",))
    renamed = records.to_json(record, rename={"name": "called"})
    assert records.from_json(Outer, renamed, rename={"name": "called"}) == record
    assert records.from_json(Outer, data, name="given").name == "given"

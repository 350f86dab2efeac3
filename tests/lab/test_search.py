"""`sliders best`: the search finds the shot a player would pick, says what it is worth from fresh
samples, offers other kinds of shot, and is deterministic."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sliders.boards.scene import Scene, ScenePawn
from sliders.cli import main
from sliders.lab.search import KINDS, Settings, kind_of, search
from sliders.outcome import ENGINES
from sliders.physics import Noise

SMALL = Settings(final=16, runner_up=8)


@pytest.mark.parametrize("engine", ENGINES)
def test_without_noise_it_finds_the_bullseye(engine: str) -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    box = {"speed": "0.3:1.1", "angle": "-4:4"}
    got = search(scene, "south", box, Noise(), seed=0, settings=SMALL, engine=engine)
    assert got.best.value == 5 and got.best.lo == got.best.hi == 5
    assert got.best.statuses == {"on_target": 1.0}


def test_an_opponent_on_the_bullseye_is_taken_out() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0),))
    got = search(scene, "south", {}, Noise.level("medium"), seed=3, settings=SMALL)
    assert got.best.kind == "takeout"
    assert got.best.value > 5  # the opponent's 5 gone, and points of its own
    kinds = [got.best.kind, *(e.kind for e in got.runners_up)]
    assert len(set(kinds)) == len(kinds) and set(kinds) <= set(KINDS)
    for e in (got.best, *got.runners_up):
        assert e.lo <= e.value <= e.hi


def test_the_search_is_deterministic_and_counts_its_simulations() -> None:
    scene = Scene("square", ("south", "north"), "instant-home", ())
    a = search(scene, "south", {"angle": "-3:3"}, Noise.level("medium"), seed=5, settings=SMALL)
    b = search(scene, "south", {"angle": "-3:3"}, Noise.level("medium"), seed=5, settings=SMALL)
    assert a.best == b.best and a.simulations == b.simulations == a.history[-1][2]
    assert -3 <= a.best.shot[1] <= 3
    # the answer's samples are a plain batch study: the same table again
    from sliders.batch.work import run_chunk

    again = run_chunk(a.final_study.context, 0, a.best.n, a.final_study.design.shots)
    np.testing.assert_array_equal(again["value"], a.final_table["value"])
    assert again["value"].mean() == pytest.approx(a.best.value)


def test_kinds() -> None:
    t, f = np.ones(4, bool), np.zeros(4, bool)
    assert kind_of(t, t, f) == "takeout"
    assert kind_of(f, f, t) == "guard"
    assert kind_of(t, f, t) == "draw"  # touching a pawn is no guard
    assert kind_of(f, f, f) == "draw"


def test_the_command_prints_json_and_a_board(tmp_path, capsys) -> None:
    png = tmp_path / "b.png"
    argv = ["best", "--face", "instant-home", "--noise", "low", "--final", "12", "--json",
            "--speed", "0.4:0.9", "--board", str(png)]  # fmt: skip
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["best"]["n"] == 12 and 0.4 <= got["best"]["speed"] <= 0.9
    assert got["simulations"] > 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--speed", "0.3:1.5:4"], "no steps"),
        (["--final", "1"], "--final"),
        (["--score-board", "south=1,2"], "--score-board"),
        (["--angle", "9:3"], "backwards"),
    ],
)
def test_the_command_refuses_bad_flags_in_one_line(capsys, extra, message) -> None:
    assert main(["best", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1

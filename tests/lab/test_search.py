"""`sliders best`: the one search (the computer players' own) finds the shot a player would pick,
values it as the computer does, says what it is worth from fresh samples, offers other kinds of
shot, and is deterministic."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.ai import ComputerPlayer, make_strength
from sliders.ai.planner import Mind
from sliders.ai.value import GameSpot, study_state
from sliders.batch.study import Spec
from sliders.batch.work import pawn_columns, run_chunk
from sliders.boards import face as face_named
from sliders.cli import main
from sliders.core.outcome import ENGINES
from sliders.files.layouts import load_layout
from sliders.files.scenes import Scene, ScenePawn
from sliders.lab.search import BEST, KINDS, Settings, at_edge, kind_of, search, whole_range
from sliders.physics import Noise, PhysicsParams, at_rest, shot_limits

SMALL = Settings(
    coarse={"speed": 9, "angle": 7, "offset": 3, "release": 3},
    mind=replace(BEST, simulations=1200, first=4, samples=128),
    final=16,
    runner_up=8,
)
"""a small budget"""


@pytest.mark.parametrize("engine", ENGINES)
def test_without_noise_it_finds_the_bullseye(engine: str) -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    box = {"speed": "0.3:1.1", "angle": "-4:4"}
    got = search(scene, "south", box, Noise(), seed=0, settings=SMALL, engine=engine)
    assert got.best.progress == 5 and got.best.lo == got.best.hi == got.best.value
    assert got.best.statuses == {"on_target": 1.0}


def test_an_opponent_on_the_bullseye_is_taken_out() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0),))
    got = search(scene, "south", {}, Noise.level("medium"), seed=3, settings=SMALL, engine="exact")
    assert got.best.kind == "takeout"
    assert got.best.progress > 5  # the opponent's 5 gone, and points of its own
    kinds = [got.best.kind, *(e.kind for e in got.runners_up)]
    assert len(set(kinds)) == len(kinds) and set(kinds) <= set(KINDS)
    for e in (got.best, *got.runners_up):
        assert e.lo <= e.value <= e.hi
        assert got.best.value >= e.lo  # the winner is not beaten outright by another kind


def test_the_search_is_deterministic_and_counts_its_simulations() -> None:
    scene = Scene("square", ("south", "north"), "instant-home", ())
    box = {"angle": "-3:3"}
    a = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    b = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    assert a.best == b.best and a.simulations == b.simulations
    assert a.simulations == a.search.simulations + a.best.n + sum(e.n for e in a.runners_up)
    assert a.search.simulations <= SMALL.mind.simulations
    assert -3 <= a.best.shot[1] <= 3
    # the answer's samples are a plain batch study: the same table again
    again = run_chunk(a.final_study.context, 0, a.best.n, a.final_study.design.shots)
    np.testing.assert_array_equal(again["value"], a.final_table["value"])
    assert again["value"].mean() == pytest.approx(a.best.value)


def test_best_and_the_computer_player_choose_by_the_same_value() -> None:
    """For one scene: ``best`` searches with the computer's own search, and the shot it ranks
    first is valued by the computer's value the same way, outcome by outcome (the batch table's
    ``value`` column is the computer's chance of winning after the shot)."""
    pawns = (ScenePawn("north-1", -0.02, 0.02), ScenePawn("south-1", 0.03, -0.04))
    scene = Scene("square", ("south", "north"), "race-for-home", pawns)
    spot = GameSpot((("north", (4, 4, 1, 0)), ("south", (3, 2, 0, 0))))
    hand = Noise.level("medium")
    got = search(scene, "south", {}, hand, spot=spot, seed=2, settings=SMALL, engine="exact")
    layout, face = got.final_study.context.build()
    state = study_state(face.name, scene.seats, "south", at_rest(layout, face, pawns), spot)
    computer = ComputerPlayer("south", make_strength("medium", "fair"), seed=0)
    plan = computer.search(state, layout, face)
    assert type(plan) is type(got.search)  # one search
    assert plan.model is got.search.model  # one chance of winning
    assert plan.valuer.before == computer.win_probability(state, layout, face)
    t, order = got.final_table, (got.search.pawn, *(q.id for q in state.table))
    for r in range(len(t["value"])):
        row = [t["status"][r], t["points"][r]]
        for q in state.table:
            row += [t[c][r] for c in pawn_columns(q.id)]
        assert plan.valuer.of_codes(order, row)[0] == t["value"][r]
    assert got.best.value == pytest.approx(float(np.mean(t["value"])))


def test_the_classic_mind_is_a_setting_of_the_one_search() -> None:
    """The classic mind: the classic candidates, at most its pool, within its budget, each judged
    by its own samples; the same seed plays the same shot."""
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0),))
    layout, f = load_layout("square", ("south", "north")), face_named("race-for-home")
    state = study_state("race-for-home", scene.seats, "south", at_rest(layout, f, scene.pawns),
                        GameSpot())  # fmt: skip
    classic = make_strength("low", "classic")
    runs = []
    for _ in range(2):
        plan = ComputerPlayer("south", classic, seed=5).search(state, layout, f)
        plan.run()
        runs.append(plan)
    a, b = runs
    assert {c.kind for c in a.candidates} == {"classic"} and len(a.candidates) <= 40
    assert a.simulations == b.simulations <= classic.mind.simulations
    assert a.best() == b.best() and a.executed() == b.executed()
    assert isinstance(classic.mind, Mind) and classic.mind.bandwidth == 0


def test_the_default_box_is_every_legal_shot_and_a_narrowed_edge_is_named() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    p = PhysicsParams.default()
    whole = whole_range(scene, "south", p)
    lim = shot_limits(load_layout("square", ("south", "north")), "south", p)
    assert (whole["speed"].lo, whole["speed"].hi) == lim.bounds("speed")
    assert whole["angle"].values is not None and 0.0 in whole["angle"].values
    assert whole["angle"].hi == pytest.approx(math.degrees(lim.max_angle))
    assert (whole["offset"].lo, whole["offset"].hi) == lim.bounds("offset")
    speed = Spec("speed", 0.3, 1.5)
    assert at_edge(1.5, speed, lim.bounds("speed"), 25) == "high"
    assert at_edge(0.31, speed, lim.bounds("speed"), 25) == "low"
    assert at_edge(0.9, speed, lim.bounds("speed"), 25) is None
    assert at_edge(3.0, Spec("speed", 1, 3), lim.bounds("speed"), 25) is None  # the legal edge


def test_kinds() -> None:
    t, f = np.ones(4, bool), np.zeros(4, bool)
    assert kind_of(t, t, f) == "takeout"
    assert kind_of(f, f, t) == "guard"
    assert kind_of(t, f, t) == "draw"  # touching a pawn is no guard
    assert kind_of(f, f, f) == "draw"


def test_the_command_prints_json_and_a_board(tmp_path, capsys) -> None:
    png = tmp_path / "b.png"
    argv = ["best", "--face", "instant-home", "--noise", "low", "--final", "12", "--json",
            "--speed", "0.4:0.9", "--board", str(png), "--engine", "exact"]  # fmt: skip
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["best"]["n"] == 12 and 0.4 <= got["best"]["speed"] <= 0.9
    assert 0 <= got["best"]["value"] <= 1 and "progress" in got["best"]
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

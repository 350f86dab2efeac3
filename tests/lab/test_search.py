"""`sliders best`: the search finds the shot a player would pick, says what it is worth from fresh
samples, offers other kinds of shot, and is deterministic."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from sliders.batch import Design, Study
from sliders.batch.work import run_chunk, run_paired
from sliders.boards.scene import Scene, ScenePawn
from sliders.cli import main
from sliders.lab.search import KINDS, Candidate, Sampler, Settings, kind_of, search
from sliders.outcome import ENGINES
from sliders.physics import Noise

SMALL = Settings(
    coarse={"speed": 9, "angle": 7, "offset": 3, "release": 3},
    first=4,
    survivors=3,
    refine_around=(3, 1),
    finalists=3,
    race=64,
    final=16,
    runner_up=8,
)
"""a small budget: the tests run in the exact engine's batch path"""


@pytest.mark.parametrize("engine", ENGINES)
def test_without_noise_it_finds_the_bullseye(engine: str) -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    box = {"speed": "0.3:1.1", "angle": "-4:4"}
    got = search(scene, "south", box, Noise(), seed=0, settings=SMALL, engine=engine)
    assert got.best.value == 5 and got.best.lo == got.best.hi == 5
    assert got.best.statuses == {"on_target": 1.0}


def test_an_opponent_on_the_bullseye_is_taken_out() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0),))
    got = search(scene, "south", {}, Noise.level("medium"), seed=3, settings=SMALL, engine="exact")
    assert got.best.kind == "takeout"
    assert got.best.value > 5  # the opponent's 5 gone, and points of its own
    kinds = [got.best.kind, *(e.kind for e in got.runners_up)]
    assert len(set(kinds)) == len(kinds) and set(kinds) <= set(KINDS)
    for e in (got.best, *got.runners_up):
        assert e.lo <= e.value <= e.hi


def test_the_search_is_deterministic_and_counts_its_simulations() -> None:
    scene = Scene("square", ("south", "north"), "instant-home", ())
    box = {"angle": "-3:3"}
    a = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    b = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    assert a.best == b.best and a.simulations == b.simulations == a.history[-1][2]
    assert -3 <= a.best.shot[1] <= 3
    # the answer's samples are a plain batch study: the same table again
    from sliders.batch.work import run_chunk

    again = run_chunk(a.final_study.context, 0, a.best.n, a.final_study.design.shots)
    np.testing.assert_array_equal(again["value"], a.final_table["value"])
    assert again["value"].mean() == pytest.approx(a.best.value)


def test_batched_samples_are_the_samples_of_each_shot_alone() -> None:
    """The exact engine's batch of many candidates gives each the paired samples it gets alone,
    in either engine: the search's answer does not depend on how its samples are grouped."""
    scene = Scene("square", ("south", "north"), "instant-home", (ScenePawn("north-1", 0.01, 0),))
    study = Study.create(scene, "south", Design.grid(speed=0.6), 1, Noise.level("medium"), None,
                         4, None, "exact")  # fmt: skip
    together, alone = Sampler(study, 64), Sampler(study, 64)
    shots = [np.array([0.6, a, 0.0, study.design.shots[0][3]]) for a in (-2.0, 0.0, 2.5)]
    a = [Candidate(s.copy()) for s in shots]
    b = [Candidate(s.copy()) for s in shots]
    together.extend_all(a, 10)
    together.extend_all(a[1:], 24)
    for c in b:
        alone.extend(c, 10)
    for c in b[1:]:
        alone.extend(c, 24)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x.values, y.values)
        np.testing.assert_array_equal(x.hit, y.hit)
    assert together.simulations == alone.simulations == 10 + 24 + 24
    # and the pymunk engine's samples are the same draws (the same executed shots)
    ctx = replace(together.ctx, engine="pymunk")
    t = run_chunk(ctx, 0, 3, shots[0][None, :])
    u = run_paired(together.ctx, shots[:1], np.array([0]), np.array([3]))
    np.testing.assert_array_equal(t["exec_speed"], u["exec_speed"])
    np.testing.assert_array_equal(t["exec_angle"], u["exec_angle"])


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

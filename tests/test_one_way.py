"""One shot goes one way through the house: the turn machine (a headless game), ``sliders shot``,
a replay of the game's log and a computer player's own simulation set the same shot up the same
way (a :class:`sliders.physics.Setup`, then the engine) and bring every pawn to the same rest, bit
for bit, in each engine. The physics' result is final: nothing above it edits a pawn."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from sliders.ai import ComputerPlayer, PlanSearch
from sliders.ai.player import classic
from sliders.cli import main
from sliders.core.outcome import ShotResult
from sliders.files.scenes import Scene, ScenePawn
from sliders.game import HeadlessGame
from sliders.game.saves import load_replay, save_game
from sliders.physics import Setup, Shot, Shots, simulate, simulate_many, start
from sliders.rules import ShotStep

ENGINES = ("exact", "pymunk")
SECOND = Shot.from_degrees("north", 0.7, 1.5, offset=0.01)
"""the shot compared: north's first pawn into south's, waiting near the middle"""


def _where(result: ShotResult) -> dict[str, tuple[float, float]]:
    return {p.id: (p.x, p.y) for p in result.pawns}


@pytest.fixture(scope="module", params=ENGINES)
def game(request):
    """A two-shot game in the turn machine: south places a pawn, north's shot hits it."""
    g = HeadlessGame("race-for-home", "square", ("south", "north"), 5, engine=request.param)
    g.shoot(Shot("south", 0.62))
    before = g.state.table
    played = g.shoot(SECOND)
    assert played.shot == dataclasses.replace(SECOND, pawn="north-1")  # not moved to fit
    step = g.turns.game.steps[-1]
    assert isinstance(step, ShotStep) and step.slide is not None
    assert any(e.type == "contact" for e in step.result.events)
    return g, before, step


def test_the_log_keeps_the_shot_with_its_pawn_and_seed(game):
    g, _, step = game
    assert step.slide == dataclasses.replace(SECOND, pawn="north-1", seed=step.slide.seed)
    assert step.slide.seed is not None and step.result.engine == g.engine


def test_sliders_shot_gives_the_turn_machines_result(game, tmp_path, capsys):
    g, before, step = game
    scene = tmp_path / "table.json"
    pawns = tuple(ScenePawn(p.id, p.x, p.y) for p in before)
    Scene("square", ("south", "north"), "race-for-home", pawns).save(str(scene))
    argv = ["shot", "--scene", str(scene), "--seat", "north", "--speed", "0.7", "--angle", "1.5"]
    argv += ["--offset", "0.01", "--seed", str(step.slide.seed), "--engine", g.engine, "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {p["id"]: (p["x"], p["y"]) for p in out["pawns"]} == _where(step.result)
    assert ShotResult.from_json(out) == step.result


def test_a_computers_simulation_gives_the_turn_machines_result(game):
    g, before, step = game
    state = g.turns.game.states[-2]
    search = ComputerPlayer("north", classic("easy"), 1).search(
        state, g.layout, g.face, g.params, g.engine
    )
    # the computer plans in the exact engine whatever the game's engine: the same set-up else
    assert isinstance(search, PlanSearch)
    assert search.setup == dataclasses.replace(g.turns.setup, engine="exact")
    mine = simulate(search.setup, before, step.slide)
    assert mine == simulate(dataclasses.replace(g.turns.setup, engine="exact"), before, step.slide)
    if g.engine == "exact":
        assert mine == step.result and _where(mine) == _where(step.result)


def test_a_stepped_simulation_gives_the_same_result(game):
    """The window and a replay step the shot frame by frame; the result is the same."""
    g, before, step = game
    sim = start(g.turns.setup, before, step.slide)
    while sim.moving:
        sim.step()
    assert _where(sim.result()) == _where(step.result) and sim.result() == step.result


def test_a_replay_re_simulates_the_logged_shot(game, tmp_path):
    pytest.importorskip("pygame")
    from sliders.scenes.app import App
    from sliders.scenes.replay import ReplayScreen

    g, _, step = game
    save_game(g.turns.game, tmp_path / "game.json")
    app = App((640, 480), sound=False, think_budget=None)
    try:
        replay = ReplayScreen(app, load_replay(tmp_path / "game.json"))
        app.show(replay)
        for _ in range(10_000):
            if replay.finished:
                break
            app.step(0.25, draw=False)
    finally:
        app.close()
    index = len(g.turns.game.steps) - 1
    assert _where(replay.resimulated[index]) == _where(step.result)
    assert replay.resimulated[index] == step.result


def test_a_batch_row_gives_the_turn_machines_result(game):
    """:func:`~sliders.physics.simulate_many` (the exact engine's compiled batch path, the
    pymunk engine's loop) gives the same row."""
    g, before, step = game
    s = step.slide
    many = Shots("north", np.array([s.speed]), np.array([s.angle]), np.array([s.offset]))
    many = dataclasses.replace(many, seeds=np.array([s.seed]), pawn=s.pawn)
    rows = simulate_many(g.turns.setup, before, many)
    assert rows.order == tuple(p.id for p in step.result.pawns)
    assert dict(zip(rows.order, zip(rows.x[0], rows.y[0], strict=True), strict=True)) == _where(
        step.result
    )


def test_a_result_is_final() -> None:
    """Nothing above the physics edits a result: its records are frozen."""
    layout, face = Scene("square", ("south", "north"), "race-for-home").build()
    result = simulate(Setup(layout, face), (), Shot("south", 0.6))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.pawns[0].x = 0.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.settled = False  # type: ignore[misc]
    assert isinstance(result.pawns, tuple) and isinstance(result.events, tuple)

"""The log a hosted game writes after every step (:class:`~sliders.game.saves.LogWriter`): the
same text as the game saved whole, at every step, with only the new step encoded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sliders.core.errors import UserError
from sliders.game import HeadlessGame
from sliders.game.saves import LogWriter, load_replay, replay_layout, save_game
from sliders.rules import Game
from sliders.tournament.players import make_player


def test_the_log_written_step_by_step_is_the_game_saved_whole(tmp_path: Path) -> None:
    g = HeadlessGame("instant-sorry", "square", ("south", "north"), 4, max_rounds=1)
    game = g.turns.game
    game.hands = {"south": "normal"}
    path = tmp_path / "game.json"
    writer = LogWriter(path, game)
    whole = tmp_path / "whole.json"

    def saved() -> str:
        save_game(game, whole)
        return whole.read_text()

    assert writer.text() == saved()

    players = {s: make_player("centre:low", s, np.random.default_rng(1)) for s in g.seats}
    while not g.over:
        g.step(players)
        writer.add(game.steps[-1].to_json())
        assert path.read_text() == saved()
        assert json.loads(path.read_text()) == game.to_json()
        lines = path.read_text().splitlines()  # a step a line, after the fields
        assert lines[lines.index('  "steps": [') + 1 :] == [
            f"    {json.dumps(s.to_json())}," for s in game.steps[:-1]
        ] + [f"    {json.dumps(game.steps[-1].to_json())}", "  ]", "}"]
    assert isinstance(load_replay(path), Game) and len(load_replay(path).steps) == 9
    resumed = LogWriter(path, load_replay(path))  # a resumed game: its steps encoded at once
    assert resumed.text() == path.read_text()


def test_a_game_on_a_layout_file_keeps_the_files_text_and_replays_without_it(
    tmp_path: Path,
) -> None:
    layout = tmp_path / "mine.toml"
    layout.write_text((Path(__file__).parents[2] / "docs" / "layouts" / "example.toml").read_text())
    g = HeadlessGame("race-for-home", str(layout), ("south", "north"), 3, max_rounds=1)
    players = {s: make_player("centre:low", s, np.random.default_rng(1)) for s in g.seats}
    while not g.over:
        g.step(players)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.turns.game.to_json()))
    assert json.loads(path.read_text())["layout"]["text"] == layout.read_text()
    table = g.turns.layout
    layout.write_text("not a layout")  # changed or gone: the log replays on the table played
    assert replay_layout(load_replay(path)) == table

    data = json.loads(path.read_text())
    data["layout"]["text"] = "[["
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match="as the game log keeps it"):
        load_replay(path)


def test_a_game_on_a_built_in_layout_logs_its_name_alone() -> None:
    g = HeadlessGame("race-for-home", "square", ("south", "north"), 3)
    assert g.turns.game.to_json()["layout"] == {"name": "square", "seats": ["south", "north"]}

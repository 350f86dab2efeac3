"""The log a hosted game writes after every step (:class:`~sliders.game.saves.LogWriter`): the
same text as the game saved whole, at every step, with only the new step encoded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sliders.game import HeadlessGame
from sliders.game.saves import LogWriter, load_replay
from sliders.rules import Game
from sliders.tournament.players import make_player


def test_the_log_written_step_by_step_is_the_game_saved_whole(tmp_path: Path) -> None:
    g = HeadlessGame("instant-sorry", "square", ("south", "north"), 4, max_rounds=1)
    game = g.turns.game
    game.hands = {"south": "normal"}
    path = tmp_path / "game.json"
    writer = LogWriter(path, game)
    assert writer.text() == json.dumps(game.to_json(), indent=2) + "\n"

    players = {s: make_player("centre:low", s, np.random.default_rng(1)) for s in g.seats}
    while not g.over:
        g.step(players)
        writer.add(game.steps[-1].to_json())
        assert path.read_text() == json.dumps(game.to_json(), indent=2) + "\n"
    assert isinstance(load_replay(path), Game) and len(load_replay(path).steps) == 9
    resumed = LogWriter(path, load_replay(path))  # a resumed game: its steps encoded at once
    assert resumed.text() == path.read_text()

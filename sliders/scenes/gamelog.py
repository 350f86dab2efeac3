"""Saved games, without pygame: the rules engine's JSON log with the layout it was played on,
written whole or not at all, read back and replayed; and the per-round history shown at the end."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sliders.errors import UserError
from sliders.fileio import read_json, write_json_atomic
from sliders.rules import Game, ScoreStep
from sliders.scenes.config import MatchConfig


def game_log(game: Game, config: MatchConfig) -> dict[str, Any]:
    """The rules engine's JSON log, with the layout it was played on."""
    data = game.to_json()
    data["layout"] = config.layout
    return data


def save_game(game: Game, config: MatchConfig, path: str | os.PathLike[str]) -> Path:
    """Write the game log to ``path`` whole or not at all."""
    write_json_atomic(path, game_log(game, config))
    return Path(path)


def load_replay(path: str | os.PathLike[str]) -> tuple[Game, str]:
    """The game a log file replays to, and the layout it was played on (default: square)."""
    data: Any = read_json(path, "game log")
    try:
        game = Game.from_json(data)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    layout = data.get("layout", "square") if isinstance(data, dict) else "square"
    if not isinstance(layout, str):
        raise UserError(f"{path}: the layout must be a name")
    return game, layout


def round_history(game: Game) -> list[tuple[str, dict[str, tuple[int, ...]]]]:
    """(label, each seat's score board) after every scored round, and at an instant win."""
    rows: list[tuple[str, dict[str, tuple[int, ...]]]] = []
    states = game.states
    for i, step in enumerate(game.steps):
        before, after = states[i], states[i + 1]
        if isinstance(step, ScoreStep):
            label = f"round {before.round}"
        elif after.finished:
            label = f"round {before.round} (instant)"
        else:
            continue
        rows.append((label, {s: after.player(s).board for s in after.seats}))
    return rows

"""Saved games, without pygame: the rules engine's JSON log (it records the layout and every
shot as slid), written whole or not at all, read back and replayed; and the per-round history
shown at the end."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from sliders.boards import Layout
from sliders.core.errors import UserError
from sliders.core.fileio import lock, write_text_atomic
from sliders.files.layouts import load_layout
from sliders.game.config import DEFAULT_STRENGTH, MatchConfig, SeatSpec
from sliders.physics import PhysicsParams
from sliders.rules import Game, LayoutRef, ScoreStep, log_head, log_text, step_text

SAVED_PATTERN = "sliders-game-*.json"
"""the names *Save game* gives a game in the window, unless told where (``--save``)"""
DEFAULT_LAYOUT = "square"
"""the layout of a log that names none (a scorekeeper's): the physical game's usual setup"""


def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the game log to ``path`` whole or not at all; refused while another session (a
    scorekeeper) has that log open for writing."""
    with lock(path, "game log"):
        game.save(path)
    return Path(path)


def save_note(game: Game, path: str | os.PathLike[str] | None) -> tuple[Path | None, str]:
    """*Save game* in the window (the pause menu, the results screen): the log written to
    ``path`` (None: ``sliders-game-DATE.json`` in the current folder), and the line the window
    shows: where it went, or why it did not."""
    target = Path(path) if path else Path.cwd() / time.strftime("sliders-game-%Y%m%d-%H%M%S.json")
    try:
        saved = save_game(game, target)
    except (UserError, OSError) as exc:
        return None, f"Not saved: {exc}"
    return saved, f"Saved to {saved}"


class LogWriter:
    """A game's log at ``path`` written whole after every step without encoding the steps
    already written again (a long game's log costs the same to write at its last step as at its
    first, but for the bytes): the same text :func:`save_game` writes. ``game`` is the game as
    it stands; :meth:`add` each step's JSON as the log records it, once it is taken."""

    def __init__(self, path: str | os.PathLike[str], game: Game) -> None:
        self.path = Path(path)
        head = game.to_json()
        steps = head.pop("steps")  # the steps are the log's last key
        self._head = log_head(head)
        self._steps = [step_text(s) for s in steps]

    def text(self) -> str:
        return log_text(self._head, self._steps)

    def add(self, step: dict[str, Any]) -> None:
        """Write the log with ``step`` after the steps before it (whole or not at all). A write
        that fails keeps the step: the next one writes every step."""
        self._steps.append(step_text(step))
        self.write()

    def write(self) -> None:
        """Write the log with every step added so far (whole or not at all)."""
        with lock(self.path, "game log"):
            write_text_atomic(self.path, self.text())


def load_replay(path: str | os.PathLike[str]) -> Game:
    """The game a log file replays to; its layout must load (see :func:`replay_layout`)."""
    game = Game.load(path)
    try:
        replay_layout(game)
        params_of(game)
    except UserError as exc:
        raise UserError(f"game log {path}: {exc}") from None
    return game


def resumed_config(game: Game, hand: str, seats: tuple[SeatSpec, ...] | None = None) -> MatchConfig:
    """Who plays a saved game taken up again: ``seats`` if given (the same seats as the log's),
    else a person in each seat the log gives a person's hand and the computer in the others;
    every person with ``hand``. Refused in one line when the game is over."""
    if game.state.winner is not None:
        raise UserError("the game is over (--replay plays it back)")
    if seats is not None:
        if tuple(s.seat for s in seats) != tuple(game.seats):
            raise UserError(f"--seats: the game is played by {', '.join(game.seats)}")
    else:
        seats = tuple(
            SeatSpec(s) if s in game.hands else SeatSpec(s, "cpu", DEFAULT_STRENGTH)
            for s in game.seats
        )
    ref = layout_of(game)
    return MatchConfig(
        game.face, ref.name, seats, starter=game.starter, hand=hand, house=game.house
    )


def saved_games(folder: str | os.PathLike[str], also: Path | None = None) -> list[Path]:
    """The games *Save game* wrote in ``folder`` (``sliders-game-*.json``) and ``also`` (the
    window's ``--save`` file) if it is there, the newest first."""
    found = {p for p in Path(folder).glob(SAVED_PATTERN) if p.is_file()}
    if also is not None and also.is_file():
        found.add(also)
    return sorted(found, key=lambda p: (-p.stat().st_mtime, p.name))


def layout_of(game: Game) -> LayoutRef:
    """The layout a game was played on; a log that names none was played on the square."""
    return game.layout or LayoutRef(DEFAULT_LAYOUT, game.seats)


def params_of(game: Game) -> PhysicsParams:
    """The physics parameters a game was played with: the defaults, changed as its log records
    (a log that records none was played with the defaults)."""
    try:
        return PhysicsParams.from_json(dict(game.params))
    except (UserError, TypeError) as exc:
        raise UserError(f"params: {exc}") from None


def replay_layout(game: Game) -> Layout:
    """The layout built as the game was played on it."""
    ref = layout_of(game)
    return load_layout(ref.name, ref.seats or game.seats, ref.text)


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

"""Builders shared by the rules tests: states in any position, shots that keep the table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import SimpleNamespace

import pytest

from sliders.core.outcome import PawnRest, ShotResult, Status, pawn_seat
from sliders.rules import GameState, Phase, apply_shot, new_game


def rest(pid: str, status: Status, points: int = 0, choices: tuple[int, ...] = ()) -> PawnRest:
    if status is Status.TIPPING and not points:
        points = 1
    return PawnRest(pid, pawn_seat(pid), 0.0, 0.0, status, points, choices)


def position(
    face: str,
    seats: tuple[str, ...],
    boards: Mapping[str, tuple[int, ...]] | None = None,
    starter: str | None = None,
) -> GameState:
    """A new round with the given score boards."""
    state = new_game(face, seats, starter)
    for seat, board in (boards or {}).items():
        state = state.with_player(replace(state.player(seat), board=tuple(board)))
    return state


def shot(
    state: GameState,
    status: Status,
    points: int = 0,
    choices: tuple[int, ...] = (),
    others: Mapping[str, PawnRest] | None = None,
    shooter: str | None = None,
) -> ShotResult:
    """The player to move slides ``shooter`` (default: next in hand); the table stays put except
    for ``others``."""
    pid = shooter or state.next_pawn() or "south-1"
    assert pid is not None
    moved = dict(others or {})
    pawns = [rest(pid, status, points, choices)] + [moved.get(p.id, p) for p in state.table]
    return ShotResult(state.face, pid, tuple(pawns))


def play(state: GameState, status: Status, points: int = 0, choices: tuple[int, ...] = ()):
    """Apply one shot of the player to move; returns (state, happenings)."""
    return apply_shot(state, shot(state, status, points, choices))


def finish_round(state: GameState, plan: Mapping[str, list[tuple[Status, int, tuple[int, ...]]]]):
    """Play out the round: each seat's remaining shots from ``plan`` (default: own track)."""
    queues = {s: list(v) for s, v in plan.items()}
    while state.phase is Phase.SHOOTING:
        q = queues.get(state.turn or "", [])
        status, points, choices = q.pop(0) if q else (Status.OWN_TRACK, 0, ())
        state, _ = play(state, status, points, choices)
    return state


@pytest.fixture
def kit() -> SimpleNamespace:
    """The builders above, for tests (conftest modules are not importable by name)."""
    return SimpleNamespace(rest=rest, position=position, shot=shot, play=play, finish=finish_round)

"""A game with its whole history, kept as a log of shots and choices that replays to its state.

The JSON form (schema 1)::

    {"schema": 1, "kind": "sorry-sliders-game", "face": "race-for-home",
     "seats": ["south", "west"], "starter": "south",
     "steps": [{"shot": <ShotResult.to_json()>, "home": {"south-1": 0}},
               {"score": {"south": [{"pawn": "south-1", "scoring": 0, "points": 3}], "west": []}}]}

Every step records the choices actually made (the Instant Home pawn, each seat's assignment),
defaults included, so a log replays to the same state even if the defaults change one day.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sliders.errors import UserError
from sliders.fileio import read_json, write_json_atomic
from sliders.outcome import ShotResult

from .engine import apply_shot, default_assignments, score_round
from .happenings import Happening, InstantHome
from .scoring import Assignment, Move, check_assignment
from .state import GameState, Phase, new_game

SCHEMA = 1
KIND = "sorry-sliders-game"


@dataclass(frozen=True, slots=True)
class ShotStep:
    """A shot, with the scoring pawn each Instant Home hole sent HOME."""

    result: ShotResult
    home: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"shot": self.result.to_json(), "home": dict(self.home)}


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """The end of a round, with every seat's assignment."""

    assignments: Mapping[str, Assignment]

    def to_json(self) -> dict[str, Any]:
        return {
            "score": {s: [m.to_json() for m in a] for s, a in self.assignments.items()},
        }


Step = ShotStep | ScoreStep


class Game:
    """A game in progress: its setup, the steps taken and the state after each.

    ``shoot`` and ``score`` apply a step and return what happened; ``undo`` takes back the last.
    """

    def __init__(self, face: str, seats: Sequence[str], starter: str | None = None) -> None:
        first = new_game(face, seats, starter)
        self.face = first.face
        self.seats = first.seats
        self.starter = first.starter
        self.steps: list[Step] = []
        self._states: list[GameState] = [first]

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """The state at the start and after each step."""
        return tuple(self._states)

    def shoot(self, result: ShotResult, home: Mapping[str, int] | None = None) -> list[Happening]:
        """Apply one shot (see :func:`sliders.rules.apply_shot`)."""
        state, happened = apply_shot(self.state, result, home)
        chosen = {h.cause: h.scoring for h in happened if isinstance(h, InstantHome)}
        self._push(ShotStep(result, {k: v for k, v in chosen.items() if v is not None}), state)
        return happened

    def score(self, assignments: Mapping[str, Sequence[Move]] | None = None) -> list[Happening]:
        """Score the round (see :func:`sliders.rules.score_round`); seats left out take the
        default assignment."""
        full = default_assignments(self.state) if self.state.phase is Phase.SCORING else {}
        for seat, moves in (assignments or {}).items():
            full[seat] = check_assignment(self.state, seat, moves)
        state, happened = score_round(self.state, full)
        self._push(ScoreStep(full), state)
        return happened

    def undo(self) -> Step | None:
        """Take back the last step; None when there is nothing to take back."""
        if not self.steps:
            return None
        self._states.pop()
        return self.steps.pop()

    def _push(self, step: Step, state: GameState) -> None:
        self.steps.append(step)
        self._states.append(state)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "kind": KIND,
            "face": self.face,
            "seats": list(self.seats),
            "starter": self.starter,
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Replay a logged game; anything wrong is a :class:`UserError` of one line."""
        if not isinstance(data, dict):
            raise UserError("not a game log (expected a JSON object)")
        schema = data.get("schema")
        if not isinstance(schema, int):
            raise UserError("not a game log (no schema number)")
        if schema > SCHEMA:
            raise UserError(
                f"game log has schema {schema}, newer than this sliders reads ({SCHEMA}); "
                "upgrade sliders"
            )
        if data.get("kind", KIND) != KIND:
            raise UserError(f"not a game log (kind {data.get('kind')!r})")
        try:
            game = cls(str(data["face"]), list(data["seats"]), data.get("starter"))
            steps = list(data["steps"])
        except UserError as exc:
            raise UserError(f"game log setup: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"game log setup is broken ({_what(exc)})") from None
        for n, step in enumerate(steps, 1):
            try:
                if "shot" in step:
                    home = {str(k): int(v) for k, v in dict(step.get("home", {})).items()}
                    game.shoot(ShotResult.from_json(step["shot"]), home)
                elif "score" in step:
                    game.score(
                        {
                            str(seat): tuple(Move.from_json(m) for m in moves)
                            for seat, moves in dict(step["score"]).items()
                        }
                    )
                else:
                    raise UserError("neither a shot nor a score")
            except UserError as exc:
                raise UserError(f"game log step {n}: {exc}") from None
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise UserError(f"game log step {n} is broken ({_what(exc)})") from None
        return game

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the log to ``path`` atomically."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Game:
        """Read and replay the log at ``path``."""
        data = read_json(path, "game log")
        try:
            return cls.from_json(data)
        except UserError as exc:
            raise UserError(f"{path}: {exc}") from None


def _what(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

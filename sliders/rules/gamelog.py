"""A game with its whole history, kept as a log of shots and choices that replays to its state.

The JSON form (schema 2)::

    {"schema": 2, "kind": "sorry-sliders-game", "face": "instant-home",
     "seats": ["south", "north"], "starter": "south",
     "layout": {"name": "square", "seats": ["south", "north"]},
     "steps": [{"shot": <ShotResult.to_json()>, "home": {"south-1": 0},
                "slide": {"seat": "south", "pawn": "south-1", "speed": 0.61, "angle_rad": 0.02,
                          "offset": -0.01, "release": 0.12, "seed": 8471}},
               {"score": {"south": [{"pawn": "south-1", "scoring": 0, "points": 3}],
                          "north": []}}]}

Every step records the choices actually made (the Instant Home pawn, each seat's assignment),
defaults included, so a log replays to the same state even if the defaults change one day.

Two fields are optional: ``layout`` (:class:`LayoutRef`: the layout the game was played on, a
built-in name or a layout file's path as given, and the seats it was built for; a scorekeeper
for the physical game leaves it out) and each shot step's ``slide`` (the
:class:`~sliders.core.outcome.Shot` as slid, with its pawn and seed, for a replay to re-run the
physics). Schema 1 logs (no slides; no layout, or a layout name alone) still load.

An optional ``hands`` (``{"south": "exact"}``) records the hand of each person who played in the
window: ``exact`` (their own, nothing added) or the handicap they chose (a computer's execution
noise added to their slides; the slides logged are the shots as slid); a log without it records
no one playing in person (or was written before people's hands were kept).
An optional ``params`` (``{"mu_roll": 0.06}``) records the physics parameters the game was
played with that differ from the defaults (``--params FILE``, ``--param NAME=VALUE``), as each
shot records its engine; a log without it was played with the defaults.
An optional ``hints`` (``[{"step": 4, "slide": {"seat": "south", ...}}]``) records each hint a
person asked for in a game that allowed them (``sliders play --hints``): the step it was asked
before and the shot suggested. A replay ignores it; a log without it had none.

An optional ``house`` (``["no-knock-penalty"]``) names the house rules the game was played
with (:mod:`sliders.rules.house`); a replay applies them, and a log without it was played by
the rulebook. An older sliders refuses such a log (an unknown key) rather than misread it.

Schema 3 adds ``boards`` and ``round``: a game resumed from score boards in progress
(``{"south": [0, 0, 2, 6], ...}``, every seat's, and the number of the round it resumed at).
Only such a game is written as schema 3; every other log stays schema 2, so an older sliders
still reads it (and refuses, rather than misreads, a resumed one).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sliders.core import checks, records
from sliders.core.errors import UserError
from sliders.core.fileio import LOG_READ_LIMIT, read_json, write_text_atomic
from sliders.core.outcome import (
    ENGINES,
    FACES,
    PAWNS_PER_PLAYER,
    SEATS,
    EventType,
    Shot,
    ShotResult,
    Status,
    pawn_seat,
)

from .engine import apply_shot, round_assignments, score_assigned
from .happenings import Happening, InstantHome
from .house import HOUSE_RULES
from .scoring import Assignment, Move
from .state import START, GameState, RulesError, new_game, parse_seat, pawn_label

SCHEMA = 3
"""The newest schema this sliders writes; it reads every schema up to this one."""
PLAIN_SCHEMA = 2
"""The schema of a game that started at round 1 with every scoring pawn on START."""
KIND = "sorry-sliders-game"
MAX_STEPS = 100_000
"""the most steps a game log may hold (a game of 100 rounds of four players is 3,300)"""
MAX_EVENTS = 100_000
"""the most events one logged shot may hold"""
MAX_POINTS = 6
"""the most points a roller pawn scores (the 4/5/6 circle); HOME is 6 spaces from START too"""


@dataclass(frozen=True, slots=True)
class LayoutRef:
    """The layout a game was played on: a built-in layout's name or a layout file's path, as it
    was given, the seats the layout was built for (in turn order), and a layout file's text (so
    that the game replays, and a networked game is joined, where the file is not)."""

    name: str
    seats: tuple[str, ...]
    text: str | None = None
    """the layout file's text; None for a built-in layout"""

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self, omit=() if self.text is not None else ("text",))

    @classmethod
    def from_json(cls, data: Any, seats: Sequence[str] = ()) -> LayoutRef:
        """From ``{"name": ..., "seats": [...]}``, or a name alone (schema 1); ``seats`` are the
        game's, used when the log names none."""
        if isinstance(data, str):
            data = {"name": data}
        if not isinstance(data, dict):
            raise RulesError('the layout must be a name or {"name": ..., "seats": [...]}')
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise RulesError("the layout has no name")
        listed = data.get("seats") or list(seats)
        if not isinstance(listed, list) or not all(isinstance(s, str) for s in listed):
            raise RulesError("the layout's seats must be a list of seat names")
        text = data.get("text")
        if text is not None and not isinstance(text, str):
            raise RulesError("the layout's text must be the text of a layout file")
        return cls(name, tuple(parse_seat(s) for s in listed), text)


@dataclass(frozen=True, slots=True)
class ShotStep:
    """A shot, with the scoring pawn each Instant Home hole sent HOME, and the shot as slid
    when it is known (a game played in the window knows it; a scorekeeper does not)."""

    result: ShotResult
    home: Mapping[str, int] = field(default_factory=dict)
    slide: Shot | None = None
    by: str | None = None
    """who slid it when its seat's player did not (:data:`SLID_BY`: a networked game's
    stand-in computer, or a shot lost to the clock or to a bad message); None: its player"""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"shot": self.result.to_json(), "home": dict(self.home)}
        if self.slide is not None:
            out["slide"] = self.slide.to_json()
        if self.by is not None:
            out["by"] = self.by
        return out


@dataclass(frozen=True, slots=True)
class ScoreStep:
    """The end of a round, with every seat's assignment."""

    assignments: Mapping[str, Assignment]
    by: Mapping[str, str] = field(default_factory=dict)
    """the seats whose assignment is the rules' default because their player did not choose
    (:data:`CHOSEN_BY`: out of time, or away), in a game played over the network"""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "score": {s: [m.to_json() for m in a] for s, a in self.assignments.items()},
        }
        if self.by:
            out["by"] = dict(self.by)
        return out


Step = ShotStep | ScoreStep

SLID_BY = ("stand-in", "clock", "refused")
"""a shot step's ``by``: a computer took an absent player's turn (``stand-in``); the player's
shot was lost, its pawn slid over the foul line, for want of a shot in time (``clock``) or for
a message the game refused (``refused``)"""
CHOSEN_BY = ("clock", "away")
"""a score step's ``by`` of a seat: its player did not choose in time (``clock``) or was not
there to choose (``away``), and the rules' default was taken"""


class Game:
    """A game in progress: its setup, the steps taken and the state after each.

    ``shoot`` and ``score`` apply a step and return what happened; ``undo`` takes back the last.
    ``layout`` is the layout played on (a name or path: built for the game's seats), or None.
    ``boards`` and ``round`` resume a game in progress (see :func:`sliders.rules.new_game`).
    """

    def __init__(
        self,
        face: str,
        seats: Sequence[str],
        starter: str | None = None,
        layout: LayoutRef | str | None = None,
        boards: Mapping[str, Sequence[int]] | None = None,
        round: int = 1,
        house: Sequence[str] = (),
    ) -> None:
        first = new_game(face, seats, starter, boards, round, house)
        self.face = first.face
        self.seats = first.seats
        self.starter = first.starter
        self.boards = {p.seat: p.board for p in first.players}
        self.round = first.round
        self.house = first.house
        """the house rules played (:mod:`sliders.rules.house`)"""
        self.layout = LayoutRef(layout, first.seats) if isinstance(layout, str) else layout
        self.steps: list[Step] = []
        self._states: list[GameState] = [first]
        self.hands: dict[str, str] = {}
        """the hand each person slid with (seat: ``steady``, ``normal`` ...), when known"""
        self.params: dict[str, float] = {}
        """the physics parameters played with that differ from the defaults (name: value)"""
        self.hints: list[tuple[int, Shot]] = []
        """each hint a person asked for: (the step it was asked before, the shot suggested)"""

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """The state at the start and after each step."""
        return tuple(self._states)

    def shoot(
        self,
        result: ShotResult,
        home: Mapping[str, int] | None = None,
        slide: Shot | None = None,
        by: str | None = None,
    ) -> list[Happening]:
        """Apply one shot (see :func:`sliders.rules.apply_shot`); ``slide`` is the shot as slid,
        kept in the log when given; ``by`` who slid it when not its player (:data:`SLID_BY`)."""
        if by is not None and by not in SLID_BY:
            raise RulesError(f"a shot slid by {by!r}: expected one of {', '.join(SLID_BY)}")
        if slide is not None and (slide.pawn != result.shooter or slide.seat != result.seat):
            raise RulesError(
                f"the slide is of {pawn_label(slide.pawn) if slide.pawn else 'no pawn'}, "
                f"the result of {pawn_label(result.shooter)}"
            )
        state, happened = apply_shot(self.state, result, home)
        chosen = {h.cause: h.scoring for h in happened if isinstance(h, InstantHome)}
        step = ShotStep(result, {k: v for k, v in chosen.items() if v is not None}, slide, by)
        self._push(step, state)
        return happened

    def score(
        self,
        assignments: Mapping[str, Sequence[Move]] | None = None,
        by: Mapping[str, str] | None = None,
    ) -> list[Happening]:
        """Score the round (see :func:`sliders.rules.score_round`); seats left out take the
        default assignment. ``by``: the seats whose player did not choose, and why
        (:data:`CHOSEN_BY`), kept in the log."""
        for seat, why in (by or {}).items():
            if why not in CHOSEN_BY or seat not in self.seats:
                raise RulesError(f"{seat!r} did not choose for {why!r}: not a seat and a reason")
        full = round_assignments(self.state, assignments)
        state, happened = score_assigned(self.state, full)
        self._push(ScoreStep(full, dict(by or {})), state)
        return happened

    def undo(self) -> Step | None:
        """Take back the last step; None when there is nothing to take back."""
        if not self.steps:
            return None
        self._states.pop()
        return self.steps.pop()

    @property
    def resumed(self) -> bool:
        """True when the game started in progress: past round 1, or off START."""
        return self.round != 1 or any(sq != START for b in self.boards.values() for sq in b)

    def _push(self, step: Step, state: GameState) -> None:
        self.steps.append(step)
        self._states.append(state)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema": SCHEMA if self.resumed else PLAIN_SCHEMA,
            "kind": KIND,
            "face": self.face,
            "seats": list(self.seats),
            "starter": self.starter,
        }
        if self.resumed:
            out["boards"] = {seat: list(board) for seat, board in self.boards.items()}
            out["round"] = self.round
        if self.house:
            out["house"] = list(self.house)
        if self.layout is not None:
            out["layout"] = self.layout.to_json()
        if self.hands:
            out["hands"] = dict(self.hands)
        if self.params:
            out["params"] = dict(self.params)
        if self.hints:
            out["hints"] = [{"step": step, "slide": shot.to_json()} for step, shot in self.hints]
        out["steps"] = [s.to_json() for s in self.steps]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Replay a logged game; anything wrong is a :class:`UserError` of one line."""
        check_log(data)
        try:
            boards = data.get("boards")
            if boards is not None and not isinstance(boards, dict):
                raise UserError('the boards must be {"south": [0, 0, 2, 6], ...}')
            game = cls(
                str(data["face"]),
                list(data["seats"]),
                data.get("starter"),
                boards=boards,
                round=data.get("round", 1),
                house=list(data.get("house") or []),
            )
            if data.get("layout") is not None:
                game.layout = LayoutRef.from_json(data["layout"], game.seats)
            game.hands = {str(k): str(v) for k, v in dict(data.get("hands") or {}).items()}
            game.params = dict(data.get("params") or {})
            game.hints = [
                (int(h["step"]), Shot.from_json(h["slide"])) for h in data.get("hints") or []
            ]
            steps = list(data["steps"])
        except UserError as exc:
            raise UserError(f"game log setup: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"game log setup is broken ({_what(exc)})") from None
        for n, step in enumerate(steps, 1):
            game.take(step, n, checked=True)
        return game

    def take(self, step: Any, n: int | None = None, checked: bool = False) -> list[Happening]:
        """Apply one step as a log records it (``{"shot": ...}`` or ``{"score": ...}``), its
        shape checked first unless ``checked``; ``n`` numbers it in an error's line."""
        num = len(self.steps) + 1 if n is None else n
        if not checked:
            _check_step(step, f"step {num}")
        where = f"game log step {num}"
        try:
            if "shot" in step:
                home = {str(k): int(v) for k, v in dict(step.get("home", {})).items()}
                slide = step.get("slide")
                return self.shoot(
                    ShotResult.from_json(step["shot"]),
                    home,
                    None if slide is None else Shot.from_json(slide),
                    step.get("by"),
                )
            if "score" in step:
                return self.score(
                    {
                        str(seat): tuple(Move.from_json(m) for m in moves)
                        for seat, moves in dict(step["score"]).items()
                    },
                    {str(k): str(v) for k, v in dict(step.get("by", {})).items()},
                )
            raise UserError("neither a shot nor a score")
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise UserError(f"{where} is broken ({_what(exc)})") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the log to ``path`` atomically (:meth:`text`)."""
        write_text_atomic(path, self.text())

    def text(self) -> str:
        """The log's text as :meth:`save` writes it (:func:`log_text`)."""
        data = self.to_json()
        steps = data.pop("steps")
        return log_text(log_head(data), [step_text(s) for s in steps])

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Game:
        """Read and replay the log at ``path``."""
        data = read_json(path, "game log", LOG_READ_LIMIT)
        try:
            return cls.from_json(data)
        except UserError as exc:
            raise UserError(f"game log {path}: {exc}") from None


def log_head(data: Mapping[str, Any]) -> str:
    """The text of a game log's fields but its steps (``data``), as :func:`log_text` starts."""
    text = json.dumps(data, indent=2, allow_nan=False)
    return text[: text.rindex("\n}")]


def step_text(step: Any) -> str:
    """One step of a game log as the log writes it: on one line."""
    try:
        return json.dumps(step, allow_nan=False)
    except ValueError:
        raise UserError("a game step holds a value that is not a finite number") from None


def log_text(head: str, steps: Sequence[str]) -> str:
    """A game log's text: its fields (``head``, :func:`log_head`) one to a line, then its steps
    (each from :func:`step_text`) one to a line, so a log grows by a line a step and a whole
    step is written by the fast encoder."""
    if not steps:
        return f'{head},\n  "steps": []\n}}\n'
    return f'{head},\n  "steps": [\n    ' + ",\n    ".join(steps) + "\n  ]\n}\n"


def check_log(data: Any) -> None:
    """Check the shape of a game log's JSON before it is replayed: no unknown key anywhere, every
    number a real, finite number within its range (positions within ±10 m, points 0 to 6, a
    slide's speed 0 to 10 m/s ...), every pawn id ``SEAT-N``. The message names the field, e.g.
    ``steps[3].shot.pawns[0].x: expected a number (m) within ±10, got 1e+308``."""
    if not isinstance(data, dict):
        raise UserError("not a game log (expected a JSON object)")
    if "schema" not in data:
        raise UserError("not a game log (no schema number)")
    schema = checks.whole(data["schema"], "schema", 1, 2**31)
    if schema > SCHEMA:
        raise UserError(
            f"game log has schema {schema}, newer than this sliders reads ({SCHEMA}); "
            "upgrade sliders"
        )
    if data.get("kind", KIND) != KIND:
        raise UserError(f"not a game log (kind {checks.shown(data.get('kind'))})")
    checks.obj(data, "", _LOG_KEYS, ("face", "seats", "steps"))
    checks.text(data["face"], "face", FACES)
    for i, s in enumerate(checks.array(data["seats"], "seats", 1, len(SEATS))):
        checks.text(s, f"seats[{i}]", limit=16)
    if data.get("starter") is not None:
        checks.text(data["starter"], "starter", limit=16)
    _check_layout(data.get("layout"))
    boards = data.get("boards")
    if isinstance(boards, dict):
        for seat, board in boards.items():
            for i, square in enumerate(checks.array(board, f"boards.{seat}", 0, 16)):
                checks.whole(square, f"boards.{seat}[{i}]", 0, 6)
    if data.get("round") is not None:
        checks.whole(data["round"], "round", 1, 10**6)
    if data.get("house") is not None:
        for i, name in enumerate(checks.array(data["house"], "house", 0, len(HOUSE_RULES))):
            checks.text(name, f"house[{i}]", tuple(HOUSE_RULES))
    _check_hands_and_params(data.get("hands"), data.get("params"))
    for i, hint in enumerate(checks.array(data.get("hints", []), "hints", 0, MAX_STEPS)):
        checks.obj(hint, f"hints[{i}]", ("step", "slide"), ("step", "slide"))
        checks.whole(hint["step"], f"hints[{i}].step", 0, MAX_STEPS)
        _check_slide(hint["slide"], f"hints[{i}].slide")
    for n, step in enumerate(checks.array(data["steps"], "steps", 0, MAX_STEPS), 1):
        _check_step(step, f"step {n}")


def _check_hands_and_params(hands: Any, params: Any) -> None:
    """The log's hands (seat: hand) and physics parameters (name: number), each optional; the
    parameters' names and ranges are the physics' to check (:func:`sliders.game.saves.params_of`)."""
    if hands is not None:
        checks.obj(hands, "hands", hands.keys() if isinstance(hands, dict) else ())
        for seat, hand in hands.items():
            checks.text(seat, "hands", limit=16)
            checks.text(hand, f"hands.{seat}", limit=16)
    if params is not None:
        checks.obj(params, "params", params.keys() if isinstance(params, dict) else ())
        for name, value in params.items():
            checks.text(name, "params", limit=64)
            checks.number(value, f"params.{name}", -1e9, 1e9)


def _check_layout(layout: Any) -> None:
    """The log's layout: none, a name, or ``{"name": ..., "seats": [...], "text": ...}``."""
    if isinstance(layout, dict):
        checks.obj(layout, "layout", ("name", "seats", "text"), ("name",))
        checks.text(layout["name"], "layout.name")
        if layout.get("text") is not None:
            checks.text(layout["text"], "layout.text", limit=checks.MAX_LAYOUT_TEXT)
        if layout.get("seats") is not None:
            for i, s in enumerate(checks.array(layout["seats"], "layout.seats", 0, len(SEATS))):
                checks.text(s, f"layout.seats[{i}]", limit=16)
    elif layout is not None:
        checks.text(layout, "layout")


_LOG_KEYS = (
    "schema", "kind", "face", "seats", "starter", "layout", "boards", "round", "house", "hands",
    "params", "hints", "steps",
)  # fmt: skip
_REST_KEYS = ("id", "seat", "x", "y", "status", "points", "choices")
_STATUSES = tuple(str(s) for s in Status)
_EVENT_TYPES = tuple(str(e) for e in EventType)
_LANE = checks.POSITION_LIMIT


def _check_step(step: Any, where: str) -> None:
    """One step, ``where`` its number (``step 3``); its fields are named ``step 3: shot.x``."""
    at = f"{where}: "
    if isinstance(step, dict) and "shot" in step:
        checks.obj(step, where, ("shot", "home", "slide", "by"), ("shot",))
        if "by" in step:
            checks.text(step["by"], f"{at}by", SLID_BY)
        _check_shot(step["shot"], f"{at}shot")
        home = step.get("home", {})
        checks.obj(home, f"{at}home", home.keys() if isinstance(home, dict) else ())
        for pid, scoring in home.items():
            checks.pawn_id(pid, f"{at}home")
            checks.whole(scoring, f"{at}home.{pid}", 0, PAWNS_PER_PLAYER - 1)
        if step.get("slide") is not None:
            _check_slide(step["slide"], f"{at}slide")
    elif isinstance(step, dict) and "score" in step:
        checks.obj(step, where, ("score", "by"), ("score",))
        by = step.get("by", {})
        checks.obj(by, f"{at}by", by.keys() if isinstance(by, dict) else ())
        for seat, why in by.items():
            checks.text(seat, f"{at}by", limit=16)
            checks.text(why, f"{at}by.{seat}", CHOSEN_BY)
        score = step["score"]
        checks.obj(score, f"{at}score", score.keys() if isinstance(score, dict) else ())
        for seat, moves in score.items():
            checks.text(seat, f"{at}score", limit=16)
            w = f"{at}score.{seat}"
            for i, m in enumerate(checks.array(moves, w, 0, PAWNS_PER_PLAYER)):
                checks.obj(
                    m, f"{w}[{i}]", ("pawn", "scoring", "points"), ("pawn", "scoring", "points")
                )
                checks.pawn_id(m["pawn"], f"{w}[{i}].pawn")
                checks.whole(m["scoring"], f"{w}[{i}].scoring", 0, PAWNS_PER_PLAYER - 1)
                checks.whole(m["points"], f"{w}[{i}].points", 0, MAX_POINTS)
    else:
        raise checks.at(where, "neither a shot nor a score")


def _check_shot(shot: Any, where: str) -> None:
    keys = ("face", "shooter", "pawns", "events", "settle_time", "settled", "engine", "version")
    checks.obj(shot, where, keys, ("face", "shooter", "pawns"))
    if not isinstance(shot.get("settled", True), bool):
        raise checks.at(f"{where}.settled", "expected true or false")
    if "engine" in shot:
        checks.text(shot["engine"], f"{where}.engine", ENGINES)
        checks.text(shot.get("version"), f"{where}.version", limit=64)
    checks.text(shot["face"], f"{where}.face", FACES)
    checks.pawn_id(shot["shooter"], f"{where}.shooter")
    most = len(SEATS) * PAWNS_PER_PLAYER
    for i, p in enumerate(checks.array(shot["pawns"], f"{where}.pawns", 1, most)):
        w = f"{where}.pawns[{i}]"
        checks.obj(p, w, _REST_KEYS, ("id", "status"))
        pid = checks.pawn_id(p["id"], f"{w}.id")
        if "seat" in p:
            checks.seat(p["seat"], f"{w}.seat", (pawn_seat(pid),))
        checks.position({"x": p.get("x", 0.0), "y": p.get("y", 0.0)}, w)
        checks.text(p["status"], f"{w}.status", _STATUSES)
        checks.whole(p.get("points", 0), f"{w}.points", 0, MAX_POINTS)
        for j, c in enumerate(checks.array(p.get("choices", []), f"{w}.choices", 0, 3)):
            checks.whole(c, f"{w}.choices[{j}]", 0, MAX_POINTS)
    for i, e in enumerate(checks.array(shot.get("events", []), f"{where}.events", 0, MAX_EVENTS)):
        w = f"{where}.events[{i}]"
        checks.obj(e, w, ("t", "type", "pawns", "impulse", "x", "y"), ("t", "type"))
        checks.number(e["t"], f"{w}.t", 0.0, checks.MAX_TIME, "s")
        checks.text(e["type"], f"{w}.type", _EVENT_TYPES)
        for j, pid in enumerate(checks.array(e.get("pawns", []), f"{w}.pawns", 0, most)):
            checks.pawn_id(pid, f"{w}.pawns[{j}]")
        checks.number(e.get("impulse", 0.0), f"{w}.impulse", 0.0, checks.MAX_IMPULSE, "N·s")
        checks.position({"x": e.get("x", 0.0), "y": e.get("y", 0.0)}, w)
    checks.number(shot.get("settle_time", 0.0), f"{where}.settle_time", 0.0, checks.MAX_TIME, "s")


def _check_slide(slide: Any, where: str) -> None:
    keys = ("seat", "pawn", "speed", "angle_rad", "offset", "release", "seed")
    checks.obj(slide, where, keys, ("seat", "pawn", "speed"))
    checks.seat(slide["seat"], f"{where}.seat")
    checks.pawn_id(slide["pawn"], f"{where}.pawn", (slide["seat"],))
    checks.number(slide["speed"], f"{where}.speed", 0.0, checks.MAX_SPEED, "m/s")
    checks.number(slide.get("angle_rad", 0.0), f"{where}.angle_rad", -math.pi / 2, math.pi / 2)
    checks.number(slide.get("offset", 0.0), f"{where}.offset", -1.0, 1.0, "m")
    if slide.get("release") is not None:
        checks.number(slide["release"], f"{where}.release", 0.0, _LANE, "m")
    if slide.get("seed") is not None:
        checks.whole(slide["seed"], f"{where}.seed", 0, checks.MAX_SEED - 1)


def _what(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

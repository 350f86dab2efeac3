"""The one value of a position, and of a shot: the chance of winning.

A **position** is valued for a seat by its chance of winning the game from there
(:class:`sliders.ai.win.WinModel`, fitted on whole games, with the race model of the seat's hand);
a game won is worth 1, a game lost 0. A **shot** is valued by the position it leaves: the
shooting seat's chance of winning once the rules engine has applied the shot (penalties to any
pawn of any seat, Instant Home's jump HOME, Instant Sorry!'s penalty, removals, an instant win).
The computer players choose their shots by it (:class:`sliders.ai.planner.PlanSearch`), ``sliders
best`` searches by it and the batch studies' ``value`` column holds it.

One quantity derived from the same outcome is shown beside it and never ranks anything:
**progress**, the change of the seat's *progress lead*, its projected progress on the score
boards once the round is scored minus the mean of its opponents':

- a seat's *progress* is the number of spaces its four scoring pawns have covered, 0 (all on
  START) to 24 (all HOME); a seat that has won counts 24;
- the round is *scored as things stand*: every roller pawn on the table scores what the rules say
  it scores, and each seat moves its scoring pawns by the legal assignment (exact count to HOME,
  each scoring pawn once, points lost only when no pawn can take them, every choice of the 4/5/6
  circle offered) that covers the most spaces.

A shot that changes nothing gains 0 progress; dropping into the hole on Instant Home with every
scoring pawn on START gains +6; a pawn knocked off an opponent's 5 gains +5 against one opponent
(+5/3 against each of three).

Both are computed through :func:`sliders.rules.apply_shot` and cached by outcome (the statuses
and offered points of every pawn, and the order in which pawns left play), so a study of many
shots with few distinct outcomes pays for the rules once per outcome.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from sliders.ai.aims import choices_of, shot_odds
from sliders.ai.race import RaceModel
from sliders.ai.win import WinModel
from sliders.boards import Face, Layout
from sliders.core.errors import UserError
from sliders.core.outcome import (
    PAWNS_PER_PLAYER,
    EventType,
    PawnRest,
    ShotResult,
    Status,
    pawn_id,
    pawn_seat,
)
from sliders.physics import Noise, PhysicsParams
from sliders.rules import (
    HOME,
    GameState,
    PlayerState,
    apply_assignment,
    apply_shot,
    check_board,
    legal_assignments,
    parse_seat,
)
from sliders.rules.state import Phase

FULL = 4 * HOME
"""The progress of a seat with all four scoring pawns HOME."""

_LEAVING = (EventType.OFF_BOARD, EventType.IN_HOLE, EventType.KNOCKED_OVER, EventType.FOUL)


@dataclass(frozen=True, slots=True)
class GameSpot:
    """Where the game stands when the shot is taken: each seat's score board (a seat left out
    has every scoring pawn on START). Hashable, so it can ride in a study's context."""

    boards: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def board(self, seat: str) -> tuple[int, ...]:
        for s, b in self.boards:
            if s == seat:
                return b
        return (0, 0, 0, 0)

    def to_json(self) -> dict[str, list[int]]:
        return {s: list(b) for s, b in self.boards}

    @classmethod
    def from_json(cls, data: Mapping[str, Sequence[int]] | None) -> GameSpot:
        return cls(tuple((parse_seat(s), check_board(list(b), s)) for s, b in (data or {}).items()))


def parse_score_boards(items: Iterable[str], seats: Sequence[str]) -> GameSpot:
    """``["south=0,0,3,5", "north=6,2,0,0"]`` (seats or colours) as a :class:`GameSpot`."""
    boards: dict[str, tuple[int, ...]] = {}
    for item in items:
        flag = f"--score-board {item!r}"
        name, sep, squares = item.partition("=")
        if not sep:
            raise UserError(f"{flag}: expected SEAT=a,b,c,d (squares 0 START .. 6 HOME)")
        try:
            seat = parse_seat(name.strip())
            values = [int(v) for v in squares.split(",")]
        except ValueError:
            raise UserError(f"{flag}: the squares are whole numbers 0..6") from None
        except UserError as exc:
            raise UserError(f"{flag}: {exc}") from None
        if seat not in seats:
            raise UserError(f"{flag}: {seat} is not in play (seats: {', '.join(seats)})")
        if seat in boards:
            raise UserError(f"{flag}: {seat}'s score board is given twice")
        try:
            boards[seat] = check_board(values, seat)
        except UserError as exc:
            raise UserError(f"{flag}: {exc}") from None
    return GameSpot(tuple(sorted(boards.items())))


def progress(board: Sequence[int]) -> int:
    """Spaces a seat's scoring pawns have covered: 0 (all START) .. 24 (all HOME)."""
    return sum(board)


@cache
def race_model(
    layout: Layout, face: Face, seat: str, hand: Noise, params: PhysicsParams
) -> RaceModel:
    """The race model of ``hand`` shooting from ``seat`` (cached: built once a process)."""
    return RaceModel(shot_odds(layout, face, seat, hand, params))


@cache
def win_model(
    layout: Layout, face: Face, seat: str, hand: Noise, params: PhysicsParams
) -> WinModel:
    """The chance of winning for ``hand`` shooting from ``seat`` (cached: built once a process;
    its race model measures the hand's odds in the exact engine, about a second)."""
    return WinModel(race_model(layout, face, seat, hand, params))


def study_state(
    face: str, seats: Sequence[str], seat: str, table: Sequence[PawnRest], spot: GameSpot
) -> GameState:
    """The game a study's shot is taken in: ``seat`` to slide (and the round's starter), each
    seat's score board from ``spot``, the pawns ``table`` standing (those the physics rates as
    removed never count) and every other roller pawn in hand."""
    standing = tuple(p for p in table if p.status.in_play)
    on_table = {p.id for p in table}
    players = []
    for s in seats:
        hand = tuple(
            pid for n in range(1, PAWNS_PER_PLAYER + 1) if (pid := pawn_id(s, n)) not in on_table
        )
        players.append(PlayerState(s, spot.board(s), in_hand=hand))
    return GameState(
        face=face,
        seats=tuple(seats),
        players=tuple(players),
        table=standing,
        starter=seat,
        turn=seat,
        phase=Phase.SHOOTING,
    )


class Valuer:
    """Values the shots of ``seat`` from the game ``state`` (see the module): called with a
    shot's result, the seat's chance of winning after it (``model``); :meth:`progress`, the
    change of its progress lead."""

    def __init__(self, state: GameState, seat: str, model: WinModel) -> None:
        self.state, self.seat, self.model = state, seat, model
        self._ids = frozenset(p.id for p in state.table)
        self._before: float | None = None
        self._progress_before: float | None = None
        self._after: dict[tuple, GameState] = {}
        self._values: dict[tuple, float] = {}
        self._progress: dict[tuple, float] = {}
        self._codes: dict[tuple, tuple | None] = {}

    @classmethod
    def at(
        cls,
        face: str,
        seats: Sequence[str],
        seat: str,
        table: Sequence[PawnRest],
        model: WinModel,
        spot: GameSpot = GameSpot(),
    ) -> Valuer:
        """A study's valuer: ``seat`` to slide onto ``table`` (every pawn standing before the
        shot, as the physics rates them at rest) with the score boards ``spot``."""
        return cls(study_state(face, seats, seat, table, spot), seat, model)

    @property
    def valued(self) -> int:
        """Distinct outcomes valued so far (each went through the rules once)."""
        return len(self._after)

    @property
    def before(self) -> float:
        """The seat's chance of winning before the shot (what a refused shot leaves)."""
        if self._before is None:
            self._before = self.model.win_probability(self.state, self.seat)
        return self._before

    def __call__(self, result: ShotResult) -> float:
        """The value of a shot's result: the seat's chance of winning after it (a RulesError if
        the rules refuse the result)."""
        return self._value_of(self._played(result))

    def progress(self, result: ShotResult) -> float:
        """The change of the seat's progress lead the shot makes."""
        return self._progress_of(self._played(result))

    def of_codes(
        self, order: Sequence[str], row: Sequence[int], progress: bool = True
    ) -> tuple[float, float]:
        """(value, progress) of an outcome given as codes: ``row`` holds each pawn of ``order``
        (the shot pawn first, then the table's) as its status code (an index of
        :class:`Status`, in its order) and its points, pawn after pawn. Without events, pawns
        leave play in the rules' default order (the shot pawn first). A shot pawn still in
        hand is a shot the physics refused: nothing happened. Without ``progress`` (the search
        reads the value alone), the progress is NaN."""
        key = (tuple(order), tuple(int(v) for v in row))
        if key not in self._codes:
            result = self._result(order, row)
            self._codes[key] = None if result is None else self._played(result)
        played = self._codes[key]
        if played is None:
            return self.before, 0.0
        return self._value_of(played), self._progress_of(played) if progress else math.nan

    def _result(self, order: Sequence[str], row: Sequence[int]) -> ShotResult | None:
        """The result an outcome's codes describe (None: the physics refused the shot)."""
        statuses = tuple(Status)
        if statuses[int(row[0])] is Status.IN_HAND:
            return None
        face = self.state.face_record
        pawns = tuple(
            _rest(pid, statuses[int(row[2 * k])], int(row[2 * k + 1]), face)
            for k, pid in enumerate(order)
            if k == 0 or pid in self._ids
        )
        return ShotResult(face.name, order[0], pawns)

    def _played(self, result: ShotResult) -> tuple:
        """The outcome's key, the game after it in ``_after`` (the rules applied once)."""
        pawns = tuple(p for p in result.pawns if p.id in self._ids or p.id == result.shooter)
        key = (
            result.shooter,
            tuple((p.id, p.status, p.choices) for p in pawns),
            tuple(pid for e in result.events if e.type in _LEAVING for pid in e.pawns),
        )
        if key not in self._after:
            self._after[key], _ = apply_shot(self.state, replace(result, pawns=pawns))
        return key

    def _value_of(self, key: tuple) -> float:
        got = self._values.get(key)
        if got is None:
            got = self._values[key] = self.model.win_probability(self._after[key], self.seat)
        return got

    def _progress_of(self, key: tuple) -> float:
        got = self._progress.get(key)
        if got is None:
            if self._progress_before is None:
                self._progress_before = progress_lead(self.state, self.seat)
            lead = progress_lead(self._after[key], self.seat)
            got = self._progress[key] = lead - self._progress_before
        return got

    def foul(self, shooter: str) -> float:
        """The value of a shot that never reached the table (a foul): nothing else moved."""
        return self(self.foul_result(shooter))

    def foul_result(self, shooter: str) -> ShotResult:
        rest = PawnRest(shooter, self.seat, 0.0, 0.0, Status.FOUL)
        return ShotResult(self.state.face, shooter, (*self.state.table, rest))


def _rest(pid: str, status: Status, points: int, face: Face) -> PawnRest:
    """A pawn as the rules read it, from its status and the points the physics gave it (the
    scores it offers: :func:`sliders.ai.aims.choices_of`)."""
    choices = choices_of(face, status, points)
    return PawnRest(pid, pawn_seat(pid), 0.0, 0.0, status, max(choices), choices)


def progress_lead(state: GameState, seat: str) -> float:
    """``seat``'s projected progress minus the mean of its opponents' (see the module): a
    quantity to show, not a value (no search ranks by it)."""
    mine = projected(state, seat)
    others = [projected(state, s) for s in state.seats if s != seat]
    return float(mine - (sum(others) / len(others) if others else 0.0))


def projected(state: GameState, seat: str) -> int:
    """``seat``'s progress once the round is scored as things stand, with the assignment that
    covers the most spaces; a winner counts :data:`FULL`."""
    if state.winner is not None:
        return FULL if state.winner == seat else progress(state.player(seat).board)
    board = state.player(seat).board
    if not state.on_table(seat):
        return progress(board)
    return max(progress(apply_assignment(board, a)) for a in legal_assignments(state, seat))

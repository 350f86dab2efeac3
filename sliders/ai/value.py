"""What a shot is worth in the game: the change of the shooting seat's position value.

A **position value** for a seat is its expected race progress on the score boards once the round
is scored, minus the mean of its opponents':

- a seat's *progress* is the number of spaces its four scoring pawns have covered, 0 (all on
  START) to 24 (all HOME); a seat that has won counts 24;
- the round is *scored as things stand*: every roller pawn on the table scores what the rules say
  it scores, and each seat moves its scoring pawns by the legal assignment (exact count to HOME,
  each scoring pawn once, points lost only when no pawn can take them, every choice of the 4/5/6
  circle offered) that covers the most spaces.

A shot's **value** is the position value after the rules engine applied the shot (penalties to any
pawn of any seat, Instant Home's jump HOME, Instant Sorry!'s penalty, removals, an instant win)
minus the position value before it. A shot that changes nothing is worth 0; dropping into the
hole on Instant Home with every scoring pawn on START is worth +6; a pawn knocked off an opponent's
5 is worth +5 against one opponent (+5/3 against each of three).

Values are computed through :func:`sliders.rules.apply_shot` and cached by outcome (the statuses
and offered points of every pawn, and the order in which pawns left play), so a study of many
shots with few distinct outcomes pays for the rules once per outcome.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from sliders.boards.faces import Face
from sliders.errors import UserError
from sliders.outcome import (
    PAWNS_PER_PLAYER,
    EventType,
    PawnRest,
    ShotResult,
    Status,
    pawn_id,
    pawn_seat,
)
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


class Valuer:
    """Values shots of one seat from one table and game spot (see the module docstring).

    ``table`` is every pawn standing on the table before the shot (as the physics rates them at
    rest); pawns the physics rates as removed never count. Call it with a shot's result.
    """

    def __init__(
        self,
        face: str,
        seats: Sequence[str],
        seat: str,
        table: Sequence[PawnRest],
        spot: GameSpot = GameSpot(),
    ) -> None:
        self.seat = seat
        standing = tuple(p for p in table if p.status.in_play)
        self._ids = frozenset(p.id for p in standing)
        players = []
        for s in seats:
            hand = tuple(
                pid
                for n in range(1, PAWNS_PER_PLAYER + 1)
                if (pid := pawn_id(s, n)) not in {p.id for p in table}
            )
            players.append(PlayerState(s, spot.board(s), in_hand=hand))
        order = tuple(seats)
        self.state = GameState(
            face=face,
            seats=order,
            players=tuple(players),
            table=standing,
            starter=seat,
            turn=seat,
            phase=Phase.SHOOTING,
        )
        self.before = position_value(self.state, seat)
        self._cache: dict[tuple, float] = {}

    def __call__(self, result: ShotResult) -> float:
        pawns = tuple(p for p in result.pawns if p.id in self._ids or p.id == result.shooter)
        key = (
            result.shooter,
            tuple((p.id, p.status, p.choices) for p in pawns),
            tuple(pid for e in result.events if e.type in _LEAVING for pid in e.pawns),
        )
        got = self._cache.get(key)
        if got is None:
            after, _ = apply_shot(self.state, replace(result, pawns=pawns))
            got = self._cache[key] = position_value(after, self.seat) - self.before
        return got

    def of_codes(self, shooter: str, table_ids: Sequence[str], row: Sequence[int]) -> float:
        """The value of an outcome given as a batch table row holds it: the shot pawn's status
        code and points, then each table pawn's (codes index :class:`Status` in its order).
        Without events, pawns leave play in the rules' default order (the shot pawn first)."""
        statuses = tuple(Status)
        key = (shooter, tuple(int(v) for v in row))
        got = self._cache.get(key)
        if got is not None:
            return got
        status = statuses[int(row[0])]
        if status is Status.IN_HAND:  # the physics refused the shot: nothing happened
            got = 0.0
        else:
            face = self.state.face_record
            pawns = [_rest(shooter, status, int(row[1]), face)]
            for k, pid in enumerate(table_ids):
                if pid in self._ids:
                    st = statuses[int(row[2 + 2 * k])]
                    pawns.append(_rest(pid, st, int(row[3 + 2 * k]), face))
            got = self(ShotResult(face.name, shooter, tuple(pawns)))
        self._cache[key] = got
        return got

    def foul(self, shooter: str) -> float:
        """The value of a shot that never reached the table (a foul): nothing else moved."""
        rest = PawnRest(shooter, self.seat, 0.0, 0.0, Status.FOUL)
        return self(ShotResult(self.state.face, shooter, (*self.state.table, rest)))


def _rest(pid: str, status: Status, points: int, face: Face) -> PawnRest:
    """A pawn as the rules read it, from its status and the points it is worth as it stands: on
    the 4/5/6 circle (worth the circle's best, which no ring scores) it offers every choice."""
    if status is not Status.ON_TARGET:
        points = 0 if status.removed else points
        return PawnRest(pid, pawn_seat(pid), 0.0, 0.0, status, points)
    ring = {p for _, p in face.rings} | {face.base_points}
    if face.choice_points and points == max(face.choice_points) and points not in ring:
        return PawnRest(pid, pawn_seat(pid), 0.0, 0.0, status, points, face.choice_points)
    return PawnRest(pid, pawn_seat(pid), 0.0, 0.0, status, points)


def position_value(state: GameState, seat: str) -> float:
    """``seat``'s projected progress minus the mean of its opponents' (see the module)."""
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

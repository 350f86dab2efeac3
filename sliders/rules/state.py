"""The state of a game as plain frozen data, and how a new game starts.

A :class:`GameState` holds everything the rules need and everything a physics engine needs to
rebuild the table: the face, the seats in turn order, each player's four scoring pawns on the
score board, where each roller pawn is (in hand, on the table as a :class:`PawnRest`, or removed
for the round), the round, its starter, whose turn it is and the winner once there is one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from sliders.boards.faces import BUILTIN_FACES, FACES, Face
from sliders.core import records
from sliders.core.errors import UserError
from sliders.core.outcome import PAWNS_PER_PLAYER, SEAT_COLOURS, SEATS, PawnRest, pawn_id
from sliders.core.outcome import parse_seat as _parse_seat

from .house import HOUSE_RULES

START = 0
HOME = 6
"""Squares of the score board: HOME is six spaces from START and is reached only by exact count."""

SCORING_PAWNS = 4


class RulesError(UserError):
    """Something the rules do not allow: a shot out of turn, a pawn not in hand, an illegal move."""


class Phase(StrEnum):
    """What the game is waiting for."""

    SHOOTING = "shooting"  # the player whose turn it is slides a roller pawn
    SCORING = "scoring"  # every roller pawn has been slid: the round is scored
    OVER = "over"  # someone won


def new_game(
    face: str,
    seats: Iterable[str],
    starter: str | None = None,
    boards: Mapping[str, Sequence[int]] | None = None,
    round: int = 1,
    house: Iterable[str] = (),
) -> GameState:
    """A game at the start of a round: round 1 of a new game, or a game in progress.

    ``seats`` are seat names or colours (any order, 1 to 4 of them); play always passes to the
    left, south → west → north → east. ``starter`` (a seat or colour) slides first; by default
    the first seat in turn order. ``boards`` maps a seat (or colour) to its four scoring pawns'
    squares, START 0 to HOME 6 (:func:`check_board`); a seat left out starts with all four on
    START. ``round`` numbers the round about to be played. ``house`` names the house rules the
    game is played with (:data:`sliders.rules.house.HOUSE_RULES`; none by default).
    """
    if face not in FACES:
        raise RulesError(f"unknown face {face!r}; choose one of {', '.join(FACES)}")
    chosen = [parse_seat(s) for s in seats]
    if not chosen:
        raise RulesError("a game needs at least one player")
    if len(set(chosen)) != len(chosen):
        raise RulesError(f"a seat is named twice in {', '.join(chosen)}")
    ordered = tuple(s for s in SEATS if s in chosen)
    first = ordered[0] if starter is None else parse_seat(starter)
    if first not in ordered:
        raise RulesError(f"the starter {first} ({SEAT_COLOURS[first]}) is not playing")
    if isinstance(round, bool) or not isinstance(round, int) or round < 1:
        raise RulesError(f"the round is a whole number from 1, not {round!r}")
    given: dict[str, tuple[int, ...]] = {}
    for name, board in (boards or {}).items():
        seat = parse_seat(name)
        if seat not in ordered:
            raise RulesError(f"{colour(seat)} has a score board but is not playing")
        if seat in given:
            raise RulesError(f"{colour(seat)}'s score board is given twice")
        given[seat] = check_board(board, colour(seat))
    return GameState(
        face=face,
        seats=ordered,
        players=tuple(PlayerState.fresh(s, given.get(s)) for s in ordered),
        round=round,
        starter=first,
        turn=first,
        house=parse_house(house),
    )


def parse_house(names: Iterable[str]) -> tuple[str, ...]:
    """The house rules ``names`` (each once, in :data:`~sliders.rules.house.HOUSE_RULES`'
    order), or :class:`RulesError` naming an unknown one."""
    chosen = set()
    for name in names:
        if not isinstance(name, str) or name not in HOUSE_RULES:
            raise RulesError(f"unknown house rule {name!r} (choose from {', '.join(HOUSE_RULES)})")
        chosen.add(name)
    return tuple(n for n in HOUSE_RULES if n in chosen)


def check_board(board: Sequence[int], owner: str = "a player") -> tuple[int, ...]:
    """``board`` as a score board, or :class:`RulesError`: four squares, each from START (0) to
    HOME (6), not all of them HOME (that player would already have won)."""
    if isinstance(board, str | bytes) or not isinstance(board, Sequence):
        raise RulesError(f"{owner}'s score board is a list of squares, not {board!r}")
    if len(board) != SCORING_PAWNS:
        raise RulesError(
            f"{owner}'s score board has {SCORING_PAWNS} scoring pawns, not {len(board)}"
        )
    for sq in board:
        if isinstance(sq, bool) or not isinstance(sq, int) or not START <= sq <= HOME:
            raise RulesError(
                f"{owner}'s scoring pawns stand on squares {START} (START) to {HOME} (HOME), "
                f"not {sq!r}"
            )
    if all(sq == HOME for sq in board):
        raise RulesError(f"{owner} has all four pawns HOME already: that game is won")
    return tuple(board)


def parse_seat(name: str) -> str:
    """A seat from a seat name or a colour (``red`` = ``south``), case-insensitive; the seat
    parser of :mod:`sliders.core.outcome`, raising :class:`RulesError`."""
    try:
        return _parse_seat(name, "player")
    except UserError as exc:
        raise RulesError(str(exc)) from None


def colour(seat: str) -> str:
    return SEAT_COLOURS[seat]


def pawn_label(pid: str) -> str:
    """A roller pawn as a player names it: ``south-2`` → ``red#2``."""
    seat, number = pid.rsplit("-", 1)
    return f"{SEAT_COLOURS.get(seat, seat)}#{number}"


def square_name(square: int) -> str:
    return {START: "START", HOME: "HOME"}.get(square, str(square))


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's score board and the whereabouts of their roller pawns off the table.

    ``board[i]`` is the square of scoring pawn ``i`` (0..3), from START (0) to HOME (6).
    Roller pawns not in ``in_hand`` or ``removed`` stand on the table (see ``GameState.table``).
    """

    seat: str
    board: tuple[int, ...] = (START,) * SCORING_PAWNS
    in_hand: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    @classmethod
    def fresh(cls, seat: str, board: tuple[int, ...] | None = None) -> PlayerState:
        """All four roller pawns in hand."""
        pawns = tuple(pawn_id(seat, n) for n in range(1, PAWNS_PER_PLAYER + 1))
        return cls(seat=seat, board=board or (START,) * SCORING_PAWNS, in_hand=pawns)

    @property
    def colour(self) -> str:
        return SEAT_COLOURS[self.seat]

    @property
    def home_count(self) -> int:
        return sum(1 for sq in self.board if sq == HOME)

    @property
    def all_home(self) -> bool:
        return all(sq == HOME for sq in self.board)

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerState:
        return records.from_json(cls, data)


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a game at one moment, between shots.

    ``table`` holds the roller pawns standing on the table (statuses ``own_track``, ``tipping``,
    ``on_target``, ``hole_edge``) with their positions and what they would score now.
    ``turn`` is the seat to slide next while ``phase`` is SHOOTING, else None.
    """

    face: str
    seats: tuple[str, ...]
    players: tuple[PlayerState, ...]
    table: tuple[PawnRest, ...] = ()
    round: int = 1
    starter: str = SEATS[0]
    turn: str | None = SEATS[0]
    phase: Phase = Phase.SHOOTING
    winner: str | None = None
    house: tuple[str, ...] = ()
    """the house rules played (:mod:`sliders.rules.house`); none: the rulebook's rules"""

    @property
    def face_record(self) -> Face:
        """The face's record: what its zones, hole, edge, circle and dots mean for the rules."""
        return BUILTIN_FACES[self.face]

    def player(self, seat: str) -> PlayerState:
        for p in self.players:
            if p.seat == seat:
                return p
        raise RulesError(f"{seat} ({SEAT_COLOURS.get(seat, '?')}) is not playing")

    def on_table(self, seat: str | None = None) -> tuple[PawnRest, ...]:
        """The roller pawns on the table, all of them or one seat's."""
        return tuple(p for p in self.table if seat is None or p.seat == seat)

    def table_pawn(self, pid: str) -> PawnRest | None:
        for p in self.table:
            if p.id == pid:
                return p
        return None

    def left_of(self, seat: str) -> str:
        """The playing seat to the left of ``seat`` (the next in turn order)."""
        i = self.seats.index(seat)
        return self.seats[(i + 1) % len(self.seats)]

    def turn_order(self, first: str | None = None) -> tuple[str, ...]:
        """The seats in turn order starting from ``first`` (by default the round's starter)."""
        i = self.seats.index(first or self.starter)
        return self.seats[i:] + self.seats[:i]

    def next_pawn(self) -> str | None:
        """The roller pawn the player to move would slide by default (lowest number in hand)."""
        if self.turn is None:
            return None
        hand = self.player(self.turn).in_hand
        return hand[0] if hand else None

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def solo(self) -> bool:
        return len(self.seats) == 1

    @property
    def rounds_played(self) -> int:
        """Rounds completed, counting the round a win ended (the 1-player score)."""
        return self.round if self.finished else self.round - 1

    def with_player(self, player: PlayerState) -> GameState:
        return replace(
            self, players=tuple(player if p.seat == player.seat else p for p in self.players)
        )

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self, omit=() if self.house else ("house",))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return records.from_json(cls, data)

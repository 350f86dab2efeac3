"""End-of-round scoring: what each roller pawn scores and which scoring pawns it may move.

An :class:`Assignment` is one player's choice at the end of a round: a tuple of :class:`Move`,
each taking one roller pawn's points (one of its offered scores) onto one scoring pawn.
It is legal when

- every roller pawn is used at most once and every scoring pawn moves at most once;
- a HOME pawn never moves, and HOME is reached only by exact count (no move may pass square 6);
- it uses as many roller pawns' scores as any assignment can, so points are lost only when
  no way of moving could use them (a roller pawn left out could not move any scoring pawn left
  unmoved, and no other choice of moves would have used more of the scores).

A roller pawn with a choice of points (the 4/5/6 circle, the hole's edge on Instant Sorry!)
moves its scoring pawn by any one of them: every choice is offered.

The default assignment (what a sensible player would do) maximises, in this order:

1. the number of scoring pawns HOME;
2. the total number of spaces moved;
3. the number of pawns left close enough to HOME to get there with one score (a pawn more than
   the face's best single score away, 5 or 6 on Instant Sorry!, needs two more rounds);
4. safety: the highest non-HOME square is kept as low as possible (that pawn is the one a
   penalty sends back to START);
5. then the first in order: lower-numbered roller pawns onto lower-numbered scoring pawns.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sliders.boards.faces import Face
from sliders.boards.faces import face as face_named
from sliders.core import records
from sliders.core.outcome import PawnRest, Status

from .state import HOME, GameState, RulesError, colour, pawn_label, square_name


@dataclass(frozen=True, slots=True)
class Move:
    """Roller pawn ``pawn`` moves scoring pawn ``scoring`` (0..3) forward ``points`` spaces."""

    pawn: str
    scoring: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return records.to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return records.from_json(cls, data)


Assignment = tuple[Move, ...]


def legal_assignments(state: GameState, seat: str) -> list[Assignment]:
    """Every legal assignment of ``seat``'s roller-pawn points to its scoring pawns.

    Scoring pawns on the same square are interchangeable, so only one of them (the lowest
    numbered) is offered as a target; :func:`check_assignment` accepts any of them. Every
    legal assignment uses as many scores as any assignment can.
    """
    return list(_legal(state.player(seat).board, tuple(_offers(state, seat))))


def default_assignment(state: GameState, seat: str) -> Assignment:
    """The assignment a sensible player would make (see the module docstring for the rule)."""
    board = state.player(seat).board
    return _default(board, tuple(_offers(state, seat)), best_single_score(state.face_record))


@functools.lru_cache(maxsize=4096)
def _legal(
    board: tuple[int, ...], offers: tuple[tuple[str, tuple[int, ...]], ...]
) -> tuple[Assignment, ...]:
    """:func:`legal_assignments` of a board and its roller pawns' offers (the same few boards
    and offers come back round after round: each is enumerated once)."""
    every = list(_enumerate(board, offers))
    most = max(len(a) for a in every)  # the empty assignment is always among them
    return tuple(a for a in every if len(a) == most)


@functools.lru_cache(maxsize=4096)
def _default(
    board: tuple[int, ...], offers: tuple[tuple[str, tuple[int, ...]], ...], reach: int
) -> Assignment:
    """:func:`default_assignment` of a board and its roller pawns' offers."""
    options = _legal(board, offers)
    return max(options, key=lambda a: _preference(board, a, reach))  # max keeps the first best


def check_assignment(state: GameState, seat: str, assignment: Sequence[Move]) -> Assignment:
    """``assignment`` sorted by roller pawn, or :class:`RulesError` saying why it is not legal."""
    board = state.player(seat).board
    offers = dict(_offers(state, seat))
    used_pawns: set[str] = set()
    used_scoring: set[int] = set()
    for m in assignment:
        _check_move(m, seat, board, offers, used_pawns, used_scoring)
        used_pawns.add(m.pawn)
        used_scoring.add(m.scoring)
    _check_nothing_left(board, offers, used_pawns, used_scoring)
    _check_uses_most(state, seat, assignment)
    return tuple(sorted(assignment, key=lambda m: m.pawn))


def _check_move(
    m: Move,
    seat: str,
    board: tuple[int, ...],
    offers: dict[str, tuple[int, ...]],
    used_pawns: set[str],
    used_scoring: set[int],
) -> None:
    """:class:`RulesError` unless move ``m`` is legal after the moves that used ``used_pawns``
    and ``used_scoring``."""
    who = pawn_label(m.pawn)
    if m.pawn not in offers:
        raise RulesError(f"{who} has nothing to score for {colour(seat)} this round")
    if m.pawn in used_pawns:
        raise RulesError(f"{who} scores only once")
    if not 0 <= m.scoring < len(board):
        raise RulesError(f"there is no scoring pawn {m.scoring + 1}")
    if m.scoring in used_scoring:
        raise RulesError(f"scoring pawn {m.scoring + 1} moves only once a round")
    if m.points not in offers[m.pawn]:
        allowed = " or ".join(str(c) for c in offers[m.pawn])
        raise RulesError(f"{who} scores {allowed}, not {m.points}")
    start = board[m.scoring]
    if start == HOME:
        raise RulesError(f"scoring pawn {m.scoring + 1} is already HOME")
    if start + m.points > HOME:
        raise RulesError(
            f"{m.points} from square {square_name(start)} overshoots HOME "
            "(HOME only by exact count)"
        )


def _check_nothing_left(
    board: tuple[int, ...],
    offers: dict[str, tuple[int, ...]],
    used_pawns: set[str],
    used_scoring: set[int],
) -> None:
    """:class:`RulesError` if a roller pawn left unused could still move a scoring pawn left
    unmoved."""
    for pid, choices in offers.items():
        if pid in used_pawns:
            continue
        for i, sq in enumerate(board):
            if i in used_scoring or sq == HOME:
                continue
            for c in choices:
                if sq + c <= HOME:
                    raise RulesError(
                        f"{pawn_label(pid)}'s {c} can still move the pawn on square "
                        f"{square_name(sq)}; points are lost only when no pawn can take them"
                    )


def _check_uses_most(state: GameState, seat: str, assignment: Sequence[Move]) -> None:
    """:class:`RulesError` if another legal assignment uses more scores than ``assignment``."""
    board = state.player(seat).board
    options = legal_assignments(state, seat)
    if len(assignment) < len(options[0]):
        reach = best_single_score(state.face_record)
        better = max(options, key=lambda a: _preference(board, a, reach))
        shown = ", ".join(
            f"{pawn_label(m.pawn)}'s {m.points} onto square {square_name(board[m.scoring])}"
            for m in better
        )
        raise RulesError(
            f"{colour(seat)} can use {len(better)} scores this round ({shown}), not "
            f"{len(assignment)}; points are lost only when no assignment can use them"
        )


def apply_assignment(board: tuple[int, ...], assignment: Sequence[Move]) -> tuple[int, ...]:
    """The score board after ``assignment`` (assumed legal)."""
    squares = list(board)
    for m in assignment:
        squares[m.scoring] += m.points
    return tuple(squares)


def scores_of(pawn: PawnRest, face: Face | str) -> tuple[int, ...]:
    """What a roller pawn standing on the table scores at round end: one value, or a choice.

    ``face`` is a face record (or its name). The face's record fixes what does not depend on
    where the pawn stands (:meth:`Face.scores <sliders.boards.faces.Face.scores>`: own track 0,
    tipping 1, the hole's edge 4 on Instant Home and 4, 5 or 6 on Instant Sorry!); a pawn on the
    target scores what its ``choices`` carry (the highest zone it touches, or 4/5/6 for the
    4/5/6 circle).
    """
    if pawn.status is Status.ON_TARGET:
        return tuple(sorted(set(pawn.choices)))
    return face_named(face).scores(pawn.status)


def best_single_score(face: Face | str) -> int:
    """The most one roller pawn can score on ``face`` (a face record or its name)."""
    return face_named(face).top_points


def _offers(state: GameState, seat: str) -> list[tuple[str, tuple[int, ...]]]:
    """(roller pawn, positive scores it offers) for each of ``seat``'s roller pawns on the table."""
    out = []
    for p in sorted(state.on_table(seat), key=lambda p: p.id):
        choices = tuple(c for c in scores_of(p, state.face_record) if c > 0)
        if choices:
            out.append((p.id, choices))
    return out


def _enumerate(
    board: tuple[int, ...], offers: Sequence[tuple[str, tuple[int, ...]]]
) -> Iterator[Assignment]:
    """Every assignment respecting the move rules (maximal or not), in a fixed order."""

    def walk(k: int, used: frozenset[int], moves: Assignment) -> Iterator[Assignment]:
        if k == len(offers):
            yield moves
            return
        pid, choices = offers[k]
        seen_squares: set[int] = set()
        for i, sq in enumerate(board):
            if i in used or sq == HOME or sq in seen_squares:
                continue
            seen_squares.add(sq)
            for c in choices:
                if sq + c <= HOME:
                    yield from walk(k + 1, used | {i}, (*moves, Move(pid, i, c)))
        yield from walk(k + 1, used, moves)  # this pawn's points go unused

    return walk(0, frozenset(), ())


def _preference(board: tuple[int, ...], a: Assignment, reach: int) -> tuple[int, ...]:
    after = apply_assignment(board, a)
    waiting = [sq for sq in after if sq != HOME]
    return (
        len(after) - len(waiting),  # 1. pawns HOME
        sum(m.points for m in a),  # 2. spaces moved
        sum(1 for sq in waiting if HOME - sq <= reach),  # 3. pawns one score from HOME
        -max(waiting, default=0),  # 4. least to lose to a penalty
    )

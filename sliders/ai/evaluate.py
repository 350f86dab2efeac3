"""How good a game situation is for one seat: the yardstick a computer player maximises.

A seat's worth counts the spaces its scoring pawns have moved, with a bonus for each pawn HOME,
plus most of what its roller pawns on the table would add at round end (the rules engine's own
default assignment decides what they add, so exact-count HOME and lost points are respected; a
pawn on the table can still be knocked away, so its points count at ``TABLE_WEIGHT``).
A position's value for a seat is its own worth minus the opponents' (the leader weighs most),
with a large bonus or malus for a won game.
"""

from __future__ import annotations

from collections.abc import Sequence

from sliders.rules import HOME, GameState, apply_assignment, default_assignment

HOME_BONUS = 3.0
"""extra worth of a scoring pawn HOME, beyond its six spaces"""
TABLE_WEIGHT = 0.8
"""share of the round-end points of roller pawns on the table counted now"""
OPPONENT_WEIGHT = 0.8
"""how much an opponent's worth counts against one's own"""
WIN = 1000.0


def position_value(state: GameState, seat: str) -> float:
    """The value of ``state`` for ``seat``: higher is better."""
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    mine = seat_value(state, seat)
    others = [seat_value(state, s) for s in state.seats if s != seat]
    if not others:
        return mine
    leader, mean = max(others), sum(others) / len(others)
    return mine - OPPONENT_WEIGHT * (0.5 * leader + 0.5 * mean)


def seat_value(state: GameState, seat: str) -> float:
    """A seat's worth: its score board now, plus its table pawns' round-end points (weighted)."""
    board = state.player(seat).board
    now = board_worth(board)
    if not state.on_table(seat):
        return now
    after = apply_assignment(board, default_assignment(state, seat))
    return now + TABLE_WEIGHT * (board_worth(after) - now)


def board_worth(board: Sequence[int]) -> float:
    """Spaces moved by the scoring pawns, with ``HOME_BONUS`` for each pawn HOME."""
    return float(sum(board)) + HOME_BONUS * sum(1 for sq in board if sq == HOME)

"""House rules: changes to the rulebook a table agrees on before it plays, each off unless named.

A game's house rules are part of its state (:attr:`sliders.rules.GameState.house`), named when it
starts (:func:`sliders.rules.new_game`, :class:`sliders.rules.Game`) and kept in its log, so a
replay, the scorekeeper and every computer player apply the same rules.

``no-knock-penalty``
    A roller pawn that another player's slide knocks onto a SORRY! corner or off the board
    leaves play for the round with no penalty: only a player's own slide that puts its own
    pawn there sends its highest scoring pawn back to START. Between precise players who
    knock each other's pawns onto the corners, the rulebook's penalty keeps sending the
    leader's pawns back, and a game can run on for dozens of rounds; with this rule a knock
    still takes the pawn's points away, but the race closes (docs/players.md).

``corners-only``
    Only the corners cost a penalty, as the rulebook words it: a pawn on a SORRY! corner, or
    one that "slides off a corner of the board". A pawn that leaves the board across a side,
    clear of its corners (``off_side``: on triple-track, head-to-head and crazy-corner, whose
    sides are open), leaves play for the round with no penalty. On the square, whose only open
    edges run from a track's mouth to a corner, a pawn's centre can cross an edge only within a
    corner's reach, and the rule changes nothing.
"""

from __future__ import annotations

NO_KNOCK_PENALTY = "no-knock-penalty"
CORNERS_ONLY = "corners-only"

HOUSE_RULES: dict[str, str] = {
    NO_KNOCK_PENALTY: "a pawn knocked onto a SORRY! corner or off the board by another "
    "player's slide leaves play with no penalty",
    CORNERS_ONLY: "a pawn that leaves the board across a side, clear of its corners, leaves play "
    "with no penalty (only a SORRY! corner or sliding off a corner of the board costs one)",
}
"""Every house rule, by name, with what it changes in a line."""

"""How to play, in a person's words: the rules of the game on a face, read from its record (the
rulebook is the authority, docs/rules.md says what it leaves open), and the window's controls.
The window's help (F1 or ?) shows them; no pygame here."""

from __future__ import annotations

from sliders.boards import Face, HoleRule

SCORING_LINE = "a pawn on a line between two rings scores the higher ring"
"""how a pawn on a line scores, said wherever a score is first seen"""


def _either(points: tuple[int, ...]) -> str:
    words = [str(p) for p in points]
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def rules_of(face: Face) -> list[str]:
    """The rules of the game played on ``face``, a sentence a line: the round, what scores, what
    removes a pawn, how scoring pawns move and who wins, then what this face changes."""
    rings = sorted(p for _, p in face.rings)
    lines = [
        f"{face.title}: be the first to bring all four scoring pawns HOME.",
        "Each turn slide one roller pawn down your track; turns pass to the left. The round "
        "ends when everyone has slid all four; the next round starts one seat to the left.",
        f"At the round's end each pawn on the board scores the ring it stands in "
        f"({rings[0]} to {rings[-1]}, the centre the most); {SCORING_LINE}; elsewhere on the "
        f"board {face.base_points}. Tipping between your track and the board: "
        f"{face.tipping_points}. Still on your own track: nothing, but it stays in play.",
        "Out for the round: a pawn on another player's track, a pawn knocked over, and a foul "
        "(the hand holding the pawn crossed the foul line).",
        "Out with a penalty: a pawn on any part of a SORRY! corner or off the board; your "
        "highest scoring pawn not yet HOME goes back to START.",
        "Each roller pawn's points move a different scoring pawn; HOME is six spaces from "
        "START and is reached only by exact count; points no pawn can take are lost.",
        "Whoever has all four scoring pawns HOME at a round's end wins; if several do, the one "
        "nearest the round's starter, the starter first.",
    ]
    if face.hole is HoleRule.HOME:
        lines.append(
            "Into the centre hole: the pawn leaves the round and one of your scoring pawns goes "
            "HOME at once; the last one HOME wins at once. Resting over the hole's edge at the "
            f"round's end: {_either(face.hole_edge_points)} points."
        )
    elif face.hole is HoleRule.PENALTY:
        lines.append(
            "Into the centre hole: the pawn leaves the round and your highest scoring pawn not "
            "yet HOME goes back to START (none on START: no penalty). Resting over the hole's "
            f"edge at the round's end: {_either(face.hole_edge_points)} points, your choice."
        )
    if face.choice_points:
        lines.append(
            f"Touching the {'/'.join(map(str, face.choice_points))} circle: move a scoring pawn "
            f"{_either(face.choice_points)} spaces, your choice."
        )
    if face.dots_remove:
        lines.append(
            "A pawn that stops on any part of a danger dot leaves the round at once and scores "
            "nothing (no penalty)."
        )
    return lines


def controls_of(control: str, hints: bool, invites: bool = False) -> list[str]:
    """The window's controls for a person sliding with ``control`` (``flick`` or ``aim``);
    ``invites``: a host's own window, which shows the free seats' QR codes."""
    if control == "aim":
        slide = (
            "Aim: press in your lane behind the foul line, pull back (a dashed line shows "
            "where it goes) and let go when the power meter's marker is where you want it."
        )
    else:
        slide = (
            "Flick: press on a pawn waiting at the near end of your track, swing it up the track "
            "toward the board and let go while it moves: it leaves with your pointer's speed "
            "and direction. Let go before the foul line."
        )
    keys = [
        slide,
        "Tab: the whole table, and back. W: each player's chance of winning.",
        "Esc: pause (Save game, S; Quit to menu, Q). F11: full screen. F1 or ?: this help.",
        "At a round's end: < and > show the other ways to move your scoring pawns, Enter "
        "accepts. Instant Home: click a scoring pawn (or 1-4) to send it HOME.",
    ]
    if hints:
        keys.append("H: the computer's suggested shot, drawn as a green arrow.")
    if invites:
        keys.append(
            "I or Invite: each seat nobody has joined yet, its web page's link as a QR code a "
            "phone's camera opens, over the score boards (I again, or Scores, shows them)."
        )
    return keys

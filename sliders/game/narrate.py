"""Each shot told in full sentences a person reads: who knocked whom where, where the slid pawn
stopped, and what the rules did about it.

Pure and pygame-free: the lines are built from what the physics reported (the shot's events and
rest statuses), the table as it stood before the shot, and what the rules did (the happenings).
:class:`sliders.game.turns.Turns` tells every shot it applies this way (``Turns.news()``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from sliders.boards import Face
from sliders.core.outcome import (
    SEAT_COLOURS,
    SEATS,
    EventType,
    PawnRest,
    ShotResult,
    Status,
    pawn_seat,
)
from sliders.rules import Advanced, Happening, InstantHome, Penalty, PointsLost, Won
from sliders.rules.state import square_name

MOVED = 0.002
"""a pawn on the table that moves less than this (m) during a shot is not told as knocked"""


def narrate_shot(
    result: ShotResult,
    happened: Sequence[Happening],
    before: Sequence[PawnRest] = (),
    face: Face | None = None,
) -> list[str]:
    """The lines telling one shot: first every pawn on the table it moved, in the order they were
    hit, then where the slid pawn ended, then a win if the shot won the game.

    ``before`` is the table as the shot found it; ``face`` gives zones their names (without it,
    points alone). Each line is one full sentence, e.g. "Red 3 knocks Yellow 1 off the board:
    Yellow's pawn on 4 goes back to START." or "Blue 2 stops in ring 4 (4 points)."
    """
    was = {p.id: p for p in before}
    firsts = _first_contacts(result)
    lines: list[tuple[float, str]] = []
    for p in result.pawns:
        if p.id == result.shooter or p.id not in was:
            continue
        old = was[p.id]
        if p.status.in_play and math.hypot(p.x - old.x, p.y - old.y) < MOVED:
            continue
        t, by = firsts.get(p.id, (math.inf, result.shooter))
        lines.append((t, _knock(by, p, old, happened, face)))
    lines.sort(key=lambda tl: tl[0])
    out = [line for _, line in lines]
    out.append(_slid(result.pawn(result.shooter), happened, face))
    out += [_won(h) for h in happened if isinstance(h, Won)]
    return out


def pawn_name(pid: str) -> str:
    """A roller pawn as a person names it: ``south-3`` → ``Red 3``."""
    seat, number = pid.rsplit("-", 1)
    return f"{seat_name(seat)} {number}"


PAWN_ID = re.compile(r"\b(" + "|".join(SEATS) + r")-(\d)\b")
"""a roller pawn's id in running text (``north-1``)"""


def name_pawns(words: str) -> str:
    """``words`` with every pawn id in them as a person names the pawn, as the board shows it:
    "knock north-1 off" → "knock Yellow 1 off"."""
    return PAWN_ID.sub(lambda m: pawn_name(m.group(0)), words)


def seat_name(seat: str) -> str:
    """A seat as a person names it, by its colour: ``south`` → ``Red``."""
    return SEAT_COLOURS.get(seat, seat).capitalize()


def place(p: PawnRest, face: Face | None = None) -> str:
    """Where a pawn in play stands, as the end of a sentence: "in ring 4 (4 points)"."""
    if p.status is Status.OWN_TRACK:
        return f"on {seat_name(p.seat)}'s own track (no points yet)"
    if p.status is Status.TIPPING:
        return f"on the board's edge, tipping ({_points(p.choices)})"
    if p.status is Status.HOLE_EDGE:
        return f"on the edge of the hole ({_points(p.choices)})"
    if p.status is Status.ON_TARGET:
        return f"{_zone(p, face)} ({_points(p.choices)})"
    return REMOVED_WHERE.get(p.status, str(p.status))


REMOVED_WHERE: dict[Status, str] = {
    Status.OTHER_TRACK: "on another player's track",
    Status.OFF_BOARD: "off the board",
    Status.OFF_SIDE: "off a side of the board",
    Status.SORRY_CORNER: "onto a SORRY! corner",
    Status.IN_HOLE: "into the hole",
    Status.DANGER_DOT: "onto a danger dot",
    Status.KNOCKED_OVER: "over",
    Status.FOUL: "beyond the foul line",
}
"""where a removed pawn went, as a knock sends it ("knocks Yellow 1 off the board")"""

SLID_REMOVED: dict[Status, str] = {
    Status.OTHER_TRACK: "stops on another player's track",
    Status.OFF_BOARD: "slides off the board",
    Status.OFF_SIDE: "slides off a side of the board",
    Status.SORRY_CORNER: "stops on a SORRY! corner",
    Status.IN_HOLE: "drops into the hole",
    Status.DANGER_DOT: "stops on a danger dot",
    Status.KNOCKED_OVER: "is knocked over",
    Status.FOUL: "is a foul (the hand crossed the foul line)",
}
"""what a slid pawn that left play did"""


# -- inside -----------------------------------------------------------------------------------------


def _first_contacts(result: ShotResult) -> dict[str, tuple[float, str]]:
    """For each pawn touched during the shot: when it was first touched, and by which pawn."""
    firsts: dict[str, tuple[float, str]] = {}
    for e in result.events:
        if e.type is not EventType.CONTACT or len(e.pawns) != 2:
            continue
        a, b = e.pawns
        for hit, by in ((a, b), (b, a)):
            if hit not in firsts and hit != result.shooter:
                firsts[hit] = (e.t, by)
    return firsts


def _knock(
    by: str, p: PawnRest, old: PawnRest, happened: Sequence[Happening], face: Face | None
) -> str:
    who, whom = pawn_name(by), pawn_name(p.id)
    if p.status.removed:
        return f"{who} knocks {whom} {REMOVED_WHERE[p.status]}: {_consequence(p, happened)}."
    now, then = place(p, face), place(old, face)
    if now == then:
        return f"{who} nudges {whom}, which stays {now}."
    return f"{who} knocks {whom} {_moved(now)}."


def _slid(p: PawnRest, happened: Sequence[Happening], face: Face | None) -> str:
    who = pawn_name(p.id)
    if p.status.removed:
        return f"{who} {SLID_REMOVED[p.status]}: {_consequence(p, happened)}."
    return f"{who} stops {place(p, face)}."


def _consequence(p: PawnRest, happened: Sequence[Happening]) -> str:
    """What the rules did about a pawn that left play, as the end of a sentence."""
    owner = seat_name(pawn_seat(p.id))
    for h in happened:
        if isinstance(h, Penalty) and h.cause == p.id:
            if h.scoring is None:
                return f"out for the round, and {owner} has no pawn to send back"
            return f"{owner}'s pawn on {square_name(h.from_square)} goes back to START"
        if isinstance(h, InstantHome) and h.cause == p.id:
            if h.scoring is None:
                return f"{owner} has no scoring pawn left to send HOME"
            return f"{owner}'s pawn on {square_name(h.from_square)} goes HOME"
    return "out for the round, no penalty"


def _zone(p: PawnRest, face: Face | None) -> str:
    if face is not None and face.choice_points and p.choices == face.choice_points:
        return f"in the {'/'.join(str(c) for c in face.choice_points)} circle"
    if face is not None and p.points == face.base_points and len(p.choices) == 1:
        return "on the board outside the rings"
    return f"in ring {p.points}"


def _points(choices: tuple[int, ...]) -> str:
    if len(choices) > 1:
        head = ", ".join(str(c) for c in choices[:-1])
        return f"{head} or {choices[-1]} points"
    n = choices[0] if choices else 0
    return "1 point" if n == 1 else f"{n} points"


def _moved(place_now: str) -> str:
    """A knock's destination: "in ring 2 (2 points)" → "into ring 2 (2 points)"."""
    for old, new in (("in ", "into "), ("on ", "onto ")):
        if place_now.startswith(old):
            return new + place_now[len(old) :]
    return "to " + place_now


def _won(h: Won) -> str:
    how = "at once" if h.instant else f"at the end of round {h.round}"
    return f"{seat_name(h.seat)} has all four pawns HOME and wins {how}!"


def scored(pawn: str, points: int, scoring: int, before: int) -> str:
    """A roller pawn's points moving a scoring pawn at round end, as a person reads it: "Red 3
    scores 5: pawn 1 START → 5" (``scoring`` counts from 0, ``before`` is its square)."""
    after = square_name(before + points)
    return f"{pawn_name(pawn)} scores {points}: pawn {scoring + 1} {square_name(before)} → {after}"


def narrate_scoring(h: Advanced | PointsLost | Won) -> str:
    """What round-end scoring did, in the words of :func:`scored` (the log's own words name
    pawns as ``red#3``)."""
    if isinstance(h, Advanced):
        return scored(h.pawn, h.points, h.scoring, h.from_square)
    if isinstance(h, PointsLost):
        return f"{pawn_name(h.pawn)} scores {h.points} but no pawn can take it: lost"
    return _won(h)


def wrap(line: str, fits: Callable[[str], bool]) -> list[str]:
    """``line`` broken between words into pieces that each ``fits`` (a word too long to fit
    alone stands on its own piece, whole): a sentence is shown in full, never cut short."""
    pieces: list[str] = []
    current = ""
    for word in line.split():
        attempt = f"{current} {word}" if current else word
        if current and not fits(attempt):
            pieces.append(current)
            current = word
        else:
            current = attempt
    if current:
        pieces.append(current)
    return pieces


def wrap_all(lines: Sequence[str], fits: Callable[[str], bool]) -> list[str]:
    """Every line of ``lines`` wrapped (see :func:`wrap`), in order."""
    return [piece for line in lines for piece in wrap(line, fits)]

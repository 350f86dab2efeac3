"""The scorekeeper's short words: parse what a player types, and show the score boards.

A shot line is pairs of *who* and *what*, separated by spaces or commas; the first pair is the
shot of the player to move, the others are pawns already on the table that it knocked about::

    red 3                   red slides; the pawn stops on the 3 ring
    red#3 tip               red slides roller pawn 3; it is tipping
    blue 4, red#1 off       blue's pawn stops on 4 and knocks red's pawn 1 off the board
    green hole@2            (Instant Home) into the hole; the pawn on square 2 jumps HOME

*who* is a colour or a seat, with ``#N`` to name roller pawn N (the shot's default is the
lowest-numbered pawn in hand; a knocked pawn's number may be left out when that player has
only one pawn on the table). *what* is one of :data:`WORDS` or a number (see :func:`parse_what`).
Numbers are written in ASCII digits (``²`` or ``٣`` are not numbers here).

At the end of a round a player's moves are ``POINTS@SQUARE`` words: ``3@0 1@5`` moves a pawn on
START three spaces and a pawn on square 5 one space (``none`` when nothing can move).
"""

from __future__ import annotations

import itertools

from sliders.boards.faces import HoleRule, worth
from sliders.boards.faces import face as face_named
from sliders.core.checks import ascii_whole
from sliders.core.outcome import PAWNS_PER_PLAYER, PawnRest, ShotResult, Status, pawn_id, pawn_seat

from .scoring import Assignment, Move, check_assignment, scores_of
from .state import (
    HOME,
    START,
    GameState,
    Phase,
    RulesError,
    colour,
    parse_seat,
    pawn_label,
    square_name,
)

WORDS: dict[str, Status] = {
    "track": Status.OWN_TRACK,
    "own": Status.OWN_TRACK,
    "tip": Status.TIPPING,
    "tipping": Status.TIPPING,
    "edge": Status.HOLE_EDGE,
    "other": Status.OTHER_TRACK,
    "off": Status.OFF_BOARD,
    "side": Status.OFF_SIDE,
    "sorry": Status.SORRY_CORNER,
    "corner": Status.SORRY_CORNER,
    "hole": Status.IN_HOLE,
    "dot": Status.DANGER_DOT,
    "over": Status.KNOCKED_OVER,
    "knocked": Status.KNOCKED_OVER,
    "foul": Status.FOUL,
}

HELP = """\
shot lines (the first pair is the shot of the player to move):
  red 3          the pawn stops on a ring worth 3 (on a line: the higher ring)
  red 0 | track  it stops on red's own track (stays, scores 0)
  red tip        tipping between red's track and the board (stays, scores 1)
  red other      stops on another player's track (out, no penalty)
  red sorry      rests on a SORRY! corner (out, penalty)
  red off        goes off the board at a corner, or off a track (out, penalty)
  red side       goes off a side of the board, clear of its corners (out, penalty; none
                 with the house rule corners-only)
  red over       knocked over (out, no penalty)
  red foul       hand over the foul line (out, no penalty)
  red hole       into the hole: Instant Home jumps a pawn HOME, Instant Sorry! is a penalty
  red hole@3     Instant Home: the scoring pawn on square 3 jumps HOME (default: the furthest back)
  red edge       at rest on the hole's edge (stays; 4, or 4/5/6 on Instant Sorry!)
  red circle     Instant Sorry!: touching the 4/5/6 circle (4, 5 or 6 also mean it)
  red dot        Danger Dots: on a danger dot (out, scores nothing)
  red#3 2        name the roller pawn slid (default: the lowest-numbered in hand)
  red 4, blue#2 off, red#1 3
                 then the pawns already on the table that the shot moved, with their new place
round end:
  ok             accept the moves shown
  red 3@0 1@5    red's moves: 3 onto a pawn on START, 1 onto the pawn on square 5
  red none       red moves nothing (only when nothing can move)
  moves red      list red's legal moves
any time:
  undo           take back the last shot or round score
  board          show the score boards again
  help           this list
  quit           save and stop (end of input does the same)"""


def parse_shot(state: GameState, line: str) -> tuple[ShotResult, dict[str, int]]:
    """The shot result ``line`` describes, and its Instant Home choices (roller pawn → scoring
    pawn)."""
    if state.phase is not Phase.SHOOTING:
        raise RulesError(
            "no shot now: " + ("the game is over" if state.finished else "score first")
        )
    tokens = line.replace(",", " ").split()
    if not tokens or len(tokens) % 2:
        raise RulesError("expected pairs like 'red 3' or 'red 4, blue#2 off' (try 'help')")
    pairs = list(zip(tokens[::2], tokens[1::2], strict=True))
    turn = state.turn or ""
    seat, number = parse_who(pairs[0][0])
    if seat != turn:
        raise RulesError(f"it is {colour(turn)}'s turn, not {colour(seat)}'s")
    hand = state.player(seat).in_hand
    if number is None:
        shooter = hand[0]
    else:
        shooter = pawn_id(seat, number)
        if shooter not in hand:
            raise RulesError(f"{pawn_label(shooter)} is not in hand")
    home: dict[str, int] = {}
    moved: dict[str, PawnRest] = {}
    moved[shooter] = _rest(
        state, shooter, pairs[0][1], home, PawnRest(shooter, seat, 0, 0, Status.IN_HAND)
    )
    for who, what in pairs[1:]:
        pid = _on_table(state, who)
        if pid in moved:
            raise RulesError(f"{pawn_label(pid)} is named twice")
        old = state.table_pawn(pid)
        assert old is not None
        moved[pid] = _rest(state, pid, what, home, old)
    pawns = [moved[shooter]] + [moved.get(p.id, p) for p in state.table]
    return ShotResult(face=state.face, shooter=shooter, pawns=tuple(pawns)), home


def parse_who(word: str) -> tuple[str, int | None]:
    """``red`` → (south, None); ``red#2`` → (south, 2)."""
    name, _, number = word.partition("#")
    seat = parse_seat(name)
    if not _:
        return seat, None
    n = ascii_whole(number)
    if n is None or not 1 <= n <= PAWNS_PER_PLAYER:
        raise RulesError(f"{word!r}: a roller pawn number is 1 to {PAWNS_PER_PLAYER}")
    return seat, n


def parse_what(face: str, word: str) -> tuple[Status, tuple[int, ...], int | None]:
    """(status, scores, square named by ``hole@SQUARE``) for one *what* word on ``face``.

    Numbers are the ring the pawn touches (the higher one on a line); 0 is its own track. On
    Instant Sorry! 4, 5 and 6 (or ``circle``) mean the 4/5/6 circle.
    """
    word, record = word.lower(), face_named(face)
    square: int | None = None
    if word.startswith("hole@"):
        square = parse_square(word[5:])
        word = "hole"
    if word == "circle":
        if not record.choice_points:
            raise RulesError(f"{record.title} has no 4/5/6 circle")
        return Status.ON_TARGET, record.choice_points, None
    n = ascii_whole(word)
    if n is not None:
        if n == 0:
            return Status.OWN_TRACK, (0,), None
        if n in record.choice_points:
            return Status.ON_TARGET, record.choice_points, None
        top = record.top_points
        if not 1 <= n <= top:
            raise RulesError(f"no ring is worth {n} on {face}")
        return Status.ON_TARGET, (n,), None
    if word not in WORDS:
        raise RulesError(f"unknown word {word!r} (try 'help')")
    status = WORDS[word]
    if square is not None and record.hole is not HoleRule.HOME:
        raise RulesError("hole@SQUARE chooses the pawn to jump HOME, on Instant Home only")
    return status, (), square


def parse_square(word: str) -> int:
    w = word.lower()
    if w in ("start", "s"):
        return START
    n = ascii_whole(w)
    if n is not None and START <= n < HOME:
        return n
    raise RulesError(f"{word!r} is not a square a pawn can move from (START or 1 to 5)")


def parse_assignment(state: GameState, seat: str, words: list[str]) -> Assignment:
    """A seat's moves from ``POINTS@SQUARE`` words (``none`` for no move), checked legal."""
    if [w.lower() for w in words] in (["none"], ["-"]):
        return check_assignment(state, seat, ())
    wanted: list[tuple[int, int]] = []
    for w in words:
        points, at, square_text = w.partition("@")
        n = ascii_whole(points)
        if not at or n is None:
            raise RulesError(f"{w!r}: write moves as POINTS@SQUARE, e.g. 3@0 or 1@5")
        wanted.append((n, parse_square(square_text)))
    board = state.player(seat).board
    scoring: list[int] = []
    for _points, square in wanted:
        free = [i for i, sq in enumerate(board) if sq == square and i not in scoring]
        if not free:
            raise RulesError(f"{colour(seat)} has no more pawns on square {square_name(square)}")
        scoring.append(free[0])
    pawns = sorted(state.on_table(seat), key=lambda p: p.id)
    for chosen in itertools.permutations(pawns, len(wanted)):
        if all(pts in scores_of(p, state.face) for p, (pts, _) in zip(chosen, wanted, strict=True)):
            moves = tuple(
                Move(p.id, i, pts) for p, i, (pts, _) in zip(chosen, scoring, wanted, strict=True)
            )
            return check_assignment(state, seat, moves)
    have = ", ".join(_score_text(state, p) for p in pawns) or "nothing"
    raise RulesError(f"{colour(seat)}'s pawns do not score that ({have})")


def format_assignment(state: GameState, seat: str, moves: Assignment) -> str:
    """``3@0 1@5`` (and what is lost), as a player would type it back."""
    board = state.player(seat).board
    text = " ".join(f"{m.points}@{board[m.scoring]}" for m in moves) or "none"
    used = {m.pawn for m in moves}
    lost = [
        str(max(scores_of(p, state.face)))
        for p in state.on_table(seat)
        if p.id not in used and max(scores_of(p, state.face)) > 0
    ]
    return text + (f"   (lost: {', '.join(lost)})" if lost else "")


def format_boards(state: GameState) -> str:
    """Every player's score board and roller pawns, one line each."""
    lines = []
    for seat in state.seats:
        p = state.player(seat)
        mark = ">" if seat == state.turn else " "
        squares = " ".join(f"{square_name(sq):>5}" for sq in sorted(p.board))
        table = ", ".join(
            f"{pawn_label(t.id)} {_score_text(state, t)}"
            for t in sorted(state.on_table(seat), key=lambda t: t.id)
        )
        parts = [f"hand {len(p.in_hand)}"]
        if table:
            parts.append(f"table {table}")
        if p.removed:
            parts.append("out " + " ".join(pawn_label(r) for r in p.removed))
        lines.append(f"{mark} {colour(seat):<7}{squares}   | {'; '.join(parts)}")
    return "\n".join(lines)


def _score_text(state: GameState, pawn: PawnRest) -> str:
    scores = scores_of(pawn, state.face)
    label = {
        Status.OWN_TRACK: "track",
        Status.TIPPING: "tip",
        Status.HOLE_EDGE: "edge",
    }.get(pawn.status, "on")
    return f"{label} " + "/".join(str(s) for s in scores)


def _rest(state: GameState, pid: str, what: str, home: dict[str, int], old: PawnRest) -> PawnRest:
    status, scores, square = parse_what(state.face, what)
    if status is Status.IN_HOLE and state.face_record.hole is HoleRule.HOME and square is not None:
        board = state.player(old.seat).board
        taken = {v for k, v in home.items() if pawn_seat(k) == old.seat}
        free = [i for i, sq in enumerate(board) if sq == square and i not in taken]
        if not free:
            raise RulesError(f"{colour(old.seat)} has no pawn on square {square_name(square)}")
        home[pid] = free[0]
    if not status.in_play:
        scores = (0,)
    elif status is not Status.ON_TARGET:
        scores = scores_of(PawnRest(pid, old.seat, 0, 0, status), state.face)
    points = worth(scores)
    return PawnRest(pid, old.seat, old.x, old.y, status, points, scores)


def _on_table(state: GameState, who: str) -> str:
    seat, number = parse_who(who)
    mine = state.on_table(seat)
    if number is None:
        if len(mine) != 1:
            name = colour(seat)
            raise RulesError(f"{name} has {len(mine)} pawns on the table; name one, e.g. {name}#1")
        return mine[0].id
    pid = pawn_id(seat, number)
    if state.table_pawn(pid) is None:
        raise RulesError(f"{pawn_label(pid)} is not on the table")
    return pid

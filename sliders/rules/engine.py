"""The rules: apply one shot's outcome, and score a round.

Both functions are pure: they take a :class:`GameState` and return a new one with the list of
:mod:`happenings <sliders.rules.happenings>` in the order they happened. The rules read rest
statuses, points and events only.

Removal with penalty (the owner's highest non-HOME scoring pawn goes back to START):
``sorry_corner``, ``off_board``, ``off_side`` (unless the house rule ``corners-only`` is played)
and ``in_hole`` where the face's hole is a penalty (Instant Sorry!). Removal without penalty:
``other_track``, ``knocked_over``, ``foul``, ``danger_dot``.
``in_hole`` where the hole sends a pawn HOME (Instant Home) moves one of the owner's scoring
pawns HOME at once, and the fourth one HOME wins at once. What the hole does is the face
record's :class:`~sliders.boards.faces.HoleRule`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from sliders.boards.faces import Face, HoleRule, worth
from sliders.boards.faces import face as face_named
from sliders.core.outcome import EventType, PawnRest, ShotResult, Status, pawn_seat

from .happenings import (
    Advanced,
    Happening,
    InstantHome,
    PawnRemoved,
    Penalty,
    PointsLost,
    RoundOver,
    RoundStarted,
    TurnPassed,
    Won,
)
from .house import CORNERS_ONLY, NO_KNOCK_PENALTY
from .scoring import Assignment, Move, apply_assignment, check_assignment, scores_of
from .scoring import default_assignment as _default_assignment
from .state import (
    HOME,
    START,
    GameState,
    Phase,
    PlayerState,
    RulesError,
    colour,
    pawn_label,
)


def apply_shot(
    state: GameState, result: ShotResult, home: Mapping[str, int] | None = None
) -> tuple[GameState, list[Happening]]:
    """The state after the player to move slid ``result.shooter`` and everything came to rest.

    ``result.pawns`` must list the shot pawn and every pawn that was on the table, each with its
    status after the shot. ``home`` chooses, on Instant Home, which scoring pawn (0..3) each
    roller pawn that dropped into the hole sends HOME; by default :func:`instant_home_default`.
    """
    check_shot(state, result)
    home = dict(home or {})
    for pid, index in home.items():
        if pid not in {p.id for p in result.pawns if _instant_home(state.face_record, p.status)}:
            raise RulesError(f"{pawn_label(pid)} did not drop into the hole on Instant Home")
        board = state.player(pawn_seat(pid)).board
        if not 0 <= index < len(board) or board[index] == HOME:
            raise RulesError(f"scoring pawn {index + 1} cannot jump HOME")
    targets = [(pawn_seat(pid), index) for pid, index in home.items()]
    if len(set(targets)) != len(targets):
        raise RulesError("each pawn in the hole sends a different scoring pawn HOME")

    # one new state at the end (not a copy at each change: a game applies a shot every step)
    players = {p.seat: p for p in state.players}
    shooter = players[result.seat]
    players[result.seat] = replace(
        shooter, in_hand=tuple(p for p in shooter.in_hand if p != result.shooter)
    )
    arrival = {p.id: i for i, p in enumerate((*state.table, result.pawn(result.shooter)))}
    staying = sorted((p for p in result.pawns if p.status.in_play), key=lambda p: arrival[p.id])
    happened: list[Happening] = []
    winner = state.winner
    for pawn in removal_order(state, result):
        spared = spared_penalties(state.house, knocked=pawn.seat != result.seat)
        winner = _remove(players, pawn, home.get(pawn.id), state.face_record, state.round, winner,
                         happened, spared)  # fmt: skip
    turn, phase = None, Phase.OVER
    if winner is None:
        for seat in state.turn_order(result.seat)[1:] + (result.seat,):
            if players[seat].in_hand:
                happened.append(TurnPassed(seat))
                turn, phase = seat, Phase.SHOOTING
                break
        else:
            happened.append(RoundOver(state.round))
            phase = Phase.SCORING
    after = replace(
        state,
        players=tuple(players.values()),
        table=tuple(staying),  # in the order the pawns arrived
        turn=turn,
        phase=phase,
        winner=winner,
    )
    return after, happened


def score_round(
    state: GameState, assignments: Mapping[str, Sequence[Move]] | None = None
) -> tuple[GameState, list[Happening]]:
    """Score the round that just ended, check for a winner and start the next round.

    ``assignments`` maps a seat to its chosen assignment; a seat left out takes
    :func:`default_assignment`. Ties at the end of a round go to the tied player closest to the
    round's starter in turn order, the starter first.
    """
    return score_assigned(state, round_assignments(state, assignments))


def round_assignments(
    state: GameState, assignments: Mapping[str, Sequence[Move]] | None = None
) -> dict[str, Assignment]:
    """Every seat's assignment for the round being scored, in turn order: those of
    ``assignments`` checked (:func:`check_assignment`), the others :func:`default_assignment`."""
    if state.phase is not Phase.SCORING:
        raise RulesError(
            "the game is over" if state.finished else "the round is not over: pawns are in hand"
        )
    chosen = dict(assignments or {})
    for seat in chosen:
        if seat not in state.seats:
            raise RulesError(f"{seat} is not playing")
    out: dict[str, Assignment] = {}
    for seat in state.turn_order():
        default = _default_assignment(state, seat)
        if seat not in chosen:
            out[seat] = default
        elif tuple(chosen[seat]) == default:  # legal already: the check's answer, sorted
            out[seat] = tuple(sorted(default, key=lambda m: m.pawn))
        else:
            out[seat] = check_assignment(state, seat, chosen[seat])
    return out


def score_assigned(
    state: GameState, moves: Mapping[str, Assignment]
) -> tuple[GameState, list[Happening]]:
    """:func:`score_round` with every seat's assignment already checked
    (:func:`round_assignments`)."""
    happened: list[Happening] = []
    for seat in state.turn_order():
        player = state.player(seat)
        after = apply_assignment(player.board, moves[seat])
        for m in moves[seat]:
            happened.append(
                Advanced(
                    seat, m.pawn, m.scoring, m.points, player.board[m.scoring], after[m.scoring]
                )
            )
        used = {m.pawn for m in moves[seat]}
        for p in state.on_table(seat):
            best = worth(scores_of(p, state.face_record))
            if p.id not in used and best > 0:
                happened.append(PointsLost(seat, p.id, best))
        state = state.with_player(replace(player, board=after))

    for seat in state.turn_order():
        if state.player(seat).all_home:
            happened.append(Won(seat, state.round, instant=False))
            return replace(state, winner=seat, turn=None, phase=Phase.OVER), happened

    starter = state.left_of(state.starter)
    state = replace(
        state,
        players=tuple(PlayerState.fresh(p.seat, p.board) for p in state.players),
        table=(),
        round=state.round + 1,
        starter=starter,
        turn=starter,
        phase=Phase.SHOOTING,
    )
    happened.append(RoundStarted(state.round, starter))
    return state, happened


def drawn(state: GameState, max_rounds: int | None) -> bool:
    """True when the game is a draw by the round cap: nobody has won and ``max_rounds`` rounds
    have been scored (None: no cap; the rulebook has none, a tournament or an environment sets
    one so that every game ends)."""
    return max_rounds is not None and not state.finished and state.round > max_rounds


def default_assignment(state: GameState, seat: str) -> tuple[Move, ...]:
    """The assignment a sensible player would make; see :mod:`sliders.rules.scoring`."""
    return _default_assignment(state, seat)


def default_assignments(state: GameState) -> dict[str, tuple[Move, ...]]:
    """Every seat's default assignment for the round being scored."""
    return {seat: _default_assignment(state, seat) for seat in state.turn_order()}


def penalty_target(board: Sequence[int]) -> int | None:
    """The scoring pawn a penalty sends to START: the highest not HOME (the lowest-numbered of
    equals), or None when every pawn is on START or HOME."""
    best: int | None = None
    for i, sq in enumerate(board):
        if START < sq < HOME and (best is None or sq > board[best]):
            best = i
    return best


def instant_home_default(board: Sequence[int]) -> int | None:
    """The scoring pawn the hole sends HOME on Instant Home by default: the one furthest from
    HOME (it saves the most spaces; the lowest-numbered of equals), None if all are HOME."""
    best: int | None = None
    for i, sq in enumerate(board):
        if sq != HOME and (best is None or sq < board[best]):
            best = i
    return best


def penalised(face: Face | str, status: Status) -> bool:
    """Whether removal with ``status`` costs its owner a penalty on ``face`` (a face record or
    its name)."""
    if status is Status.IN_HOLE:
        return face_named(face).hole is HoleRule.PENALTY
    return status in (Status.SORRY_CORNER, Status.OFF_BOARD, Status.OFF_SIDE)


def spared_penalties(house: Iterable[str], knocked: bool) -> frozenset[Status]:
    """The removals whose penalty the house rules ``house`` spare a pawn (``knocked``: by
    another seat's slide): under ``no-knock-penalty`` every one a knock causes, under
    ``corners-only`` leaving the board across a side."""
    spared: set[Status] = set()
    if NO_KNOCK_PENALTY in house and knocked:
        spared |= {Status.SORRY_CORNER, Status.OFF_BOARD, Status.OFF_SIDE}
    if CORNERS_ONLY in house:
        spared.add(Status.OFF_SIDE)
    return frozenset(spared)


def removal_order(state: GameState, result: ShotResult) -> list[PawnRest]:
    """The pawns this shot removed, in the order they left play.

    A pawn named by an event (fell off, dropped into the hole, knocked over, foul) leaves at that
    event's time; the others (coming to rest on a corner, a dot or another track) after them:
    the shot pawn first, then by seat in turn order from the shooter.
    """
    gone = [p for p in result.pawns if p.status.removed]
    if not gone:
        return gone
    leaving = _LEAVING
    first_seen: dict[str, float] = {}
    for e in result.events:
        if e.type in leaving:
            for pid in e.pawns:
                first_seen.setdefault(pid, e.t)
    seat_rank = {s: i for i, s in enumerate(state.turn_order(result.seat))}

    def key(p: PawnRest) -> tuple[int, float, int, int, str]:
        if p.id in first_seen:
            return (0, first_seen[p.id], 0, 0, p.id)
        return (1, 0.0, p.id != result.shooter, seat_rank.get(p.seat, 99), p.id)

    return sorted(gone, key=key)


def check_shot(state: GameState, result: ShotResult) -> None:
    """Raise :class:`RulesError` unless ``result`` is a shot the player to move may make now."""
    if state.phase is Phase.OVER:
        raise RulesError("the game is over")
    if state.phase is Phase.SCORING:
        raise RulesError("every pawn has been slid: score the round first")
    if result.face != state.face:
        raise RulesError(f"the shot was played on {result.face}, the game is {state.face}")
    seat = result.seat
    if seat != state.turn:
        raise RulesError(f"it is {_who(state.turn)}'s turn, not {_who(seat)}'s")
    if result.shooter not in state.player(seat).in_hand:
        raise RulesError(f"{pawn_label(result.shooter)} is not in hand")
    ids = [p.id for p in result.pawns]
    named = set(ids)
    if len(named) != len(ids):
        raise RulesError("the shot result names a pawn twice")
    standing = {q.id: q for q in state.table}
    expected = set(standing)
    expected.add(result.shooter)
    if named != expected:
        missing = sorted(expected - named)
        if missing:
            raise RulesError(f"the shot result leaves out {pawn_label(missing[0])}, on the table")
        extra = sorted(named - expected)
        raise RulesError(f"the shot result names {pawn_label(extra[0])}, not on the table")
    face = state.face_record
    for p in result.pawns:
        if standing.get(p.id) is not p:  # a pawn left as it stood was checked when it arrived
            _check_pawn(face, p)


def _check_pawn(face: Face, p: PawnRest) -> None:
    if p.seat != pawn_seat(p.id):
        raise RulesError(f"{p.id} belongs to {pawn_seat(p.id)}, not {p.seat}")
    if p.status in _PLAIN:
        return
    if p.status is Status.IN_HAND:
        raise RulesError(f"{pawn_label(p.id)} cannot go back into the hand during a shot")
    if p.status in (Status.IN_HOLE, Status.HOLE_EDGE) and not face.has_hole:
        raise RulesError(f"{face.name} has no centre hole ({pawn_label(p.id)} is {p.status})")
    if p.status is Status.DANGER_DOT and not face.dots_remove:
        raise RulesError(f"{face.name} has no danger dots ({pawn_label(p.id)} is {p.status})")
    if p.status is Status.ON_TARGET:
        top = _top_points(face)
        if not p.choices or any(not 1 <= c <= top for c in p.choices):
            raise RulesError(
                f"{pawn_label(p.id)} on the target must score 1 to {top}, not {list(p.choices)}"
            )


def _remove(
    players: dict[str, PlayerState],
    pawn: PawnRest,
    home: int | None,
    face: Face,
    round: int,
    winner: str | None,
    happened: list[Happening],
    spared: frozenset[Status] = frozenset(),
) -> str | None:
    """Take ``pawn`` out of play in ``players`` (a penalty, or a pawn sent HOME, as ``face``
    says), what happened appended to ``happened``; the game's winner after it. ``spared``: the
    removals whose penalty the house rules spare this pawn (:func:`spared_penalties`)."""
    seat = pawn.seat
    penalty = penalised(face, pawn.status) and pawn.status not in spared
    player = players[seat]
    happened.append(PawnRemoved(pawn.id, seat, pawn.status, penalty))
    board = list(player.board)
    if penalty:
        target = penalty_target(board)
        was = START if target is None else board[target]
        happened.append(Penalty(seat, pawn.id, target, was))
        if target is not None:
            board[target] = START
    elif _instant_home(face, pawn.status):
        if home is not None and board[home] == HOME:
            raise RulesError(f"scoring pawn {home + 1} is already HOME")
        target = instant_home_default(board) if home is None else home
        was = HOME if target is None else board[target]
        happened.append(InstantHome(seat, pawn.id, target, was))
        if target is not None:
            board[target] = HOME
    player = players[seat] = replace(player, board=tuple(board), removed=(*player.removed, pawn.id))
    if winner is None and player.all_home:
        happened.append(Won(seat, round, instant=True))
        return seat
    return winner


_LEAVING = frozenset(
    (EventType.OFF_BOARD, EventType.IN_HOLE, EventType.KNOCKED_OVER, EventType.FOUL)
)
"""the events that take a pawn out of play as they happen"""

_PLAIN = frozenset(Status) - {
    Status.IN_HAND,
    Status.IN_HOLE,
    Status.HOLE_EDGE,
    Status.DANGER_DOT,
    Status.ON_TARGET,
}
"""the statuses any face allows, with nothing more to check"""

_TOPS: dict[str, tuple[Face, int]] = {}


def _top_points(face: Face) -> int:
    """``face.top_points``, worked out once for each face."""
    known = _TOPS.get(face.name)
    if known is None or known[0] is not face:
        known = _TOPS[face.name] = (face, face.top_points)
    return known[1]


def _instant_home(face: Face, status: Status) -> bool:
    return face.hole is HoleRule.HOME and status is Status.IN_HOLE


def _who(seat: str | None) -> str:
    return "nobody" if seat is None else colour(seat)

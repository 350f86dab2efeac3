"""One game, headless: the window's own game logic (:class:`sliders.game.match.Match`, which is
pygame-free) driven turn by turn from code.

The match keeps the rules' :class:`~sliders.rules.Game` (the log), seeds every shot's physics
from the game's seed and plays its computer seats; this module adds what a program needs to
sit at the table: a shot taken from any seat by any :class:`Player`, run to rest at once; the
Instant Home and round-end choices asked of each seat's player (or left to the rules' defaults);
and shots made legal before they are slid (:func:`legal_shot`), so a program's wish never ends
a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, cast

from sliders.boards import Face, Layout, Seat
from sliders.errors import UserError
from sliders.game.config import MatchConfig, SeatSpec
from sliders.game.match import Match
from sliders.outcome import ShotResult
from sliders.physics import PhysicsParams, Shot, ShotLimits, check_engine
from sliders.rules import Assignment, GameState, Happening, Move, Phase

RELEASE_CLEARANCE = 1e-4
"""how far (m) beyond two pawn radii from every pawn on the table a fitted release is kept"""


class Player(Protocol):
    """Anything that can sit at the table: :class:`sliders.ai.ComputerPlayer` is one."""

    def choose_shot(
        self, state: GameState, layout: Layout, face: Face, params: PhysicsParams | None = None
    ) -> Shot: ...

    def choose_assignment(self, state: GameState) -> Assignment: ...

    def choose_home(
        self,
        state: GameState,
        result: ShotResult,
        pawn: str,
        home: Mapping[str, int] | None = None,
    ) -> int | None: ...


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """A shot as slid (after :func:`legal_shot`), what the physics did and what the rules did."""

    shot: Shot
    result: ShotResult
    happened: tuple[Happening, ...]
    state_before: GameState


HomeChooser = Callable[[GameState, ShotResult, str, Mapping[str, int]], "int | None"]


class HeadlessGame:
    """A game on ``layout`` (a built-in name or a layout file) and ``face`` between ``seats``.

    ``computers`` maps a seat to a strength the match plays itself (see :meth:`computer_shot`);
    every other seat is played by the caller. ``seed`` fixes the physics of every shot and the
    computers' choices; ``engine`` is the physics engine of the game's shots (None: the default;
    the computers' searches use the default engine).
    """

    def __init__(
        self,
        face: str,
        layout: str,
        seats: Sequence[str],
        seed: int | None = None,
        *,
        starter: str | None = None,
        computers: Mapping[str, str] | None = None,
        params: PhysicsParams | None = None,
        engine: str | None = None,
    ) -> None:
        computers = dict(computers or {})
        specs = tuple(
            SeatSpec(s, "cpu", computers[s]) if s in computers else SeatSpec(s, "human")
            for s in seats
        )
        config = MatchConfig(face, layout, specs, seed, starter, check_engine(engine))
        self.match = Match(config, params)
        self.engine: str = check_engine(engine)
        self.layout: Layout = self.match.layout
        self.face: Face = self.match.face
        self.params: PhysicsParams = self.match.params
        self.shots = 0
        self.fitted = 0
        """shots whose release point was moved by :func:`legal_shot`"""

    # -- the game -----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.seats

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def seat(self, name: str) -> Seat:
        return self.layout.seat(name)

    def is_computer(self, seat: str) -> bool:
        return self.match.is_computer(seat)

    # -- shots ----------------------------------------------------------------------------------

    def computer_shot(self) -> Shot:
        """The shot of the computer seat to move, its search run to the end."""
        shot = self.match.think(None)
        if shot is None:
            raise UserError(f"{self.state.turn} is not a computer seat to move")
        return shot

    def shoot(self, shot: Shot, home: HomeChooser | None = None) -> ShotOutcome:
        """Slide ``shot`` for the seat to move (made legal first), run it to rest and apply it.

        ``home`` chooses, on Instant Home, which scoring pawn a pawn dropped into the hole sends
        HOME, for the seats the caller plays: called as ``home(state, result, pawn, chosen)``
        (None: the rules' default); a computer seat makes its own choice.
        """
        m = self.match
        before = m.state
        if before.phase is not Phase.SHOOTING or shot.seat != before.turn:
            raise UserError(f"it is not {shot.seat}'s turn")
        pawn = before.next_pawn() if shot.pawn is None else shot.pawn
        played = legal_shot(replace(shot, pawn=pawn), before, self.layout, self.params)
        if played != replace(shot, pawn=pawn):
            self.fitted += 1
        if _started(m, played) is not None:
            played = m.foul_shot(shot.seat, pawn or "", played.offset)
            why = _started(m, played)
            if why is not None:
                raise UserError(f"the physics refuses every shot of {shot.seat}: {why}")
        assert m.sim is not None
        m.sim.run()
        result = m.sim.result()
        chosen: dict[str, int] = {}
        while (choice := m.home_choice(result, chosen)) is not None:
            if home is not None and not m.is_computer(choice.seat):
                picked = home(m.state, result, choice.pawn, dict(chosen))
                chosen[choice.pawn] = choice.default if picked is None else picked
            else:
                chosen[choice.pawn] = m.home_for(choice, result, chosen)
        result, happened = self._finish(result, chosen)
        self.shots += 1
        return ShotOutcome(played, result, tuple(happened), before)

    def _finish(
        self, result: ShotResult, home: dict[str, int]
    ) -> tuple[ShotResult, list[Happening]]:
        """The match's ``finish``: the physics' result applied as it is."""
        m = self.match
        happened = m.game.shoot(result, home, m.slide)
        m.sim, m.slide = None, None
        m.results.append(result)
        return result, happened

    def score(self, assignments: Mapping[str, Assignment] | None = None) -> list[Happening]:
        """Score the round that just ended: each computer seat's own assignment, ``assignments``
        for the others (a seat left out takes the rules' default)."""
        chosen: dict[str, Sequence[Move]] = {
            s: self.match.assignment_for(s) for s in self.seats if self.is_computer(s)
        }
        chosen.update(assignments or {})
        return self.match.score(chosen)


def _started(match: Match, shot: Shot) -> str | None:
    """Start ``shot``: None when it rolls, else why the physics refused it (the match either
    raises or says so)."""
    start = cast(Callable[[Shot], object], match.start)  # None, or (newer) True/False
    try:
        started = start(shot)
    except UserError as exc:
        return str(exc)
    return "refused" if started is False else None


def release_limits(seat: Seat, params: PhysicsParams) -> tuple[float, float, float]:
    """(nearest release, foul line, widest offset) of ``seat``'s lane for a pawn of this size
    (from the shot's legal ranges, :class:`~sliders.physics.ShotLimits`)."""
    limits = ShotLimits.of(seat, params)
    return limits.min_release, limits.foul, max(limits.max_offset, 0.0)


def legal_shot(shot: Shot, state: GameState, layout: Layout, params: PhysicsParams) -> Shot:
    """``shot`` as a hand can slide it: clipped to the shot's legal ranges
    (:class:`~sliders.physics.ShotLimits`: speed, aim, offset, and a release inside the lane
    behind or on the foul line; a number that is not finite takes a middling value), and the
    release point clear of the pawns on the table: a pawn standing there moves the release
    across the lane to the nearest free offset, or (the whole width taken) further back, then
    forward, down the lane. Unchanged when it is legal already."""
    seat = layout.seat(shot.seat)
    limits = ShotLimits.of(seat, params)
    lo, foul = limits.min_release, limits.foul
    speed = limits.clip_speed(shot.speed) if math.isfinite(shot.speed) else 0.5
    angle = limits.clip_angle(shot.angle) if math.isfinite(shot.angle) else 0.0
    offset = limits.clip_offset(shot.offset) if math.isfinite(shot.offset) else 0.0
    along = foul if shot.release is None or not math.isfinite(shot.release) else shot.release
    along = limits.clip_release(along)
    r = params.pawn_radius
    step = r / 2
    tries = [along] + [
        a
        for k in range(1, 1 + int((foul - lo) / step) + 1)
        for a in (along - k * step, along + k * step)
        if lo - 1e-12 <= a <= foul + 1e-12
    ]
    for a in tries:
        found = _free_offset(state, seat, a, offset, r)
        if found is not None:
            along, offset = a, found
            break
    release = None if along >= foul - 1e-12 else along
    return replace(shot, speed=speed, angle=angle, offset=offset, release=release)


def _free_offset(state: GameState, seat: Seat, along: float, wish: float, r: float) -> float | None:
    """The offset across the lane nearest ``wish`` where a pawn released ``along`` metres down it
    clears every pawn on the table; None if none does."""
    limit = seat.width / 2 - r
    reach = 2 * r + RELEASE_CLEARANCE
    blocked: list[tuple[float, float]] = []
    for q in state.table:
        qa, qc = seat.from_world(q.x, q.y)
        d = abs(qa - along)
        if d < reach:
            half = math.sqrt(reach * reach - d * d)
            blocked.append((qc - half, qc + half))
    if not any(lo < wish < hi for lo, hi in blocked):
        return wish
    edges = [-limit, limit] + [e for iv in blocked for e in iv]
    free = [c for c in edges if -limit <= c <= limit and not any(lo < c < hi for lo, hi in blocked)]
    return min(free, key=lambda c: (abs(c - wish), c), default=None)

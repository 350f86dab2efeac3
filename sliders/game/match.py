"""A game played in the window, without the window: the rules' game, the table, the shot in
flight stepped at the physics' fixed step, the computer seats and their searches.

The screens draw a :class:`Match` and feed it input; everything here is pygame-free, so the same
logic runs headless. The physics advances with an accumulator: ``advance(dt)`` runs as many fixed
steps as the frame's time covers and keeps the positions before and after the last step, so a
frame can be drawn between them (``positions()`` interpolates).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from sliders.ai import ComputerPlayer, PlanSearch, ShotSearch
from sliders.boards import Face, HoleRule, Layout, Seat, face, load_layout
from sliders.errors import UserError
from sliders.game.config import MatchConfig
from sliders.game.narrate import narrate_shot, seat_name
from sliders.outcome import Event, EventType, ShotResult, Status
from sliders.physics import PhysicsParams, Shot, ShotLimits, Simulation
from sliders.rules import (
    HOME,
    START,
    Game,
    GameState,
    Happening,
    InstantHome,
    LayoutRef,
    Move,
    Penalty,
    Phase,
    Slide,
    apply_shot,
)

MIN_FLICK = 0.02
"""a release slower than this toward the board (m/s) puts the pawn back in the hand"""
MAX_STEPS_PER_FRAME = 240
"""at most this many physics steps in one frame (a stalled frame does not freeze the game)"""

Pos = tuple[float, float]


@dataclass(frozen=True, slots=True)
class HomeChoice:
    """An Instant Home choice to make: roller pawn ``pawn`` of ``seat`` dropped into the hole.

    ``board`` is the seat's score board at that moment (after anything this shot did before),
    ``options`` the scoring pawns (0..3) it may send HOME, ``default`` the rules' suggestion.
    """

    seat: str
    pawn: str
    board: tuple[int, ...]
    options: tuple[int, ...]
    default: int


@dataclass(frozen=True, slots=True)
class Flick:
    """A human's slide as the pointer made it: release point and velocity in the lane's frame."""

    seat: str
    pawn: str
    along: float
    across: float
    v_along: float
    v_across: float


class Match:
    """One game in progress, from the first shot to the winner."""

    def __init__(
        self,
        config: MatchConfig,
        params: PhysicsParams | None = None,
        game: Game | None = None,
    ) -> None:
        self.config = config
        self.params = params or PhysicsParams.default()
        self.layout: Layout = load_layout(config.layout, config.seat_names)
        self.face: Face = face(config.face)
        self.game = game or Game(config.face, config.seat_names, config.starter)
        if self.game.layout is None:
            self.game.layout = LayoutRef(config.layout, config.seat_names)
        streams = np.random.SeedSequence(config.seed).spawn(1 + len(config.seats))
        self.physics_rng = np.random.default_rng(streams[0])
        self.computers: dict[str, ComputerPlayer] = {
            spec.seat: ComputerPlayer(spec.seat, spec.level(), np.random.default_rng(stream))
            for spec, stream in zip(config.seats, streams[1:], strict=True)
            if not spec.human
        }
        self.sim: Simulation | None = None
        self.slide: Slide | None = None  # the shot in flight as slid, for the log
        self.search: ShotSearch | PlanSearch | None = None
        self.shots: list[Shot] = []  # every shot started, in order
        self.results: list[ShotResult] = []
        self._acc = 0.0
        self._prev: dict[str, tuple[float, float, float]] = {}
        self._curr: dict[str, tuple[float, float, float]] = {}
        self._seen_events = 0
        self.told: list[str] = []
        """every line told about the game so far (see :meth:`news`)"""
        self._seen_told = 0
        self.refused: list[tuple[Shot, str]] = []
        """shots the physics refused, with why"""

    # -- the game ---------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def turn(self) -> str | None:
        return self.state.turn

    def seat(self, name: str) -> Seat:
        return self.layout.seat(name)

    def is_computer(self, seat: str | None) -> bool:
        return seat in self.computers

    @property
    def rolling(self) -> bool:
        """True while a shot is in flight (started and not yet applied)."""
        return self.sim is not None

    @property
    def settled(self) -> bool:
        return self.sim is not None and not self.sim.moving

    # -- computer seats -----------------------------------------------------------------------------

    def think(self, seconds: float | None) -> Shot | None:
        """Advance the computer's search for up to ``seconds`` (None: to the end); the shot it
        plays once the search is over, else None."""
        seat = self.turn
        if seat is None or seat not in self.computers or self.sim is not None:
            return None
        if self.search is None:
            self.search = self.computers[seat].search(
                self.state, self.layout, self.face, self.params, self.config.engine
            )
        if not self.search.run(seconds):
            return None
        shot = self.search.executed()
        self.search = None
        return shot

    def assignment_for(self, seat: str) -> tuple[Move, ...]:
        """A computer seat's choice of assignment for the round being scored."""
        return self.computers[seat].choose_assignment(self.state)

    def home_for(self, choice: HomeChoice, result: ShotResult, home: dict[str, int]) -> int:
        """A computer seat's Instant Home choice, ``home`` holding those made before it."""
        picked = self.computers[choice.seat].choose_home(self.state, result, choice.pawn, home)
        return choice.default if picked is None else picked

    # -- Instant Home -------------------------------------------------------------------------------

    def home_choice(self, result: ShotResult, home: dict[str, int]) -> HomeChoice | None:
        """The next Instant Home choice ``result`` asks for, in the order the pawns left play,
        given the choices already in ``home``; None when none is left to make.

        A pawn whose owner has no real choice (one scoring pawn left off HOME, or all of them on
        the same square) takes the rules' default without asking.
        """
        if self.face.hole is not HoleRule.HOME or self.state.phase is not Phase.SHOOTING:
            return None
        _, happened = apply_shot(self.state, result, home)
        boards = {s: list(self.state.player(s).board) for s in self.state.seats}
        for h in happened:
            if isinstance(h, Penalty) and h.scoring is not None:
                boards[h.seat][h.scoring] = START
            elif isinstance(h, InstantHome) and h.scoring is not None:
                board = tuple(boards[h.seat])
                options = tuple(i for i, sq in enumerate(board) if sq != HOME)
                if h.cause not in home and len({board[i] for i in options}) > 1:
                    return HomeChoice(h.seat, h.cause, board, options, h.scoring)
                boards[h.seat][h.scoring] = HOME
        return None

    # -- a shot -------------------------------------------------------------------------------------

    def start(self, shot: Shot) -> bool:
        """Release ``shot``: the physics takes it from here. True when the shot is rolling.

        A shot the physics refuses (its release point taken by a pawn knocked back down the
        lane, a release off the lane, an impossible speed) does not end the game: the match says
        so in one line (see :meth:`news`), nothing is slid, and the same seat shoots again.
        """
        if self.sim is not None:
            raise UserError("a shot is already rolling")
        if self.state.phase is not Phase.SHOOTING or shot.seat != self.turn:
            raise UserError(f"it is not {shot.seat}'s turn")
        if shot.pawn is None:  # the seat's next pawn in hand (not one removed this round)
            shot = replace(shot, pawn=self.state.next_pawn())
        seed = int(self.physics_rng.integers(2**63))
        table, engine = self.state.table, self.config.engine
        try:
            sim = Simulation(self.layout, self.face, table, shot, self.params, seed, engine)
        except UserError as exc:
            self.refused.append((shot, str(exc)))
            who = seat_name(shot.seat)
            self._tell(f"{who}'s shot is refused ({exc}): {who} shoots again.")
            return False
        self.follow(sim)
        self.shots.append(shot)
        self.slide = Slide(
            shot.seat, sim.shooter, shot.speed, shot.angle, shot.offset, shot.release, seed
        )
        return True

    def follow(self, sim: Simulation) -> None:
        """Step and draw ``sim`` as the shot in flight (``start`` builds it from the game; a
        shot followed here alone is logged without its slide)."""
        self.sim = sim
        self.slide = None
        self._acc = 0.0
        self._curr = self.sim.positions()
        self._prev = dict(self._curr)
        self._seen_events = 0

    def advance(self, dt: float, max_steps: int = MAX_STEPS_PER_FRAME) -> None:
        """Move the shot in flight on by ``dt`` seconds of frame time (at most ``max_steps``
        physics steps' worth: a stalled frame drops the backlog rather than spiral).

        The exact engine is solved to the frame's own time, so the pawns are drawn where its
        formulas put them then; the pymunk engine runs the fixed steps ``dt`` covers and the
        frame is drawn between the last two (see :attr:`alpha`)."""
        sim = self.sim
        if sim is None:
            return
        if sim.engine == "exact":
            sim.run_until(sim.t + min(dt, max_steps * self.params.dt))
            self._curr = self._prev = sim.positions()
            self._acc = 0.0
            return
        self._acc += dt
        step = self.params.dt
        n = 0
        while self._acc >= step and sim.moving and n < max_steps:
            self._prev = self._curr
            sim.step()
            self._curr = sim.positions()
            self._acc -= step
            n += 1
        if n == max_steps:
            self._acc = 0.0  # fell behind: drop the backlog rather than spiral
        if not sim.moving:
            self._acc = 0.0
            self._prev = self._curr

    @property
    def alpha(self) -> float:
        """How far the frame is between the last two physics steps (0..1)."""
        return min(self._acc / self.params.dt, 1.0)

    def new_events(self) -> list[Event]:
        """Events of the shot in flight since the last call."""
        if self.sim is None:
            return []
        events = self.sim.events[self._seen_events :]
        self._seen_events = len(self.sim.events)
        return events

    def finish(self, home: dict[str, int] | None = None) -> tuple[ShotResult, list[Happening]]:
        """Apply the settled shot to the game, with the Instant Home choices in ``home`` (the
        others take the default); the result and what the rules did. The shot is told in full
        sentences (see :meth:`news`)."""
        if self.sim is None or self.sim.moving:
            raise UserError("no shot has come to rest")
        before = self.state.table
        result = self.sim.result()
        happened = self.game.shoot(result, home, self.slide)
        self.sim, self.slide = None, None
        self._prev, self._curr = {}, {}
        self.results.append(result)
        for line in narrate_shot(result, happened, before, self.face):
            self._tell(line)
        return result, happened

    def news(self) -> list[str]:
        """Lines for a person to read that arrived since the last call: each shot told in full
        sentences once it is applied, and any shot the physics refused."""
        lines = self.told[self._seen_told :]
        self._seen_told = len(self.told)
        return lines

    def _tell(self, line: str) -> None:
        self.told.append(line)

    def positions(self) -> dict[str, Pos]:
        """Where each pawn on the table is to be drawn now (interpolated while a shot rolls)."""
        if self.sim is None:
            return {p.id: (p.x, p.y) for p in self.state.table}
        a = self.alpha
        out: dict[str, Pos] = {}
        for pid, (x, y, _) in self._curr.items():
            px, py, _ = self._prev.get(pid, (x, y, 0.0))
            out[pid] = (px + (x - px) * a, py + (y - py) * a)
        return out

    # -- a human's slide ----------------------------------------------------------------------------

    def lane_coords(self, seat_name: str, x: float, y: float) -> Pos:
        """(along, across) of a world point in a seat's lane frame."""
        return self.seat(seat_name).from_world(x, y)

    def limits(self, seat_name: str) -> ShotLimits:
        """The legal ranges of a shot from ``seat_name`` (speed, angle, offset, release)."""
        return ShotLimits.of(self.seat(seat_name), self.params)

    def clamp_hold(self, seat_name: str, along: float, across: float) -> Pos:
        """The point of the lane (along, across) nearest a held pawn's wish: behind the foul
        line, inside the side rails (the shot's legal release and offset)."""
        limits = self.limits(seat_name)
        return limits.clip_release(along), limits.clip_offset(across)

    def blocked(self, seat_name: str, along: float, across: float) -> bool:
        """True when a pawn held at (along, across) would overlap a pawn on the table."""
        x, y = self.seat(seat_name).to_world(along, across)
        d = 2 * self.params.pawn_radius
        return any(math.hypot(p.x - x, p.y - y) < d for p in self.state.table)

    def flick_shot(self, flick: Flick) -> Shot | None:
        """The shot a release makes, or None when the pawn was not pushed toward the board.

        The speed and the direction are the pointer's, clipped to the shot's legal ranges.
        """
        if flick.v_along < MIN_FLICK:
            return None
        limits = self.limits(flick.seat)
        speed = limits.clip_speed(math.hypot(flick.v_along, flick.v_across))
        angle = limits.clip_angle(math.atan2(flick.v_across, flick.v_along))
        return Shot(flick.seat, speed, angle, flick.across, flick.along, flick.pawn)

    def foul_shot(self, seat_name: str, pawn: str, across: float = 0.0) -> Shot:
        """The shot of a pawn whose hand crossed the foul line: released just beyond it, so the
        physics reports a foul and the pawn is out for the round."""
        limits = self.limits(seat_name)
        release = limits.foul + 1e-6
        for offset in _spread(across, limits.max_offset):
            if not self.blocked(seat_name, release, offset):
                return Shot(seat_name, 0.1, 0.0, offset, release, pawn)
        return Shot(seat_name, 0.1, 0.0, across, release, pawn)

    def hand_point(self, seat_name: str, index: int, count: int) -> Pos:
        """(along, across) where the ``index``-th of ``count`` pawns in hand waits: side by side
        across the near end of the lane."""
        seat = self.seat(seat_name)
        r = self.params.pawn_radius
        gap = min(2.2 * r, (seat.width - 2 * r) / max(count - 1, 1)) if count > 1 else 0.0
        return seat.release_min + r + 0.004, (index - (count - 1) / 2) * gap

    # -- round end ----------------------------------------------------------------------------------

    def score(self, assignments: Mapping[str, Sequence[Move]]) -> list[Happening]:
        return self.game.score(assignments)


def _spread(first: float, limit: float) -> list[float]:
    out = [min(max(first, -limit), limit)]
    for k in range(1, 5):
        for s in (1, -1):
            v = s * k * limit / 4
            out.append(v)
    return out


def status_word(status: Status) -> str:
    """A short word for a removed pawn's fate, shown on the board where it happened."""
    return {
        Status.OTHER_TRACK: "other track",
        Status.OFF_BOARD: "off the board!",
        Status.SORRY_CORNER: "SORRY!",
        Status.IN_HOLE: "in the hole!",
        Status.DANGER_DOT: "danger dot!",
        Status.KNOCKED_OVER: "knocked over!",
        Status.FOUL: "foul!",
    }.get(status, str(status))


REMOVING_EVENTS = {
    EventType.OFF_BOARD: Status.OFF_BOARD,
    EventType.IN_HOLE: Status.IN_HOLE,
    EventType.KNOCKED_OVER: Status.KNOCKED_OVER,
    EventType.FOUL: Status.FOUL,
}

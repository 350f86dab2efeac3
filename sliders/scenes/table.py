"""The window's game: the turn machine (:class:`sliders.game.Turns`) seen frame by frame.

The screens draw a :class:`Match` and feed it input; the turns (whose turn, the shots, the
Instant Home choices, the round ends) are the machine's, the same as every headless driver's.
What is the window's own lives here: the shot in flight stepped at the frame's time and drawn
between two physics steps (``advance(dt)`` and ``positions()``), a computer's search run in
slices so the window keeps drawing (``think(seconds)``), and the geometry of a person's hand
(where the pawns in hand wait, where a held pawn may be, the shot a flick makes). No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sliders.ai import PlanSearch
from sliders.boards import Face, Layout, Seat
from sliders.core.outcome import Event, EventType, ShotResult, Status
from sliders.game import HomeChoice, Turns, foul_shot
from sliders.game.config import DEFAULT_HAND, MatchConfig
from sliders.physics import PhysicsParams, Shot, ShotLimits, Simulation
from sliders.rules import Game, GameState, Happening, Move

MIN_FLICK = 0.02
"""a release slower than this toward the board (m/s) puts the pawn back in the hand"""
MAX_STEPS_PER_FRAME = 240
"""at most this many physics steps in one frame (a stalled frame does not freeze the game)"""

Pos = tuple[float, float]


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
    """One game in progress in the window, from the first shot to the winner."""

    replayable = True
    """whether the results screen may start this game again here (a hosted game's next game is
    the host's to start, not a window's)"""

    def __init__(
        self,
        config: MatchConfig,
        params: PhysicsParams | None = None,
        game: Game | None = None,
    ) -> None:
        self.turns = Turns(config, params, game)
        self.config = config
        self.params: PhysicsParams = self.turns.params
        self.layout: Layout = self.turns.layout
        self.face: Face = self.turns.face
        self.search: PlanSearch | None = None
        self._acc = 0.0
        self._prev: dict[str, tuple[float, float, float]] = {}
        self._curr: dict[str, tuple[float, float, float]] = {}
        self._seen_events = 0

    # -- the machine's game -------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.turns.game

    @property
    def state(self) -> GameState:
        return self.turns.state

    @property
    def turn(self) -> str | None:
        return self.turns.turn

    @property
    def sim(self) -> Simulation | None:
        """the shot in flight (the machine's)"""
        return self.turns.sim

    @property
    def slide(self) -> Shot | None:
        return self.turns.slide

    @property
    def shots(self) -> list[Shot]:
        return self.turns.shots

    @property
    def results(self) -> list[ShotResult]:
        return self.turns.results

    @property
    def told(self) -> list[str]:
        return self.turns.told

    @property
    def refused(self) -> list[tuple[Shot, str]]:
        return self.turns.refused

    def news(self) -> list[str]:
        """Lines for a person to read that arrived since the last call (:meth:`Turns.news`)."""
        return self.turns.news()

    def seat(self, name: str) -> Seat:
        return self.layout.seat(name)

    def is_computer(self, seat: str | None) -> bool:
        return self.turns.is_computer(seat)

    # -- who plays where (a game on another machine: :class:`sliders.scenes.remote.NetMatch`) --------

    def is_remote(self, seat: str | None) -> bool:
        """True when ``seat``'s shots are played at another machine (never in a local game)."""
        return False

    def chooses_here(self, seat: str) -> bool:
        """True when a person at this window makes ``seat``'s round-end choice."""
        return not self.is_computer(seat)

    def chose(self, seat: str, assignment: Sequence[Move]) -> None:
        """A person at this window made ``seat``'s round-end choice (a hosted game sends it to
        its host; here it is scored with the others')."""

    def choice_open(self, seat: str) -> bool:
        """True while ``seat``'s round-end choice may still be made here (a hosted game's host
        may have taken the rules' default meanwhile)."""
        return True

    @property
    def awaiting(self) -> bool:
        """True while a person's shot is on its way to the machine that runs the game."""
        return False

    def poll(self, slides: bool = True) -> None:
        """Take in what the machine running the game said since the last frame (nothing here);
        a shot it released waits unless ``slides`` (this window's physics is ready to run it)."""

    def notes(self) -> list[str]:
        """Lines about the table (who came or went) since the last call (none here)."""
        return []

    def who(self) -> dict[str, str]:
        """Who plays each seat, in a few words for the score boards."""
        handicap = self.config.hand
        hand = "human" if handicap == DEFAULT_HAND else f"human, {handicap} handicap"
        return {s.seat: hand if s.human else s.describe() for s in self.config.seats}

    def hand_of(self, seat: str) -> Pos | None:
        """(along, across) of the pawn a person at another machine holds for ``seat``."""
        return None

    def invites(self) -> list[tuple[str, str]]:
        """(seat, link) for each seat a person may still join from a phone or a browser
        (a host's own window: :class:`~sliders.scenes.remote.NetMatch`); none here."""
        return []

    def aim(self, held: Pos | None) -> None:
        """Where this window's person holds a pawn now (told to the other machines, if any)."""

    def banner(self, seat: str | None) -> str:
        """What the banner says while ``seat``, played at another machine, is to shoot."""
        return ""

    def play(self, shot: Shot, foul: bool = False) -> bool:
        """A person's shot as the control made it: slid with their hand (unless ``foul``: the
        hand crossed the foul line) and released (:meth:`start`)."""
        return self.start(shot if foul else self.by_hand(shot))

    def can_finish(self) -> bool:
        """True when the settled shot may be applied (here at once)."""
        return True

    def can_score(self) -> bool:
        """True when the round's end may be scored (here at once)."""
        return True

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
        if not self.is_computer(self.turn) or self.sim is not None:
            return None
        if self.search is None:
            self.search = self.turns.search()
        if not self.search.run(seconds):
            return None
        shot = self.search.executed()
        self.search = None
        return shot

    def assignment_for(self, seat: str) -> tuple[Move, ...]:
        """A computer seat's choice of assignment for the round being scored."""
        return self.turns.computers[seat].choose_assignment(self.state)

    def home_for(self, choice: HomeChoice, result: ShotResult, home: dict[str, int]) -> int:
        """A computer seat's Instant Home choice, ``home`` holding those made before it."""
        return self.turns.computer_home(choice, result, home)

    def home_choice(self, result: ShotResult, home: dict[str, int]) -> HomeChoice | None:
        """The next Instant Home choice ``result`` asks for (:meth:`Turns.home_choice`)."""
        return self.turns.home_choice(result, home)

    # -- a shot, frame by frame ---------------------------------------------------------------------

    def by_hand(self, shot: Shot) -> Shot:
        """A person's intended shot as their hand slides it (:meth:`Turns.by_hand`)."""
        return self.turns.by_hand(shot)

    def start(self, shot: Shot) -> bool:
        """Release ``shot`` (:meth:`Turns.release`); True when it is rolling, False when the
        physics refused it (told in one line, see :meth:`news`; the same seat shoots again)."""
        if not self.turns.release(shot):
            return False
        assert self.sim is not None
        self._acc = 0.0
        self._curr = self.sim.positions()
        self._prev = dict(self._curr)
        self._seen_events = 0
        return True

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
        """Apply the settled shot (:meth:`Turns.finish`): the result and what the rules did."""
        out = self.turns.finish(home)
        self._prev, self._curr = {}, {}
        return out

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

    # -- a human's hand -----------------------------------------------------------------------------

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
        """The shot of a pawn whose hand crossed the foul line (:func:`sliders.game.foul_shot`)."""
        return foul_shot(self.state, self.seat(seat_name), pawn, self.params, across)

    def hand_point(self, seat_name: str, index: int, count: int) -> Pos:
        """(along, across) where the ``index``-th of ``count`` pawns in hand waits: side by side
        across the near end of the lane."""
        seat = self.seat(seat_name)
        r = self.params.pawn_radius
        gap = min(2.2 * r, (seat.width - 2 * r) / max(count - 1, 1)) if count > 1 else 0.0
        return seat.release_min + r + 0.004, (index - (count - 1) / 2) * gap

    # -- round end ----------------------------------------------------------------------------------

    def score(self, assignments: Mapping[str, Sequence[Move]]) -> list[Happening]:
        return self.turns.score(assignments)


def status_word(status: Status) -> str:
    """A short word for a removed pawn's fate, shown on the board where it happened."""
    return {
        Status.OTHER_TRACK: "other track",
        Status.OFF_BOARD: "off the board!",
        Status.OFF_SIDE: "off the side!",
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

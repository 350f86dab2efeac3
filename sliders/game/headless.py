"""The cheap driver: a game of the turn machine (:class:`sliders.game.turns.Turns`) played from
code, each shot run to rest at once.

It adds what a program needs to sit at the table: a shot taken from any seat by any
:class:`~sliders.game.turns.Player`, the Instant Home and round-end choices asked of each seat's
player (or left to the rules' defaults), and shots made legal before they are slid
(:func:`legal_shot`), so a program's wish never ends a game. The tournament, the Gymnasium and
PettingZoo environments and the tests drive games through it.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from sliders.ai import prepare_players
from sliders.boards import Face, Layout, Seat
from sliders.core.errors import UserError
from sliders.core.outcome import ShotResult
from sliders.game.config import MatchConfig, SeatSpec
from sliders.game.turns import HomeChoice, Player, Turns
from sliders.physics import PhysicsParams, Shot, ShotLimits, Simulation, check_engine, run_all
from sliders.rules import Assignment, GameState, Happening, Phase, parse_house

_T = TypeVar("_T")
RELEASE_CLEARANCE = 1e-4
"""how far (m) beyond two pawn radii from every pawn on the table a fitted release is kept"""


class ShotLost(Exception):
    """Raised by a player's ``choose_shot`` that has no shot to give (a bot out of time, or one
    whose message was refused): the seat loses the shot (:meth:`HeadlessGame.forfeit`), said in
    the log as ``by`` (:data:`sliders.rules.SLID_BY`; None: the player's own foul)."""

    def __init__(self, by: str | None, why: str = "") -> None:
        super().__init__(why or f"shot lost ({by})")
        self.by = by


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """A shot as slid (after :func:`legal_shot`), what the physics did and what the rules did;
    ``think`` the seconds its player took to choose it (0 for a shot given from outside)."""

    shot: Shot
    result: ShotResult
    happened: tuple[Happening, ...]
    state_before: GameState
    think: float = 0.0


Play = Generator[Simulation, None, _T]
"""A piece of play that stops at each shot it releases, yielding the shot in flight (a
:class:`~sliders.physics.Simulation` set up, not yet run) for its caller to run, and returns
what the play gives. :meth:`HeadlessGame.shooting`, :meth:`~HeadlessGame.stepping` and an
environment's steps are plays; :func:`run_alone` runs one, :func:`run_together` many games'
at once."""


class HeadlessGame:
    """A game on ``layout`` (a built-in name or a layout file) and ``face`` between ``seats``.

    ``computers`` maps a seat to a strength the table plays itself (see :meth:`computer_shot`);
    every other seat is played by the caller, or by the players given to :meth:`step`. ``seed``
    fixes the physics of every shot and the computers' choices; ``engine`` is the physics engine
    of the game's shots (None: the default); a game still going after ``max_rounds`` rounds is a
    draw (None: no cap); ``house`` names the house rules played (:mod:`sliders.rules.house`).
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
        max_rounds: int | None = None,
        house: Sequence[str] = (),
    ) -> None:
        computers = dict(computers or {})
        specs = tuple(
            SeatSpec(s, "cpu", computers[s]) if s in computers else SeatSpec(s, "human")
            for s in seats
        )
        config = MatchConfig(
            face, layout, specs, seed, starter, check_engine(engine), house=parse_house(house)
        )
        self._drive(Turns(config, params, max_rounds=max_rounds))

    @classmethod
    def of(cls, turns: Turns) -> HeadlessGame:
        """The driver of a turn machine already set up (a game resumed from its log, a
        configuration with a person's hand): its seats as its configuration names them."""
        game = cls.__new__(cls)
        game._drive(turns)
        return game

    def _drive(self, turns: Turns) -> None:
        self.turns = turns
        self.engine: str = check_engine(turns.config.engine)
        self.layout: Layout = turns.layout
        self.face: Face = turns.face
        self.params: PhysicsParams = turns.params
        self.shots = 0
        self.fitted = 0
        """shots whose release point was moved by :func:`legal_shot`"""
        self._flight: tuple[Shot, GameState] | None = None
        """the shot released and not yet settled, as played, and the state before it"""

    # -- the game -----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.turns.state

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.seats

    @property
    def over(self) -> bool:
        """True when the game has a winner, or is drawn at the round cap."""
        return self.turns.over

    @property
    def drawn(self) -> bool:
        return self.turns.drawn

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def seat(self, name: str) -> Seat:
        return self.layout.seat(name)

    def is_computer(self, seat: str) -> bool:
        return self.turns.is_computer(seat)

    def prepare(self, players: Mapping[str, Player] | None = None) -> None:
        """Prepare the table's computers and ``players`` for this game now, before their first
        turn (:func:`sliders.ai.prepare_players`)."""
        self.turns.prepare()
        prepare_players((players or {}).values(), self.layout, self.face, self.params)

    # -- shots ----------------------------------------------------------------------------------

    def computer_shot(self) -> Shot:
        """The shot of the computer seat to move, its search run to the end."""
        search = self.turns.search()
        search.run(None)
        return search.executed()

    def shoot(
        self,
        shot: Shot,
        home: Mapping[str, Player] | None = None,
        *,
        by_hand: bool = False,
        released: Callable[[Shot], None] | None = None,
        by: str | None = None,
    ) -> ShotOutcome:
        """Slide ``shot`` for the seat to move (made legal first), run it to rest and apply it.

        ``home`` maps a seat the caller plays to the player that makes its Instant Home choices
        (a seat left out takes the rules' default); a computer seat makes its own choice.
        ``by_hand``: a person's intended shot, slid with their hand's noise
        (:meth:`Turns.by_hand`), as the window slides it. ``released`` is told the shot as slid
        (its pawn and seed) once it is released, before it runs. ``by``: who slid it when its
        seat's player did not (a stand-in computer: :data:`sliders.rules.SLID_BY`), in the log.
        """
        return run_alone(self.shooting(shot, home, by_hand=by_hand, released=released, by=by))

    def shooting(
        self,
        shot: Shot,
        home: Mapping[str, Player] | None = None,
        *,
        by_hand: bool = False,
        released: Callable[[Shot], None] | None = None,
        by: str | None = None,
    ) -> Play[ShotOutcome]:
        """:meth:`shoot` as a :data:`Play`: it stops with the shot released, for its caller to
        run it (alone, or with other games' shots: :func:`run_together`)."""
        slide = self.release(shot, by_hand=by_hand)
        if released is not None:
            released(slide)
        assert self.turns.sim is not None
        yield self.turns.sim
        return self.settle(home, by)

    def release(self, shot: Shot, *, by_hand: bool = False) -> Shot:
        """The first half of :meth:`shoot`: ``shot`` made legal (and slid by a person's hand
        when ``by_hand``) and released, not yet run; the shot as slid (its pawn and seed).
        :meth:`settle` runs it to rest and applies it (a host sends the slide between the two,
        before the physics runs)."""
        t = self.turns
        before = t.state
        if t.over or before.phase is not Phase.SHOOTING or shot.seat != before.turn:
            raise UserError(f"it is not {shot.seat}'s turn")
        asked = shot if shot.pawn is not None else replace(shot, pawn=before.next_pawn())
        played = legal_shot(asked, before, self.layout, self.params)
        if played is not asked:
            self.fitted += 1
        if by_hand:
            played = t.by_hand(played)
        return self._release(played)

    def release_slid(self, slide: Shot) -> Shot:
        """A shot already slid released again as it was, its pawn and seed kept (a host's
        release its log kept before the host stopped): nothing is drawn, :meth:`settle` runs
        it. The shot as slid."""
        t = self.turns
        before = t.state
        if t.over or before.phase is not Phase.SHOOTING or slide.seat != before.turn:
            raise UserError(f"it is not {slide.seat}'s turn")
        if not t.release(slide, slide.seed):
            raise UserError(f"the physics refuses {slide.seat}'s shot: {t.refused[-1][1]}")
        assert t.slide is not None
        self._flight = (slide, before)
        return t.slide

    def forfeit(
        self,
        home: Mapping[str, Player] | None = None,
        *,
        released: Callable[[Shot], None] | None = None,
        by: str | None = None,
    ) -> ShotOutcome:
        """The seat to move loses its shot (a player out of time, a bot that broke the rules):
        its next pawn slid over the foul line (:func:`foul_shot`), out for the round as the
        rules' foul is. ``by``: why, in the log (``clock`` or ``refused``,
        :data:`sliders.rules.SLID_BY`)."""
        return run_alone(self.forfeiting(home, released=released, by=by))

    def forfeiting(
        self,
        home: Mapping[str, Player] | None = None,
        *,
        released: Callable[[Shot], None] | None = None,
        by: str | None = None,
    ) -> Play[ShotOutcome]:
        """:meth:`forfeit` as a :data:`Play` (see :meth:`shooting`)."""
        before = self.state
        if self.over or before.phase is not Phase.SHOOTING or before.turn is None:
            raise UserError("no shot to lose: nobody is to shoot")
        seat = self.seat(before.turn)
        slide = self._release(foul_shot(before, seat, before.next_pawn() or "", self.params))
        if released is not None:
            released(slide)
        assert self.turns.sim is not None
        yield self.turns.sim
        return self.settle(home, by)

    def _release(self, played: Shot) -> Shot:
        """Release ``played`` (the seat's pawn over the foul line if the physics refuses it);
        the shot as slid."""
        t = self.turns
        before = t.state
        shot, pawn = played, played.pawn
        if not t.release(played):
            played = foul_shot(before, self.seat(shot.seat), pawn or "", self.params, played.offset)
            if not t.release(played):
                raise UserError(
                    f"the physics refuses every shot of {shot.seat}: {t.refused[-1][1]}"
                )
        assert t.sim is not None and t.slide is not None
        self._flight = (played, before)
        return t.slide

    def settle(
        self, home: Mapping[str, Player] | None = None, by: str | None = None
    ) -> ShotOutcome:
        """The second half of :meth:`shoot`: the shot released run to rest and applied, the
        Instant Home choices asked of ``home``'s players; ``by`` as :meth:`shoot` takes it."""
        t = self.turns
        if t.sim is None or self._flight is None:
            raise UserError("no shot has been released")
        played, before = self._flight
        t.sim.run()
        players = dict(home or {})

        def ask(choice: HomeChoice, result: ShotResult, chosen: Mapping[str, int]) -> int | None:
            player = players.get(choice.seat)
            return (
                None if player is None else player.choose_home(t.state, result, choice.pawn, chosen)
            )

        ran = t.sim.result()
        result, happened = t.finish(t.homes(ran, ask), ran, by)
        self._flight = None
        self.shots += 1
        return ShotOutcome(played, result, tuple(happened), before)

    def score(
        self,
        assignments: Mapping[str, Assignment] | None = None,
        by: Mapping[str, str] | None = None,
    ) -> list[Happening]:
        """Score the round that just ended: each computer seat's own assignment, ``assignments``
        for the others (a seat left out takes the rules' default; ``by`` as
        :meth:`Turns.score` takes it)."""
        return self.turns.score(assignments, by)

    def step(self, players: Mapping[str, Player] | None = None) -> ShotOutcome | None:
        """One step of the game by its players: the round that just ended scored (None), or the
        shot of the seat to move. ``players`` maps a seat to its player; a computer seat of the
        table plays itself; a seat with neither takes the rules' defaults at the round's end and
        has no shot to play (:class:`UserError`)."""
        return run_alone(self.stepping(players))

    def stepping(self, players: Mapping[str, Player] | None = None) -> Play[ShotOutcome | None]:
        """:meth:`step` as a :data:`Play` (see :meth:`shooting`): the players choose, then it
        stops with the shot released."""
        players = dict(players or {})
        if self.over:
            raise UserError("the game is over")
        state = self.state
        if state.phase is Phase.SCORING:
            self.score({s: p.choose_assignment(state) for s, p in players.items()})
            return None
        seat = state.turn
        assert seat is not None
        player = players.get(seat)
        t0 = time.perf_counter()
        if player is not None:
            try:
                shot = player.choose_shot(state, self.layout, self.face, self.params)
            except ShotLost as lost:
                took = time.perf_counter() - t0
                lost_by = lost.by
            else:
                took = time.perf_counter() - t0
                return replace((yield from self.shooting(shot, players)), think=took)
            return replace((yield from self.forfeiting(players, by=lost_by)), think=took)
        if not self.is_computer(seat):
            raise UserError(f"nobody plays {seat}")
        shot = self.computer_shot()
        took = time.perf_counter() - t0
        return replace((yield from self.shooting(shot, players)), think=took)

    def play(self, players: Mapping[str, Player] | None = None) -> None:
        """Play the game to its end (a winner, or a draw at the round cap)."""
        while not self.over:
            self.step(players)


def run_alone(play: Play[_T]) -> _T:
    """What ``play`` gives, each of its shots run on its own as it is released."""
    while True:
        try:
            sim = next(play)
        except StopIteration as done:
            return cast(_T, done.value)
        sim.run()


def run_together(plays: Sequence[Play[_T]]) -> list[_T]:
    """What each of ``plays`` gives, played side by side: each goes on to its next shot, then
    the shots in flight are run together (:func:`sliders.physics.run_all`: the exact engine
    solves them in one compiled call, each bit for bit as alone), and again, until every play
    is done. Each play gives what :func:`run_alone` would: the games share nothing."""
    out: list[Any] = [None] * len(plays)
    flying: dict[int, Simulation] = {}

    def go_on(i: int) -> None:
        try:
            flying[i] = next(plays[i])
        except StopIteration as done:
            out[i] = done.value
            flying.pop(i, None)

    for i in range(len(plays)):
        go_on(i)
    while flying:
        run_all(list(flying.values()))
        for i in list(flying):
            go_on(i)
    return cast(list[_T], out)


def foul_shot(
    state: GameState, seat: Seat, pawn: str, params: PhysicsParams, across: float = 0.0
) -> Shot:
    """The shot of a pawn whose hand crossed the foul line: released just beyond it, beside the
    pawns on the table where it can be, so the physics reports a foul and the pawn is out for
    the round."""
    limits = ShotLimits.of(seat, params)
    release = limits.foul + 1e-6
    d = 2 * params.pawn_radius
    for offset in _spread(across, limits.max_offset):
        x, y = seat.to_world(release, offset)
        if not any(math.hypot(p.x - x, p.y - y) < d for p in state.table):
            return Shot(seat.name, 0.1, 0.0, offset, release, pawn)
    return Shot(seat.name, 0.1, 0.0, across, release, pawn)


def _spread(first: float, limit: float) -> list[float]:
    out = [min(max(first, -limit), limit)]
    for k in range(1, 5):
        for s in (1, -1):
            out.append(s * k * limit / 4)
    return out


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
    tries = itertools.chain(
        (along,),
        (
            a
            for k in range(1, 1 + int((foul - lo) / step) + 1)
            for a in (along - k * step, along + k * step)
            if lo - 1e-12 <= a <= foul + 1e-12
        ),
    )  # tried in turn: the first is nearly always free
    for a in tries:
        found = _free_offset(state, seat, a, offset, r)
        if found is not None:
            along, offset = a, found
            break
    release = None if along >= foul - 1e-12 else along
    if (speed, angle, offset, release) == (shot.speed, shot.angle, shot.offset, shot.release):
        return shot  # legal already
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

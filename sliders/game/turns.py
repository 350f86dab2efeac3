"""The turn machine: one game of the rules, shot by shot, whoever sits at the table.

:class:`Turns` keeps the rules' :class:`~sliders.rules.Game` (the log), seeds every shot's
physics from the game's seed, seats the computers its configuration names, asks for the Instant
Home choices a shot leaves and ends a game at the round cap as a draw (:func:`sliders.rules.drawn`).
It knows nothing of time or frames: a shot released here is set up in the game's
:class:`~sliders.physics.Setup` (:func:`sliders.physics.start`), a simulation its driver runs to
rest (at once headless, frame by frame in the window) before :meth:`finish`.
Every driver goes through it: :class:`sliders.game.HeadlessGame` (the tournament, the
environments, the tests) and the window's :class:`sliders.scenes.table.Match`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from sliders.ai import ComputerPlayer, PlanSearch, prepare_players
from sliders.ai.release import fit_release
from sliders.boards import Face, HoleRule, Layout, Seat, face
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Shot, ShotResult
from sliders.files.layouts import layout_text, load_layout
from sliders.game.config import HANDS, MatchConfig
from sliders.game.narrate import narrate_shot, seat_name
from sliders.game.saves import params_of
from sliders.physics import (
    REGISTRY,
    Noise,
    PhysicsParams,
    Setup,
    Simulation,
    start,
)
from sliders.physics.noise import apply_errors
from sliders.rules import (
    HOME,
    START,
    Assignment,
    Game,
    GameState,
    Happening,
    InstantHome,
    LayoutRef,
    Move,
    Penalty,
    Phase,
    apply_shot,
    drawn,
)


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


HomeChooser = Callable[[HomeChoice, ShotResult, Mapping[str, int]], "int | None"]
"""Who answers an Instant Home choice the table's computers do not: ``(choice, result, chosen)``
→ a scoring pawn, or None for the rules' default"""


class Turns:
    """One game from the first shot to its end: a winner, or a draw at ``max_rounds``."""

    def __init__(
        self,
        config: MatchConfig,
        params: PhysicsParams | None = None,
        game: Game | None = None,
        max_rounds: int | None = None,
    ) -> None:
        self.config = config
        recorded = params_of(game) if game is not None and game.params else None
        self.params = params or config.params or recorded or PhysicsParams.default()
        """the physics: ``params``, else the config's, else those a resumed game's log records"""
        self.game = game or Game(config.face, config.seat_names, config.starter, house=config.house)
        if self.game.layout is None:
            text = layout_text(config.layout)
            self.game.layout = LayoutRef(config.layout, config.seat_names, text)
        kept = self.game.layout.text if self.game.layout.name == config.layout else None
        self.layout: Layout = load_layout(config.layout, config.seat_names, kept)
        """the table: a layout file's text as the game's log keeps it, once it keeps it"""
        self.face: Face = face(config.face)
        self.setup = Setup(self.layout, self.face, self.params, config.engine)
        """what every shot of the game is simulated in"""
        self.max_rounds = max_rounds
        streams = np.random.SeedSequence(config.seed).spawn(1 + len(config.seats))
        self.physics_rng = np.random.default_rng(streams[0])
        self.computers: dict[str, ComputerPlayer] = {
            spec.seat: ComputerPlayer(spec.seat, spec.level(), np.random.default_rng(stream))
            for spec, stream in zip(config.seats, streams[1:], strict=True)
            if not spec.human
        }
        self.hand = Noise.level(HANDS[config.hand])
        """every person's hand: the noise :meth:`by_hand` adds to their slides"""
        self.hand_rngs: dict[str, np.random.Generator] = {
            spec.seat: np.random.default_rng(stream)
            for spec, stream in zip(config.seats, streams[1:], strict=True)
            if spec.human
        }
        if game is None:
            # who played in person, and with what: their own hand (exact, nothing added) or
            # the handicap they chose (a game taken up again knows its people by it)
            self.game.hands = {seat: config.hand for seat in self.hand_rngs}
            self.game.params = self.params.changes()
        self.sim: Simulation | None = None
        """the shot in flight: released and not yet applied"""
        self.slide: Shot | None = None  # the shot in flight as slid (pawn, seed), for the log
        self.shots: list[Shot] = []  # every shot released, in order
        self.results: list[ShotResult] = []
        self._told: list[str] = []
        self._untold: list[tuple[ShotResult, tuple[Happening, ...], tuple[PawnRest, ...]]] = []
        """shots applied and not yet put in words: told when someone reads (see :attr:`told`)"""
        self._seen_told = 0
        self.refused: list[tuple[Shot, str]] = []
        """shots the physics refused, with why"""

    # -- the game ---------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def turn(self) -> str | None:
        return None if self.drawn else self.state.turn

    @property
    def drawn(self) -> bool:
        """True when the game ended at the round cap without a winner."""
        return drawn(self.state, self.max_rounds)

    @property
    def over(self) -> bool:
        """True when the game has a winner or is drawn."""
        return self.state.finished or self.drawn

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def seat(self, name: str) -> Seat:
        return self.layout.seat(name)

    def is_computer(self, seat: str | None) -> bool:
        return seat in self.computers

    # -- computer seats -----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Make the game's physics ready and every computer seat ready for its first turn
        (:func:`sliders.ai.prepare_players`, as the tournament does), so that no turn waits for
        them (the window calls it in the background while it draws)."""
        REGISTRY[self.setup.engine].prepare()
        prepare_players(self.computers.values(), self.layout, self.face, self.params)

    def search(self) -> PlanSearch:
        """The search of the computer seat to move for its shot, to be run (at once, or in slices
        by a window that keeps drawing)."""
        seat = self.turn
        if seat is None or seat not in self.computers:
            raise UserError(f"{seat} is not a computer seat to move")
        return self.computers[seat].search(
            self.state, self.layout, self.face, self.params, self.config.engine
        )

    # -- a shot -------------------------------------------------------------------------------------

    def by_hand(self, shot: Shot, state: GameState | None = None) -> Shot:
        """A person's intended ``shot`` as their hand slides it: one draw of the hand's noise
        from the seat's own stream (seeded by the game's seed), moved across the lane where its
        pawn fits on the table (of ``state``; None: the game's), as a computer's hand does.
        Release the result: the log keeps the shot slid."""
        rng = self.hand_rngs.get(shot.seat)
        if rng is None or self.hand.is_zero:
            return shot
        (e,) = self.hand.draw(rng, 1)
        executed = apply_errors(shot, e, self.seat(shot.seat), self.params)
        return fit_release(executed, state or self.state, self.layout, self.params)

    def release(self, shot: Shot, seed: int | None = None) -> bool:
        """Release ``shot`` of the seat to move (its next pawn in hand when the shot names none):
        :attr:`sim` is the shot in flight. True when the shot is rolling. ``seed``: the shot's
        seed when another machine drew it (a host's shot run again by its client); None: drawn
        from the game's physics stream.

        A shot the physics refuses (its release point taken by a pawn knocked back down the
        lane, a release off the lane, an impossible speed) does not end the game: the machine
        says so in one line (see :meth:`news`), nothing is slid, and the same seat shoots again.
        """
        if self.sim is not None:
            raise UserError("a shot is already rolling")
        if self.over or self.state.phase is not Phase.SHOOTING or shot.seat != self.turn:
            raise UserError(f"it is not {shot.seat}'s turn")
        if shot.pawn is None:  # the seat's next pawn in hand (not one removed this round)
            shot = replace(shot, pawn=self.state.next_pawn())
        drawn = int(self.physics_rng.integers(2**63)) if seed is None else seed
        slide = replace(shot, seed=drawn)
        try:
            sim = start(self.setup, self.state.table, slide)
        except UserError as exc:
            self.refused.append((shot, str(exc)))
            who = seat_name(shot.seat)
            self._tell(f"{who}'s shot is refused ({exc}): {who} shoots again.")
            return False
        self.sim = sim
        self.shots.append(shot)
        self.slide = slide
        return True

    def home_choice(self, result: ShotResult, home: Mapping[str, int]) -> HomeChoice | None:
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

    def computer_home(self, choice: HomeChoice, result: ShotResult, home: Mapping[str, int]) -> int:
        """A computer seat's Instant Home choice, ``home`` holding those made before it."""
        picked = self.computers[choice.seat].choose_home(self.state, result, choice.pawn, home)
        return choice.default if picked is None else picked

    def homes(self, result: ShotResult, ask: HomeChooser | None = None) -> dict[str, int]:
        """Every Instant Home choice of ``result``: the computers' own, the others by ``ask``
        (None: the rules' default)."""
        chosen: dict[str, int] = {}
        while (choice := self.home_choice(result, chosen)) is not None:
            if self.is_computer(choice.seat):
                chosen[choice.pawn] = self.computer_home(choice, result, chosen)
            else:
                picked = None if ask is None else ask(choice, result, dict(chosen))
                chosen[choice.pawn] = choice.default if picked is None else picked
        return chosen

    def finish(
        self,
        home: Mapping[str, int] | None = None,
        result: ShotResult | None = None,
        by: str | None = None,
    ) -> tuple[ShotResult, list[Happening]]:
        """Apply the shot in flight, come to rest, to the game with the Instant Home choices in
        ``home`` (the others take the default); the result and what the rules did. The shot is
        told in full sentences (see :meth:`news`). ``result``: the shot's result as the game's
        host ran it, which stands whatever this machine's run gave (None: this run's).
        ``by``: who slid it when not its seat's player (:data:`sliders.rules.SLID_BY`), said in
        the log."""
        if self.sim is None or self.sim.moving:
            raise UserError("no shot has come to rest")
        before = self.state.table
        if result is None:
            result = self.sim.result()  # final: nothing above the physics moves a pawn
        happened = self.game.shoot(result, home, self.slide, by)
        self.sim, self.slide = None, None
        self.results.append(result)
        self._untold.append((result, tuple(happened), before))
        return result, happened

    def withdraw(self) -> None:
        """Take back the shot in flight, never applied (a host restarted before it had applied
        it: the seat shoots it again)."""
        if self.sim is not None:
            self.sim, self.slide = None, None
            self.shots.pop()

    # -- round end ----------------------------------------------------------------------------------

    def score(
        self,
        assignments: Mapping[str, Sequence[Move]] | None = None,
        by: Mapping[str, str] | None = None,
    ) -> list[Happening]:
        """Score the round that just ended: each computer seat's own assignment, ``assignments``
        for the others (a seat left out takes the rules' default; ``by``: the seats whose player
        did not choose, and why, :data:`sliders.rules.CHOSEN_BY`). A game still going after
        ``max_rounds`` rounds is then a draw."""
        chosen: dict[str, Sequence[Move]] = {
            s: p.choose_assignment(self.state) for s, p in self.computers.items()
        }
        chosen.update(assignments or {})
        return self.game.score(chosen, by)

    # -- what a person reads ------------------------------------------------------------------------

    @property
    def told(self) -> list[str]:
        """Every line told about the game so far (see :meth:`news`): each shot is put in words
        when someone first reads, so a game nobody reads (a tournament's, an environment's)
        never pays for its sentences."""
        for result, happened, before in self._untold:
            self._told.extend(narrate_shot(result, happened, before, self.face))
        self._untold.clear()
        return self._told

    def news(self) -> list[str]:
        """Lines for a person to read that arrived since the last call: each shot told in full
        sentences once it is applied, and any shot the physics refused."""
        lines = self.told[self._seen_told :]
        self._seen_told = len(self.told)
        return lines

    def _tell(self, line: str) -> None:
        self.told.append(line)  # after the shots not yet told, in order

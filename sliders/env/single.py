"""A Gymnasium environment for one seat: the agent slides one roller pawn a step, the computer
plays every other seat.

Registered as ``sliders/RaceForHome-v0``, ``sliders/InstantHome-v0``, ``sliders/InstantSorry-v0``
and ``sliders/DangerDots-v0`` (``gymnasium.make(name, layout=..., opponents=...)``); the class is
:class:`SlidersEnv`. Spaces: :mod:`sliders.env.observation`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from sliders.ai import STRENGTHS
from sliders.ai.value import progress_lead
from sliders.core.errors import UserError
from sliders.env import observation as obs
from sliders.env.render import show
from sliders.files.layouts import read_layout
from sliders.game import HeadlessGame, Play, Player, run_alone
from sliders.physics import PhysicsParams, check_engine
from sliders.rules import Phase, parse_seat
from sliders.scenes.viewer import Window
from sliders.tournament.players import make_player

BOTS = ("centre", "greedy", "race")
"""the tournament's bots an environment seats as opponents by name"""
REWARDS = ("outcome", "shaped")
RENDER_MODES = ("human", "rgb_array")
SHAPE_SCALE = 24.0
"""a seat's progress spans 0..24 spaces: the shaped reward divides its progress lead by it"""
MAX_ROUNDS = 30


class SlidersEnv(gym.Env[np.ndarray, np.ndarray]):
    """One seat of a game of Sorry! Sliders against computer players.

    ``face`` and ``layout`` (a built-in name or a layout file) set the game; ``seats`` the seats
    in play (default: the layout's), ``seat`` the agent's (default: the first). ``opponents`` is
    a strength (``easy``, ``medium``, ``hard``: the computer players) for every other seat, or
    a bot of :mod:`sliders.tournament.players` (``centre``, ``greedy``, ``race``, each with an
    optional ``:HAND``: no search beyond simulating each candidate once), or a mapping seat →
    either.
    ``starter``: the seat that slides first in round 1 (default: drawn at each reset).
    ``reward``: ``outcome`` is +1 for a win and -1 for a loss at the end, 0 before;
    ``shaped`` adds, each step, the change of the agent's progress lead
    (:func:`sliders.ai.value.progress_lead`: its projected progress on the score boards minus
    the opponents' mean) since its last turn, / ``SHAPE_SCALE``.
    A game still going after ``max_rounds`` rounds is truncated. ``params`` and ``engine`` set
    the physics (None: the defaults).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        face: str = "race-for-home",
        layout: str = "square",
        seats: Sequence[str] | None = None,
        seat: str | None = None,
        opponents: str | Mapping[str, str] = "medium",
        starter: str | None = None,
        reward: str = "outcome",
        max_rounds: int = MAX_ROUNDS,
        params: PhysicsParams | None = None,
        engine: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        chosen = check_settings(layout, seats, reward, max_rounds, render_mode)
        self.face_name, self.layout_name = face, layout
        self.seat = parse_seat(seat) if seat else chosen[0]
        if self.seat not in chosen:
            raise UserError(f"the agent's seat {self.seat} is not one of {', '.join(chosen)}")
        others = [s for s in chosen if s != self.seat]
        levels = (
            {s: opponents for s in others}
            if isinstance(opponents, str)
            else {parse_seat(s): v for s, v in opponents.items()}
        )
        if set(levels) != set(others):
            raise UserError(f"opponents must name every other seat: {', '.join(others)}")
        for level in levels.values():
            if level not in STRENGTHS and level.partition(":")[0] not in BOTS:
                raise UserError(
                    f"unknown opponent {level!r} ({', '.join(STRENGTHS)}, or a bot: "
                    "centre[:HAND], greedy[:HAND], race[:HAND])"
                )
            if level not in STRENGTHS:
                make_player(level, others[0], np.random.default_rng(0))  # its hand checked
        self.opponents = levels
        self._bots: dict[str, Player] = {}
        """the opponents that are bots (not the table's computers), made anew at each reset"""
        self.starter = parse_seat(starter) if starter else None
        self.reward_kind, self.max_rounds = reward, max_rounds
        self.params = params or PhysicsParams.default()
        self.engine = check_engine(engine)
        self.render_mode = render_mode
        # a game with a fixed seed sets the table and the spaces; reset() starts the real one
        self.game = self._new_game(chosen, 0, chosen[0])
        self.game.prepare()  # the computers ready before the first step, not during it
        self.seats = chosen
        self.layout = self.game.layout
        self.observation_space = obs.observation_space()
        self.action_space = obs.action_space(self.layout, self.seat, self.params)
        self._value = 0.0
        self._ended = True
        self._window = Window()

    # -- the Gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        return run_alone(self.resetting(seed=seed, options=options))

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        return run_alone(self.stepping(action))

    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: make the environment with one")
            return None
        g, fps = self.game, self.metadata["render_fps"]
        return show(self.render_mode, g.state, self.layout, g.face, self.params.pawn_radius,
                    self._window, fps)  # fmt: skip

    def close(self) -> None:
        self._window.close()

    # -- as plays (what the vector environment runs side by side) ---------------------------------

    def resetting(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> Play[tuple[np.ndarray, dict[str, Any]]]:
        """:meth:`reset` as a :data:`~sliders.game.Play`: it stops at each opponent's shot
        released before the agent's turn, for its caller to run."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63))
        starter = self.starter or self.seats[int(rng.integers(len(self.seats)))]
        self.game = self._new_game(self.seats, game_seed, starter)
        self._bots = {
            s: make_player(level, s, np.random.default_rng([game_seed, n]), self.engine)
            for n, (s, level) in enumerate(self.opponents.items())
            if level not in STRENGTHS
        }
        yield from self._advance()
        self._value = self._progress()
        self._ended = self.game.over
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info(None)

    def stepping(
        self, action: np.ndarray
    ) -> Play[tuple[np.ndarray, float, bool, bool, dict[str, Any]]]:
        """:meth:`step` as a :data:`~sliders.game.Play`: it stops at the agent's shot released,
        then at each opponent's, for its caller to run."""
        g = self.game
        if self._ended:
            raise RuntimeError("the episode is over (or not started): call reset()")
        played = (yield from g.shooting(obs.wish_of(action, self.seat, g.state))).shot
        truncated = yield from self._advance()
        terminated = g.over and not g.drawn
        self._ended = terminated or truncated
        reward = 0.0
        if terminated:
            reward = 1.0 if g.winner == self.seat else -1.0
        elif self.reward_kind == "shaped":
            value = self._progress()
            reward = (value - self._value) / SHAPE_SCALE
            self._value = value
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), terminated, truncated, self._info(played)

    # -- inside ---------------------------------------------------------------------------------

    def _new_game(self, seats: Sequence[str], seed: int, starter: str) -> HeadlessGame:
        return HeadlessGame(
            self.face_name,
            self.layout_name,
            seats,
            seed,
            starter=starter,
            computers={s: v for s, v in self.opponents.items() if v in STRENGTHS},
            params=self.params,
            engine=self.engine,
            max_rounds=self.max_rounds,
        )

    def _advance(self) -> Play[bool]:
        """Score rounds and play the computers until the agent is to slide or the game is over;
        True when the game ran past ``max_rounds`` (truncated)."""
        g = self.game
        while not g.over and (g.state.phase is Phase.SCORING or g.state.turn != self.seat):
            yield from g.stepping(self._bots)
        return g.drawn

    def _progress(self) -> float:
        return progress_lead(self.game.state, self.seat)

    def _observe(self) -> np.ndarray:
        return obs.encode(self.game.state, self.layout, self.seat)

    def _info(self, shot: Any) -> dict[str, Any]:
        s = self.game.state
        return {
            "seat": self.seat,
            "round": s.round,
            "boards": {p.seat: p.board for p in s.players},
            "winner": s.winner,
            "shot": None
            if shot is None
            else np.array(
                [
                    shot.speed,
                    shot.angle,
                    shot.offset,
                    self.layout.seat(self.seat).foul if shot.release is None else shot.release,
                ],
                dtype=np.float32,
            ),
        }


def check_settings(
    layout: str,
    seats: Sequence[str] | None,
    reward: str,
    max_rounds: int,
    render_mode: str | None,
) -> tuple[str, ...]:
    """The seats an environment plays (``seats``, or the layout's), once its settings are
    checked (a wrong one is a :class:`~sliders.core.errors.UserError` saying which)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise UserError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
    if reward not in REWARDS:
        raise UserError(f"reward {reward!r} is not one of {', '.join(REWARDS)}")
    if max_rounds < 1:
        raise UserError(f"max_rounds must be at least 1, not {max_rounds}")
    spec = read_layout(layout)
    return tuple(parse_seat(s) for s in seats) if seats else spec.default_seats

"""A PettingZoo AEC environment: 2 to 4 seats, each an agent, one shot a step.

``sliders.env.sliders_v0.env(...)`` (wrapped with PettingZoo's order and bounds checks) or
``raw_env(...)``. Agents are seat names (``south``, ``west``, ``north``, ``east``); the agent to
act is the seat whose turn it is. Spaces: :mod:`sliders.env.observation`, each agent seeing the
table from its own seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers

from sliders.ai.value import progress_lead
from sliders.core.errors import UserError
from sliders.env import observation as obs
from sliders.env.render import show
from sliders.env.single import MAX_ROUNDS, RENDER_MODES, SHAPE_SCALE, check_settings
from sliders.game import HeadlessGame
from sliders.physics import PhysicsParams, check_engine
from sliders.rules import Phase, parse_seat
from sliders.scenes.viewer import Window


class SlidersAEC(AECEnv):
    """Every seat of a game of Sorry! Sliders played by an agent.

    ``face``, ``layout``, ``seats`` (2 to 4; default: the layout's), ``starter`` (default: drawn
    at each reset), ``reward`` and ``max_rounds`` as in :class:`sliders.env.single.SlidersEnv`:
    at the end the winner gets +1 and every other seat -1; ``shaped`` adds, each time a seat is
    to act, the change of its progress lead since it last acted, / ``SHAPE_SCALE``. Round-end
    assignments and Instant Home choices are the rules' defaults.
    """

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "sliders_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        face: str = "race-for-home",
        layout: str = "square",
        seats: Sequence[str] | None = None,
        starter: str | None = None,
        reward: str = "outcome",
        max_rounds: int = MAX_ROUNDS,
        params: PhysicsParams | None = None,
        engine: str | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if max_cycles is not None and max_cycles < 1:
            raise UserError(f"max_cycles must be at least 1, not {max_cycles}")
        self.max_cycles = max_cycles
        chosen = check_settings(layout, seats, reward, max_rounds, render_mode)
        if not 2 <= len(chosen) <= 4:
            raise UserError(f"a PettingZoo game has 2 to 4 seats, not {len(chosen)}")
        self.face_name, self.layout_name = face, layout
        self.starter = parse_seat(starter) if starter else None
        self.reward_kind, self.max_rounds = reward, max_rounds
        self.params = params or PhysicsParams.default()
        self.engine = check_engine(engine)
        self.render_mode = render_mode
        self.game = HeadlessGame(face, layout, chosen, 0, params=self.params, engine=self.engine)
        self.game.prepare()  # the physics engine loaded before the first step, not during it
        self.layout = self.game.layout
        self.possible_agents = list(self.game.seats)
        self._obs_space = obs.observation_space()
        self._act_spaces = {
            a: obs.action_space(self.layout, a, self.params) for a in self.possible_agents
        }
        self._window = Window()
        self.np_random, _ = seeding.np_random(None)
        self._started = False

    # -- the PettingZoo API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Box:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Box:
        return self._act_spaces[agent]

    def observe(self, agent: str) -> np.ndarray:
        return obs.encode(self.game.state, self.layout, agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63))
        seats = self.possible_agents
        starter = self.starter or seats[int(rng.integers(len(seats)))]
        self.game = HeadlessGame(
            self.face_name,
            self.layout_name,
            seats,
            game_seed,
            starter=starter,
            params=self.params,
            engine=self.engine,
            max_rounds=self.max_rounds,
        )
        self.agents = list(seats)
        self._started = True
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._values = {a: progress_lead(self.game.state, a) for a in self.agents}
        self.acted = {a: 0 for a in self.agents}
        """shots each agent has taken this episode"""
        self.agent_selection = self.game.state.turn or self.agents[0]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def step(self, action: np.ndarray | None) -> None:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every seat is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if action is None:
            raise ValueError(f"{agent} must act: an action is [speed, angle, offset, release]")
        g.shoot(obs.wish_of(action, agent, g.state))  # checked before anything changes
        self.acted[agent] += 1
        while g.state.phase is Phase.SCORING and not g.over:
            g.step()
        truncated = g.drawn or (
            not g.over
            and self.max_cycles is not None
            and self.acted[g.state.turn or agent] >= self.max_cycles
        )
        if g.over and not truncated:
            for a in self.agents:
                self.rewards[a] = 1.0 if a == g.winner else -1.0
                self.terminations[a] = True
        elif truncated:
            for a in self.agents:
                self.truncations[a] = True
        elif self.reward_kind == "shaped":
            nxt = g.state.turn
            assert nxt is not None
            value = progress_lead(g.state, nxt)
            self.rewards[nxt] = (value - self._values[nxt]) / SHAPE_SCALE
            self._values[nxt] = value
        self._accumulate_rewards()
        self._update_infos()
        if not g.over and not truncated:
            assert g.state.turn is not None
            self.agent_selection = g.state.turn
        else:
            self.agent_selection = self._next_live(agent)
        if self.render_mode == "human":
            self.render()

    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            return None
        g, fps = self.game, self.metadata["render_fps"]
        return show(self.render_mode, g.state, self.layout, g.face, self.params.pawn_radius,
                    self._window, fps)  # fmt: skip

    def close(self) -> None:
        self._window.close()

    # -- inside ---------------------------------------------------------------------------------

    def _next_live(self, agent: str) -> str:
        """After the last shot, the agents take their dead steps in turn order from ``agent``."""
        order = self.agents
        i = order.index(agent)
        return order[(i + 1) % len(order)]

    def _update_infos(self) -> None:
        s = self.game.state
        for a in self.agents:
            self.infos[a] = {"round": s.round, "winner": s.winner, "to_move": s.turn}


class SlidersParallel(ParallelEnv):
    """The same game through PettingZoo's parallel API: each step, the agents play their actions
    in turn order, each at most once (the agent to move after one that already played this step
    waits for the next), the others' actions unused. ``max_cycles`` counts these steps."""

    metadata = SlidersAEC.metadata

    def __init__(self, **kwargs: Any) -> None:
        self.aec = SlidersAEC(**kwargs)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Box:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Box:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        e = self.aec
        e.reset(seed=seed, options=options)
        self.agents = list(e.agents)
        return {a: e.observe(a) for a in self.agents}, {a: dict(e.infos[a]) for a in self.agents}

    def step(self, actions: dict[str, np.ndarray]) -> tuple[dict, dict, dict, dict, dict]:
        e = self.aec
        rewards = {a: 0.0 for a in self.agents}
        played: set[str] = set()
        while self.agents and not self._done():
            agent = e.agent_selection
            if agent in played:
                break
            e.step(np.clip(actions[agent], *_bounds(e.action_space(agent))))
            played.add(agent)
            for a in self.agents:
                rewards[a] += e.rewards[a]
        terms = {a: e.terminations[a] for a in self.agents}
        truncs = {a: e.truncations[a] for a in self.agents}
        observations = {a: e.observe(a) for a in self.agents}
        infos = {a: dict(e.infos[a]) for a in self.agents}
        if self._done():
            self.agents = []
        return observations, rewards, terms, truncs, infos

    def render(self) -> np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def _done(self) -> bool:
        e = self.aec
        return all(e.terminations[a] or e.truncations[a] for a in self.agents)


def _bounds(space: spaces.Box) -> tuple[np.ndarray, np.ndarray]:
    return space.low, space.high


def parallel_env(**kwargs: Any) -> SlidersParallel:
    """The game through PettingZoo's parallel API (:class:`SlidersParallel`)."""
    return SlidersParallel(**kwargs)


def raw_env(**kwargs: Any) -> SlidersAEC:
    return SlidersAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped with PettingZoo's checks (actions within bounds, calls in order)."""

    e: AECEnv = raw_env(**kwargs)
    e = wrappers.ClipOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e

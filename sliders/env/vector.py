"""A Gymnasium vector environment: ``num_envs`` games of :class:`~sliders.env.single.SlidersEnv`
stepped in one call, their observations, rewards and ends as arrays.

Each registered name has it as its vector entry point::

    envs = gymnasium.make_vec("sliders/RaceForHome-v0", num_envs=64, opponents="easy")

Every game is a :class:`~sliders.env.single.SlidersEnv` with the same settings (the keyword
arguments), played through the one game driver; sub-environment ``i`` plays exactly as a single
environment reset with the same seed and given the same actions would. ``reset(seed=s)`` seeds
game ``i`` with ``s + i`` (a list seeds each game). A game that ends is reset at the next step
(Gymnasium's ``NEXT_STEP`` autoreset: that step returns the new game's first observation, reward 0,
and neither terminated nor truncated), as :class:`gymnasium.vector.SyncVectorEnv` does.

A step plays the games side by side (:func:`sliders.game.run_together`): each game's step is a
play (:meth:`SlidersEnv.stepping`) that stops at every shot it releases, the agent's and then
each opponent's; once every game has a shot in flight (or is done), the shots are solved
together, one shot on each of the games' tables in one compiled call of the exact engine
(:func:`sliders.physics.run_all`, each bit for bit what a game alone gets), and the games go on
to their next shots. What each game does around its shots stays its own Python: its opponents'
choosing (the computers' searches and their valuing of outcomes through the rules, 97 % of a step
against ``easy``), making the agent's shot legal, setting each shot up and reading its result,
the rules, the observation. So a game's step costs about what it costs in a single environment
(``python benchmarks/env.py --vector`` sets the two side by side: 0.9 to 1.2 times the steps per
second of the same games stepped one at a time, over runs, against ``easy`` as against
``centre``; the solving call is 6 to 7 % of a step against ``centre``, under 1 % against
``easy``; docs/players.md says what the rest is). For games on
both cores, ask Gymnasium for ``vectorization_mode="async"`` (one process a game).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import concatenate, iterate

from sliders.core.errors import UserError
from sliders.env.single import SlidersEnv
from sliders.game import Play, run_together


class SlidersVectorEnv(SyncVectorEnv):
    """``num_envs`` games of :class:`SlidersEnv`, each made with ``kwargs``; spaces: the single
    environment's, batched (``single_observation_space``, ``single_action_space``)."""

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise UserError(f"num_envs must be a whole number of games, at least 1, not {num_envs}")
        if kwargs.get("render_mode") == "human":
            raise UserError("a vector environment draws no window: render_mode 'rgb_array' or none")
        first = SlidersEnv(**kwargs)  # a wrong setting is refused once, before the others
        made = iter([first])

        def game() -> SlidersEnv:
            return next(made, None) or SlidersEnv(**kwargs)

        super().__init__(
            [game] * num_envs,
            autoreset_mode=AutoresetMode.NEXT_STEP,
        )

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every game's step (or, for a game that ended at the last step, its reset), played
        side by side: their shots in flight solved together at each turn
        (:func:`sliders.game.run_together`)."""
        resetting = self._autoreset_envs.copy()
        games = cast(list[SlidersEnv], self.envs)
        plays: list[Play[Any]] = [
            game.resetting() if resetting[i] else game.stepping(action)
            for i, (action, game) in enumerate(
                zip(iterate(self.action_space, actions), games, strict=True)
            )
        ]
        infos: dict[str, Any] = {}
        got: Any
        for i, got in enumerate(run_together(plays)):
            if resetting[i]:
                self._env_obs[i], info = got
                self._rewards[i], self._terminations[i], self._truncations[i] = 0.0, False, False
            else:
                self._env_obs[i], self._rewards[i], term, trunc, info = got
                self._terminations[i], self._truncations[i] = term, trunc
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(
            self.single_observation_space, self._env_obs, self._observations
        )
        self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return (
            np.copy(self._observations) if self.copy else self._observations,
            np.copy(self._rewards),
            np.copy(self._terminations),
            np.copy(self._truncations),
            infos,
        )

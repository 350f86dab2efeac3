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

The games run one after the other in this process. Their shots cannot go through the exact
engine's batch path (:func:`sliders.physics.simulate_many`): it solves many shots of one table
and reports rest statuses without the events the rules read (which pawn left play first), while
the games' shots are one shot on each of many tables. For games on both cores, ask Gymnasium for
``vectorization_mode="async"`` (one process a game).
"""

from __future__ import annotations

from typing import Any

from gymnasium.vector import AutoresetMode, SyncVectorEnv

from sliders.core.errors import UserError
from sliders.env.single import SlidersEnv


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

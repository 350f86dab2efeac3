"""The PettingZoo environment, version 0, by its versioned name:
``from sliders.env import sliders_v0; env = sliders_v0.env(layout="square")``."""

from sliders.env.multi import SlidersAEC, SlidersParallel, env, parallel_env, raw_env

__all__ = ["SlidersAEC", "SlidersParallel", "env", "parallel_env", "raw_env"]

"""Gymnasium and PettingZoo environments for people who build their own players (the ``rl``
extra: ``pip install sorry-sliders[rl]``). ``import sliders`` never loads this package.

Importing it registers the single-seat Gymnasium environments::

    import gymnasium as gym
    import sliders.env  # registers sliders/RaceForHome-v0, sliders/InstantHome-v0, ...

    env = gym.make("sliders/RaceForHome-v0", opponents="hard", render_mode="rgb_array")

``gym.make_vec(name, num_envs=64, opponents="easy")`` makes their vector environment
(:class:`SlidersVectorEnv`), and the package offers the PettingZoo AEC environment as :mod:`sliders.env.sliders_v0`. The games are the
project's own: the rules engine and the physics, played through :mod:`sliders.game`.
"""

from gymnasium.envs.registration import register, registry

from sliders.core.outcome import FACES
from sliders.env.multi import SlidersAEC
from sliders.env.single import SlidersEnv
from sliders.env.vector import SlidersVectorEnv

ENV_IDS: dict[str, str] = {
    "sliders/" + "".join(w.capitalize() for w in _face.split("-")) + "-v0": _face for _face in FACES
}
"""the registered Gymnasium names (``sliders/RaceForHome-v0``, …) and the face each plays"""

for _id, _face in ENV_IDS.items():
    if _id not in registry:
        register(
            id=_id,
            entry_point="sliders.env.single:SlidersEnv",
            vector_entry_point="sliders.env.vector:SlidersVectorEnv",
            kwargs={"face": _face},
        )

__all__ = ["ENV_IDS", "SlidersAEC", "SlidersEnv", "SlidersVectorEnv"]

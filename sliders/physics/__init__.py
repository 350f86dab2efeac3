"""The physics of the table: simulate a shot to rest and report rest statuses and events.

Two engines implement one pawn model (docs/model.md): ``"pymunk"`` and ``"exact"``; choose with
``engine=`` (None: :data:`DEFAULT_ENGINE`). Importing this package loads pymunk; ``import
sliders`` alone does not.
"""

from sliders.outcome import ENGINES
from sliders.physics.engines import DEFAULT_ENGINE, Simulation, check_engine, simulate
from sliders.physics.noise import NOISE_LEVELS, Noise
from sliders.physics.params import PhysicsParams
from sliders.physics.shot import Shot, at_rest

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "NOISE_LEVELS",
    "Noise",
    "PhysicsParams",
    "Shot",
    "Simulation",
    "at_rest",
    "check_engine",
    "simulate",
]

"""The pymunk model of the table: simulate a shot to rest and report rest statuses and events.

Importing this package loads pymunk; ``import sliders`` alone does not.
"""

from sliders.physics.engine import Shot, Simulation, at_rest, simulate
from sliders.physics.noise import NOISE_LEVELS, Noise
from sliders.physics.params import PhysicsParams

__all__ = ["NOISE_LEVELS", "Noise", "PhysicsParams", "Shot", "Simulation", "at_rest", "simulate"]

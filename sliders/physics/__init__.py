"""The pymunk model of the table: simulate a shot to rest and report rest statuses and events.

Importing this package loads pymunk; ``import sliders`` alone does not.
"""

from sliders.physics.noise import NOISE_LEVELS, Noise
from sliders.physics.params import PhysicsParams
from sliders.physics.simulate import Shot, Simulation, at_rest, simulate

__all__ = ["NOISE_LEVELS", "Noise", "PhysicsParams", "Shot", "Simulation", "at_rest", "simulate"]

"""The physics of the table: simulate a shot to rest and report rest statuses and events.

Every shot goes one way (:mod:`sliders.physics.interface`): a :class:`Setup` (layout, face,
parameters, engine), then :func:`simulate` for one :class:`~sliders.core.outcome.Shot` with its seed,
:func:`simulate_many` for a batch of one table, :func:`simulate_each` for one shot on each of
many tables, or :func:`start` for a shot stepped frame by frame. Two
engines implement one pawn model (docs/model.md): ``"exact"`` (the default) and ``"pymunk"``.
Importing this package loads pymunk, not the exact engine's numba; ``import sliders`` alone
loads neither.
"""

from sliders.core.outcome import DEFAULT_ENGINE, ENGINES, BatchResult, Shot, check_engine
from sliders.physics.interface import (
    REGISTRY,
    Engine,
    Setup,
    Shots,
    Simulation,
    check_shot,
    require_engine,
    run_all,
    simulate,
    simulate_each,
    simulate_many,
    start,
)
from sliders.physics.limits import ShotLimits, shot_limits
from sliders.physics.noise import NOISE_LEVELS, Noise
from sliders.physics.params import PhysicsParams
from sliders.physics.shot import at_rest, engine_version

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "NOISE_LEVELS",
    "REGISTRY",
    "BatchResult",
    "Engine",
    "Noise",
    "PhysicsParams",
    "Setup",
    "Shot",
    "ShotLimits",
    "Shots",
    "Simulation",
    "at_rest",
    "check_engine",
    "check_shot",
    "engine_version",
    "require_engine",
    "run_all",
    "shot_limits",
    "simulate",
    "simulate_each",
    "simulate_many",
    "start",
]

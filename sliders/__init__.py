"""sliders: play, simulate and score the dexterity board game Sorry! Sliders.

``import sliders`` is light: it never loads pygame, and pymunk only when physics is used.
"""

from sliders.core.outcome import (
    FACES,
    SEAT_COLOURS,
    SEATS,
    Event,
    EventType,
    PawnRest,
    ShotResult,
    Status,
)

__version__ = "0.1.0"

__all__ = [
    "FACES",
    "SEATS",
    "SEAT_COLOURS",
    "Event",
    "EventType",
    "PawnRest",
    "ShotResult",
    "Status",
    "__version__",
]

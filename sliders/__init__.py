"""sliders: play, simulate and score the dexterity board game Sorry! Sliders.

``import sliders`` is light: it never loads pygame, and pymunk only when physics is used. The names
below are loaded from :mod:`sliders.core.outcome` when first used, so that importing the package
costs next to nothing (the ``sliders`` command sets its signal handlers as its first step: see
:mod:`sliders.cli`).
"""

TYPE_CHECKING = False  # as typing's, without loading typing first

if TYPE_CHECKING:
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


def __getattr__(name: str) -> object:
    if name in __all__:
        from sliders.core import outcome

        return getattr(outcome, name)
    raise AttributeError(f"module 'sliders' has no attribute {name!r}")

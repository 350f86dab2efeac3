"""A game played without a window: the rules' game and the physics, driven turn by turn by
players that decide in code (computer strengths, bots, learning agents). No pygame here.

:class:`HeadlessGame` is what the tournament and the Gymnasium / PettingZoo environments play on.
"""

from sliders.game.headless import (
    HeadlessGame,
    Player,
    ShotOutcome,
    legal_shot,
    release_limits,
)

__all__ = ["HeadlessGame", "Player", "ShotOutcome", "legal_shot", "release_limits"]

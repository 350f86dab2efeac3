"""A game without a window: a match's configuration, the turn machine, the players, the cheap
driver, the saved log and its replay. No pygame here.

:class:`~sliders.game.turns.Turns` is the one turn machine (whose turn, shots, Instant Home
choices, round ends, the round cap); :class:`HeadlessGame` drives it turn by turn for players that
decide in code (computer strengths, bots, learning agents), which the tournament and the
Gymnasium / PettingZoo environments play on; the window (:mod:`sliders.scenes`) drives the same
machine frame by frame.
"""

from sliders.game.headless import (
    HeadlessGame,
    Play,
    ShotLost,
    ShotOutcome,
    foul_shot,
    legal_shot,
    release_limits,
    run_alone,
    run_together,
)
from sliders.game.turns import HomeChoice, Player, Turns

__all__ = [
    "HeadlessGame",
    "HomeChoice",
    "Play",
    "Player",
    "ShotLost",
    "ShotOutcome",
    "Turns",
    "foul_shot",
    "legal_shot",
    "release_limits",
    "run_alone",
    "run_together",
]

"""A game without a window: a match's configuration, whose turn it is, the shots, the scoring, the
computer seats, the saved log and its replay. No pygame here.

:class:`~sliders.game.match.Match` is what the window (:mod:`sliders.scenes`) draws and feeds
input; :class:`HeadlessGame` is the same rules' game and physics driven turn by turn by players
that decide in code (computer strengths, bots, learning agents), which the tournament and the
Gymnasium / PettingZoo environments play on.
"""

from sliders.game.headless import (
    HeadlessGame,
    Player,
    ShotOutcome,
    legal_shot,
    release_limits,
)

__all__ = ["HeadlessGame", "Player", "ShotOutcome", "legal_shot", "release_limits"]

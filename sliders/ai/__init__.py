"""Computer players: choose a shot by simulating candidates with the real physics under execution
noise, and choose how to assign a round's points. No pygame here.

A :class:`ComputerPlayer` has a :class:`Strength`: a hand (the noise of its execution) and a
:class:`Mind` (how it chooses, and its budget). The planner's minds choose the shot with the best
chance of winning (:class:`PlanSearch`, valued by :class:`WinModel`, fitted on whole games over
the race model :class:`RaceModel`); the classic mind is the earlier search (:class:`ShotSearch`).
Both are stepped in small slices so a window can run them between frames; :meth:`ComputerPlayer.choose_shot` runs one to the end.
Every draw comes from the player's numpy Generator, so a seed fixes its play.
"""

from sliders.ai.evaluate import position_value, seat_value
from sliders.ai.planner import Mind, PlanSearch
from sliders.ai.player import (
    MINDS,
    PRESETS,
    STRENGTHS,
    ComputerPlayer,
    ShotSearch,
    Strength,
    classic,
    make_strength,
    strength,
)
from sliders.ai.race import RaceModel
from sliders.ai.win import WinModel

__all__ = [
    "MINDS",
    "PRESETS",
    "STRENGTHS",
    "ComputerPlayer",
    "Mind",
    "PlanSearch",
    "RaceModel",
    "ShotSearch",
    "Strength",
    "WinModel",
    "classic",
    "make_strength",
    "position_value",
    "seat_value",
    "strength",
]

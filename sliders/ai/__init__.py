"""Computer players: choose a shot by simulating candidates with the real physics under execution
noise, and choose how to assign a round's points. No pygame here.

A :class:`ComputerPlayer` has a :class:`Strength`: a hand (the noise of its execution) and a
:class:`Mind` (the settings of the one search, and its budget). Every mind chooses the shot with
the best chance of winning (:class:`PlanSearch`, the one search, which ``sliders best`` uses
too), valued one way (:mod:`sliders.ai.value`: :class:`WinModel`, fitted on whole games over the
race model :class:`RaceModel`). The search is stepped in small slices so a window can run it
between frames; :meth:`ComputerPlayer.choose_shot` runs one to the end.
Every draw comes from the player's numpy Generator, so a seed fixes its play.
"""

from sliders.ai.planner import Mind, PlanSearch
from sliders.ai.player import (
    MINDS,
    PRESETS,
    STRENGTHS,
    ComputerPlayer,
    Strength,
    classic,
    make_strength,
    prepare_players,
    strength,
)
from sliders.ai.race import RaceModel
from sliders.ai.value import Valuer, progress_lead, win_model
from sliders.ai.win import WinModel

__all__ = [
    "MINDS",
    "PRESETS",
    "STRENGTHS",
    "ComputerPlayer",
    "Mind",
    "PlanSearch",
    "RaceModel",
    "Strength",
    "Valuer",
    "WinModel",
    "classic",
    "make_strength",
    "prepare_players",
    "progress_lead",
    "strength",
    "win_model",
]

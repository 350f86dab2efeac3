"""Computer players: choose a shot by simulating candidates with the real physics under execution
noise, and choose how to assign a round's points. No pygame here.

A :class:`ComputerPlayer` has a :class:`Strength` (``easy``, ``medium``, ``hard``) that sets the
noise of its hand and how many simulations it spends per turn. Its search is a
:class:`ShotSearch`, stepped one simulation at a time so a window can run it in slices per frame;
:meth:`ComputerPlayer.choose_shot` runs it to the end. Every draw comes from the player's numpy
Generator, so a seed fixes its play.
"""

from sliders.ai.evaluate import position_value, seat_value
from sliders.ai.player import STRENGTHS, ComputerPlayer, ShotSearch, Strength, strength

__all__ = [
    "STRENGTHS",
    "ComputerPlayer",
    "ShotSearch",
    "Strength",
    "position_value",
    "seat_value",
    "strength",
]

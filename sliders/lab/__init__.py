"""The strategy lab: what a shot is worth in the game, and a search for the best shot.

:mod:`sliders.lab.value` turns a shot's outcome into the change of the shooting seat's game value
through the rules engine; :mod:`sliders.lab.search` looks for the intended shot with the highest
expected value under execution noise. ``docs/strategy.md`` defines both.
"""

from sliders.lab.value import GameSpot, Valuer, parse_score_boards, progress

__all__ = ["GameSpot", "Valuer", "parse_score_boards", "progress"]

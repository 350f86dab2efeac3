"""The strategy lab: a search for the best shot, on top of the batch studies and the computer
players.

:mod:`sliders.lab.search` looks for the intended shot with the highest expected value under
execution noise, valued by :mod:`sliders.ai.value` (the change of the shooting seat's game value
through the rules engine). ``docs/strategy.md`` defines both.
"""

"""The strategy lab: the best shot in a box of shots, on top of the batch studies and the
computer players.

:mod:`sliders.lab.search` runs the computer players' own search (:mod:`sliders.ai.planner`) over
a grid of the box, valued the one way the project values a position (:mod:`sliders.ai.value`:
the shooting seat's chance of winning), and reports the winner from fresh batch samples.
``docs/strategy.md`` defines both.
"""

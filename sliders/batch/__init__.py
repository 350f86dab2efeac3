"""Batch studies: many noisy shots from one seat on one table, summarised per intended shot.

Build a :class:`Study` from a scene, a seat and a :class:`Design` of intended shots, run it with
:func:`run_study` (local worker processes by default, or a Dask cluster), and read the
:class:`BatchResult`: a table with one row per simulated shot and a summary per intended shot.

>>> from sliders.batch import Design, Study, run_study, empty_scene
>>> from sliders.physics import Noise
>>> design = Design.grid(speed="0.4:0.9:6", angle="-4:4:5")
>>> study = Study.create(empty_scene(), "south", design, samples=20, noise=Noise.level("medium"))
>>> result = run_study(study, workers=2)            # doctest: +SKIP
>>> result.summary()["mean_value"]                  # doctest: +SKIP

A saved table reads back with :func:`load` (``saved.summary()``, ``saved.to_pandas()``).
"""

from sliders.batch.runners import BACKENDS, BatchResult, run_study
from sliders.batch.saved import Saved, load
from sliders.batch.study import PARAMETERS, Context, Design, Spec, Study, empty_scene, parse_spec

__all__ = [
    "BACKENDS",
    "PARAMETERS",
    "Saved",
    "BatchResult",
    "Context",
    "Design",
    "Spec",
    "Study",
    "empty_scene",
    "load",
    "parse_spec",
    "run_study",
]

"""Small studies shared by the batch tests: a few intended shots on an empty table and on a table
with three opponents near the centre, so collisions, removals and penalties all occur."""

from __future__ import annotations

import pytest

from sliders.batch import Design, Study, empty_scene
from sliders.files.scenes import Scene, ScenePawn
from sliders.physics import Noise

CROWD = (
    ScenePawn("north-1", 0.0, 0.03),
    ScenePawn("north-2", 0.03, -0.012),
    ScenePawn("north-3", -0.03, -0.012),
)


@pytest.fixture
def crowded_scene() -> Scene:
    return Scene("square", ("south", "north"), "race-for-home", CROWD)


@pytest.fixture
def crowded_study(crowded_scene: Scene) -> Study:
    design = Design.grid(speed="0.6,0.9,1.4", angle="-3:3:3")
    return Study.create(
        crowded_scene, "south", design, samples=4, noise=Noise.level("high"), seed=7
    )


@pytest.fixture
def empty_study() -> Study:
    design = Design.grid(speed="0.5:1.1:4", angle="-5,5")
    return Study.create(
        empty_scene(), "south", design, samples=3, noise=Noise.level("medium"), seed=3
    )

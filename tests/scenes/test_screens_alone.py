"""Each screen's module works alone: a program that imports one screen's module, and not
:mod:`sliders.scenes.screens`, reaches every screen by name (each in a fresh interpreter, where no
other test has loaded the others)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

MODULES = ("play", "replay", "results", "roundend", "setup")
GOES_TO = {
    "setup": "sliders.scenes.setup",
    "play": "sliders.scenes.play",
    "round-end": "sliders.scenes.roundend",
    "results": "sliders.scenes.results",
    "review": "sliders.scenes.reviewscreen",
    "reviewing": "sliders.scenes.coach",
    "practice": "sliders.scenes.practice",
    "drill": "sliders.scenes.practice",
    "drills": "sliders.scenes.practice",
    "resume": "sliders.scenes.resume",
}
"""the screens shown by name, and the module of each"""

ALONE = """
import json, sys
import sliders.scenes.{module}
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.table import Match
from sliders.scenes.app import SCREENS, App

others = {{"play", "replay", "results", "roundend", "setup", "screens"}} - {{"{module}"}}
assert not [m for m in others if "sliders.scenes." + m in sys.modules], "imported with others"
app = App((640, 420), sound=False, think_budget=None)
config = MatchConfig(
    "race-for-home", "square", parse_seat_specs("south=cpu:easy,north=cpu:easy"), 3
)
# a screen the module does not define, by name, as the next screen would be
if "{module}" == "setup":
    app.go("play", Match(config))
else:
    app.go("setup", config)
shown = {{name: screen.__module__ for name, screen in SCREENS.items()}}
print(json.dumps(shown))
app.close()
"""

PLAY_TO_ROUND_END = """
import sliders.scenes.play
from sliders.game.config import MatchConfig, parse_seat_specs
from sliders.scenes.table import Match
from sliders.scenes.app import App
from sliders.scenes.play import PlayScreen

app = App((640, 420), sound=False, think_budget=None)
config = MatchConfig(
    "race-for-home", "square", parse_seat_specs("south=cpu:easy,north=cpu:easy"), 3
)
app.show(PlayScreen(app, Match(config)))
for _ in range(20000):
    if not isinstance(app.screen, PlayScreen):
        break
    app.step(0.05, draw=False)
print(type(app.screen).__name__)
app.close()
"""


def run(code: str) -> str:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("module", MODULES)
def test_a_screen_module_imported_alone_reaches_every_screen(module: str) -> None:
    assert json.loads(run(ALONE.format(module=module))) == GOES_TO


def test_the_play_screen_alone_goes_on_to_the_round_end() -> None:
    """The program of issue 20: ``PlayScreen`` shown without importing the other screens."""
    assert run(PLAY_TO_ROUND_END) in ("RoundEndScreen", "ResultsScreen")

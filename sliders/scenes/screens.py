"""Every screen of the game, loaded so that each is registered for :meth:`App.go
<sliders.scenes.app.App.go>` (which loads this module when a screen it is asked for is not
registered yet, see :func:`sliders.scenes.load_screens`)."""

from sliders.scenes.coach import ReviewingScreen
from sliders.scenes.play import PlayScreen
from sliders.scenes.practice import DrillScreen, DrillsScreen, PracticeScreen
from sliders.scenes.replay import ReplayScreen
from sliders.scenes.results import ResultsScreen
from sliders.scenes.resume import ResumeScreen
from sliders.scenes.reviewscreen import ReviewScreen
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.setup import SetupScreen

__all__ = [
    "DrillScreen",
    "DrillsScreen",
    "PlayScreen",
    "PracticeScreen",
    "ReplayScreen",
    "ResultsScreen",
    "ResumeScreen",
    "ReviewScreen",
    "ReviewingScreen",
    "RoundEndScreen",
    "SetupScreen",
]

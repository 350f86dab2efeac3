"""Every screen of the game, loaded so that each is registered for :meth:`App.go
<sliders.scenes.app.App.go>`: import this module before showing the first screen."""

from sliders.scenes.play import PlayScreen
from sliders.scenes.replay import ReplayScreen
from sliders.scenes.results import ResultsScreen
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.setup import SetupScreen

__all__ = ["PlayScreen", "ReplayScreen", "ResultsScreen", "RoundEndScreen", "SetupScreen"]

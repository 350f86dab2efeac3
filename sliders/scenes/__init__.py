"""The game on screen, with pygame: setup, play, round end, results and replay screens over an
app loop that owns the clock and steps the physics at its fixed rate.

Importing this package does not load pygame; the screens' modules do (start with
:func:`sliders.cli.play.run`, or :class:`sliders.scenes.app.App` and any one screen: the others
load when one is first asked for by name). The game logic the screens drive,
:class:`sliders.scenes.table.Match` over the turn machine :class:`sliders.game.Turns`, is
pygame-free.
"""


def load_screens() -> None:
    """Load every screen's module, so each screen is registered for :meth:`App.go
    <sliders.scenes.app.App.go>` by name."""
    import sliders.scenes.screens  # noqa: F401  # pygame: only once a screen is shown

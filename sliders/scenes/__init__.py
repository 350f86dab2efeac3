"""The game on screen, with pygame: setup, play, round end, results and replay screens over an
app loop that owns the clock and steps the physics at its fixed rate.

Importing this package does not load pygame; the screens' modules do (start with
:func:`sliders.cli.play.run`, or :class:`sliders.scenes.app.App`). The game logic the
screens drive, :class:`sliders.scenes.table.Match` over the turn machine
:class:`sliders.game.Turns`, is pygame-free.
"""

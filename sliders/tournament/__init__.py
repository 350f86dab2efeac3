"""Tournaments between computer players, bots and players people write: ``sliders tournament``.

:mod:`~sliders.tournament.players` names the players, :mod:`~sliders.tournament.run` plays the
games (in parallel, seeded, resumable from the results file), :mod:`~sliders.tournament.report`
turns them into win rates, ratings and pictures.
"""

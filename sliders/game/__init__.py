"""A match, without pygame: its configuration, whose turn it is, the shots, the scoring, the
computer seats, the saved log and its replay. The window (:mod:`sliders.scenes`) draws a
:class:`~sliders.game.match.Match` and feeds it input; the command line builds its
:class:`~sliders.game.config.MatchConfig`.
"""

"""Each command's flags and help, one module a command: what ``sliders COMMAND --help`` needs and
nothing the command loads to run (that is the command's module, ``sliders.cli.COMMAND``)."""

from sliders.cli.flags import (
    analyse,
    batch,
    best,
    calibrate,
    drills,
    host,
    join,
    layouts,
    params,
    play,
    practice,
    render,
    review,
    score,
    shot,
    tournament,
)

__all__ = [
    "analyse",
    "batch",
    "best",
    "calibrate",
    "host",
    "join",
    "drills",
    "layouts",
    "params",
    "play",
    "practice",
    "render",
    "review",
    "score",
    "shot",
    "tournament",
]

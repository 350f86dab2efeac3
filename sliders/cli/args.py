"""Command-line arguments shared by the commands, and the defaults their help names.

This module and :mod:`sliders.cli.flags` are what ``sliders --help`` loads: the vocabulary layer
and argparse, no numpy, no physics. A default that belongs to a heavier module is repeated here
under the same name, and ``tests/cli/test_startup.py`` checks each copy equals its source.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from sliders.core.checks import MAX_SEED
from sliders.core.outcome import DEFAULT_ENGINE, ENGINES, FACES

DEFAULT_LAYOUT = "square"
DEFAULT_FACE = FACES[0]
"""as :data:`sliders.boards.faces.DEFAULT_FACE`"""
NOISE_LEVELS: tuple[str, ...] = ("none", "low", "medium", "high")
"""the names of :data:`sliders.physics.noise.NOISE_LEVELS`"""


FILE_ROLE = "sliders_file_role"
"""The attribute of a flag's argparse action that says what the command does with the file the
flag names (see :func:`reads` and :func:`writes`); :func:`sliders.cli.outputs.check_files`
checks every such flag before the command runs."""
ROLES: tuple[str, ...] = ("input", "output", "update", "folder")
"""``input``: a file read; ``output``: a file written whole; ``update``: a file read if it exists
and written (a log taken up and saved again, a scene saved and loaded, results appended to);
``folder``: a folder written into."""


def reads(action: argparse.Action) -> argparse.Action:
    """Mark ``action`` (what ``add_argument`` returned) as naming a file the command reads."""
    setattr(action, FILE_ROLE, "input")
    return action


def writes(action: argparse.Action, role: str = "output") -> argparse.Action:
    """Mark ``action`` as naming what the command writes: ``role`` is ``output``, ``update`` or
    ``folder`` (see :data:`ROLES`)."""
    if role not in ROLES[1:]:
        raise ValueError(f"unknown role {role!r}")
    setattr(action, FILE_ROLE, role)
    return action


def port(text: str) -> int:
    """A ``--port`` value: a TCP port from 0 (a free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port from 0 to 65535 (0: a free one)")
    return value


def seconds(text: str) -> float:
    """A length of time in seconds, from 0 up."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 10**7:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 up")
    return value


HOUSE_RULE_NAMES: tuple[str, ...] = ("no-knock-penalty", "corners-only")
"""the names of :data:`sliders.rules.house.HOUSE_RULES`"""


def add_house_rule(parser: argparse.ArgumentParser, what: str = "the game") -> None:
    """The ``--house-rule NAME`` flag (repeatable): a house rule :data:`HOUSE_RULE_NAMES` names,
    off unless given, kept in ``what``'s record."""
    parser.add_argument(
        "--house-rule",
        action="append",
        choices=HOUSE_RULE_NAMES,
        metavar="NAME",
        help="play with a house rule (repeatable; none by default, the rulebook's rules): "
        "no-knock-penalty (a pawn another player's slide knocks onto a SORRY! corner or off "
        "the board leaves play with no penalty), corners-only (a pawn that leaves the board "
        "across a side, clear of its corners, leaves play with no penalty: only the corners "
        f"cost one, as the rulebook words it); recorded in {what}",
    )


def seed(text: str) -> int:
    """A ``--seed`` value: a whole number from 0 up (below :data:`sliders.core.checks.MAX_SEED`; a
    physics seed is further checked by the engines)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 0 up")
    return value


def add_table_arguments(p: argparse.ArgumentParser) -> None:
    reads(
        p.add_argument(
            "--layout",
            help=f"built-in layout name or layout file (default: {DEFAULT_LAYOUT}); alone, it is "
            "laid for its own default seats",
        )
    )
    p.add_argument(
        "--face", choices=FACES, help=f"the game (default: the layout's own, {DEFAULT_FACE})"
    )
    p.add_argument(
        "--seats",
        help="seats in play, e.g. south,north or red,yellow (default: the layout's own)",
    )
    reads(
        p.add_argument(
            "--scene", metavar="FILE", help="scene file: layout, face and pawns on the table"
        )
    )


def add_noise_arguments(g: argparse._ArgumentGroup) -> None:
    """The execution-noise flags of a study and of the best-shot search, and their seed."""
    g.add_argument(
        "--noise",
        default="medium",
        choices=(*NOISE_LEVELS, "me"),
        help="level, or me: your hand measured by the drills (default: medium)",
    )
    g.add_argument("--noise-speed", type=float, metavar="REL", help="speed sigma, e.g. 0.05 = 5%%")
    g.add_argument("--noise-angle", type=float, metavar="DEG", help="angle sigma, degrees")
    g.add_argument("--noise-offset", type=float, metavar="M", help="offset sigma, metres")
    g.add_argument("--noise-release", type=float, metavar="M", help="release sigma, metres")
    g.add_argument("--seed", type=seed, default=0, help="seed of every random draw (default: 0)")


def add_param_argument(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--params FILE``: the physics parameters of a parameter file (``sliders params --save``,
    ``sliders calibrate fit``); ``--param NAME=VALUE``: override one (see ``sliders params``)."""
    reads(
        p.add_argument(
            "--params",
            metavar="FILE",
            help="physics parameters from a parameter file (sliders params --save, sliders "
            "calibrate)",
        )
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a physics parameter (repeatable; see sliders params)",
    )


def add_engine_argument(p: Any) -> None:
    """``--engine exact|pymunk`` on a command's parser (or argument group)."""
    p.add_argument(
        "--engine",
        choices=ENGINES,
        help=f"physics engine (default: {DEFAULT_ENGINE}; see sliders params)",
    )


def allow_negative_values(p: argparse.ArgumentParser) -> None:
    """Let values such as ``-6:6:13`` or ``-0.02,0,0.02`` through as values, not as options."""
    if hasattr(p, "_negative_number_matcher"):
        p._negative_number_matcher = re.compile(r"^-\.?\d[\d.:,eE+-]*$")

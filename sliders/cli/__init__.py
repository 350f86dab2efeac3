"""The ``sliders`` command.

Each sub-command lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``.
Abbreviated flags are refused (``--spee`` is not ``--speed``), as are numbers that are not finite
(``--speed nan``) and empty values. A command's module is imported only when the parser is built,
and the window's modules (pygame) and the optional heavy libraries (matplotlib, pyarrow, Dask) load
only when a command needs them, so ``sliders --help`` never loads pygame.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
from collections.abc import Sequence

from sliders import __version__
from sliders.errors import UserError

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("sliders.cli.play", "play a game in a window"),
    "shot": (
        "sliders.cli.shot",
        "simulate one shot and report where every pawn came to rest",
    ),
    "render": ("sliders.cli.render", "draw a layout, a face and a scene to a PNG"),
    "params": ("sliders.cli.params", "print the physics and geometry defaults"),
    "layouts": ("sliders.cli.layouts", "list the built-in layouts"),
    "score": ("sliders.cli.score", "keep score for a game played on the physical board"),
    "batch": ("sliders.cli.batch", "simulate many noisy shots and summarise their outcomes"),
    "analyse": ("sliders.cli.analyse", "re-summarise and re-draw a saved batch table"),
    "best": ("sliders.cli.best", "search for the shot worth most under execution noise"),
    "tournament": (
        "sliders.cli.tournament",
        "play many games between players and report win rates and ratings",
    ),
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:

    parser = _Parser(
        prog="sliders", description="Play, simulate and score Sorry! Sliders.", allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"sliders {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not module_name.startswith(exc.name):
                raise
            continue  # a command whose module is not part of this build
        p = sub.add_parser(name, help=help_text, description=module.__doc__, allow_abbrev=False)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        command = _subparsers(parser).get(getattr(args, "command", None) or "", parser)
        if extra:  # named by the sub-command they were given to, as its other errors are
            command.error(f"unrecognized arguments: {' '.join(extra)}")
        _refuse_empty_values(command, args)
        _refuse_unfinite_numbers(command, args)
    except SystemExit as exc:  # --help, --version, or a bad flag (already reported)
        return int(exc.code or 0)
    if not getattr(args, "_run", None):
        parser.print_help()
        print("sliders: error: choose a COMMAND", file=sys.stderr)
        return 2
    try:
        code = int(args._run(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (`sliders layouts --json | head`)
        _discard_stdout()
        return 128 + 13  # as if killed by SIGPIPE, like other command-line tools
    except UserError as exc:
        print(f"sliders {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"sliders {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file the operating system refused (a name too long, a full disk)
        where = f"{exc.filename}: " if exc.filename else ""
        reason = exc.strerror or type(exc).__name__
        print(f"sliders {args.command}: error: {one_line(where + reason)}", file=sys.stderr)
        return 2


def one_line(message: str) -> str:
    """``message`` on one line: a line break in it (from a file name, say) is shown as ``\\n``."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _refuse_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--out ""`` (an unset shell variable, say) is a mistake, not a request for the default."""
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            name = action.option_strings[-1] if action.option_strings else action.dest
            parser.error(f"argument {name}: expected a value, got an empty one")


def _refuse_unfinite_numbers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--speed nan`` or ``--angle inf`` is never a shot: every number flag is finite."""
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            name = action.option_strings[-1] if action.option_strings else action.dest
            parser.error(f"argument {name}: expected a finite number, got {value}")


def _discard_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)

"""The ``sliders`` command.

Each sub-command has two modules: its flags and help in :mod:`sliders.cli.flags` (``HELP`` and
``add_arguments(parser)``), light enough that ``sliders --help`` loads neither numpy nor the
physics, and the module that runs it, ``sliders.cli.COMMAND`` with ``run(args) -> int``, loaded
only when the command runs. Every flag that names a file the command reads or writes is marked
so (:func:`sliders.cli.args.reads`, :func:`sliders.cli.args.writes`) and checked before the
command runs (:func:`sliders.cli.outputs.check_files`). An unknown flag is named before anything else is checked, with the
flag it most looks like (abbreviations are refused: ``--spee`` is not ``--speed``, though the
error suggests it), and so are numbers that are not finite (``--speed nan``) and empty values.

Ctrl-C (SIGINT), SIGTERM and SIGHUP end a command at any moment with one line and the status a
shell gives a process that signal stopped (130, 143, 129), never a traceback: while the command
runs, :func:`main` turns them into :class:`Interrupted` (and notes which came: :func:`stopped_by`),
which a command that keeps its finished work (``batch``, ``tournament``, ``score``) notes in its
own way; before :func:`main` runs (while this module loads, when the process is the ``sliders``
command) and after it, they end the process at once, as nothing is being written then. Once a
stop has been reported, the ``sliders`` process ends at once too (:func:`_leave`), without the
interpreter's ending, which would finalise what the interrupt left half-built.
"""

from __future__ import annotations

import os
import signal
import sys

from sliders.core.signals import STOP_SIGNALS, stop_signals


def _is_the_command() -> bool:
    """Whether this process is the ``sliders`` command (the script, or ``python -m sliders.cli``
    while it is being found) rather than a program importing this module."""
    if sys.argv[:1] == ["-m"]:  # python -m: the module is being found and loaded
        orig = list(getattr(sys, "orig_argv", []))
        return "-m" in orig and orig[orig.index("-m") + 1 : orig.index("-m") + 2] == ["sliders.cli"]
    return os.path.basename(sys.argv[0]) == "sliders" if sys.argv else False


def _end_quietly(signum: int, frame: object) -> None:
    """The signals' handler outside :func:`main`: nothing is being written, so the process ends
    here, with one line."""
    why = "" if signum == signal.SIGINT else f" ({signal.Signals(signum).name})"
    os.write(2, f"sliders: interrupted{why}\n".encode())
    os._exit(128 + signum)


_THE_COMMAND = _is_the_command()
"""whether this process is the ``sliders`` command (see :func:`_leave`)"""

if _THE_COMMAND:  # first of all: the imports below take a while on a busy machine
    for _name in STOP_SIGNALS:  # a signal ignored (nohup, a background job's Ctrl-C) stays so
        if signal.getsignal(getattr(signal, _name)) is not signal.SIG_IGN:
            signal.signal(getattr(signal, _name), _end_quietly)

import _thread  # noqa: E402 - after the signal handlers, on purpose
import argparse  # noqa: E402
import difflib  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any, NoReturn  # noqa: E402

from sliders import __version__  # noqa: E402
from sliders.cli import flags  # noqa: E402
from sliders.cli.outputs import check_files  # noqa: E402
from sliders.core.errors import MACHINE_ERRNOS, MachineFault, UserError  # noqa: E402

# Each command's module is imported when it runs, not when the parser is built: the imports below
# load numpy, the physics (pymunk, numba), scipy, matplotlib or pygame.


def _play(args: argparse.Namespace) -> int:
    from sliders.cli import play  # the game, and pygame when the window opens

    return play.run(args)


def _shot(args: argparse.Namespace) -> int:
    from sliders.cli import shot  # the physics engines

    return shot.run(args)


def _render(args: argparse.Namespace) -> int:
    from sliders.cli import render  # the physics and matplotlib

    return render.run(args)


def _params(args: argparse.Namespace) -> int:
    from sliders.cli import params  # the physics parameters and engines

    return params.run(args)


def _layouts(args: argparse.Namespace) -> int:
    from sliders.cli import layouts  # the layout files and the physics parameters

    return layouts.run(args)


def _score(args: argparse.Namespace) -> int:
    from sliders.cli import score  # the rules

    return score.run(args)


def _batch(args: argparse.Namespace) -> int:
    from sliders.cli import batch  # numpy, scipy and the batch runners

    return batch.run(args)


def _analyse(args: argparse.Namespace) -> int:
    from sliders.cli import analyse  # numpy, scipy and the saved tables' readers

    return analyse.run(args)


def _best(args: argparse.Namespace) -> int:
    from sliders.cli import best  # the shot search, its physics and position value

    return best.run(args)


def _tournament(args: argparse.Namespace) -> int:
    from sliders.cli import tournament  # the headless game and the computer players

    return tournament.run(args)


def _calibrate(args: argparse.Namespace) -> int:
    from sliders.cli import calibrate  # numpy, scipy, matplotlib, and OpenCV for a video

    return calibrate.run(args)


def _host(args: argparse.Namespace) -> int:
    from sliders.cli import host  # the game host: the game driver and the network

    return host.run(args)


def _join(args: argparse.Namespace) -> int:
    from sliders.cli import join  # the network client and the physics

    return join.run(args)


def _review(args: argparse.Namespace) -> int:
    from sliders.cli import review  # the replayed game, the shot search and matplotlib

    return review.run(args)


def _drills(args: argparse.Namespace) -> int:
    from sliders.cli import drills  # the physics, the drills' scenes and the hand fit (scipy)

    return drills.run(args)


def _practice(args: argparse.Namespace) -> int:
    from sliders.cli import practice  # the game's window, and pygame when it opens

    return practice.run(args)


COMMANDS: dict[str, tuple[ModuleType, Callable[[argparse.Namespace], int]]] = {
    "play": (flags.play, _play),
    "shot": (flags.shot, _shot),
    "render": (flags.render, _render),
    "params": (flags.params, _params),
    "layouts": (flags.layouts, _layouts),
    "score": (flags.score, _score),
    "batch": (flags.batch, _batch),
    "analyse": (flags.analyse, _analyse),
    "best": (flags.best, _best),
    "tournament": (flags.tournament, _tournament),
    "review": (flags.review, _review),
    "drills": (flags.drills, _drills),
    "practice": (flags.practice, _practice),
    "calibrate": (flags.calibrate, _calibrate),
    "host": (flags.host, _host),
    "join": (flags.join, _join),
}
"""name -> (its flags' module, the function that runs it)"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


_ARGPARSE_NEGATIVE = argparse.ArgumentParser()._negative_number_matcher.pattern
_NEGATIVE = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
"""a negative number as a value, written as Python writes floats (``-1e308`` too)"""


class _Version(argparse.Action):
    """``--version``: the version, and how the window draws on this machine (one line: the
    video driver, OpenGL or SDL's software framebuffer; loads pygame, opens no window)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the version and how the window draws here, and exit")  # fmt: skip

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from sliders.cli import play  # pygame, to ask the display

        sys.stdout.write(f"sliders {__version__}\n{play.window_line()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:

    parser = _Parser(
        prog="sliders", description="Play, simulate and score Sorry! Sliders.", allow_abbrev=False
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, run) in COMMANDS.items():
        p = sub.add_parser(name, help=module.HELP, description=module.__doc__, allow_abbrev=False)
        module.add_arguments(p)
        if p._negative_number_matcher.pattern == _ARGPARSE_NEGATIVE:  # not widened by the command
            p._negative_number_matcher = _NEGATIVE
        p.set_defaults(_run=run)
    return parser


class Interrupted(KeyboardInterrupt):
    """A stop signal received while a command runs: ``signum`` says which (SIGINT, SIGTERM or
    SIGHUP). A KeyboardInterrupt, so whatever stops on Ctrl-C stops on it alike."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_stops: list[int] = []
"""the stop signals that interrupted the command :func:`main` runs, in the order they came"""


def stopped_by() -> int | None:
    """The stop signal that interrupted the command :func:`main` runs (the first, if several came),
    or None. Noted before the interrupt is raised, so a command knows it was stopped even where
    some library swallowed the interrupt."""
    return _stops[0] if _stops else None


def _raise_interrupted(signum: int, frame: object) -> None:
    _stops.append(signum)
    raise Interrupted(signum)


def _redeliver(unraisable: Any) -> None:
    """An interrupt raised where Python cannot pass it on (a finaliser, a weak reference's
    callback, as the import system runs) would be printed with a traceback and dropped: it is
    sent again instead, from another thread, to land in the code that runs next (sent from here,
    its handler would run in this very hook).

    Once an interrupt has landed, whatever else a finaliser raises is dropped unsaid: it is an
    object the interrupt left half-built failing to finalise (one of numba's compiler, say, whose
    ``__init__`` never ran: Ctrl-C surfaces in the Python code that wraps what a native library
    returned), not news to the user, who asked for the stop."""
    exc = unraisable.exc_value
    if isinstance(exc, KeyboardInterrupt):
        signum = exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)
        _thread.start_new_thread(os.kill, (os.getpid(), signum))
        return
    if _stops:
        return
    sys.__unraisablehook__(unraisable)


@contextmanager
def _unraisables_redelivered() -> Iterator[None]:
    """Unraisable exceptions go to :func:`_redeliver` until the block ends."""
    hook, sys.unraisablehook = sys.unraisablehook, _redeliver
    try:
        yield
    finally:
        sys.unraisablehook = hook


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _stops.clear()
    with _unraisables_redelivered():  # until the end: an interrupt's leftovers finalise late
        try:
            with stop_signals(_raise_interrupted):
                code = _main(argv)
        except KeyboardInterrupt as exc:  # before or after the command's own handling
            code = _interrupted(exc, argv)
        except Exception:
            if not _stops:
                raise
            # what the interrupt left half-done failing after it, where a library swallowed the
            # interrupt (a module half-imported when it landed: numba's types then lack an
            # attribute): the stop is the news, not what it broke
            code = _interrupted(Interrupted(_stops[0]), argv)
        if _stops and _THE_COMMAND:
            with stop_signals(signal.SIG_IGN):
                _leave(code)
        return code


def _interrupted(exc: KeyboardInterrupt, argv: list[str]) -> int:
    """Report a stop signal in one line; its status is the one a shell gives a process that
    signal stopped. Further signals while this is said are ignored."""
    signum = exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)
    if not _stops:
        _stops.append(signum)
    with stop_signals(signal.SIG_IGN):
        name = next((w for w in argv if w in COMMANDS), None)
        why = "" if signum == signal.SIGINT else f" ({signal.Signals(signum).name})"
        print(f"sliders{' ' + name if name else ''}: interrupted{why}", file=sys.stderr)
    return 128 + signum


def _leave(code: int) -> NoReturn:
    """End the ``sliders`` process at once with status ``code``, once what it printed is out.

    Used once an interrupt has landed and been reported: the interpreter's own ending would run
    the finalisers of the objects the interrupt left half-built (a native library's,
    mid-construction: a traceback printed after the one line, or worse) and the exit functions
    of libraries it stopped half-way. Nothing is lost: every file a command writes is whole by
    then (written beside and renamed, or appended and flushed line by line, all closed as the
    interrupt went through), and the worker processes end with this one."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone, a stream closed: nothing more to say
            pass
    os._exit(code)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        _refuse_unknown_flags(parser, argv)
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
        check_files(command, args)  # before any work: an output it could not write, or an input
        code = int(args._run(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # the reader went away (`sliders layouts --json | head`)
        _discard_stdout()
        return 128 + 13  # as if killed by SIGPIPE, like other command-line tools
    except UserError as exc:  # the input's (2), or the machine's: a full disk (1)
        print(f"sliders {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 1 if isinstance(exc, MachineFault) else 2
    except OSError as exc:  # a file the operating system refused (a name too long, a full disk)
        where = f"{exc.filename}: " if exc.filename else ""
        reason = exc.strerror or type(exc).__name__
        print(f"sliders {args.command}: error: {one_line(where + reason)}", file=sys.stderr)
        return 1 if exc.errno in MACHINE_ERRNOS else 2


def one_line(message: str) -> str:
    """``message`` on one line: a line break in it (from a file name, say) is shown as ``\\n``."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _refuse_unknown_flags(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """An unknown flag is the error, named with the flag it most looks like, before argparse would
    say that a required flag is missing (``shot --spee 0.6`` lacks ``--speed`` only because of
    the typo). ``--help`` anywhere wins, as with argparse; after ``--`` everything is a value."""
    commands = _subparsers(parser)
    current = parser
    words = argv[: argv.index("--")] if "--" in argv else argv
    if "-h" in words or "--help" in words:
        return
    for word in words:
        if current is parser and word in commands:
            current = commands[word]
            continue
        if len(word) < 2 or not word.startswith("-"):
            continue
        if current._negative_number_matcher.match(word):  # -0.5 or -6:6:13 is a value
            continue
        flag = word.split("=", 1)[0] if word.startswith("--") else word
        known = [o for o in current._option_string_actions if o.startswith("--")]
        if flag in current._option_string_actions:
            continue
        hint = _closest(flag, known)
        current.error(
            f"unrecognized arguments: {flag}" + (f" (did you mean {hint}?)" if hint else "")
        )


def _closest(flag: str, known: list[str]) -> str | None:
    """The known flag ``flag`` most looks like: the one it abbreviates, or the nearest spelling."""
    started = [o for o in known if o.startswith(flag) and flag.startswith("--")]
    if len(started) == 1:
        return started[0]
    close = difflib.get_close_matches(flag, known, n=1, cutoff=0.6)
    return close[0] if close else None


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

"""``sliders score`` run: the scorekeeper's read–apply–show loop and a saved game's summary (its
flags and help: :mod:`sliders.cli.flags.score`)."""

from __future__ import annotations

import argparse
import os
import select
import shlex
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from sliders.core.checks import ascii_whole
from sliders.core.errors import UserError
from sliders.core.fileio import lock
from sliders.core.outcome import parse_seats
from sliders.core.signals import STOP_SIGNALS
from sliders.rules.engine import default_assignment
from sliders.rules.gamelog import Game, ScoreStep
from sliders.rules.happenings import Happening
from sliders.rules.notation import (
    HELP,
    format_assignment,
    format_boards,
    parse_assignment,
    parse_shot,
)
from sliders.rules.scoring import Assignment, legal_assignments
from sliders.rules.state import (
    HOME,
    START,
    GameState,
    Phase,
    RulesError,
    colour,
    parse_house,
    parse_seat,
    pawn_label,
    square_name,
)


def run(args: argparse.Namespace) -> int:
    if args.replay:
        given = [
            f
            for f, v in (
                ("--face", args.face),
                ("--players", args.players),
                ("--starter", args.starter),
                ("--boards", args.boards),
                ("--round", args.round is not None),
                ("--house-rule", args.house_rule),
                ("--log", args.log),
            )
            if v
        ]
        if given:
            raise UserError(f"--replay prints a saved game: leave out {' and '.join(given)}")
        print(summary(Game.load(args.replay)))
        return 0
    held = lock(args.log, "game log") if args.log else None
    try:
        game = _open(args)
        if game.steps:
            print(f"resumed {args.log} after {len(game.steps)} steps")
        keeper = Scorekeeper(game, log=args.log, batch=args.batch)
        try:
            return keeper.run(sys.stdin)
        except KeyboardInterrupt:
            keeper.interrupted()
            return 130
    finally:
        if held is not None:
            held.release()


MAX_LINE = 1000
"""the longest line the scorekeeper reads (a line of every pawn on the table is about 80)"""


class Scorekeeper:
    """The read–apply–show loop; one instance per session."""

    def __init__(
        self,
        game: Game,
        log: str | None = None,
        batch: bool = False,
        out: TextIO | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.game = game
        self.log = log
        self.batch = batch
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.chosen: dict[str, Assignment] = {}  # round-end moves typed so far

    def run(self, lines: TextIO) -> int:
        _replace_undecodable(lines)
        self.save()
        self.show()
        typed = self._typed(lines)
        number = 0
        while True:
            if not self.batch and not typed:
                self.say(self.prompt(), end="")
                self.out.flush()
            try:
                line = self._read_typed() if typed else lines.readline(MAX_LINE + 1)
            except (OSError, ValueError) as exc:  # the terminal went away, say
                print(f"error: cannot read the input ({exc}); stopping", file=self.err)
                line = ""
            too_long = len(line) > MAX_LINE
            if too_long and not typed:
                _skip_rest_of_line(lines, line)
                line = line[:40] + "…\n"
            if line and not self.batch and not _is_tty(lines):
                self.say(line.rstrip("\n"))  # a piped session reads like a typed one
            if not line:
                if not self.batch:
                    self.say("")
                self.stop()
                return 0
            number += 1
            try:
                if too_long:
                    raise UserError(f"a line of more than {MAX_LINE} characters")
                if not self.handle(line.strip()):
                    self.stop()
                    return 0
            except UserError as exc:
                if self.batch:
                    self.save()
                    raise UserError(f"line {number}: {exc}") from None
                print(f"error: {exc}", file=self.err, flush=True)
            except Exception as exc:  # a fault of ours: one line, and the game goes on
                why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
                self._keep()
                if self.batch:
                    raise UserError(f"line {number}: could not be handled ({why})") from None
                print(
                    f"error: that line could not be handled ({why}); the game is saved as it stands",
                    file=self.err,
                    flush=True,
                )

    def _typed(self, lines: TextIO) -> bool:
        """Whether the lines are typed at a terminal, to be read with line editing and history
        (the arrow keys, Ctrl-R: the standard library's ``readline``, where the system has it)."""
        if self.batch or lines is not sys.stdin or self.out is not sys.stdout:
            return False
        if not (_is_tty(lines) and _is_tty(self.out)):
            return False
        try:
            import readline  # noqa: F401  (loading it gives input() line editing and history)
        except ImportError:
            return False
        return True

    def _read_typed(self) -> str:
        """One line typed at the terminal, with its newline ("" at the end of input)."""
        try:
            with _stop_signals_wake_the_wait():
                return input(self.prompt()) + "\n"
        except EOFError:
            return ""

    def interrupted(self) -> None:
        """After Ctrl-C: save the game and say how to go on with it."""
        self.chosen = {}
        try:
            self.save()
        except UserError as exc:
            print(f"\nerror: {exc}", file=self.err, flush=True)
            return
        if self.log:
            again = f"sliders score --log {shlex.quote(self.log)}"
            how = f"the game is saved in {self.log}; resume it with: {again}"
        else:
            how = "the game was not saved (start one with --log FILE to be able to resume it)"
        print(f"\nsliders score: interrupted; {how}", file=self.err, flush=True)

    def handle(self, line: str) -> bool:
        """Apply one line; False to stop."""
        if not line or line.startswith("#"):
            return True
        words = line.split()
        command = words[0].lower()
        if command in ("help", "?"):
            self.say(HELP)
        elif command in ("quit", "exit"):
            return False
        elif command in ("board", "show"):
            self.show()
        elif command == "undo":
            self.undo()
        elif command == "moves":
            self.list_moves(words[1:])
        elif self.state.phase is Phase.SHOOTING:
            result, home = parse_shot(self.state, line)
            self.step(self.game.shoot(result, home))
        elif self.state.phase is Phase.SCORING:
            if command == "ok" and len(words) == 1:
                self.step(self.game.score(self.chosen))
            else:
                seat = parse_seat(words[0])
                if len(words) == 1 or words[1].lower() == "default":
                    self.chosen.pop(seat, None)
                else:
                    self.chosen[seat] = parse_assignment(self.state, seat, words[1:])
                self.show_plan()
        else:
            raise RulesError("the game is over ('undo' takes back the last step, 'quit' stops)")
        return True

    @property
    def state(self) -> GameState:
        return self.game.state

    def step(self, happened: list[Happening]) -> None:
        self.chosen = {}
        self.save()
        for h in happened:
            self.say(f"  {h.describe()}")
        self.show()

    def undo(self) -> None:
        step = self.game.undo()
        if step is None:
            raise RulesError("nothing to undo")
        self.chosen = {}
        self.save()
        if isinstance(step, ScoreStep):
            self.say("  took back the round's scoring")
        else:
            self.say(f"  took back {pawn_label(step.result.shooter)}'s shot")
        self.show()

    def list_moves(self, words: list[str]) -> None:
        if self.state.phase is not Phase.SCORING:
            raise RulesError("moves are chosen at the end of a round")
        seats = [parse_seat(w) for w in words] or list(self.state.turn_order())
        for seat in seats:
            options = legal_assignments(self.state, seat)
            shown = "; ".join(format_assignment(self.state, seat, a) for a in options)
            self.say(f"  {colour(seat)}: {shown}")

    def show(self) -> None:
        s = self.state
        self.say(f"-- {s.face}, round {s.round}, {colour(s.starter)} started --")
        self.say(format_boards(s))
        if s.phase is Phase.SHOOTING and s.turn:
            left = len(s.player(s.turn).in_hand)
            self.say(f"{colour(s.turn)} to slide ({left} in hand)")
        elif s.phase is Phase.SCORING:
            self.show_plan()
        elif s.winner:
            if s.solo:
                self.say(f"all four pawns HOME in {s.rounds_played} rounds")
            else:
                self.say(f"{colour(s.winner)} wins in round {s.round}")

    def show_plan(self) -> None:
        self.say(f"round {self.state.round} scoring:")
        for seat in self.state.turn_order():
            moves = self.chosen.get(seat)
            mark = "chosen" if moves is not None else "suggested"
            if moves is None:
                moves = default_assignment(self.state, seat)
            self.say(f"  {colour(seat):<7}{format_assignment(self.state, seat, moves)}   [{mark}]")
        self.say("type 'ok' to score these, or e.g. 'red 3@0 1@5' (POINTS@SQUARE) to choose")

    def prompt(self) -> str:
        s = self.state
        if s.phase is Phase.SHOOTING and s.turn:
            return f"{colour(s.turn)}> "
        return "score> " if s.phase is Phase.SCORING else "> "

    def save(self) -> None:
        if self.log:
            self.game.save(self.log)

    def _keep(self) -> None:
        """After a fault: forget half-typed choices and save the game as it stands."""
        self.chosen = {}
        try:
            self.save()
        except UserError as exc:
            print(f"error: {exc}", file=self.err, flush=True)

    def stop(self) -> None:
        self.save()
        if self.log:
            self.say(f"saved to {self.log}")

    def say(self, text: str, end: str = "\n") -> None:
        print(text, end=end, file=self.out)


def summary(game: Game) -> str:
    """A saved game as a table of score boards after each round, and how it stands."""
    s = game.state
    names = [colour(seat) for seat in s.seats]
    lines = [f"{s.face}: {', '.join(names)}; {len(game.steps)} steps"]
    if game.house:
        lines.append(f"house rules: {', '.join(game.house)}")
    lines.append("round  " + "".join(f"{n:<24}" for n in names))
    if game.resumed:  # the score boards it resumed from, as at the end of the round before
        row = "".join(
            f"{' '.join(square_name(sq) for sq in sorted(game.boards[seat])):<24}"
            for seat in s.seats
        )
        lines.append(f"{game.round - 1:<7}{row}")
    for step, after in zip(game.steps, game.states[1:], strict=True):
        if isinstance(step, ScoreStep) or after.winner:
            row = "".join(
                f"{' '.join(square_name(sq) for sq in sorted(after.player(seat).board)):<24}"
                for seat in s.seats
            )
            done = after.round if after.winner else after.round - 1
            lines.append(f"{done:<7}{row}")
    if s.winner:
        if s.solo:
            lines.append(f"all four pawns HOME in {s.rounds_played} rounds")
        else:
            lines.append(f"{colour(s.winner)} won in round {s.round}")
    elif s.phase is Phase.SCORING:
        lines.append(f"round {s.round} is waiting to be scored")
    else:
        lines.append(f"round {s.round}: {colour(s.turn or s.starter)} to slide")
    return "\n".join(lines)


def _open(args: argparse.Namespace) -> Game:
    boards = parse_boards(args.boards) if args.boards else None
    if args.log and os.path.lexists(args.log):
        game = Game.load(args.log)
        if args.face and args.face != game.face:
            raise UserError(f"{args.log} holds a game of {game.face}, not {args.face}")
        if args.players and _seats(args.players) != game.seats:
            players = ",".join(colour(s) for s in game.seats)
            raise UserError(f"{args.log} is a game of {players}, not {args.players}")
        if args.starter and parse_seat(args.starter) != game.starter:
            raise UserError(
                f"{args.log} is a game {colour(game.starter)} started, not {args.starter}"
            )
        if boards and any(game.boards.get(s) != b for s, b in boards.items()):
            raise UserError(f"{args.log} began from other score boards than --boards says")
        if args.round is not None and args.round != game.round:
            raise UserError(f"{args.log} began at round {game.round}, not {args.round}")
        if args.house_rule and parse_house(args.house_rule) != game.house:
            rules = ", ".join(game.house) or "no house rule"
            raise UserError(f"{args.log} is a game played with {rules}, not as --house-rule says")
        return game
    seats = _seats(args.players) if args.players else tuple(boards or ())
    if not args.face or not seats:
        raise UserError(
            "say --face and --players (or --boards) to start a game (or --log FILE to resume one)"
        )
    return Game(
        args.face,
        seats,
        args.starter,
        boards=boards,
        round=1 if args.round is None else args.round,
        house=args.house_rule or (),
    )


def parse_boards(items: list[str]) -> dict[str, tuple[int, ...]]:
    """``--boards`` words, ``PLAYER=SQUARES`` each (``red=0,0,2,6``; a square is 0 to 6, or
    START or HOME), as score boards by seat; :func:`sliders.rules.new_game` checks them."""
    boards: dict[str, tuple[int, ...]] = {}
    words = {"start": START, "s": START, "home": HOME, "h": HOME}
    for item in items:
        name, eq, text = item.partition("=")
        if not eq:
            raise UserError(f"--boards {item!r}: write PLAYER=SQUARES, e.g. red=0,0,2,6")
        seat = parse_seat(name)
        if seat in boards:
            raise UserError(f"--boards: {colour(seat)}'s score board is given twice")
        squares: list[int] = []
        for word in text.split(","):
            w = word.strip().lower()
            if w in words:
                squares.append(words[w])
            elif (n := ascii_whole(w)) is not None and START <= n <= HOME:
                squares.append(n)
            else:
                raise UserError(
                    f"--boards {item!r}: a square is {START} (START) to {HOME} (HOME), not {word!r}"
                )
        boards[seat] = tuple(squares)
    return boards


def _seats(players: str) -> tuple[str, ...]:
    names = [p for p in players.replace(" ", "").split(",") if p]
    if not 1 <= len(names) <= 4:
        raise UserError(f"--players wants 1 to 4 players, got {players!r}")
    return parse_seats(names, "player")


def _replace_undecodable(stream: TextIO) -> None:
    """Bytes that are not text in the input's encoding become U+FFFD, a mistyped line like any
    other, not a fault."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (OSError, ValueError):
            pass


def _skip_rest_of_line(stream: TextIO, start: str) -> None:
    chunk = start
    while chunk and not chunk.endswith("\n"):
        try:
            chunk = stream.readline(MAX_LINE)
        except (OSError, ValueError):
            return


WAKE_EVERY = 0.05
"""s: how long a stop signal may go unanswered while a line is typed before its wait is woken"""
WAKE_FOR = 5.0
"""s: how long the wait is woken for a stop signal whose handler does not end it"""


@contextmanager
def _stop_signals_wake_the_wait() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP answered at any moment while ``input()`` reads a line with
    readline (in the main thread).

    readline waits for a key in ``select()``, and a signal's Python handler runs when a signal
    interrupts that wait. A signal that lands just before it (as the prompt is shown, or while a
    key is handled) is only noted, and ``select()`` then waits on: Ctrl-C would go unanswered
    until Enter (CPython issue 112585). So while the line is read, a thread hears every signal
    the process receives (through the signals' wakeup file descriptor) and, when a stop signal
    is not answered within :data:`WAKE_EVERY`, interrupts the wait with SIGWINCH (to which
    readline listens: the terminal may have changed size), once each :data:`WAKE_EVERY`, until
    the read ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stops = {int(getattr(signal, name)) for name in STOP_SIGNALS}
    heard, wakeup = os.pipe()
    os.set_blocking(wakeup, False)
    try:
        previous = signal.set_wakeup_fd(wakeup, warn_on_full_buffer=False)
    except ValueError:
        os.close(heard)
        os.close(wakeup)
        yield
        return
    main = threading.main_thread().ident or 0

    def watch() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, stops | {signal.SIGWINCH})  # the main thread's
        waking = 0  # how many more times to wake the wait
        while True:
            if not select.select([heard], [], [], WAKE_EVERY if waking else None)[0]:
                signal.pthread_kill(main, signal.SIGWINCH)  # a stop signal went unanswered
                waking -= 1
                continue
            got = os.read(heard, 64)
            if 0 in got:  # the read is over
                return
            if stops.intersection(got):
                waking = round(WAKE_FOR / WAKE_EVERY)

    watcher = threading.Thread(target=watch, name="sliders-wake-the-prompt", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        os.write(wakeup, b"\0")
        watcher.join()
        os.close(heard)
        os.close(wakeup)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

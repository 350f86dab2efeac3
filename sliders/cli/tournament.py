"""``sliders tournament`` run: checks the settings, plays the games and reports (its flags and
help: :mod:`sliders.cli.flags.tournament`)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sliders.cli import stopped_by
from sliders.cli.outputs import check_outputs, check_pictures
from sliders.cli.params import physics_params
from sliders.cli.prepare import prepare_engine
from sliders.core.errors import UserError
from sliders.core.fileio import is_special
from sliders.core.outcome import FACES, parse_seats
from sliders.core.signals import stop_signals
from sliders.files.layouts import read_layout
from sliders.game import HeadlessGame
from sliders.game.config import split_items
from sliders.net.lounge import ROOM, Lounge
from sliders.physics import PhysicsParams, Shot, check_engine, simulate
from sliders.pictures.tournament import write_png
from sliders.rules import parse_house
from sliders.tournament.players import check_name, net_names
from sliders.tournament.report import text_table
from sliders.tournament.run import Settings, WorkerLost, read_results
from sliders.tournament.run import run as play

if TYPE_CHECKING:
    from sliders.tournament.run import Settings


def settings_from_args(args: argparse.Namespace) -> tuple[Settings, int, str | None]:

    names = [n for n in split_items(args.players) if n]
    if len(names) < 2:
        raise UserError("--players: name at least two players")
    if len(set(names)) != len(names):
        raise UserError("--players: a player is named twice")
    for n in names:
        check_name(n)
    if args.games < 1:
        raise UserError(f"--games must be at least 1, not {args.games}")
    if args.seed < 0:
        raise UserError(f"--seed must be a whole number >= 0, not {args.seed}")
    if args.max_rounds < 1:
        raise UserError(f"--max-rounds must be at least 1, not {args.max_rounds}")
    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, not {args.jobs}")
    spec = read_layout(args.layout)
    face = args.face or spec.face
    if face not in FACES:
        raise UserError(f"unknown face {face!r} (choose from {', '.join(FACES)})")
    seats = parse_seats(args.seats) if args.seats else spec.seating(2)
    if len(seats) != 2:
        raise UserError(f"--seats: a tournament game has two seats, not {len(seats)}")
    spec.build(seats)  # the layout must seat them
    settings = Settings(
        tuple(names),
        args.games,
        face,
        args.layout,
        (seats[0], seats[1]),
        args.seed,
        args.max_rounds,
        check_engine(args.engine),
        _changed(physics_params(args)),
        parse_house(args.house_rule or ()),
    )
    settings.check()
    check_pictures({"--png": args.png})
    png = args.png
    if png is None and not is_special(args.results):  # no picture named after /dev/null
        png = os.path.splitext(args.results)[0] + ".png"
        if png == args.results:
            raise UserError(
                f"--results {args.results}: the picture would be named so too; name the results "
                ".jsonl or give --png another name"
            )
    layout = args.layout if os.path.isfile(args.layout) else None
    check_outputs({"--results": args.results, "--png": png}, {"--layout": layout})
    return settings, jobs, png


def run(args: argparse.Namespace) -> int:

    settings, jobs, png = settings_from_args(args)
    read_results(args.results, settings)  # another tournament's file fails before any game
    prepare_engine(settings.engine)
    _probe_engine(settings)
    lounge = _open_lounge(args, settings.players)
    if lounge is not None:
        jobs = 1  # the bots' connections live in this process
    try:
        return _play(args, settings, jobs, png)
    finally:
        if lounge is not None:
            lost = {f"net:{n}": s.lost for n, s in lounge.seats.items()}
            lounge.close()
            print(f"shots lost by network players (clock or bad message): {lost}")


def _open_lounge(args: argparse.Namespace, players: Sequence[str]) -> Lounge | None:
    """The server of the ``net:NAME`` players, once each has joined (None: there are none)."""
    names = net_names(players)
    if not names:
        return None
    if not 0 < args.clock <= 3600:
        raise UserError(f"--clock {args.clock:g}: from 0 to 3600 seconds")
    lounge = Lounge(names, args.clock)
    lounge.open("127.0.0.1", args.port)
    for name, seat in lounge.seats.items():
        print(
            f"net:{name}: join 127.0.0.1:{lounge.port} --room {ROOM} --code {seat.code}",
            flush=True,
        )
    missing = lounge.wait(args.wait)
    if missing:
        lounge.close()
        raise UserError(
            f"{', '.join('net:' + n for n in missing)} did not join within {args.wait:g} s"
        )
    return lounge


def _play(args: argparse.Namespace, settings: Settings, jobs: int, png: str | None) -> int:
    total = settings.total

    def progress(done: int, planned: int) -> None:
        if not args.quiet:
            print(f"\rgames {done}/{planned}", end="", file=sys.stderr, flush=True)

    games: list[dict[str, Any]] = []
    interrupted = lost = False
    try:
        games = play(settings, args.results, jobs, progress)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM / SIGHUP as sliders.cli.main raises them
        interrupted = True
    except WorkerLost:
        lost = True
    # noted as it came: a stop is told even if some library swallowed its interrupt
    stopped = stopped_by() or (int(signal.SIGINT) if interrupted else None)
    # a further signal while the report is written is ignored
    with stop_signals(signal.SIG_IGN) if stopped else contextlib.nullcontext():
        if stopped or lost:
            games = read_results(args.results, settings)
        if not args.quiet:
            print(file=sys.stderr)
        players = list(settings.players)
        print(text_table(players, games, total), end="")
        title = (
            f"{settings.face} on {settings.layout} ({', '.join(settings.seats)}), "
            f"{len(games)} games, seed {settings.seed}"
        )
        if games and png:
            write_png(png, players, games, title)
            print(f"picture: {png}")
        print(f"results: {args.results}")
        if stopped or lost:
            why = (
                f"interrupted ({signal.Signals(stopped).name})" if stopped else "a worker was lost"
            )
            print(
                f"sliders tournament: {why}: kept the {len(games)} games played of {total} in "
                f"{args.results}; run the same command to resume",
                file=sys.stderr,
            )
            return 128 + stopped if stopped else 1
    return 0


def _changed(params: PhysicsParams) -> tuple[tuple[str, float], ...]:
    """The parameters that differ from the defaults, by name."""
    default = PhysicsParams.default().to_json()
    return tuple((k, v) for k, v in sorted(params.to_json().items()) if v != default[k])


def _probe_engine(settings: Settings) -> None:
    """One shot on an empty table in the tournament's engine: an engine this sliders cannot run
    fails here, before anything is written."""

    g = HeadlessGame(
        settings.face, settings.layout, settings.seats, 0, engine=settings.engine,
        params=settings.physics(),
    )  # fmt: skip
    simulate(g.turns.setup, (), Shot(settings.seats[0], 0.5, seed=0))

"""Play a tournament between computer players, bots and your own functions, headless and in
parallel, and report win rates (with 95 % Wilson intervals), Elo-style ratings, points per shot
and seconds per decision, as a table and a PNG.

Players: cpu:easy, cpu:medium, cpu:hard (the computer strengths; cpu:easy:HAND with another
hand) or cpu:hand=H,mind=M (a hand and a mind, as --seats takes them), centre[:HAND] (a bot
sliding straight at the centre; noiseless unless a hand is named: a noise level or a multiple of
the medium one), greedy[:HAND] (the shot
that leaves its pawns worth the most points now), or MODULE:FUNCTION (your own; see
docs/players.md). Every pairing plays --games two-seat games, the players swapping seats (and
the first slide) each game. Each finished game is appended to the results file: run the same
command again to resume an interrupted tournament, or with more --games to extend it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from sliders.boards import read_layout
from sliders.cli.args import add_engine_argument, seed
from sliders.errors import UserError
from sliders.game import HeadlessGame
from sliders.game.config import split_items
from sliders.outcome import FACES, parse_seats
from sliders.physics import Shot, check_engine, simulate
from sliders.tournament.players import check_name
from sliders.tournament.report import text_table, write_png
from sliders.tournament.run import Settings, read_results
from sliders.tournament.run import run as play

if TYPE_CHECKING:
    from sliders.tournament.run import Settings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        required=True,
        metavar="LIST",
        help="comma-separated players, e.g. cpu:easy,cpu:hard,cpu:hand=low,mind=classic,"
        "centre,greedy,mybot:play",
    )
    p.add_argument("--games", type=int, default=10, help="games per pairing (default: 10)")
    p.add_argument(
        "--layout", default="square", help="built-in layout or layout file (default: square)"
    )
    p.add_argument("--face", help="the game (default: the layout's)")
    p.add_argument("--seats", help="the two seats played, e.g. south,north (default: the layout's)")
    p.add_argument("--seed", type=seed, default=1, help="tournament seed (default: 1)")
    p.add_argument("--jobs", type=int, help="worker processes (default: one a core)")
    p.add_argument(
        "--max-rounds",
        type=int,
        default=40,
        help="a game not won after this many rounds is a draw (default: 40)",
    )
    p.add_argument(
        "--results",
        default="tournament.jsonl",
        metavar="FILE",
        help="results file, one game a line (default: tournament.jsonl)",
    )
    p.add_argument(
        "--png",
        metavar="FILE",
        help="picture of the results (default: the results file's name .png)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")

    add_engine_argument(p)


def settings_from_args(args: argparse.Namespace) -> tuple[Settings, int, str]:

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
    )
    png = args.png or os.path.splitext(args.results)[0] + ".png"
    return settings, jobs, png


def run(args: argparse.Namespace) -> int:

    settings, jobs, png = settings_from_args(args)
    read_results(args.results, settings)  # another tournament's file fails before any game
    _probe_engine(settings)
    total = len(settings.schedule())

    def progress(done: int, planned: int) -> None:
        if not args.quiet:
            print(f"\rgames {done}/{planned}", end="", file=sys.stderr, flush=True)

    interrupted = False
    try:
        games = play(settings, args.results, jobs, progress)
    except KeyboardInterrupt:
        interrupted = True
        games = read_results(args.results, settings)
    if not args.quiet:
        print(file=sys.stderr)
    players = list(settings.players)
    print(text_table(players, games, total), end="")
    title = (
        f"{settings.face} on {settings.layout} ({', '.join(settings.seats)}), "
        f"{len(games)} games, seed {settings.seed}"
    )
    if games:
        write_png(png, players, games, title)
        print(f"picture: {png}")
    print(f"results: {args.results}")
    if interrupted:
        print("sliders tournament: interrupted; run the same command to resume", file=sys.stderr)
        return 130
    return 0


def _probe_engine(settings: Settings) -> None:
    """One shot on an empty table in the tournament's engine: an engine this sliders cannot run
    fails here, before anything is written."""

    g = HeadlessGame(settings.face, settings.layout, settings.seats, 0, engine=settings.engine)
    simulate(g.layout, g.face, (), Shot(settings.seats[0], 0.5), g.params, 0, settings.engine)

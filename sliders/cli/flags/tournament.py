"""Play a tournament between computer players, bots and your own functions, headless and in
parallel, and report win rates (with 95 % Wilson intervals), Elo-style ratings, points per shot
and seconds per decision, as a table and a PNG.

Players: cpu:easy, cpu:medium, cpu:hard (the computer strengths; cpu:easy:HAND with another
hand) or cpu:hand=H,mind=M (a hand and a mind, as --seats takes them), centre[:HAND] (a bot
sliding straight at the centre; noiseless unless a hand is named: a noise level or a multiple of
the medium one), greedy[:HAND] (the shot
that leaves its pawns worth the most points now), race[:HAND] (the rules-aware greedy: the shot
that leaves the best race lead if the round were scored now), the yardsticks of a style
aggressive[:HAND] (the other seat's penalties first: knocks pawns onto the SORRY! corners),
defensive[:HAND] (its own penalties and pawns open to a corner knock avoided) and mixed[:HAND]
(both), net:NAME (a bot joining over the
network, in any language: the tournament prints its join code and waits for it; see
docs/protocol.md) or MODULE:FUNCTION (your own; see docs/players.md). Every pairing plays --games two-seat games, the players swapping seats (and
the first slide) each game. Each finished game is appended to the results file: run the same
command again to resume an interrupted tournament. A results file holds one tournament: other
players, --games or settings need another --results file.
"""

from __future__ import annotations

import argparse

from sliders.cli.args import (
    add_engine_argument,
    add_house_rule,
    add_param_argument,
    port,
    reads,
    seconds,
    seed,
    writes,
)

HELP = "play many games between players and report win rates and ratings"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        required=True,
        metavar="LIST",
        help="comma-separated players (every kind is listed above), e.g. cpu:easy,cpu:hard,greedy",
    )
    p.add_argument("--games", type=int, default=10, help="games per pairing (default: 10)")
    reads(
        p.add_argument(
            "--layout", default="square", help="built-in layout or layout file (default: square)"
        )
    )
    p.add_argument("--face", help="the game (default: the layout's)")
    p.add_argument("--seats", help="the two seats played, e.g. south,north (default: the layout's)")
    p.add_argument("--seed", type=seed, default=1, help="tournament seed (default: 1)")
    p.add_argument("--jobs", type=int, help="worker processes (default: one a core)")
    add_house_rule(p, "the results file")
    p.add_argument(
        "--max-rounds",
        type=int,
        default=40,
        help="a game not won after this many rounds is a draw (default: 40)",
    )
    writes(
        p.add_argument(
            "--results",
            default="tournament.jsonl",
            metavar="FILE",
            help="results file, one game a line (default: tournament.jsonl)",
        ),
        "update",
    )
    writes(
        p.add_argument(
            "--png",
            metavar="FILE",
            help="picture of the results (default: the results file's name .png)",
        )
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument(
        "--clock",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a net:NAME player's time for each shot or choice; missed, the shot is lost "
        "(default: 10)",
    )
    p.add_argument(
        "--port",
        type=port,
        default=0,
        help="the port net:NAME players join on (default: a free one)",
    )
    p.add_argument(
        "--wait",
        type=seconds,
        default=300.0,
        metavar="SECONDS",
        help="how long to wait for the net:NAME players to join (default: 300)",
    )

    add_engine_argument(p)
    add_param_argument(p)

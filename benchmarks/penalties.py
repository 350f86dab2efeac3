"""Where the penalties of a game come from: the planner (``cpu:hard``) against a tournament
player, game after game, each penalty charged to the seat that lost the spaces and told by who
slid the shot, whether the pawn that caused it was the slid one or one knocked, where it went
(into a SORRY! corner, off the board by a corner or a track's end, off a side of the board)
and (for the planner's shots) the kind of candidate it played (draw, hit, takeout, guard,
hole). For the planner's pawns the opponent knocked to a penalty it also prints the chance a
shot the planner's exposure had given each one, the table as the opponent found it
(:func:`sliders.ai.exposure.knock_threats`; 0 for a pawn on its own track, which it leaves
out).

    python benchmarks/penalties.py [--opponent aggressive:low] [--games 6] [--first 0]
        [--layout square] [--face race-for-home] [--no-exposure]

``--no-exposure`` plays the planner as it was before its value read the opponents' knocks
(``Mind.exposure`` off). Games are seeded by their number, so a run is the same every time;
``--first N`` starts at game N.
"""

from __future__ import annotations

import argparse
import collections
from dataclasses import replace

import numpy as np

from sliders.ai import ComputerPlayer
from sliders.ai.exposure import knock_threats
from sliders.ai.player import STRENGTHS
from sliders.core.outcome import Status
from sliders.game import HeadlessGame
from sliders.rules import GameState, Penalty
from sliders.tournament.players import make_player


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", default="aggressive:low")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--layout", default="square")
    ap.add_argument("--face", default="race-for-home")
    ap.add_argument("--no-exposure", action="store_true")
    args = ap.parse_args()
    hard = STRENGTHS["hard"]
    if args.no_exposure:
        hard = replace(hard, mind=replace(hard.mind, exposure=False))
    tally: collections.Counter[tuple[str, ...]] = collections.Counter()
    where = {Status.SORRY_CORNER: "a corner", Status.OFF_BOARD: "off by a corner",
             Status.OFF_SIDE: "off a side"}  # fmt: skip
    kinds: collections.Counter[str] = collections.Counter()
    read: list[tuple[float, bool]] = []  # (the exposure's chance a shot, on the board)
    statuses = list(Status)
    rounds, won = [], 0
    seats = ("south", "north")
    for gi in range(args.first, args.first + args.games):
        g = HeadlessGame(args.face, args.layout, seats, 100 + gi, starter="south", max_rounds=40)
        cpu = seats[gi % 2]
        streams = np.random.SeedSequence(1000 + gi).spawn(2)
        players = {
            s: ComputerPlayer(s, hard, np.random.default_rng(r))
            if s == cpu
            else make_player(args.opponent, s, np.random.default_rng(r))
            for s, r in zip(seats, streams, strict=True)
        }
        g.prepare(players)
        planner = players[cpu]
        assert isinstance(planner, ComputerPlayer)
        last = {"kind": "?"}

        def choose(state, layout, face, params=None, _p=planner, _last=last):  # type: ignore[no-untyped-def]
            search = _p.search(state, layout, face, params)
            search.run()
            _last["kind"] = search.best_candidate()[0]
            return search.executed()

        planner.choose_shot = choose  # type: ignore[method-assign]
        while not g.over:
            out = g.step(players)
            if out is None:
                continue
            by = "planner" if out.shot.seat == cpu else "opponent"
            kind = last["kind"] if by == "planner" else "-"
            if by == "planner":
                kinds[kind] += 1
            rest = {q.id: q.status for q in out.result.pawns}
            for h in out.happened:
                if isinstance(h, Penalty) and h.scoring is not None:
                    who = "planner" if h.seat == cpu else "opponent"
                    how = "its slid pawn" if h.cause == out.result.shooter else "a pawn knocked"
                    to = where.get(rest.get(h.cause, Status.FOUL), "elsewhere")
                    tally[(who, by, kind, how, to)] += 1
                    if who == "planner" and by == "opponent" and how == "a pawn knocked":
                        read.append(exposure_read(g, out.state_before, cpu, h.cause, statuses))
        rounds.append(g.state.round)
        won += g.winner == cpu
        print(f"game {gi}: winner {'planner' if g.winner == cpu else g.winner or 'none'}, "
              f"round {g.state.round}", flush=True)  # fmt: skip
    print(f"\n{args.games} games, the planner won {won}, {np.mean(rounds):.1f} rounds a game")
    print(f"{'penalised':10} {'slid by':9} {'its shot':9} {'how':15} {'where':13} {'count':>5}")
    for (who, by, kind, how, to), n in sorted(tally.items(), key=lambda kv: -kv[1]):
        print(f"{who:10} {by:9} {kind:9} {how:15} {to:13} {n:5d}")
    on = sorted(t for t, board in read if board)
    if on:
        print(f"the planner's pawns knocked to a penalty by the opponent: {len(read)}, "
              f"{len(on)} on the board, the exposure's chance a shot for those: median "
              f"{np.median(on):.2f}, most {on[-1]:.2f}, {sum(t == 0 for t in on)} at 0")  # fmt: skip
    total = sum(kinds.values())
    print("the planner's shots: " + ", ".join(f"{k} {n} ({100 * n / total:.0f} %)"
                                              for k, n in kinds.most_common()))  # fmt: skip


def exposure_read(
    g: HeadlessGame, before: GameState, seat: str, pawn: str, statuses: list[Status]
) -> tuple[float, bool]:
    """The chance a shot the exposure gave ``seat``'s ``pawn`` on the table ``before`` a shot,
    and whether the pawn stood on the board (not on a track)."""
    table = before.table
    order = tuple(q.id for q in table)
    status = np.array([[statuses.index(q.status) for q in table]])
    x, y = np.array([[q.x for q in table]]), np.array([[q.y for q in table]])
    threats = knock_threats(before, seat, g.layout, g.face, g.params, order, status, x, y)
    q = table[order.index(pawn)]
    on_board = q.status not in (Status.OWN_TRACK, Status.TIPPING)
    return (0.0 if threats is None else float(threats[0, order.index(pawn)])), on_board


if __name__ == "__main__":
    main()

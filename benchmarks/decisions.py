"""Simulations and seconds per decision of each computer strength: its planner's mind, and the
classic mind with the budget that strength had before the planner.

Both are the one search (:class:`sliders.ai.planner.PlanSearch`) in the exact engine's batch path:
*classic* with each strength's old budget and candidates (10, 40 and 168 simulations a turn),
*planner* with each strength's mind. Both sides of every game are the strength measured (2 seats,
Race for Home on the square, the exact engine), and every decision of the games is timed until
``--decisions`` are counted (``--layout`` and ``--face``: another table and game).

    python benchmarks/decisions.py [--decisions 40] [--seed 1] [--only planner]
    python benchmarks/decisions.py --minds strong,deep --processor   # hand low, each mind
    python benchmarks/decisions.py --minds strong --processor --layout triple-track

Figures are wall-clock seconds on this machine, in this run (``--processor``: the processor time
of this process, which other work on a shared machine does not inflate); the ratio column divides each
strength's simulations per decision by its classic mind's.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from sliders.ai import STRENGTHS, ComputerPlayer, Strength, classic, make_strength
from sliders.core.errors import UserError
from sliders.game import HeadlessGame
from sliders.rules import Phase


def measure(
    level: Strength,
    decisions: int,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
    layout: str = "square",
    face: str = "race-for-home",
) -> tuple[float, float, float]:
    """(simulations a decision, mean seconds, max seconds) over ``decisions`` decisions."""
    sims: list[int] = []
    secs: list[float] = []
    game_seed = seed
    while len(sims) < decisions:
        g = HeadlessGame(face, layout, ("south", "north"), game_seed, engine="exact")
        rng = np.random.default_rng(game_seed)
        players = {s: ComputerPlayer(s, level, rng.spawn(1)[0]) for s in g.seats}
        for p in players.values():  # the hand's odds, measured once a process, before the clock
            p.prepare(g.layout, g.face, g.params)
        while not g.over and len(sims) < decisions and g.state.round <= 15:
            state = g.state
            if state.phase is Phase.SCORING:
                g.score({s: p.choose_assignment(state) for s, p in players.items()})
                continue
            seat = state.turn
            assert seat is not None
            t0 = clock()
            search = players[seat].search(state, g.layout, g.face, g.params)
            search.run()
            shot = search.executed()
            secs.append(clock() - t0)
            sims.append(search.simulations)
            g.shoot(shot)
        game_seed += 1
    return float(np.mean(sims)), float(np.mean(secs)), float(np.max(secs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("classic", "planner"), help="measure one side only")
    ap.add_argument("--minds", help="comma-separated minds, each with hand low (e.g. strong,deep)")
    ap.add_argument("--processor", action="store_true", help="processor time, not wall clock")
    ap.add_argument("--layout", default="square", help="the games' layout (default: square)")
    ap.add_argument("--face", default="race-for-home", help="the game (default: race-for-home)")
    args = ap.parse_args()
    if args.seed < 0 or args.decisions < 1:
        ap.exit(2, f"{ap.prog}: error: --seed must be 0 or more and --decisions 1 or more\n")
    try:  # an unknown layout, face or mind: one line and status 2, before any work
        HeadlessGame(args.face, args.layout, ("south", "north"), args.seed, engine="exact")
        for mind in args.minds.split(",") if args.minds else ():
            make_strength("low", mind)
    except UserError as exc:
        ap.exit(2, f"{ap.prog}: error: {exc}\n")
    clock = time.process_time if args.processor else time.perf_counter
    where = (args.layout, args.face)
    if args.minds:
        print(
            f"{args.decisions} decisions a mind, hand low, both seats, {args.face}, {args.layout}"
        )
        print(f"{'mind':10} {'sims/decision':>14} {'mean s':>8} {'max s':>8}")
        for mind in args.minds.split(","):
            level = make_strength("low", mind)
            sims, mean, most = measure(level, args.decisions, args.seed, clock, *where)
            print(f"{mind:10} {sims:14.0f} {mean:8.3f} {most:8.3f}")
        return
    rows = []
    for name in STRENGTHS:
        before = after = None
        if args.only != "planner":
            before = measure(classic(name), args.decisions, args.seed, clock, *where)
        if args.only != "classic":
            after = measure(STRENGTHS[name], args.decisions, args.seed, clock, *where)
        rows.append((name, before, after))
    print(
        f"{args.decisions} decisions a strength, both seats that strength, {args.face}, "
        f"{args.layout}"
    )
    print(f"{'strength':10} {'':7} {'sims/decision':>14} {'mean s':>8} {'max s':>8} {'× sims':>8}")
    for name, before, after in rows:
        for label, got in (("classic", before), ("planner", after)):
            if got is None:
                continue
            ratio = got[0] / before[0] if before else float("nan")
            print(f"{name:10} {label:7} {got[0]:14.0f} {got[1]:8.3f} {got[2]:8.3f} {ratio:8.1f}")


if __name__ == "__main__":
    main()

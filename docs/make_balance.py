"""Play the balance report's games and write ``docs/balance.md`` with its figures.

    python docs/make_balance.py                       # play what is missing, then write the report
    python docs/make_balance.py --no-play             # the report from the games played so far
    python docs/make_balance.py --player cpu:easy --games 200 --runs balance-cpu

Every face × two-seat layout is played ``--games`` times by ``--player`` against itself with the
same hand (the starter's advantage, game length, the hole), and every face on ``--skill-layout``
``--skill-games`` times with one hand ``--gaps`` times noisier (how fast skill shows). The games
go to one tournament results file a run under ``--runs`` (default ``docs/balance/runs``, kept with
the report so that anyone can add games to it), appended as they finish: stop it at any time
(Ctrl-C) and the same command resumes. The report says how many
games each figure rests on (see sliders/tournament/balance.py for the definitions).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sliders.core.errors import UserError  # noqa: E402
from sliders.pictures.balance import write_report  # noqa: E402
from sliders.tournament.balance import Plan, findings, load, play  # noqa: E402
from sliders.tournament.players import check_name  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = Plan()
    ap.add_argument("--player", default=d.player, help=f"player (takes :HAND; default {d.player})")
    ap.add_argument("--hand", default=d.hand, help="base hand: × medium noise (default 1)")
    ap.add_argument("--games", type=int, default=d.games, help="games a face × layout")
    ap.add_argument("--skill-games", type=int, default=d.skill_games, help="games a face × gap")
    ap.add_argument("--gaps", default=",".join(f"{g:g}" for g in d.gaps), help="noise ratios")
    ap.add_argument("--skill-layout", default=d.skill_layout)
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--max-rounds", type=int, default=d.max_rounds)
    ap.add_argument("--engine", default=d.engine)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument(
        "--runs",
        default=str(ROOT / "docs" / "balance" / "runs"),
        help="folder of the results files",
    )
    ap.add_argument("--out", default=str(ROOT / "docs" / "balance.md"))
    ap.add_argument("--figures", default=str(ROOT / "docs" / "balance"))
    ap.add_argument("--no-play", action="store_true", help="only write the report")
    ap.add_argument("--asked", help="a note on what was asked and not run, for the report")
    args = ap.parse_args(argv)
    try:
        gaps = tuple(float(g) for g in args.gaps.split(",") if g.strip())
        if any(not g > 1 for g in gaps):
            raise ValueError
    except ValueError:
        print(f"--gaps {args.gaps!r}: numbers above 1, comma-separated", file=sys.stderr)
        return 2
    plan = Plan(
        args.player, args.hand, args.games, args.skill_games, gaps, args.skill_layout,
        seed=args.seed, max_rounds=args.max_rounds, engine=args.engine,
    )  # fmt: skip
    try:
        check_name(plan.base())
        for g in gaps:
            check_name(plan.weak(g))
        if args.no_play:
            played = load(plan, args.runs)
        else:
            t0 = time.perf_counter()

            def progress(done: int, total: int) -> None:
                if done % 50 == 0 or done == total:
                    rate = (time.perf_counter() - t0) / max(1, done - start[0])
                    print(
                        f"\r{done:,} of {total:,} games ({rate:.2f} s a game)", end="", flush=True
                    )

            start = [sum(len(v) for v in load(plan, args.runs).values())]
            played = play(plan, args.runs, args.jobs, progress)
            print()
    except UserError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped: the games played are kept; the same command resumes", file=sys.stderr)
        return 130
    os.makedirs(args.figures, exist_ok=True)
    write_report(findings(plan, played), args.out, args.figures, args.asked)
    print(f"wrote {args.out} and its figures in {args.figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
import json
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
    ap.add_argument(
        "--strong",
        default=str(ROOT / "docs" / "tournament" / "issue26"),
        help="folder of tournaments between strong players, for the round cap's section",
    )
    ap.add_argument(
        "--cap-only", action="store_true", help="only rewrite the round cap's section of --out"
    )
    args = ap.parse_args(argv)
    if args.cap_only:
        splice_cap_section(args.out, args.strong)
        print(f"wrote the round cap's section of {args.out}")
        return 0
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
    splice_cap_section(args.out, args.strong)
    print(f"wrote {args.out} and its figures in {args.figures}")
    return 0


CAP_TITLE = "## The round cap between strong players"
CAP_BEFORE = "## How it was made, and its limits"


def cap_section(folder: str) -> str:
    """The round cap's section: how long games between strong players last (``sliders
    tournament`` results files in ``folder``), face by layout."""
    rows, longest, capped_all, total = [], 0, 0, 0
    past = []  # (face, layout, rounds): games longer than the usual cap, played under a higher one
    for path in sorted(Path(folder).glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if len(lines) < 2:
            continue
        head, games = lines[0], lines[1:]
        cap = head["max_rounds"]
        rounds = sorted(g["rounds"] for g in games if g["winner"] is not None)
        past += [(head["face"], head["layout"], r) for r in rounds if r > USUAL_CAP]
        capped = sum(1 for g in games if g["winner"] is None)
        longest, capped_all, total = (
            max([longest, *rounds]),
            capped_all + capped,
            total + len(games),
        )
        p90 = rounds[min(len(rounds) - 1, int(0.9 * len(rounds)))] if rounds else "–"
        mean = f"{sum(rounds) / len(rounds):.1f}" if rounds else "–"
        rows.append(
            f"| {head['face']} | {head['layout']} | {' vs '.join(head['players'])} | "
            f"{len(games)} | {mean} | {p90} | {max(rounds) if rounds else '–'} | "
            f"{capped} of {len(games)} (cap {cap}) |"
        )
    if not rows:
        return ""
    return "\n".join(
        [
            CAP_TITLE,
            "",
            "How long games last when both players are strong: the planner (`cpu:hard`) against "
            "the rules-aware greedy bot (`race:low`, the same hand), small samples kept in "
            f"`{Path(folder).relative_to(ROOT).as_posix()}/`. Rounds to a winner: mean, 90th "
            "percentile, longest; then the games the cap stopped (a draw each).",
            "",
            "| face | layout | players | games | rounds, mean | 90th pct | longest | at the cap |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
            *rows,
            "",
            finding(total, capped_all, longest, past),
            "",
        ]
    )


USUAL_CAP = 40
"""the round cap of the tournaments and of the even games above"""


def finding(total: int, capped: int, longest: int, past: list[tuple[str, str, int]]) -> str:
    """What the strong players' games say about the cap, in a sentence or three."""
    if capped:
        return (
            f"**The cap stopped {capped} of {total} games** between these players (a draw each): "
            "there the cap, not the players, decided the game."
        )
    if not past:
        return (
            f"**The cap decides no game between these players**: none of the {total} games "
            f"reached it; the longest lasted {longest} rounds, inside the {USUAL_CAP}-round cap."
        )
    where = sorted({f"{f} on {lay}" for f, lay, _ in past})
    return (
        f"None of the {total} games reached its cap, but {len(past)} ({', '.join(where)}) lasted "
        f"past {USUAL_CAP} rounds (the longest {longest}), played under a higher cap: under the "
        f"usual {USUAL_CAP}-round cap the cap would have decided it (a draw). In these small "
        "samples the cap matters between strong players only where those games ran long, as it "
        "does in the even games above on the long layouts of Danger Dots; a cap of about twice "
        f"the longest game seen ({2 * longest} rounds, `--max-rounds`) leaves them to the players."
    )


def splice_cap_section(out: str, folder: str) -> None:
    """Put :func:`cap_section` into the report ``out``, before its last section (replacing an
    earlier one); the file is written whole."""
    text = Path(out).read_text(encoding="utf-8")
    if CAP_TITLE in text:
        a = text.index(CAP_TITLE)
        text = text[:a] + text[text.index(CAP_BEFORE, a) :]
    section = cap_section(folder)
    if section:
        a = text.index(CAP_BEFORE)
        text = text[:a] + section + "\n" + text[a:]
    tmp = out + ".tmp"
    Path(tmp).write_text(text, encoding="utf-8")
    os.replace(tmp, out)


if __name__ == "__main__":
    sys.exit(main())

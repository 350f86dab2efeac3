"""The tables of docs/players.md on the computer against every style, the search's limit and the
length of games between precise aggressive players, from the tournaments' results files kept in
docs/tournament/issue43/ (each file's first line says how it was played; ``sliders tournament``
with the same flags and ``--results`` resumes it).

    python docs/make_styles.py [--folder docs/tournament/issue43]

Prints Markdown. Scores count a draw (a game the round cap stopped) as half a win; intervals are
95 % Wilson intervals; seconds a decision are the tournament's wall clock on the machine that
played it, busy with other work.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sliders.tournament.report import wilson

ROOT = Path(__file__).resolve().parent.parent


def load(path: Path) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return lines[0], lines[1:]


def match_row(path: Path) -> str:
    """One pairing: the first player's results against the second."""
    head, games = load(path)
    a, b = head["players"][:2]
    n = len(games)
    won = sum(g["winner"] == a for g in games)
    lost = sum(g["winner"] == b for g in games)
    drawn = n - won - lost
    lo, hi = wilson(won + drawn / 2, n) if n else (0.0, 1.0)
    score = (won + drawn / 2) / n if n else 0.0
    pen = [sum(g["players"][p].get("penalties", 0) for g in games) / max(n, 1) for p in (a, b)]
    rounds = sum(min(g["rounds"], head["max_rounds"]) for g in games) / max(n, 1)
    think = {
        p: (
            sum(g["players"][p]["think"] for g in games)
            / max(1, sum(g["players"][p]["shots"] for g in games)),
            max((g["players"][p]["think_max"] for g in games), default=0.0),
        )
        for p in (a, b)
    }
    house = ", ".join(head.get("house", [])) or "–"
    return (
        f"| {head['face']} | {head['layout']} | `{a}` vs `{b}` | {house} | {n} of {head['games']} "
        f"| {won}–{lost} ({drawn}) | {100 * score:.1f} % | {100 * lo:.1f}–{100 * hi:.1f} % "
        f"| {drawn} | {rounds:.1f} | {pen[0]:.1f} / {pen[1]:.1f} "
        f"| {think[a][0]:.2f} / {think[a][1]:.2f} | {think[b][0]:.2f} / {think[b][1]:.2f} |"
    )


def length_row(path: Path) -> str:
    """How long one pairing's games last."""
    head, games = load(path)
    cap = head["max_rounds"]
    rounds = sorted(g["rounds"] for g in games if g["winner"] is not None)
    capped = sum(1 for g in games if g["winner"] is None)
    n = len(games)
    pen = sum(sum(st.get("penalties", 0) for st in g["players"].values()) for g in games)
    mean = f"{sum(rounds) / len(rounds):.1f}" if rounds else "–"
    p90 = rounds[min(len(rounds) - 1, int(0.9 * len(rounds)))] if rounds else "–"
    house = ", ".join(head.get("house", [])) or "–"
    return (
        f"| {head['face']} | {head['layout']} | `{' vs '.join(head['players'])}` | {house} | "
        f"{n} | {mean} | {p90} | {max(rounds) if rounds else '–'} | {capped} of {n} (cap {cap}) "
        f"| {pen / max(n, 1):.1f} |"
    )


MATCH_HEAD = (
    "| face | layout | players | house rule | games (of asked) | won–lost (drawn) | score "
    "| 95 % interval | at the cap | rounds a game | penalties a game (first / second) "
    "| first's s/decision, mean / max | second's |\n"
    "| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
)
LENGTH_HEAD = (
    "| face | layout | players | house rule | games | rounds, mean | 90th pct | longest "
    "| at the cap | penalties a game (both) |\n"
    "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def table(intro: str, head: str, rows: list[str], first: bool = False) -> None:
    """One table with the lines that introduce it (none printed without rows, unless first)."""
    if not rows and not first:
        return
    if not first:
        print()
    print(intro)
    print()
    print(head)
    for row in rows:
        print(row)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", default=str(ROOT / "docs" / "tournament" / "issue43"))
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    matches = sorted(p for p in folder.glob("*.jsonl") if not p.name.startswith("precise-"))
    before = sorted((folder / "before").glob("*.jsonl"))
    corners = sorted((folder / "corner-value").glob("*.jsonl"))
    lengths = sorted(folder.glob("precise-*.jsonl"))
    table(
        "The planner (`cpu:hard`) as it is, its value reading the other seats' knocks into a\n"
        "corner and off an open edge of the board, against each yardstick (on triple-track\n"
        "with the house rule `corners-only` too, and against `aggressive` with\n"
        "`no-knock-penalty`) and against itself with ten times the search (`mind=deep`):",
        MATCH_HEAD, [match_row(p) for p in matches], first=True,
    )  # fmt: skip
    table(
        "The planner whose value read the other seats' knocks into the corners only (not off\n"
        "an open edge of the board), against each yardstick and against itself with ten\n"
        "times the search (`mind=deep`):",
        MATCH_HEAD, [match_row(p) for p in corners],
    )  # fmt: skip
    table(
        "The same pairings with the planner before its value read the other seats' knocks\n"
        "at all (`Mind.exposure` off), the same seeds:",
        MATCH_HEAD, [match_row(p) for p in before],
    )  # fmt: skip
    table(
        "Games between precise aggressive players (`aggressive` against `mixed`, both\n"
        "noiseless), by the rulebook and with the house rules `no-knock-penalty` and\n"
        "`corners-only`:",
        LENGTH_HEAD, [length_row(p) for p in lengths],
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The balance report: how each game and layout plays, from many whole games between computer
players (``docs/make_balance.py`` runs it and writes ``docs/balance.md``).

Two kinds of runs, each a tournament results file (:mod:`sliders.tournament.run`) played by the
tournament's own seeded, parallel, resumable game loop:

- **even** runs, on every face × two-seat layout: one player against itself with the same hand.
  They give the starter's advantage (the win rate of the seat that slides first in the first
  round), the game's length in rounds, and what the centre hole does (drops, instant wins, games
  it decides);
- **skill** runs, on every face on one layout: the player with the base hand against itself with
  a hand ``gap`` times noisier. They give how fast skill shows: the steadier hand's win rate
  against the gap (the players swap seats every game, so the starter's advantage cancels).

Draws (a game still going after ``max_rounds``) count half a win to each side.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sliders.boards import face as face_record
from sliders.boards.faces import HoleRule
from sliders.core.outcome import FACES
from sliders.files.layouts import read_layout
from sliders.tournament.report import wilson
from sliders.tournament.run import Job, Settings, play_jobs, read_results, rewrite

LAYOUTS: tuple[str, ...] = (
    "square",
    "crazy-corner",
    "head-to-head",
    "triple-track",
    "quadruple-track",
)
"""the built-in layouts that seat two players (``solo`` has no opponent, so no starter)"""


def hole_rule(name: str) -> HoleRule:
    """What the centre hole does on the face ``name`` (read from its record)."""
    return face_record(name).hole


@dataclass(frozen=True)
class Plan:
    """What the report plays."""

    player: str = "cpu:easy"
    """a player of :mod:`sliders.tournament.players` that takes a hand: ``centre``, ``greedy``,
    ``cpu:easy`` …; ``player:HAND`` is what plays"""
    hand: str = "1"
    """the base hand: a multiple of the medium hand's noise, or a level name"""
    games: int = 1000
    """games of each even run (face × layout)"""
    skill_games: int = 400
    """games of each skill run (face × gap)"""
    gaps: tuple[float, ...] = (1.5, 2.0, 3.0)
    """how many times noisier than the base hand the weaker hand is"""
    skill_layout: str = "square"
    faces: tuple[str, ...] = FACES
    layouts: tuple[str, ...] = LAYOUTS
    seed: int = 1
    max_rounds: int = 40
    engine: str = "exact"

    def base(self) -> str:
        return f"{self.player}:{self.hand}"

    def weak(self, gap: float) -> str:
        return f"{self.player}:{_times(self.hand, gap)}"

    def runs(self) -> list[Run]:
        out = []
        for face in self.faces:
            for layout in self.layouts:
                out.append(Run("even", face, layout, 1.0, self._settings(face, layout, 1.0)))
        for face in self.faces:
            for gap in self.gaps:
                s = self._settings(face, self.skill_layout, gap)
                out.append(Run("skill", face, self.skill_layout, gap, s))
        return out

    def _settings(self, face: str, layout: str, gap: float) -> Settings:
        seats = read_layout(layout).seating(2)
        players = (self.base(), self.base()) if gap == 1.0 else (self.base(), self.weak(gap))
        games = self.games if gap == 1.0 else self.skill_games
        return Settings(
            players,
            games,
            face,
            layout,
            (seats[0], seats[1]),
            self.seed,
            self.max_rounds,
            self.engine,
        )


@dataclass(frozen=True)
class Run:
    kind: str  # "even" or "skill"
    face: str
    layout: str
    gap: float
    settings: Settings

    def file_name(self) -> str:
        tail = "" if self.kind == "even" else f"-x{self.gap:g}"
        return f"{self.kind}-{self.face}-{self.layout}{tail}.jsonl"


def play(
    plan: Plan,
    directory: str,
    jobs: int,
    on_game: Callable[[int, int], None] | None = None,
) -> dict[Run, list[dict[str, Any]]]:
    """Play every game of ``plan`` not yet in ``directory`` (one results file a run), the runs
    interleaved so that a partial run covers every one of them evenly; every run's games."""
    os.makedirs(directory, exist_ok=True)
    runs = plan.runs()
    done: dict[Run, list[dict[str, Any]]] = {}
    paths = {r: os.path.join(directory, r.file_name()) for r in runs}
    for r in runs:
        done[r] = read_results(paths[r], r.settings)
        rewrite(paths[r], r.settings, done[r])  # drops a torn line; the header of a new file
    have = {r: {rec["game"] for rec in done[r]} for r in runs}
    most = max(r.settings.games for r in runs)
    cwd = os.getcwd()
    work = [
        Job(r.settings, 0, g, cwd)
        for g in range(most)
        for r in runs
        if g < r.settings.games and g not in have[r]
    ]
    by_settings = {r.settings: r for r in runs}
    total = sum(r.settings.games for r in runs)
    count = sum(len(v) for v in done.values())
    handles = {r: open(paths[r], "a", encoding="utf-8") for r in runs}  # noqa: SIM115
    try:
        for job, record in play_jobs(work, jobs):
            r = by_settings[job.settings]
            handles[r].write(_line(record))
            handles[r].flush()
            done[r].append(record)
            count += 1
            if on_game:
                on_game(count, total)
    finally:
        for fh in handles.values():
            fh.close()
    return {r: sorted(v, key=lambda rec: rec["game"]) for r, v in done.items()}


def load(plan: Plan, directory: str) -> dict[Run, list[dict[str, Any]]]:
    """The games played so far of every run of ``plan`` (none for a run not started)."""
    return {
        r: read_results(os.path.join(directory, r.file_name()), r.settings) for r in plan.runs()
    }


# -- what the games say -------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """A share of games (wins + ½ draws) with its 95 % Wilson interval."""

    score: float
    n: int

    @property
    def rate(self) -> float:
        return self.score / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.n)

    def text(self) -> str:
        if not self.n:
            return "–"
        lo, hi = self.interval
        return f"{100 * self.rate:.1f} % ({100 * lo:.1f}–{100 * hi:.1f})"


@dataclass(frozen=True)
class EvenSummary:
    face: str
    layout: str
    games: int
    starter: Rate
    """the first seat's score: it slides first in round 1 (and in every odd round)"""
    draws: int
    rounds: tuple[int, ...]
    drops: float
    """roller pawns dropped into the hole, per game"""
    with_drop: Rate
    """games with at least one drop"""
    instant: Rate
    """games won on a shot (Instant Home's last jump HOME), not at a round's scoring"""
    decided: Rate
    """games the hole decided: its net spaces for the winner over the loser (jumps HOME +,
    Instant Sorry!'s penalties −) at least the winner's final lead, and more than 0"""

    @property
    def mean_rounds(self) -> float:
        return float(np.mean(self.rounds)) if self.rounds else math.nan


@dataclass(frozen=True)
class SkillSummary:
    face: str
    layout: str
    gap: float
    steady: Rate
    """the steadier hand's score"""


def even_summary(run: Run, games: Sequence[Mapping[str, Any]]) -> EvenSummary:
    first = run.settings.seats[0]
    n = len(games)
    draws = sum(1 for g in games if g["winner_seat"] is None)
    wins = sum(1 for g in games if g["winner_seat"] == first)
    drops = [sum(s["hole"] for s in g["by_seat"].values()) for g in games]
    return EvenSummary(
        face=run.face,
        layout=run.layout,
        games=n,
        starter=Rate(wins + 0.5 * draws, n),
        draws=draws,
        rounds=tuple(int(g["rounds"]) for g in games),
        drops=float(np.mean(drops)) if n else math.nan,
        with_drop=Rate(sum(1 for d in drops if d), n),
        instant=Rate(sum(1 for g in games if g["ended_on_shot"]), n),
        decided=Rate(sum(1 for g in games if decided_by_hole(g)), n),
    )


def decided_by_hole(game: Mapping[str, Any]) -> bool:
    """True when the spaces the hole moved (Instant Home's jumps +, Instant Sorry!'s penalties −)
    favour the winner over the loser by at least the winner's final lead: taken out, the loser
    would have been level or ahead. Always true of a game won by a jump HOME."""
    win = game["winner_seat"]
    if win is None:
        return False
    if game.get("ended_on_shot"):
        return True
    seats = game["by_seat"]
    (lose,) = [s for s in seats if s != win]
    swing = seats[win]["hole_spaces"] - seats[lose]["hole_spaces"]
    lead = seats[win]["progress"] - seats[lose]["progress"]
    return swing > 0 and swing >= lead


def skill_summary(run: Run, games: Sequence[Mapping[str, Any]]) -> SkillSummary:
    steady = run.settings.players[0]
    n = len(games)
    draws = sum(1 for g in games if g["winner"] is None)
    wins = sum(1 for g in games if g["winner"] == steady)
    return SkillSummary(run.face, run.layout, run.gap, Rate(wins + 0.5 * draws, n))


@dataclass
class Findings:
    plan: Plan
    even: list[EvenSummary] = field(default_factory=list)
    skill: list[SkillSummary] = field(default_factory=list)

    def cell(self, face: str, layout: str) -> EvenSummary | None:
        return next((e for e in self.even if e.face == face and e.layout == layout), None)

    def layout_starter(self, layout: str) -> Rate:
        """The starter's score on ``layout``, over every face."""
        cells = [e for e in self.even if e.layout == layout]
        return Rate(sum(e.starter.score for e in cells), sum(e.starter.n for e in cells))

    def face_skill(self, face: str) -> Rate:
        """The steadier hand's score on ``face`` at the largest gap."""
        gap = max(self.plan.gaps)
        s = [k for k in self.skill if k.face == face and k.gap == gap]
        return s[0].steady if s else Rate(0, 0)


def findings(plan: Plan, played: Mapping[Run, Sequence[Mapping[str, Any]]]) -> Findings:
    out = Findings(plan)
    for run, games in played.items():
        if run.kind == "even":
            out.even.append(even_summary(run, games))
        else:
            out.skill.append(skill_summary(run, games))
    return out


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, sort_keys=True) + "\n"


def _times(hand: str, k: float) -> str:
    """The hand ``k`` times noisier than ``hand`` (a multiple of the medium hand's noise)."""
    levels = {"none": 0.0, "low": 0.5, "medium": 1.0, "high": 2.0}
    base = levels[hand] if hand in levels else float(hand)
    return f"{base * k:g}"


def spread(values: Iterable[int]) -> tuple[float, float, float]:
    """The 10th, 50th and 90th percentiles."""
    v = np.asarray(list(values), dtype=float)
    if not len(v):
        return math.nan, math.nan, math.nan
    p10, p50, p90 = np.percentile(v, [10, 50, 90])
    return float(p10), float(p50), float(p90)

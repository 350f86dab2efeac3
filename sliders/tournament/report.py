"""What a tournament's games say: win rates with Wilson intervals, Elo-style ratings, points per
shot and decision times, as a text table and a PNG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
ELO_ANCHOR = 1500.0
"""the players' mean rating"""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Pairing:
    a: str
    b: str
    games: int
    wins_a: int
    wins_b: int
    draws: int

    @property
    def rate_a(self) -> float:
        """a's score: wins, and half of each draw, per game"""
        return (self.wins_a + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def interval_a(self) -> tuple[float, float]:
        return wilson(self.wins_a + 0.5 * self.draws, self.games)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    name: str
    games: int
    wins: int
    rating: float
    shots: int
    points_per_shot: float
    think_mean: float
    think_max: float


def pairings(players: Sequence[str], games: Sequence[dict[str, Any]]) -> list[Pairing]:
    out = []
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            mine = [g for g in games if set(g["players"]) == {a, b}]
            wa = sum(1 for g in mine if g["winner"] == a)
            wb = sum(1 for g in mine if g["winner"] == b)
            out.append(Pairing(a, b, len(mine), wa, wb, len(mine) - wa - wb))
    return out


def ratings(players: Sequence[str], games: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Elo-style ratings: the Bradley–Terry strengths that best explain the results (a draw is
    half a win each), fitted by minorise–maximise, with one virtual draw of each player against
    an average player so that an unbeaten player's rating stays finite; mean ``ELO_ANCHOR``.
    400 points of difference mean 10:1 odds."""
    wins = {p: 0.5 for p in players}  # the virtual draw
    meets: dict[tuple[str, str], int] = {}
    for g in games:
        a, b = sorted(g["players"])
        meets[(a, b)] = meets.get((a, b), 0) + 1
        if g["winner"] is None:
            wins[a] += 0.5
            wins[b] += 0.5
        else:
            wins[g["winner"]] += 1
    gamma = dict.fromkeys(players, 1.0)
    for _ in range(2000):
        new = {}
        for p in players:
            denom = 1.0 / (gamma[p] + 1.0)  # the virtual game against strength 1
            for (a, b), n in meets.items():
                if p in (a, b):
                    denom += n / (gamma[a] + gamma[b])
            new[p] = wins[p] / denom
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {p: v / math.exp(mean_log) for p, v in new.items()}
        done = max(abs(math.log(new[p] / gamma[p])) for p in players) < 1e-10
        gamma = new
        if done:
            break
    return {p: ELO_ANCHOR + 400 * math.log10(gamma[p]) for p in players}


def player_lines(players: Sequence[str], games: Sequence[dict[str, Any]]) -> list[PlayerLine]:
    elo = ratings(players, games)
    out = []
    for p in players:
        mine = [g["players"][p] for g in games if p in g["players"]]
        shots = sum(s["shots"] for s in mine)
        out.append(
            PlayerLine(
                p,
                len(mine),
                sum(1 for g in games if g["winner"] == p),
                elo[p],
                shots,
                sum(s["points"] for s in mine) / shots if shots else 0.0,
                sum(s["think"] for s in mine) / shots if shots else 0.0,
                max((s["think_max"] for s in mine), default=0.0),
            )
        )
    return sorted(out, key=lambda line: -line.rating)


def text_table(players: Sequence[str], games: Sequence[dict[str, Any]], planned: int) -> str:
    """The tables a person reads: players by rating, then every pairing (the name columns as wide
    as the longest name, so a long one keeps the columns in line)."""
    w = max([22, *(len(n) for n in players)])
    both = [f"{p.a} vs {p.b}" for p in pairings(players, games)]
    wp = max([40, *(len(n) for n in both)])
    rows = [
        f"{len(games)} of {planned} games played",
        "",
        f"{'player':<{w}} {'Elo':>6} {'games':>6} {'wins':>5} {'win %':>6} "
        f"{'pts/shot':>8} {'s/decision':>10} {'max s':>7}",
    ]
    for line in player_lines(players, games):
        rate = 100 * line.wins / line.games if line.games else 0.0
        rows.append(
            f"{line.name:<{w}} {line.rating:6.0f} {line.games:6d} {line.wins:5d} {rate:6.1f} "
            f"{line.points_per_shot:8.2f} {line.think_mean:10.3f} {line.think_max:7.2f}"
        )
    rows += [
        "",
        f"{'pairing':<{wp}} {'games':>6} {'wins':>9} {'draws':>5} {'A wins':>7} {'95 % interval':>14}",
    ]
    for p in pairings(players, games):
        lo, hi = p.interval_a
        rows.append(
            f"{p.a + ' vs ' + p.b:<{wp}} {p.games:6d} {p.wins_a:4d}-{p.wins_b:<4d} {p.draws:5d} "
            f"{100 * p.rate_a:6.1f}% {f'{100 * lo:.1f}–{100 * hi:.1f}%':>14}"
        )
    return "\n".join(rows) + "\n"

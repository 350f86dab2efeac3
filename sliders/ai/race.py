"""The chance of winning the game from where it stands: a race-to-HOME model over the score boards.

Every seat races its four scoring pawns HOME, by exact count. The model asks, for each seat, how
likely it is to have every scoring pawn HOME by the end of this round, of the next, and so on,
and turns those finishing-time distributions into each seat's probability of winning, with the
rulebook's tie rule (when several finish in the same round, the one closest to that round's
starter in turn order wins).

**One scoring pawn's race.** A scoring pawn ``d`` spaces from HOME (1..6) is moved, each round,
by one of its seat's roller pawns; with fewer scoring pawns left than roller pawns, the spare
roller pawns give it more tries (the assignment at round end keeps the best of them). Each try
aims at a spot of one value (or at the hole, where the hole sends a pawn HOME) and ends as the
hand's measured odds say (:func:`sliders.ai.aims.shot_odds`): a penalty (the model sends this
pawn back to START), nothing, a score (which moves it if it does not overshoot HOME), a choice of
scores (the best), or a jump HOME. ``C[m][t][d]``, the chance of reaching HOME within ``t``
rounds with ``m`` tries a round, is solved by dynamic programming, the aim chosen each round to
make it largest.

**A seat.** Its scoring pawns race independently; the seat finishes when the last one does, so
its finishing-time distribution is the product of theirs. In the middle of a round the seat's
roller pawns standing on the table offer known scores: every way of assigning them to scoring
pawns (each scoring pawn moved once, exact count) is tried, the shots still in hand go to the
scoring pawns left over, and the assignment with the earliest expected finish counts.

**What is left out**, knowingly: pawns on the table may still be knocked away; a penalty sends
the seat's highest scoring pawn back, not necessarily the one the model charges; the seats'
races interact only through the tie rule. A won game is worth exactly 1 (or 0), whatever the
model says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from sliders.ai.aims import JUMP, PENALTY, Outcome, ShotOdds
from sliders.core.outcome import PAWNS_PER_PLAYER
from sliders.rules import HOME, GameState, Phase, scores_of

HORIZON = 60
"""rounds the model looks ahead; a seat not finished by then is counted as never finishing"""
THREAT = 0.3
"""the chance that one shot still to come from an opponent this round knocks one of a seat's
pawns on the table out of its score (the most valuable first)"""
START_DISTANCE = HOME


@dataclass
class RaceModel:
    """Finishing-time distributions and win probabilities for one hand's odds (see the module)."""

    odds: ShotOdds
    horizon: int = HORIZON
    _cdf: np.ndarray = field(init=False, repr=False)
    _memo: dict[tuple, np.ndarray] = field(default_factory=dict, init=False, repr=False)
    _rounds: dict[tuple, np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._cdf = self._solve()

    # -- the public questions -----------------------------------------------------------------

    def pawn_cdf(self, distance: int, tries: int = 1) -> np.ndarray:
        """P(a scoring pawn ``distance`` spaces from HOME is HOME within t rounds), t = 0..H,
        with ``tries`` roller pawns a round."""
        return self._cdf[min(max(tries, 1), PAWNS_PER_PLAYER) - 1, :, distance]

    def seat_cdf(
        self,
        board: Sequence[int],
        table: Sequence[tuple[int, ...]] = (),
        in_hand: int = 0,
        threats: int = 0,
    ) -> np.ndarray:
        """P(every scoring pawn of a seat is HOME by the end of the round t rounds from now),
        t = 0 (this round) .. H: its score ``board``, the scores its roller pawns on the table
        offer (``table``), the roller pawns it still has to slide this round (``in_hand``) and
        the opponents' shots still to come this round (``threats``: each knocks one of the
        seat's pawns on the table out of its score with chance :data:`THREAT`, the most valuable
        first)."""
        items = tuple(
            sorted(
                (tuple(sorted(c)) for c in table if any(x > 0 for x in c)), key=max, reverse=True
            )
        )
        key = (tuple(sorted(board)), items, in_hand, threats if items else 0)
        got = self._memo.get(key)
        if got is None:
            got = np.zeros(self.horizon + 1)
            lost = _binomial(key[3], THREAT)
            for k, p in enumerate(lost):
                kept = tuple(sorted(items[min(k, len(items)) :]))
                got += p * self._kept(key[0], kept, in_hand)
            remember(self._memo, key, got)
        return got

    def _kept(
        self, board: tuple[int, ...], items: tuple[tuple[int, ...], ...], hand: int
    ) -> np.ndarray:
        key = (board, items, hand, -1)
        got = self._memo.get(key)
        if got is None:
            got = remember(self._memo, key, self._seat(board, items, hand))
        return got

    def win_probabilities(self, state: GameState) -> dict[str, float]:
        """Each seat's probability of winning the game from ``state``."""
        if state.winner is not None:
            return {s: float(s == state.winner) for s in state.seats}
        shooting = state.phase is Phase.SHOOTING
        left = {s: len(state.player(s).in_hand) if shooting else 0 for s in state.seats}
        cdfs = {}
        for s in state.seats:
            p = state.player(s)
            offers = [scores_of(q, state.face_record) for q in state.on_table(s)]
            threats = sum(n for o, n in left.items() if o != s)
            cdfs[s] = self.seat_cdf(p.board, offers, left[s], threats)
        return combine(cdfs, state)

    def win_probability(self, state: GameState, seat: str) -> float:
        """``seat``'s probability of winning from ``state`` (1 once it has won, 0 once another
        has). Alone at the table, the chance of finishing no later than a seat that needs the
        model's typical number of rounds from where this one started the game."""
        return self.win_probabilities(state)[seat]

    # -- inside ---------------------------------------------------------------------------------

    def _solve(self) -> np.ndarray:
        """``C[m-1, t, d]`` for m = 1..4 tries a round, t = 0..H rounds, d = 0..6 spaces."""
        probs, outcomes = self.odds.probs, self.odds.outcomes
        c = np.zeros((PAWNS_PER_PLAYER, self.horizon + 1, START_DISTANCE + 1))
        c[:, :, 0] = 1.0
        for t in range(1, self.horizon + 1):
            for m in range(PAWNS_PER_PLAYER):
                prev = c[m, t - 1]
                for d in range(1, START_DISTANCE + 1):
                    values = np.array([max(prev[n] for n in _moves(o, d)) for o in outcomes])
                    c[m, t, d] = max(_best_of(row, values, m + 1) for row in probs)
        return c

    def _round(self, d: int, tries: int, future: int) -> np.ndarray:
        """A pawn ``d`` away that gets ``tries`` this round and ``future`` tries a round later:
        P(HOME by the end of the round t rounds from now), the aim this round chosen for the
        earliest expected finish (remembered: a few dozen of them a model)."""
        key = (d, tries, future)
        got = self._rounds.get(key)
        if got is None:
            got = self._rounds[key] = self._solve_round(d, tries, future)
            got.setflags(write=False)
        return got

    def _solve_round(self, d: int, tries: int, future: int) -> np.ndarray:
        later = self._cdf[future - 1]  # later[t, d']
        if d == 0:
            return np.ones(self.horizon + 1)
        if tries == 0:  # no progress this round: the next rounds' chances
            return later[:, d].copy()
        probs, outcomes = self.odds.probs, self.odds.outcomes
        best: np.ndarray | None = None
        for row in probs:
            # the tries' best outcome, judged by the chance of finishing within a few rounds
            score = later[min(3, self.horizon)]
            values = np.array([max(score[n] for n in _moves(o, d)) for o in outcomes])
            order = np.argsort(-values, kind="stable")
            q = row[order]
            reach = 1 - _power(1 - np.cumsum(q), tries)
            share = np.diff(np.concatenate([[0.0], reach]))
            cdf = np.zeros(self.horizon + 1)
            for j, w in zip(order, share, strict=True):
                if w > 0:
                    n = max(_moves(outcomes[j], d), key=lambda k: score[k])
                    cdf += w * later[:, n]
            if best is None or cdf.sum() > best.sum():
                best = cdf
        assert best is not None
        return best

    def _seat(
        self, board: tuple[int, ...], items: tuple[tuple[int, ...], ...], hand: int
    ) -> np.ndarray:
        away = [HOME - sq for sq in board if sq != HOME]
        if not away:
            return np.ones(self.horizon + 1)
        future = max(1, min(PAWNS_PER_PLAYER, PAWNS_PER_PLAYER // len(away)))
        best: np.ndarray | None = None
        for moved in _assignments(away, items):
            left = [i for i, d in enumerate(away) if i not in moved]
            tries = _spread(hand, len(left))
            cdf = np.ones(self.horizon + 1)
            for i, d in enumerate(away):
                if i in moved:
                    cdf = cdf * self._cdf[future - 1, :, moved[i]]
                else:
                    cdf = cdf * self._round(d, tries[left.index(i)], future)
            if best is None or cdf.sum() > best.sum():
                best = cdf
        assert best is not None
        return best


def combine(cdfs: dict[str, np.ndarray], state: GameState) -> dict[str, float]:
    """Win probabilities from each seat's finishing-time distribution (independent races; ties
    in a round go to the seat closest to that round's starter, the starter first). A seat alone
    wins with the chance of finishing within the rounds the model expects a fresh seat to need."""
    seats = list(state.seats)
    if len(seats) == 1:
        (s,) = seats
        return {s: float(cdfs[s].mean())}
    horizon = len(next(iter(cdfs.values())))
    pmf = {s: np.diff(np.concatenate([[0.0], cdfs[s]])) for s in seats}
    rank = _ranks(state.turn_order(state.starter), horizon)
    win = {}
    for s in seats:
        p = np.maximum(pmf[s], 0.0)
        for o in seats:
            if o != s:
                p *= 1.0 - cdfs[o] + np.where(rank[s] < rank[o], pmf[o], 0.0)
        win[s] = float(p.sum())
    rest = max(0.0, 1.0 - sum(win.values()))
    return {s: win[s] + rest / len(seats) for s in seats}


@cache
def _ranks(order: tuple[str, ...], horizon: int) -> dict[str, np.ndarray]:
    """Each seat's place in the turn order of the round t rounds from now, t = 0..horizon - 1,
    ``order`` being this round's (the round t rounds from now starts t seats to the left of this
    round's starter)."""
    n = len(order)
    cycle = [order[t:] + order[:t] for t in range(n)]
    out = {s: np.resize(np.array([c.index(s) for c in cycle]), horizon) for s in order}
    for a in out.values():
        a.setflags(write=False)
    return out


MEMO = 10_000
"""results a model remembers at most (then it starts afresh): a worker playing thousands of games
keeps its memory bounded"""


def remember(memo: dict, key: tuple, value: Any) -> Any:
    """``memo[key] = value``, emptying ``memo`` first when it holds :data:`MEMO` entries."""
    if len(memo) >= MEMO:
        memo.clear()
    memo[key] = value
    return value


def _binomial(n: int, p: float) -> np.ndarray:
    """P(k successes of ``n`` tries of chance ``p``), k = 0..n."""
    out = np.zeros(n + 1)
    for k in range(n + 1):
        out[k] = math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return out


def _power(x: np.ndarray, k: int) -> np.ndarray:
    """``x ** k`` for a whole ``k`` by repeated products: the same bits on every processor
    (numpy's vector power differs in the last bit with AVX-512 or without)."""
    out = np.ones_like(x)
    for _ in range(k):
        out *= x
    return out


def _moves(o: Outcome, d: int) -> list[int]:
    """Where a pawn ``d`` from HOME can stand after a try that ended as ``o``."""
    if o == PENALTY:
        return [START_DISTANCE]
    if o == JUMP:
        return [0]
    assert isinstance(o, tuple)
    fits = [d - c for c in o if 0 < c <= d]
    return fits or [d]


def _best_of(row: np.ndarray, values: np.ndarray, tries: int) -> float:
    """The expected best of ``tries`` independent draws from ``row``, each worth ``values``."""
    order = np.argsort(-values, kind="stable")
    reach = 1 - _power(1 - np.cumsum(row[order]), tries)
    share = np.diff(np.concatenate([[0.0], reach]))
    return float(share @ values[order])


def _spread(shots: int, pawns: int) -> list[int]:
    """``shots`` roller pawns shared among ``pawns`` scoring pawns, as evenly as can be."""
    if pawns == 0:
        return []
    base, extra = divmod(shots, pawns)
    return [base + (1 if i < extra else 0) for i in range(pawns)]


def _assignments(away: list[int], items: tuple[tuple[int, ...], ...]) -> list[dict[int, int]]:
    """Every way (up to pawns at equal distance) of moving scoring pawns by the scores on the
    table: {pawn index: its distance after}, each pawn moved once, never past HOME; as many
    scores used as any way can."""
    found: list[tuple[int, dict[int, int]]] = []

    def walk(k: int, moved: dict[int, int], used: int) -> None:
        if k == len(items):
            found.append((used, dict(moved)))
            return
        seen: set[int] = set()
        for i, d in enumerate(away):
            if i in moved or d in seen:
                continue
            seen.add(d)
            for c in items[k]:
                if c <= d:
                    moved[i] = d - c
                    walk(k + 1, moved, used + 1)
                    del moved[i]
        walk(k + 1, moved, used)  # this score unused (kept only if no way uses more)

    walk(0, {}, 0)
    most = max(u for u, _ in found)
    out = [m for u, m in found if u == most]
    unique = {tuple(sorted(m.items())): m for m in out}
    return list(unique.values())

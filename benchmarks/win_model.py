"""Fit the planner's chance of winning (sliders.ai.win) on whole games, and measure it.

    python benchmarks/win_model.py [--games 400] [--seed 1] [--jobs 2]

Plays two-seat Race for Home games on the square between the planner (``cpu:hard``) and the
classic search with the same hand (``cpu:hand=low,mind=classic``), seats and first slide
alternating. After every shot and every round's scoring, each seat's features (see
:func:`sliders.ai.win.features`) are written with whether that seat went on to win. The weights
are fitted by maximum likelihood (Newton's method) on the first three quarters of the games and
judged on the last quarter, against the race model alone and the model's current weights; then
refitted on every game. Paste the printed weights into ``WEIGHTS`` in sliders/ai/win.py.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np

from sliders.ai import STRENGTHS, ComputerPlayer, classic
from sliders.ai.planner import race_model
from sliders.ai.win import FEATURES, WEIGHTS, features
from sliders.game import HeadlessGame
from sliders.rules import Phase

MAX_ROUNDS = 40


def play(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One game's positions: (features of each seat, 1 for the seat that went on to win)."""
    g = HeadlessGame("race-for-home", "square", ("south", "north"), seed)
    rng = np.random.default_rng(seed)
    minds = [STRENGTHS["hard"], classic("hard")]
    if seed % 2:
        minds.reverse()
    players = {
        s: ComputerPlayer(s, m, rng.spawn(1)[0]) for s, m in zip(g.seats, minds, strict=True)
    }
    race = race_model(g.layout, g.face, "south", STRENGTHS["hard"].hand, g.params)
    seen: list[dict[str, np.ndarray]] = []
    while not g.over and g.state.round <= MAX_ROUNDS:
        state = g.state
        if state.phase is Phase.SCORING:
            g.score({s: p.choose_assignment(state) for s, p in players.items()})
        else:
            assert state.turn is not None
            g.shoot(players[state.turn].choose_shot(state, g.layout, g.face, g.params))
        if g.state.winner is None:
            seen.append(features(g.state, race.win_probabilities(g.state)))
    winner = g.state.winner
    if winner is None:  # a draw tells nothing about who was ahead
        return np.empty((0, len(FEATURES))), np.empty(0)
    x = np.array([f[s] for f in seen for s in g.seats])
    y = np.array([float(s == winner) for _ in seen for s in g.seats])
    return x, y


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression without an intercept (the seats are symmetric), by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ w))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x, x.T @ (y - p))
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t0 = time.perf_counter()
    seeds = [args.seed * 100_000 + i for i in range(args.games)]
    with mp.Pool(args.jobs) as pool:
        games = pool.map(play, seeds, chunksize=1)
    print(f"{args.games} games in {time.perf_counter() - t0:.0f} s")
    cut = len(games) * 3 // 4
    xa, ya = (np.concatenate(v) for v in zip(*games[:cut], strict=True))
    xb, yb = (np.concatenate(v) for v in zip(*games[cut:], strict=True))
    w = fit(xa, ya)
    race = FEATURES.index("race")
    rows = {
        "race model alone": 1 / (1 + np.exp(-xb[:, race])),
        "current weights": 1 / (1 + np.exp(-xb @ np.array(WEIGHTS))),
        "fitted on 3/4": 1 / (1 + np.exp(-xb @ w)),
    }
    print(f"held-out positions: {len(yb):,} (of {len(yb) // 2:,} game states)")
    print(f"{'model':20} {'log loss':>9} {'accuracy':>9}")
    for name, p in rows.items():
        acc = float(np.mean((p > 0.5) == (yb > 0.5)))
        print(f"{name:20} {log_loss(p, yb):9.4f} {acc:9.3f}")
    full = fit(np.concatenate([xa, xb]), np.concatenate([ya, yb]))
    print(
        "weights on every game:",
        ", ".join(f"{n} {v:.4g}" for n, v in zip(FEATURES, full, strict=True)),
    )
    print("WEIGHTS = (" + ", ".join(f"{v:.4g}" for v in full) + ")")


if __name__ == "__main__":
    main()

"""`sliders review` timed on the golden game logs (tests/fixtures/games): seconds of process CPU
(every thread counted) and of wall time for each whole review, and the same per shot and for a
40-shot game (the per-shot figure times 40), on one core (numba held to one thread).

The review's budget (:data:`sliders.lab.review.REVIEW_MIND`) is tuned so that a 40-shot game
reviews in under 30 s. The exact engine's kernels must be compiled already (any earlier run
does it). Run:

    python benchmarks/review.py [--only NAME] [--limit N]
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from sliders.lab.review import REVIEW_MIND, review_game  # noqa: E402

GAMES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "games"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="one log's name (without .json)")
    ap.add_argument("--limit", type=int, help="review the first N shots of each log")
    args = ap.parse_args()
    logs = sorted(GAMES.glob("*.json"))
    if args.only:
        logs = [p for p in logs if p.stem == args.only]
    print(f"review mind: {REVIEW_MIND.simulations} simulations a shot, first {REVIEW_MIND.first}")
    print(f"{'log':<40} {'shots':>5} {'cpu s':>7} {'wall s':>7} {'cpu/shot':>8} {'40 shots':>8}")
    for path in logs:
        c0, w0 = time.process_time(), time.perf_counter()
        review = review_game(path, limit=args.limit)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        n = len(review.shots)
        print(
            f"{path.stem:<40} {n:5d} {cpu:7.1f} {wall:7.1f} {cpu / n:8.3f} {40 * cpu / n:8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

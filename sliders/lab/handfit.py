"""A person's hand fitted from drill attempts: bias and spread of the speed and angle errors, with
intervals (see :mod:`sliders.game.hand`, which keeps and plays it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from sliders.core.errors import UserError
from sliders.game.hand import MIN_ATTEMPTS, Estimate, HandFit, Spread, kept_attempts

CONFIDENCE = 0.95


def fit_hand(
    intended: Sequence[tuple[float, float]] | np.ndarray,
    slid: Sequence[tuple[float, float]] | np.ndarray,
    confidence: float = CONFIDENCE,
) -> HandFit:
    """The hand (see the module) from attempts: ``intended`` and ``slid`` shots, each row
    (speed m/s, angle in degrees)."""
    a, b = np.asarray(intended, dtype=float), np.asarray(slid, dtype=float)
    if a.shape != b.shape or a.ndim != 2 or a.shape[1] != 2:
        raise UserError("attempts: each is an intended and a slid (speed, angle)")
    n = len(a)
    if n < MIN_ATTEMPTS:
        raise UserError(f"a hand is fitted from {MIN_ATTEMPTS} attempts at least, got {n}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()) or (a[:, 0] <= 0).any():
        raise UserError("attempts: speeds must be positive and every number finite")
    from scipy import stats  # a second to import: only when a hand is fitted

    errors = np.column_stack([b[:, 0] / a[:, 0] - 1.0, b[:, 1] - a[:, 1]])
    tail = (1 - confidence) / 2
    out = []
    for e in errors.T:
        mean, sd = float(e.mean()), float(e.std(ddof=1))
        half = float(stats.t.ppf(1 - tail, n - 1)) * sd / math.sqrt(n)
        lo = sd * math.sqrt((n - 1) / float(stats.chi2.ppf(1 - tail, n - 1)))
        hi = sd * math.sqrt((n - 1) / float(stats.chi2.ppf(tail, n - 1)))
        out.append((Estimate(sd, lo, hi), Estimate(mean, mean - half, mean + half)))
    (ss, sb), (as_, ab) = out
    return HandFit(n, ss, as_, sb, ab)


def drill_spread(
    drill: str, attempts: Sequence[tuple[tuple[float, float], tuple[float, float]]], when: str = ""
) -> Spread | None:
    """Your spread in one drill's ``attempts`` ((intended speed, angle°), (slid speed, angle°)),
    as :func:`fit_hand` measures it; None with fewer than :data:`MIN_ATTEMPTS`."""
    if len(attempts) < MIN_ATTEMPTS:
        return None
    fit = fit_hand([a for a, _ in attempts], [b for _, b in attempts])
    return Spread(drill, fit.n, fit.speed_spread.value, fit.angle_spread.value, when)


def fit_kept() -> HandFit:
    """The hand fitted from the drill attempts kept in the data directory."""
    rows = np.asarray(kept_attempts(), dtype=float).reshape(-1, 4)
    return fit_hand(rows[:, :2], rows[:, 2:])

"""Per intended shot: expected points with a t interval, and the probability of each rest status,
of a penalty and of hurting an opponent, with exact (Clopper-Pearson) intervals.

The intervals are the ones ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")`` gives,
computed for all intended shots at once from the beta distribution.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from sliders.batch.study import PARAMETERS, Study
from sliders.batch.work import STATUSES

Columns = dict[str, np.ndarray]


def summarise(table: Columns, study: Study, confidence: float = 0.95) -> Columns:
    """One row per intended shot that has at least one simulated sample, in intended order."""

    if not 0 < confidence < 1:
        raise ValueError("confidence must be within (0, 1)")
    which = table["intended"]
    m = study.n_intended
    n_all = np.bincount(which, minlength=m)
    keep = np.flatnonzero(n_all)
    n = n_all[keep]

    def total(values: np.ndarray) -> np.ndarray:
        return np.bincount(which, weights=values.astype(float), minlength=m)[keep]

    out: Columns = {"intended": keep.astype(np.int64)}
    shots = study.design.shots[keep]
    for j, name in enumerate(PARAMETERS):
        out[name] = shots[:, j]
    out["n"] = n.astype(np.int64)

    points = table["points"].astype(float)
    mean, lo, hi, sd = mean_interval(total(points), total(points * points), n, confidence)
    out["mean_points"], out["mean_points_lo"], out["mean_points_hi"] = mean, lo, hi
    out["sd_points"] = sd

    def proportion(name: str, hits: np.ndarray) -> None:
        k = total(hits).round().astype(np.int64)
        out[f"p_{name}"] = k / n
        out[f"p_{name}_lo"], out[f"p_{name}_hi"] = clopper_pearson(k, n, confidence)

    proportion("penalty", table["penalty"])
    proportion("opp_hit", table["opp_delta"] < 0)
    proportion("opp_penalty", table["opp_penalties"] > 0)
    for name in ("penalties", "opp_removed", "opp_delta", "own_delta"):
        out[f"mean_{name}"] = total(table[name]) / n
    present = np.unique(table["status"])
    for code in present:
        proportion(str(STATUSES[code]), table["status"] == code)
    return out


def mean_interval(
    s1: np.ndarray, s2: np.ndarray, n: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean, t-interval bounds and sample standard deviation from sums and sums of squares.

    With one sample the interval is undefined (NaN); with no spread it is the mean itself."""
    n = n.astype(float)
    mean = s1 / n
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1)
        sd = np.sqrt(var)
        half = stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / np.sqrt(n)
    half = np.where(n > 1, np.where(sd > 0, half, 0.0), np.nan)
    return mean, mean - half, mean + half, np.where(n > 1, sd, np.nan)


def clopper_pearson(
    k: np.ndarray, n: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """The exact binomial interval for ``k`` successes in ``n`` trials, elementwise."""
    alpha = 1 - confidence
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, stats.beta.isf(alpha / 2, k + 1, n - k), 1.0)
    return lo, hi

"""Per intended shot: expected value (the seat's chance of winning after the shot,
docs/strategy.md), expected progress and expected points with t intervals, and the probability of each rest status, of a penalty to any of
the seat's pawns, of hitting a pawn and of hurting an opponent, with exact (Clopper-Pearson)
intervals.

A *metric* names one summary figure for rankings and pictures (see :func:`metric_column`):
``value``, ``progress``, ``points``, ``p_penalty``, ``p_hit``, ``p_opp_hit``, ``p_opp_penalty`` or ``p_STATUS``
for any rest status (``p_in_hole``, ``p_on_target``, ...).

The intervals are the ones ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")`` gives,
computed for all intended shots at once from the beta distribution.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from sliders.batch.study import PARAMETERS, Study
from sliders.batch.work import STATUSES
from sliders.core.errors import UserError

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

    for name in ("value", "progress", "points"):
        if name not in table:  # a table written before values were recorded
            continue
        x = table[name].astype(float)
        mean, lo, hi, sd = mean_interval(total(x), total(x * x), n, confidence)
        out[f"mean_{name}"], out[f"mean_{name}_lo"], out[f"mean_{name}_hi"] = mean, lo, hi
        out[f"sd_{name}"] = sd

    def proportion(name: str, hits: np.ndarray) -> None:
        k = total(hits).round().astype(np.int64)
        out[f"p_{name}"] = k / n
        out[f"p_{name}_lo"], out[f"p_{name}_hi"] = clopper_pearson(k, n, confidence)

    proportion("penalty", table["penalties"] > 0)  # any of the seat's pawns
    proportion("shot_penalty", table["penalty"])  # the shot pawn's own removal
    proportion("hit", table["contacts"] > 0)  # every contact starts with the shot pawn
    proportion("opp_hit", table["opp_delta"] < 0)
    proportion("opp_penalty", table["opp_penalties"] > 0)
    for name in ("penalties", "opp_removed", "opp_delta", "own_delta"):
        out[f"mean_{name}"] = total(table[name]) / n
    for code, status in enumerate(STATUSES):  # every status, reached or not
        proportion(str(status), table["status"] == code)
    return out


METRICS_HELP = "value, progress, points, p_penalty, p_hit, p_opp_hit, p_opp_penalty or p_STATUS"


def metric_column(metric: str, summary: Columns | None = None) -> str:
    """The summary column a metric names (``value`` → ``mean_value``, ``p_in_hole`` itself), or a
    UserError naming the metrics there are."""

    fixed = {"value": "mean_value", "progress": "mean_progress", "points": "mean_points"}
    known = {"p_penalty", "p_shot_penalty", "p_hit", "p_opp_hit", "p_opp_penalty"}
    known |= {f"p_{s}" for s in STATUSES}
    known |= {f"mean_{n}" for n in ("penalties", "opp_removed", "opp_delta", "own_delta")}
    column = fixed.get(metric, metric)
    if metric not in fixed and metric not in known:
        raise UserError(f"--metric {metric!r}: choose {METRICS_HELP}")
    if summary is not None and column not in summary:
        raise UserError(
            f"--metric {metric}: this table has no {column} (written by an older version?)"
        )
    return column


def metric_values(summary: Columns, column: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, low, high) of a metric's column for each summary row (low = high = value for a
    column without an interval)."""
    v = summary[column].astype(float)
    return v, summary.get(f"{column}_lo", v), summary.get(f"{column}_hi", v)


def metric_label(metric: str) -> str:
    """How a picture names a metric."""
    if metric == "value":
        return "expected value (chance of winning after the shot)"
    if metric == "progress":
        return "expected progress (change of the progress lead)"
    if metric == "points":
        return "expected points of the shot pawn"
    words = {
        "p_penalty": "probability of a penalty to the seat",
        "p_shot_penalty": "probability the shot pawn costs a penalty",
        "p_hit": "probability of hitting a pawn",
        "p_opp_hit": "probability of costing an opponent points",
        "p_opp_penalty": "probability of an opponent's penalty",
    }
    if metric in words:
        return words[metric]
    if metric.startswith("p_"):
        return f"probability of {metric[2:]}"
    return metric


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

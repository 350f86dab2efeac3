"""The noise model draws what it is configured to draw, and the summary's intervals are scipy's."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from sliders.batch import Design, Study, empty_scene, run_study
from sliders.batch.summary import clopper_pearson, mean_interval
from sliders.batch.work import STATUSES, errors_for
from sliders.physics import Noise

SIGMAS = Noise(speed_rel=0.05, angle_deg=2.0, offset=0.005, release=0.004)


@pytest.fixture(scope="module")
def drawn() -> np.ndarray:
    study = Study.create(empty_scene(), "south", Design.grid(speed="0.6"), 1, SIGMAS, seed=2024)
    return np.concatenate([errors_for(study.context, i, 2500)[0] for i in range(4)])


@pytest.mark.parametrize(
    ("column", "sigma"),
    [
        (0, SIGMAS.speed_rel),
        (1, math.radians(SIGMAS.angle_deg)),
        (2, SIGMAS.offset),
        (3, SIGMAS.release),
    ],
)
def test_drawn_errors_are_normal_with_the_configured_sigma(drawn, column, sigma) -> None:
    e = drawn[:, column]
    n = len(e)
    assert stats.normaltest(e).pvalue > 1e-3
    assert stats.ttest_1samp(e, 0.0).pvalue > 1e-3
    # (n-1) s² / σ² is chi-square with n-1 degrees of freedom when σ is right
    chi2 = (n - 1) * e.var(ddof=1) / sigma**2
    p = 2 * min(stats.chi2.cdf(chi2, n - 1), stats.chi2.sf(chi2, n - 1))
    assert p > 1e-3
    # and the test has power: a sigma 10 % off is rejected
    wrong = (n - 1) * e.var(ddof=1) / (1.1 * sigma) ** 2
    assert stats.chi2.cdf(wrong, n - 1) < 1e-3


def test_errors_are_independent_between_parameters(drawn) -> None:
    r = np.corrcoef(drawn.T)
    assert np.abs(r - np.eye(4)).max() < 0.05


def test_no_noise_draws_zero_errors() -> None:
    study = Study.create(empty_scene(), "south", Design.grid(speed="0.6"), 1, Noise(), seed=1)
    errors, seeds = errors_for(study.context, 0, 50)
    assert not errors.any()
    assert len(set(seeds.tolist())) == 50


def test_draws_do_not_depend_on_how_many_are_asked_for() -> None:
    study = Study.create(empty_scene(), "south", Design.grid(speed="0.6"), 1, SIGMAS, seed=9)
    long_e, long_s = errors_for(study.context, 3, 40)
    short_e, short_s = errors_for(study.context, 3, 7)
    np.testing.assert_array_equal(long_e[:7], short_e)
    np.testing.assert_array_equal(long_s[:7], short_s)


def test_proportion_intervals_match_binomtest() -> None:
    k = np.array([0, 1, 5, 19, 20, 37])
    n = np.array([20, 20, 20, 20, 20, 80])
    lo, hi = clopper_pearson(k, n, 0.9)
    for ki, ni, a, b in zip(k, n, lo, hi, strict=True):
        ci = stats.binomtest(int(ki), int(ni)).proportion_ci(confidence_level=0.9, method="exact")
        assert (a, b) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_mean_interval_matches_a_t_interval() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 6, 30).astype(float)
    mean, lo, hi, sd = mean_interval(
        np.array([x.sum()]), np.array([(x * x).sum()]), np.array([30]), 0.95
    )
    want = stats.t.interval(0.95, 29, loc=x.mean(), scale=stats.sem(x))
    assert (lo[0], hi[0]) == pytest.approx(want, rel=1e-9)
    assert mean[0] == pytest.approx(x.mean()) and sd[0] == pytest.approx(x.std(ddof=1))


def test_summary_per_intended_shot(crowded_study) -> None:
    result = run_study(crowded_study, workers=1)
    t, s = result.table, result.summary()
    assert len(s["n"]) == crowded_study.n_intended and (s["n"] == 4).all()
    for i in range(crowded_study.n_intended):
        rows = t["intended"] == i
        assert s["mean_points"][i] == pytest.approx(t["points"][rows].mean())
        assert s["p_penalty"][i] == pytest.approx(t["penalty"][rows].mean())
        assert s["mean_points_lo"][i] <= s["mean_points"][i] <= s["mean_points_hi"][i]
    status_cols = [f"p_{st}" for st in STATUSES if f"p_{st}" in s]
    assert status_cols
    np.testing.assert_allclose(sum(s[c] for c in status_cols), 1.0)

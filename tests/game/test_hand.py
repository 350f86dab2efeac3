"""Your hand: known spreads and biases recovered from simulated drill attempts, kept in the data
directory (XDG_DATA_HOME respected) and played as the hand ``me``."""

from __future__ import annotations

import numpy as np
import pytest

from sliders.core.errors import UserError
from sliders.game.config import parse_computer
from sliders.game.hand import (
    Spread,
    data_dir,
    keep_spread,
    kept_spreads,
    load_hand,
    parse_hand,
    person_noise,
    progress_words,
    save_hand,
    slide_words,
)
from sliders.lab.handfit import fit_hand
from sliders.physics import NOISE_LEVELS, Shot

TRUE = {"speed": 0.07, "angle": 1.6, "speed_bias": 0.03, "angle_bias": -0.8}


def attempts(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` drill attempts: intended shots to targets of the drills' range, slid with the true
    hand (speed scaled by 1 + bias + N(0, spread), angle moved by bias + N(0, spread))."""
    rng = np.random.default_rng(seed)
    intended = np.column_stack([rng.uniform(0.4, 1.3, n), rng.uniform(-8, 8, n)])
    speed = intended[:, 0] * (1 + TRUE["speed_bias"] + TRUE["speed"] * rng.standard_normal(n))
    angle = intended[:, 1] + TRUE["angle_bias"] + TRUE["angle"] * rng.standard_normal(n)
    return intended, np.column_stack([speed, angle])


def test_known_spreads_are_recovered_within_15_percent_from_40_attempts() -> None:
    fit = fit_hand(*attempts(40, seed=24))
    assert fit.n == 40
    assert fit.speed_spread.value == pytest.approx(TRUE["speed"], rel=0.15)
    assert fit.angle_spread.value == pytest.approx(TRUE["angle"], rel=0.15)
    assert fit.speed_bias.lo < TRUE["speed_bias"] < fit.speed_bias.hi
    assert fit.angle_bias.lo < TRUE["angle_bias"] < fit.angle_bias.hi
    for e in (fit.speed_spread, fit.angle_spread):
        assert e.lo < e.value < e.hi


def test_the_intervals_cover_the_truth_about_as_often_as_they_say() -> None:
    covered = 0
    for seed in range(200):
        fit = fit_hand(*attempts(40, seed))
        covered += fit.speed_spread.lo < TRUE["speed"] < fit.speed_spread.hi
    assert 0.90 <= covered / 200 <= 0.99


def test_the_hand_is_kept_in_the_data_dir_and_played_as_me(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_dir() == tmp_path / "sliders"
    with pytest.raises(UserError, match="no measured hand"):
        parse_hand("me")
    fit = fit_hand(*attempts(40, seed=3))
    path = save_hand(fit)
    assert path == tmp_path / "sliders" / "hand.json"
    assert load_hand() == fit
    assert parse_hand("me") == fit.noise
    assert parse_hand("me").speed_rel == pytest.approx(fit.speed_spread.value)
    cpu = parse_computer("me")
    assert cpu.hand == fit.noise and cpu.hand_name == "me"
    assert "about as steady as" in fit.describe()
    path.write_text('{"kind": "something else"}')
    with pytest.raises(UserError, match="not a hand file"):
        load_hand()


def test_too_few_or_broken_attempts_are_refused() -> None:
    with pytest.raises(UserError, match="at least"):
        fit_hand([(1.0, 0.0)] * 3, [(1.0, 0.0)] * 3)
    with pytest.raises(UserError, match="positive"):
        fit_hand([(0.0, 0.0)] * 6, [(1.0, 0.0)] * 6)


def test_a_shot_is_told_as_the_hand_made_it() -> None:
    slid = Shot.from_degrees("south", 0.62, -2.0)
    assert slide_words("flick", slid, (0.0, 0.0)) == "your flick: 0.62 m/s, 2.0° left of your aim"
    words = slide_words("aim", slid, (0.6, -3.0))
    assert words == "your aim: 0.62 m/s, 3% harder than it needed, 1.0° right of your aim"
    assert slide_words("flick", slid, (0.62, -2.0)).endswith(
        "the speed it needed, straight on your aim"
    )
    assert slide_words("flick", slid, None) == "your flick: 0.62 m/s"


def test_each_drills_spread_is_kept_over_sessions(tmp_path) -> None:
    path = tmp_path / "spreads.json"
    assert kept_spreads(path) == [] and progress_words([]) == "no drill measured yet"
    first = Spread("centre-race-for-home", 5, 0.08, 2.1, "2026-01-01")
    assert keep_spread(first, path) == [first]
    assert progress_words([first]).endswith("(your first measured drill)")
    later = Spread("hole-instant-home", 5, 0.03, 0.9, "2026-02-01")
    kept = keep_spread(later, path)
    assert kept_spreads(path) == kept == [first, later]  # read back whole, oldest first
    words = progress_words(kept)
    assert words.startswith("your spread: speed 3.0%, angle 0.90°")
    assert "first drill speed 8.0%" in words and "(2 drills)" in words
    path.write_text('{"kind": "sorry-sliders-spreads", "spreads": [{"drill": 1}]}')
    with pytest.raises(UserError, match="not a spreads file"):
        kept_spreads(path)


def test_a_person_is_judged_with_their_handicap_else_their_measured_hand(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert person_noise("high") == NOISE_LEVELS["high"]
    assert person_noise("none") == NOISE_LEVELS["medium"]  # none measured yet (a fresh data dir)
    save_hand(fit_hand(*attempts(40, seed=3)))
    assert person_noise("none") == load_hand().noise  # the drills' numbers
    assert person_noise(None) == load_hand().noise

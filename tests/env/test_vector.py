"""The vector environment: made through Gymnasium's registry, its arrays' shapes, reproducible
from its seeds, each game played exactly as the single environment plays it, and Gymnasium's
next-step autoreset."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from sliders.core.errors import UserError  # noqa: E402
from sliders.env import SlidersEnv, SlidersVectorEnv  # noqa: E402
from sliders.env import observation as obs  # noqa: E402

STEPS = 6
"""with ``max_rounds=1`` a game of two seats is truncated at the agent's 4th shot: 6 steps
cross an end and its reset"""


def _actions(n: int, seed: int) -> list[np.ndarray]:
    """``STEPS`` batches of careful shots for ``n`` games (shots that stay on the board)."""
    rng = np.random.default_rng(seed)
    return [
        np.stack(
            [
                [rng.uniform(0.5, 0.75), rng.normal(0, 0.05), rng.uniform(-0.03, 0.03), 0.16]
                for _ in range(n)
            ]
        ).astype(np.float32)
        for _ in range(STEPS)
    ]


def _play(envs, seed, actions):
    out = [envs.reset(seed=seed)[0]]
    for a in actions:
        o, r, term, trunc, _ = envs.step(a)
        out.append((o, r, term, trunc))
    return out


GAMES = 3


@pytest.fixture(scope="module", params=["easy", "centre:medium"])
def played(request):
    """``GAMES`` games of the vector environment made by the registry against the table's
    computers (which search) or a bot with a hand (which does not), played ``STEPS`` steps:
    each step plays every game's shots side by side, solved together."""
    envs = gym.make_vec(
        "sliders/RaceForHome-v0", num_envs=GAMES, opponents=request.param, max_rounds=1
    )
    return envs, _play(envs, 11, _actions(GAMES, 1))


def test_make_vec_gives_the_vector_environment_with_the_single_spaces(played):
    envs, _ = played
    assert isinstance(envs, SlidersVectorEnv) and envs.num_envs == GAMES
    single = SlidersEnv(opponents="easy")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (GAMES, obs.SIZE)
    assert envs.action_space.shape == (GAMES, 4)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def test_reset_and_step_give_arrays_of_every_game(played):
    envs, steps = played
    first = steps[0]
    assert first.shape == (GAMES, obs.SIZE) and first.dtype == np.float32
    for o, r, term, trunc in steps[1:]:
        assert o.shape == (GAMES, obs.SIZE) and envs.observation_space.contains(o)
        assert r.shape == (GAMES,) and term.shape == (GAMES,) and trunc.shape == (GAMES,)
        assert term.dtype == np.bool_ and trunc.dtype == np.bool_


def test_the_same_seeds_give_bit_identical_games_and_other_seeds_do_not(played):
    envs, steps = played
    opponents = envs.envs[0].opponents["north"]
    again = _play(
        SlidersVectorEnv(GAMES, opponents=opponents, max_rounds=1), 11, _actions(GAMES, 1)[:2]
    )  # fmt: skip
    assert np.array_equal(again[0], steps[0])
    for (o, r, te, tr), (o2, r2, te2, tr2) in zip(again[1:], steps[1:3], strict=True):
        assert np.array_equal(o, o2) and np.array_equal(r, r2)
        assert np.array_equal(te, te2) and np.array_equal(tr, tr2)
    other = SlidersVectorEnv(GAMES, opponents=opponents, max_rounds=1).reset(seed=12)[0]
    assert not np.array_equal(other, steps[0])


def test_each_game_plays_as_the_single_environment_and_is_reset_the_next_step(played):
    """Game ``i`` of ``reset(seed=s)`` is the single environment reset with ``s + i``, the same
    actions given; at the step after its end (truncated at the round cap), the vector
    environment resets it: the next game's first observation, reward 0, not ended, as the
    single environment's ``reset()`` (no seed: its generator goes on) gives it."""
    envs, steps = played
    actions = _actions(GAMES, 1)
    for i in range(GAMES):
        env = SlidersEnv(opponents=envs.envs[0].opponents["north"], max_rounds=1)
        o, _ = env.reset(seed=11 + i)
        assert np.array_equal(steps[0][i], o)
        ended = False
        for a, (vo, vr, vterm, vtrunc) in zip(actions, steps[1:], strict=True):
            if ended:
                o, _ = env.reset()
                r, term, trunc = 0.0, False, False
            else:
                o, r, term, trunc, _ = env.step(a[i])
            assert np.array_equal(vo[i], o)
            assert (vr[i], vterm[i], vtrunc[i]) == (r, term, trunc)
            ended = term or trunc
        assert any(s[3][i] for s in steps[1:]), "the game reached its round cap"


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_a_wrong_number_of_games_is_refused_in_one_line(n):
    with pytest.raises(UserError) as info:
        SlidersVectorEnv(n, opponents="easy")
    assert "\n" not in str(info.value)


def test_a_wrong_setting_is_refused_once_in_one_line():
    with pytest.raises(UserError, match="reward"):
        SlidersVectorEnv(3, reward="points")
    with pytest.raises(UserError, match="window"):
        SlidersVectorEnv(2, opponents="easy", render_mode="human")

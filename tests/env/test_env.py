"""The Gymnasium and PettingZoo environments: the libraries' own checkers, reproducible resets,
whole games to their outcome, the observation's meaning, legal shots from any action, pictures."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    performance_benchmark,
    render_test,
    seed_test,
)

from sliders.core.errors import UserError  # noqa: E402
from sliders.core.outcome import FACES, PawnRest, Status  # noqa: E402
from sliders.env import ENV_IDS, SlidersEnv, observation, sliders_v0  # noqa: E402
from sliders.physics import PhysicsParams, Setup, start  # noqa: E402
from sliders.rules import new_game  # noqa: E402


def test_gymnasium_check_env_passes():
    check_env(SlidersEnv(opponents="easy"), skip_render_check=False)


def test_check_env_through_the_registry_with_its_render_modes(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = gym.make("sliders/InstantSorry-v0", opponents="easy", render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_check_env_on_another_layout_and_face():
    check_env(SlidersEnv("instant-home", "crazy-corner", opponents="easy"))


def test_every_face_is_registered_with_a_version():
    assert set(ENV_IDS.values()) == set(FACES)
    for name, face in ENV_IDS.items():
        assert name.startswith("sliders/") and name.endswith("-v0")
        env = gym.make(name, opponents="easy")
        assert env.unwrapped.face_name == face
        env.close()


def _trajectory(env, seed, steps):
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    out = [obs]
    for _ in range(steps):
        obs, reward, term, trunc, info = env.step(env.action_space.sample())
        out.append(np.append(obs, reward))
        if term or trunc:
            break
    return out


def test_reset_with_a_seed_reproduces_the_game_and_another_seed_does_not():
    a = _trajectory(SlidersEnv(opponents="easy"), 7, 6)
    b = _trajectory(SlidersEnv(opponents="easy"), 7, 6)
    c = _trajectory(SlidersEnv(opponents="easy"), 8, 6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=False))


def test_the_tournaments_bots_sit_as_opponents_reproducibly():
    """``centre``, ``greedy`` and ``race`` (with a hand) play the other seats; a seed
    reproduces their games, their hands' draws included."""
    check_env(SlidersEnv(opponents="centre"))
    env = SlidersEnv(
        seats=["south", "west", "north"], opponents={"west": "greedy:low", "north": "centre:high"}
    )
    a, b = _trajectory(env, 4, 3), _trajectory(env, 4, 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert env.game.turns.game.steps  # the bots slid
    with pytest.raises(UserError, match="opponent"):
        SlidersEnv(opponents="net:bob")
    with pytest.raises(UserError):
        SlidersEnv(opponents="centre:wobbly")


def test_a_random_agent_plays_a_whole_game_to_its_outcome():
    env = SlidersEnv(opponents="easy", max_rounds=100)
    env.reset(seed=3)
    rewards, done, steps = [], False, 0
    while not done:
        _, r, term, trunc, info = env.step(env.action_space.sample())
        rewards.append(r)
        done, steps = term or trunc, steps + 1
    assert term and not trunc
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == (1.0 if info["winner"] == "south" else -1.0)
    assert info["winner"] in ("south", "north")
    assert steps >= 4  # at least one round of four shots
    with pytest.raises(RuntimeError):
        env.step(env.action_space.sample())


def test_shaped_reward_telescopes_to_the_change_of_the_progress_lead():
    from sliders.ai.value import progress_lead

    env = SlidersEnv(opponents="easy", reward="shaped")
    env.reset(seed=5)
    start = progress_lead(env.game.state, "south")
    total = 0.0
    for _ in range(8):
        _, r, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
        total += r
    assert total != 0.0
    now = progress_lead(env.game.state, "south")
    assert total == pytest.approx((now - start) / 24.0)


def test_truncated_after_max_rounds():
    env = SlidersEnv(opponents="easy", max_rounds=1)
    env.reset(seed=1)
    for _ in range(4):
        _, _, term, trunc, info = env.step(env.action_space.sample())
    assert trunc and not term and info["round"] == 2


def test_an_action_on_a_taken_release_point_is_slid_beside_the_pawn():
    params = PhysicsParams.default()
    env = SlidersEnv(opponents="easy")
    layout = env.layout
    seat = layout.seat("south")
    x, y = seat.to_world(seat.foul, 0.0)
    state = new_game("race-for-home", ("south", "north"))
    from dataclasses import replace

    state = replace(state, table=(PawnRest("north-1", "north", x, y, Status.OWN_TRACK),))
    shot = observation.shot_of(np.array([0.6, 0.0, 0.0, seat.foul]), "south", state, layout, params)
    assert abs(shot.offset) >= 2 * params.pawn_radius
    # the physics accepts it
    start(Setup(layout, env.game.face, params), state.table, replace(shot, seed=1))


def test_the_observation_reads_from_the_observers_seat():
    env = SlidersEnv(opponents="easy")
    layout = env.layout
    state = new_game("race-for-home", ("south", "north"), boards={"north": [6, 3, 0, 0]})
    from dataclasses import replace

    # south-1 on the board 5 cm toward north, 2 cm to south's right (east)
    south_right = layout.seat("south").right
    fwd = layout.seat("south").forward
    x = 0.05 * fwd[0] + 0.02 * south_right[0]
    y = 0.05 * fwd[1] + 0.02 * south_right[1]
    pawn = PawnRest("south-1", "south", x, y, Status.ON_TARGET, 3)
    north = state.player("north")
    state = replace(
        state,
        table=(pawn,),
        players=(replace(state.player("south"), in_hand=state.player("south").in_hand[1:]), north),
    )
    mine = observation.encode(state, layout, "south")
    theirs = observation.encode(state, layout, "north")
    slot, at = observation.SLOT, 7
    assert mine[0] == 1 and mine[6] == 1  # playing, to move
    assert mine[5] == pytest.approx(0.75)  # three shots left
    assert list(mine[at : at + 6]) == pytest.approx([0, 1, 0, 0.02, 0.05, 0.5])
    assert list(mine[slot + 1 : slot + 5]) == pytest.approx([1, 0.5, 0, 0])  # north's board
    # north sees the same pawn from the other side: in the second slot, mirrored
    assert list(theirs[slot + at : slot + at + 6]) == pytest.approx([0, 1, 0, -0.02, -0.05, 0.5])
    assert list(theirs[1:5]) == pytest.approx([1, 0.5, 0, 0])
    assert observation.observation_space().contains(mine)
    assert mine[2 * slot] == 0 and mine[3 * slot] == 0  # empty slots


def test_rgb_array_is_a_picture_of_the_table():
    env = SlidersEnv(opponents="easy", render_mode="rgb_array")
    env.reset(seed=2)
    first = env.render()
    env.step(np.array([0.6, 0.0, 0.0, 0.16], dtype=np.float32))
    second = env.render()
    assert first.shape == (600, 600, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # not a blank frame
    assert not np.array_equal(first, second)  # the pawns moved


def test_human_mode_draws_in_a_window(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = SlidersEnv(opponents="easy", render_mode="human")
    env.metadata = {**env.metadata, "render_fps": 1000}
    env.reset(seed=2)
    env.step(env.action_space.sample())
    assert env._window._screen is not None  # opened on the first frame
    env.close()
    assert env._window._screen is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"reward": "points"},
        {"opponents": "grandmaster"},
        {"seat": "east"},
        {"render_mode": "ansi"},
        {"max_rounds": 0},
        {"opponents": {"west": "easy"}},
        {"engine": "warp"},
    ],
)
def test_bad_settings_are_refused_in_one_line(kwargs):
    with pytest.raises(UserError) as info:
        SlidersEnv(**kwargs)
    assert "\n" not in str(info.value)


def test_pettingzoo_api_test_passes_for_two_three_and_four_seats():
    api_test(sliders_v0.env(), num_cycles=60)
    api_test(sliders_v0.env(seats=["south", "west", "north"]), num_cycles=30)
    api_test(sliders_v0.env(seats=["south", "west", "north", "east"], face="danger-dots"), 30)


def test_pettingzoo_max_cycles_and_render_tests_pass(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    max_cycles_test(sliders_v0)
    render_test(sliders_v0.env)
    env = sliders_v0.parallel_env(seats=["south", "west", "north"], max_cycles=3)
    obs, _ = env.reset(seed=2)
    assert set(obs) == {"south", "west", "north"}
    steps = 0
    while env.agents:
        acts = {a: env.action_space(a).sample() for a in env.agents}
        *_, truncs, _ = env.step(acts)
        steps += 1
    assert steps == 3 and all(truncs.values())


@pytest.mark.slow
def test_pettingzoo_performance_benchmark_runs(capsys):
    performance_benchmark(sliders_v0.env())
    assert "turns per second" in capsys.readouterr().out


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: sliders_v0.env(), num_cycles=40)
    seed_test(lambda: sliders_v0.env(layout="head-to-head", face="instant-home"), num_cycles=20)


def test_pettingzoo_game_to_its_end_rewards_the_winner():
    """Two steady hands (random play rarely ends: most random shots fly off the board)."""
    env = sliders_v0.env(max_rounds=100)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(10_000):
        _, reward, term, trunc, info = env.last()
        totals[agent] += reward
        foul = env.action_space(agent).high[3]
        action = np.array(
            [rng.uniform(0.55, 0.7), rng.normal(0, 0.03), rng.uniform(-0.02, 0.02), foul],
            dtype=np.float32,
        )
        env.step(None if term or trunc else action)
    assert env.agents == []
    winner = env.unwrapped.game.winner
    assert winner in env.possible_agents
    assert totals == {a: (1.0 if a == winner else -1.0) for a in env.possible_agents}


def test_pettingzoo_one_seat_is_refused():
    with pytest.raises(UserError):
        sliders_v0.raw_env(layout="solo")


def test_import_sliders_does_not_load_the_rl_libraries():
    code = "import sys, sliders, sliders.game; print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pygame') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_raw_environment_checks_its_call_order_and_actions():
    raw = sliders_v0.raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(np.zeros(4, dtype=np.float32))
    raw.reset(seed=1)
    for bad in (np.zeros((2, 2)), np.zeros((4, 1)), np.array([None, 0, 0, 0]), [1j, 0, 0, 0]):
        with pytest.raises(ValueError, match="action"):
            raw.step(bad)
    raw.agents = []  # every seat done, as after a game's dead steps
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(None)


def test_params_play_and_are_recorded_in_the_game_log(tmp_path):
    """``params=`` (e.g. ``load_params`` of the file ``sliders calibrate fit`` writes) is the
    physics of every shot, in both environments, and the game's log records it."""
    from sliders.physics.params import load_params

    board = PhysicsParams.default().with_overrides(["mu_roll=0.08"])
    (tmp_path / "board.toml").write_text(board.to_toml())
    params = load_params(str(tmp_path / "board.toml"))
    env = SlidersEnv(params=params)
    env.reset(seed=2)
    env.step(np.array([0.6, 0.0, 0.0, 0.0], dtype=np.float32))
    assert env.game.params == board and env.game.turns.game.params == {"mu_roll": 0.08}
    multi = sliders_v0.env(params=params)
    multi.reset(seed=2)
    assert multi.game.params == board and multi.game.turns.game.params == {"mu_roll": 0.08}

"""Two agents through whole games of the Gymnasium environment: one slides at random, one is
the project's own computer player (medium) reading the game the environment exposes.

    python examples/env_random.py [--seed S] [--frame table.png]

Needs the ``rl`` extra (``pip install sorry-sliders[rl]``).
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import sliders.env  # noqa: F401  (registers sliders/RaceForHome-v0 and the other faces)
from sliders.ai import ComputerPlayer


def random_agent(env: gym.Env, obs: np.ndarray) -> np.ndarray:
    return env.action_space.sample()


def computer_agent(player: ComputerPlayer):
    """An agent that asks a computer player for its shot and turns it into an action."""

    def act(env: gym.Env, obs: np.ndarray) -> np.ndarray:
        game = env.unwrapped.game
        shot = player.choose_shot(game.state, game.layout, game.face, game.params)
        release = game.seat(player.seat).foul if shot.release is None else shot.release
        return np.array([shot.speed, shot.angle, shot.offset, release], dtype=np.float32)

    return act


def play(name: str, agent, seed: int, frame: str | None) -> None:
    env = gym.make("sliders/RaceForHome-v0", opponents="easy", render_mode="rgb_array")
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent(env, obs))
        total, steps, done = total + reward, steps + 1, terminated or truncated
    boards = ", ".join(f"{s} {list(b)}" for s, b in info["boards"].items())
    print(
        f"{name:<9} {steps:3d} shots, {info['round']:2d} rounds, winner {info['winner']}, "
        f"reward {total:+.0f}  ({boards})"
    )
    if frame:
        from matplotlib.image import imsave

        imsave(frame, env.render())
        print(f"last frame: {frame}")
    env.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--frame", help="save the last frame of the computer's game to this PNG")
    args = ap.parse_args()
    play("random", random_agent, args.seed, None)
    player = ComputerPlayer("south", "medium", seed=args.seed)
    play("computer", computer_agent(player), args.seed, args.frame)


if __name__ == "__main__":
    main()

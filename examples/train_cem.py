"""Train a tiny policy to beat the ``easy`` computer with the cross-entropy method.

    python examples/train_cem.py [--iterations 4] [--population 8] [--games 2] [--test 20]

The policy is one intended shot (speed, angle, offset) slid every turn, released on the foul
line. Each iteration draws a population of policies from a Gaussian, plays each for a few games
of Race for Home against ``easy`` (Gymnasium: ``sliders/RaceForHome-v0``), and refits the
Gaussian to the best quarter. At the end the learned policy and a random one (uniform actions)
play the same number of fresh games and their wins are printed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import sliders.env  # noqa: F401  (registers the environments)

Policy = Callable[[np.ndarray, gym.Env], np.ndarray]


def play(env: gym.Env, policy: Policy, seed: int) -> float:
    """One game: +1 if the agent won, 0 otherwise."""
    obs, _ = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, _ = env.step(policy(obs, env))
        if terminated or truncated:
            return float(reward > 0)


def fixed(shot: np.ndarray) -> Policy:
    def policy(obs: np.ndarray, env: gym.Env) -> np.ndarray:
        box = env.action_space
        return np.clip(np.array([*shot, box.high[3]], dtype=np.float32), box.low, box.high)

    return policy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--population", type=int, default=8)
    ap.add_argument("--games", type=int, default=2, help="games a policy plays in training")
    ap.add_argument("--test", type=int, default=20, help="fresh games for the final comparison")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env = gym.make("sliders/RaceForHome-v0", opponents="easy", max_rounds=15)
    rng = np.random.default_rng(args.seed)
    mean, std = np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.1, 0.02])  # m/s, rad, m
    seed = 1000
    for it in range(args.iterations):
        pop = mean + std * rng.standard_normal((args.population, 3))
        scores = []
        for shot in pop:
            scores.append(np.mean([play(env, fixed(shot), seed + g) for g in range(args.games)]))
        seed += args.games
        elite = pop[np.argsort(scores)[-max(2, args.population // 4) :]]
        mean, std = elite.mean(axis=0), elite.std(axis=0) + np.array([0.02, 0.005, 0.002])
        print(f"iteration {it + 1}: best {max(scores):.2f}, mean shot {np.round(mean, 3)}")

    def random_policy(obs: np.ndarray, e: gym.Env) -> np.ndarray:
        return e.action_space.sample()

    env.action_space.seed(args.seed)
    tests = range(10_000, 10_000 + args.test)
    learned = sum(play(env, fixed(mean), s) for s in tests)
    chance = sum(play(env, random_policy, s) for s in tests)
    print(f"against easy, {args.test} games each: learned {learned:.0f} wins, random {chance:.0f}")


if __name__ == "__main__":
    main()

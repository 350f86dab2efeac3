"""Environment steps per second, beside the physics alone on the same shots.

    python benchmarks/env.py [--steps N] [--seed S]

Runs the PettingZoo environment (every seat an agent with a steady hand: no computer search)
for N steps, then simulates again, with :func:`sliders.physics.simulate` alone, every shot those
steps slid on the table each met: the ratio is what the environment (rules, observation, legal
shots, logging) costs on top of the physics. Then the Gymnasium single-seat environment against
``easy`` and ``medium`` computers, whose steps include the opponents' shots and searches.
All measured in the same run, in processor time of this process (the machine may be shared:
wall time would count other work).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from sliders.env import SlidersEnv, sliders_v0
from sliders.physics import Setup, simulate


def steady(rng: np.random.Generator, foul: float) -> np.ndarray:
    """A player aiming at the middle of the board with a careful hand."""
    return np.array(
        [rng.uniform(0.5, 0.75), rng.normal(0, 0.05), rng.uniform(-0.03, 0.03), foul],
        dtype=np.float32,
    )


def pettingzoo_steps(n: int, seed: int) -> tuple[float, list[tuple[object, object, object]]]:
    """Steps per second of the AEC environment, and (table, shot, layout) of every shot slid."""
    env = sliders_v0.raw_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    slid: list[tuple[object, object, object]] = []
    done = 0
    elapsed = 0.0
    while done < n:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        table = env.game.state.table
        action = steady(rng, float(env.action_space(agent).high[3]))
        t0 = time.process_time()
        env.step(action)
        env.observe(env.agent_selection)
        elapsed += time.process_time() - t0
        shot = env.game.turns.shots[-1]
        slid.append((table, shot, env.game))
        done += 1
    return n / elapsed, slid


def physics_alone(slid: list[tuple[object, object, object]]) -> float:
    t0 = time.process_time()
    for i, (table, shot, game) in enumerate(slid):
        simulate(Setup(game.layout, game.face, game.params), table, replace(shot, seed=i))  # type: ignore[attr-defined]
    return len(slid) / (time.process_time() - t0)


def gymnasium_steps(n: int, seed: int, opponents: str) -> float:
    env = SlidersEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    foul = float(env.action_space.high[3])
    t0 = time.process_time()
    for _ in range(n):
        _, _, term, trunc, _ = env.step(steady(rng, foul))
        if term or trunc:
            env.reset(seed=int(rng.integers(2**31)))
    return n / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pz, slid = pettingzoo_steps(args.steps, args.seed)
    alone = physics_alone(slid)
    print(f"{'what':<48} {'steps/s':>9} {'vs physics':>10}")
    print(f"{'physics alone (simulate), the same shots':<48} {alone:9.1f} {1.0:10.2f}")
    print(f"{'PettingZoo AEC, 2 seats, one shot a step':<48} {pz:9.1f} {pz / alone:10.2f}")
    for level in ("easy", "medium"):
        k = max(args.steps // (4 if level == "easy" else 10), 10)
        gs = gymnasium_steps(k, args.seed, level)
        what = f"Gymnasium, 1 seat vs {level} (its shots included)"
        print(f"{what:<48} {gs:9.1f} {gs / alone:10.2f}")


if __name__ == "__main__":
    main()

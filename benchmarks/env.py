"""Environment steps per second, beside the physics of the same shots alone.

    python benchmarks/env.py [--steps N] [--seed S] [--games G]

Runs the PettingZoo environment (every seat an agent with a steady hand: no computer search)
for N steps (a step and the next agent's observation), then simulates again, with
:func:`sliders.physics.simulate` alone, every shot those steps slid, each on the table it met and
with its seed, in the order they were played: the ratio is what a step costs against its
physics (the rules, the game's log, the legal-shot check, the observation on top). Then the
Gymnasium single-seat environment against ``easy`` computers: its steps include the opponents'
shots and their searches, so the opponents' choosing (their shots' searches, their round-end
assignments and Instant Home choices, which weigh their chances of winning) is timed apart, and
the rest of a step set against the physics of every shot slid in it (the agent's and the
opponents'). Then the physics of one table's shots in one call of the batch path
(:func:`sliders.physics.simulate_many`), the most a vector environment that solved its games'
shots that way could save. Last, the vector environment (:class:`sliders.env.SlidersVectorEnv`,
G games a call, made by ``gymnasium.make_vec``) beside the single one, every game's step counted,
against ``easy`` computers (which search) and the ``centre`` bot (which does not). All in
processor time of this process (the machine may be shared: wall time would count other work).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from sliders.ai import ComputerPlayer
from sliders.core.outcome import Shot
from sliders.env import SlidersEnv, sliders_v0
from sliders.game import HeadlessGame
from sliders.physics import Setup, Shots, simulate, simulate_many
from sliders.physics.exact.world import world_for
from sliders.rules import ShotStep

Slid = tuple[Setup, tuple, Shot]
"""a shot as slid: the game's setup, the table it met, the shot with its pawn and seed"""


def steady(rng: np.random.Generator, foul: float) -> np.ndarray:
    """A player aiming at the middle of the board with a careful hand."""
    return np.array(
        [rng.uniform(0.5, 0.75), rng.normal(0, 0.05), rng.uniform(-0.03, 0.03), foul],
        dtype=np.float32,
    )


def shots_of(game: HeadlessGame, since: int) -> list[Slid]:
    """The shots ``game`` slid after its first ``since`` steps, with the table each met."""
    g = game.turns.game
    out: list[Slid] = []
    for step, before in zip(g.steps[since:], g.states[since:-1], strict=True):
        if isinstance(step, ShotStep) and step.slide is not None:
            out.append((game.turns.setup, before.table, step.slide))
    return out


def memory(game: HeadlessGame) -> dict[object, object]:
    """What the exact engine remembers of the rest positions and tables it has met in ``game``'s
    setup (:func:`sliders.physics.exact.world.world_for`), a copy: the physics replayed starts
    from it."""
    setup = game.turns.setup
    return dict(world_for(setup.layout, setup.face, setup.params).memo)


def pettingzoo(n: int, seed: int) -> tuple[float, list[Slid], dict[object, object]]:
    """Processor seconds of ``n`` AEC steps (each with the next agent's observation), the
    shots they slid, and the engine's memory before them."""
    env = sliders_v0.raw_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    before = memory(env.game)
    slid: list[Slid] = []
    done, elapsed = 0, 0.0
    while done < n:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        action = steady(rng, float(env.action_space(agent).high[3]))
        since = len(env.game.turns.game.steps)
        t0 = time.process_time()
        env.step(action)
        env.observe(env.agent_selection)
        elapsed += time.process_time() - t0
        slid += shots_of(env.game, since)
        done += 1
    return elapsed, slid, before


def gymnasium(
    n: int, seed: int, opponents: str
) -> tuple[float, float, list[Slid], dict[object, object]]:
    """Processor seconds of ``n`` single-seat steps, of them the opponents' choosing, every
    shot slid in them, and the engine's memory before them."""
    env = SlidersEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    before = memory(env.game)
    foul = float(env.action_space.high[3])
    choosing = [0.0]
    plain = HeadlessGame.computer_shot, ComputerPlayer.choose_assignment, ComputerPlayer.choose_home

    def timed(choose: Callable[..., Any]) -> Callable[..., Any]:
        def choosing_timed(*args: Any) -> Any:
            t0 = time.process_time()
            try:
                return choose(*args)
            finally:
                choosing[0] += time.process_time() - t0

        return choosing_timed

    HeadlessGame.computer_shot = timed(plain[0])  # type: ignore[method-assign]
    ComputerPlayer.choose_assignment = timed(plain[1])  # type: ignore[method-assign]
    ComputerPlayer.choose_home = timed(plain[2])  # type: ignore[method-assign]
    slid: list[Slid] = []
    elapsed = 0.0
    try:
        for _ in range(n):
            since = len(env.game.turns.game.steps)
            t0 = time.process_time()
            _, _, term, trunc, _ = env.step(steady(rng, foul))
            elapsed += time.process_time() - t0
            slid += shots_of(env.game, since)
            if term or trunc:
                env.reset(seed=int(rng.integers(2**31)))
    finally:
        HeadlessGame.computer_shot = plain[0]  # type: ignore[method-assign]
        ComputerPlayer.choose_assignment = plain[1]  # type: ignore[method-assign]
        ComputerPlayer.choose_home = plain[2]  # type: ignore[method-assign]
    return elapsed, choosing[0], slid, before


def single_rate(n: int, seed: int, opponents: str) -> float:
    """Steps per second (processor time) of the single environment against ``opponents``."""
    env = SlidersEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    foul = float(env.action_space.high[3])
    t0 = time.process_time()
    for _ in range(n):
        _, _, term, trunc, _ = env.step(steady(rng, foul))
        if term or trunc:
            env.reset()
    return n / (time.process_time() - t0)


def vector_rate(games: int, calls: int, seed: int, opponents: str) -> float:
    """Steps per second (processor time, every game's step counted) of the vector environment
    of ``games`` games against ``opponents``, made by Gymnasium's ``make_vec``."""
    envs = gym.make_vec("sliders/RaceForHome-v0", num_envs=games, opponents=opponents)
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    foul = float(envs.single_action_space.high[3])
    t0 = time.process_time()
    for _ in range(calls):
        envs.step(np.stack([steady(rng, foul) for _ in range(games)]))
    elapsed = time.process_time() - t0
    envs.close()
    return games * calls / elapsed


def physics(slid: list[Slid], before: dict[object, object]) -> float:
    """Processor seconds :func:`simulate` takes for ``slid``, one shot at a time, in the order
    they were played. The exact engine remembers the rest statuses of the positions it has
    classified and the tables it has checked: its memory is set back to what it held
    (``before``) when the shots were first played, so that they meet it as they did then (a pawn
    that did not move is known, a new position is not), not knowing every position already."""
    for setup in {id(s): s for s, _, _ in slid}.values():
        if setup.engine == "exact":
            memo = world_for(setup.layout, setup.face, setup.params).memo
            memo.clear()
            memo.update(before)
    t0 = time.process_time()
    for setup, table, shot in slid:
        simulate(setup, table, shot)
    return time.process_time() - t0


def batch(slid: list[Slid], per_call: int, seed: int) -> float:
    """Processor seconds a shot of ``slid`` costs in the batch path, ``per_call`` shots of its
    table (its shot and small variations of it) in one :func:`simulate_many` call."""
    rng = np.random.default_rng(seed)
    t0 = time.process_time()
    for setup, table, shot in slid:
        angle = shot.angle + rng.normal(0.0, 0.01, per_call)
        shots = Shots(
            shot.seat,
            np.full(per_call, shot.speed),
            np.clip(angle, -1.5, 1.5),
            np.full(per_call, shot.offset),
            None if shot.release is None else np.full(per_call, shot.release),
            seeds=np.arange(per_call),
            pawn=shot.pawn,
            refuse=False,
        )
        simulate_many(setup, table, shots)
    return (time.process_time() - t0) / (len(slid) * per_call)


def row(what: str, steps_s: float, step_us: float, physics_us: float) -> None:
    print(
        f"{what:<52} {steps_s:9.1f} {step_us:9.0f} {physics_us:10.0f} {step_us / physics_us:7.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=64, help="games of the vector environment")
    args = ap.parse_args()
    n = args.steps
    pz, slid, before = pettingzoo(n, args.seed)
    pz_physics = physics(slid, before)
    k = max(n // 40, 10)
    gym_all, gym_choosing, gym_slid, before = gymnasium(k, args.seed, "easy")
    gym_physics = physics(gym_slid, before)
    c_all, _, c_slid, before = gymnasium(n // 4, args.seed, "centre")
    c_physics = physics(c_slid, before)
    per_shot = batch(slid[:200], 64, args.seed)
    print(f"{'what':<52} {'steps/s':>9} {'µs/step':>9} {'physics µs':>10} {'ratio':>7}")
    row("PettingZoo AEC, 2 seats, one shot a step", n / pz, pz / n * 1e6, pz_physics / n * 1e6)
    row(
        "Gymnasium, 1 seat vs easy, all of a step",
        k / gym_all, gym_all / k * 1e6, gym_physics / k * 1e6,
    )  # fmt: skip
    rest = gym_all - gym_choosing
    row("Gymnasium, 1 seat vs easy, but the opponents' choosing", k / rest, rest / k * 1e6,
        gym_physics / k * 1e6)  # fmt: skip
    m = n // 4
    row("Gymnasium, 1 seat vs centre (no search), all", m / c_all, c_all / m * 1e6,
        c_physics / m * 1e6)  # fmt: skip
    print(
        f"shots a Gymnasium step: {len(gym_slid) / k:.2f}; the opponents' choosing: "
        f"{gym_choosing / k * 1e3:.1f} ms a step"
    )
    single = pz_physics / len(slid)
    print(
        f"physics a shot: simulate {single * 1e6:.0f} µs; batch path, 64 shots of one table a "
        f"call, {per_shot * 1e6:.1f} µs"
    )
    step = pz / n
    print(
        "a PettingZoo step with its shot solved by the batch path instead: at most "
        f"{step / (step - single + per_shot):.2f}x the steps per second"
    )
    print(f"\n{'steps per second, every game counted':<52} {'steps/s':>9} {'x single':>9}")
    for opponents, k_single, calls in (
        ("easy", k, max(n // 1000, 2)),
        ("centre", n // 4, n // 100),
    ):
        one = single_rate(k_single, args.seed, opponents)
        many = vector_rate(args.games, calls, args.seed, opponents)
        print(f"{'Gymnasium, 1 seat vs ' + opponents:<52} {one:9.1f} {1.0:9.2f}")
        print(f"{f'vector, {args.games} games vs ' + opponents:<52} {many:9.1f} {many / one:9.2f}")


if __name__ == "__main__":
    main()

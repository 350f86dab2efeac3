"""Environment steps per second, beside the physics of the same shots alone.

    python benchmarks/env.py [--steps N] [--seed S] [--games G] [--vector]

Runs the PettingZoo environment (every seat an agent with a steady hand: no computer search)
for N steps (a step and the next agent's observation), and after each step simulates again,
with :func:`sliders.physics.simulate` alone, the shot it slid, on the table it met and with its
seed (:class:`Physics`): the ratio is what a step costs against its
physics (the rules, the game's log, the legal-shot check, the observation on top). Then the
Gymnasium single-seat environment against ``easy`` computers: its steps include the opponents'
shots and their searches, so the opponents' choosing (their shots' searches, their round-end
assignments and Instant Home choices, which weigh their chances of winning) is timed apart, and
the rest of a step set against the physics of every shot slid in it (the agent's and the
opponents'). Then the physics of one table's shots in one call of the batch path
(:func:`sliders.physics.simulate_many`).

Last (alone with ``--vector``), the vector environment (:class:`sliders.env.SlidersVectorEnv`,
G games a call, made by ``gymnasium.make_vec``, their shots in flight solved together) beside
its games played one at a time, each in its own single environment (the same seeds and actions:
the same work), every game's step counted, against ``easy`` computers (which search) and the
``centre`` bot (which does not), each pair measured twice in turn: steps per second, the ratio
to the single environments measured just before, the share of the time in the opponents'
choosing, in the calls that solve the games' shots together, and the ratio the vector
environment would reach were those calls free. All in processor time of this process (the
machine may be shared: wall time would count other work).
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from sliders.ai import ComputerPlayer
from sliders.core.outcome import Shot
from sliders.env import SlidersEnv, sliders_v0
from sliders.game import HeadlessGame, headless
from sliders.physics import Setup, Shots, simulate, simulate_many
from sliders.physics.exact.world import world_for
from sliders.rules import ShotStep
from sliders.tournament.players import CentreBot, GreedyPlayer

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


class Physics:
    """The physics of the shots the steps slid, each step's shots simulated again alone right
    after it (so that other work on a shared machine weighs on both alike), one at a time
    through :func:`simulate`, each on the table it met and with its seed. The exact engine
    remembers the rest statuses of the positions it has classified and the tables it has
    checked: what the step added to that memory is taken out first, so that the shots meet it
    as the step did (a pawn that did not move is known, a new position is not)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.slid: list[Slid] = []

    @staticmethod
    def memo(game: HeadlessGame) -> dict[object, object]:
        setup = game.turns.setup
        return world_for(setup.layout, setup.face, setup.params).memo

    def mark(self, game: HeadlessGame) -> tuple[int, int]:
        """Where ``game`` stands before a step: its log's length, the engine's memory's."""
        return len(game.turns.game.steps), len(self.memo(game))

    def replay(self, game: HeadlessGame, mark: tuple[int, int]) -> None:
        """Simulate again the shots ``game`` slid since ``mark``."""
        since, known = mark
        shots = shots_of(game, since)
        memo = self.memo(game)
        if game.turns.setup.engine == "exact" and len(memo) >= known:
            for key in list(itertools.islice(reversed(memo), len(memo) - known)):
                del memo[key]
        t0 = time.process_time()
        for setup, table, shot in shots:
            simulate(setup, table, shot)
        self.seconds += time.process_time() - t0
        self.slid += shots


def pettingzoo(n: int, seed: int) -> tuple[float, Physics]:
    """Processor seconds of ``n`` AEC steps (each with the next agent's observation), and the
    physics of the shots they slid."""
    env = sliders_v0.raw_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    physics = Physics()
    done, elapsed = 0, 0.0
    while done < n:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        action = steady(rng, float(env.action_space(agent).high[3]))
        mark = physics.mark(env.game)
        t0 = time.process_time()
        env.step(action)
        env.observe(env.agent_selection)
        elapsed += time.process_time() - t0
        physics.replay(env.game, mark)
        done += 1
    return elapsed, physics


class Timed:
    """Processor seconds spent in some functions, each patched in place while ``with`` lasts:
    ``Timed((owner, name), ...)`` times ``owner.name`` (calls within calls counted once)."""

    def __init__(self, *where: tuple[Any, str]) -> None:
        self.where = where
        self.seconds = 0.0
        self._plain: list[Callable[..., Any]] = []
        self._depth = 0

    def __enter__(self) -> Timed:
        for owner, name in self.where:
            plain = getattr(owner, name)
            self._plain.append(plain)
            setattr(owner, name, self._timed(plain))
        return self

    def __exit__(self, *_: object) -> None:
        for (owner, name), plain in zip(self.where, self._plain, strict=True):
            setattr(owner, name, plain)

    def _timed(self, plain: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            t0 = time.process_time()
            try:
                return plain(*args, **kwargs)
            finally:
                self._depth -= 1
                if not self._depth:
                    self.seconds += time.process_time() - t0

        return timed


def choosing() -> Timed:
    """The opponents' choosing: their shots' searches, their round-end assignments and Instant
    Home choices (the table's computers), and the bots' shots and assignments."""
    return Timed(
        (HeadlessGame, "computer_shot"),
        (ComputerPlayer, "choose_assignment"),
        (ComputerPlayer, "choose_home"),
        *((bot, "choose_shot") for bot in (CentreBot, GreedyPlayer)),
    )


def gymnasium(n: int, seed: int, opponents: str) -> tuple[float, float, Physics]:
    """Processor seconds of ``n`` single-seat steps, of them the opponents' choosing, and the
    physics of every shot slid in them."""
    env = SlidersEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    physics = Physics()
    foul = float(env.action_space.high[3])
    elapsed = 0.0
    with choosing() as chose:
        for _ in range(n):
            mark = physics.mark(env.game)
            t0 = time.process_time()
            _, _, term, trunc, _ = env.step(steady(rng, foul))
            elapsed += time.process_time() - t0
            physics.replay(env.game, mark)
            if term or trunc:
                env.reset(seed=int(rng.integers(2**31)))
    return elapsed, chose.seconds, physics


def singles_rate(
    games: int, actions: list[np.ndarray], seed: int, opponents: str
) -> tuple[float, float]:
    """Steps per second (processor time) of the vector environment's games played one at a
    time, each in its own single environment (game ``i`` seeded ``seed + i``, given the same
    actions, reset at the step after its end as the vector environment resets it): the same
    games, the same work; and the share of the time in the opponents' choosing."""
    envs = [SlidersEnv(opponents=opponents) for _ in range(games)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    ended = [False] * games
    with choosing() as chose:
        t0 = time.process_time()
        for batch_of in actions:
            for i, env in enumerate(envs):
                if ended[i]:
                    env.reset()
                    ended[i] = False
                else:
                    _, _, term, trunc, _ = env.step(batch_of[i])
                    ended[i] = term or trunc
        elapsed = time.process_time() - t0
    return games * len(actions) / elapsed, chose.seconds / elapsed


def vector_rate(
    games: int, actions: list[np.ndarray], seed: int, opponents: str
) -> tuple[float, float, float]:
    """Steps per second (processor time, every game's step counted) of the vector environment
    of ``games`` games against ``opponents``, made by Gymnasium's ``make_vec``, given
    ``actions``; the shares of its time in the opponents' choosing and in the calls that solve
    the games' shots together (:func:`sliders.physics.run_all`, as the games' plays reach it)."""
    envs = gym.make_vec("sliders/RaceForHome-v0", num_envs=games, opponents=opponents)
    envs.reset(seed=seed)
    with choosing() as chose, Timed((headless, "run_all")) as solving:
        t0 = time.process_time()
        for a in actions:
            envs.step(a)
        elapsed = time.process_time() - t0
    envs.close()
    return games * len(actions) / elapsed, chose.seconds / elapsed, solving.seconds / elapsed


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
    ap.add_argument(
        "--vector", action="store_true", help="the vector environment beside the single one only"
    )
    args = ap.parse_args()
    n = args.steps
    k = max(n // 40, 10)
    if args.vector:
        vectors(args.games, n, args.seed)
        return
    pz, pz_run = pettingzoo(n, args.seed)
    pz_physics, slid = pz_run.seconds, pz_run.slid
    gym_all, gym_choosing, gym_run = gymnasium(k, args.seed, "easy")
    gym_physics, gym_slid = gym_run.seconds, gym_run.slid
    c_all, _, c_run = gymnasium(n // 4, args.seed, "centre")
    c_physics = c_run.seconds
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
    vectors(args.games, n, args.seed)


def vectors(games: int, n: int, seed: int) -> None:
    """The vector environment beside its games played one at a time in single environments
    (the same seeds and actions: the same work), each measured twice in turn (singles, vector,
    singles, vector: a cache either warms serves both), against each kind of opponent; the
    shares of a step in the opponents' choosing and in the calls that solve the games' shots
    together, and what the vector environment would reach were those calls free."""
    print(
        f"\n{'steps per second, every game counted':<44} {'steps/s':>9} {'x single':>9} "
        f"{'choosing':>9} {'solving':>8} {'at most':>8}"
    )
    rng = np.random.default_rng(seed)
    foul = float(SlidersEnv().action_space.high[3])
    for opponents, calls in (("easy", max(n // 300, 2)), ("centre", max(n // 20, 2))):
        actions = [np.stack([steady(rng, foul) for _ in range(games)]) for _ in range(calls)]
        for _ in range(2):
            one, one_choosing = singles_rate(games, actions, seed, opponents)
            many, many_choosing, solving = vector_rate(games, actions, seed, opponents)
            print(
                f"{f'{games} single envs, one at a time, vs ' + opponents:<44} {one:9.1f} "
                f"{1.0:9.2f} {one_choosing:9.0%}"
            )
            print(
                f"{f'vector, {games} games vs ' + opponents:<44} {many:9.1f} {many / one:9.2f} "
                f"{many_choosing:9.0%} {solving:8.0%} {many / one / (1 - solving):8.2f}"
            )


if __name__ == "__main__":
    main()

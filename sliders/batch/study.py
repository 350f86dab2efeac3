"""What a batch study simulates: a table, a seat, a set of intended shots, a noise model, a seed.

A :class:`Design` is the set of intended shots: a full grid over any of speed (m/s), angle
(degrees right of straight), offset (m right of the lane's axis) and release (m from the lane's near
end), or ``n`` shots drawn uniformly within ranges. A :class:`Study` pairs a design with a
:class:`Context`, the small hashable record a worker needs to simulate any slice of the study.

Randomness is keyed by intended shot, never by worker or chunk: the errors of the samples of intended
shot ``i`` come from ``SeedSequence(seed, spawn_key=(0, i))`` and their physics seeds from
``SeedSequence(seed, spawn_key=(1, i))``; a random design is drawn from ``spawn_key=(2, 0)``. So the
table is the same whatever the runner, the number of workers or the chunk size.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, localcontext

import numpy as np

from sliders.ai.value import GameSpot
from sliders.boards import Face, Layout
from sliders.core.errors import UserError
from sliders.core.outcome import SEATS
from sliders.files.scenes import Scene, ScenePawn
from sliders.physics import (
    Noise,
    PhysicsParams,
    Setup,
    Shot,
    check_engine,
    check_shot,
    engine_version,
    shot_limits,
)

PARAMETERS: tuple[str, ...] = ("speed", "angle", "offset", "release")
"""The four parameters of a shot, in the column order of :attr:`Design.shots`."""

UNITS: dict[str, str] = {"speed": "m/s", "angle": "°", "offset": "m", "release": "m"}

MAX_SHOTS = 10_000_000
"""The most simulated shots one study holds: its table is kept in memory (some 150 bytes a shot)."""

# spawn-key streams
NOISE_STREAM, SEED_STREAM, DESIGN_STREAM, PAIRED_STREAM = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Spec:
    """What the user asked for one parameter: fixed values (a list) or a range with steps.

    ``steps`` is None for a bare range ``lo:hi`` (only meaningful with a random design).
    """

    name: str
    lo: float
    hi: float
    steps: int | None = None
    values: tuple[float, ...] | None = None

    @property
    def fixed(self) -> bool:
        return self.values is not None and len(self.values) == 1

    def grid_values(self) -> np.ndarray:
        if self.values is not None:
            return np.array(self.values, dtype=float)
        if self.steps is None:
            raise UserError(
                f"--{self.name} {self.lo:g}:{self.hi:g} has no number of steps "
                f"(give {self.lo:g}:{self.hi:g}:N, or use --random)"
            )
        return decimal_steps(self.lo, self.hi, self.steps)


def decimal_steps(lo: float, hi: float, steps: int) -> np.ndarray:
    """``steps`` values from ``lo`` to ``hi`` computed in decimal from the numbers as written,
    each then rounded once to the nearest float: 0.5:0.7:5 gives 0.55 and 0.6 exactly as a user
    types them (linspace gives 0.6000000000000001)."""
    if steps == 1:
        return np.array([lo], dtype=float)
    a, b = Decimal(repr(lo)), Decimal(repr(hi))
    with localcontext() as c:
        c.prec = 50
        return np.array([float(a + (b - a) * i / (steps - 1)) for i in range(steps)])


def parse_spec(name: str, text: str) -> Spec:
    """Parse ``"0.6"``, ``"0.4,0.6,0.8"``, ``"lo:hi:n"`` or ``"lo:hi"`` for parameter ``name``."""
    flag = f"--{name} {text!r}"
    text = text.strip()
    if ":" in text:
        parts = text.split(":")
        if len(parts) not in (2, 3):
            raise UserError(f"{flag}: expected LO:HI:STEPS, LO:HI, a value or a list a,b,c")
        lo, hi = (_number(flag, p) for p in parts[:2])
        steps = None
        if len(parts) == 3:
            try:
                steps = int(parts[2])
            except ValueError:
                raise UserError(f"{flag}: steps {parts[2]!r} is not a whole number") from None
            if steps < 1:
                raise UserError(f"{flag}: {steps} steps (need at least 1)")
            if steps == 1 and lo != hi:
                raise UserError(f"{flag}: one step from {lo:g} to {hi:g} (give a single value)")
        if hi < lo:
            raise UserError(f"{flag}: the range runs backwards ({lo:g} > {hi:g})")
        return Spec(name, lo, hi, steps)
    values = tuple(_number(flag, p) for p in text.split(","))
    return Spec(name, min(values), max(values), len(values), values)


def _shown(s: Spec) -> str:
    if s.values is not None:
        return ",".join(f"{v:g}" for v in s.values)
    return f"{s.lo:g}:{s.hi:g}" + (f":{s.steps}" if s.steps else "")


def _number(flag: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"{flag}: {text.strip()!r} is not a number") from None
    if not math.isfinite(value):
        raise UserError(f"{flag}: {text.strip()!r} is not a finite number")
    return value


@dataclass(frozen=True)
class Design:
    """The intended shots: ``shots`` has one row (speed, angle°, offset, release) per shot.

    A grid keeps its ``axes`` (the values of each parameter, in :data:`PARAMETERS` order) so that
    intended shot ``i`` is at ``np.unravel_index(i, shape)``; a random design has no axes.
    ``release`` NaN means on the foul line.
    """

    shots: np.ndarray
    axes: Mapping[str, np.ndarray] | None = None
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def grid(cls, **specs: Spec | str | float | tuple[float, float, int] | None) -> Design:
        """A full grid: each parameter a :class:`Spec`, a spec string, a value or (lo, hi, n)."""
        parsed = _specs(specs)
        _check_size(math.prod(parsed[n].steps or 1 for n in PARAMETERS), "intended shots")
        axes = {name: parsed[name].grid_values() for name in PARAMETERS}
        mesh = np.meshgrid(*(axes[n] for n in PARAMETERS), indexing="ij")
        shots = np.stack([m.ravel() for m in mesh], axis=1)
        ranges = {n: (float(axes[n].min()), float(axes[n].max())) for n in PARAMETERS}
        return cls(shots, axes, ranges)

    @classmethod
    def random(
        cls, n: int, seed: int, **specs: Spec | str | float | tuple[float, float] | None
    ) -> Design:
        """``n`` shots drawn uniformly within the ranges (fixed values stay fixed)."""
        if n < 1:
            raise UserError(f"--random {n}: need at least one shot")
        _check_size(n, "intended shots")
        parsed = _specs(specs)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(DESIGN_STREAM, 0)))
        cols = []
        for name in PARAMETERS:
            s = parsed[name]
            if (s.values is not None and len(s.values) > 1) or (s.values is None and s.steps):
                raise UserError(
                    f"--{name} {_shown(s)}: with --random give a range LO:HI or one value "
                    "(the shots are drawn within it, not on steps)"
                )
            cols.append(rng.uniform(s.lo, s.hi, n) if s.lo < s.hi else np.full(n, s.lo))
        ranges = {name: (parsed[name].lo, parsed[name].hi) for name in PARAMETERS}
        return cls(np.stack(cols, axis=1), None, ranges)

    def __len__(self) -> int:
        return len(self.shots)

    @property
    def shape(self) -> tuple[int, ...] | None:
        return None if self.axes is None else tuple(len(self.axes[n]) for n in PARAMETERS)

    @property
    def swept(self) -> tuple[str, ...]:
        """The parameters that take more than one value."""
        return tuple(n for n in PARAMETERS if self.ranges[n][0] < self.ranges[n][1])


def _specs(specs: Mapping[str, Spec | str | float | tuple | None]) -> dict[str, Spec]:
    unknown = set(specs) - set(PARAMETERS)
    if unknown:
        raise TypeError(f"unknown shot parameters: {', '.join(sorted(unknown))}")
    defaults = {"speed": None, "angle": 0.0, "offset": 0.0, "release": math.nan}
    out = {}
    for name in PARAMETERS:
        s = specs.get(name, defaults[name])
        if s is None:
            raise UserError(f"--{name} is required")
        if isinstance(s, Spec):
            out[name] = s
        elif isinstance(s, str):
            out[name] = parse_spec(name, s)
        elif isinstance(s, tuple):
            lo, hi, *steps = s
            out[name] = Spec(name, float(lo), float(hi), int(steps[0]) if steps else None)
            if steps and int(steps[0]) < 1:
                raise UserError(f"--{name}: {steps[0]} steps (need at least 1)")
        else:
            out[name] = Spec(name, float(s), float(s), 1, (float(s),))
    return out


@dataclass(frozen=True, slots=True)
class Context:
    """Everything a worker needs besides its slice of intended shots. Hashable, so a worker builds
    the layout, face and table once per study."""

    scene: Scene
    seat: str
    pawn: str | None
    samples: int
    noise: Noise
    params: PhysicsParams
    seed: int
    engine: str = "pymunk"
    spot: GameSpot = GameSpot()
    common_random: bool = False
    paired: bool = False

    def stream(self, stream: int, intended: int) -> np.random.SeedSequence:
        """The seed sequence of one stream of one intended shot: keyed by the shooting seat too,
        so studies from different seats draw independently, unless ``common_random`` (then every
        seat with the same seed draws the same errors: common random numbers). ``paired`` gives
        every intended shot the same draws (sample j of each alike: paired comparisons, for the
        benchmark of ``sliders best``, benchmarks/best.py), from streams of their own."""
        key: tuple[int, ...] = (PAIRED_STREAM, stream) if self.paired else (stream, intended)
        if not self.common_random:
            key = (*key, _seat_key(self.seat))
        return np.random.SeedSequence(self.seed, spawn_key=key)

    def build(self) -> tuple[Layout, Face]:
        return self.scene.build()

    def setup(self) -> Setup:
        """What the study's shots are simulated in: the scene's layout and face, the
        parameters, the engine."""
        return Setup(*self.scene.build(), self.params, self.engine)


@dataclass(frozen=True)
class Study:
    """A design of intended shots on a table, ``samples`` noisy executions each."""

    context: Context
    design: Design

    @classmethod
    def create(
        cls,
        scene: Scene,
        seat: str,
        design: Design,
        samples: int = 1,
        noise: Noise | None = None,
        params: PhysicsParams | None = None,
        seed: int = 0,
        pawn: str | None = None,
        engine: str | None = None,
        *,
        spot: GameSpot | None = None,
        common_random: bool = False,
    ) -> Study:
        """Check everything a user can get wrong and resolve the release to a distance."""

        params = params or PhysicsParams.default()
        noise = noise or Noise()
        noise.check()
        if samples < 1:
            raise UserError(f"--samples {samples}: need at least one sample per shot")
        if not 0 <= seed < 2**63:
            raise UserError(f"--seed {seed}: must be within 0..2^63-1")
        _check_size(
            len(design) * samples, f"shots ({len(design):,} intended × {samples:,} samples)"
        )
        layout, face = scene.build()
        if seat not in scene.seats:
            raise UserError(f"seat {seat!r} is not in play (seats: {', '.join(scene.seats)})")
        seat_rec = layout.seat(seat)
        shots = design.shots.copy()
        shots[np.isnan(shots[:, 3]), 3] = seat_rec.foul
        design = Design(shots, design.axes, _resolved_ranges(design, seat_rec.foul))
        if design.axes is not None:
            axes = dict(design.axes)
            if np.isnan(axes["release"]).any():
                axes["release"] = np.full(1, seat_rec.foul)
            design = Design(shots, axes, design.ranges)
        spot = spot or GameSpot()
        for s, _ in spot.boards:
            if s not in scene.seats:
                raise UserError(f"a score board is given for {s}, who is not in play")
        ctx = Context(
            scene,
            seat,
            pawn,
            samples,
            noise,
            params,
            seed,
            check_engine(engine),
            spot=spot,
            common_random=common_random,
        )
        study = cls(ctx, design)
        study.check()
        return study

    @property
    def n_intended(self) -> int:
        return len(self.design)

    @property
    def n_shots(self) -> int:
        return len(self.design) * self.context.samples

    def check(self) -> None:
        """Raise UserError for an intended shot no hand can make or a table the physics refuses.

        Each parameter's range is checked with the flag's name; then a simulation is set up (not
        run) at every corner of the ranges, which applies the physics' own checks: pawns on the
        table, overlaps, a pawn left in hand, the release point on the seat's lane.
        """

        ctx = self.context
        setup = ctx.setup()
        shot_limits(setup.layout, ctx.seat, ctx.params).check_ranges(self.design.ranges)
        for corner in _corners(self.design):
            shot = Shot.from_degrees(
                ctx.seat, corner[0], corner[1], offset=corner[2], release=corner[3], pawn=ctx.pawn
            )
            try:
                check_shot(setup, ctx.scene.pawns, shot)
            except UserError as exc:
                speed, angle, offset, release = corner
                raise UserError(
                    f"the intended shot at speed {speed:g} m/s, angle {angle:g}°, offset "
                    f"{offset:g} m, release {release:g} m: {exc}"
                ) from None

    def slice(self, start: int, stop: int) -> np.ndarray:
        """The intended shots that simulated shots ``start..stop-1`` belong to."""
        k = self.context.samples
        return self.design.shots[start // k : (stop - 1) // k + 1]

    def describe(self) -> dict[str, object]:
        """A JSON-ready record of the study (stored with every table written)."""

        ctx = self.context
        return {
            "scene": ctx.scene.to_json(),
            "seat": ctx.seat,
            "pawn": ctx.pawn,
            "samples": ctx.samples,
            "noise": {
                "speed_rel": ctx.noise.speed_rel,
                "angle_deg": ctx.noise.angle_deg,
                "offset": ctx.noise.offset,
                "release": ctx.noise.release,
            },
            "params": ctx.params.to_json(),
            "engine": ctx.engine,
            "sliders_version": engine_version(ctx.engine),
            "seed": ctx.seed,
            "intended": len(self.design),
            "design": "grid" if self.design.axes is not None else "random",
            "ranges": {n: list(v) for n, v in self.design.ranges.items()},
            "axes": None
            if self.design.axes is None
            else {n: [float(v) for v in self.design.axes[n]] for n in PARAMETERS},
            "score_boards": ctx.spot.to_json(),
            "seeding": "common random numbers (every seat draws alike)"
            if ctx.common_random
            else "keyed by seat and intended shot",
            "common_random": ctx.common_random,
        }


def _seat_key(seat: str) -> int:
    return 1 + SEATS.index(seat) if seat in SEATS else 1 + len(SEATS) + sum(map(ord, seat))


def _check_size(n: int, what: str) -> None:
    if n > MAX_SHOTS:
        raise UserError(
            f"{n:,} {what} are more than one study holds (at most {MAX_SHOTS:,}, kept in memory); "
            "take fewer steps or samples, or split the study"
        )


def _resolved_ranges(design: Design, foul: float) -> dict[str, tuple[float, float]]:
    out = dict(design.ranges)
    lo, hi = out["release"]
    out["release"] = (foul if math.isnan(lo) else lo, foul if math.isnan(hi) else hi)
    return out


def _corners(design: Design) -> list[tuple[float, float, float, float]]:
    """Every corner of the box the design spans (duplicates removed)."""
    lists = [sorted(set(design.ranges[n])) for n in PARAMETERS]
    corners = [()]  # type: list[tuple[float, ...]]
    for values in lists:
        corners = [(*c, v) for c in corners for v in values]
    return corners  # type: ignore[return-value]


def empty_scene(
    layout: str = "square",
    seats: tuple[str, ...] = ("south", "north"),
    face: str = "race-for-home",
    pawns: tuple[ScenePawn, ...] = (),
) -> Scene:
    """The start of a round: nothing on the table yet."""
    return Scene(layout, seats, face, pawns)

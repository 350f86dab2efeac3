"""The search for the best shot: the intended shot worth most on average under execution noise.

The method is **successive halving with paired samples, then local refinement**:

1. A coarse grid of intended shots over the search box (speed × angle × offset × release) gets a
   few noisy samples each. Sample ``j`` of every candidate draws the *same* execution errors and
   physics seed (paired, or common random numbers), so two candidates are compared on the same
   hands and the noise common to both cancels from their difference.
2. Each round keeps the best third by mean value and gives the survivors more samples, until a
   handful remain: most simulations go to the shots that matter.
3. Around the survivors a finer grid (half the coarse step, then a quarter) is sampled and halved
   the same way, so the answer is not confined to the coarse grid.
4. The winner, and the best candidate of each other kind (draw, takeout, guard), are sampled
   again with fresh draws never used to choose them: their expected values and intervals are
   free of the winner's curse (the upward bias of the maximum of noisy means).

Why this and not the alternatives: the value surface is a step function of the outcome (a ring
boundary, the hole's rim, a hit or a miss) blurred by the noise, with narrow ridges; CMA-ES
needs many generations of samples to adapt on such a surface, and kernel regression over nearby
shots needs a bandwidth choice per scene and noise level. Halving over a grid is robust on
plateaus and ridges, its cost is fixed in advance, and pairing makes its comparisons cheap. The
benchmark (``benchmarks/best.py``) measures it against a dense grid.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from sliders.batch.study import PARAMETERS, Context, Design, Spec, Study
from sliders.batch.summary import mean_interval
from sliders.boards.scene import Scene
from sliders.lab.value import GameSpot
from sliders.outcome import Status
from sliders.physics.noise import Noise
from sliders.physics.params import PhysicsParams

KINDS: tuple[str, ...] = ("draw", "takeout", "guard")
"""What a shot is for, read from its samples (see :func:`kind_of`)."""

GUARD_SHORT = 0.045
"""A guard comes to rest in play at least this far short of the board's centre (m, along the
line of play): in front of ring 4, in the way of shots at the centre."""


@dataclass(frozen=True)
class Settings:
    """How much the search samples. The defaults spend about 600 simulations on a 2-D box
    (speed × angle), a tenth of a 25 × 13 grid of 20 samples a shot."""

    coarse: Mapping[str, int] = field(
        default_factory=lambda: {"speed": 7, "angle": 5, "offset": 3, "release": 3}
    )
    """coarse grid steps of each swept parameter"""
    first: int = 3
    """samples per coarse candidate in the first round"""
    keep: float = 1 / 3
    """share of candidates kept by each halving round"""
    grow: int = 2
    """samples multiply by this each round"""
    survivors: int = 2
    """halving stops with this many candidates; refinement starts around them"""
    refinements: int = 2
    """finer grids (half, then a quarter of the coarse step)"""
    final: int = 60
    """fresh samples of the winner (its value and interval)"""
    runner_up: int = 24
    """fresh samples of the best shot of each other kind"""


@dataclass(eq=False)
class Candidate:
    """An intended shot and what its paired samples showed so far."""

    shot: np.ndarray  # speed, angle°, offset, release
    values: np.ndarray = field(default_factory=lambda: np.empty(0))
    hit: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=bool))
    opp_loss: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=bool))
    guard: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=bool))

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(self.values.mean()) if self.n else -math.inf

    @property
    def kind(self) -> str:
        return kind_of(self.hit, self.opp_loss, self.guard)


@dataclass(frozen=True)
class Estimate:
    """A shot's expected value from fresh samples, with its interval and outcome shares."""

    kind: str
    shot: tuple[float, float, float, float]
    value: float
    lo: float
    hi: float
    n: int
    statuses: dict[str, float]
    p_penalty: float

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            **dict(zip(PARAMETERS, self.shot, strict=True)),
            "value": self.value,
            "value_lo": self.lo,
            "value_hi": self.hi,
            "n": self.n,
            "p_penalty": self.p_penalty,
            "statuses": self.statuses,
        }


@dataclass
class SearchResult:
    best: Estimate
    runners_up: list[Estimate]
    simulations: int
    confidence: float
    final_study: Study
    final_table: dict[str, np.ndarray]
    history: list[tuple[str, int, int]]  # (stage, candidates, simulations so far)


def kind_of(hit: np.ndarray, opp_loss: np.ndarray, guard: np.ndarray) -> str:
    """``takeout`` when most samples cost an opponent points, ``guard`` when most leave the pawn
    in play short of the centre without touching anything, else ``draw`` (a shot to score)."""
    if not len(hit):
        return "draw"
    if opp_loss.mean() >= 0.5:
        return "takeout"
    if (guard & ~hit).mean() >= 0.5:
        return "guard"
    return "draw"


class Sampler:
    """Paired samples of intended shots: sample ``j`` of every shot has the same hand."""

    def __init__(self, study: Study, max_samples: int) -> None:
        from dataclasses import replace

        self.ctx: Context = replace(study.context, paired=True, samples=max_samples)
        self.max_samples = max_samples
        self.simulations = 0
        layout, _ = study.context.build()
        seat = layout.seat(study.context.seat)
        self.forward = np.array(seat.forward, dtype=float)

    def extend(self, c: Candidate, n: int) -> None:
        """Sample ``c`` up to ``n`` samples (at most ``max_samples``)."""
        from sliders.batch.work import run_chunk

        n = min(n, self.max_samples)
        if n <= c.n:
            return
        k = self.max_samples
        t = run_chunk(self.ctx, c.n, n, c.shot[None, :])  # intended shot 0: draws are paired
        assert len(t["shot"]) == n - c.n and k >= n
        self.simulations += n - c.n
        c.values = np.concatenate([c.values, t["value"]])
        c.hit = np.concatenate([c.hit, t["contacts"] > 0])
        c.opp_loss = np.concatenate([c.opp_loss, t["opp_delta"] < 0])
        c.guard = np.concatenate([c.guard, _guard(t, self.forward)])


def search(
    scene: Scene,
    seat: str,
    box: Mapping[str, Spec | str | float],
    noise: Noise,
    *,
    spot: GameSpot | None = None,
    params: PhysicsParams | None = None,
    seed: int = 0,
    pawn: str | None = None,
    settings: Settings | None = None,
    confidence: float = 0.95,
) -> SearchResult:
    """The intended shot within ``box`` (a spec per parameter, as ``sliders batch`` takes them:
    ``"0.3:1.5"`` a range, a single value fixed) worth most to ``seat``; see the module."""
    cfg = settings or Settings()
    specs = {n: _range_spec(n, box.get(n)) for n in PARAMETERS}
    coarse = Design.grid(
        **{n: _coarse(s, cfg.coarse.get(n, 5)) for n, s in specs.items()}  # type: ignore[arg-type]
    )
    study = Study.create(scene, seat, coarse, 1, noise, params, seed, pawn, spot=spot or GameSpot())
    lo = {n: study.design.ranges[n][0] for n in PARAMETERS}
    hi = {n: study.design.ranges[n][1] for n in PARAMETERS}
    steps = {n: (hi[n] - lo[n]) / max(1, cfg.coarse.get(n, 5) - 1) for n in PARAMETERS}
    max_samples = cfg.first * cfg.grow**8
    sampler = Sampler(study, max_samples)
    history: list[tuple[str, int, int]] = []
    seen: dict[tuple[float, ...], Candidate] = {}

    def candidate(shot: np.ndarray) -> Candidate:
        key = tuple(float(v) for v in np.round(shot, 12))
        if key not in seen:
            seen[key] = Candidate(np.array(key))
        return seen[key]

    pool = [candidate(s) for s in study.design.shots]
    samples = cfg.first
    for c in pool:
        sampler.extend(c, samples)
    history.append(("coarse", len(pool), sampler.simulations))
    pool, samples = _halve(pool, sampler, samples, cfg, history, "halving")

    swept = [n for n in PARAMETERS if hi[n] > lo[n]]
    for level in range(1, cfg.refinements + 1):
        scale = 0.5**level
        fresh: list[Candidate] = []
        for c in pool:
            for delta in _neighbours(len(swept)):
                shot = c.shot.copy()
                for d, name in zip(delta, swept, strict=True):
                    j = PARAMETERS.index(name)
                    shot[j] = min(hi[name], max(lo[name], shot[j] + d * scale * steps[name]))
                fresh.append(candidate(shot))
        fresh = [c for c in dict.fromkeys(fresh) if c not in pool]
        start = cfg.first * cfg.grow
        for c in fresh:
            sampler.extend(c, start)
        merged = list(dict.fromkeys(pool + fresh))
        history.append((f"refine ×{scale:g}", len(merged), sampler.simulations))
        pool, samples = _halve(merged, sampler, start, cfg, history, f"halving ×{scale:g}")
        for c in pool:
            sampler.extend(c, samples)

    winner = max(pool, key=lambda c: (c.mean, -c.n))
    everyone = list(seen.values())
    rivals: list[Candidate] = []
    for kind in KINDS:
        if kind == winner.kind:
            continue
        same = [c for c in everyone if c.kind == kind and c.n >= cfg.first]
        if same:
            rivals.append(max(same, key=lambda c: c.mean))
    chosen = [winner, *rivals]
    counts = [cfg.final] + [cfg.runner_up] * len(rivals)
    estimates, final_study, final_table, used = _final(
        study, chosen, counts, confidence, sampler.forward
    )
    history.append(("final", len(chosen), sampler.simulations + used))
    return SearchResult(
        best=estimates[0],
        runners_up=estimates[1:],
        simulations=sampler.simulations + used,
        confidence=confidence,
        final_study=final_study,
        final_table=final_table,
        history=history,
    )


def _halve(
    pool: list[Candidate],
    sampler: Sampler,
    samples: int,
    cfg: Settings,
    history: list[tuple[str, int, int]],
    stage: str,
) -> tuple[list[Candidate], int]:
    """Successive halving of ``pool`` down to ``cfg.survivors`` candidates."""
    while len(pool) > cfg.survivors:
        ranked = sorted(pool, key=lambda c: -c.mean)
        pool = ranked[: max(cfg.survivors, math.ceil(len(ranked) * cfg.keep))]
        samples = min(samples * cfg.grow, sampler.max_samples)
        for c in pool:
            sampler.extend(c, samples)
        history.append((stage, len(pool), sampler.simulations))
    return pool, samples


def _final(
    study: Study,
    chosen: list[Candidate],
    counts: list[int],
    confidence: float,
    forward: np.ndarray,
) -> tuple[list[Estimate], Study, dict[str, np.ndarray], int]:
    """Fresh, unpaired samples of the chosen shots: their estimates, the winner's table."""
    from dataclasses import replace

    from sliders.batch.work import STATUSES, run_chunk

    estimates = []
    used = 0
    final_study = study
    final_table: dict[str, np.ndarray] = {}
    for i, (c, n) in enumerate(zip(chosen, counts, strict=True)):
        ranges = {p: (float(v), float(v)) for p, v in zip(PARAMETERS, c.shot, strict=True)}
        design = Design(c.shot[None, :], None, ranges)
        # fresh draws: the batch's own stream of a one-shot study, which the search's paired
        # stream never touches (so `sliders batch` with the same seed gives this very table)
        ctx = replace(study.context, samples=n, paired=False)
        t = run_chunk(ctx, 0, n, c.shot[None, :])
        used += n
        v = t["value"].astype(float)
        mean, lo, hi, _ = mean_interval(
            np.array([v.sum()]), np.array([(v * v).sum()]), np.array([n]), confidence
        )
        counts_by = np.bincount(t["status"], minlength=len(STATUSES)) / n
        statuses = {str(s): float(p) for s, p in zip(STATUSES, counts_by, strict=True) if p > 0}
        kind = kind_of(t["contacts"] > 0, t["opp_delta"] < 0, _guard(t, forward))
        estimates.append(
            Estimate(
                kind=kind,
                shot=tuple(float(x) for x in c.shot),  # type: ignore[arg-type]
                value=float(mean[0]),
                lo=float(lo[0]),
                hi=float(hi[0]),
                n=n,
                statuses=statuses,
                p_penalty=float((t["penalties"] > 0).mean()),
            )
        )
        if i == 0:
            final_study = Study(ctx, design)
            final_table = t
    return estimates, final_study, final_table, used


def _guard(t: Mapping[str, np.ndarray], forward: np.ndarray) -> np.ndarray:
    """Samples whose shot pawn rests in play short of the board's centre (see GUARD_SHORT)."""
    from sliders.batch.work import STATUSES

    in_play = np.isin(t["status"], [i for i, s in enumerate(STATUSES) if s.in_play])
    along = t["x"] * forward[0] + t["y"] * forward[1]
    return in_play & (along < -GUARD_SHORT) & (t["status"] != STATUSES.index(Status.OWN_TRACK))


def _neighbours(d: int) -> list[tuple[int, ...]]:
    """Every step of -1, 0 or +1 along each of ``d`` axes but standing still."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(d):
        out = [(*o, s) for o in out for s in (-1, 0, 1)]
    return [o for o in out if any(o)]


def _range_spec(name: str, given: Spec | str | float | None) -> Spec:
    from sliders.batch.study import parse_spec

    defaults = {"speed": "0.3:1.5", "angle": "-6:6", "offset": "0", "release": None}
    if given is None:
        given = defaults[name]
    if given is None:
        return Spec(name, math.nan, math.nan, 1, (math.nan,))
    if isinstance(given, Spec):
        return given
    if isinstance(given, str):
        return parse_spec(name, given)
    return Spec(name, float(given), float(given), 1, (float(given),))


def _coarse(s: Spec, steps: int) -> Spec:
    """The coarse grid of one parameter: its values if listed, else ``steps`` over its range."""
    if s.values is not None and len(s.values) == 1:
        return s
    if s.values is not None:
        return s
    return Spec(s.name, s.lo, s.hi, steps)

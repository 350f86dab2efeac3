"""``sliders best``: the one shot search (:class:`sliders.ai.planner.PlanSearch`, the computer
players' own) over a box of intended shots, and its report.

1. The box (a range or a value per parameter, as ``sliders batch`` takes them) becomes a coarse
   grid of intended shots: the candidates of the search. By default the box is the whole legal
   range of the seat's shots (:func:`whole_range`: 25 speeds from the slowest flick to the
   fastest, 19 angles from the lane's axis out to the widest legal angle, spaced finely near the
   axis and coarsely far from it, 3 offsets across the lane; released on the foul line); a
   range given by hand gets 25 speeds, 13 angles, 3 offsets or 3 releases.
2. The search runs with the :data:`BEST` mind: paired samples under the hand (sample ``j`` of
   every candidate has the same execution errors and physics seed), each outcome valued by the
   seat's chance of winning after the shot (:mod:`sliders.ai.value`, the value the computer
   players choose by), successive halving on kernel-smoothed means, the best two refined by
   shots a quarter of the hand's noise around them, and the last three racing to thousands of
   samples each: about 18,000 simulations, in the exact engine's batch path.
3. The winner, and the best candidate of each other kind (:func:`kind_of`: draw, takeout, guard,
   read from what its samples did), are sampled again with fresh draws never used to choose
   them, in the study's engine: their expected values and intervals are free of the winner's
   curse (the upward bias of the maximum of noisy means), and the winner's are exactly the
   table ``sliders batch`` gives for that one shot with the same seed.

The benchmark (``benchmarks/best.py``) measures it against a dense grid; docs/strategy.md gives
the figures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from sliders.ai.planner import Mind, PlanSearch
from sliders.ai.value import GameSpot, study_state
from sliders.batch.study import PARAMETERS, Design, Spec, Study, parse_spec
from sliders.batch.summary import mean_interval
from sliders.batch.work import STATUSES, run_chunk
from sliders.files.scenes import Scene
from sliders.physics import at_rest, shot_limits
from sliders.physics.noise import Noise
from sliders.physics.params import PhysicsParams

KINDS: tuple[str, ...] = ("draw", "takeout", "guard")
"""What a shot is for, read from its samples (see :func:`kind_of`)."""

BEST = Mind("best", simulations=24_000, first=8, samples=4096, refine=0.25)
"""The mind of ``sliders best``: the one search with a box's budget (see the module)."""

WHOLE_ANGLES = (0.0, 1.0, 2.0, 3.0, 4.5, 6.0, 9.0, 15.0, 30.0)
"""degrees either side of the lane's axis of the default coarse scan (then the widest legal
angle): fine where a lane aims at the board, coarse where every shot rides a side rail"""


@dataclass(frozen=True)
class Settings:
    """How ``sliders best`` searches: the coarse grid, the search's mind, the fresh samples."""

    coarse: Mapping[str, int] = field(
        default_factory=lambda: {"speed": 25, "angle": 13, "offset": 3, "release": 3}
    )
    """coarse grid steps of each swept parameter"""
    mind: Mind = BEST
    """the one search's settings and budget"""
    final: int = 40
    """fresh samples of the winner (its value and interval)"""
    runner_up: int = 12
    """fresh samples of the best shot of each other kind"""


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
    progress: float = math.nan

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            **dict(zip(PARAMETERS, self.shot, strict=True)),
            "value": self.value,
            "value_lo": self.lo,
            "value_hi": self.hi,
            "progress": self.progress,
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
    search: PlanSearch


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
    engine: str | None = None,
) -> SearchResult:
    """The intended shot within ``box`` (a spec per parameter, as ``sliders batch`` takes them:
    ``"0.3:1.5"`` a range, a single value fixed) worth most to ``seat``; see the module."""
    cfg = settings or Settings()
    whole = whole_range(scene, seat, params or PhysicsParams.default())
    specs = {n: _range_spec(n, box.get(n), whole) for n in PARAMETERS}
    coarse = Design.grid(
        **{n: _coarse(s, cfg.coarse.get(n, 5)) for n, s in specs.items()}  # type: ignore[arg-type]
    )
    spot = spot or GameSpot()
    study = Study.create(scene, seat, coarse, 1, noise, params, seed, pawn, engine, spot=spot)
    ctx = study.context
    layout, face = ctx.build()
    state = study_state(
        face.name, scene.seats, seat, at_rest(layout, face, scene.pawns, ctx.params), spot
    )
    shots = study.design.shots.copy()
    shots[:, 1] = np.radians(shots[:, 1])
    plan = PlanSearch(
        seat,
        noise,
        cfg.mind,
        np.random.default_rng(seed),
        state,
        layout,
        face,
        ctx.params,
        shots=shots,
        pawn=ctx.pawn,
    )
    plan.run()
    ranked = plan.ranking()
    winner, kinds = ranked[0], [_kind(c) for c in ranked]
    rivals = []
    for kind in KINDS:
        same = [
            c for c, k in zip(ranked, kinds, strict=True) if k == kind and c.n >= cfg.mind.first
        ]
        if kind != kinds[0] and same:
            rivals.append((kind, same[0]))
    chosen = [(kinds[0], winner), *rivals]
    counts = [cfg.final] + [cfg.runner_up] * len(rivals)
    estimates, final_study, final_table, used = _final(study, chosen, counts, confidence)
    return SearchResult(
        best=estimates[0],
        runners_up=estimates[1:],
        simulations=plan.simulations + used,
        confidence=confidence,
        final_study=final_study,
        final_table=final_table,
        search=plan,
    )


def _kind(c) -> str:  # noqa: ANN001 - a candidate of the search
    return kind_of(np.array(c.touched), np.array(c.cost), np.array(c.short))


def _final(
    study: Study,
    chosen: list,
    counts: list[int],
    confidence: float,
) -> tuple[list[Estimate], Study, dict[str, np.ndarray], int]:
    """Fresh, unpaired samples of the chosen shots: their estimates, the winner's table."""

    estimates = []
    used = 0
    final_study = study
    final_table: dict[str, np.ndarray] = {}
    for i, ((kind, c), n) in enumerate(zip(chosen, counts, strict=True)):
        shot = np.array([c.x[0], math.degrees(c.x[1]), c.x[2], c.release])
        ranges = {p: (float(v), float(v)) for p, v in zip(PARAMETERS, shot, strict=True)}
        design = Design(shot[None, :], None, ranges)
        # fresh draws: the batch's own stream of a one-shot study, which the search's draws
        # never touch (so `sliders batch` with the same seed gives this very table)
        ctx = replace(study.context, samples=n, paired=False)
        t = run_chunk(ctx, 0, n, shot[None, :])
        used += n
        v = t["value"].astype(float)
        mean, lo, hi, _ = mean_interval(
            np.array([v.sum()]), np.array([(v * v).sum()]), np.array([n]), confidence
        )
        counts_by = np.bincount(t["status"], minlength=len(STATUSES)) / n
        statuses = {str(s): float(p) for s, p in zip(STATUSES, counts_by, strict=True) if p > 0}
        estimates.append(
            Estimate(
                kind=kind,  # as the search's samples showed it (fresh ones may lean the other way)
                shot=tuple(float(x) for x in shot),  # type: ignore[arg-type]
                value=float(mean[0]),
                lo=float(lo[0]),
                hi=float(hi[0]),
                n=n,
                statuses=statuses,
                p_penalty=float((t["penalties"] > 0).mean()),
                progress=float(t["progress"].mean()),
            )
        )
        if i == 0:
            final_study = Study(ctx, design)
            final_table = t
    return estimates, final_study, final_table, used


def whole_range(scene: Scene, seat: str, params: PhysicsParams) -> dict[str, Spec]:
    """The default box: every legal speed, angle and offset of ``seat``'s shots
    (:func:`sliders.physics.shot_limits`), the angles as the coarse list :data:`WHOLE_ANGLES`
    and the widest legal one; the release on the foul line."""
    layout, _ = scene.build()
    lim = shot_limits(layout, seat, params)
    widest = math.degrees(lim.max_angle)
    side = [a for a in WHOLE_ANGLES if 0 < a < widest] + [widest]
    angles = tuple([-a for a in reversed(side)] + [0.0] + side)
    off = max(lim.max_offset, 0.0)
    return {
        "speed": Spec("speed", lim.min_speed, lim.max_speed),
        "angle": Spec("angle", angles[0], angles[-1], len(angles), angles),
        "offset": Spec("offset", -off, off) if off > 0 else Spec("offset", 0.0, 0.0, 1, (0.0,)),
        "release": Spec("release", math.nan, math.nan, 1, (math.nan,)),
    }


def at_edge(best: float, spec: Spec, legal: tuple[float, float], steps: int) -> str | None:
    """``"low"`` or ``"high"`` when ``best`` sits at that end of the range ``spec`` (within half
    a step of its coarse grid of ``steps``) and that end is inside the legal range ``legal``
    (the user narrowed it there), else None."""
    if spec.values is not None or spec.hi <= spec.lo:
        return None
    near = (spec.hi - spec.lo) / max(steps - 1, 1) / 2
    tol = 1e-9 * max(1.0, abs(legal[1]))
    if best <= spec.lo + near and spec.lo > legal[0] + tol:
        return "low"
    if best >= spec.hi - near and spec.hi < legal[1] - tol:
        return "high"
    return None


def _range_spec(name: str, given: Spec | str | float | None, whole: Mapping[str, Spec]) -> Spec:
    if given is None:
        return whole[name]
    if isinstance(given, Spec):
        return given
    if isinstance(given, str):
        return parse_spec(name, given)
    return Spec(name, float(given), float(given), 1, (float(given),))


def _coarse(s: Spec, steps: int) -> Spec:
    """The coarse grid of one parameter: its values if listed, else ``steps`` over its range."""
    if s.values is not None:
        return s
    return Spec(s.name, s.lo, s.hi, steps)

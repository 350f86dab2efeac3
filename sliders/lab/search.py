"""The search for the best shot: the intended shot worth most on average under execution noise.

The method is **successive halving with paired samples, each candidate valued by every sample,
local refinement, then a race in three rounds**:

1. A coarse grid of intended shots over the search box (25 speeds × 13 angles, and 3 offsets ×
   3 releases when those are searched) gets 8 noisy samples each. Sample ``j`` of every
   candidate draws the *same* execution errors and physics seed (paired, or common random
   numbers), so two candidates are compared on the same hands and the noise common to both
   cancels from their difference. In the exact engine the samples of all the candidates of a
   round are solved in one batch (:func:`sliders.batch.work.run_paired`).
2. Candidates are ranked by an estimate from every sample so far (:meth:`Sampler.reused`): a
   sample is an executed shot and its value, and the expected value of an intended shot is the
   value averaged over the hand's error density around it, so every sample counts for every
   candidate, weighted by the density of its executed shot under that candidate over the
   mixture of the densities of all the candidates sampled (importance sampling, the balance
   heuristic). It blurs the value exactly as the hand does, so a line narrower than the noise
   keeps its height, and early rankings rest on hundreds of effective samples. (A Gaussian
   kernel over intended shots, as in KR-UCT, ``Settings.reuse=False``, averaged such lines
   away with their neighbours and dropped them in the first rounds.)
3. Each round keeps the best third and doubles the survivors' samples, down to six. Kept
   candidates are a coarse step apart (best first, the skipped topping up), here and below, so
   that one basin's neighbours do not crowd out another basin.
4. Around five survivors a finer grid (half the coarse step, then a quarter around the best
   three) is sampled and halved the same way, so the answer is not confined to the coarse grid.
5. The eight best of every candidate seen race on paired samples, by their **raw** means: 300
   each, then the better four and the best neighbour (by every sample, a quarter step away) of
   each of the two leaders 900, then the better two 2,700: differences of 1 % between the last
   two are resolved, and no smoothing bias is left.
6. The winner, and the best candidate of each other kind (draw, takeout, guard), are sampled
   again with fresh draws never used to choose them: their expected values and intervals are
   free of the winner's curse (the upward bias of the maximum of noisy means).

About 18,000 simulations in all on a speed × angle box. Why this and not the alternatives: the
value surface is a step function of the outcome (a ring boundary, the hole's rim, a hit or a
miss) blurred by the noise, with narrow ridges and wide plateaus; halving over a grid is robust
there, its cost is fixed in advance, and pairing makes its comparisons cheap. CMA-ES needs many
generations of sampled populations to adapt on such a surface, and can settle in one basin; the
grid sees every basin first. The benchmark (``benchmarks/best.py``) measures it against a dense
grid: all 20 scenes within 2 % of it with 13× fewer simulations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from sliders.ai.value import GameSpot
from sliders.batch.study import PARAMETERS, Context, Design, Spec, Study, parse_spec
from sliders.batch.summary import mean_interval
from sliders.batch.work import STATUSES, errors_for, run_chunk, run_paired
from sliders.boards.scene import Scene
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
    """How much the search samples. The defaults spend about 18,000 simulations on a 2-D box
    (speed × angle): seconds with the exact engine's batch path, a thirteenth of a dense grid of
    49 × 25 shots sampled 200 times each (``benchmarks/best.py``)."""

    coarse: Mapping[str, int] = field(
        default_factory=lambda: {"speed": 25, "angle": 13, "offset": 3, "release": 3}
    )
    """coarse grid steps of each swept parameter"""
    first: int = 8
    """samples per coarse candidate in the first round"""
    keep: float = 1 / 3
    """share of candidates kept by each halving round"""
    grow: int = 2
    """samples multiply by this each round"""
    survivors: int = 6
    """halving stops with this many candidates; the first refinement starts around them"""
    refine_around: tuple[int, ...] = (5, 3)
    """finer grids (half, then a quarter of the coarse step) around this many of the best"""
    finalists: int = 8
    """the best this many of every candidate seen, a coarse step apart, race for the win"""
    race: int = 2700
    """paired samples of the race's last round (see ``race_rounds``; the winner is the best raw
    mean)"""
    diverse: bool = True
    """candidates kept by halving, refined or raced are taken a coarse step apart (best first,
    topped up with the skipped), so one basin's neighbours do not crowd out the others"""
    race_rounds: int = 3
    """1: every finalist gets ``race`` samples; more: round k of n gets ``race / 3**(n-k)``
    samples and the better half go on (``race_last`` to the last round)"""
    race_last: int = 2
    """finalists in the race's last round (0: the better half of the round before)"""
    polish: int = 2
    """after the race's first round, the best neighbour (by every sample so far, at a quarter
    of the coarse step) of this many leaders joins the race, if it is not the leader itself"""
    bandwidth: float = 0.5
    """(without ``reuse``) kernel bandwidth at the first round, in units of the execution
    noise's sigma (0: each candidate alone)"""
    shrink: float = 0.6
    """the bandwidth multiplies by this each halving round, as samples grow"""
    reuse: bool = True
    """rank candidates by every sample so far, importance-weighted (``Sampler.reused``), not by
    the kernel over intended shots (``bandwidth``, ``shrink``)"""
    final: int = 40
    """fresh samples of the winner (its value and interval)"""
    runner_up: int = 12
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

        self.ctx: Context = replace(study.context, paired=True, samples=max_samples)
        self.max_samples = max_samples
        self.simulations = 0
        layout, _ = study.context.build()
        seat = layout.seat(study.context.seat)
        self.forward = np.array(seat.forward, dtype=float)
        n = study.context.noise
        self.sigma = np.array([n.speed_rel, n.angle_deg, n.offset, n.release], dtype=float)
        self.pool: list[Candidate] = []  # every candidate sampled, for the kernel
        self.errors, _ = errors_for(self.ctx, 0, max_samples)  # paired: every candidate's
        self._added = 0
        # every sample so far, for the estimate from every sample (``reused``)
        self._known: dict[Candidate, int] = {}  # samples of each candidate already in these
        self._ys = np.empty((0, 4))  # executed shots, unclipped
        self._fs = np.empty(0)  # values
        self._mix = np.empty(0)  # sum over candidates of samples × density of the shot

    def reused(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Expected values at intended shots ``points`` (k × 4) from every sample so far, each
        weighted by how likely its executed shot is from that intended shot (importance
        sampling: the density of the hand's errors at the executed shot over the mixture of
        the densities of every intended shot sampled, the balance heuristic), and the
        effective number of samples behind each. Unbiased however narrow the line, blurred
        exactly as the hand blurs it and no more; see :func:`_density`."""
        self._sync()
        ys, fs, mix = self._ys, self._fs, self._mix
        points = np.asarray(points, dtype=float)
        est, ess = np.full(len(points), -math.inf), np.zeros(len(points))
        for a in range(0, len(points), _BLOCK):
            w = _density(points[a : a + _BLOCK], ys, self.sigma) / mix
            total = w.sum(axis=1)
            seen = total > 0
            est[a : a + _BLOCK][seen] = (w @ fs)[seen] / total[seen]
            ess[a : a + _BLOCK][seen] = total[seen] ** 2 / (w * w).sum(axis=1)[seen]
        return est, ess

    def _sync(self) -> None:
        """Bring the executed shots, values and mixture densities of every sample up to date
        with the candidates' samples: the samples already known gain the density of the
        candidates sampled since, weighted by their new samples; the new samples get the
        density of every candidate (the same sums as from scratch, without recomputing them)."""
        grown = [(c, self._known.get(c, 0)) for c in self.pool if c.n > self._known.get(c, 0)]
        if not grown:
            return
        xs = np.array([c.shot for c, _ in grown])
        dn = np.array([c.n - k for c, k in grown], dtype=float)
        for a in range(0, len(xs), _BLOCK):
            self._mix += dn[a : a + _BLOCK] @ _density(xs[a : a + _BLOCK], self._ys, self.sigma)
        new_y = np.concatenate([self._executed(c)[k:] for c, k in grown])
        new_f = np.concatenate([c.values[k:] for c, k in grown])
        for c, _ in grown:
            self._known[c] = c.n
        everyone = [c for c in self.pool if c.n]
        xs = np.array([c.shot for c in everyone])
        ns = np.array([c.n for c in everyone], dtype=float)
        new_mix = np.zeros(len(new_y))
        for a in range(0, len(xs), _BLOCK):
            new_mix += ns[a : a + _BLOCK] @ _density(xs[a : a + _BLOCK], new_y, self.sigma)
        self._ys = np.concatenate([self._ys, new_y])
        self._fs = np.concatenate([self._fs, new_f])
        self._mix = np.concatenate([self._mix, new_mix])

    def _executed(self, c: Candidate) -> np.ndarray:
        """The executed shots of ``c``'s samples before any clipping to the legal ranges (a
        clipped shot is a function of the unclipped one, so the values are too)."""
        e = self.errors[: c.n]
        y = np.empty((c.n, 4))
        y[:, 0] = c.shot[0] * (1.0 + e[:, 0])
        y[:, 1] = c.shot[1] + np.degrees(e[:, 1])
        y[:, 2] = c.shot[2] + e[:, 2]
        y[:, 3] = c.shot[3] + e[:, 3]
        return y

    def smoothed(self, cands: list[Candidate], bandwidth: float) -> np.ndarray:
        """Kernel-weighted means of ``cands`` over every candidate sampled so far."""
        means = np.array([c.mean for c in cands])
        if bandwidth <= 0 or not self.sigma.any():
            return means
        everyone = [c for c in self.pool if c.n]
        xs = np.array([c.shot for c in everyone])
        sums = np.array([c.values.sum() for c in everyone])
        ns = np.array([c.n for c in everyone], dtype=float)
        out = np.empty(len(cands))
        for i, c in enumerate(cands):
            # sigma of speed is relative: scale it by this candidate's speed
            h = bandwidth * self.sigma * np.array([c.shot[0], 1.0, 1.0, 1.0])
            live = h > 0
            z = np.zeros(len(everyone))
            z += np.sum(((xs[:, live] - c.shot[live]) / h[live]) ** 2, axis=1)
            same = np.all(xs[:, ~live] == c.shot[~live], axis=1)
            w = np.where(same, np.exp(-0.5 * z), 0.0)
            out[i] = (w @ sums) / (w @ ns)
        return out

    def extend(self, c: Candidate, n: int) -> None:
        """Sample ``c`` up to ``n`` samples (at most ``max_samples``)."""
        self.extend_all([c], n)

    def extend_all(self, cands: Sequence[Candidate], n: int) -> None:
        """Sample each of ``cands`` up to ``n`` samples (at most ``max_samples``): in the exact
        engine all of them in one batch."""
        n = min(n, self.max_samples)
        todo = [c for c in dict.fromkeys(cands) if c.n < n]
        if not todo:
            return
        for c in todo:
            if not c.n:
                self.pool.append(c)
        if self.ctx.engine == "exact":
            shots = np.array([c.shot for c in todo])
            first = np.array([c.n for c in todo])
            t = run_paired(self.ctx, shots, first, np.full(len(todo), n))
            parts = np.split(np.arange(len(t["value"])), np.cumsum(n - first)[:-1])
            for c, rows in zip(todo, parts, strict=True):
                self._add(c, {k: v[rows] for k, v in t.items()})
        else:
            for c in todo:
                # intended shot 0 of a paired context: every candidate draws alike
                self._add(c, run_chunk(self.ctx, c.n, n, c.shot[None, :]))
        self.simulations += self._added
        self._added = 0

    def _add(self, c: Candidate, t: Mapping[str, np.ndarray]) -> None:
        self._added += len(t["value"])
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
    engine: str | None = None,
) -> SearchResult:
    """The intended shot within ``box`` (a spec per parameter, as ``sliders batch`` takes them:
    ``"0.3:1.5"`` a range, a single value fixed) worth most to ``seat``; see the module."""
    cfg = settings or Settings()
    specs = {n: _range_spec(n, box.get(n)) for n in PARAMETERS}
    coarse = Design.grid(
        **{n: _coarse(s, cfg.coarse.get(n, 5)) for n, s in specs.items()}  # type: ignore[arg-type]
    )
    study = Study.create(
        scene, seat, coarse, 1, noise, params, seed, pawn, engine, spot=spot or GameSpot()
    )
    lo = {n: study.design.ranges[n][0] for n in PARAMETERS}
    hi = {n: study.design.ranges[n][1] for n in PARAMETERS}
    steps = {n: (hi[n] - lo[n]) / max(1, cfg.coarse.get(n, 5) - 1) for n in PARAMETERS}
    unit = np.array([steps[n] if hi[n] > lo[n] else 1.0 for n in PARAMETERS])
    sampler = Sampler(study, max(cfg.race, cfg.first * cfg.grow**10))
    history: list[tuple[str, int, int]] = []
    seen: dict[tuple[float, ...], Candidate] = {}
    rung = [0]  # halving rounds so far: the kernel narrows with each

    def candidate(shot: np.ndarray) -> Candidate:
        key = tuple(float(v) for v in np.round(shot, 12))
        if key not in seen:
            seen[key] = Candidate(np.array(key))
        return seen[key]

    def pick(order: list[Candidate], k: int) -> list[Candidate]:
        return _diverse(order, k, unit) if cfg.diverse else order[:k]

    def ranked(pool: list[Candidate]) -> list[Candidate]:
        return _ranked(pool, sampler, cfg.bandwidth * cfg.shrink ** rung[0], cfg.reuse)

    def halve(
        pool: list[Candidate], samples: int, stage: str, floor: int
    ) -> tuple[list[Candidate], int]:
        while len(pool) > floor:
            pool = pick(ranked(pool), max(floor, math.ceil(len(pool) * cfg.keep)))
            samples = min(samples * cfg.grow, sampler.max_samples)
            rung[0] += 1
            sampler.extend_all(pool, samples)
            history.append((stage, len(pool), sampler.simulations))
        return pool, samples

    pool = [candidate(s) for s in study.design.shots]
    samples = cfg.first
    sampler.extend_all(pool, samples)
    history.append(("coarse", len(pool), sampler.simulations))
    pool, samples = halve(pool, samples, "halving", cfg.survivors)

    swept = [n for n in PARAMETERS if hi[n] > lo[n]]
    for level, around in enumerate(cfg.refine_around, start=1):
        scale = 0.5**level
        fresh: list[Candidate] = []
        pool = pick(ranked(pool), around)
        for c in pool:
            for delta in _neighbours(len(swept)):
                shot = c.shot.copy()
                for d, name in zip(delta, swept, strict=True):
                    j = PARAMETERS.index(name)
                    shot[j] = min(hi[name], max(lo[name], shot[j] + d * scale * steps[name]))
                fresh.append(candidate(shot))
        fresh = [c for c in dict.fromkeys(fresh) if c not in pool]
        start = cfg.first * cfg.grow**3
        sampler.extend_all(fresh, start)
        merged = list(dict.fromkeys(pool + fresh))
        history.append((f"refine ×{scale:g}", len(merged), sampler.simulations))
        pool, samples = halve(merged, start, f"halving ×{scale:g}", around)

    # race the finalists: the best few of every well-sampled candidate, from different places
    # (not three neighbours of one basin), on many paired samples, in rounds that keep the
    # better half, judged by their own means (no kernel: no smoothing bias at a cliff)
    contenders = [c for c in seen.values() if c.n >= cfg.first * cfg.grow**2]
    finalists = pick(ranked(contenders), cfg.finalists)
    for r in range(cfg.race_rounds - 1, 0, -1):
        sampler.extend_all(finalists, cfg.race // 3**r)
        finalists = _ranked(finalists, sampler, 0.0)
        if r == cfg.race_rounds - 1 and cfg.polish and cfg.reuse and sampler.sigma.any():
            # the leaders' best neighbours at a quarter of the coarse step, by every sample
            finalists = finalists + _polish(finalists[: cfg.polish], sampler, swept, steps,
                                            lo, hi, candidate)  # fmt: skip
        keep = cfg.race_last if r == 1 and cfg.race_last else math.ceil(len(finalists) / 2)
        finalists = list(dict.fromkeys(finalists))[: max(1, keep)]
        history.append((f"race {cfg.race // 3**r}", len(finalists), sampler.simulations))
    sampler.extend_all(finalists, cfg.race)
    history.append(("race", len(finalists), sampler.simulations))
    winner = _ranked(finalists, sampler, 0.0)[0]
    everyone = list(seen.values())
    rivals: list[Candidate] = []
    for kind in KINDS:
        if kind == winner.kind:
            continue
        same = [c for c in everyone if c.kind == kind and c.n >= cfg.first]
        if same:
            rivals.append(ranked(same)[0])
    chosen = [winner, *rivals]
    counts = [cfg.final] + [cfg.runner_up] * len(rivals)
    estimates, final_study, final_table, used = _final(study, chosen, counts, confidence)
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


_BLOCK = 256  # intended shots a density matrix at a time


def _density(xs: np.ndarray, ys: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """The density of executing each of ``ys`` when intending each of ``xs`` (k × n): the
    hand's errors are independent normals, the speed's relative to the intended speed (a
    parameter without noise executes exactly as intended)."""
    square = np.zeros((len(xs), len(ys)))
    scale = np.ones(len(xs))
    exact = np.ones((len(xs), len(ys)), dtype=bool)
    for d in range(len(sigma)):
        diff = ys[None, :, d] - xs[:, d, None]
        if sigma[d] > 0:
            s = sigma[d] * (xs[:, d] if d == 0 else np.ones(len(xs)))
            diff /= s[:, None]
            square += diff * diff
            scale *= s
        else:
            exact &= np.abs(diff) <= 1e-12
    out: np.ndarray = np.exp(-0.5 * square) / scale[:, None]
    return np.where(exact, out, 0.0)


def _polish(
    leaders: list[Candidate],
    sampler: Sampler,
    swept: list[str],
    steps: Mapping[str, float],
    lo: Mapping[str, float],
    hi: Mapping[str, float],
    candidate: Callable[[np.ndarray], Candidate],
) -> list[Candidate]:
    """For each leader, the shot of a 5 × 5 patch (per swept parameter) at a quarter of the
    coarse step around it that every sample so far values most, when it is not the leader."""
    out: list[Candidate] = []
    for c in leaders:
        patch = [c.shot]
        for delta in _neighbours(len(swept), 2):
            shot = c.shot.copy()
            for d, name in zip(delta, swept, strict=True):
                j = PARAMETERS.index(name)
                shot[j] = min(hi[name], max(lo[name], shot[j] + d * 0.25 * steps[name]))
            patch.append(shot)
        est, _ = sampler.reused(np.array(patch))
        best = int(np.argmax(est))
        if best:
            out.append(candidate(patch[best]))
    return [c for c in out if c not in leaders]


def _diverse(ranked: list[Candidate], k: int, unit: np.ndarray) -> list[Candidate]:
    """``k`` of ``ranked``: the best half of them by rank (depth in the best basin), then the
    next best taken a coarse step (along every parameter) from every one taken (breadth: other
    basins); topped up from the skipped if too few are left."""
    out: list[Candidate] = list(ranked[: k // 2])
    for c in ranked[k // 2 :]:
        if len(out) == k:
            return out
        if all(np.any(np.abs(c.shot - o.shot) / unit > 1.0 + 1e-9) for o in out):
            out.append(c)
    rest = [c for c in ranked if c not in out]
    return out + rest[: k - len(out)]


def _ranked(
    pool: list[Candidate], sampler: Sampler, bandwidth: float, reuse: bool = False
) -> list[Candidate]:
    """``pool`` best first by the estimate from every sample (``reuse``), else by
    kernel-smoothed mean (bandwidth 0: its own mean); ties: more samples first."""
    if reuse and sampler.sigma.any():
        score = sampler.reused(np.array([c.shot for c in pool]))[0]
    else:
        score = sampler.smoothed(pool, bandwidth)
    order = sorted(range(len(pool)), key=lambda i: (-score[i], -pool[i].n))
    return [pool[i] for i in order]


def _final(
    study: Study,
    chosen: list[Candidate],
    counts: list[int],
    confidence: float,
) -> tuple[list[Estimate], Study, dict[str, np.ndarray], int]:
    """Fresh, unpaired samples of the chosen shots: their estimates, the winner's table."""

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
        estimates.append(
            Estimate(
                kind=c.kind,  # as the search saw it (fresh samples may lean the other way)
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

    in_play = np.isin(t["status"], [i for i, s in enumerate(STATUSES) if s.in_play])
    along = t["x"] * forward[0] + t["y"] * forward[1]
    return in_play & (along < -GUARD_SHORT) & (t["status"] != STATUSES.index(Status.OWN_TRACK))


def _neighbours(d: int, reach: int = 1) -> list[tuple[int, ...]]:
    """Every step of -reach..reach along each of ``d`` axes but standing still."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(d):
        out = [(*o, s) for o in out for s in range(-reach, reach + 1)]
    return [o for o in out if any(o)]


def _range_spec(name: str, given: Spec | str | float | None) -> Spec:

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

"""Fitting the model's numbers to measured slides.

The model between contacts (docs/model.md): a pawn slides in a straight line, slowing at μ·g, until
it stops; a contact changes its velocity at once. So each stretch of a tracked path between
contacts is a *free segment*, fitted by its start, heading and speed and one deceleration shared
by every segment (:func:`fit_tracks`, least squares with an interval robust to errors correlated
within a segment). Where two segments of a pawn meet at a contact, the fitted paths give the
velocities just before and after it: a pawn–pawn contact tells the pawns' restitution, a rail
contact the rail's, and one in which no pawn spun and the rims kept sliding the rim friction
(:func:`_fit_frictions`). A track cut where it crosses from the track onto the board measures the
speed lost at that joint (:func:`_fit_joint`: reported, the model has no such loss). Each segment that comes to rest also gives its own deceleration; how much more
they differ than their own errors explain is the surface's spread. Hand measurements
(:func:`fit_measurements`) tell the same numbers through stopping distances.

Each estimate carries a 95 % interval; a parameter the data cannot tell (too few events of its kind,
or an interval too wide to use) is kept at its old value with a warning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import least_squares
from scipy.special import stdtrit  # (not scipy.stats: seconds to import)

from sliders.boards.faces import BOARD_SIDE
from sliders.calibrate.tables import Measurement, Track
from sliders.core.checks import counted
from sliders.core.errors import UserError
from sliders.physics.params import PhysicsParams, ranges

Z95 = 1.959963984540054
"""the two-sided 95 % point of the normal distribution"""
MIN_SLIDES = 3
"""fewest free segments that fit rolling resistance"""
MIN_CONTACTS = 2
"""fewest contacts of a kind that fit their restitution"""
MIN_SPREAD = 5
"""fewest slides come to rest that tell the surface's spread"""
MOVING = 0.004
"""m: a stretch of path that moves less than this is a pawn at rest"""
BOOTSTRAP = 1000
"""resamples of an interval found by the bootstrap"""


@dataclass(frozen=True)
class Estimate:
    """A fitted number: its ``value``, the 95 % interval ``low``..``high``, from ``n`` events."""

    name: str
    value: float
    low: float
    high: float
    n: int

    def __post_init__(self) -> None:
        for name in ("value", "low", "high"):  # plain floats, as a parameter file writes them
            object.__setattr__(self, name, float(getattr(self, name)))

    def text(self, digits: int = 4) -> str:
        return f"{self.value:.{digits}g} [{self.low:.{digits}g}, {self.high:.{digits}g}]"


@dataclass
class Segment:
    """A free stretch of one pawn's path: samples ``t, x, y`` and the fitted start ``x0, y0`` at
    time ``t0``, heading ``theta`` (rad) and speed ``v0`` (m/s)."""

    clip: str
    pawn: str
    t: np.ndarray
    x: np.ndarray
    y: np.ndarray
    t0: float = 0.0
    x0: float = 0.0
    y0: float = 0.0
    theta: float = 0.0
    v0: float = 0.0
    rest: bool = False
    """a pawn at rest the whole stretch (not fitted: it stays where it is)"""

    def state(self, t: float, a: float) -> tuple[np.ndarray, np.ndarray]:
        """Position and velocity at ``t`` on the fitted path (before ``t0`` too: the path run
        back)."""
        if self.rest:
            return np.array([np.mean(self.x), np.mean(self.y)]), np.zeros(2)
        tau = t - self.t0
        stop = self.v0 / a
        s = self.v0 * tau - a * tau * tau / 2 if tau < stop else self.v0 * stop / 2
        v = self.v0 - a * tau if tau < stop else 0.0
        u = np.array([math.cos(self.theta), math.sin(self.theta)])
        return np.array([self.x0, self.y0]) + s * u, v * u


@dataclass(frozen=True)
class Contact:
    """A contact seen in the tracks: the normal speeds before (``approach`` > 0) and after
    (``separation``) at time ``t``; ``kind`` is ``pawn``, ``rail`` or ``joint`` (a pawn crossing
    from the track onto the board: its speeds before and after).

    Rim friction: ``ratio`` is the tangential impulse over the normal one that the velocities
    show, ``stick`` the ratio that would stop the rims sliding (the model's ``min(μ, stick)``
    when neither pawn spun before; ``nan`` when one may have)."""

    kind: str
    clip: str
    t: float
    approach: float
    separation: float
    ratio: float = math.nan
    stick: float = math.nan


@dataclass
class Fit:
    """What a fit found: the estimates by parameter name, the surface's spread, the warnings, and
    what the pictures draw."""

    source: str
    estimates: dict[str, Estimate] = field(default_factory=dict)
    spread: Estimate | None = None
    warnings: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    contacts: list[Contact] = field(default_factory=list)
    stops: list[tuple[float, float]] = field(default_factory=list)
    """(measured, fitted) stopping distances, m"""
    residuals: list[tuple[float, float]] = field(default_factory=list)
    """(speed m/s, residual m): each sample's distance from its fitted path, or each slide's
    stopping distance less the fitted one"""
    counts: dict[str, int] = field(default_factory=dict)
    measured: dict[str, Estimate] = field(default_factory=dict)
    """what the data tell that the model has no parameter for (``joint_loss``: the share of its
    speed a pawn loses crossing from the track onto the board)"""

    def params(self, base: PhysicsParams) -> PhysicsParams:
        """``base`` with every parameter the data told."""
        legal = ranges()
        changes = {}
        for name, e in self.estimates.items():
            if e.value in legal[name]:
                changes[name] = e.value
            else:
                self.warnings.append(
                    f"{name}: the fitted {e.value:.4g} is outside its legal range {legal[name]}; "
                    f"kept at {getattr(base, name):g}"
                )
        return base.replace(**changes)

    def toml(self, base: PhysicsParams) -> str:
        """The parameter file: ``[physics]`` every value (fitted or ``base``'s), ``[calibration]``
        what the fit found."""
        params = self.params(base)
        extra = ["[calibration]", f"source = {_quote(self.source)}"]
        for name, n in self.counts.items():
            extra.append(f"{name} = {n}")
        for name, e in self.estimates.items():
            extra.append(f"{name} = [{e.value!r}, {e.low!r}, {e.high!r}]  # value, 95 % interval")
        if self.spread is not None:
            s = self.spread
            extra.append(
                f"surface_spread = [{s.value!r}, {s.low!r}, {s.high!r}]"
                "  # relative sd of the deceleration from slide to slide"
            )
        for name, e in self.measured.items():
            extra.append(
                f"{name} = [{e.value!r}, {e.low!r}, {e.high!r}]"
                "  # measured, not a model parameter: share of the speed lost at the joint"
            )
        extra.append("warnings = [" + ", ".join(_quote(w) for w in self.warnings) + "]")
        header = f"fitted by sliders calibrate fit from {self.source}"
        return params.to_toml(header, "\n".join(extra))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- trajectories ---------------------------------------------------------------------------------


def fit_tracks(
    tracks: Sequence[Track], base: PhysicsParams, source: str = "", half: float = BOARD_SIDE / 2
) -> Fit:
    """Fit rolling resistance, the restitutions and the surface's spread to tracked paths in board
    metres (a board of half side ``half``; pawns of ``base.pawn_radius``)."""
    out = Fit(source)
    segments, links = split_tracks(tracks, base.pawn_radius, half)
    moving = [s for s in segments if not s.rest]
    out.counts = {"tracks": len(tracks), "segments": len(moving)}
    if len(moving) < MIN_SLIDES:
        raise UserError(
            f"{source}: too few slides to fit: {len(moving)} free stretches of path "
            f"(at least {MIN_SLIDES})"
        )
    a, se_a, resid = _fit_deceleration(moving, base.deceleration)
    off = _off_model(moving, a)
    if off and len(moving) - len(off) >= MIN_SLIDES:  # refitted without them
        moving = [s for s in moving if id(s) not in off]
        segments = [s for s in segments if id(s) not in off]
        links = [k for k in links if not any(id(s) in off for s in k.before + k.after)]
        out.warnings.append(
            f"{len(off)} stretches of path left out: they stray from a free slide by more than "
            f"{OFF_MODEL:g} times the others' scatter (a contact the tracks do not show)"
        )
        a, se_a, resid = _fit_deceleration(moving, a)
    out.counts["segments"] = len(moving)
    g = base.g
    out.estimates["mu_roll"] = Estimate(
        "mu_roll", a / g, (a - Z95 * se_a) / g, (a + Z95 * se_a) / g, len(moving)
    )
    out.segments = segments
    out.residuals = resid
    for s in moving:
        if _comes_to_rest(s, a):
            out.stops.append(
                (
                    float(np.hypot(s.x[-1] - s.x0, s.y[-1] - s.y0)),
                    base.replace(mu_roll=a / g).stopping_distance(s.v0),
                )
            )
    _fit_spread(out, moving, a, base)
    out.contacts = [
        c for link in links if (c := _contact(link, a, half, base.pawn_radius)) is not None
    ]
    _fit_restitutions(out, np.random.default_rng(0))
    _fit_frictions(out)
    _fit_joint(out, np.random.default_rng(0))
    return out


OFF_MODEL = 3.0
"""a stretch whose samples stray from its fitted path by more than this many times the median
stretch's root mean square (and by over a millimetre) is not a free slide: left out"""


def _off_model(segs: list[Segment], a: float) -> set[int]:
    """The ids of the stretches that do not follow a free slide (see :data:`OFF_MODEL`)."""
    rms = []
    for s in segs:
        fitted = np.array([s.state(t, a)[0] for t in s.t])
        rms.append(float(np.sqrt(np.mean(np.sum((fitted - np.stack([s.x, s.y], 1)) ** 2, 1)))))
    limit = max(OFF_MODEL * float(np.median(rms)), 1e-3)
    return {id(s) for s, e in zip(segs, rms, strict=True) if e > limit}


def _comes_to_rest(s: Segment, a: float) -> bool:
    return not s.rest and s.t[-1] - s.t0 > s.v0 / a + 0.05


@dataclass
class _Link:
    """A contact between segments: ``kind`` pawn or rail; ``before``/``after`` the segments of each
    pawn (one pawn for a rail, two for a pawn contact); ``window`` the times it falls within."""

    kind: str
    clip: str
    before: list[Segment]
    after: list[Segment]
    window: tuple[float, float]
    fresh: bool = False
    """no pawn of it met anything before (so none spins)"""


def split_tracks(
    tracks: Sequence[Track], r: float, half: float
) -> tuple[list[Segment], list[_Link]]:
    """Each track cut at its contacts into segments, and the contacts linking them."""
    by_clip: dict[str, list[Track]] = {}
    for tr in tracks:
        by_clip.setdefault(tr.clip, []).append(tr)
    segments: list[Segment] = []
    links: list[_Link] = []
    for clip, group in by_clip.items():
        dt = float(np.median(np.concatenate([np.diff(tr.t) for tr in group if len(tr.t) > 1])))
        cuts: dict[str, list[tuple[float, float, int]]] = {tr.pawn: [] for tr in group}
        met: dict[str, list[float]] = {tr.pawn: [] for tr in group}  # its contacts' times
        events: list[tuple[str, tuple[str, ...], tuple[float, float], int]] = []
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                for lo, hi in _pair_episodes(a, b, r):
                    events.append(("pawn", (a.pawn, b.pawn), (lo, hi), len(events)))
            for lo, hi in _rail_episodes(a, r, half, dt):
                events.append(("rail", (a.pawn,), (lo, hi), len(events)))
            for lo, hi in _joint_crossings(a, half):
                events.append(("joint", (a.pawn,), (lo, hi), len(events)))
        for kind, pawns, (lo, hi), k in events:
            margin = 0.0 if kind == "joint" else 1.5 * dt  # a joint: only the sample on it
            for p in pawns:
                cuts[p].append((lo - margin, hi + margin, k))
                if kind != "joint":
                    met[p].append(lo)
        pieces: dict[str, list[tuple[Segment, float, float]]] = {}
        for tr in group:
            pieces[tr.pawn] = _pieces(tr, cuts[tr.pawn])
            segments += [s for s, _, _ in pieces[tr.pawn]]
        for kind, pawns, (lo, hi), k in events:
            before, after, fresh = [], [], True
            for p in pawns:
                pre = [(s, end) for s, _, end in pieces[p] if end < lo]
                post = [(s, start) for s, start, _ in pieces[p] if start > hi]
                if not pre or not post or _between(cuts[p], k, pre[-1][1], post[0][1]):
                    break  # no stretch either side, or one only past another contact
                before.append(pre[-1][0])
                after.append(post[0][0])
                # it met nothing before: launched without spin, or at rest from the start
                fresh = fresh and not any(m < lo for m in met[p])
            else:
                window = (lo - 2 * dt, hi + 2 * dt)
                links.append(_Link(kind, clip, before, after, window, fresh))
    return segments, links


def _between(cuts: list[tuple[float, float, int]], k: int, end: float, start: float) -> bool:
    """Whether a contact other than ``k`` falls between a stretch ending at ``end`` and one
    starting at ``start`` (a stretch too short to fit was dropped between them)."""
    return any(kk != k and lo < start and hi > end for lo, hi, kk in cuts)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Index ranges [i, j] (inclusive) of the runs of True in ``mask``."""
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1, strict=True))


def _pair_episodes(a: Track, b: Track, r: float) -> list[tuple[float, float]]:
    """Times (first, last) at which pawns ``a`` and ``b`` were close enough to touch, one pair a
    contact, when one of them moved around it."""
    common, ia, ib = np.intersect1d(np.round(a.t, 6), np.round(b.t, 6), return_indices=True)
    if len(common) == 0:
        return []
    d = np.hypot(a.x[ia] - b.x[ib], a.y[ia] - b.y[ib])
    found = []
    for i, j in _runs(d <= 2.5 * r):
        lo, hi = max(i - 3, 0), min(j + 3, len(common) - 1)
        moved = max(
            np.hypot(a.x[ia[hi]] - a.x[ia[lo]], a.y[ia[hi]] - a.y[ia[lo]]),
            np.hypot(b.x[ib[hi]] - b.x[ib[lo]], b.y[ib[hi]] - b.y[ib[lo]]),
        )
        if moved > MOVING:
            found.append((float(common[i]), float(common[j])))
    return found


RAIL_REACH = 0.5
"""radii: a pawn whose centre comes within this of touching a board edge may touch its rail"""
EDGES = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))
"""outward normals of the board's east, west, north and south edges"""


def _rail_episodes(tr: Track, r: float, half: float, dt: float) -> list[tuple[float, float]]:
    """Times (first, last) at which a pawn came to an edge of the board and went back."""
    found: list[tuple[float, float]] = []
    p = np.stack([tr.x, tr.y], axis=1)
    for n in EDGES:
        reach = p @ np.array(n)  # how far out toward this edge
        for i, j in _runs(reach >= half - r - RAIL_REACH * r):
            if i < 3 or j > len(tr.t) - 4:
                continue
            v_in = (reach[i] - reach[i - 3]) / (tr.t[i] - tr.t[i - 3])
            v_out = (reach[j + 3] - reach[j]) / (tr.t[j + 3] - tr.t[j])
            lo, hi = float(tr.t[i]), float(tr.t[j])
            near = any(lo <= end and start <= hi for start, end in found)  # a corner: one
            if v_in > 0.02 and v_out < -0.005 and not near:
                found.append((lo, hi))
    return found


LANE = 0.06
"""m: a pawn's centre within this of the board's south edge's middle crosses from the track"""


def _joint_crossings(tr: Track, half: float) -> list[tuple[float, float]]:
    """The time (first, last: the one sample at or just past it) at which a pawn crossed from the
    track onto the board, over the south edge's middle."""
    on_board = tr.y >= -half
    for i in range(1, len(tr.t)):
        if on_board[i] and not on_board[i - 1] and abs(tr.x[i]) < LANE:
            return [(float(tr.t[i]), float(tr.t[i]))]
    return []


def _pieces(tr: Track, cuts: list[tuple[float, float, int]]) -> list[tuple[Segment, float, float]]:
    """The stretches of ``tr`` between cuts, each a segment with its first and last time."""
    keep = np.ones(len(tr.t), dtype=bool)
    for lo, hi, _ in cuts:
        keep &= ~((tr.t >= lo) & (tr.t <= hi))
    out = []
    for i, j in _runs(keep):
        if j - i + 1 < 5:
            continue
        t, x, y = tr.t[i : j + 1], tr.x[i : j + 1], tr.y[i : j + 1]
        if i == 0:  # the hand's push: start where the pawn goes fastest
            speed = np.hypot(np.diff(x), np.diff(y)) / np.diff(t)
            first = int(np.argmax(speed[: max(1, len(speed) // 3)]))
            t, x, y = t[first:], x[first:], y[first:]
        moved = float(np.max(np.hypot(x - x[0], y - y[0])))
        seg = Segment(tr.clip, tr.pawn, t, x, y, rest=moved < MOVING)
        out.append((seg, float(t[0]), float(t[-1])))
    return out


def _start(s: Segment, a: float) -> np.ndarray:
    """A first guess at (x0, y0, theta, v0) for a segment."""
    s.t0 = float(s.t[0])
    k = min(4, len(s.t) - 1)
    far = int(np.argmax(np.hypot(s.x - s.x[0], s.y - s.y[0])))
    theta = math.atan2(s.y[far] - s.y[0], s.x[far] - s.x[0])
    tau = s.t[k] - s.t[0]
    v0 = float(np.hypot(s.x[k] - s.x[0], s.y[k] - s.y[0]) / tau + a * tau / 2)
    return np.array([s.x[0], s.y[0], theta, v0])


def _model(
    s: Segment, p: np.ndarray, a: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(positions (n, 2), ds/dv0, ds/da, s, direction) of a segment's samples under (x0, y0,
    theta, v0) and deceleration ``a``."""
    x0, y0, th, v0 = p
    tau = s.t - s.t0
    stop = v0 / a
    going = tau < stop
    dist = np.where(going, v0 * tau - a * tau * tau / 2, v0 * stop / 2)
    dv = np.where(going, tau, stop)
    da = np.where(going, -tau * tau / 2, -v0 * v0 / (2 * a * a))
    u = np.array([math.cos(th), math.sin(th)])
    pos = np.array([x0, y0]) + dist[:, None] * u
    return pos, dv, da, dist, u


def _fit_deceleration(
    segs: list[Segment], a0: float
) -> tuple[float, float, list[tuple[float, float]]]:
    """The shared deceleration, its standard error (robust to errors correlated within a
    segment) and each sample's (speed, residual); every segment's fitted start set in place."""
    starts = np.concatenate([_start(s, a0) for s in segs])
    x_init = np.concatenate([[a0], starts])
    sizes = [2 * len(s.t) for s in segs]
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    m, n = int(offsets[-1]), len(x_init)

    def residual(x: np.ndarray) -> np.ndarray:
        out = np.empty(m)
        for k, s in enumerate(segs):
            pos, *_ = _model(s, x[1 + 4 * k : 5 + 4 * k], x[0])
            out[offsets[k] : offsets[k + 1]] = (pos - np.stack([s.x, s.y], axis=1)).ravel()
        return out

    def jac(x: np.ndarray) -> np.ndarray:
        J = np.zeros((m, n))
        for k, s in enumerate(segs):
            p = x[1 + 4 * k : 5 + 4 * k]
            _, dv, da, dist, u = _model(s, p, x[0])
            rows = slice(offsets[k], offsets[k + 1])
            block = np.zeros((len(s.t), 2, 5))
            block[:, :, 0] = da[:, None] * u
            block[:, 0, 1] = 1.0
            block[:, 1, 2] = 1.0
            block[:, :, 3] = dist[:, None] * np.array([-u[1], u[0]])
            block[:, :, 4] = dv[:, None] * u
            J[rows, 0] = block[:, :, 0].ravel()
            J[rows, 1 + 4 * k : 5 + 4 * k] = block[:, :, 1:].reshape(-1, 4)
        return J

    lower = np.full(n, -np.inf)
    lower[0], lower[4::4] = 1e-4, 0.0
    sol = least_squares(
        residual, x_init, jac=jac, bounds=(lower, np.full(n, np.inf)), x_scale="jac"
    )
    x, J, r = sol.x, sol.jac, sol.fun
    bread = np.linalg.pinv(J.T @ J)
    G = len(segs)
    if G > 1:  # robust to errors correlated within a segment (clustered sandwich)
        meat = np.zeros((n, n))
        for k in range(G):
            g = J[offsets[k] : offsets[k + 1]].T @ r[offsets[k] : offsets[k + 1]]
            meat += np.outer(g, g)
        cov = bread @ meat @ bread * G / (G - 1)
    else:
        cov = bread * float(r @ r) / max(m - n, 1)
    a = float(x[0])
    resid = []
    for k, s in enumerate(segs):
        s.x0, s.y0, s.theta, s.v0 = (float(v) for v in x[1 + 4 * k : 5 + 4 * k])
        err = r[offsets[k] : offsets[k + 1]].reshape(-1, 2)
        along = np.array([math.cos(s.theta), math.sin(s.theta)])
        speed = np.maximum(s.v0 - a * (s.t - s.t0), 0.0)
        resid += list(zip(speed.tolist(), (err @ along).tolist(), strict=True))
    return a, float(math.sqrt(max(cov[0, 0], 0.0))), resid


def _fit_spread(out: Fit, moving: list[Segment], a: float, base: PhysicsParams) -> None:
    """The surface's spread: how much more the decelerations of single slides come to rest
    differ than their own errors explain (DerSimonian–Laird; bootstrap interval)."""
    alone = []
    for s in moving:
        if not _comes_to_rest(s, a):
            continue
        copy = Segment(s.clip, s.pawn, s.t, s.x, s.y)
        try:
            a_i, se_i, _ = _fit_deceleration([copy], a)
        except (ValueError, np.linalg.LinAlgError):
            continue
        alone.append((a_i, se_i))
    if len(alone) < MIN_SPREAD:
        out.warnings.append(
            f"surface spread: not told ({counted(len(alone), 'slide')} came to rest in view; "
            f"at least {MIN_SPREAD})"
        )
        return
    est = np.array(alone)

    def spread(rows: np.ndarray) -> float:
        # DerSimonian–Laird: the variance between slides beyond each slide's own error
        w = 1 / np.maximum(rows[:, 1], 1e-12) ** 2
        mean = np.sum(w * rows[:, 0]) / np.sum(w)
        q = np.sum(w * (rows[:, 0] - mean) ** 2)
        tau2 = (q - (len(rows) - 1)) / (np.sum(w) - np.sum(w * w) / np.sum(w))
        return float(math.sqrt(max(tau2, 0.0)) / mean)

    rng = np.random.default_rng(0)
    draws = [spread(est[rng.integers(0, len(est), len(est))]) for _ in range(BOOTSTRAP)]
    lo, hi = np.percentile(draws, [2.5, 97.5])
    out.spread = Estimate("surface_spread", spread(est), float(lo), float(hi), len(est))
    if out.spread.value == 0.0:
        out.warnings.append(
            f"surface spread: the slides differ no more than the tracking explains "
            f"(at most {hi:.1%} of the deceleration)"
        )


def _contact(link: _Link, a: float, half: float, r: float) -> Contact | None:
    """A contact's normal speeds, at the time the paths before and after it meet, and for rim
    friction its tangential impulse against its normal one and the ratio that would stick."""
    lo, hi = link.window
    times = np.linspace(lo, hi, 201)

    def gap(t: float) -> float:
        return sum(
            float(np.sum((b.state(t, a)[0] - f.state(t, a)[0]) ** 2))
            for b, f in zip(link.before, link.after, strict=True)
        )

    t = float(times[int(np.argmin([gap(t) for t in times]))])
    if link.kind == "joint":
        (b,), (f,) = link.before, link.after
        if f.rest or b.rest:
            return None
        # where the path before reaches the board's edge
        ys = np.array([b.state(tt, a)[0][1] for tt in times])
        past = np.flatnonzero(ys >= -half)
        t = float(times[past[0]]) if len(past) else t
        before = float(np.linalg.norm(b.state(t, a)[1]))
        after = float(np.linalg.norm(f.state(t, a)[1]))
        return Contact("joint", link.clip, t, before, after) if before > 0 else None
    if link.kind == "rail":
        (b,), (f,) = link.before, link.after
        if f.rest or b.rest:
            return None  # a rebound too short to fit tells no speed
        p, v_in = b.state(t, a)
        _, v_out = f.state(t, a)
        n = np.array(max(EDGES, key=lambda e: float(p @ np.array(e))))
        approach, separation = float(v_in @ n), float(-(v_out @ n))
        ratio = stick = math.nan
        slip = v_in - (v_in @ n) * n  # the rim's slide along the rail (no spin)
        jn = approach + separation
        if link.fresh and jn > 0 and float(np.linalg.norm(slip)) > 0:
            along = slip / float(np.linalg.norm(slip))
            ratio = float(-((v_out - v_in) @ along) / jn)
            stick = float(np.linalg.norm(slip)) / 3 / jn  # a disc on a rail: m·slip/3 sticks
        return Contact("rail", link.clip, t, approach, separation, ratio, stick)
    (b1, b2), (f1, f2) = link.before, link.after
    t = _touch(b1, b2, a, r, times, t)
    p1, v1 = b1.state(t, a)
    p2, v2 = b2.state(t, a)
    _, w1 = f1.state(t, a)
    _, w2 = f2.state(t, a)
    n = (p2 - p1) / max(float(np.linalg.norm(p2 - p1)), 1e-9)
    approach = float((v1 - v2) @ n)  # pawn 1 toward pawn 2 (or 2 toward 1: the same sign)
    if approach <= 0:
        return None  # not closing in: no contact the model would make
    # a pawn left nearly still (a stretch too short to fit) moves as momentum says: equal masses
    if f1.rest and not f2.rest:
        w1 = v1 + v2 - w2
    elif f2.rest and not f1.rest:
        w2 = v1 + v2 - w1
    w1n, w2n = float(w1 @ n), float(w2 @ n)
    ratio = stick = math.nan
    if link.fresh and not (f1.rest and f2.rest):
        j = ((w2 - v2) - (w1 - v1)) / 2  # the impulse on pawn 2 over the mass, both pawns' view
        jn = float(j @ n)
        tan = np.array([-n[1], n[0]])
        slip = float((v1 - v2) @ tan)  # the rims' sliding at the touch (no spin)
        if jn > 0 and slip != 0:
            ratio = float(j @ tan) * math.copysign(1.0, slip) / jn
            stick = abs(slip) / 6 / jn  # two discs: m·slip/6 sticks
    return Contact("pawn", link.clip, t, approach, w2n - w1n, ratio, stick)


def _touch(b1: Segment, b2: Segment, a: float, r: float, times: np.ndarray, guess: float) -> float:
    """The time the paths before a contact bring the pawns' centres to 2r apart (``guess`` when
    they never do)."""
    d = np.array([np.linalg.norm(b1.state(t, a)[0] - b2.state(t, a)[0]) for t in times])
    inside = np.flatnonzero(d <= 2 * r)
    if len(inside) == 0 or inside[0] == 0:
        return guess
    k = int(inside[0])
    w = (d[k - 1] - 2 * r) / (d[k - 1] - d[k])
    return float(times[k - 1] + w * (times[k] - times[k - 1]))


def _fit_restitutions(out: Fit, rng: np.random.Generator) -> None:
    """Each restitution by a line through the origin, separation = e · approach, with a
    bootstrap interval over the contacts."""
    for kind, name in (("pawn", "restitution_pawn"), ("rail", "restitution_rail")):
        rows = np.array(
            [
                (c.approach, c.separation)
                for c in out.contacts
                if c.kind == kind and c.approach > 0.02
            ]
        )
        out.counts[f"{kind}_contacts"] = len(rows)
        if len(rows) < MIN_CONTACTS:
            out.warnings.append(
                f"{name}: not told ({len(rows)} {kind} contacts seen; at least {MIN_CONTACTS})"
            )
            continue
        out.estimates[name] = _through_origin(name, rows, rng)


MU_GRID = np.linspace(0.0, 2.0, 2001)
"""the rim frictions tried (their legal range)"""
MIN_FRICTION = 3
"""fewest contacts without spin that can tell a rim friction (one more than a noise needs)"""


def _fit_frictions(out: Fit) -> None:
    """Each rim friction μ by least squares on the contacts' tangential over normal impulse,
    ``ratio = min(μ, stick)``: a contact whose rims kept sliding (``stick`` above μ) tells μ, one
    that stuck says only that μ is at least its ratio. The 95 % interval is every μ whose fit is
    not worse than the best by more than the F test allows (the noise from the residuals); an
    interval that reaches the top of the legal range is a lower bound, not a value."""
    for kind, name in (("pawn", "friction_pawn"), ("rail", "friction_rail")):
        rows = np.array(
            [
                (c.ratio, c.stick)
                for c in out.contacts
                if c.kind == kind and math.isfinite(c.ratio) and c.approach > 0.02
            ]
        ).reshape(-1, 2)
        n = len(rows)
        if n < MIN_FRICTION:
            out.counts[f"{kind}_sliding"] = 0
            out.warnings.append(
                f"{name}: not told ({n} {kind} contacts without spin; at least {MIN_FRICTION}, "
                "glancing)"
            )
            continue
        model = np.minimum(MU_GRID[:, None], rows[None, :, 1])
        cost = np.sum((rows[None, :, 0] - model) ** 2, axis=1)
        k = int(np.argmin(cost))
        noise = max(float(cost[k]) / (n - 1), 1e-12)
        f95 = float(stdtrit(n - 1, 0.975)) ** 2  # F(1, n − 1)'s 95 % point: Student's t squared
        inside = MU_GRID[(cost - cost[k]) / noise <= f95]
        best, lo, hi = float(MU_GRID[k]), float(inside.min()), float(inside.max())
        sliding = int(np.sum(rows[:, 1] > hi))
        out.counts[f"{kind}_sliding"] = sliding
        if hi >= MU_GRID[-1]:
            out.warnings.append(
                f"{name}: not told: its {n} {kind} contacts without spin are as well explained "
                f"by rims that stuck (it is at least {lo:.2g}; glancing hits tell it)"
            )
            continue
        out.estimates[name] = Estimate(name, best, lo, hi, n)


JOINT_FLOOR = 0.01
"""a joint loss whose interval reaches below this share of the speed is not told from the
filming's own errors (simulated clips with no loss give up to 0.4 %)"""


def _fit_joint(out: Fit, rng: np.random.Generator) -> None:
    """The share of its speed a pawn loses crossing from the track onto the board, ``1 − k`` with
    ``k`` the slope of the speed after against the speed before, through the origin; a measured
    quantity (the model has none), with a bootstrap interval over the crossings."""
    rows = np.array([(c.approach, c.separation) for c in out.contacts if c.kind == "joint"])
    out.counts["joint_crossings"] = len(rows)
    if len(rows) < MIN_CONTACTS:
        out.warnings.append(
            f"joint loss: not told ({len(rows)} crossings from the track onto the board seen, "
            f"five frames either side; at least {MIN_CONTACTS}: film the track's last 12 cm)"
        )
        return
    k = _through_origin("joint", rows, rng)
    e = Estimate("joint_loss", 1 - k.value, 1 - k.high, 1 - k.low, k.n)
    out.measured["joint_loss"] = e
    if e.low <= JOINT_FLOOR:
        out.warnings.append(
            f"joint loss: the data show none (95 % interval [{e.low:.1%}, {e.high:.1%}] of the "
            f"speed; below {JOINT_FLOOR:.0%} it is not told from the filming's own errors)"
        )
    else:
        out.warnings.append(
            f"joint loss: {e.value:.1%} of the speed, which the model does not have "
            "(measured only; not in [physics])"
        )


def _through_origin(name: str, rows: np.ndarray, rng: np.random.Generator) -> Estimate:
    def slope(r: np.ndarray) -> float:
        return float(np.sum(r[:, 0] * r[:, 1]) / np.sum(r[:, 0] ** 2))

    draws = [slope(rows[rng.integers(0, len(rows), len(rows))]) for _ in range(BOOTSTRAP)]
    lo, hi = np.percentile(draws, [2.5, 97.5])
    return Estimate(name, slope(rows), float(lo), float(hi), len(rows))


# -- hand measurements ----------------------------------------------------------------------------


def fit_measurements(rows: Sequence[Measurement], base: PhysicsParams, source: str = "") -> Fit:
    """Fit rolling resistance from the slides' stopping distances, then the restitutions from the
    collisions' and rail bounces' (speeds after a contact told by how far the pawns went on);
    intervals by the bootstrap, resampling every kind of row together."""
    out = Fit(source)
    slides = np.array([(m.speed, m.stop) for m in rows if m.kind == "slide"])
    out.counts = {k: sum(1 for m in rows if m.kind == k) for k in ("slide", "collision", "rail")}
    if len(slides) < MIN_SLIDES:
        raise UserError(f"{source}: too few slides to fit: {len(slides)} (at least {MIN_SLIDES})")
    hits = [m for m in rows if m.kind == "collision"]
    rails = [m for m in rows if m.kind == "rail"]

    def solve(sl: np.ndarray, hs: list[Measurement], rs: list[Measurement]) -> list[float]:
        # stop = v²/(2a): least squares in the stopping distance, 1/a linear
        inv = float(np.sum(sl[:, 1] * sl[:, 0] ** 2 / 2) / np.sum((sl[:, 0] ** 2 / 2) ** 2))
        a = 1 / inv
        e_pawn = [_collision_e(m, a) for m in hs]
        e_rail = [_rail_e(m, a) for m in rs]
        return [a, _mean(e_pawn), _mean(e_rail)]

    best = solve(slides, hits, rails)
    rng = np.random.default_rng(0)
    draws = []
    for _ in range(BOOTSTRAP):
        sl = slides[rng.integers(0, len(slides), len(slides))]
        hs = [hits[i] for i in rng.integers(0, len(hits), len(hits))]
        rs = [rails[i] for i in rng.integers(0, len(rails), len(rails))]
        draws.append(solve(sl, hs, rs))
    d = np.array(draws)
    g = base.g
    lo, hi = np.nanpercentile(d[:, 0], [2.5, 97.5])
    out.estimates["mu_roll"] = Estimate("mu_roll", best[0] / g, lo / g, hi / g, len(slides))
    for k, (name, n) in enumerate(
        (("restitution_pawn", len(hits)), ("restitution_rail", len(rails))), start=1
    ):
        if n < MIN_CONTACTS or not math.isfinite(best[k]):
            out.warnings.append(f"{name}: not told ({n} rows; at least {MIN_CONTACTS})")
            continue
        lo, hi = np.nanpercentile(d[:, k], [2.5, 97.5])
        out.estimates[name] = Estimate(name, best[k], float(lo), float(hi), n)
    fitted = base.replace(mu_roll=best[0] / g)
    for v, stop in slides:
        out.stops.append((float(stop), fitted.stopping_distance(float(v))))
        out.residuals.append((float(v), float(stop - fitted.stopping_distance(float(v)))))
    per = slides[:, 0] ** 2 / (2 * slides[:, 1])
    if len(per) >= MIN_SPREAD:
        rel = float(np.std(per, ddof=1) / np.mean(per))
        boot = [
            float(np.std(s, ddof=1) / np.mean(s))
            for s in (per[rng.integers(0, len(per), len(per))] for _ in range(BOOTSTRAP))
        ]
        lo, hi = np.percentile(boot, [2.5, 97.5])
        out.spread = Estimate("surface_spread", rel, float(lo), float(hi), len(per))
        out.warnings.append(
            "surface spread: from hand measurements it includes the measuring's own error "
            "(an upper bound)"
        )
    else:
        out.warnings.append(
            f"surface spread: not told ({counted(len(per), 'slide')}; at least {MIN_SPREAD})"
        )
    out.warnings.append(
        "friction_pawn, friction_rail, joint loss: not told by hand measurements "
        "(film the slides: calibrate video)"
    )
    return out


def _mean(values: list[float]) -> float:
    ok = [v for v in values if math.isfinite(v)]
    return float(np.mean(ok)) if ok else math.nan


def _collision_e(m: Measurement, a: float) -> float:
    """Head on, equal masses: the speeds after are √(2·a·stop); e = (v_hit − v_shooter)/v."""
    v2 = m.speed**2 - 2 * a * m.travel
    if v2 <= 0:
        return math.nan
    return (math.sqrt(2 * a * m.stop_other) - math.sqrt(2 * a * m.stop)) / math.sqrt(v2)


def _rail_e(m: Measurement, a: float) -> float:
    v2 = m.speed**2 - 2 * a * m.travel
    if v2 <= 0:
        return math.nan
    return math.sqrt(2 * a * m.stop) / math.sqrt(v2)


COUNT_NOUNS: dict[str, tuple[str, str | None]] = {
    "tracks": ("track", None),
    "segments": ("free stretch", "free stretches"),
    "slide": ("slide", None),
    "collision": ("collision", None),
    "rail": ("rail contact", None),
    "pawn_contacts": ("pawn contact", None),
    "rail_contacts": ("rail contact", None),
    "pawn_sliding": ("pawn contact sliding", "pawn contacts sliding"),
    "rail_sliding": ("rail contact sliding", "rail contacts sliding"),
    "joint_crossings": ("joint crossing", None),
}
"""how :func:`describe` names each count of :attr:`Fit.counts` (singular, plural if not +s);
the parameter file keeps the counts' own names"""


def describe(fit: Fit, base: PhysicsParams) -> list[str]:
    """The fit in lines of text: each parameter's estimate, interval and default, the spread,
    the warnings."""
    counts = ", ".join(
        counted(n, *COUNT_NOUNS.get(k, (k.replace("_", " "), None))) for k, n in fit.counts.items()
    )
    lines = [f"fitted from {fit.source}: {counts}"]
    for name, e in fit.estimates.items():
        lines.append(
            f"  {name:<18} {e.text()}  (95 % interval; from {e.n}; was {getattr(base, name):g})"
        )
    if fit.spread is not None:
        s = fit.spread
        lines.append(
            f"  {'surface spread':<18} {s.value:.1%} [{s.low:.1%}, {s.high:.1%}] of the "
            f"deceleration from slide to slide (about --noise-speed {s.value / 2:.3f})"
        )
    for name, e in fit.measured.items():
        lines.append(
            f"  {name:<18} {e.value:.2%} [{e.low:.2%}, {e.high:.2%}] of the speed at the "
            f"track-board joint (95 % interval; from {e.n}; measured, not a model parameter)"
        )
    lines += [f"warning: {w}" for w in fit.warnings]
    return lines

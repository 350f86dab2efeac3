"""Simulating one chunk of a study: the code that runs inside a worker.

A chunk is a run of consecutive simulated shots ``start..stop-1``; shot ``s`` is sample
``s % samples`` of intended shot ``s // samples``. The result is a dict of numpy columns, one row
per simulated shot (see :data:`COLUMNS` and :func:`pawn_columns`), built without any per-row objects
beyond the physics' own result.

A sample the physics refuses is that sample's outcome, never the end of the study (see
:data:`FAULTS`): a release the hand's error pushes past the end of the lane crossed the foul line on
its way, so it is a foul like any release past the foul line (one pushed behind the lane's start is
clipped to it by :func:`~sliders.physics.noise.apply_errors`); any other refusal, such as a release
point taken by a pawn already on the lane, leaves the pawn in hand and the table as it was.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np

from sliders.ai.value import Valuer
from sliders.batch.study import NOISE_STREAM, SEED_STREAM, Context
from sliders.boards import Face, Layout, Seat
from sliders.boards.geometry import PlacedPawn
from sliders.errors import UserError
from sliders.outcome import EventType, Status
from sliders.physics import PhysicsParams, Shot, ShotLimits, at_rest, simulate
from sliders.physics.noise import apply_errors
from sliders.physics.shot import next_in_hand
from sliders.rules import penalised

STATUSES: tuple[Status, ...] = tuple(Status)
"""Status codes in the table: ``status`` column value k is ``STATUSES[k]``."""
_CODE = {s: np.int8(i) for i, s in enumerate(STATUSES)}

FAULTS: tuple[str, ...] = ("none", "past_lane_end", "refused")
"""Codes of the ``fault`` column: 0 the shot was simulated; 1 the executed release lay past the end
of the lane (recorded as a foul, where the hand let go); 2 the physics refused the executed shot
(recorded as the pawn still in hand, nothing moved, its position NaN)."""
FAULT_PAST_END, FAULT_REFUSED = 1, 2

COLUMNS: dict[str, tuple[type, str]] = {
    "shot": (np.int64, "index of the simulated shot"),
    "intended": (np.int64, "index of the intended shot"),
    "sample": (np.int32, "sample number within the intended shot"),
    "speed": (np.float64, "intended speed, m/s"),
    "angle": (np.float64, "intended angle, degrees right of straight"),
    "offset": (np.float64, "intended offset, m right of the lane's axis"),
    "release": (np.float64, "intended release, m from the lane's near end"),
    "exec_speed": (np.float64, "executed speed, m/s"),
    "exec_angle": (np.float64, "executed angle, degrees (radians(exec_angle) was simulated)"),
    "exec_offset": (np.float64, "executed offset, m"),
    "exec_release": (np.float64, "executed release, m"),
    "seed": (np.int64, "physics seed (sliders shot --seed)"),
    "status": (np.int8, "rest status of the shot pawn"),
    "points": (np.int8, "points of the shot pawn as it stands"),
    "x": (np.float64, "where the shot pawn came to rest (or left play), m"),
    "y": (np.float64, "where the shot pawn came to rest (or left play), m"),
    "value": (np.float64, "change of the seat's game value (docs/strategy.md)"),
    "penalty": (np.bool_, "the shot pawn's own removal costs a penalty"),
    "penalties": (np.int8, "penalties the shooter's seat incurs (shot pawn and its others)"),
    "own_removed": (np.int8, "the shooter's pawns already on the table that were removed"),
    "own_delta": (np.int16, "change in points of the shooter's pawns already on the table"),
    "opp_removed": (np.int8, "other seats' pawns removed"),
    "opp_delta": (np.int16, "change in points of other seats' pawns"),
    "opp_penalties": (np.int8, "penalties other seats incur"),
    "contacts": (np.int16, "pawn-pawn contacts during the shot"),
    "settle_time": (np.float64, "time until everything was at rest, s"),
    "fault": (np.int8, "0 simulated, 1 released past the lane's end (a foul), 2 refused"),
}


def pawn_columns(pid: str) -> tuple[str, str]:
    """The table's columns for a pawn that stood on the table before the shot."""
    return f"{pid}.status", f"{pid}.points"


@dataclass(frozen=True)
class Prepared:
    """A study's context turned into the objects the physics uses, built once per worker."""

    layout: Layout
    face: Face
    seat: Seat
    params: PhysicsParams
    table: tuple[PlacedPawn, ...]
    before_points: np.ndarray  # points of each table pawn before the shot
    before_status: np.ndarray  # status codes of each table pawn before the shot
    own: np.ndarray  # True for table pawns of the shooter's seat
    penal: frozenset[Status]  # removal statuses that cost a penalty on this face
    valuer: Valuer  # the shot's value through the rules engine


@functools.lru_cache(maxsize=8)
def prepare(ctx: Context) -> Prepared:

    layout, face = ctx.build()
    table = tuple(ctx.scene.pawns)
    rests = at_rest(layout, face, table, ctx.params)
    return Prepared(
        layout=layout,
        face=face,
        seat=layout.seat(ctx.seat),
        params=ctx.params,
        table=table,
        before_points=np.array([p.points for p in rests], dtype=np.int16),
        before_status=np.array([_CODE[p.status] for p in rests], dtype=np.int8),
        own=np.array([p.seat == ctx.seat for p in rests], dtype=bool),
        penal=frozenset(s for s in Status if s.removed and penalised(face.name, s)),
        valuer=Valuer(face.name, ctx.scene.seats, ctx.seat, rests, ctx.spot),
    )


def _unplayed(out: dict[str, np.ndarray], r: int, shot: Shot, prep: Prepared) -> None:
    """Row ``r`` for an executed shot the physics refused (see :data:`FAULTS`)."""
    release = prep.seat.foul if shot.release is None else shot.release
    if release > prep.seat.foul:  # the hand crossed the foul line on its way out of the lane
        status, out["fault"][r] = Status.FOUL, FAULT_PAST_END
        out["x"][r], out["y"][r] = prep.seat.to_world(release, shot.offset)
    else:
        status, out["fault"][r] = Status.IN_HAND, FAULT_REFUSED
        out["x"][r] = out["y"][r] = math.nan
    out["status"][r] = _CODE[status]
    out["penalty"][r] = status in prep.penal


def errors_for(ctx: Context, intended: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The execution errors (count × 4) and physics seeds of the first ``count`` samples of
    intended shot ``intended``. A prefix of a longer draw, so any chunking gives the same values."""
    rng = np.random.default_rng(ctx.stream(NOISE_STREAM, intended))
    errors = ctx.noise.draw(rng, count)
    srng = np.random.default_rng(ctx.stream(SEED_STREAM, intended))
    seeds = srng.integers(0, 2**63 - 1, size=count, dtype=np.int64, endpoint=True)
    return errors, seeds


def run_chunk(ctx: Context, start: int, stop: int, intended: np.ndarray) -> dict[str, np.ndarray]:
    """Simulate shots ``start..stop-1`` and value them; ``intended`` holds the rows of the intended
    shots they belong to, from intended shot ``start // samples`` on."""
    out = simulate_chunk(ctx, start, stop, intended)
    add_values(ctx, out)
    return out


def add_values(ctx: Context, out: dict[str, np.ndarray]) -> None:
    """Fill the ``value`` column from the statuses and points of every pawn (whatever engine
    simulated them): each distinct outcome goes through the rules once (see
    :mod:`sliders.ai.value`)."""
    prep = prepare(ctx)
    n = len(out["shot"])
    if not n:
        return
    ids = [q.id for q in prep.table]
    cols = [out["status"], out["points"]]
    for pid in ids:
        cols += [out[c] for c in pawn_columns(pid)]
    rows = np.stack([c.astype(np.int16) for c in cols], axis=1)
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    shooter = ctx.pawn or next_in_hand(ctx.seat, prep.table)
    values = np.array([prep.valuer.of_codes(shooter, ids, row) for row in distinct])
    out["value"][:] = values[inverse.ravel()]


def simulate_chunk(
    ctx: Context, start: int, stop: int, intended: np.ndarray
) -> dict[str, np.ndarray]:
    """Simulate shots ``start..stop-1`` (every column but ``value``)."""
    prep = prepare(ctx)
    if ctx.engine == "exact":
        return _run_chunk_exact(ctx, prep, start, stop, intended)
    k = ctx.samples
    n = stop - start
    out: dict[str, np.ndarray] = {
        name: np.zeros(n, dtype=dtype) for name, (dtype, _) in COLUMNS.items()
    }
    m = len(prep.table)
    pawn_status = np.zeros((n, m), dtype=np.int8)
    pawn_points = np.zeros((n, m), dtype=np.int16)

    shots = np.arange(start, stop, dtype=np.int64)
    which = shots // k
    sample = shots % k
    out["shot"][:] = shots
    out["intended"][:] = which
    out["sample"][:] = sample
    rows = intended[which - which[0]] if n else intended[:0]
    for j, name in enumerate(("speed", "angle", "offset", "release")):
        out[name][:] = rows[:, j]

    p, seat, layout, face, table = prep.params, prep.seat, prep.layout, prep.face, prep.table
    penal = prep.penal
    order = [q.id for q in table]
    cur, errors, seeds = -1, np.empty((0, 4)), np.empty(0, np.int64)
    aim = Shot(ctx.seat, 1.0)
    for r in range(n):
        i = int(which[r])
        if i != cur:
            cur = i
            first = int(sample[r])
            last = int(sample[min(n - 1, r + k - 1 - first)])
            errors, seeds = errors_for(ctx, i, last + 1)
            row = rows[r]
            aim = Shot(
                ctx.seat,
                float(row[0]),
                math.radians(float(row[1])),
                float(row[2]),
                float(row[3]),
                ctx.pawn,
            )
        j = int(sample[r])
        shot = apply_errors(aim, errors[j], seat, p)
        # simulate the angle the table records, so that `sliders shot --angle` replays it exactly
        # (an angle executed as aimed is recorded as aimed: degrees(radians(d)) may not be d)
        degrees = float(rows[r, 1])
        if shot.angle != math.radians(degrees):
            degrees = math.degrees(shot.angle)
        shot = replace(shot, angle=math.radians(degrees))
        seed = int(seeds[j])
        out["exec_speed"][r] = shot.speed
        out["exec_angle"][r] = degrees
        out["exec_offset"][r] = shot.offset
        out["exec_release"][r] = shot.release
        out["seed"][r] = seed
        try:
            result = simulate(layout, face, table, shot, p, seed, ctx.engine)
        except UserError:
            _unplayed(out, r, shot, prep)
            pawn_status[r] = prep.before_status
            pawn_points[r] = prep.before_points
            continue
        me, *others = result.pawns
        out["status"][r] = _CODE[me.status]
        out["points"][r] = me.points
        out["x"][r] = me.x
        out["y"][r] = me.y
        out["penalty"][r] = me.status in penal
        out["settle_time"][r] = result.settle_time
        out["contacts"][r] = sum(1 for e in result.events if e.type is EventType.CONTACT)
        for c, q in enumerate(others):
            assert q.id == order[c]
            pawn_status[r, c] = _CODE[q.status]
            pawn_points[r, c] = q.points
            if q.status in penal:
                if prep.own[c]:
                    out["penalties"][r] += 1
                else:
                    out["opp_penalties"][r] += 1

    if m:
        removed = np.isin(pawn_status, [_CODE[s] for s in STATUSES if s.removed])
        delta = pawn_points - prep.before_points[None, :]
        own = prep.own
        out["own_removed"][:] = removed[:, own].sum(axis=1)
        out["opp_removed"][:] = removed[:, ~own].sum(axis=1)
        out["own_delta"][:] = delta[:, own].sum(axis=1)
        out["opp_delta"][:] = delta[:, ~own].sum(axis=1)
    out["penalties"] += out["penalty"]
    for c, pid in enumerate(order):
        s_col, p_col = pawn_columns(pid)
        out[s_col] = pawn_status[:, c]
        out[p_col] = pawn_points[:, c].astype(np.int8)
    return out


def _run_chunk_exact(
    ctx: Context, prep: Prepared, start: int, stop: int, intended: np.ndarray
) -> dict[str, np.ndarray]:
    """:func:`run_chunk` in the exact engine: the executed shots as arrays (the errors applied as
    :func:`~sliders.physics.noise.apply_errors` applies them), all solved in one compiled call."""

    k, n = ctx.samples, stop - start
    shots = np.arange(start, stop, dtype=np.int64)
    which, sample = shots // k, shots % k
    rows = intended[which - which[0]] if n else intended[:0]
    errors = np.zeros((n, 4))
    seeds = np.zeros(n, dtype=np.int64)
    for i in np.unique(which):
        mine = which == i
        e, s = errors_for(ctx, int(i), int(sample[mine].max()) + 1)
        errors[mine], seeds[mine] = e[sample[mine]], s[sample[mine]]
    out = _exact_rows(ctx, prep, rows, errors, seeds)
    out["shot"][:], out["intended"][:], out["sample"][:] = shots, which, sample
    return out


def run_paired(
    ctx: Context, shots: np.ndarray, first: np.ndarray, stop: np.ndarray
) -> dict[str, np.ndarray]:
    """Samples ``first[i]..stop[i]-1`` of each intended shot ``shots[i]`` of a paired context
    (sample j of every shot has the same draws), simulated in one batch by the exact engine and
    valued; rows in that order, ``intended`` the index into ``shots``. Equal, row for row, to
    :func:`run_chunk` of each shot alone."""
    if not ctx.paired or ctx.engine != "exact":
        raise ValueError("run_paired needs a paired context in the exact engine")
    prep = prepare(ctx)
    first, stop = np.asarray(first, dtype=np.int64), np.asarray(stop, dtype=np.int64)
    which = np.repeat(np.arange(len(shots)), stop - first)
    parts = [np.arange(a, b, dtype=np.int64) for a, b in zip(first, stop, strict=True)]
    sample = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    errors, seeds = errors_for(ctx, 0, int(stop.max(initial=0)))
    rows = np.asarray(shots, dtype=float)[which]
    out = _exact_rows(ctx, prep, rows, errors[sample], seeds[sample])
    out["shot"][:], out["intended"][:], out["sample"][:] = sample, which, sample
    add_values(ctx, out)
    return out


def _exact_rows(
    ctx: Context, prep: Prepared, rows: np.ndarray, errors: np.ndarray, seeds: np.ndarray
) -> dict[str, np.ndarray]:
    """Intended shots ``rows`` executed with ``errors`` and physics ``seeds``, in one batch."""
    from sliders.physics.exact.batch import simulate_batch

    n, p, seat = len(rows), prep.params, prep.seat
    out: dict[str, np.ndarray] = {
        name: np.zeros(n, dtype=dtype) for name, (dtype, _) in COLUMNS.items()
    }
    for j, name in enumerate(("speed", "angle", "offset", "release")):
        out[name][:] = rows[:, j]
    limits = ShotLimits.of(seat, p)
    speed, angle, offset = limits.clip_arrays(
        rows[:, 0] * (1.0 + errors[:, 0]),
        np.radians(rows[:, 1]) + errors[:, 1],
        rows[:, 2] + errors[:, 2],
    )
    # the angle the table records, so that rows replay exactly; one executed as aimed is
    # recorded as aimed (degrees(radians(d)) may not be d)
    aimed = angle == np.radians(rows[:, 1])
    angle = np.where(aimed, angle, np.radians(np.degrees(angle)))
    base = np.where(np.isnan(rows[:, 3]), seat.foul, rows[:, 3])
    moved = np.maximum(base + errors[:, 3], limits.min_release)
    release = np.where(errors[:, 3] != 0, moved, rows[:, 3])
    result = simulate_batch(
        prep.layout, prep.face, prep.table, ctx.seat, speed, angle, offset, release, p, seeds,
        ctx.pawn, refuse=False,
    )  # fmt: skip
    out["exec_speed"][:] = speed
    out["exec_angle"][:] = np.where(aimed, rows[:, 1], np.degrees(angle))
    out["exec_offset"][:], out["exec_release"][:], out["seed"][:] = offset, release, seeds
    status, points = result.status, result.points
    out["status"][:], out["points"][:] = status[:, 0], points[:, 0]
    out["x"][:], out["y"][:] = result.x[:, 0], result.y[:, 0]
    penal = np.isin(status, [_CODE[s] for s in prep.penal])
    out["penalty"][:] = penal[:, 0]
    out["settle_time"][:], out["contacts"][:] = result.settle_time, result.contacts
    m = len(prep.table)
    if m:
        others, own = status[:, 1:], prep.own
        removed = np.isin(others, [_CODE[s] for s in STATUSES if s.removed])
        delta = points[:, 1:] - prep.before_points[None, :]
        out["own_removed"][:] = removed[:, own].sum(axis=1)
        out["opp_removed"][:] = removed[:, ~own].sum(axis=1)
        out["own_delta"][:] = delta[:, own].sum(axis=1)
        out["opp_delta"][:] = delta[:, ~own].sum(axis=1)
        out["penalties"][:] = penal[:, 1:][:, own].sum(axis=1)
        out["opp_penalties"][:] = penal[:, 1:][:, ~own].sum(axis=1)
    out["penalties"] += out["penalty"]
    for r in np.flatnonzero(result.refused):  # as the shot-by-shot path records a refusal
        for name in ("settle_time", "contacts", "penalties", "own_removed", "opp_removed",
                     "opp_penalties", "own_delta", "opp_delta"):  # fmt: skip
            out[name][r] = 0
        status[r, 1:], points[r, 1:] = prep.before_status, prep.before_points
        aim = Shot(ctx.seat, float(speed[r]), float(angle[r]), float(offset[r]), float(release[r]))
        _unplayed(out, int(r), aim, prep)
        out["penalties"][r] = out["penalty"][r]
    for c, q in enumerate(prep.table):
        s_col, p_col = pawn_columns(q.id)
        out[s_col] = status[:, c + 1].copy()
        out[p_col] = points[:, c + 1].astype(np.int8)
    return out

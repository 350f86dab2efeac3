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
from dataclasses import dataclass

import numpy as np

from sliders.ai.value import Valuer, win_model
from sliders.batch.study import NOISE_STREAM, SEED_STREAM, Context
from sliders.boards import Seat
from sliders.boards.geometry import PlacedPawn
from sliders.core.outcome import STATUSES, Status
from sliders.physics import Setup, Shot, ShotLimits, Shots, at_rest, simulate_many
from sliders.physics.shot import next_in_hand
from sliders.rules import penalised

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
    "value": (np.float64, "the seat's chance of winning after the shot (docs/strategy.md)"),
    "progress": (np.float64, "change of the seat's progress lead (docs/strategy.md)"),
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

    setup: Setup  # the layout, face, parameters and engine the shots are simulated in
    seat: Seat
    table: tuple[PlacedPawn, ...]
    before_points: np.ndarray  # points of each table pawn before the shot
    before_status: np.ndarray  # status codes of each table pawn before the shot
    own: np.ndarray  # True for table pawns of the shooter's seat
    penal: frozenset[Status]  # removal statuses that cost a penalty on this face
    valuer: Valuer  # the shot's value (and progress) through the rules engine


@functools.lru_cache(maxsize=8)
def prepare(ctx: Context) -> Prepared:

    setup = ctx.setup()
    layout, face = setup.layout, setup.face
    table = tuple(ctx.scene.pawns)
    rests = at_rest(layout, face, table, ctx.params)
    return Prepared(
        setup=setup,
        seat=layout.seat(ctx.seat),
        table=table,
        before_points=np.array([p.points for p in rests], dtype=np.int16),
        before_status=np.array([_CODE[p.status] for p in rests], dtype=np.int8),
        own=np.array([p.seat == ctx.seat for p in rests], dtype=bool),
        penal=frozenset(s for s in Status if s.removed and penalised(face.name, s)),
        valuer=Valuer.at(
            face.name,
            ctx.scene.seats,
            ctx.seat,
            rests,
            win_model(layout, face, ctx.seat, ctx.noise, ctx.params),
            ctx.spot,
        ),
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
    """Fill the ``value`` and ``progress`` columns from the statuses and points of every pawn
    (whatever engine simulated them): each distinct outcome goes through the rules once (see
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
    order = (ctx.pawn or next_in_hand(ctx.seat, prep.table), *ids)
    got = np.array([prep.valuer.of_codes(order, row) for row in distinct]).reshape(-1, 2)
    out["value"][:] = got[inverse.ravel(), 0]
    out["progress"][:] = got[inverse.ravel(), 1]


def upgrade(ctx: Context, table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A table written before the value was the chance of winning (one with a ``value`` column
    and no ``progress``): its ``value`` held the change of the progress lead, so it becomes
    ``progress``, and ``value`` is computed from the rows' outcomes as a new table's is. Any
    other table, or one without a whole-number column the value is computed from (a table from
    elsewhere), is returned as it is, for the table's checks to name what is wrong."""
    if "progress" in table or "value" not in table:
        return table
    prep = prepare(ctx)
    needed = ["shot", "status", "points", *(c for q in prep.table for c in pawn_columns(q.id))]
    if any(c not in table or table[c].dtype.kind not in "iu" for c in needed):
        return table
    out: dict[str, np.ndarray] = {}
    for name, col in table.items():
        if name == "value":
            out["value"] = np.zeros(len(col), dtype=np.float64)
            out["progress"] = col.astype(np.float64)
        else:
            out[name] = col
    add_values(ctx, out)
    return out


def simulate_chunk(
    ctx: Context, start: int, stop: int, intended: np.ndarray
) -> dict[str, np.ndarray]:
    """Simulate shots ``start..stop-1`` (every column but ``value`` and ``progress``): the executed shots as
    arrays (the errors applied as :func:`~sliders.physics.noise.apply_errors` applies them), all
    run by one :func:`~sliders.physics.simulate_many` (in the exact engine, one compiled call)."""
    prep = prepare(ctx)
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
    out = _rows(ctx, prep, rows, errors, seeds)
    out["shot"][:], out["intended"][:], out["sample"][:] = shots, which, sample
    return out


def run_paired(
    ctx: Context, shots: np.ndarray, first: np.ndarray, stop: np.ndarray
) -> dict[str, np.ndarray]:
    """Samples ``first[i]..stop[i]-1`` of each intended shot ``shots[i]`` of a paired context
    (sample j of every shot has the same draws), simulated in one batch and valued; rows in that order, ``intended`` the index into ``shots``. Equal, row for row, to
    :func:`run_chunk` of each shot alone."""
    if not ctx.paired:
        raise ValueError("run_paired needs a paired context")
    prep = prepare(ctx)
    first, stop = np.asarray(first, dtype=np.int64), np.asarray(stop, dtype=np.int64)
    which = np.repeat(np.arange(len(shots)), stop - first)
    parts = [np.arange(a, b, dtype=np.int64) for a, b in zip(first, stop, strict=True)]
    sample = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    errors, seeds = errors_for(ctx, 0, int(stop.max(initial=0)))
    rows = np.asarray(shots, dtype=float)[which]
    out = _rows(ctx, prep, rows, errors[sample], seeds[sample])
    out["shot"][:], out["intended"][:], out["sample"][:] = sample, which, sample
    add_values(ctx, out)
    return out


def _rows(
    ctx: Context, prep: Prepared, rows: np.ndarray, errors: np.ndarray, seeds: np.ndarray
) -> dict[str, np.ndarray]:
    """Intended shots ``rows`` executed with ``errors`` and physics ``seeds``, in one batch."""
    n, p, seat = len(rows), prep.setup.params, prep.seat
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
    many = Shots(ctx.seat, speed, angle, offset, release, seeds, ctx.pawn, refuse=False)
    result = simulate_many(prep.setup, prep.table, many)
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

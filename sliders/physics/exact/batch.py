"""Many shots of one table solved inside compiled code, from arrays to arrays.

:func:`simulate_batch` is the batch path of the exact engine: no per-shot Python objects, the rest
statuses found by compiled code that follows :func:`sliders.boards.geometry.classify`. With a
knock-over spread (random topples) each shot draws its pawns' thresholds from its own seeded
generator, so every shot is the one :func:`~sliders.physics.exact.simulate_exact` gives with that
seed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sliders.boards import Face, Layout, Seat, surface_at
from sliders.boards.geometry import PlacedPawn, check_pawns
from sliders.core.errors import UserError
from sliders.core.outcome import SEATS, BatchResult, pawn_seat
from sliders.core.outcome import STATUSES as STATUSES  # the status codes, as before
from sliders.physics.exact.classification import classify_many
from sliders.physics.exact.compile import ensure_compiled
from sliders.physics.exact.loop import BatchOut, run_batch
from sliders.physics.exact.simulation import MAX_EVENTS
from sliders.physics.exact.world import world_for
from sliders.physics.limits import shot_limits
from sliders.physics.model import knock_over_thresholds
from sliders.physics.params import PhysicsParams
from sliders.physics.shot import next_in_hand


def simulate_batch(
    layout: Layout,
    face: Face,
    table: Sequence[PlacedPawn],
    seat: str,
    speed: np.ndarray,
    angle: np.ndarray,
    offset: np.ndarray,
    release: np.ndarray | None = None,
    params: PhysicsParams | None = None,
    seeds: np.ndarray | None = None,
    pawn: str | None = None,
    refuse: bool = True,
) -> BatchResult:
    """Solve shots from ``seat`` (speeds m/s, angles rad right of straight, offsets m right of the
    lane's axis, releases m from the lane's near end — NaN or None: the foul line) onto ``table``.
    ``seeds`` (one per shot) are used only when the knock-over spread draws.

    A shot one simulation would refuse (its release point taken by a pawn on the table, or past
    the end of the lane) raises UserError; with ``refuse=False`` it is instead marked in
    ``refused`` and left unsimulated (its row holds the shot pawn as a foul and the table as it
    was)."""
    ensure_compiled()
    p = params or PhysicsParams.default()
    w = world_for(layout, face, p)
    st = layout.seat(seat)
    check_pawns(layout, table, p.pawn_radius)
    shooter = pawn or next_in_hand(seat, table)
    speed = np.asarray(speed, dtype=np.float64)
    n_shots = speed.shape[0]
    angle = np.broadcast_to(np.asarray(angle, dtype=np.float64), (n_shots,))
    offset = np.broadcast_to(np.asarray(offset, dtype=np.float64), (n_shots,))
    rel = np.full(n_shots, np.nan) if release is None else np.asarray(release, dtype=np.float64)
    rel = np.where(np.isnan(rel), st.foul, rel)
    starts, velocities, fouls, refused = _releases(layout, st, speed, angle, offset, rel, p, refuse)
    txy = np.array([(q.x, q.y) for q in table], dtype=np.float64).reshape(-1, 2)
    r2 = (2 * p.pawn_radius) ** 2
    if len(table):
        d2 = ((starts[:, None, :] - txy[None, :, :]) ** 2).sum(axis=2)
        taken = (d2 < r2) & ~fouls[:, None]
        if taken.any():
            s, q = np.argwhere(taken)[0]
            if refuse:
                raise UserError(f"shot {s}: the release point is taken by pawn {table[q].id}")
            refused |= taken.any(axis=1)
    fouls = fouls | refused  # a refused shot's pawn never reaches the table
    order = (shooter, *(q.id for q in table))
    seats = np.array([SEATS.index(pawn_seat(pid)) for pid in order], dtype=np.int64)
    n = len(order)
    out = BatchOut(
        status=np.zeros((n_shots, n), dtype=np.int8),
        points=np.zeros((n_shots, n), dtype=np.int16),
        where=np.zeros((n_shots, n, 2)),
        times=np.zeros(n_shots),
        contacts=np.zeros(n_shots, dtype=np.int64),
        settled=np.zeros(n_shots, dtype=np.bool_),
    )
    if p.knock_over_spread > 0:
        if seeds is None:
            raise UserError("a knock-over spread needs one seed per shot")
        tough = np.array(
            [
                knock_over_thresholds(p, np.random.default_rng(int(seeds[s])), n)
                for s in range(n_shots)
            ]
        ).reshape(n_shots, n)
    else:
        tough = np.full((1, n), p.knock_over_impulse)
    run_batch(txy, seats, starts, velocities, fouls, w.arena, w.zones, tough, MAX_EVENTS, out)
    return BatchResult(
        order, out.status, out.points, out.where[:, :, 0], out.where[:, :, 1], out.times,
        out.contacts, out.settled, refused,
    )  # fmt: skip


def classify_points(
    layout: Layout,
    face: Face,
    seat: str,
    x: np.ndarray,
    y: np.ndarray,
    params: PhysicsParams | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Status codes (into :data:`STATUSES`) and points of a pawn of ``seat`` at rest at each
    point (x, y), by the compiled twin of :func:`sliders.boards.geometry.classify`."""
    ensure_compiled()
    w = world_for(layout, face, params or PhysicsParams.default())
    xs = np.ascontiguousarray(x, dtype=np.float64).ravel()
    ys = np.ascontiguousarray(y, dtype=np.float64).ravel()
    seats = np.full(xs.shape[0], SEATS.index(seat), dtype=np.int64)
    status = np.zeros(xs.shape[0], dtype=np.int8)
    points = np.zeros(xs.shape[0], dtype=np.int16)
    classify_many(xs, ys, seats, w.zones, status, points)
    return status.reshape(np.shape(x)), points.reshape(np.shape(x))


def _releases(
    layout: Layout,
    seat: Seat,
    speed: np.ndarray,
    angle: np.ndarray,
    offset: np.ndarray,
    release: np.ndarray,
    p: PhysicsParams,
    refuse: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Start points, velocities, fouls and refusals of many shots, checked against the shot's
    legal ranges (:mod:`sliders.physics.limits`) as one shot is checked."""
    shot_limits(layout, seat, p).check_arrays(speed, angle, offset, release)
    starts = np.stack(seat.to_world(release, offset), axis=1)
    fouls = release > seat.foul + 1e-12
    refused = np.zeros(len(speed), dtype=np.bool_)
    for s in np.flatnonzero(fouls):
        if surface_at(layout, *starts[s]) not in seat.tracks:
            if refuse:
                raise UserError(f"release {release[s]:g} m is beyond the end of {seat.name}'s lane")
            refused[s] = True
    ca, sa = np.cos(angle), np.sin(angle)
    velocities = np.stack(seat.vector_to_world(speed * ca, speed * sa), axis=1)
    return starts, velocities, fouls, refused

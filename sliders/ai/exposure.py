"""Exposure to knocks: the chance that a pawn left on the table is knocked by an opponent's shot
still to come this round where a penalty waits for it, into a SORRY! corner or off the board.

A pawn knocked onto a corner or off the board costs its owner its score and a penalty: the
owner's highest scoring pawn back to START, up to five spaces and a round or more of the race. A
seat that leaves its pawns where an opponent can knock them there gives the opponent that shot;
a planner that values only the table as its own shot leaves it (and not the opponent's reply)
plays a race that never closes against an opponent who takes those shots. So the planner values
each outcome in expectation over these knocks (:class:`sliders.ai.planner.PlanSearch`), and the
tournament's defensive yardsticks read the same measure.

:func:`knock_threats` judges each pawn by geometry alone, as a player reads the table: for each
opponent with a shot still to come this round, from three release points across its foul line,
and each *sink* — each SORRY! corner, and each stretch of a board edge a pawn can fall off
(:func:`sliders.boards.geometry.open_spans`: no track's mouth, no blocker rail), aimed at the
point of the stretch nearest the pawn, a pawn radius beyond the edge — the cut that drives the
pawn there (the striking pawn aimed at the contact point two radii behind it). A cut is *open*
when it is no thinner than 60° (the cosine of the angle between the striking pawn's path and the
struck pawn's, 0.5 to 1, read as 0 to 1) and nothing stands within two pawn radii of the striking
pawn's path or of the struck pawn's path to the sink (a guard closes it). Its ease falls with the
distance to the sink (``min(1, NEAR / distance)``). A pawn's chance of being knocked by one shot
is :data:`THREAT` × its easiest open cut's ease; the planner counts every shot the opponents still
have this round (:func:`knock_chances`: ``1 - (1 - chance) ** shots``), the table as its own shot
leaves it. Pawns on their own track are left out (a shot must first knock them onto the board),
on a lane the seats share too (triple-track): read as exposed there, such a pawn is no longer
left as the guard it also is, in the path of every shot the other seats slide, and the planner
drew more games at the cap, not fewer (docs/players.md, *Against every style*).

On the square every edge without a track is closed by a blocker rail, so besides the corners only
the stretches beside a track's mouth are sinks; on triple-track, crazy-corner and head-to-head
whole edges are open, and a pawn in the middle of the board is one straight hit from falling off
the far edge. Under the house rule ``corners-only`` a pawn off a side costs no penalty, and only
the parts of those edges within a corner's reach are sinks (on the square that is all of them).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sliders.boards import Face, Layout
from sliders.boards.geometry import open_spans
from sliders.boards.layout import DIRECTIONS
from sliders.core.outcome import Status, pawn_seat
from sliders.physics import PhysicsParams
from sliders.rules import CORNERS_ONLY, GameState

THREAT = 0.35
"""the chance that one opponent shot knocks a pawn with the easiest open cut into its sink (one
knock in about three shots between strong players)"""
NEAR = 0.1
"""m: a cut from further than this from its sink is harder in proportion"""
MIN_COS = 0.5
"""cuts thinner than 60° are not open"""
SPREAD = 0.6
"""release points across an opponent's foul line: the middle and this share of the way to each
side rail"""
_EXPOSED = np.array([s.in_play and s is not Status.OWN_TRACK for s in Status])
_STANDING = np.array([s.in_play for s in Status])


def sources(state: GameState, seat: str, layout: Layout, params: PhysicsParams) -> np.ndarray:
    """Where the opponents of ``seat`` with shots still to come this round release them (k × 2,
    world metres; none when every opponent's hand is empty)."""
    out = []
    for o in state.seats:
        if o == seat or not state.player(o).in_hand or o not in layout.seat_names:
            continue
        lane = layout.seat(o)
        limit = lane.width / 2 - params.pawn_radius
        for across in (-SPREAD * limit, 0.0, SPREAD * limit):
            out.append(lane.to_world(lane.foul, across))
    return np.array(out, dtype=float).reshape(-1, 2)


def knock_threats(
    state: GameState,
    seat: str,
    layout: Layout,
    face: Face,
    params: PhysicsParams,
    order: tuple[str, ...],
    status: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
) -> np.ndarray | None:
    """Each pawn's chance of being knocked into a corner or off the board this round (rows ×
    pawns, 0 for pawns not ``seat``'s), the table after a shot given as rows of ``status`` codes
    and positions of the pawns ``order`` (see the module; ``state`` is the game before the shot,
    whose opponents' hands it reads). None when no opponent has a shot to come or no pawn of
    ``seat`` is exposed."""
    src = sources(state, seat, layout, params)
    mine = np.array([pawn_seat(q) == seat for q in order])
    if not len(src) or not mine.any():
        return None
    status = np.asarray(status)
    exposed = _EXPOSED[status] & mine[None, :]
    if not exposed.any():
        return None
    standing = _STANDING[status]
    r = params.pawn_radius
    r2 = 2 * r
    corners = np.array(face.corners, dtype=float).reshape(-1, 2)
    corners_only = CORNERS_ONLY in state.house  # off a side: no penalty waits there
    edges = _edges(layout, r, face.sorry_radius + r if corners_only else None)
    sx, sy = src[:, 0], src[:, 1]  # release points
    out = np.zeros(status.shape)
    for k in np.nonzero(exposed.any(axis=0))[0]:
        rows = np.nonzero(exposed[:, k])[0]
        qx, qy = x[rows, k][:, None], y[rows, k][:, None]  # rows × 1
        cx, cy = sinks(qx, qy, corners, edges, r)  # rows × sinks
        others = standing[rows].copy()
        others[:, k] = False
        ox, oy = x[rows][:, None, :], y[rows][:, None, :]  # rows × 1 × pawns
        ux, uy = cx - qx, cy - qy  # rows × sinks
        dist = np.maximum(np.hypot(ux, uy), 1e-9)
        ux, uy = ux / dist, uy / dist
        gx, gy = qx - r2 * ux, qy - r2 * uy  # the contact point of each cut
        near = np.minimum(1.0, NEAR / dist)
        free = ~_crossed(ox, oy, others[:, None, :], qx, qy, cx, cy, r2)
        # rows × sinks × sources
        vx, vy = gx[:, :, None] - sx, gy[:, :, None] - sy
        cos = (vx * ux[:, :, None] + vy * uy[:, :, None]) / np.maximum(np.hypot(vx, vy), 1e-9)
        ease = np.clip((cos - MIN_COS) / (1 - MIN_COS), 0.0, 1.0) * near[:, :, None]
        path = ~_crossed(ox[:, None], oy[:, None], others[:, None, None, :], sx, sy,
                         gx[:, :, None], gy[:, :, None], r2)  # fmt: skip
        ease = np.where(free[:, :, None] & path, ease, 0.0)
        out[rows, k] = THREAT * ease.reshape(len(rows), -1).max(axis=1)
    return out if out.any() else None


@cache
def _edges(layout: Layout, r: float, corner_reach: float | None = None) -> np.ndarray:
    """The stretches of board edge a pawn of radius ``r`` can fall off, one a row: the edge's
    outward normal (nx, ny), the axis along it (ax, ay), the board's half side, and the range
    along the edge where the pawn's centre can cross clear of the pieces at the stretch's ends
    (its whole base inside the stretch, a radius to spare: a stretch narrower than two pawns is
    left out). ``corner_reach`` (the house rule ``corners-only``): only the parts of those
    ranges within this of a board corner, where leaving is off a corner
    (:func:`sliders.boards.geometry.way_off`)."""
    h = layout.board_side / 2
    rows = []
    for edge, spans in open_spans(layout).items():
        nx, ny = DIRECTIONS[edge]
        ax, ay = (1, 0) if nx == 0 else (0, 1)
        for lo, hi in spans:
            if hi - lo < 4 * r:
                continue
            lo, hi = lo + 2 * r, hi - 2 * r
            if corner_reach is None:
                rows.append((nx, ny, ax, ay, h, lo, hi))
                continue
            for a, b in ((lo, min(hi, corner_reach - h)), (max(lo, h - corner_reach), hi)):
                if a <= b:
                    rows.append((nx, ny, ax, ay, h, a, b))
    out = np.array(rows, dtype=float).reshape(-1, 7)
    out.setflags(write=False)
    return out


def sinks(
    qx: np.ndarray, qy: np.ndarray, corners: np.ndarray, edges: np.ndarray, r: float
) -> tuple[np.ndarray, np.ndarray]:
    """Where a pawn at (``qx``, ``qy``) (n × 1) is knocked to a penalty (n × sinks, x and y):
    each corner's centre, and for each open stretch of edge (:func:`_edges`) the point of it
    nearest the pawn, ``r`` beyond the edge."""
    cx = np.broadcast_to(corners[:, 0], (len(qx), len(corners)))
    cy = np.broadcast_to(corners[:, 1], (len(qx), len(corners)))
    if not len(edges):
        return cx, cy
    nx, ny, ax, ay, h, lo, hi = edges.T
    along = np.clip(qx * ax + qy * ay, lo, hi)  # n × stretches
    ex, ey = ax * along + nx * (h + r), ay * along + ny * (h + r)
    return np.concatenate([cx, ex], axis=1), np.concatenate([cy, ey], axis=1)


def _crossed(
    ox: np.ndarray,
    oy: np.ndarray,
    others: np.ndarray,
    ax: np.ndarray,
    ay: np.ndarray,
    bx: np.ndarray,
    by: np.ndarray,
    width: float,
) -> np.ndarray:
    """Whether a pawn among ``others`` (standing at ``ox``, ``oy``; the last axis is the pawns)
    is within ``width`` of the segment from (ax, ay) to (bx, by); every argument broadcast, the
    segments' shapes without the pawns' axis."""
    ax, ay, bx, by = (np.asarray(v, dtype=float)[..., None] for v in (ax, ay, bx, by))
    dx, dy = bx - ax, by - ay
    length2 = np.maximum(dx * dx + dy * dy, 1e-12)
    t = np.clip(((ox - ax) * dx + (oy - ay) * dy) / length2, 0.0, 1.0)
    d = np.hypot(ax + t * dx - ox, ay + t * dy - oy)
    return np.any(others & (d < width), axis=-1)


def shots_to_come(state: GameState, seat: str) -> int:
    """The shots the opponents of ``seat`` still have this round (``state``: before its shot)."""
    return sum(len(state.player(o).in_hand) for o in state.seats if o != seat)


def knock_chances(threats: np.ndarray, shots: int) -> np.ndarray:
    """Each pawn's chance of being knocked into a corner or off the board by one of ``shots``
    opponent shots still to come, each threatening it as :func:`knock_threats` says (``1 - (1 - t) ** shots``), the
    chances scaled so a row's total is at most ``shots`` (one pawn a shot)."""
    out = 1.0 - (1.0 - threats) ** max(shots, 1)
    total = out.sum(axis=1, keepdims=True)
    return np.where(total > shots, out * shots / np.maximum(total, 1e-12), out)


def expected_knocks(threats: np.ndarray) -> np.ndarray:
    """The share of each pawn's chance that counts when several are exposed at once: the chances
    scaled so a row's total is at most 1 (the opponent's next shot knocks one pawn at most)."""
    total = threats.sum(axis=1, keepdims=True)
    return np.where(total > 1.0, threats / np.maximum(total, 1e-12), threats)

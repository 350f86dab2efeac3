"""The records the exact engine's compiled code works on, and the names of their columns.

Three records, each a :class:`typing.NamedTuple` of arrays (numba passes them to compiled code as
they are, so a function takes one record instead of a list of arrays):

- :class:`State`: one shot's pawns (their current segments and flags), the events predicted for
  them, the clock, the counters and the log of recorded events. It changes as the shot runs.
- :class:`Arena`: where the pawns move: the rails, the cells off the table and the parameter
  vector. Built once per (layout, face, params) by :mod:`sliders.physics.exact.world`.
- :class:`Zones`: what a resting pawn's status is read from: the surface, each seat's own tracks,
  the face's vector, rings, Sorry! corners and dots (:mod:`sliders.physics.exact.classification`).

A pawn's *segment* is its state at the time ``T0`` it last changed (position, velocity, spin,
heading); its state at any later time is a formula of that segment
(:func:`sliders.physics.exact.motion.state_at`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import numpy as np

# The kernels are compiled for the processor family's baseline (``generic``: x86-64 or aarch64),
# not for this machine's own model: numba keys its cache by the processor it compiled for, so the
# kernels compiled when the package is installed or built serve every machine of the family. As
# fast as this machine's own model, and the same bits (docs/model.md, "Compiled at install"). A
# ``NUMBA_CPU_NAME`` the user set is kept (the kernels are then compiled for it at first use).
os.environ.setdefault("NUMBA_CPU_NAME", "generic")

from numba import njit  # noqa: E402  (after the processor is chosen)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]
    Ints = NDArray[np.int64]
    Bools = NDArray[np.bool_]

_FunctionT = TypeVar("_FunctionT", bound=Callable[..., object])
_NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def kernel(function: _FunctionT) -> _FunctionT:
    """``function`` compiled as every kernel of the engine is: cached beside the sources
    (``cache=True``); floating-point errors giving inf and nan as numpy's do, not exceptions; and
    without numba's reference counting (``_nrt=False``). Kernels allocate nothing (the two that
    do, :func:`new_state` and the batch's ``run_batch``, are compiled with it), and counting
    references would update a count atomically for every array taken out of a record in every
    call: it cost the batch path half its speed. Every kernel releases Python's interpreter lock while
    it runs (``nogil``), so a window keeps drawing while a computer player simulates in another
    thread."""
    return cast(
        _FunctionT, njit(function, cache=True, error_model="numpy", nogil=True, **_NO_REFCOUNT)
    )


INF = math.inf
TIE = 1e-12
"""events closer in time than this to the earliest are taken one at a time, in a fixed order"""
TOUCH = 1e-9
"""two shapes whose gap is at most this (m) touch"""
V_REST = 1e-6
"""a pawn left slower than this (m/s) by a contact or a rim bounce stops"""
V_SLOW = 1e-4
"""a contact slower than this (m/s) along the normal is fully inelastic"""
V_EPS = 1e-9
"""a touching pair approaching faster than this (m/s) is resolved at once"""
COLLAPSE = 100
"""pawn–pawn contacts at one instant beyond which the pawns they involve move on together"""

# -- State.segments: one row per pawn -------------------------------------------------------------
X, Y, VX, VY, W, TH, T0, TIN, TRC = 0, 1, 2, 3, 4, 5, 6, 7, 8
"""position, velocity, spin and heading at the segment's start T0; when the centre went over the
hole (TIN) and into the capture disc (TRC)"""
BX0, BY0, BX1, BY1 = 9, 10, 11, 12
"""the bounding box of the segment's path to rest (a cheap test that two pawns cannot meet)"""
TFALL, XFALL, YFALL = 13, 14, 15
"""when a toppled pawn leaves the table (it falls for topple_time, still moving and hitting), and
where it toppled (its place once it has left)"""
NSTATE = 16

# -- State.flags: one row per pawn ----------------------------------------------------------------
STAT, INR, INRC, FALL, HIT = 0, 1, 2, 3, 4
"""STAT: ON_TABLE, else the removed status code; INR: over the hole (OVER_HOLE) or rolling along
its rim (ON_RIM); INRC: 1 while the centre is in the capture disc; FALL: 1 while a toppled pawn
falls; HIT: the instant of the pawn's last pawn–pawn contact, as the loop numbers instants"""
NFLAG = 5
OVER_HOLE, ON_RIM = 1, 2
ON_TABLE = -1

# status codes: indices into tuple(sliders.core.outcome.Status) (checked by the tests)
S_IN_HAND, S_OWN_TRACK, S_TIPPING, S_ON_TARGET, S_HOLE_EDGE = 0, 1, 2, 3, 4
S_OTHER_TRACK, S_OFF_BOARD, S_SORRY, S_IN_HOLE, S_DOT, S_KNOCKED, S_FOUL = 5, 6, 7, 8, 9, 10, 11
S_OFF_SIDE = 12

# -- State.counts and State.clock -----------------------------------------------------------------
SOLVED, RECORDED, CONTACTS = 0, 1, 2
"""events solved, events recorded in the log (rows: t, kind, a, b, impulse, x, y), pawn–pawn
contacts"""
NOW, RESTED = 0, 1
"""the time reached, and the time the last translation ended"""
LOG_COLUMNS = 7

# -- Arena.params: the parameter vector -----------------------------------------------------------
(P_R, P_M, P_DEC, P_ALPHA, P_EP, P_ER, P_FP, P_FR, P_KO, P_KOF, P_SPREAD, P_G, P_H, P_TDROP,
 P_HOLE, P_RC, P_MAXT, P_FALL, P_HALF, P_CORNER) = range(20)  # fmt: skip
"""… P_HALF: half the board's side; P_CORNER: the reach of a corner for a pawn leaving the
board (sorry_radius + r: :func:`sliders.boards.geometry.way_off`)"""
NPARAM = 20

# -- Arena.rails: centre line a→b, unit direction e, length, unit normal, half thickness ----------
RA_X, RA_Y, RB_X, RB_Y, RE_X, RE_Y, RL, RN_X, RN_Y, RH = range(10)

# -- Zones.face: the face's vector ----------------------------------------------------------------
FC_HOLE, FC_CHOICE, FC_CHOICE_MAX, FC_BASE, FC_SORRY, FC_EDGE_MAX, FC_R, FC_HOLE_TEST, FC_TIP = (
    range(9)
)

# -- a pawn's own events (State.own_kind) ---------------------------------------------------------
K_NONE, K_STOP, K_RAIL, K_EDGE, K_R_IN, K_R_OUT, K_RC_IN, K_RC_OUT, K_DROP, K_GONE = range(10)
"""nothing, end of motion, a rail, the centre leaving the table, crossing the hole's rim inward
and outward, the capture disc's inward and outward, dropping into the hole, a toppled pawn gone"""
K_RIM = 10
"""a pawn rolling along the hole's rim reaches a corner of its path"""

RIM_TURN = 2.0 * math.pi / 128.0
"""the angle a pawn rolling along the hole's rim turns by at each corner of its path: a polygon
inscribed in the rim, whose sides stay within 5 µm of it"""

# -- recorded event kinds (State.log column 1) ----------------------------------------------------
E_CONTACT, E_RAIL, E_KNOCKED, E_OFF, E_HOLE = 1, 2, 3, 4, 5

# -- what a run of the loop ends with -------------------------------------------------------------
RUNNING, SETTLED, FULL, TIMEOUT = 0, 1, 2, 3


class State(NamedTuple):
    """One shot's pawns and the events predicted for them (n pawns: the shooter is 0)."""

    segments: Floats
    """n × NSTATE: each pawn's current segment (columns X … YFALL)"""
    flags: Ints
    """n × NFLAG: on the table or removed, over the hole or on its rim, in the capture disc,
    falling"""
    pair_time: Floats
    """n × n: the time of each pair's next contact (symmetric; INF: none)"""
    own_time: Floats
    """n: the time of each pawn's next own event"""
    own_kind: Ints
    """n: its kind (K_*)"""
    own_arg: Ints
    """n: its argument (the rail's index for K_RAIL, else -1)"""
    clock: Floats
    """[NOW, RESTED]"""
    counts: Ints
    """[SOLVED, RECORDED, CONTACTS]"""
    log: Floats
    """rows of recorded events (t, kind, a, b, impulse, x, y); no rows: nothing is recorded"""


class Arena(NamedTuple):
    """Where the pawns move."""

    rails: Floats
    """one row per rail (RA_X … RH)"""
    cells: Floats
    """the rectangles off the table (xmin, ymin, xmax, ymax)"""
    params: Floats
    """the parameter vector (P_*)"""


class Zones(NamedTuple):
    """What a resting pawn's status and points are read from."""

    surface: Floats
    """the surface's rectangles (xmin, ymin, xmax, ymax), the board first, then the tracks"""
    own: Bools
    """seats × surface rectangles: whether a track is the seat's own"""
    face: Floats
    """the face's vector (FC_*)"""
    rings: Floats
    """scoring rings (radius, points), inner first"""
    corners: Floats
    """Sorry! corners' centres"""
    dots: Floats
    """removing dots (x, y, radius)"""


@njit(cache=True, error_model="numpy", nogil=True)  # allocates: with reference counting
def new_state(n: int, log_rows: int) -> State:
    """The state of ``n`` pawns, all at rest at the origin and on the table, with nothing
    predicted, and a log of ``log_rows`` rows."""
    flags = np.zeros((n, NFLAG), dtype=np.int64)
    flags[:, STAT] = ON_TABLE
    return State(
        np.zeros((n, NSTATE)),
        flags,
        np.full((n, n), INF),
        np.full(n, INF),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(2),
        np.zeros(3, dtype=np.int64),
        np.zeros((log_rows, LOG_COLUMNS)),
    )


@kernel
def place(state: State, i: int, x: float, y: float, vx: float, vy: float) -> None:
    """Put pawn ``i`` on the table at (x, y) with velocity (vx, vy), no spin, heading 0."""
    seg, flags = state.segments, state.flags
    for c in range(NSTATE):
        seg[i, c] = 0.0
    seg[i, X], seg[i, Y], seg[i, VX], seg[i, VY] = x, y, vx, vy
    for c in range(NFLAG):
        flags[i, c] = 0
    flags[i, STAT] = ON_TABLE

"""What a seat sees, as fixed-size arrays: the observation and action spaces both environments
share, and the encoding of a game state.

The observation is one flat ``float32`` vector, seen from the observing seat: four seat slots,
the observer first and then the others in turn order (to its left), empty slots zero. Each slot
holds ``SLOT`` numbers::

    playing   1 if a player sits in this slot
    board     the four scoring pawns' squares / 6 (START 0 … HOME 1)
    in_hand   roller pawns still to slide this round / 4  (the shots left)
    to_move   1 if it is this seat's turn
    4 × pawn  in_hand, on_table, removed (one-hot), x, y (m), points / 6

A pawn's (x, y) is in the observer's frame, origin at the board's centre: y points down the
observer's lane toward the board and beyond, x to the observer's right; zero unless on the table.
``points`` is what the pawn would score if the round ended now. After the slots comes the round
number / ``ROUND_SCALE`` (clipped to 1). See docs/players.md for an index of every entry.

The action is ``[speed m/s, angle rad, offset m, release m]`` within the seat's legal ranges
(:func:`action_bounds`); the release is measured down the lane from its near end, the foul line
being the farthest legal release.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from gymnasium import spaces

from sliders.boards import Layout
from sliders.core.outcome import PAWNS_PER_PLAYER, SEATS, pawn_id
from sliders.game import legal_shot
from sliders.physics import PhysicsParams, Shot, shot_limits
from sliders.physics.limits import QUANTITIES
from sliders.rules import HOME, GameState

SEAT_SLOTS = 4
PAWN_FEATURES = 6
SLOT = 1 + 4 + 1 + 1 + PAWNS_PER_PLAYER * PAWN_FEATURES
SIZE = SEAT_SLOTS * SLOT + 1
REACH = 4.0
"""bound of a pawn coordinate in the observation, m (every layout fits well inside it)"""
ROUND_SCALE = 50.0
MAX_POINTS = 6.0


def observation_space() -> spaces.Box:
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.ones(SIZE, dtype=np.float32)
    for slot in range(SEAT_SLOTS):
        for pawn in range(PAWNS_PER_PLAYER):
            at = slot * SLOT + 7 + pawn * PAWN_FEATURES + 3
            low[at : at + 2] = -REACH
            high[at : at + 2] = REACH
    return spaces.Box(low, high, dtype=np.float32)


def action_bounds(
    layout: Layout, seat: str, params: PhysicsParams
) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of ``[speed, angle, offset, release]`` for ``seat``."""
    limits = shot_limits(layout, seat, params)
    low, high = zip(*(limits.bounds(q) for q in QUANTITIES), strict=True)
    return np.array(low, dtype=np.float32), np.array(high, dtype=np.float32)


def action_space(layout: Layout, seat: str, params: PhysicsParams) -> spaces.Box:
    low, high = action_bounds(layout, seat, params)
    return spaces.Box(low, high, dtype=np.float32)


def check_action(action: Any) -> np.ndarray:
    """``action`` as four float64 numbers [speed, angle, offset, release], or a ValueError naming
    what is wrong: its shape (exactly 4 numbers, not 2×2 nor 4×1), its type (real numbers: not
    text, None, complex numbers or booleans) or a value that is not finite."""
    if type(action) is np.ndarray and action.shape == (4,) and action.dtype.kind == "f":
        a = action.astype(np.float64)  # the common case, checked at once
        if all(map(math.isfinite, a.tolist())):
            return a
    try:
        raw = np.asarray(action)
    except (ValueError, TypeError) as exc:  # ragged lists
        raise ValueError(
            f"an action is 4 numbers [speed, angle, offset, release] ({exc})"
        ) from None
    if raw.shape != (4,):
        raise ValueError(
            f"an action is 4 numbers [speed, angle, offset, release], not shape {raw.shape}"
        )
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"an action holds real numbers, not {raw.dtype} values {raw.tolist()}")
    a = raw.astype(np.float64)
    if not np.isfinite(a).all():
        raise ValueError(f"an action holds finite numbers, not {a.tolist()}")
    return a


def wish_of(action: Any, seat: str, state: GameState) -> Shot:
    """The shot an action asks for, as asked (checked by :func:`check_action`): the game's
    driver makes it legal when it is slid (:meth:`sliders.game.HeadlessGame.shoot`)."""
    a = check_action(action)
    return Shot(seat, float(a[0]), float(a[1]), float(a[2]), float(a[3]), state.next_pawn())


def shot_of(
    action: np.ndarray, seat: str, state: GameState, layout: Layout, params: PhysicsParams
) -> Shot:
    """The legal shot an action asks for (see :func:`sliders.game.legal_shot`)."""
    return legal_shot(wish_of(action, seat, state), state, layout, params)


def encode(state: GameState, layout: Layout, seat: str) -> np.ndarray:
    """The observation of ``state`` from ``seat``."""
    out = [0.0] * SIZE
    me = layout.seat(seat)
    (fx, fy), (rx, ry) = me.forward, me.right
    table = {p.id: p for p in state.table}
    players = {p.seat: p for p in state.players}
    for slot, s in enumerate(state.turn_order(seat)):
        player = players[s]
        base = slot * SLOT
        out[base] = 1.0
        out[base + 1 : base + 5] = [sq / HOME for sq in player.board]
        out[base + 5] = len(player.in_hand) / PAWNS_PER_PLAYER
        out[base + 6] = 1.0 if state.turn == s else 0.0
        for n, pid in enumerate(_PAWN_IDS[s]):
            at = base + 7 + n * PAWN_FEATURES
            p = table.get(pid)
            if pid in player.in_hand:
                out[at] = 1.0
            elif p is not None:
                out[at + 1] = 1.0
                out[at + 3] = min(max(p.x * rx + p.y * ry, -REACH), REACH)
                out[at + 4] = min(max(p.x * fx + p.y * fy, -REACH), REACH)
                out[at + 5] = min(p.points / MAX_POINTS, 1.0)
            else:
                out[at + 2] = 1.0
    out[-1] = min(state.round / ROUND_SCALE, 1.0)
    return np.array(out, dtype=np.float32)


_PAWN_IDS = {s: tuple(pawn_id(s, n + 1) for n in range(PAWNS_PER_PLAYER)) for s in SEATS}
"""every seat's roller pawns, in order"""

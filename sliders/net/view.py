"""What a client that draws from the host's data (the web page) is sent beside the game: the
table's geometry (:func:`table_json`: the layout's pieces, the face's zones and printed numbers,
each seat's lane and legal ranges, the colours), a shot's motion sampled from the host's own
simulation (:func:`motion_json`) and the game's position after each step (:func:`state_json`).

A client asks for them with ``"draw": true`` in its ``hello`` (docs/protocol.md). Nothing here
decides anything: the geometry is the layout and the face the host plays, the motion the shot as
slid run again in the same engine from the same seed (so its last frame is the result the host
applies), the position the turn machine's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sliders.boards import Face, Layout
from sliders.boards.drawing import (
    BASE_FILL,
    BLOCKER_INK,
    CHOICE_FILL,
    CHOICE_INK,
    DOT_EDGE,
    DOT_FILL,
    HOLE_DEEP,
    PRINT_INK,
    RAIL_INK,
    SORRY_FILL,
    SORRY_INK,
    hex_ink,
    ring_fill,
    seat_groups,
    seat_rgb,
    zone_labels,
)
from sliders.boards.geometry import PlacedPawn
from sliders.core.outcome import SEAT_COLOURS, Shot
from sliders.physics import PhysicsParams, Setup, shot_limits, start
from sliders.rules import GameState

MOTION_RATE = 30.0
"""samples a second of a shot's motion: each carries position and velocity, so the page's cubic
between two samples is the exact path wherever no event falls between them"""
MAX_FRAMES = 1800
"""samples of one shot at most (a minute): a longer shot's end is its rest"""
DIGITS = 5
"""decimals of a metre (10 µm) and of a metre a second in the motion's samples"""


def table_json(layout: Layout, face: Face, params: PhysicsParams) -> dict[str, Any]:
    """Everything a page needs to draw ``layout`` with ``face`` on it and to read a hand in
    each seat's lane: metres, the board's centre the origin, y up (the world's frame)."""
    r = params.pawn_radius
    seats = []
    for seat in layout.seats:
        limits = shot_limits(layout, seat, params)
        seats.append(
            {
                "seat": seat.name,
                "colour": SEAT_COLOURS.get(seat.name, ""),
                "ink": hex_ink(seat_rgb(seat.name)),
                "near": list(seat.near),
                "forward": list(seat.forward),
                "width": seat.width,
                "foul": seat.foul,
                "release_min": limits.min_release,
                "max_offset": limits.max_offset,
                "min_speed": limits.min_speed,
                "max_speed": limits.max_speed,
                "max_angle": limits.max_angle,
                "centre": seat.from_world(0.0, 0.0)[0],
            }
        )
    rings = sorted(face.rings)
    return {
        "layout": layout.name,
        "board_side": layout.board_side,
        "tracks": [
            {"name": t.name, "rect": [t.rect.xmin, t.rect.ymin, t.rect.xmax, t.rect.ymax]}
            for t in layout.tracks
        ],
        "rails": [
            {"a": list(rail.a), "b": list(rail.b), "thickness": rail.thickness, "kind": rail.kind}
            for rail in layout.rails
        ],
        "seats": seats,
        "foul_groups": [[s.name for s in group] for group in seat_groups(layout)],
        "face": {
            "name": face.name,
            "title": face.title,
            "rings": [
                {"radius": radius, "points": points, "fill": hex_ink(ring_fill(points, i))}
                for i, (radius, points) in enumerate(rings)
            ],
            "sorry_radius": face.sorry_radius,
            "hole_radius": face.hole_radius,
            "choice_radius": face.choice_radius,
            "dots": [[d.x, d.y, d.radius] for d in face.dots],
            "labels": [
                {
                    "words": label.words,
                    "x": label.x,
                    "y": label.y,
                    "height": label.height,
                    "backing": None
                    if label.backing is None
                    else hex_ink(ring_fill(label.backing, _ring_index(rings, label.backing))),
                    "choice": label.choice,
                }
                for label in zone_labels(face)
            ],
        },
        "pawn_radius": r,
        "deceleration": params.deceleration,
        "ink": {
            "base": hex_ink(BASE_FILL),
            "print": hex_ink(PRINT_INK),
            "sorry": hex_ink(SORRY_FILL),
            "sorry_ink": hex_ink(SORRY_INK),
            "choice": hex_ink(CHOICE_FILL),
            "choice_ink": hex_ink(CHOICE_INK),
            "hole": hex_ink(HOLE_DEEP),
            "dot": hex_ink(DOT_FILL),
            "dot_edge": hex_ink(DOT_EDGE),
            "rail": hex_ink(RAIL_INK),
            "blocker": hex_ink(BLOCKER_INK),
        },
    }


def _ring_index(rings: Sequence[tuple[float, int]], points: int) -> int:
    return next((i for i, (_, p) in enumerate(rings) if p == points), 0)


def state_json(state: GameState, step: int) -> dict[str, Any]:
    """The ``state`` message: the game's position once ``step`` steps are taken (every pawn on
    the table where the last result put it, each seat's pawns in hand and scoring pawns, whose
    turn, the round, the winner)."""
    return {
        "type": "state",
        "step": step,
        "round": state.round,
        "turn": state.turn,
        "phase": str(state.phase),
        "winner": state.winner,
        "players": [
            {
                "seat": p.seat,
                "board": list(p.board),
                "in_hand": list(p.in_hand),
                "removed": list(p.removed),
            }
            for p in state.players
        ],
        "table": [
            {
                "id": p.id,
                "x": p.x,
                "y": p.y,
                "status": str(p.status),
                "points": p.points,
                "choices": list(p.choices),
            }
            for p in state.table
        ],
    }


def motion_json(
    setup: Setup, table: Sequence[PlacedPawn], slide: Shot, step: int, rate: float = MOTION_RATE
) -> dict[str, Any]:
    """The ``motion`` message of ``slide`` (a shot as slid, with its seed) on ``table``: the
    shot run again in ``setup``'s engine and sampled every ``1/rate`` seconds from its release
    to its rest. ``pawns`` are the pawns that move; each of ``frames`` holds, for each of them,
    ``[x, y, vx, vy]`` (m, m/s) or null once it has left the table. ``end`` is the time the
    shot came to rest."""
    sim = start(setup, table, slide)
    dt = 1.0 / rate
    Frame = dict[str, tuple[float, float, float]]
    samples: list[tuple[Frame, Frame]] = []
    sim.run_until(0.0)
    while True:
        samples.append((sim.positions(), sim.velocities()))
        if not sim.moving or len(samples) >= MAX_FRAMES:
            break
        sim.run_until(len(samples) * dt)
    if sim.moving:
        sim.run()
        samples.append((sim.positions(), sim.velocities()))
    still = {p.id: (p.x, p.y) for p in table}
    moved = [sim.shooter] + [
        pid
        for pid in sim.order[1:]
        if any(pid not in pos or pos[pid][:2] != still.get(pid) for pos, _ in samples)
    ]
    frames = []
    for pos, vel in samples:
        frame: list[list[float] | None] = []
        for pid in moved:
            if pid in pos:
                x, y, _ = pos[pid]
                vx, vy, _ = vel[pid]
                frame.append([_short(x), _short(y), _short(vx), _short(vy)])
            else:
                frame.append(None)
        frames.append(frame)
    return {
        "type": "motion",
        "step": step,
        "dt": dt,
        "end": sim.t,
        "pawns": moved,
        "frames": frames,
    }


def _short(value: float) -> float:
    rounded = round(value, DIGITS)
    return 0.0 if rounded == 0 or not math.isfinite(rounded) else rounded

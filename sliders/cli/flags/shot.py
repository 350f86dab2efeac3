"""Slide one pawn and report where every pawn came to rest, its status, its points, and the events
on the way. Angle (degrees) and offset (metres) are positive toward the shooter's right; release is
the distance from the lane's near end (default: on the foul line)."""

from __future__ import annotations

import argparse

from sliders.cli.args import (
    add_engine_argument,
    add_param_argument,
    add_table_arguments,
    seed,
    writes,
)

HELP = "simulate one shot and report where every pawn came to rest"
MIN_SPEED = 1e-3
"""as :data:`sliders.physics.limits.MIN_SPEED`"""
MAX_ANGLE_DEG = 89.0
"""as :data:`sliders.physics.limits.MAX_ANGLE_DEG`"""
MAX_SPEED = 3.0
"""the default ``max_speed`` of :class:`sliders.physics.PhysicsParams`"""


def add_arguments(p: argparse.ArgumentParser) -> None:

    add_table_arguments(p)
    p.add_argument("--seat", help="the seat that shoots (default: the first seat)")
    p.add_argument("--pawn", help="id of the pawn slid, e.g. south-2 (default: next in hand)")
    p.add_argument(
        "--speed",
        type=float,
        required=True,
        help=f"release speed, m/s ({MIN_SPEED:g} to max_speed: {MAX_SPEED:g})",
    )
    p.add_argument(
        "--angle",
        type=float,
        default=0.0,
        help=f"degrees right of straight (within ±{MAX_ANGLE_DEG:g}°)",
    )
    p.add_argument("--offset", type=float, default=0.0, help="metres right of the lane's axis")
    p.add_argument("--release", type=float, help="metres from the lane's near end")
    p.add_argument("--seed", type=seed, help="seed for the random knock-over draw")
    add_param_argument(p)
    add_engine_argument(p)
    writes(p.add_argument("--save-scene", metavar="FILE", help="write the table after the shot"))
    writes(
        p.add_argument("--png", metavar="FILE", help="draw the table after the shot, with paths")
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")

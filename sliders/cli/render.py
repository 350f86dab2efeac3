"""``sliders render`` run: draws the table to a PNG (its flags and help:
:mod:`sliders.cli.flags.render`)."""

from __future__ import annotations

import argparse

from sliders.boards.geometry import check_pawns
from sliders.cli.outputs import check_pictures
from sliders.cli.table import table_from_args
from sliders.core.errors import UserError
from sliders.physics import PhysicsParams, at_rest
from sliders.pictures.table import render_png


def run(args: argparse.Namespace) -> int:

    if not 20 <= args.dpi <= 1200:
        raise UserError(f"--dpi {args.dpi} is out of range (20..1200)")
    check_pictures({"--out": args.out})
    scene, layout, face = table_from_args(args)
    params = PhysicsParams.default()
    check_pawns(layout, scene.pawns, params.pawn_radius)
    pawns = at_rest(layout, face, scene.pawns, params) if scene.pawns else ()
    title = f"{layout.name} · {face.name} · {', '.join(scene.seats)}"
    render_png(
        args.out, layout, face, pawns, pawn_radius=params.pawn_radius, title=title, dpi=args.dpi
    )
    print(f"wrote {args.out}")
    return 0

"""The table the flags of :func:`sliders.cli.args.add_table_arguments` describe."""

from __future__ import annotations

import argparse

from sliders.boards.faces import Face
from sliders.boards.faces import face as face_named
from sliders.boards.layout import Layout
from sliders.cli.args import DEFAULT_FACE, DEFAULT_LAYOUT
from sliders.core.outcome import parse_seat, parse_seats
from sliders.files.scenes import Scene


def table_from_args(args: argparse.Namespace) -> tuple[Scene, Layout, Face]:
    """The scene the flags describe: a scene file, with any of --layout/--face/--seats overriding.

    Without a scene file the layout is the square; without --seats (or a scene's seats) a layout
    is laid for its own default seats, the layout file's ``default_seats``, as ``sliders play``
    does; without --face it is played on its own face. A command's ``--seat`` (the seat that
    shoots) is read here too, as a seat or a colour, like ``--seats``.
    """
    if getattr(args, "seat", None):
        args.seat = parse_seat(args.seat)

    if args.scene:
        scene = Scene.load(args.scene)
    else:
        scene = Scene(DEFAULT_LAYOUT, (), "", ())
    layout_name = args.layout or scene.layout
    seats = parse_seats(args.seats) if args.seats else scene.seats
    scene = Scene(layout_name, seats, args.face or scene.face or DEFAULT_FACE, scene.pawns)
    layout, face = scene.build()
    if not (args.face or args.scene) and layout.face:
        face = face_named(layout.face)
    scene = Scene(layout_name, scene.seats or layout.seat_names, face.name, scene.pawns)
    return scene, layout, face

"""Command-line arguments shared by every command that sets up a table (shot, render, batch)."""

from __future__ import annotations

import argparse
from typing import Any

from sliders.boards.faces import DEFAULT_FACE, FACES, Face
from sliders.boards.faces import face as face_named
from sliders.boards.layout import Layout
from sliders.boards.scene import Scene
from sliders.checks import MAX_SEED
from sliders.outcome import ENGINES, parse_seat, parse_seats
from sliders.physics.engines import DEFAULT_ENGINE

DEFAULT_LAYOUT = "square"


def seed(text: str) -> int:
    """A ``--seed`` value: a whole number from 0 up (below :data:`sliders.checks.MAX_SEED`; a
    physics seed is further checked by the engines)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 0 up")
    return value


def add_table_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--layout",
        help=f"built-in layout name or layout file (default: {DEFAULT_LAYOUT}); alone, it is "
        "laid for its own default seats",
    )
    p.add_argument(
        "--face", choices=FACES, help=f"the game (default: the layout's own, {DEFAULT_FACE})"
    )
    p.add_argument(
        "--seats",
        help="seats in play, e.g. south,north or red,yellow (default: the layout's own)",
    )
    p.add_argument(
        "--scene", metavar="FILE", help="scene file: layout, face and pawns on the table"
    )


def add_param_argument(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--param NAME=VALUE``: override a physics parameter (see ``sliders params``)."""
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a physics parameter (repeatable; see sliders params)",
    )


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


def add_engine_argument(p: Any) -> None:
    """``--engine exact|pymunk`` on a command's parser (or argument group)."""
    p.add_argument(
        "--engine",
        choices=ENGINES,
        help=f"physics engine (default: {DEFAULT_ENGINE}; see sliders params)",
    )

"""``sliders layouts`` run: lists, checks and describes layouts (its flags and help:
:mod:`sliders.cli.flags.layouts`)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from sliders.core.errors import UserError
from sliders.core.fileio import read_text
from sliders.files.layouts import (
    BUILTIN_LAYOUTS,
    LAYOUTS_DIR,
    format_counts,
    open_edges,
    read_layout,
)
from sliders.physics.params import PhysicsParams

if TYPE_CHECKING:
    from sliders.boards.layout import Layout
    from sliders.files.layouts import LayoutSpec


def run(args: argparse.Namespace) -> int:

    if args.source and args.json:
        raise UserError("--source prints the layout's TOML: leave out --json")
    if args.layout is None:
        if args.source:
            raise UserError("--source needs a layout name or file")
        specs = [read_layout(name) for name in BUILTIN_LAYOUTS]
        if args.json:
            print(json.dumps([_summary(s) for s in specs], indent=2))
            return 0
        width = max(len(s.name) for s in specs)
        print(f"{'layout':<{width}}  seats  description")
        for s in specs:
            print(f"{s.name:<{width}}  {_counts(s.seat_counts):<5}  {s.description}")
        print("\nsliders layouts NAME describes one; --layout NAME|FILE.toml uses one.")
        return 0

    spec = read_layout(args.layout)
    if args.source:
        path = LAYOUTS_DIR / f"{args.layout}.toml" if spec.origin == "built-in" else args.layout
        print(read_text(path, "layout file"), end="")
        return 0

    built = {n: spec.build(spec.seating(n)) for n in spec.seat_counts}
    radius = PhysicsParams.default().pawn_radius
    if args.json:
        out = _summary(spec)
        out["seatings"] = {str(n): _describe(layout, radius) for n, layout in built.items()}
        print(json.dumps(out, indent=2))
        return 0
    print(f"{spec.name} ({spec.origin}): {spec.description}")
    print(
        f"  seats {_counts(spec.seat_counts)}, default {', '.join(spec.default_seats)}; "
        f"face {spec.face}"
    )
    for n, layout in built.items():
        d = _describe(layout, radius)
        print(
            f"  {n} seat{'s' if n > 1 else ''} ({', '.join(layout.seat_names)}): "
            f"{len(layout.tracks)} track{'s' if len(layout.tracks) != 1 else ''}, "
            f"{d['blocker_rails']} blocker rail{'s' if d['blocker_rails'] != 1 else ''}, "
            f"open edges: {', '.join(d['open_edges']) or 'none'}"
        )
        for s in d["seats"]:
            print(
                f"    {s['name']}: lane {'+'.join(s['tracks'])} ({s['lane_length']:g} m), "
                f"--release {s['release_from']:g}–{s['foul']:g} m from the near end"
            )
    return 0


def _summary(spec: LayoutSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "description": spec.description,
        "seat_counts": list(spec.seat_counts),
        "default_seats": list(spec.default_seats),
        "face": spec.face,
        "source": spec.origin,
    }


def _describe(layout: Layout, pawn_radius: float) -> dict[str, Any]:
    """The pieces of one seating; ``release_from`` is the least ``--release`` a shot takes (the
    pawn's centre one radius in front of ``release_min``, where the lane's open part begins)."""

    return {
        "seats": [
            {
                "name": s.name,
                "tracks": list(s.tracks),
                "lane_length": round(sum(layout.track(t).length for t in s.tracks), 9),
                "release_min": s.release_min,
                "release_from": round(s.release_min + pawn_radius, 9),
                "foul": s.foul,
            }
            for s in layout.seats
        ],
        "tracks": [t.name for t in layout.tracks],
        "blocker_rails": sum(1 for r in layout.rails if r.kind == "blocker"),
        "open_edges": open_edges(layout),
    }


def _counts(counts: tuple[int, ...]) -> str:

    return format_counts(counts)

"""List the built-in layouts with their seat counts, or check one layout (a built-in name or a
layout file) for every seat count it allows and describe its pieces. ``--source`` prints a
layout's TOML, a starting point for a layout file of your own."""

from __future__ import annotations

import argparse

from sliders.cli.args import reads

HELP = "list the built-in layouts"


def add_arguments(p: argparse.ArgumentParser) -> None:
    reads(
        p.add_argument("layout", nargs="?", help="a built-in layout name or a layout file to check")
    )
    p.add_argument("--source", action="store_true", help="print the layout's TOML file")
    p.add_argument("--json", action="store_true", help="print one JSON object")

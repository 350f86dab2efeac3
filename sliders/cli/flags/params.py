"""Print the physics and geometry defaults (the numbers every simulation uses)."""

from __future__ import annotations

import argparse

from sliders.cli.args import add_param_argument, writes

HELP = "print the physics and geometry defaults"


def add_arguments(p: argparse.ArgumentParser) -> None:

    add_param_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    writes(
        p.add_argument(
            "--save",
            metavar="FILE",
            help="write the parameters as a parameter file (TOML) for --params",
        )
    )

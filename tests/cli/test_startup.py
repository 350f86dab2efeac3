"""The command line starts light: building the parser, and so ``sliders --help`` and every
``sliders COMMAND --help``, loads the flags' modules and not the libraries the commands run on;
the defaults the help repeats from heavier modules equal their sources."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sliders.cli import COMMANDS

HEAVY = ("numpy", "pymunk", "scipy", "matplotlib", "numba", "pygame", "pandas", "dask", "pyarrow")

LOADED = """
import contextlib, io, json, sys
from sliders.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "help": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def loaded(argv: list[str]) -> dict:
    """``sliders ARGV`` run in a fresh interpreter: its exit status, its output and the modules
    it loaded."""
    proc = subprocess.run(
        [sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_loads_none_of_the_heavy_libraries(command: str) -> None:
    run = loaded([command, "--help"] if command else ["--help"])
    assert run["code"] == 0 and "usage: sliders" in run["help"]
    heavy = sorted({m.split(".")[0] for m in run["modules"]} & set(HEAVY))
    assert not heavy, f"sliders {command} --help loads {heavy}"
    own = [m for m in run["modules"] if m.startswith("sliders.")]
    ran = [m for m in own if m.removeprefix("sliders.cli.") in COMMANDS]
    assert not ran, f"sliders {command} --help loads the commands' modules {ran}"
    assert not [m for m in own if m.split(".")[1] in ("physics", "batch", "game", "scenes")]


def test_a_command_loads_what_it_runs_on_when_it_runs() -> None:
    """The other side: the heavy modules are loaded by running, so the test above can fail."""
    run = loaded(["params", "--json"])
    assert run["code"] == 0 and json.loads(run["help"])["engine"]["default"] == "exact"
    assert "sliders.cli.params" in run["modules"] and "numpy" in run["modules"]


def test_the_defaults_the_help_repeats_are_their_sources() -> None:
    from sliders.batch import runners, summary, tables
    from sliders.boards import faces
    from sliders.cli import args, flags
    from sliders.physics import PhysicsParams, limits, noise
    from sliders.rules import house
    from sliders.scenes.controls import CONTROLS

    assert args.DEFAULT_FACE == faces.DEFAULT_FACE
    assert args.NOISE_LEVELS == tuple(noise.NOISE_LEVELS)
    assert args.HOUSE_RULE_NAMES == tuple(house.HOUSE_RULES)
    assert flags.shot.MIN_SPEED == limits.MIN_SPEED
    assert flags.shot.MAX_ANGLE_DEG == limits.MAX_ANGLE_DEG
    assert flags.shot.MAX_SPEED == PhysicsParams.default().max_speed
    assert flags.batch.BACKENDS == runners.BACKENDS
    assert flags.batch.DEFAULT_CHUNK == runners.DEFAULT_CHUNK
    assert flags.batch.EXACT_CHUNK == runners.EXACT_CHUNK
    assert flags.batch.FORMATS == tables.FORMATS
    assert flags.batch.METRICS_HELP == summary.METRICS_HELP
    assert flags.play.CONTROLS == tuple(CONTROLS)

"""`sliders layouts NAME` prints, for every seat, the range of ``--release`` a shot accepts."""

from __future__ import annotations

import json
import re

import pytest

from sliders.boards.faces import face
from sliders.cli import main
from sliders.core.errors import UserError
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout
from sliders.physics import Setup, Shot, start


def _accepts(layout_name: str, seats: list[str], seat: str, release: float) -> bool:
    layout = load_layout(layout_name, tuple(seats))
    try:
        start(Setup(layout, face("race-for-home")), (), Shot(seat, 0.5, release=release))
    except UserError:
        return False
    return True


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
def test_the_printed_release_range_is_the_one_a_shot_takes(name: str, capsys) -> None:
    assert main(["layouts", name, "--json"]) == 0
    seatings = json.loads(capsys.readouterr().out)["seatings"]
    seating = next(iter(seatings.values()))
    seats = [s["name"] for s in seating["seats"]]
    for s in seating["seats"]:
        lo, hi = s["release_from"], s["foul"]
        assert _accepts(name, seats, s["name"], lo) and _accepts(name, seats, s["name"], hi)
        assert not _accepts(name, seats, s["name"], lo - 1e-4), (name, s)

    assert main(["layouts", name]) == 0
    text = capsys.readouterr().out
    printed = re.findall(r"--release ([\d.]+)–([\d.]+) m", text)
    assert (f"{seating['seats'][0]['release_from']:g}", f"{seating['seats'][0]['foul']:g}") in [
        tuple(p) for p in printed
    ], text

"""The stretches of board edge a pawn can fall off: every edge less the tracks' mouths and the
blocker rails laid on it."""

from __future__ import annotations

import pytest

from sliders.boards.geometry import open_edges, open_spans
from sliders.files.layouts import load_layout


def test_the_square_is_open_only_beside_each_track_mouth():
    spans = open_spans(load_layout("square", ("south", "north")))
    assert spans["east"] == () and spans["west"] == ()
    for edge in ("north", "south"):
        (a, b), (c, d) = spans[edge]
        assert a == pytest.approx(-0.13) and d == pytest.approx(0.13)
        assert b == pytest.approx(-c) and 0.055 < c < 0.07  # the mouth and its side rails


def test_triple_track_is_open_on_three_whole_edges():
    layout = load_layout("triple-track", ("south", "north"))
    spans = open_spans(layout)
    for edge in ("north", "east", "west"):
        assert spans[edge] == (pytest.approx((-0.13, 0.13)),)
    assert len(spans["south"]) == 2
    assert open_edges(layout) == ["north", "east", "south (partly)", "west"]

"""No shot leaves pawns inside each other or a rail at rest, in either engine, on any face: the
rest is a table the next shot accepts as it is (a slice of benchmarks/overlap.py's corpus; the
script runs thousands of shots and prints the figures)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

from sliders.boards import FACES
from sliders.boards.geometry import check_pawns
from sliders.core.outcome import ENGINES
from sliders.physics import PhysicsParams

_PATH = pathlib.Path(__file__).parents[2] / "benchmarks" / "overlap.py"
SHOTS = 300
"""per face and engine: the first 300 of the corpus hold three shots that once rolled a pawn along
the hole's rim into another (on Instant Home and Instant Sorry!)"""


@pytest.fixture(scope="module")
def overlap():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("overlap", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["overlap"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("face_name", FACES)
def test_no_pawn_rests_inside_another_or_a_rail(overlap, face_name: str, engine: str) -> None:  # noqa: ANN001
    r = PhysicsParams.default().pawn_radius
    for index, case in enumerate(overlap.corpus(SHOTS, 2026, face_name)):
        result = overlap.run(case, face_name, engine)
        assert result.settled
        pawns, rails = overlap.overlaps(result, r)
        assert max(pawns, rails) <= overlap.LIMIT, f"shot {index}: {pawns=}, {rails=}"
        check_pawns(overlap.LAYOUT, [p for p in result.pawns if p.status.in_play], r)


def test_the_corpus_is_fixed_and_crowded(overlap) -> None:  # noqa: ANN001
    a, b = overlap.corpus(50, 7, "instant-home"), overlap.corpus(50, 7, "instant-home")
    assert a == b
    assert all(1 <= len(c.table) <= 7 for c in a)
    assert sum(len(c.table) for c in a) >= 150

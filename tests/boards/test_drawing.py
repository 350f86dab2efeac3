"""One drawing list of the table: the matplotlib pictures and the window draw the same colours,
numbers, foul-line stripes and pawn words, from one module that loads no drawing library."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from sliders.boards import BUILTIN_FACES, drawing, face
from sliders.core.outcome import SEAT_COLOURS, PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.pictures import table as mpl


def test_the_drawing_list_imports_no_drawing_library() -> None:
    tree = ast.parse(Path(drawing.__file__).read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {n for n in names if n.split(".")[0] in {"pygame", "matplotlib"}}


def test_both_renderers_take_their_colours_from_the_list() -> None:
    pytest.importorskip("pygame")
    from sliders.scenes import art, draw

    for seat, colour in SEAT_COLOURS.items():
        rgb = drawing.SEAT_INK[colour]
        assert rgb == drawing.seat_rgb(seat)
        assert draw.seat_rgb(seat) == draw.legible(rgb)  # the window's text: the ink, made legible
        assert mpl.seat_ink(seat) == "#{:02x}{:02x}{:02x}".format(*rgb) == mpl.INK[colour]
    assert art.PAWN_INK is drawing.SEAT_INK
    assert drawing.seat_rgb("nobody") == drawing.NO_SEAT_INK
    assert drawing.hex_ink((255, 0, 16)) == "#ff0010"


@pytest.mark.parametrize("name", sorted(BUILTIN_FACES))
def test_the_window_prints_the_lists_numbers(name) -> None:
    pytest.importorskip("pygame")
    from sliders.scenes.draw import _art

    f = face(name)
    painter, _ = _art(load_layout("square"), f)
    labels = drawing.zone_labels(f)
    assert [(z.words, z.x, z.y, z.height) for z in labels] == [
        (w, x, y, h) for w, x, y, h, _ in painter.zone_labels()
    ]
    printed = {z.words for z in labels}
    assert {str(p) for _, p in f.rings} | {str(f.base_points)} <= printed
    assert any(z.choice for z in labels) == bool(f.choice_radius)


@pytest.mark.parametrize("name", sorted(BUILTIN_FACES))
def test_every_number_sits_in_its_own_zone(name) -> None:
    f = face(name)
    angles = drawing.ring_label_angles(f)
    for z in drawing.zone_labels(f):
        r = math.hypot(z.x, z.y)
        if z.choice:
            assert f.hole_radius < r < f.choice_radius
        elif z.words == str(f.base_points) and r > f.rings[-1][0]:
            assert r < f.half * math.sqrt(2) - f.sorry_radius
        else:  # a number on a backing is set out from the hole by up to its own height
            reach = r - (z.height if z.backing is not None else 0.0)
            ring = next(p for rad, p in sorted(f.rings) if rad >= reach)
            assert z.words == str(ring) and (z.backing in (None, ring)), z
    for points, angle in angles.items():
        assert angle in drawing.RING_LABEL_ANGLES, points


def test_a_shared_foul_line_is_striped_in_each_seats_colour() -> None:
    layout = load_layout("triple-track", 3)
    (group,) = drawing.seat_groups(layout)
    stripes = drawing.foul_stripes(group)
    assert len(stripes) == 4 * len(group)
    assert [name for _, name in stripes[: len(group)]] == [s.name for s in group]
    a, b = group[0].foul_line()
    assert stripes[0][0][0] == pytest.approx(a) and stripes[-1][0][1] == pytest.approx(b)
    square = load_layout("square", 4)
    assert [len(g) for g in drawing.seat_groups(square)] == [1, 1, 1, 1]
    assert [(s, n) for (s, n) in drawing.foul_stripes([square.seats[0]])] == [
        (square.seats[0].foul_line(), square.seats[0].name)
    ]


def test_the_words_beside_a_pawn() -> None:
    def rest(status: Status, points: int = 0, choices: tuple[int, ...] = ()) -> PawnRest:
        return PawnRest("south-1", "south", 0.0, 0.0, status, points, choices)

    assert drawing.pawn_tag(rest(Status.IN_HAND)) is None
    assert drawing.pawn_tag(rest(Status.ON_TARGET, 3)) == "3"
    assert drawing.pawn_tag(rest(Status.ON_TARGET, 6, (4, 5, 6))) == "4/5/6"
    assert drawing.pawn_tag(rest(Status.OWN_TRACK)) == "own track"
    assert drawing.pawn_tag(rest(Status.SORRY_CORNER)) == "sorry corner"
    assert [drawing.text_angle(f) for f in ((0, 1), (0, -1), (1, 0), (-1, 0))] == [0, 180, -90, 90]

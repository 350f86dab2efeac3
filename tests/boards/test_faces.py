"""Each face is one record, and the physics' classification and the rules read it alike."""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

import sliders
from sliders.boards import BUILTIN_FACES, DEFAULT_FACE, FACES, Face, HoleRule, classify, face, worth
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import PhysicsParams
from sliders.rules import best_single_score, penalised, scores_of

R = PhysicsParams.default().pawn_radius
SQUARE = load_layout("square", ("south", "west", "north", "east"))

# --- the records say what the rulebook says -----------------------------------------------------

RULEBOOK = [
    # face, title, hole, hole's edge, 4/5/6 circle, dots remove, most one pawn scores
    ("race-for-home", "Race for Home", HoleRule.NONE, (), (), False, 5),
    ("instant-home", "Instant Home", HoleRule.HOME, (4,), (), False, 5),
    ("instant-sorry", "Instant Sorry!", HoleRule.PENALTY, (4, 5, 6), (4, 5, 6), False, 6),
    ("danger-dots", "Danger Dots", HoleRule.NONE, (), (), True, 5),
]


@pytest.mark.parametrize(
    ("name", "title", "hole", "edge", "circle", "dots_remove", "top"), RULEBOOK
)
def test_each_face_record_says_what_the_rulebook_says(
    name, title, hole, edge, circle, dots_remove, top
):
    f = face(name)
    assert (f.name, f.title, f.hole, f.hole_edge_points) == (name, title, hole, edge)
    assert (f.choice_points, f.dots_remove, f.top_points) == (circle, dots_remove, top)
    assert f.has_hole == (f.hole_radius > 0) == (hole is not HoleRule.NONE)
    assert bool(f.dots) == dots_remove
    assert f.scores(Status.TIPPING) == (1,) and f.scores(Status.OWN_TRACK) == (0,)
    assert f.scores(Status.HOLE_EDGE) == (edge or (0,))
    assert penalised(f, Status.IN_HOLE) == (hole is HoleRule.PENALTY)
    assert penalised(f, Status.SORRY_CORNER) and penalised(f, Status.OFF_BOARD)
    assert not penalised(f, Status.DANGER_DOT) and not penalised(f, Status.FOUL)
    assert best_single_score(f) == best_single_score(name) == top


def test_the_registry_is_the_one_list_of_games():
    assert tuple(BUILTIN_FACES) == FACES == sliders.FACES
    assert DEFAULT_FACE == "race-for-home" and DEFAULT_FACE in FACES
    assert face(face("instant-home")) is face("instant-home")
    with pytest.raises(UserError, match="unknown face 'chess'"):
        face("chess")
    data = face("instant-sorry").to_json()
    assert data["hole"] == "penalty" and data["hole_edge_points"] == [4, 5, 6]
    assert data["title"] == "Instant Sorry!" and data["dots_remove"] is False


@pytest.mark.parametrize(
    "change",
    [
        {"hole_radius": 0.015},  # a hole with no rule
        {"hole": HoleRule.HOME},  # a rule with no hole
        {"hole_radius": 0.015, "hole": HoleRule.HOME},  # a hole whose edge scores nothing
        {"choice_points": (4, 5, 6)},  # a circle with no radius
        {"dots_remove": True},  # danger dots with no dots
        {"base_points": 0},
    ],
)
def test_a_face_record_that_contradicts_itself_is_refused(change):
    with pytest.raises(ValueError, match="face race-for-home"):
        dataclasses.replace(face("race-for-home"), **change)


def test_printed_dots_that_do_not_remove_score_as_the_ring_under_them():
    dots = face("danger-dots")
    plain = dataclasses.replace(dots, dots_remove=False)
    d = dots.dots[0]
    assert classify(SQUARE, dots, "south", d.x, d.y, R).status is Status.DANGER_DOT
    v = classify(SQUARE, plain, "south", d.x, d.y, R)
    assert v.status is Status.ON_TARGET and v.points == 4  # the dot sits in ring 4


def test_a_pawn_with_a_choice_is_worth_the_best_of_it():
    assert worth((4, 5, 6)) == 6 and worth((3,)) == 3


# --- the physics' points for a pawn at rest equal the rules' points ---------------------------


def _spots() -> list[tuple[float, float]]:
    """Points over the whole table: a grid, every zone's edges, the hole, the dots, the mouths."""
    xs = np.linspace(-0.6, 0.6, 61)
    spots = [(float(x), float(y)) for x in xs for y in xs]
    for f in BUILTIN_FACES.values():
        radii = [r for r, _ in f.rings] + [f.hole_radius, f.choice_radius]
        for r in radii:
            for k in range(16):
                a = 2 * math.pi * k / 16 + 0.1
                for dr in (-R - 1e-4, -R + 1e-4, R - 1e-4, R + 1e-4, 0.0):
                    spots.append(((r + dr) * math.cos(a), (r + dr) * math.sin(a)))
        for d in f.dots:
            spots += [(d.x, d.y), (d.x + d.radius + R - 1e-4, d.y)]
    h = face(DEFAULT_FACE).half
    for t in np.linspace(-0.05, 0.05, 11):  # across each board edge, where tipping happens
        spots += [(float(t), -h - R / 2), (float(t), h + R / 2), (-h - R / 2, float(t))]
    return spots


SPOTS = _spots()


@pytest.mark.parametrize("name", FACES)
def test_physics_and_rules_score_every_pawn_at_rest_alike(name):
    f = face(name)
    seen: set[Status] = set()
    for x, y in SPOTS:
        for seat in ("south", "north"):
            v = classify(SQUARE, f, seat, x, y, R)
            rest = PawnRest(f"{seat}-1", seat, x, y, v.status, v.points, v.choices)
            seen.add(v.status)
            if not v.status.in_play:
                assert rest.points == 0, (x, y, v)
                continue
            rules = scores_of(rest, f)
            assert rules == tuple(sorted(set(rest.choices))), (x, y, v)
            assert rest.points == worth(rules), (x, y, v)
            assert all(1 <= c <= f.top_points for c in rules if v.status is not Status.OWN_TRACK)
    expected = {Status.ON_TARGET, Status.TIPPING, Status.OWN_TRACK, Status.OFF_BOARD}
    expected |= {Status.SORRY_CORNER, Status.OTHER_TRACK}
    if f.has_hole:
        expected |= {Status.IN_HOLE, Status.HOLE_EDGE}
    if f.dots_remove:
        expected.add(Status.DANGER_DOT)
    assert seen == expected  # the sample reaches every status the face can give, no other


# --- no face is known by its name outside its record ------------------------------------------


def face_name_uses(source: str, filename: str = "<source>") -> list[int]:
    """Lines where ``source`` compares something with a face's name, or lists face names in a
    set, list, tuple or dict (a second table of which game does what)."""
    tree = ast.parse(source, filename)
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare | ast.Set | ast.List | ast.Tuple | ast.Dict):
            continue
        for part in ast.walk(node):
            if isinstance(part, ast.Constant) and part.value in FACES:
                lines.append(node.lineno)
                break
    return sorted(set(lines))


def test_the_face_name_check_finds_what_it_looks_for():
    assert face_name_uses('if face == "instant-sorry":\n    pass\n') == [1]
    assert face_name_uses('HOLES = frozenset({"instant-home", "instant-sorry"})\n') == [1]
    assert face_name_uses('def f(face: str = "race-for-home") -> None:\n    """x"""\n') == []


def test_no_module_compares_a_face_name():
    """The rules of a game are read from its record: a comparison with a face's name, or a table
    of names, anywhere in the package but the records is a second copy of the rules. (The
    vocabulary's list of the names, ``sliders.core.outcome.FACES``, is checked equal to the registry
    by ``boards/faces.py``.)"""
    package = Path(sliders.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        name = str(path.relative_to(package))
        if name in ("boards/faces.py", "core/outcome.py"):
            continue
        found += [f"{name}:{line}" for line in face_name_uses(path.read_text(), name)]
    assert found == []


def test_every_face_draws_from_its_record_only():
    """A face made from a record with a new name is a game the rules can play: nothing keys on
    the four names."""
    f = face("instant-sorry")
    assert isinstance(f, Face)
    twin = dataclasses.replace(f, name="twin", title="Twin")
    assert twin.scores(Status.HOLE_EDGE) == (4, 5, 6) and penalised(twin, Status.IN_HOLE)

"""What the table says: pawns' point labels never cover each other, the printed ring and zone
labels are large enough to read when the board is 450 px wide, and the danger dots are no
player's colour."""

from __future__ import annotations

import math

import pygame
import pytest

from sliders.boards import BUILTIN_FACES, face
from sliders.files.layouts import load_layout
from sliders.scenes import art
from sliders.scenes.draw import TableView, _art, forget_fonts, place_label

R = 0.0125


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield
    forget_fonts()
    pygame.quit()


def _cluster(n: int, spread: float) -> list[tuple[str, float, float]]:
    """``n`` pawns packed around (0.01, -0.01), touching or nearly."""
    seats = ("south", "west", "north", "east")
    out = []
    for k in range(n):
        a = k * 2.4
        d = spread * math.sqrt(k)
        out.append(
            (f"{seats[k % 4]}-{k // 4 + 1}", 0.01 + d * math.cos(a), -0.01 + d * math.sin(a))
        )
    return out


@pytest.mark.parametrize("scale", [1800.0, 3000.0, 900.0])
def test_labels_of_a_cluster_do_not_overlap(scale):
    view = TableView(load_layout("square", 4), face("race-for-home"), R)
    rect = pygame.Rect(0, 0, 900, 740)
    view.look_at((0.0, 0.0), scale, rect)
    surface = pygame.Surface(rect.size)
    view.draw_static(surface)
    pawns = _cluster(12, 2.1 * R)
    for pid, x, y in pawns:
        view.draw_pawn(surface, pid, x, y)
    labels = [view.tag(surface, "4/5/6" if k % 3 == 0 else "5", x, y) for k, (_, x, y) in
              enumerate(pawns)]  # fmt: skip
    for i, a in enumerate(labels):
        assert rect.contains(a)
        for b in labels[i + 1 :]:
            assert not a.colliderect(b), (a, b)
    # and none covers a pawn's body while the view is close enough to have room
    if scale >= 1800:
        bodies = [pygame.Rect(0, 0, 2 * view.px(R), 2 * view.px(R)) for _ in pawns]
        for body, (_, x, y) in zip(bodies, pawns, strict=True):
            body.center = view.to_screen(x, y)
        covered = sum(a.colliderect(b.inflate(-6, -6)) for a in labels for b in bodies)
        assert covered <= len(labels) // 4


def test_labels_start_afresh_each_frame():
    view = TableView(load_layout("square"), face("race-for-home"), R)
    rect = pygame.Rect(0, 0, 600, 600)
    view.look_at((0.0, 0.0), 2000.0, rect)
    surface = pygame.Surface(rect.size)
    first = []
    for _ in range(2):
        view.draw_static(surface)
        view.draw_pawn(surface, "south-1", 0.0, 0.0)
        first.append(view.tag(surface, "5", 0.0, 0.0))
    assert first[0] == first[1]  # the second frame does not dodge the first frame's label


def test_place_label_takes_the_first_free_place_and_falls_back_to_the_least_covered():
    taken = [pygame.Rect(100, 60, 40, 40)]
    free = place_label((20, 14), (100, 100), 12, taken)
    assert not free.inflate(8, 4).colliderect(taken[0])
    # everything taken: it still returns a place, the least covered one
    wall = [pygame.Rect(0, 0, 400, 400)]
    assert place_label((20, 14), (100, 100), 12, wall).size == (20, 14)


@pytest.mark.parametrize("name", sorted(BUILTIN_FACES))
def test_ring_and_zone_labels_are_readable_on_a_450_px_board(name):
    f = face(name)
    scale = 450 / f.side
    painter, _ = _art(load_layout("square"), f)
    labels = painter.zone_labels()
    assert labels
    for words, _, _, height, _ in labels:
        size = painter.label_size(height, scale)
        image = painter.font(size, True).render(words, True, (0, 0, 0))
        ink = image.get_bounding_rect()
        assert ink.height >= 14, (words, ink.height)
    sorry = painter.font(painter.sorry_size(scale), True).render("SORRY!", True, (0, 0, 0))
    assert sorry.get_bounding_rect().height >= 14


@pytest.mark.parametrize("name", sorted(BUILTIN_FACES))
def test_every_ring_has_its_number_printed(name):
    f = face(name)
    painter, _ = _art(load_layout("square"), f)
    printed = {words for words, *_ in painter.zone_labels()}
    assert {str(points) for _, points in f.rings} | {str(f.base_points)} <= printed
    if f.choice_radius:
        assert "/".join(str(c) for c in f.choice_points) in printed


def _far(a, b, d: float) -> bool:
    return math.dist(a, b) > d


def test_danger_dots_are_no_players_colour():
    f = face("danger-dots")
    assert f.dots
    for ink in art.PAWN_INK.values():
        assert _far(art.DOT_FILL, ink, 120)
    # as drawn: the dot's purple band, between its rim and its white ring
    view = TableView(load_layout("square"), f, R)
    rect = pygame.Rect(0, 0, 800, 800)
    view.look_at((0.0, 0.0), 3000.0, rect)
    surface = pygame.Surface(rect.size)
    for _ in range(2):
        view.draw_static(surface)
    for dot in f.dots:
        c = surface.get_at(view.to_screen(dot.x + dot.radius * 0.55, dot.y))[:3]
        assert _far(c, art.DOT_FILL, 40) is False, c
        for ink in art.PAWN_INK.values():
            assert _far(c, ink, 100)


def test_a_pawn_out_of_view_has_no_label_in_view():
    view = TableView(load_layout("square"), face("race-for-home"), R)
    rect = pygame.Rect(0, 0, 400, 300)
    view.look_at((0.1, 0.1), 5000.0, rect)
    surface = pygame.Surface(rect.size)
    view.draw_static(surface)
    before = surface.copy()
    label = view.tag(surface, "5", 0.0, 0.0)  # 500 px left of and below the view's corner
    assert not rect.colliderect(label)
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(before, "RGB")

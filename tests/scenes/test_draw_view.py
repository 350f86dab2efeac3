"""The table view's camera: ``fit`` (the overview) and ``look_at`` (any centre and scale) map world
and screen both ways, and the static table and the pawns are drawn where the mapping says."""

from __future__ import annotations

import pygame
import pytest

from sliders.boards import face
from sliders.files.layouts import load_layout
from sliders.scenes.draw import MAX_SCALE, TableView, forget_fonts

R = 0.0125


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield
    forget_fonts()
    pygame.quit()


def _view(layout: str = "square") -> TableView:
    return TableView(load_layout(layout), face("race-for-home"), R)


def test_look_at_puts_the_centre_in_the_middle_of_the_rect():
    view = _view()
    rect = pygame.Rect(30, 40, 800, 600)
    view.look_at((0.05, -0.1), 2500.0, rect)
    assert view.to_screen(0.05, -0.1) == rect.center
    # +x right, +y up, one metre = scale pixels
    assert view.to_screen(0.05 + 0.1, -0.1) == (rect.centerx + 250, rect.centery)
    assert view.to_screen(0.05, -0.1 + 0.1) == (rect.centerx, rect.centery - 250)
    assert view.px(R) == round(R * 2500)


@pytest.mark.parametrize("centre,scale", [((0.0, 0.0), 300.0), ((0.2, -0.3), 4000.0)])
def test_to_world_inverts_to_screen(centre, scale):
    view = _view()
    view.look_at(centre, scale, pygame.Rect(10, 50, 900, 740))
    for x, y in [(0.0, 0.0), (0.13, -0.07), (-0.3, 0.41)]:
        wx, wy = view.to_world(*view.to_screen(x, y))
        assert abs(wx - x) <= 0.5 / scale + 1e-12
        assert abs(wy - y) <= 0.5 / scale + 1e-12
    x0, y0, x1, y1 = view.visible()
    assert (x1 - x0) == pytest.approx(900 / scale)
    assert (y1 - y0) == pytest.approx(740 / scale)
    assert (x0 + x1) / 2 == pytest.approx(centre[0])


def test_fit_shows_the_whole_table():
    for name in ("square", "quadruple-track", "head-to-head"):
        view = _view(name)
        rect = pygame.Rect(10, 50, 900, 740)
        view.fit(rect)
        assert view.scale == pytest.approx(view.fit_scale(rect))
        x0, y0, x1, y1 = view.bounds
        for x, y in [(x0, y0), (x1, y1)]:
            assert rect.inflate(2, 2).collidepoint(view.to_screen(x, y))


def test_bad_scale_is_refused():
    with pytest.raises(ValueError):
        _view().look_at((0.0, 0.0), 0.0, pygame.Rect(0, 0, 100, 100))


def _near(a, b, tol: int = 24) -> bool:
    return all(abs(u - v) <= tol for u, v in zip(a, b, strict=True))


@pytest.mark.parametrize("centre,scale", [((0.0, 0.0), 1500.0), ((0.03, 0.02), 3500.0)])
def test_static_table_follows_the_camera(centre, scale):
    """Ring 5 and ring 4 are printed at the screen points of their world points, under any
    camera, on the first (tiled) frame and on the exact frame painted once the view is still."""
    view = _view()
    rect = pygame.Rect(20, 30, 640, 480)
    surface = pygame.Surface((700, 560))
    view.look_at(centre, scale, rect)
    frames = []
    for _ in range(3):  # moving (tiles), still (painted exactly), still (the kept picture)
        surface.fill((255, 0, 255))
        view.draw_static(surface)
        # nothing drawn outside rect
        assert surface.get_at((5, 5))[:3] == (255, 0, 255)
        assert surface.get_at((rect.right + 5, rect.bottom + 5))[:3] == (255, 0, 255)
        bull = surface.get_at(view.to_screen(0.011, -0.011))[:3]
        ring4 = surface.get_at(view.to_screen(0.03, -0.004))[:3]
        frames.append((bull, ring4))
        assert not _near(bull, ring4, 40)  # the 5 and the 4 are printed in different colours
    for bull, ring4 in frames[1:]:
        assert _near(bull, frames[0][0]) and _near(ring4, frames[0][1])
    # the same world point looks the same under another camera
    other = _view()
    other.look_at((0.0, 0.0), 2000.0, rect)
    again = pygame.Surface((700, 560))
    other.draw_static(again)
    assert _near(again.get_at(other.to_screen(0.011, -0.011))[:3], frames[0][0])
    assert _near(again.get_at(other.to_screen(0.03, -0.004))[:3], frames[0][1])


def test_pawn_is_drawn_at_its_world_point_and_clipped_to_rect():
    view = _view()
    rect = pygame.Rect(100, 100, 300, 300)
    view.look_at((0.0, 0.0), 3000.0, rect)
    surface = pygame.Surface((500, 500))
    surface.fill((0, 0, 0))
    view.draw_pawn(surface, "south-1", 0.02, 0.01)
    x, y = view.to_screen(0.02, 0.01)
    # the pawn's body is seat-coloured somewhere within its radius
    r = view.px(R)
    seen = {
        surface.get_at((x + dx, y + dy))[:3] for dx in range(-r + 3, r - 2) for dy in (-r // 2,)
    }
    assert any(c[0] > 150 and c[1] < 100 for c in seen)  # red seat
    # a pawn half outside the rect leaves nothing outside it
    surface.fill((0, 0, 0))
    view.draw_pawn(surface, "north-2", *view.to_world(rect.right, rect.centery))
    for py in range(rect.top, rect.bottom):
        for px in range(rect.right, 500):
            assert surface.get_at((px, py))[:3] == (0, 0, 0)


def test_extreme_views_are_drawn():
    """Far closer than any camera goes is drawn at MAX_SCALE; an empty rect draws nothing."""
    view = _view()
    surface = pygame.Surface((300, 200))
    view.look_at((0.07, 0.0), 1e9, surface.get_rect())
    assert view.scale == MAX_SCALE
    assert view.to_screen(0.07, 0.0) == (150, 100)
    for _ in range(2):
        view.draw_static(surface)
    view.look_at((0.0, 0.0), 3.0, surface.get_rect())
    view.draw_static(surface)
    surface.fill((1, 2, 3))
    view.look_at((0.0, 0.0), 100.0, pygame.Rect(10, 10, 0, 0))
    view.draw_static(surface)
    assert surface.get_at((10, 10))[:3] == (1, 2, 3)

"""The table's art, painted at start for any view: a wooden table, plastic tracks with raised side
rails and printed foul lines, the printed cardboard target board (rings with their numbers,
SORRY! corners, the hole, danger dots), and roller pawns seen from above (a shadow, a rim, a
domed top with the pawn's number).

:class:`TableArt` paints any world rectangle at any scale; :class:`TileCache` keeps painted tiles
at a ladder of scales so a moving camera only scales and blits (see ``benchmarks/frame.py``);
:class:`PawnSprites` draws each pawn once large and keeps it scaled to the sizes in use.
"""

from __future__ import annotations

import functools
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame
from pygame.surfarray import pixels3d, pixels_alpha  # loaded here, not lazily in a thread

from sliders.boards import Face, Layout, Rect, Seat, Track
from sliders.boards.drawing import (
    BASE_FILL,
    CHOICE_FILL,
    CHOICE_INK,
    DOT_EDGE,
    DOT_FILL,
    HOLE_DEEP,
    PRINT_INK,
    SEAT_INK,
    SORRY_FILL,
    SORRY_INK,
    foul_stripes,
    ring_fill,
    seat_groups,
    seat_rgb,
    text_angle,
    zone_labels,
)

RGB = tuple[int, int, int]

# -- palette ---------------------------------------------------------------------------------------
WOOD = (96, 64, 42)
WOOD_SHADOW = (58, 38, 26)
PLASTIC = (222, 228, 236)
PLASTIC_EDGE = (188, 196, 208)
RAIL_TOP = (246, 248, 252)
RAIL_SIDE = (150, 160, 176)
RAIL_DARK = (96, 104, 120)
BLOCKER_TOP = (92, 102, 124)
BLOCKER_SIDE = (52, 58, 74)
BOARD_RIM = (30, 40, 78)
SORRY_TRIM = (255, 196, 40)
HOLE_RIM = (70, 62, 58)
DOT_RING = (250, 244, 255)

PAWN_INK: dict[str, RGB] = SEAT_INK
"""the pawns' colours: the players' inks every picture of the table uses"""

DIGIT_HEIGHT = 0.73  # of the font's em: the height of its digits
WOOD_TEXELS = 900.0  # texels per metre of the wood grain (anisotropic)
CARD_TEXELS = 2400.0  # texels per metre of the cardboard's fibre
TEXTURE = 256
VIEWS_KEPT = 8  # the tile cache holds at least this many views' worth of tiles
FALLBACK = 2  # levels (of √2 each) a frame may fall back while tiles are being painted
WINDOWED = 512  # past this many pixels a grain period, only the part in view is scaled
FOUL_LABEL_EM = 0.014
"""metres: the em of the printed FOUL LINE (12.9 px in the smallest window's lane pane)"""
FOUL_LABEL_BEYOND = 0.03
"""metres beyond the foul line, toward the board, where FOUL LINE is printed (its middle): a
held pawn never goes past the line, so the words are never under it"""


def foul_label_spot(seat: Seat) -> tuple[float, float]:
    """The world point where ``seat``'s FOUL LINE words are printed (their middle)."""
    a, b = seat.foul_line()
    fx, fy = seat.forward
    d = FOUL_LABEL_BEYOND
    return (a[0] + b[0]) / 2 + fx * d, (a[1] + b[1]) / 2 + fy * d


class Painter:
    """World-to-pixel mapping of one paint job: pixel = (ox + x·s, oy − y·s)."""

    def __init__(self, surface: pygame.Surface, ox: float, oy: float, s: float) -> None:
        self.surface, self.ox, self.oy, self.s = surface, ox, oy, s
        w, h = surface.get_size()
        self.world = ((-ox) / s, (oy - h) / s, (w - ox) / s, oy / s)

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.s, self.oy - y * self.s

    def ati(self, x: float, y: float) -> tuple[int, int]:
        return round(self.ox + x * self.s), round(self.oy - y * self.s)

    def rect(self, xmin: float, ymin: float, xmax: float, ymax: float) -> pygame.Rect:
        (ax, ay), (bx, by) = self.ati(xmin, ymax), self.ati(xmax, ymin)
        return pygame.Rect(ax, ay, max(bx - ax, 1), max(by - ay, 1))

    def sees(self, xmin: float, ymin: float, xmax: float, ymax: float) -> bool:
        x0, y0, x1, y1 = self.world
        return xmax >= x0 and xmin <= x1 and ymax >= y0 and ymin <= y1


class TableArt:
    """Paints the layout and face for any view; everything is drawn from the board data."""

    def __init__(self, layout: Layout, face: Face, font: Callable[[int, bool], pygame.font.Font]):
        self.layout, self.face, self.font = layout, face, font
        self._wood, self._card = _grains()
        self._scaled: OrderedDict[tuple[str, int], pygame.Surface] = OrderedDict()
        self._words: OrderedDict[tuple[str, int, bool, RGB, int], pygame.Surface] = OrderedDict()

    # -- the whole picture -------------------------------------------------------------------------

    def paint(self, surface: pygame.Surface, ox: float, oy: float, s: float) -> None:
        """Paint the table into ``surface``; world (x, y) lands on pixel (ox + x·s, oy − y·s)."""
        p = Painter(surface, ox, oy, s)
        surface.fill(WOOD)
        self._texture(p, "wood", self._wood, WOOD_TEXELS, surface.get_rect())
        self._shadows(p)
        for track in self.layout.tracks:
            self._track(p, track.rect, track.forward)
        groups = seat_groups(self.layout)
        for group in groups:
            if len(group) == 1:
                self._release_zone(p, group[0])
        for track in self.layout.tracks:
            self._seams(p, track)
        for group in groups:
            self._foul_line(p, group)
        self._board(p)
        for rail in self.layout.rails:
            self._rail(p, rail.a, rail.b, rail.thickness, rail.kind == "blocker")

    # -- pieces ------------------------------------------------------------------------------------

    def _shadows(self, p: Painter) -> None:
        h = self.face.half
        pieces = [(-h, -h, h, h)] + [
            (t.rect.xmin, t.rect.ymin, t.rect.xmax, t.rect.ymax) for t in self.layout.tracks
        ]
        off = 0.004
        for k, shade in enumerate((0.55, 0.7, 0.85)):
            grow = (2 - k) * 0.0025
            rgb = _mix(WOOD_SHADOW, WOOD, 1 - shade)
            for xmin, ymin, xmax, ymax in pieces:
                box = (xmin - grow + off, ymin - grow - off, xmax + grow + off, ymax + grow - off)
                if p.sees(*box):
                    pygame.draw.rect(p.surface, rgb, p.rect(*box))
        rail_pad = 0.006
        for rail in self.layout.rails:
            xs, ys = (rail.a[0], rail.b[0]), (rail.a[1], rail.b[1])
            box = (
                min(xs) - rail_pad + off,
                min(ys) - rail_pad - off,
                max(xs) + rail_pad + off,
                max(ys) + rail_pad - off,
            )
            if p.sees(*box):
                pygame.draw.rect(p.surface, _mix(WOOD_SHADOW, WOOD, 0.3), p.rect(*box))

    def _track(self, p: Painter, rc: Rect, forward: tuple[int, int]) -> None:
        xmin, ymin, xmax, ymax = rc.xmin, rc.ymin, rc.xmax, rc.ymax
        if not p.sees(xmin, ymin, xmax, ymax):
            return
        box = p.rect(xmin, ymin, xmax, ymax)
        pygame.draw.rect(p.surface, PLASTIC, box)
        # a channel: darker toward the rails, a soft sheen down the middle
        across = xmax - xmin if forward[0] == 0 else ymax - ymin
        bands = ((0.0, 0.06, PLASTIC_EDGE), (0.06, 0.14, _mix(PLASTIC_EDGE, PLASTIC, 0.5)))
        for a, b, rgb in bands:
            for side in (0, 1):
                lo, hi = (a, b) if side == 0 else (1 - b, 1 - a)
                if forward[0] == 0:
                    r = p.rect(xmin + lo * across, ymin, xmin + hi * across, ymax)
                else:
                    r = p.rect(xmin, ymin + lo * across, xmax, ymin + hi * across)
                pygame.draw.rect(p.surface, rgb, r)
        sheen = _mix(PLASTIC, (255, 255, 255), 0.55)
        lo, hi = 0.40, 0.47
        if forward[0] == 0:
            r = p.rect(xmin + lo * across, ymin, xmin + hi * across, ymax)
        else:
            r = p.rect(xmin, ymin + lo * across, xmax, ymin + hi * across)
        pygame.draw.rect(p.surface, sheen, r)
        # chevrons printed down the lane's middle, pointing to the mouth
        length = ymax - ymin if forward[0] == 0 else xmax - xmin
        cx, cy = (xmin + xmax) / 2, (ymin + ymax) / 2
        ink = _mix(PLASTIC, PRINT_INK, 0.16)
        n = max(int(length / 0.06), 1)
        for k in range(n):
            along = -length / 2 + (k + 0.5) * length / n
            self._chevron(p, cx, cy, forward, along, across * 0.16, ink)

    def _seams(self, p: Painter, track: Track) -> None:
        """A thin joint across each end of a track piece, where pieces hook together."""
        rc = track.rect
        fx, _ = track.forward
        ink = _mix(PLASTIC_EDGE, RAIL_DARK, 0.4)
        w = max(round(p.s * 0.0008), 1)
        ends = [(rc.xmin, rc.ymin, rc.xmax, rc.ymin), (rc.xmin, rc.ymax, rc.xmax, rc.ymax)]
        if fx != 0:
            ends = [(rc.xmin, rc.ymin, rc.xmin, rc.ymax), (rc.xmax, rc.ymin, rc.xmax, rc.ymax)]
        for x0, y0, x1, y1 in ends:
            if p.sees(x0 - 0.002, y0 - 0.002, x1 + 0.002, y1 + 0.002):
                pygame.draw.line(p.surface, ink, p.at(x0, y0), p.at(x1, y1), w)

    def _chevron(
        self,
        p: Painter,
        cx: float,
        cy: float,
        forward: tuple[int, int],
        along: float,
        size: float,
        ink: RGB,
    ) -> None:
        fx, fy = forward
        rx, ry = fy, -fx
        tip = (cx + fx * (along + size * 0.5), cy + fy * (along + size * 0.5))
        wings = [
            (
                cx + fx * (along - size * 0.3) + rx * size * s,
                cy + fy * (along - size * 0.3) + ry * size * s,
            )
            for s in (1, -1)
        ]
        if not p.sees(cx + fx * along - size, cy + fy * along - size, cx + fx * along + size,
                      cy + fy * along + size):  # fmt: skip
            return
        w = max(p.s * size * 0.22, 1.0)
        for wing in wings:
            pygame.draw.line(p.surface, ink, p.at(*wing), p.at(*tip), round(w))

    def _release_zone(self, p: Painter, seat: Seat) -> None:
        """A lane's own stretch behind its foul line, printed lightly in its player's colour."""
        ink = seat_rgb(seat.name)
        hw = seat.width / 2
        corners = [seat.to_world(a, c) for a in (0.0, seat.foul) for c in (-hw, hw)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        if p.sees(min(xs), min(ys), max(xs), max(ys)):
            tint = _mix((255, 255, 255), ink, 0.16)
            box = p.rect(min(xs), min(ys), max(xs), max(ys))
            p.surface.fill(tint, box, special_flags=pygame.BLEND_RGB_MULT)

    def _foul_line(self, p: Painter, seats: list[Seat]) -> None:
        """The foul line printed across the lane: in its player's colour, or in stripes of each
        player's colour where the lane is shared; FOUL LINE printed just beyond it
        (:func:`foul_label_spot`)."""
        seat = seats[0]
        a, b = seat.foul_line()
        inks = [seat_rgb(x.name) for x in seats]
        width = max(round(p.s * 0.003), 2)
        pad = 0.02
        if not p.sees(min(a[0], b[0]) - pad, min(a[1], b[1]) - pad, max(a[0], b[0]) + pad,
                      max(a[1], b[1]) + pad):  # fmt: skip
            return
        for (u, v), name in foul_stripes(seats):
            pygame.draw.line(p.surface, seat_rgb(name), p.at(*u), p.at(*v), width)
        fx, fy = seat.forward
        size = max(round(p.s * FOUL_LABEL_EM), 7)
        ink = inks[0] if len(inks) == 1 else PLASTIC_EDGE
        words = self._text(
            "FOUL LINE", size, True, _mix(ink, PRINT_INK, 0.35), text_angle((fx, fy))
        )
        p.surface.blit(words, words.get_rect(center=p.ati(*foul_label_spot(seat))))

    def _rail(self, p: Painter, a: tuple[float, float], b: tuple[float, float], t: float,
              blocker: bool) -> None:  # fmt: skip
        xmin, xmax = min(a[0], b[0]) - t / 2, max(a[0], b[0]) + t / 2
        ymin, ymax = min(a[1], b[1]) - t / 2, max(a[1], b[1]) + t / 2
        if not p.sees(xmin, ymin, xmax, ymax):
            return
        side, top = (BLOCKER_SIDE, BLOCKER_TOP) if blocker else (RAIL_SIDE, RAIL_TOP)
        r = p.rect(xmin, ymin, xmax, ymax)
        pygame.draw.rect(p.surface, side, r)
        # the rail's rounded top: a lighter strip lit from the upper left
        horizontal = (xmax - xmin) > (ymax - ymin)
        inset = max(round(p.s * t * 0.2), 1)
        if horizontal:
            inner = pygame.Rect(r.x, r.y + inset // 2, r.w, max(r.h - inset - inset // 2, 1))
            light = pygame.Rect(r.x, inner.y, r.w, max(inner.h // 3, 1))
        else:
            inner = pygame.Rect(r.x + inset // 2, r.y, max(r.w - inset - inset // 2, 1), r.h)
            light = pygame.Rect(inner.x, r.y, max(inner.w // 3, 1), r.h)
        pygame.draw.rect(p.surface, top, inner)
        pygame.draw.rect(p.surface, _mix(top, (255, 255, 255), 0.6), light)
        if r.w > 3 and r.h > 3:
            pygame.draw.rect(p.surface, RAIL_DARK if not blocker else (30, 34, 44), r, 1)

    def _board(self, p: Painter) -> None:
        f = self.face
        h = f.half
        if not p.sees(-h, -h, h, h):
            return
        s = p.surface
        c = p.at(0.0, 0.0)
        box = p.rect(-h, -h, h, h)
        pygame.draw.rect(s, BASE_FILL, box)
        # rings, outermost first
        for i, (radius, points) in enumerate(sorted(f.rings, reverse=True)):
            fill = ring_fill(points, i)
            self._disc(p, c, radius, fill)
        line = max(p.s * 0.0011, 1.0)
        if f.choice_radius:
            self._disc(p, c, f.choice_radius, CHOICE_FILL)
        # corners over the rings' ends
        for cx, cy in f.corners:
            self._sorry_corner(p, cx, cy)
        for radius, _ in f.rings:
            self._circle(p, c, radius, PRINT_INK, line)
        if f.choice_radius:
            self._circle(p, c, f.choice_radius, CHOICE_INK, line)
        if f.hole_radius:
            self._hole(p, c, f.hole_radius)
        for dot in f.dots:
            self._dot(p, dot.x, dot.y, dot.radius)
        self._ring_labels(p)
        # the cardboard's fibre over the whole printed face
        self._texture(p, "card", self._card, CARD_TEXELS, box)
        # the board's printed border and cut edge
        edge = max(round(p.s * 0.0025), 2)
        pygame.draw.rect(s, BOARD_RIM, box, edge)
        pygame.draw.rect(s, _mix(BOARD_RIM, (0, 0, 0), 0.4), box, 1)

    def _disc(self, p: Painter, c: tuple[float, float], radius: float, rgb: RGB) -> None:
        r = p.s * radius
        if not _edge_seen(p.surface, c, r, 2.0):
            if _inside(p.surface, c, r):
                p.surface.fill(rgb)
            return
        pygame.draw.circle(p.surface, rgb, (round(c[0]), round(c[1])), round(r))
        pygame.draw.aacircle(p.surface, rgb, c, r)

    def _circle(
        self, p: Painter, c: tuple[float, float], radius: float, rgb: RGB, w: float
    ) -> None:
        r = p.s * radius
        if not _edge_seen(p.surface, c, r, w + 2):
            return
        pygame.draw.circle(p.surface, rgb, (round(c[0]), round(c[1])), round(r), max(round(w), 1))
        pygame.draw.aacircle(p.surface, rgb, c, r + w / 2 - 0.5, 1)
        pygame.draw.aacircle(p.surface, rgb, c, r - w / 2 + 0.5, 1)

    def _sorry_corner(self, p: Painter, cx: float, cy: float) -> None:
        f = self.face
        rad = f.sorry_radius
        if not p.sees(cx - rad, cy - rad, cx + rad, cy + rad):
            return
        corner = p.at(cx, cy)
        r = p.s * rad
        # which quadrant of the circle lies on the board (screen y runs down)
        quad = {
            (1, 1): "draw_bottom_left",
            (-1, 1): "draw_bottom_right",
            (-1, -1): "draw_top_right",
            (1, -1): "draw_top_left",
        }[(int(math.copysign(1, cx)), int(math.copysign(1, cy)))]
        pygame.draw.circle(p.surface, SORRY_FILL, corner, r, **{quad: True})
        if _edge_seen(p.surface, corner, r, 2.0):
            pygame.draw.aacircle(p.surface, SORRY_FILL, corner, r, **{quad: True})
        trim = max(p.s * 0.0012, 1.0)
        pygame.draw.circle(
            p.surface, SORRY_TRIM, corner, r * 0.965, max(round(trim), 1), **{quad: True}
        )
        # the word along the corner's diagonal, reading from the board's middle outward
        # as wide as the radius, centred 0.68 of the radius in from the corner, where
        # the quarter disc is wide enough for it
        size = self.sorry_size(p.s)
        ux, uy = -math.copysign(1, cx) / math.sqrt(2), -math.copysign(1, cy) / math.sqrt(2)
        spot = (cx + ux * rad * 0.68, cy + uy * rad * 0.68)
        angle = -45.0 if cx * cy > 0 else 45.0
        words = self._text("SORRY!", size, True, SORRY_INK, round(angle))
        p.surface.blit(words, words.get_rect(center=p.ati(*spot)))

    def sorry_size(self, scale: float) -> int:
        """The em in pixels of the SORRY! words at ``scale`` pixels a metre."""
        per_em = self.font(100, True).size("SORRY!")[0] / 100
        return max(round(scale * self.face.sorry_radius * 1.0 / per_em), 6)

    def label_size(self, height: float, scale: float) -> int:
        """The em in pixels of a printed number ``height`` metres tall (its digits' height)."""
        return max(round(scale * height / DIGIT_HEIGHT), 6)

    def _hole(self, p: Painter, c: tuple[float, float], radius: float) -> None:
        r = p.s * radius
        ic = (round(c[0]), round(c[1]))
        pygame.draw.circle(
            p.surface, _mix(BASE_FILL, HOLE_RIM, 0.5), ic, round(r + max(p.s * 0.0015, 1))
        )
        steps = 6
        for k in range(steps):
            t = k / (steps - 1)
            rr = r * (1 - 0.55 * t)
            # the inside wall lit from the top left: the deep part sits low and to the right
            shift = r * 0.12 * t
            pygame.draw.circle(
                p.surface, _mix(HOLE_RIM, HOLE_DEEP, t), (ic[0] + shift, ic[1] + shift), round(rr)
            )
        if _edge_seen(p.surface, c, r, 2.0):
            pygame.draw.aacircle(p.surface, HOLE_RIM, c, r, 1)

    def _dot(self, p: Painter, x: float, y: float, radius: float) -> None:
        if not p.sees(x - radius, y - radius, x + radius, y + radius):
            return
        c = p.at(x, y)
        r = p.s * radius
        ic = (round(c[0]), round(c[1]))
        pygame.draw.circle(p.surface, DOT_FILL, ic, round(r))
        pygame.draw.aacircle(p.surface, DOT_EDGE, c, r, max(round(r * 0.08), 1))
        pygame.draw.circle(p.surface, DOT_RING, ic, round(r * 0.72), max(round(r * 0.1), 1))
        size = max(round(r * 1.25), 6)
        mark = self._text("!", size, True, DOT_RING, 0)
        p.surface.blit(mark, mark.get_rect(center=ic))

    # -- labels ------------------------------------------------------------------------------------

    def zone_labels(self) -> list[tuple[str, float, float, float, RGB | None]]:
        """(words, x, y, height in metres, backing colour) of every number printed on the face
        (:func:`sliders.boards.drawing.zone_labels`)."""
        return [
            (z.words, z.x, z.y, z.height, None if z.backing is None else ring_fill(z.backing, 0))
            for z in zone_labels(self.face)
        ]

    def _ring_labels(self, p: Painter) -> None:
        for words, x, y, height, backing in self.zone_labels():
            size = self.label_size(height, p.s)
            cx, cy = p.at(x, y)
            guess = pygame.Rect(0, 0, size * len(words), size * 2)
            guess.center = (round(cx), round(cy))
            if not p.surface.get_rect().colliderect(guess):
                continue
            ink = CHOICE_INK if "/" in words else PRINT_INK
            image = self._text(words, size, True, ink, 0)
            r = image.get_rect(center=p.ati(x, y))
            if not p.surface.get_rect().colliderect(r.inflate(r.h, r.h)):
                continue
            if backing is not None:
                badge = r.h * 0.62
                pygame.draw.circle(p.surface, backing, r.center, badge)
                pygame.draw.aacircle(
                    p.surface, PRINT_INK, r.center, badge, max(round(badge / 9), 1)
                )
            p.surface.blit(image, r)

    def _text(self, words: str, size: int, bold: bool, rgb: RGB, angle: int) -> pygame.Surface:
        key = (words, size, bold, rgb, angle)
        image = self._words.get(key)
        if image is None:
            image = self.font(size, bold).render(words, True, rgb)
            if angle:
                image = pygame.transform.rotozoom(image, angle, 1.0)
            self._words[key] = image
            if len(self._words) > 400:
                self._words.popitem(last=False)
        else:
            self._words.move_to_end(key)
        return image

    # -- textures ----------------------------------------------------------------------------------

    def _texture(
        self,
        p: Painter,
        kind: str,
        base: pygame.Surface,
        texels: float,
        area: pygame.Rect,
    ) -> None:
        """Multiply ``area`` by a world-anchored tiling grain of ``base`` at ``texels`` a metre."""
        area = area.clip(p.surface.get_rect())
        if area.w <= 0 or area.h <= 0:
            return
        k = texels / p.s  # texels a pixel
        # (the window must fit in the grain laid 3 x 3, whatever its phase)
        if k >= TEXTURE / WINDOWED or max(area.w, area.h) * k + 2 > 2 * TEXTURE:
            self._texture_tiled(p, kind, base, k, area)
        else:
            self._texture_window(p, kind, base, k, area)

    def _texture_tiled(
        self, p: Painter, kind: str, base: pygame.Surface, k: float, area: pygame.Rect
    ) -> None:
        """The grain scaled whole (small at this zoom) and laid edge to edge."""
        period = max(round(TEXTURE / k), 16)
        key = (kind, period)
        tex = self._scaled.get(key)
        if tex is None:
            tex = pygame.transform.smoothscale(base, (period, period))
            self._scaled[key] = tex
            if len(self._scaled) > 24:
                self._scaled.popitem(last=False)
        phase_x = round(p.ox) % period
        phase_y = round(p.oy) % period
        clip = p.surface.get_clip()
        p.surface.set_clip(area.clip(clip))
        x0 = area.x - ((area.x - phase_x) % period)
        y0 = area.y - ((area.y - phase_y) % period)
        for y in range(y0, area.bottom, period):
            for x in range(x0, area.right, period):
                p.surface.blit(tex, (x, y), special_flags=pygame.BLEND_RGB_MULT)
        p.surface.set_clip(clip)

    def _texture_window(
        self, p: Painter, kind: str, base: pygame.Surface, k: float, area: pygame.Rect
    ) -> None:
        """Close up: only the texels under ``area`` are scaled, from the grain laid 3 x 3."""
        big = self._scaled.get((kind, 0))
        if big is None:
            big = pygame.Surface((3 * TEXTURE, 3 * TEXTURE))
            for i in range(3):
                for j in range(3):
                    big.blit(base, (i * TEXTURE, j * TEXTURE))
            self._scaled[(kind, 0)] = big
        u0, v0 = math.floor((area.x - p.ox) * k), math.floor((area.y - p.oy) * k)
        u1, v1 = math.ceil((area.right - p.ox) * k) + 1, math.ceil((area.bottom - p.oy) * k) + 1
        w, h = min(u1 - u0, 2 * TEXTURE), min(v1 - v0, 2 * TEXTURE)
        window = big.subsurface((u0 % TEXTURE, v0 % TEXTURE, w, h))
        x0, y0 = round(p.ox + u0 / k), round(p.oy + v0 / k)
        x1, y1 = round(p.ox + (u0 + w) / k), round(p.oy + (v0 + h) / k)
        scaled = pygame.transform.smoothscale(window, (max(x1 - x0, 1), max(y1 - y0, 1)))
        clip = p.surface.get_clip()
        p.surface.set_clip(area.clip(clip))
        p.surface.blit(scaled, (x0, y0), special_flags=pygame.BLEND_RGB_MULT)
        p.surface.set_clip(clip)


@dataclass
class Still:
    """One view's last frame (its key) and its exact picture while it holds still."""

    last_key: tuple[object, ...] | None = None
    picture_key: tuple[object, ...] | None = None
    picture: pygame.Surface | None = None


class TileCache:
    """Painted tiles of the table at scales ``BASE · √2^k``, drawn scaled to the view.

    A frame uses the finest level at or above the view's scale whose tiles are all painted, and
    paints missing tiles of that level within a time budget; a view that stays still is painted
    exactly at its own scale once and then only blitted.
    """

    TILE = 256
    BASE = 1000.0
    STEP = math.sqrt(2.0)

    def __init__(self, art: TableArt, limit: int = 320, budget: float = 0.0015) -> None:
        self.art, self.limit, self.budget = art, limit, budget
        self.tiles: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        self.painted = 0  # tiles painted so far (for the benchmark and tests)

    def level(self, scale: float) -> int:
        return math.ceil(math.log(scale / self.BASE) / math.log(self.STEP) - 1e-9)

    def level_scale(self, k: int) -> float:
        return self.BASE * self.STEP**k

    def draw(
        self,
        target: pygame.Surface,
        rect: pygame.Rect,
        ox: float,
        oy: float,
        s: float,
        still: Still,
    ) -> None:
        """Draw the table into ``rect`` of ``target``; world (x, y) at (ox + x·s, oy − y·s).
        ``still`` is the calling view's memory of its last frame and of its exact picture."""
        key = (tuple(rect), ox, oy, s)
        if key == still.picture_key and still.picture is not None:
            target.blit(still.picture, rect)
            return
        if key == still.last_key:  # the view is at rest: paint it exactly, once
            picture = pygame.Surface(rect.size)
            self.art.paint(picture, ox - rect.x, oy - rect.y, s)
            still.picture, still.picture_key = picture, key
            target.blit(picture, rect)
            return
        still.last_key = key
        self._draw_tiles(target, rect, ox, oy, s)

    def _span(self, rect: pygame.Rect, ox: float, oy: float, s: float, k: int):
        """The view in level ``k`` pixels (x0, y0, x1, y1) and the tile index ranges it covers."""
        f = self.level_scale(k) / s
        x0, x1 = (rect.left - ox) * f, (rect.right - ox) * f
        y0, y1 = (rect.top - oy) * f, (rect.bottom - oy) * f
        t = self.TILE
        return (
            (x0, y0, x1, y1),
            range(math.floor(x0 / t), math.floor((x1 - 1e-9) / t) + 1),
            range(math.floor(y0 / t), math.floor((y1 - 1e-9) / t) + 1),
        )

    def _missing(self, rect, ox, oy, s, k):
        (x0, y0, x1, y1), cols, rows = self._span(rect, ox, oy, s, k)
        cx, cy = (x0 + x1) / 2 / self.TILE, (y0 + y1) / 2 / self.TILE
        out = [(k, i, j) for j in rows for i in cols if (k, i, j) not in self.tiles]
        out.sort(key=lambda t: (t[1] + 0.5 - cx) ** 2 + (t[2] + 0.5 - cy) ** 2)
        return out

    def _paint_tile(self, tile: tuple[int, int, int]) -> None:
        k, i, j = tile
        surf = pygame.Surface((self.TILE, self.TILE))
        self.art.paint(surf, -i * self.TILE, -j * self.TILE, self.level_scale(k))
        self.tiles[tile] = surf
        self.painted += 1
        while len(self.tiles) > self.limit:
            self.tiles.popitem(last=False)

    def _draw_tiles(
        self, target: pygame.Surface, rect: pygame.Rect, ox: float, oy: float, s: float
    ) -> None:
        k = self.level(s)
        _, cols, rows = self._span(rect, ox, oy, s, k)
        # room for the views of a few zoom levels, however large the window
        self.limit = max(self.limit, VIEWS_KEPT * len(cols) * len(rows))
        start = _clock()
        missing = self._missing(rect, ox, oy, s, k)
        for tile in missing:
            if _clock() - start > self.budget:
                break
            self._paint_tile(tile)
        use = None
        # while level k is painted, a complete level near it stands in: a finer one (zooming
        # out, shrunk) before a coarser one (zooming in, enlarged)
        for level in (k, k + 1, k - 1, k + 2, k - 2)[: 2 * FALLBACK + 1]:
            if not self._missing(rect, ox, oy, s, level):
                use = level
                break
        if use is None:  # nothing near is ready: paint a coarser level whole (a quarter the tiles)
            use = k - FALLBACK
            for tile in self._missing(rect, ox, oy, s, use):
                self._paint_tile(tile)
        # each tile scaled straight to where it lands: its edges are rounded the same way on
        # both sides, so neighbours meet without a seam
        _, cols, rows = self._span(rect, ox, oy, s, use)
        f = s / self.level_scale(use) * self.TILE
        xs = [round(ox + i * f) for i in range(cols.start, cols.stop + 1)]
        ys = [round(oy + j * f) for j in range(rows.start, rows.stop + 1)]
        clip = target.get_clip()
        view = rect.clip(clip)
        target.set_clip(view)
        for b, j in enumerate(rows):
            for a, i in enumerate(cols):
                tile = self.tiles[(use, i, j)]
                self.tiles.move_to_end((use, i, j))
                box = pygame.Rect(xs[a], ys[b], xs[a + 1] - xs[a], ys[b + 1] - ys[b])
                if box.w <= 0 or box.h <= 0:
                    continue
                # shrinking keeps pixels; enlarging (a coarser level standing in while the finer
                # one is painted) blends them
                scale = pygame.transform.scale if use >= k - 1 else pygame.transform.smoothscale
                if view.contains(box):
                    scale(tile, box.size, target.subsurface(box))
                else:
                    target.blit(scale(tile, box.size), box)
        target.set_clip(clip)


class PawnSprites:
    """Roller pawns seen from above, drawn once at ``DETAIL`` pixels of radius and kept scaled to
    each radius in use: a soft shadow, the base's rim, and a domed top with the pawn's number."""

    DETAIL = 48

    def __init__(self, font: Callable[[int, bool], pygame.font.Font]) -> None:
        self.font = font
        self._big: dict[tuple[str, str, bool], pygame.Surface] = {}
        self._small: OrderedDict[tuple[str, str, bool, int], pygame.Surface] = OrderedDict()

    def get(self, colour: str, number: str, radius: int, faded: bool = False) -> pygame.Surface:
        """The sprite for a pawn of ``radius`` pixels; its centre is the pawn's centre (the
        shadow reaches further down and right)."""
        key = (colour, number, faded, radius)
        image = self._small.get(key)
        if image is not None:
            self._small.move_to_end(key)
            return image
        big = self._big.get(key[:3])  # type: ignore[arg-type]
        if big is None:
            big = self._big[key[:3]] = self._draw(colour, number, faded)  # type: ignore[index]
        side = max(round(big.get_width() * radius / self.DETAIL), 2)
        image = pygame.transform.smoothscale(big, (side, side))
        self._small[key] = image
        if len(self._small) > 256:
            self._small.popitem(last=False)
        return image

    def prepare(self, colour: str, number: str) -> None:
        """Draw the pawn at its detail now, before a frame asks for it (each costs some 7 ms)."""
        if (colour, number, False) not in self._big:
            self._big[(colour, number, False)] = self._draw(colour, number, False)

    def _draw(self, colour: str, number: str, faded: bool) -> pygame.Surface:
        R = self.DETAIL
        half = round(R * 1.4)
        n = 2 * half
        ys, xs = np.mgrid[0:n, 0:n].astype(np.float32) + 0.5
        dx, dy = xs - half, ys - half
        d = np.hypot(dx, dy)
        ink = np.array(PAWN_INK.get(colour, (128, 128, 128)), np.float32)
        if faded:
            ink = ink * 0.45 + 140 * 0.55
        rgb = np.zeros((n, n, 3), np.float32)
        alpha = np.zeros((n, n), np.float32)
        # shadow: soft, offset down and to the right
        sd = np.hypot(dx - R * 0.16, dy - R * 0.24)
        shadow = np.clip((R * 1.12 - sd) / (R * 0.3), 0, 1) ** 1.5 * 0.55
        alpha = np.maximum(alpha, shadow)
        # the base: a flat disc with a rim, lit from the upper left
        base = np.clip(R - d + 0.5, 0, 1)
        light = np.clip(-(dx + dy) / (d + 1e-6) * 0.5 + 0.5, 0, 1)  # 1 toward the light
        rim = (d > R * 0.84).astype(np.float32)
        shade = 0.72 + 0.18 * light
        rim_rgb = ink[None, None, :] * (0.55 + 0.35 * light)[..., None]
        base_rgb = ink[None, None, :] * shade[..., None]
        body = rim[..., None] * rim_rgb + (1 - rim[..., None]) * base_rgb
        # the domed top: a sphere cap lit from the upper left, with a specular spot
        top_r = R * 0.66
        cap = np.clip(top_r - d + 0.5, 0, 1)
        z = np.sqrt(np.clip(1 - (d / top_r) ** 2, 0, 1))
        nx, ny = dx / top_r, dy / top_r
        lx, ly, lz = -0.45, -0.55, 0.70
        diffuse = np.clip(nx * lx + ny * ly + z * lz, 0, 1)
        spec = np.clip(nx * lx + ny * ly + z * lz, 0, 1) ** 24
        top_rgb = (
            ink[None, None, :] * (0.55 + 0.6 * diffuse)[..., None] + 255 * 0.55 * spec[..., None]
        )
        ring = np.clip(1 - np.abs(d - top_r) / 1.6, 0, 1)[..., None]  # the top's edge
        top_rgb = top_rgb * (1 - 0.35 * ring)
        col = body * (1 - cap[..., None]) + top_rgb * cap[..., None]
        rgb = col * base[..., None]
        alpha = base + (1 - base) * alpha
        rgb = np.where(alpha[..., None] > 0, rgb / np.maximum(alpha[..., None], 1e-6), 0)
        surf = pygame.Surface((n, n), pygame.SRCALPHA)
        pixels3d(surf)[...] = np.clip(rgb, 0, 255).astype(np.uint8).transpose(1, 0, 2)
        pixels_alpha(surf)[...] = np.clip(alpha * 255, 0, 255).astype(np.uint8).T
        if number:
            dark = colour == "yellow" and not faded
            label = self.font(round(R * 0.95), True).render(
                number, True, (20, 20, 20) if dark else (255, 255, 255)
            )
            if not dark:
                halo = self.font(round(R * 0.95), True).render(number, True, (0, 0, 0))
                halo.set_alpha(110)
                surf.blit(halo, halo.get_rect(center=(half + 2, half + 3)))
            surf.blit(label, label.get_rect(center=(half, half + 1)))
        return surf


# the tile budget counts this thread's processor time, so a busy machine does not starve the
# tiles, where that clock is fine-grained; else the wall clock
_clock = (
    time.thread_time if time.get_clock_info("thread_time").resolution <= 1e-4 else time.perf_counter
)


def _edge_seen(surface: pygame.Surface, c: tuple[float, float], r: float, pad: float) -> bool:
    """Whether the circle of radius ``r`` about ``c`` (pixels) crosses the surface, ``pad``
    pixels either side of its line."""
    w, h = surface.get_size()
    x, y = c
    near = math.hypot(max(-x, 0.0, x - w), max(-y, 0.0, y - h))
    far = max(math.hypot(x - cx, y - cy) for cx in (0, w) for cy in (0, h))
    return near <= r + pad and far >= r - pad


def _inside(surface: pygame.Surface, c: tuple[float, float], r: float) -> bool:
    """Whether the whole surface lies inside the circle."""
    w, h = surface.get_size()
    return max(math.hypot(c[0] - cx, c[1] - cy) for cx in (0, w) for cy in (0, h)) <= r


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@functools.cache
def _grains() -> tuple[pygame.Surface, pygame.Surface]:
    """The wood's and the card's grain (only read): made once a process, not once a layout (each
    costs a window's frame some 15 ms of processor time)."""
    wood = _strengthen(_noise_texture(seed=11, stretch=(1.0, 9.0)), 0.16)
    card = _strengthen(_noise_texture(seed=23, stretch=(1.0, 1.0)), 0.07)
    return wood, card


def _noise_texture(seed: int, stretch: tuple[float, float]) -> pygame.Surface:
    """A tiling grey grain (values 0..255) of ``TEXTURE`` texels a side: white noise filtered in
    frequency space (so it wraps seamlessly), stretched along x by ``stretch``."""
    rng = np.random.default_rng(seed)
    white = rng.standard_normal((TEXTURE, TEXTURE))
    fy = np.fft.fftfreq(TEXTURE)[:, None] * stretch[0]
    fx = np.fft.fftfreq(TEXTURE)[None, :] * stretch[1]
    f = np.hypot(fx, fy)
    spectrum = (
        np.fft.fft2(white) * np.exp(-((f / 0.08) ** 2)) * (1 + 0.5 * np.exp(-((f / 0.02) ** 2)))
    )
    grain = np.real(np.fft.ifft2(spectrum))
    grain = (grain - grain.min()) / (grain.max() - grain.min() + 1e-12)
    grey = (grain * 255).astype(np.uint8)
    surf = pygame.Surface((TEXTURE, TEXTURE))
    pixels3d(surf)[...] = grey.T[..., None]
    return surf


def _strengthen(tex: pygame.Surface, strength: float) -> pygame.Surface:
    """Map a grey grain to multipliers between 1 − strength (dark texels) and 1 (white)."""
    out = tex.copy()
    a = pixels3d(out)
    a[...] = (255 * (1 - strength) + a.astype(np.float32) * strength).astype(np.uint8)
    del a
    return out

"""Drawing with pygame: the table fitted to a rectangle of the window, pawns, score boards, text
and buttons. Colours follow :mod:`sliders.pictures.table`; geometry comes from the board data.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pygame

from sliders.boards import Face, Layout, drawing
from sliders.core.outcome import SEAT_COLOURS, PawnRest, pawn_seat
from sliders.game import HomeChoice
from sliders.rules import HOME, GameState, PlayerState
from sliders.scenes import art
from sliders.scenes.assets import asset

BACKGROUND = (44, 44, 48)
TEXT = (235, 235, 235)
DIM = (182, 182, 182)
"""secondary text: at least ``MIN_CONTRAST`` on the background, the panels and the cells"""
PANEL = (58, 58, 64)
CELL = (68, 68, 76)
"""a square of the score board between START and HOME"""
HIGHLIGHT = (255, 214, 10)

FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# ``size`` in :func:`font` is in the units of pygame's built-in font (which draws a size-24 line
# 16 px high); the shipped font is drawn at this fraction of it, so a size looks as large as before
SIZE_TO_PX = 0.66

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The game's font (DejaVu Sans, shipped in ``assets/fonts``) at ``size``."""
    return font_px(round(max(size, 8) * SIZE_TO_PX), bold)


def font_px(pixels: int, bold: bool = False) -> pygame.font.Font:
    """The game's font with an em of ``pixels`` (its digits are about 0.73 of that high)."""
    key = (max(pixels, 5), bold)
    found = _fonts.get(key)
    if found is None:
        found = _fonts[key] = pygame.font.Font(_font_file(bold), key[0])
        if len(_fonts) > 96:  # sizes come and go with the camera's zoom
            del _fonts[next(iter(_fonts))]
    return found


@functools.cache
def _font_file(bold: bool) -> str:
    return str(asset("fonts", FONT_FILES[bold]))


def forget_fonts() -> None:
    """Drop the cached fonts (they die with the font module) and what was drawn with them."""
    _fonts.clear()
    _words.clear()
    _panels.clear()
    _ARTS.clear()
    _SPRITES.clear()
    _GENERATION[0] += 1


UI_REFERENCE = (1280, 800)
"""the window size at which interface text is drawn at the sizes the screens ask for"""
UI_SCALE = (0.8, 1.6)
"""the least and most interface text is scaled by with the window"""
MIN_UI_SIZE = 19
"""the least interface text size (in :func:`font` units: 12.5 pixels)"""


def ui_scale(surface: pygame.Surface) -> float:
    """How much larger than at ``UI_REFERENCE`` interface text is drawn in ``surface``."""
    w, h = surface.get_size()
    k = min(w / UI_REFERENCE[0], h / UI_REFERENCE[1])
    return min(max(k, UI_SCALE[0]), UI_SCALE[1])


def ui_size(surface: pygame.Surface, size: int) -> int:
    """The text size (:func:`font` units) to draw interface text meant as ``size`` at
    ``UI_REFERENCE``: scaled with the window, never under ``MIN_UI_SIZE``."""
    return max(round(size * ui_scale(surface)), MIN_UI_SIZE)


MIN_CONTRAST = 4.5
"""the least contrast ratio (WCAG) of interface text on the screens' backgrounds"""


def luminance(rgb: Sequence[int]) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """The contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@functools.cache
def legible(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """``rgb`` lightened (mixed with white) just enough to read on the screens' backgrounds and
    panels with at least ``MIN_CONTRAST``."""
    out = rgb
    for k in range(21):
        out = tuple(round(v + (255 - v) * k / 20) for v in rgb)  # type: ignore[assignment]
        if min(contrast(out, BACKGROUND), contrast(out, PANEL)) >= MIN_CONTRAST:
            break
    return out


def seat_rgb(seat: str) -> tuple[int, int, int]:
    """A seat's colour as the window's text and marks draw it: the player colour, lightened
    where it would not read on the dark screens (blue)."""
    return legible(drawing.seat_rgb(seat))


def text(
    surface: pygame.Surface,
    words: str,
    pos: tuple[float, float],
    size: int = 24,
    rgb: tuple[int, int, int] = TEXT,
    anchor: str = "topleft",
    bold: bool = False,
) -> pygame.Rect:
    image = rendered(words, size, rgb, bold)
    rect = image.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    surface.blit(image, rect)
    return rect


_words: OrderedDict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = OrderedDict()


def rendered(
    words: str, size: int = 24, rgb: tuple[int, int, int] = TEXT, bold: bool = False
) -> pygame.Surface:
    """``words`` drawn in the game's font; the last few hundred are kept, since a screen draws
    the same words every frame."""
    key = (words, size, tuple(rgb), bold)
    image = _words.get(key)
    if image is None:
        image = _words[key] = font(size, bold).render(words, True, rgb)
        if len(_words) > 512:
            _words.popitem(last=False)
    else:
        _words.move_to_end(key)
    return image


def clipped(words: str, size: int, width: int) -> str:
    """``words`` shortened with an ellipsis to fit ``width`` pixels at font ``size``."""
    f = font(size)
    if f.size(words)[0] <= width:
        return words
    while words and f.size(words + "...")[0] > width:
        words = words[:-1]
    return words + "..."


def line_step(size: int) -> int:
    """The pitch (px) of lines of text at ``size`` drawn by :func:`text_lines`."""
    return size + 1


def banner_bottom(surface: pygame.Surface) -> int:
    """Where the screens' content starts below the title line at the top of the window."""
    return min(12 + font(ui_size(surface, 30), True).get_linesize() + 8, 50)


def text_lines(
    surface: pygame.Surface,
    lines: Sequence[str],
    x: int,
    y: int,
    width: int,
    bottom: int,
    rgb: tuple[int, int, int] = TEXT,
    size: int = 19,
) -> int:
    """Draw ``lines`` one under another from (x, y), each clipped to ``width`` pixels, stopping
    before ``bottom``; returns the y below the last line drawn."""
    step = line_step(size)
    for line in lines:
        if y > bottom:
            break
        text(surface, clipped(line, size, width), (x, y), size, rgb)
        y += step
    return y


@dataclass
class Button:
    """A clickable labelled rectangle; ``action`` runs when the left button is released over it
    *and* the press began over it while it was listened to. So one click is one button: a
    button that appears (or becomes active) under the pointer between the press and the
    release does not fire, and a press that began on an earlier screen does nothing on the next
    one (its buttons never saw it)."""

    label: str
    action: Callable[[], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    pressed: bool = False
    """the left button went down on this button and has not come up yet"""

    def handle(self, event: pygame.event.Event) -> bool:
        """Take one event; True when it clicked this button (its action has run)."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.pressed = self.enabled and self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            fire = self.pressed and self.enabled and self.rect.collidepoint(event.pos)
            self.pressed = False
            if fire:
                self.action()
            return fire
        return False

    def forget(self) -> None:
        """Drop a press in progress (the button is no longer listened to)."""
        self.pressed = False

    def hovered(self) -> bool:
        """Whether the pointer is over the button (it is drawn lit then)."""
        return self.enabled and self.rect.collidepoint(pygame.mouse.get_pos())

    def draw(self, surface: pygame.Surface, size: int = 26) -> None:
        hover = self.hovered()
        _shown.append((self, hover))
        fill = (92, 94, 112) if hover else (70, 72, 86)
        r = self.rect
        pygame.draw.rect(surface, (24, 24, 28), r.move(0, 3), border_radius=8)  # its shadow
        pygame.draw.rect(surface, fill, r, border_radius=8)
        top = pygame.Rect(r.x + 2, r.y + 2, r.w - 4, max(r.h // 2 - 2, 1))
        pygame.draw.rect(surface, tuple(min(v + 14, 255) for v in fill), top, border_radius=6)
        edge = HIGHLIGHT if hover else (136, 138, 152)
        pygame.draw.rect(surface, edge, r, 1, border_radius=8)
        text(surface, self.label, r.center, size, TEXT if self.enabled else DIM, "center")


_shown: list[tuple[Button, bool]] = []
"""the buttons drawn since :func:`buttons_begin`, each with whether it was drawn lit"""


def buttons_begin() -> list[tuple[Button, bool]]:
    """Start recording the buttons a frame draws; returns the record of the frame before."""
    shown = _shown[:]
    _shown.clear()
    return shown


def buttons_keep(before: Sequence[tuple[Button, bool]]) -> None:
    """A frame that drew only part of the window: the buttons of the frame before stay shown."""
    _shown[:0] = before


def hover_changed() -> bool:
    """Whether a button on show would now be drawn otherwise: the pointer went onto or off it
    (so a frame with pointer motion alone is drawn only then)."""
    return any(button.hovered() != lit for button, lit in _shown)


MAX_SCALE = 20000.0
"""pixels a metre: the closest view drawn (a pawn 500 px across); closer asks are drawn at this"""


class TableView:
    """The layout and face drawn into a rectangle of the window.

    World +y is up on screen. :meth:`fit` shows the whole table in a rectangle (the overview);
    :meth:`look_at` shows any part of it: a world centre in metres at a scale in pixels per metre.
    ``rect`` is the screen rectangle drawn into, ``scale`` its pixels per metre and ``centre`` the
    world point drawn at the middle of ``rect``.
    """

    def __init__(self, layout: Layout, face: Face, pawn_radius: float) -> None:
        self.layout, self.face, self.r = layout, face, pawn_radius
        xs = [v for rc in layout.surface for v in (rc.xmin, rc.xmax)]
        ys = [v for rc in layout.surface for v in (rc.ymin, rc.ymax)]
        xs += [v for rail in layout.rails for v in (rail.a[0], rail.b[0])]
        ys += [v for rail in layout.rails for v in (rail.a[1], rail.b[1])]
        pad = 0.02
        self.bounds = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.scale = 1.0
        self.centre = ((self.bounds[0] + self.bounds[2]) / 2, (self.bounds[1] + self.bounds[3]) / 2)
        self._ox = self._oy = 0.0
        self._placed: list[pygame.Rect] = []  # pawns and labels drawn this frame
        self._still = art.Still()  # the exact picture of this view while it holds still
        self._tiles: tuple[int, art.TileCache] | None = None

    def fit(self, rect: pygame.Rect) -> None:
        """Show the whole table, as large as fits in ``rect``, centred."""
        x0, y0, x1, y1 = self.bounds
        scale = min(rect.width / (x1 - x0), rect.height / (y1 - y0))
        self.look_at(((x0 + x1) / 2, (y0 + y1) / 2), scale, rect)

    def fit_scale(self, rect: pygame.Rect) -> float:
        """The scale at which :meth:`fit` shows the whole table in ``rect``."""
        x0, y0, x1, y1 = self.bounds
        return min(rect.width / (x1 - x0), rect.height / (y1 - y0))

    def look_at(self, centre: tuple[float, float], scale: float, rect: pygame.Rect) -> None:
        """Draw the world point ``centre`` (metres) at the middle of ``rect`` (screen pixels), at
        ``scale`` pixels per metre."""
        if not scale > 0 or not math.isfinite(scale):
            raise ValueError(f"the view's scale must be a positive number, not {scale}")
        self.rect = pygame.Rect(rect)
        self.scale = min(float(scale), MAX_SCALE)
        self.centre = (float(centre[0]), float(centre[1]))
        self._ox = self.rect.x + self.rect.width / 2 - self.centre[0] * self.scale
        self._oy = self.rect.y + self.rect.height / 2 + self.centre[1] * self.scale

    def visible(self) -> tuple[float, float, float, float]:
        """The world rectangle (xmin, ymin, xmax, ymax) that ``rect`` shows."""
        x0, y1 = self.to_world(self.rect.left, self.rect.top)
        x1, y0 = self.to_world(self.rect.right, self.rect.bottom)
        return x0, y0, x1, y1

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        return round(self._ox + x * self.scale), round(self._oy - y * self.scale)

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        return (px - self._ox) / self.scale, (self._oy - py) / self.scale

    def px(self, metres: float) -> int:
        return max(round(metres * self.scale), 1)

    def draw_static(self, surface: pygame.Surface) -> None:
        """The table without pawns, filling ``rect``; starts a new frame's label placement."""
        self._placed = []
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        if self._tiles is None or self._tiles[0] != _GENERATION[0]:
            self._tiles = (_GENERATION[0], _art(self.layout, self.face)[1])
        tiles = self._tiles[1]
        tiles.draw(surface, self.rect, self._ox, self._oy, self.scale, self._still)

    def draw_pawn(
        self,
        surface: pygame.Surface,
        pid: str,
        x: float,
        y: float,
        faded: bool = False,
        ring: tuple[int, int, int] | None = None,
    ) -> pygame.Rect:
        """A roller pawn at world (x, y): its shadow, rim and domed top with its number;
        ``ring`` circles it (the held pawn), ``faded`` pales it. Returns the rectangle drawn
        over (empty when the pawn is out of view)."""
        centre = self.to_screen(x, y)
        radius = self.px(self.r)
        if not self.rect.inflate(4 * radius + 8, 4 * radius + 8).collidepoint(centre):
            return pygame.Rect(centre, (0, 0))
        colour = SEAT_COLOURS.get(pawn_seat(pid), "")
        sprite = _sprites().get(colour, pid.rsplit("-", 1)[-1], radius, faded)
        half = sprite.get_width() // 2
        spot = pygame.Rect(centre[0] - half, centre[1] - half, 2 * half + 1, 2 * half + 1)
        clip = surface.get_clip()
        inside = ring is None and self.rect.contains(spot) and clip.contains(spot)
        if not inside:
            surface.set_clip(self.rect.clip(clip))
        drawn = surface.blit(sprite, spot.topleft)
        if ring is not None:  # the held pawn: a ring, edged dark to show on any colour
            drawn.union_ip(pygame.draw.circle(surface, (20, 22, 28), centre, radius + 6, 7))
            pygame.draw.circle(surface, ring, centre, radius + 5, 3)
        if not inside:
            surface.set_clip(clip)
        self._placed.append(
            pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius)
        )
        return drawn

    def tag(
        self,
        surface: pygame.Surface,
        words: str,
        x: float,
        y: float,
        size: int = 20,
        rgb: tuple[int, int, int] = TEXT,
    ) -> pygame.Rect:
        """A small label with a dark backing beside the pawn at (x, y), placed where it covers
        neither another label of this frame nor a pawn when one of its places allows."""
        px, py = self.to_screen(x, y)
        radius = self.px(self.r)
        if not self.rect.collidepoint(px, py):  # its pawn is out of view: so is the label
            return pygame.Rect(px, py, 0, 0)
        # at least as large as asked, larger with the pawns when the view is close
        pixels = min(max(round(size * SIZE_TO_PX), round(radius * 0.85), 14), 28)
        image = font_px(pixels, True).render(words, True, rgb)
        rect = place_label(image.get_size(), (px, py), radius + 2, self._placed, self.rect)
        self._placed.append(rect.inflate(8, 4))
        clip = surface.get_clip()
        surface.set_clip(self.rect.clip(clip))
        backing = rect.inflate(8, 2)
        pygame.draw.rect(surface, (22, 24, 30), backing, border_radius=backing.h // 2)
        pygame.draw.rect(surface, (120, 124, 136), backing, 1, border_radius=backing.h // 2)
        surface.blit(image, rect)
        surface.set_clip(clip)
        return rect


def place_label(
    size: tuple[int, int],
    anchor: tuple[int, int],
    off: int,
    taken: Sequence[pygame.Rect],
    bounds: pygame.Rect | None = None,
) -> pygame.Rect:
    """Where a label of ``size`` goes beside a point ``anchor`` (a pawn's centre, ``off`` pixels
    its radius): the first of eight places around the point, then farther rings of them, that
    overlaps none of the ``taken`` rectangles (backing included) and stays inside ``bounds``;
    the least-covering place if none is free."""
    w, h = size
    ax, ay = anchor
    best, cover = None, None
    for reach in (off, off + h + 2, off + 2 * h + 4, off + 3 * h + 6):
        d = round(reach * 0.72)
        spots = (
            (ax + d, ay - d - h),  # upper right
            (ax - d - w, ay - d - h),  # upper left
            (ax + d, ay + d),  # lower right
            (ax - d - w, ay + d),  # lower left
            (ax - w // 2, ay - reach - h),  # above
            (ax - w // 2, ay + reach),  # below
            (ax + reach, ay - h // 2),  # right
            (ax - reach - w, ay - h // 2),  # left
        )
        for sx, sy in spots:
            rect = pygame.Rect(sx, sy, w, h)
            if bounds is not None and not bounds.contains(rect):
                continue
            backing = rect.inflate(8, 4)
            n = sum(_overlap(backing, t) for t in taken)
            if n == 0:
                return rect
            if cover is None or n < cover:
                best, cover = rect, n
    return best if best is not None else pygame.Rect(ax + off, ay - off - h, w, h)


def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    c = a.clip(b)
    return c.w * c.h


_ARTS: dict[tuple[Layout, Face], tuple[art.TableArt, art.TileCache]] = {}
_GENERATION = [0]  # counts the times the painters were dropped (see forget_fonts)
_SPRITES: list[art.PawnSprites] = []


def _art(layout: Layout, face: Face) -> tuple[art.TableArt, art.TileCache]:
    """The painter and tile cache of a table, shared by every view of it (the play, round-end
    and replay screens of one game reuse each other's tiles); the last four tables are kept."""
    key = (layout, face)
    found = _ARTS.pop(key, None)
    if found is None:
        painter = art.TableArt(layout, face, font_px)
        found = (painter, art.TileCache(painter))
    _ARTS[key] = found
    while len(_ARTS) > 4:
        del _ARTS[next(iter(_ARTS))]
    return found


def _sprites() -> art.PawnSprites:
    if not _SPRITES:
        _SPRITES.append(art.PawnSprites(font_px))
    return _SPRITES[0]


def prepare_pawns(seats: Iterable[str]) -> None:
    """Draw the roller pawns of ``seats`` before a screen shows them (the window asks for it in
    the background from the setup screen on: the first frame of a game drew them, some 7 ms
    of processor time each)."""
    sprites = _sprites()
    for seat in seats:
        for number in range(1, 5):
            sprites.prepare(SEAT_COLOURS.get(seat, ""), str(number))


def points_label(p: PawnRest) -> str:
    """What a pawn scores as shown beside it (:func:`sliders.boards.drawing.points_label`)."""
    return drawing.points_label(p)


def draw_score_board(
    surface: pygame.Surface,
    rect: pygame.Rect,
    player: PlayerState,
    who: str,
    active: bool,
    board: Sequence[float] | None = None,
    on_table: Iterable[str] = (),
    pick: HomeChoice | None = None,
) -> None:
    """One player's panel: name, the score board START..HOME with the four scoring pawns (at
    ``board`` squares, which may be fractional while they move), and the roller pawns left.

    With ``pick`` (an Instant Home choice of this player) the scoring pawns are drawn larger and
    numbered, the ones that may go HOME ringed and the suggested one highlighted. A panel drawn
    the same as in an earlier frame is kept and blitted."""
    squares = tuple(board if board is not None else player.board)
    table = tuple(sorted(set(on_table)))
    key = (rect.size, player.seat, tuple(player.in_hand), squares, who, active, table, repr(pick))
    image = _panels.get(key)
    if image is None:
        # opaque, on the screens' background (its rounded corners show it): a plain copy a frame
        image = pygame.Surface(rect.size)
        image.fill(BACKGROUND)
        local = pygame.Rect(0, 0, rect.width, rect.height)
        _draw_score_board(image, local, player, who, active, squares, table, pick)
        _panels[key] = image
        if len(_panels) > 64:
            _panels.popitem(last=False)
    else:
        _panels.move_to_end(key)
    surface.blit(image, rect)


_panels: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()


def _draw_score_board(
    surface: pygame.Surface,
    rect: pygame.Rect,
    player: PlayerState,
    who: str,
    active: bool,
    squares: Sequence[float],
    on_table: Iterable[str],
    pick: HomeChoice | None,
) -> None:
    pygame.draw.rect(surface, PANEL, rect, border_radius=8)
    k = board_scale(rect.width)
    compact = is_compact(rect)
    small = max(round(MIN_UI_SIZE * k), MIN_UI_SIZE)
    ink = seat_rgb(player.seat)
    pygame.draw.rect(
        surface, HIGHLIGHT if active else ink, rect, 3 if active else 1, border_radius=8
    )
    colour = SEAT_COLOURS[player.seat].capitalize()
    big, kind = round((22 if compact else 26) * k), round((19 if compact else 20) * k)
    top, cw, ch = board_cells(rect)
    table = set(on_table)
    if compact:  # one row: the name, the roller pawns beside it, the player's kind at the right
        named = text(surface, colour, (rect.x + 10, rect.y + round(3 * k)), big, ink, bold=True)
        x = _roller_pawns(surface, player, table, named.right + 8, named.centery, k, ink, False)
    else:
        name = f"{colour} ({player.seat})"  # without its seat when both do not fit whole
        if font(big, True).size(name)[0] + 12 + font(kind).size(who)[0] > rect.width - 20:
            name = colour
        named = text(surface, name, (rect.x + 10, rect.y + round(6 * k)), big, ink, bold=True)
        x = named.right
    room = rect.right - 10 - x - 10  # the player's kind, beside the name, never over it
    if room > 24:
        at = (rect.right - 10, named.centery)
        text(surface, clipped(who, kind, room), at, kind, DIM, "midright")
    for i in range(HOME + 1):
        cell = pygame.Rect(round(rect.x + 10 + i * cw), top, round(cw) - 2, ch)
        fill = CELL if 0 < i < HOME else end_cell(player.seat)
        pygame.draw.rect(surface, fill, cell, border_radius=4)
        if not 0 < i < HOME:
            pygame.draw.rect(surface, ink, cell, 1, border_radius=4)
        label = {0: "START", HOME: "HOME"}.get(i, str(i))
        if font(SCORE_DIGITS, True).size(label)[0] > cell.w - 2:
            label = label[0]  # S, H: a narrow board
        text(surface, label, (cell.centerx, cell.bottom + 1), SCORE_DIGITS, DIM, "midbottom", True)
    spots = scoring_spots(rect, squares, pick is not None)
    for i, (cx, cy, dot) in enumerate(spots):
        if pick is not None and i == pick.default:
            pygame.draw.circle(surface, HIGHLIGHT, (cx, cy), dot + 4)
        pygame.draw.circle(surface, ink, (cx, cy), dot)
        edge = (255, 255, 255) if pick is not None and i in pick.options else (0, 0, 0)
        pygame.draw.circle(surface, edge, (cx, cy), dot, 1 if pick is None else 2)
        if pick is not None:
            label_rgb = (0, 0, 0) if SEAT_COLOURS[player.seat] == "yellow" else (255, 255, 255)
            text(surface, str(i + 1), (cx, cy + 1), 2 * dot + 2, label_rgb, "center", True)
    if not compact:
        y = top + ch + round(16 * k)
        heading = text(surface, "pawns:", (rect.x + 10, y), small, DIM, "midleft")
        x = _roller_pawns(surface, player, table, heading.right + 10, y, k, ink, True)
        text(surface, f"{len(player.in_hand)} left", (x + 12, y), small, DIM, "midleft")


def _roller_pawns(
    surface: pygame.Surface,
    player: PlayerState,
    table: set[str],
    x: int,
    y: int,
    k: float,
    ink: tuple[int, int, int],
    large: bool,
) -> int:
    """The four roller pawns in a row from ``x``: filled in hand, a ring on the table, a cross
    when removed; the x right of the last."""
    r = round((8 if large else 5) * k)
    d, pitch = round(r * 0.75), round((24 if large else 12) * k)
    c = (x, y)
    for n in range(1, 5):
        pid = f"{player.seat}-{n}"
        c = (x + r + (n - 1) * pitch, y)
        if pid in player.in_hand:
            pygame.draw.circle(surface, ink, c, r)
            pygame.draw.circle(surface, (0, 0, 0), c, r, 1)
        elif pid in table:
            pygame.draw.circle(surface, ink, c, r, 2)
        else:
            pygame.draw.line(surface, DIM, (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 2)
            pygame.draw.line(surface, DIM, (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), 2)
    return c[0] + r


def end_cell(seat: str) -> tuple[int, int, int]:
    """The fill of a seat's START and HOME squares: its colour, dark enough that the squares'
    labels read on it with ``MIN_CONTRAST``."""
    ink = seat_rgb(seat)
    for k in range(30, -1, -1):
        fill = tuple(round(PANEL[i] + (ink[i] - PANEL[i]) * k / 100) for i in range(3))
        if contrast(DIM, fill) >= MIN_CONTRAST:
            return fill  # type: ignore[return-value]
    return PANEL


BOARD_WIDTH = 420
"""the score board's width (px) at which it is drawn at the sizes it names; wider, it grows"""
SCORE_DIGITS = 26
"""the size (:func:`font` units, bold) of the score board's square labels: digits 12 px tall"""
PANEL_FULL = 118
"""a score board's height (px, at ``BOARD_WIDTH``) when there is room"""
PANEL_LEAST = 104
"""the least height of a score board drawn in full (name, squares, roller pawns in three rows);
below it a board is drawn compact, in two rows"""
PANEL_COMPACT = 62
"""a compact score board's height (px, at ``BOARD_WIDTH``)"""
PANEL_GAP = 6


def board_scale(width: int) -> float:
    """How much larger than at ``BOARD_WIDTH`` a score board ``width`` px wide is drawn (never
    smaller: its text stays at least ``MIN_UI_SIZE``)."""
    return max(width / BOARD_WIDTH, 1.0)


def is_compact(rect: pygame.Rect) -> bool:
    """Whether a score board drawn in ``rect`` is drawn compact (see ``PANEL_LEAST``)."""
    return rect.height < round(PANEL_LEAST * board_scale(rect.width))


def board_cells(rect: pygame.Rect) -> tuple[int, float, int]:
    """(top, width, height) of the squares START..HOME of the score board drawn in ``rect``."""
    k = board_scale(rect.width)
    cw = (rect.width - 20) / (HOME + 1)
    if is_compact(rect):
        return rect.y + round(24 * k), cw, round(34 * k)
    return rect.y + round(32 * k), cw, round(47 * k)


def scoring_spots(
    rect: pygame.Rect, squares: Sequence[float], large: bool = False
) -> list[tuple[int, int, int]]:
    """(x, y, radius) on screen of each scoring pawn on the score board drawn in ``rect``:
    up to four in a cell, in a 2 x 2 grid above the cell's label (``large`` while picking); in
    one row on a compact board."""
    k = board_scale(rect.width)
    top, cw, _ = board_cells(rect)
    row = is_compact(rect) and not large
    dot = max(min(int(cw / 6), round(6 * k)), 3)
    if row:
        dot = max(min(int(cw / 9), round(4 * k)), 2)
    elif large:
        dot = max(min(int(cw / 5), round(11 * k)), 5)
    stack: dict[int, int] = {}
    out = []
    for sq in squares:
        n = stack.get(round(sq), 0)
        stack[round(sq)] = n + 1
        if row:
            cx = rect.x + 10 + sq * cw + cw / 2 - 1 + (n - 1.5) * (2 * dot + 1)
            cy = top + dot + 3
        else:
            cx = rect.x + 10 + sq * cw + cw / 2 - 1 + (-1 if n % 2 == 0 else 1) * (dot + 1)
            cy = top + dot + 3 + (n // 2) * (2 * dot + 2)
        out.append((round(cx), round(cy), dot))
    return out


def sidebar_panels(
    rect: pygame.Rect, seats: Sequence[str], below: int = 0
) -> dict[str, pygame.Rect]:
    """Where :func:`draw_sidebar` draws each seat's score board in ``rect``, leaving at least
    ``below`` pixels under the last (room for the message log): in full while they fit, else
    compact."""
    n = max(len(seats), 1)
    k = board_scale(rect.width)
    room = (rect.height - below - PANEL_GAP * (n - 1)) // n
    h = min(round(PANEL_FULL * k), room)
    if h < round(PANEL_LEAST * k):
        h = min(round(PANEL_COMPACT * k), max(room, 1))
    return {
        seat: pygame.Rect(rect.x, rect.y + i * (h + PANEL_GAP), rect.width, h)
        for i, seat in enumerate(seats)
    }


def draw_sidebar(
    surface: pygame.Surface,
    rect: pygame.Rect,
    state: GameState,
    who: dict[str, str],
    active: str | None,
    boards: Mapping[str, Sequence[float]] | None = None,
    pick: HomeChoice | None = None,
    below: int = 0,
) -> int:
    """Every player's score board stacked in ``rect``, in turn order; the y below the last.
    ``pick`` shows an Instant Home choice on its player's board; ``below``: see
    :func:`sidebar_panels`."""
    table = [p.id for p in state.table]
    y = rect.y
    for seat, panel in sidebar_panels(rect, state.seats, below).items():
        board = boards.get(seat) if boards else None
        mine = pick if pick is not None and pick.seat == seat else None
        draw_score_board(
            surface,
            panel,
            state.player(seat),
            who.get(seat, ""),
            seat == active,
            board,
            table,
            mine,
        )
        y = panel.bottom + PANEL_GAP
    return y

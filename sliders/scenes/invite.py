"""The host's window inviting phones: ``sliders host --seats south=human,north=remote`` plays
south at its own window, and the window's Invite (I, or the *Invite* button) shows each remote
seat nobody has taken yet with its web page's link as a QR code, so a player joins by pointing a
phone's camera at the window. It is drawn over the sidebar (the score boards and the message
log), never over the table, so the person at the window can keep aiming while the others
scan; a seat leaves the list as its player joins. I again closes it."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import pygame

from sliders.core.outcome import SEAT_COLOURS
from sliders.net.web import qr_modules
from sliders.scenes import draw

QUIET = 4
"""modules of light border around a QR code (the standard's quiet zone, which scanners need)"""
MIN_MODULE = 3
"""pixels: the smallest module drawn (a phone's camera reads a code on a screen from about an
arm's length at that)"""
DARK = (17, 17, 17)
LIGHT = (255, 255, 255)
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Drawn:
    """A QR code as drawn: its seat, its link, the square it fills (the quiet zone included)
    and the pixels a module."""

    seat: str
    link: str
    rect: pygame.Rect
    module: int


@functools.lru_cache(maxsize=16)
def qr_surface(link: str, module: int) -> pygame.Surface:
    """``link``'s QR code, ``module`` pixels a module, dark on light, its quiet zone around it."""
    rows = qr_modules(link)
    side = (len(rows) + 2 * QUIET) * module
    out = pygame.Surface((side, side))
    out.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                out.fill(DARK, ((x + QUIET) * module, (y + QUIET) * module, module, module))
    return out


def _grid(count: int, modules: int, width: int, height: int, label: int) -> tuple[int, int]:
    """(columns, module px) that draw ``count`` codes of ``modules`` a side (quiet zone
    included) largest in ``width`` × ``height``, each with a ``label`` px line above it."""
    best = (1, 0)
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        cell_w = (width - 8 * (columns - 1)) // columns
        cell_h = (height - rows * (label + 8)) // rows
        module = min(cell_w, cell_h) // modules
        if module > best[1]:
            best = (columns, module)
    return best


def draw_invites(
    surface: pygame.Surface, rect: pygame.Rect, invites: Sequence[tuple[str, str]]
) -> list[Drawn]:
    """The Invite panel filling ``rect``: a title, each (seat, link) of ``invites`` as its
    colour's name and its QR code (as many as fit with modules of at least MIN_MODULE px, the
    rest said to be in the terminal), and how to close it. Returns the codes as drawn."""
    pygame.draw.rect(surface, draw.PANEL, rect, border_radius=8)
    pygame.draw.rect(surface, draw.HIGHLIGHT, rect, 1, border_radius=8)
    size, small = draw.ui_size(surface, 22), draw.ui_size(surface, 18)
    x, y, width = rect.x + 10, rect.y + 8, rect.w - 20
    title = "Invite: scan with a phone's camera" if invites else "Invite"
    head = draw.clipped(title, size, width)
    y = draw.text(surface, head, (x, y), size, draw.HIGHLIGHT, bold=True).bottom + 6
    foot: list[str] = ["I: close"]
    if not invites:
        words = "Every seat is taken: nobody is left to invite."
        draw.text(surface, draw.clipped(words, small, width), (x, y), small, draw.TEXT)
    elif urlsplit(invites[0][1]).hostname in LOOPBACK:
        foot.insert(0, "Only this machine can open these: host with --public for phones.")
    bottom = rect.bottom - 8 - len(foot) * draw.line_step(small)
    for i, words in enumerate(foot):
        at = (x, bottom + i * draw.line_step(small))
        draw.text(surface, draw.clipped(words, small, width), at, small, draw.DIM)
    if not invites:
        return []
    modules = len(qr_modules(invites[0][1])) + 2 * QUIET
    label = draw.font(small).get_linesize()
    shown = list(invites)
    while True:
        columns, module = _grid(len(shown), modules, width, bottom - 6 - y, label)
        if module >= MIN_MODULE or len(shown) == 1:
            break
        shown.pop()
    out: list[Drawn] = []
    side = modules * module
    cell_w = (width - 8 * (columns - 1)) // columns
    for i, (seat, link) in enumerate(shown):
        cx = x + (i % columns) * (cell_w + 8)
        cy = y + (i // columns) * (label + 8 + side)
        name = f"{SEAT_COLOURS[seat].capitalize()} ({seat})"
        draw.text(surface, draw.clipped(name, small, cell_w), (cx, cy), small, draw.seat_rgb(seat))
        square = pygame.Rect(cx + (cell_w - side) // 2, cy + label + 2, side, side)
        surface.blit(qr_surface(link, module), square)
        out.append(Drawn(seat, link, square, module))
    if len(shown) < len(invites):
        more = f"{len(invites) - len(shown)} more: their links are in the terminal"
        last = out[-1].rect
        draw.text(surface, draw.clipped(more, small, width), (x, last.bottom + 4), small, draw.DIM)
    return out

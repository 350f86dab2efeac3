"""The help over any screen (F1 or ?): the controls, and the rules of the game being played
(:mod:`sliders.game.howto`), in a panel that scrolls when the window is too small for it all
(↑ ↓, the wheel) and says so. F1, ?, Esc or a click closes it; the game waits meanwhile."""

from __future__ import annotations

import pygame

from sliders.boards import Face
from sliders.boards import face as face_named
from sliders.core.errors import UserError
from sliders.game.howto import controls_of, rules_of
from sliders.game.narrate import wrap_all
from sliders.scenes import draw

HELP_KEYS = (pygame.K_F1,)
"""keys that open and close the help (and ``?``, whichever key types it)"""


def asks_for_help(event: pygame.event.Event) -> bool:
    """Whether ``event`` is F1 or a key typing ``?``."""
    return event.type == pygame.KEYDOWN and (
        event.key in HELP_KEYS or getattr(event, "unicode", "") == "?"
    )


def face_of(screen: object) -> Face | None:
    """The game a screen shows: its match's face, or the face it has chosen (the setup
    screen); None when it shows no game."""
    match = getattr(screen, "match", None)
    if match is not None and isinstance(getattr(match, "face", None), Face):
        return match.face  # type: ignore[no-any-return]
    name = getattr(screen, "face", None)
    if isinstance(name, str):
        try:
            return face_named(name)
        except UserError:
            return None
    return None


class HelpOverlay:
    """The help's panel: its sections, wrapped to the window, and how far it is scrolled."""

    def __init__(self, face: Face | None, control: str, hints: bool, invites: bool = False) -> None:
        self.sections: list[tuple[str, list[str]]] = [
            ("Controls", controls_of(control, hints, invites))
        ]
        if face is not None:
            self.sections.append((f"The rules: {face.title}", rules_of(face)))
        self.scroll = 0
        self.lines: list[tuple[str, bool]] = []  # (words, a heading) as last drawn
        self.shown = 0  # how many lines fitted

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Take an event while the help is shown; True when it closes the help."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll -= 1 if event.key == pygame.K_UP else max(self.shown - 1, 1)
            elif event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll += 1 if event.key == pygame.K_DOWN else max(self.shown - 1, 1)
            else:
                return event.key == pygame.K_ESCAPE or asks_for_help(event)
            return False
        if event.type == pygame.MOUSEWHEEL:
            self.scroll -= event.y
            return False
        return event.type == pygame.MOUSEBUTTONDOWN and event.button == 1

    def draw(self, surface: pygame.Surface) -> pygame.Rect:
        """The help over ``surface`` (a shade over the screen, the panel in the middle)."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        w, h = surface.get_size()
        panel = pygame.Rect(0, 0, min(w - 20, 900), h - 20)
        panel.center = (w // 2, h // 2)
        pygame.draw.rect(surface, draw.PANEL, panel, border_radius=10)
        pygame.draw.rect(surface, draw.HIGHLIGHT, panel, 1, border_radius=10)
        big, size = draw.ui_size(surface, 30), draw.ui_size(surface, 21)
        x, y = panel.x + 16, panel.y + 10
        y = draw.text(surface, "Help", (x, y), big, draw.HIGHLIGHT, bold=True).bottom + 4
        foot = "F1, ? or Esc: back to the game"
        width = panel.w - 32
        fits = lambda words: draw.font(size).size(words)[0] <= width  # noqa: E731
        lines: list[tuple[str, bool]] = []
        for title, sentences in self.sections:
            lines.append((title, True))
            for sentence in sentences:
                lines += [(piece, False) for piece in wrap_all([sentence], fits)]
        self.lines = lines
        step = draw.line_step(size) + 2
        bottom = panel.bottom - 12 - step  # the foot's line
        fit = max((bottom - y) // step, 1)
        if len(lines) > fit:
            fit = max(fit - 1, 1)  # a line for the sign
        self.scroll = min(max(self.scroll, 0), max(len(lines) - fit, 0))
        self.shown = fit
        for words, heading in lines[self.scroll : self.scroll + fit]:
            rgb = draw.TEXT if not heading else draw.HIGHLIGHT
            draw.text(surface, words, (x, y), size, rgb, bold=heading)
            y += step
        below = len(lines) - self.scroll - fit
        if self.scroll or below > 0:
            sign = f"▲ {self.scroll} lines above · ▼ {max(below, 0)} below (↑ ↓, wheel)"
            draw.text(surface, sign, (x, y), size, draw.DIM)
        draw.text(surface, foot, (x, panel.bottom - 10), size, draw.DIM, "bottomleft")
        return panel

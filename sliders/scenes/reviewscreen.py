"""The review screen: a reviewed game (:mod:`sliders.lab.review`) shot by shot. On the left the
table before the chosen shot, with the shot as slid (white arrow) beside the best shot the search
found (green arrow); on the right each seat's chance of winning over the game, the chosen shot
marked, and the shot's figures. Left/right (or the buttons) step through the shots; Escape
closes (back to the screen it was opened from, or the window when it was opened alone)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from sliders.boards import Face, Layout
from sliders.lab.review import Review, ShotReview
from sliders.rules import GameState
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.coach import HINT_RGB, draw_arrow

MARK_RGB = {
    "good": (120, 200, 120),
    "imprecise": (230, 200, 60),
    "mistake": (240, 140, 40),
    "blunder": (230, 60, 60),
}


@screen("review")
class ReviewScreen:
    def __init__(
        self,
        app: App,
        review: Review,
        states: tuple[GameState, ...],
        layout: Layout,
        face: Face,
        pawn_radius: float,
        back: Callable[[], None] | None = None,
    ) -> None:
        self.app, self.review, self.states = app, review, states
        self.close = back or app.quit
        self.layout = layout
        self.view = draw.TableView(layout, face, pawn_radius)
        self.index = 0
        self.buttons = {
            "prev": draw.Button("< Shot", lambda: self.choose(self.index - 1)),
            "next": draw.Button("Shot >", lambda: self.choose(self.index + 1)),
            "close": draw.Button("Close", self.close),
        }

    @property
    def shot(self) -> ShotReview | None:
        return self.review.shots[self.index] if self.review.shots else None

    def choose(self, index: int) -> None:
        if self.review.shots:
            self.index = max(0, min(len(self.review.shots) - 1, index))

    def handle_event(self, event: pygame.event.Event) -> None:
        for b in self.buttons.values():
            if b.handle(event):
                return
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_UP):
                self.choose(self.index - 1)
            elif event.key in (pygame.K_RIGHT, pygame.K_DOWN):
                self.choose(self.index + 1)
            elif event.key in (pygame.K_ESCAPE, pygame.K_q):
                self.close()

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((24, 26, 32))
        w, h = surface.get_size()
        left = pygame.Rect(0, 0, int(w * 0.55), h)
        right = pygame.Rect(left.right, 0, w - left.right, h)
        self.view.fit(left.inflate(-16, -16))
        self.view.draw_static(surface)
        s = self.shot
        if s is not None:
            for p in self.states[s.index].table:
                self.view.draw_pawn(surface, p.id, p.x, p.y)
            if s.played_speed is not None:
                self._arrow(surface, s, s.played_speed, s.played_angle_deg, s.played_offset, False)
            if s.best_speed is not None:  # a log with positions: a best shot was searched
                self._arrow(surface, s, s.best_speed, s.best_angle_deg, s.best_offset, True)
        self._curve(surface, pygame.Rect(right.x + 10, 10, right.width - 20, int(h * 0.42)))
        self._figures(surface, pygame.Rect(right.x + 10, int(h * 0.45), right.width - 20, h))
        size = draw.ui_size(surface, 22)
        bw, bh = (right.width - 40) // 3, size + 14
        for k, name in enumerate(("prev", "next", "close")):
            b = self.buttons[name]
            b.rect = pygame.Rect(right.x + 10 + k * (bw + 10), h - bh - 10, bw, bh)
            b.draw(surface, size)

    def _arrow(
        self,
        surface: pygame.Surface,
        s: ShotReview,
        speed: float,
        angle_deg: float | None,
        offset: float | None,
        best: bool,
    ) -> None:
        rgb = HINT_RGB if best else (240, 240, 240)
        seat = self.layout.seat(s.seat)
        a = math.radians(angle_deg or 0.0)
        draw_arrow(surface, self.view, seat, speed, a, offset or 0.0, None, rgb)

    def _curve(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        curve = self.review.curve
        pygame.draw.rect(surface, (40, 44, 54), rect)
        n = max(1, len(curve) - 1)

        def at(k: int, p: float) -> tuple[int, int]:
            return rect.x + int(rect.width * k / n), rect.bottom - int(rect.height * p)

        mid = rect.bottom - rect.height // 2
        pygame.draw.line(surface, (90, 90, 100), (rect.x, mid), (rect.right, mid), 1)
        for seat in self.review.seats:
            points = [at(k, c[seat]) for k, c in enumerate(curve)]
            if len(points) > 1:
                pygame.draw.lines(surface, draw.seat_rgb(seat), False, points, 3)
        for k, shot in enumerate(self.review.shots):
            if shot.mark != "good":
                spot = at(shot.index + 1, curve[shot.index + 1][shot.seat])
                pygame.draw.circle(surface, MARK_RGB[shot.mark], spot, 5)
            if k == self.index:
                x = at(shot.index, 0.0)[0]
                pygame.draw.line(surface, (240, 240, 240), (x, rect.y), (x, rect.bottom), 1)
        draw.text(surface, "chance of winning", (rect.x + 6, rect.y + 4), 18, draw.DIM)

    def _figures(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        s = self.shot
        size = draw.ui_size(surface, 20)
        if s is None:
            draw.text(surface, "no shots to review", rect.topleft, size)
            return
        lines = [
            (
                f"shot {self.index + 1} of {len(self.review.shots)}: {s.seat}, round {s.round}",
                draw.seat_rgb(s.seat),
            ),
            (s.mark, MARK_RGB[s.mark]),
            (f"chance {s.before:.0%} before, {s.after:.0%} after", draw.TEXT),
            (f"the shot as slid was worth {s.played:.0%} (luck {100 * s.luck:+.0f})", draw.TEXT),
            (f"best: {s.best_kind}, {s.best:.0%}", (90, 220, 120)),
            (draw.clipped(s.best_label, size, rect.width), draw.DIM),
            (f"loss {s.loss:.1f} points", draw.TEXT),
        ]
        y = rect.y
        for words, rgb in lines:
            y = draw.text(surface, words, (rect.x, y), size, rgb).bottom + 4

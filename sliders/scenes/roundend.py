"""The round-end screen: each pawn's points on the board; each person picks how their points move
their scoring pawns (the rules engine's suggestion first, the other legal choices a click away);
the computer seats choose theirs; then the scoring pawns move and any winner is announced.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from sliders.core.outcome import SEAT_COLOURS
from sliders.game.narrate import narrate_scoring, scored, wrap_all
from sliders.rules import (
    Advanced,
    Assignment,
    Phase,
    PointsLost,
    Won,
    default_assignment,
    legal_assignments,
)
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.camera import Camera
from sliders.scenes.table import Match

MOVE_TIME = 1.2
"""seconds the scoring pawns take to move"""
AUTO_CONTINUE = 2.5
"""with no person at the table, the next round starts by itself after this long"""


@screen("round-end")
class RoundEndScreen:
    def __init__(self, app: App, match: Match) -> None:
        self.app, self.match = app, match
        self.before = match.state
        self.view = draw.TableView(match.layout, match.face, match.params.pawn_radius)
        self.sidebar = pygame.Rect(0, 0, 0, 0)
        self.choice_rect = pygame.Rect(0, 0, 0, 0)
        """where a person's choice of moves is drawn (under the score boards, or the table)"""
        self.below = 0
        self.order = list(self.before.turn_order())
        self.chosen: dict[str, Assignment] = {}
        self.options: list[Assignment] = []
        self.index = 0
        self.seat: str | None = None
        self.lines: list[str] = []
        self.moved = 0.0
        self.scored = False
        self.waited = 0.0
        self.buttons = {
            "prev": draw.Button("< Other", lambda: self._cycle(-1)),
            "next": draw.Button("Other >", lambda: self._cycle(1)),
            "accept": draw.Button("Accept", self._accept),
            "continue": draw.Button("Continue", self._continue),
        }
        self._next_seat()

    # -- choosing -------------------------------------------------------------------------------

    def _next_seat(self) -> None:
        while self.order:
            seat = self.order.pop(0)
            if self.match.is_computer(seat):
                self.chosen[seat] = self.match.assignment_for(seat)
                continue
            if not self.match.chooses_here(seat):  # a hosted game: the host's choice
                continue
            options = legal_assignments(self.before, seat)
            default = default_assignment(self.before, seat)
            self.options = [default, *(a for a in options if a != default)]
            self.index = 0
            self.seat = seat
            return
        self.seat = None
        self._score()

    def _cycle(self, step: int) -> None:
        if self.seat is not None and self.options:
            self.index = (self.index + step) % len(self.options)

    def _accept(self) -> None:
        if self.seat is None:
            return
        self.chosen[self.seat] = self.options[self.index] if self.options else ()
        self.match.chose(self.seat, self.chosen[self.seat])
        self._next_seat()

    def _score(self) -> None:
        if not self.match.can_score():  # a hosted game: until its host has scored the round
            return
        happened = self.match.score(self.chosen)
        self.scored = True
        for h in happened:
            if isinstance(h, Advanced | PointsLost | Won):
                self.lines.append(narrate_scoring(h))

    def _continue(self) -> None:
        if not self.scored:
            return
        if self.match.state.phase is Phase.OVER or self.match.turns.over:  # won, or drawn
            self.app.go("results", self.match)
        else:
            self.app.go("play", self.match)

    # -- screen ---------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_UP):
                self._cycle(-1)
            elif event.key in (pygame.K_RIGHT, pygame.K_DOWN):
                self._cycle(1)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                if self.seat is not None:
                    self._accept()
                else:
                    self._continue()
            return
        # one click presses one button: the choosing buttons while a person chooses, Continue
        # once the round is scored (a click on Accept that ends the choosing is not also a
        # click on Continue, which lies under it: Continue never saw that press begin)
        active = ("continue",) if self.seat is None else ("prev", "next", "accept")
        for key, b in self.buttons.items():
            if key not in active:
                b.forget()
        for key in active:
            if self.buttons[key].handle(event):
                return

    def update(self, dt: float) -> None:
        self.match.poll()  # a hosted game: who comes and goes meanwhile
        if self.seat is not None and not self.match.choice_open(self.seat):
            self.order.clear()  # a hosted game whose host took the rules' choice (out of time)
            self.seat = None
        if not self.scored and self.seat is None:
            self._score()
        if self.scored:
            self.moved = min(self.moved + dt / MOVE_TIME, 1.0)
            if self.moved >= 1.0 and not self._humans():
                self.waited += dt
                if self.waited >= AUTO_CONTINUE:
                    self._continue()

    def _humans(self) -> bool:
        return any(self.match.chooses_here(s.seat) for s in self.match.config.seats)

    def _boards(self) -> dict[str, Sequence[float]]:
        """Scoring pawn squares to draw: the preview of the choice being made, or the move."""
        out: dict[str, Sequence[float]] = {}
        after = self.match.state
        for seat in self.before.seats:
            old = self.before.player(seat).board
            if self.scored:
                new = after.player(seat).board
                out[seat] = [a + (b - a) * _ease(self.moved) for a, b in zip(old, new, strict=True)]
            elif seat == self.seat and self.options:
                squares = list(old)
                for m in self.options[self.index]:
                    squares[m.scoring] += m.points
                out[seat] = [float(v) for v in squares]
            else:
                out[seat] = [float(v) for v in old]
        return out

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        surface = self.app.surface
        side = min(max(int(w * 0.3), 280), round(draw.BOARD_WIDTH * draw.ui_scale(surface)))
        top = draw.banner_bottom(surface)
        bh = max(34, round(40 * draw.ui_scale(surface)))
        y = h - bh - 10
        self.sidebar = pygame.Rect(w - side - 10, top, side, y - 8 - top)
        # a person's choice: under the score boards when they leave room, else under the table
        need = self._choice_height(surface)
        panels = draw.sidebar_panels(self.sidebar, self.before.seats, need)
        under = max(p.bottom for p in panels.values()) + draw.PANEL_GAP
        below_table = self.seat is not None and under + need > self.sidebar.bottom
        area = pygame.Rect(10, top, w - side - 30, h - top - 10)
        self.choice_rect = pygame.Rect(self.sidebar.x, under, side, self.sidebar.bottom - under)
        if below_table:
            area.h -= need + 8
            self.choice_rect = pygame.Rect(area.x, area.bottom + 8, area.w, need)
        self.below = need if not below_table else 0
        camera = Camera(self.view, self.match.layout)
        camera.place(area)
        reach = 2 * self.match.params.pawn_radius
        centre, scale = camera.board_and([(p.x, p.y) for p in self.before.table], reach)
        self.view.look_at(centre, scale, area)
        bw = (side - 20) // 3
        for i, key in enumerate(("prev", "next", "accept")):
            self.buttons[key].rect = pygame.Rect(self.sidebar.x + i * (bw + 10), y, bw, bh)
        self.buttons["continue"].rect = pygame.Rect(self.sidebar.right - 200, y, 200, bh)

    def _choice_height(self, surface: pygame.Surface) -> int:
        """Pixels a person's choice takes: its heading, "suggested" and a line a move."""
        if self.seat is None:
            return 0
        big, size = draw.ui_size(surface, 22), draw.ui_size(surface, 20)
        pitch = round(size * draw.SIZE_TO_PX * 1.4)
        moves = max((len(a) for a in self.options), default=1)
        return draw.font(big, True).get_linesize() + 2 + pitch * (1 + max(moves, 1))

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        self.view.draw_static(surface)
        for p in self.before.table:
            self.view.draw_pawn(surface, p.id, p.x, p.y)
            self.view.tag(surface, draw.points_label(p), p.x, p.y, 20, draw.HIGHLIGHT)
        game = self.match.face.title or self.match.face.name
        title = f"{game} · round {self.before.round} is over: scoring"
        draw.text(surface, title, (14, 12), draw.ui_size(surface, 30), draw.TEXT, bold=True)
        big, size = draw.ui_size(surface, 22), draw.ui_size(surface, 20)
        pitch = round(size * draw.SIZE_TO_PX * 1.4)
        who = {s.seat: s.describe() for s in self.match.config.seats}
        y = draw.draw_sidebar(
            surface, self.sidebar, self.before, who, self.seat, self._boards(), None, self.below
        )
        if self.seat is not None:
            box = self.choice_rect
            y = box.y
            name = SEAT_COLOURS[self.seat].capitalize()
            n = len(self.options)
            for head in (  # the longest that fits the sidebar, never cut
                f"{name}: move your scoring pawns ({self.index + 1} of {n})",
                f"{name}: your scoring pawns ({self.index + 1}/{n})",
                f"{name}: choice {self.index + 1}/{n}",
            ):
                if draw.font(big, True).size(head)[0] <= box.width:
                    break
            rgb = draw.seat_rgb(self.seat)
            y = draw.text(surface, head, (box.x, y), big, rgb, bold=True).bottom + 2
            if self.index == 0:
                draw.text(surface, "suggested", (box.x, y), size, draw.HIGHLIGHT)
                y += pitch
            moves = self.options[self.index] if self.options else ()
            if not moves:
                draw.text(surface, "nothing to score", (box.x, y), size, draw.DIM)
            board = self.before.player(self.seat).board
            for m in moves:
                line = scored(m.pawn, m.points, m.scoring, board[m.scoring])
                line = draw.clipped(line, size, box.width)
                draw.text(surface, line, (box.x, y), size, draw.TEXT)
                y += pitch
            for key in ("prev", "next", "accept"):
                self.buttons[key].enabled = key == "accept" or n > 1
                self.buttons[key].draw(surface, big)
        else:
            y = draw.text_lines(
                surface, _panel(self.lines[-10:], self.sidebar.width), self.sidebar.x, y,
                self.sidebar.width, self.sidebar.bottom - 18,
            )  # fmt: skip
            state = self.match.state
            if state.phase is Phase.OVER and state.winner:
                msg = f"{SEAT_COLOURS[state.winner].capitalize()} wins!"
                image = draw.rendered(
                    msg, draw.ui_size(surface, 60), draw.seat_rgb(state.winner), True
                )
                box = image.get_rect(midtop=(self.view.rect.centerx, self.view.rect.y + 12))
                backing = box.inflate(
                    40, 16
                )  # a dark banner at the top of the table, off the pawns
                pygame.draw.rect(surface, (22, 24, 30), backing, border_radius=12)
                pygame.draw.rect(surface, draw.seat_rgb(state.winner), backing, 2, border_radius=12)
                surface.blit(image, box)
            self.buttons["continue"].draw(surface)


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


def _panel(lines: list[str], width: int, size: int = 19) -> list[str]:
    """``lines`` wrapped to ``width`` pixels at the panel's font size: shown whole, never cut."""
    return wrap_all(lines, lambda words: draw.font(size).size(words)[0] <= width)

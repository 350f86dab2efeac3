"""Play back a saved game: each shot's pawns glide from where they stood to where they came to
rest, removals and penalties are announced, and each round's scoring moves the scoring pawns.

The log holds each shot's outcome, not the flick that made it, so a shot is shown as the move from
the table before to the table after. Keys: Space pauses, Right/Left step, Esc quits.
"""

from __future__ import annotations

import pygame

from sliders.boards import face, load_layout
from sliders.outcome import SEAT_COLOURS, EventType
from sliders.physics import PhysicsParams
from sliders.rules import Game, GameState, ScoreStep, ShotStep, apply_shot, score_round
from sliders.scenes import draw
from sliders.scenes.app import App

STEP_TIME = 1.4
"""seconds each step of the log is shown"""
MOVE_SHARE = 0.6
"""share of a step spent moving the pawns"""


class ReplayScreen:
    def __init__(self, app: App, game: Game, layout: str) -> None:
        self.app, self.game = app, game
        self.layout = load_layout(layout, game.seats)
        self.face = face(game.face)
        self.params = PhysicsParams.default()
        self.view = draw.TableView(self.layout, self.face, self.params.pawn_radius)
        self.sidebar = pygame.Rect(0, 0, 0, 0)
        self.index = 0  # steps shown so far
        self.t = 0.0
        self.playing = True
        self.lines: list[str] = []
        self.menu = draw.Button("Quit", app.quit)

    @property
    def state(self) -> GameState:
        """The game as far as the replay has got."""
        return self.game.states[self.index]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.game.steps)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_SPACE:
                self.playing = not self.playing
            elif event.key == pygame.K_RIGHT:
                self._advance()
            elif event.key == pygame.K_LEFT and self.index > 0:
                self.index -= 1
                self.t = 0.0
            elif event.key == pygame.K_ESCAPE:
                self.app.quit()
            return
        if self.finished:
            self.menu.handle(event)

    def update(self, dt: float) -> None:
        if not self.playing or self.finished:
            return
        self.t += dt
        if self.t >= STEP_TIME:
            self._advance()

    def _advance(self) -> None:
        if self.finished:
            return
        before = self.game.states[self.index]
        step = self.game.steps[self.index]
        if isinstance(step, ShotStep):
            _, happened = apply_shot(before, step.result, step.home)
        else:
            _, happened = score_round(before, step.assignments)
        self.lines += [h.describe() for h in happened]
        del self.lines[:-10]
        self.index += 1
        self.t = 0.0

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        side = min(max(int(w * 0.3), 280), 420)
        self.view.fit(pygame.Rect(10, 50, w - side - 30, h - 60))
        self.sidebar = pygame.Rect(w - side - 10, 50, side, h - 60)
        self.menu.rect = pygame.Rect(self.sidebar.right - 160, h - 60, 160, 44)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        self.view.draw_static(surface)
        state = self.state
        k = min(self.t / (STEP_TIME * MOVE_SHARE), 1.0)
        boards = None
        if self.finished:
            for p in state.table:
                self.view.draw_pawn(surface, p.id, p.x, p.y)
        else:
            step = self.game.steps[self.index]
            if isinstance(step, ShotStep):
                self._draw_shot(surface, state, step, k)
            else:
                after = self.game.states[self.index + 1]
                for p in state.table:
                    self.view.draw_pawn(surface, p.id, p.x, p.y)
                    self.view.tag(surface, draw.points_label(p), p.x, p.y, 22, draw.HIGHLIGHT)
                boards = (
                    {
                        s: [
                            a + (b - a) * k
                            for a, b in zip(
                                state.player(s).board, after.player(s).board, strict=True
                            )
                        ]
                        for s in state.seats
                    }
                    if isinstance(step, ScoreStep)
                    else None
                )
        n = len(self.game.steps)
        title = f"Replay · {self.face.name} · round {state.round} · step {self.index}/{n}"
        draw.text(surface, title, (14, 12), 30, draw.TEXT, bold=True)
        hint = "finished" if self.finished else ("Space: pause" if self.playing else "paused")
        draw.text(
            surface,
            hint + " · ←/→ step · Esc quit",
            (surface.get_width() - 14, 14),
            22,
            draw.DIM,
            "topright",
        )
        y = draw.draw_sidebar(surface, self.sidebar, state, {}, state.turn, boards)
        for line in self.lines[-8:]:
            if y > surface.get_height() - 80:
                break
            draw.text(
                surface,
                draw.clipped(line, 19, self.sidebar.width),
                (self.sidebar.x, y),
                19,
                draw.DIM,
            )
            y += 20
        if self.finished:
            final = self.game.state
            if final.winner:
                words = f"{SEAT_COLOURS[final.winner].capitalize()} wins!"
                cx, cy = self.view.rect.center
                draw.text(surface, words, (cx, cy), 72, draw.seat_rgb(final.winner), "center", True)
            self.menu.draw(surface)

    def _draw_shot(
        self, surface: pygame.Surface, before: GameState, step: ShotStep, k: float
    ) -> None:
        start = {p.id: (p.x, p.y) for p in before.table}
        for e in step.result.events:
            if e.type is EventType.RELEASE and e.pawns:
                start[e.pawns[0]] = (e.x, e.y)
        ease = k * k * (3 - 2 * k)
        for p in step.result.pawns:
            x0, y0 = start.get(p.id, (p.x, p.y))
            x, y = x0 + (p.x - x0) * ease, y0 + (p.y - y0) * ease
            gone = p.status.removed and k >= 1.0
            self.view.draw_pawn(surface, p.id, x, y, faded=gone)
            if k >= 1.0:
                words = (
                    str(p.status).replace("_", " ") if p.status.removed else draw.points_label(p)
                )
                self.view.tag(surface, words, x, y, 20)

"""The results screen: the winner, the rounds played and each player's score board after every
round; play again (the winner starts, as the rulebook says) or save the game log."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pygame

from sliders.core.errors import UserError
from sliders.core.outcome import SEAT_COLOURS
from sliders.game.saves import round_history, save_game
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.table import Match


@screen("results")
class ResultsScreen:
    def __init__(self, app: App, match: Match) -> None:
        self.app, self.match = app, match
        self.note = ""
        self.saved: Path | None = None
        self.buttons = [
            draw.Button("Play again", self.play_again),
            draw.Button("Save game", self.save),
            draw.Button("Menu", self._menu),
            draw.Button("Quit", app.quit),
        ]

    def play_again(self) -> None:
        """A new game with the same seats; the winner slides first."""

        cfg = self.match.config
        seed = None if cfg.seed is None else cfg.seed + 1
        config = replace(cfg, starter=self.match.state.winner, seed=seed)
        self.app.go("play", Match(config, self.match.params))

    def save(self) -> None:
        path = self.app.save_path or Path.cwd() / time.strftime("sliders-game-%Y%m%d-%H%M%S.json")
        try:
            self.saved = save_game(self.match.game, path)
            self.note = f"Saved to {self.saved}"
        except (UserError, OSError) as exc:
            self.note = f"Not saved: {exc}"

    def _menu(self) -> None:
        self.app.go("setup", self.match.config)

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_s:
                self.save()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.play_again()
            elif event.key == pygame.K_ESCAPE:
                self._menu()
            return
        for b in self.buttons:  # a button fires only for a click that began on it
            if b.handle(event):
                return

    def update(self, dt: float) -> None:
        pass

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        bw = min(200, (w - 100) // 4)
        x0 = w // 2 - (4 * bw + 60) // 2
        for i, b in enumerate(self.buttons):
            b.rect = pygame.Rect(x0 + i * (bw + 20), h - 90, bw, 50)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        w, _ = surface.get_size()
        state = self.match.state
        winner = state.winner
        if winner:
            words = f"{SEAT_COLOURS[winner].capitalize()} wins!"
            rgb = draw.seat_rgb(winner)
        else:
            words, rgb = "No winner", draw.TEXT
        draw.text(surface, words, (w // 2, 60), 84, rgb, "center", True)
        played = state.rounds_played
        sub = subtitle(self.match, played)
        draw.text(surface, sub, (w // 2, 115), 28, draw.DIM, "center")
        seats = state.seats
        col = min(220, (w - 220) // max(len(seats), 1))
        x0 = w // 2 - (160 + col * len(seats)) // 2
        y = 160
        draw.text(surface, "score boards", (x0, y), 24, draw.DIM)
        for j, s in enumerate(seats):
            spec = self.match.config.spec(s)
            x = x0 + 160 + j * col
            draw.text(
                surface, SEAT_COLOURS[s].capitalize(), (x, y), 26, draw.seat_rgb(s), bold=True
            )
            draw.text(
                surface, draw.clipped(spec.describe(), 18, col - 10), (x, y + 24), 18, draw.DIM
            )
        y += 52
        rows = round_history(self.match.game)
        shown = rows[-max((surface.get_height() - 320) // 28, 1) :]
        for label, boards in shown:
            draw.text(surface, label, (x0, y), 24, draw.TEXT)
            for j, s in enumerate(seats):
                cells = " ".join("H" if sq == 6 else str(sq) for sq in boards[s])
                draw.text(surface, cells, (x0 + 160 + j * col, y), 26, draw.TEXT)
            y += 28
        final = {s: state.player(s).board for s in seats}
        draw.text(surface, "total", (x0, y + 4), 24, draw.HIGHLIGHT, bold=True)
        for j, s in enumerate(seats):  # squares moved toward HOME, of the 24 that win
            words = f"{sum(final[s])} of {4 * 6}"
            draw.text(surface, words, (x0 + 160 + j * col, y + 4), 26, draw.HIGHLIGHT, bold=True)
        if self.note:
            draw.text(
                surface, self.note, (w // 2, surface.get_height() - 120), 22, draw.DIM, "center"
            )
        for b in self.buttons:
            b.draw(surface)


def subtitle(match: Match, played: int) -> str:
    """The game, the layout and the rounds played, by their names: "Race for Home · crazy corner
    · 5 rounds"."""
    game = match.face.title or match.face.name
    rounds = f"{played} round{'' if played == 1 else 's'}"
    return f"{game} · {match.layout.name.replace('-', ' ')} · {rounds}"

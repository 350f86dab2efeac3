"""The saved games screen, from the setup screen's *Resume saved game* (or L): the games *Save
game* wrote in the folder the window was started from (``sliders-game-*.json``) and the
window's ``--save`` file, the newest first, each with its game, layout, round and when it was
saved. Up/Down or a click choose one, Enter or *Resume* takes it up where it was saved (as
``sliders play --resume FILE`` does: a person in each seat the log gives a person's hand, the
computer in the others; *Save game* then writes the same file again), Esc goes back.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from sliders.boards import face
from sliders.core.errors import UserError
from sliders.game.config import MatchConfig
from sliders.game.saves import layout_of, load_replay, resumed_config, saved_games
from sliders.rules import Game
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.table import Match

MAX_LISTED = 40
"""the newest saved games listed (older ones are taken up with ``sliders play --resume``)"""


@dataclass(frozen=True)
class Saved:
    """A saved game as the list shows it: its file, the game read from it (None: it cannot be
    taken up) and a line saying what it is, or why not."""

    path: Path
    game: Game | None
    words: str


def read_saved(path: Path) -> Saved:
    """``path`` read as a saved game, said in a line: "Race for Home · square · round 3 ·
    2024-05-01 18:02"."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    try:
        game = load_replay(path)
    except UserError as exc:
        return Saved(path, None, f"cannot be read: {exc}")
    state = game.state
    layout = layout_of(game).name.replace("-", " ")
    about = f"{face(game.face).title} · {layout} · round {state.round}"
    if state.winner is not None:
        return Saved(path, None, f"{about} · over · {when}")
    return Saved(path, game, f"{about} · {when}")


@screen("resume")
class ResumeScreen:
    def __init__(
        self,
        app: App,
        config: MatchConfig | None = None,
        folder: str | os.PathLike[str] | None = None,
    ) -> None:
        self.app, self.config = app, config
        self.folder = Path(folder) if folder is not None else Path.cwd()
        found = saved_games(self.folder, app.save_path)[:MAX_LISTED]
        self.saved = [read_saved(p) for p in found]
        self.index = next((i for i, s in enumerate(self.saved) if s.game is not None), 0)
        self.top = 0  # the first entry shown
        self.note = ""
        self.rows: list[tuple[int, pygame.Rect]] = []
        self.resume_button = draw.Button("Resume", self.resume)
        self.back_button = draw.Button("Back", self.back)

    def resume(self) -> None:
        """Take up the chosen game where it was saved, or say why not."""
        if not self.saved:
            return
        chosen = self.saved[self.index]
        if chosen.game is None:
            self.note = f"{chosen.path.name}: {chosen.words}"
            return
        try:
            config = resumed_config(chosen.game, self.app.hand)
            match = Match(config, None, chosen.game)
        except UserError as exc:
            self.note = f"{chosen.path.name}: {exc}"
            return
        self.app.save_path = self.app.save_path or chosen.path  # Save game writes it again
        self.app.go("play", match)

    def back(self) -> None:
        self.app.go("setup", self.config)

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.resume()
            elif event.key == pygame.K_UP and self.saved:
                self.index = (self.index - 1) % len(self.saved)
            elif event.key == pygame.K_DOWN and self.saved:
                self.index = (self.index + 1) % len(self.saved)
            return
        for b in (self.resume_button, self.back_button):
            if b.handle(event):
                return
        if event.type == pygame.MOUSEWHEEL and self.saved:
            self.index = min(max(self.index - event.y, 0), len(self.saved) - 1)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, rect in self.rows:
                if rect.collidepoint(event.pos):
                    self.index = i

    def update(self, dt: float) -> None:
        pass

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        bh = 44 if h < 600 else 56
        bw = min(220, (w - 60) // 2)
        y = h - 20 - bh
        self.resume_button.rect = pygame.Rect(w // 2 - bw - 10, y, bw, bh)
        self.back_button.rect = pygame.Rect(w // 2 + 10, y, bw, bh)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        w, _ = surface.get_size()
        big, size = draw.ui_size(surface, 40), draw.ui_size(surface, 22)
        y = draw.text(surface, "Resume a saved game", (w // 2, 14), big, draw.HIGHLIGHT,
                      "midtop", True).bottom + 4  # fmt: skip
        where = f"games saved in {self.folder}"
        y = draw.text(surface, draw.clipped(where, size, w - 40), (w // 2, y), size, draw.DIM,
                      "midtop").bottom + 12  # fmt: skip
        line = draw.font(size).get_linesize()
        pitch = 2 * line + 14  # a saved game: its file, and what it is
        bottom = self.resume_button.rect.y - 2 * line - 10  # the "more" line and the note
        fit = max((bottom - y) // pitch, 1)
        self.top = min(max(self.top, self.index - fit + 1), self.index)
        self.rows = []
        if not self.saved:
            words = "No saved games here: Save game (Esc in a game, S) writes one"
            draw.text(surface, words, (w // 2, y + pitch), size, draw.TEXT, "midtop")
        for i in range(self.top, min(self.top + fit, len(self.saved))):
            s = self.saved[i]
            row = pygame.Rect(20, y, w - 40, pitch - 6)
            self.rows.append((i, row))
            if i == self.index:
                pygame.draw.rect(surface, (60, 60, 70), row, border_radius=8)
                pygame.draw.rect(surface, draw.HIGHLIGHT, row, 1, border_radius=8)
            rgb = draw.TEXT if s.game is not None else draw.DIM
            draw.text(surface, draw.clipped(s.path.name, size, row.w - 20),
                      (row.x + 10, row.y + 4), size, rgb, bold=True)  # fmt: skip
            draw.text(surface, draw.clipped(s.words, size, row.w - 20),
                      (row.x + 10, row.y + 4 + line), size, draw.DIM)  # fmt: skip
            y += pitch
        hidden = len(self.saved) - len(self.rows)
        if hidden:
            more = f"{hidden} more (↑ ↓, wheel)"
            draw.text(surface, more, (w // 2, y), size, draw.DIM, "midtop")
        if self.note:
            at = (w // 2, self.resume_button.rect.y - 8)
            draw.text(surface, draw.clipped(self.note, size, w - 40), at, size, (255, 120, 90),
                      "midbottom")  # fmt: skip
        self.resume_button.enabled = any(s.game is not None for s in self.saved)
        self.resume_button.draw(surface, draw.ui_size(surface, 28))
        self.back_button.draw(surface, draw.ui_size(surface, 28))

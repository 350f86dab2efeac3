"""The results screen: the winner, the rounds played and each player's score board after every
round; play again (the winner starts, as the rulebook says), save the game log, or review the
game shot by shot (R: :class:`sliders.scenes.coach.ReviewingScreen`, then the review screen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pygame

from sliders.core.outcome import SEAT_COLOURS
from sliders.game.narrate import wrap
from sliders.game.saves import round_history, save_note
from sliders.scenes import draw
from sliders.scenes.app import App, screen
from sliders.scenes.table import Match

T = TypeVar("T")


@screen("results")
class ResultsScreen:
    def __init__(self, app: App, match: Match) -> None:
        self.app, self.match = app, match
        self.note = ""
        self.saved: Path | None = None
        self.scroll = 0
        """rounds the table of score boards is scrolled back from the last (↑ ↓, the wheel)"""
        again = [draw.Button("Play again", self.play_again)] if match.replayable else []
        self.buttons = [
            *again,
            draw.Button("Save game", self.save),
            draw.Button("Review", self.review),
            draw.Button("Menu", self._menu),
            draw.Button("Quit", app.quit),
        ]

    def play_again(self) -> None:
        """A new game with the same seats; the winner slides first (not for a hosted game)."""
        if not self.match.replayable:
            return
        cfg = self.match.config
        seed = None if cfg.seed is None else cfg.seed + 1
        config = replace(cfg, starter=self.match.state.winner, seed=seed)
        self.app.go("play", Match(config, self.match.params))

    def save(self) -> None:
        self.saved, self.note = save_note(self.match.game, self.app.save_path)

    def review(self) -> None:
        """The game reviewed shot by shot; the review screen's Close comes back here."""
        self.app.go("reviewing", self.match.game, self)

    def _menu(self) -> None:
        self.app.go("setup", self.match.config)

    def handle_event(self, event: pygame.event.Event) -> None:
        self._fit()
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_s:
                self.save()
            elif event.key == pygame.K_r:
                self.review()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.play_again()
            elif event.key == pygame.K_ESCAPE:
                self._menu()
            elif event.key in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll += 1
            elif event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll = max(self.scroll - 1, 0)
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(self.scroll + event.y, 0)
            return
        for b in self.buttons:  # a button fires only for a click that began on it
            if b.handle(event):
                return

    def update(self, dt: float) -> None:
        self.match.poll()  # a hosted game: its last words

    def _fit(self) -> None:
        w, h = self.app.surface.get_size()
        n = len(self.buttons)
        bw = min(200, (w - 40 - 20 * n) // n)
        x0 = w // 2 - (n * bw + 20 * (n - 1)) // 2
        bh = max(round(50 * draw.ui_scale(self.app.surface)), 40)
        for i, b in enumerate(self.buttons):
            b.rect = pygame.Rect(x0 + i * (bw + 20), h - bh - 20, bw, bh)

    def draw(self, surface: pygame.Surface) -> None:
        self._fit()
        surface.fill(draw.BACKGROUND)
        w, h = surface.get_size()
        px = lambda size: round(size * draw.SIZE_TO_PX)  # noqa: E731  (a size's pixels)
        state = self.match.state
        winner = state.winner
        if winner:
            words = f"{SEAT_COLOURS[winner].capitalize()} wins!"
            rgb = draw.seat_rgb(winner)
        else:
            words, rgb = "No winner", draw.TEXT
        big, sub_size = draw.ui_size(surface, 84), draw.ui_size(surface, 28)
        y = 14
        y = draw.text(surface, words, (w // 2, y), big, rgb, "midtop", True).bottom + 4
        sub = subtitle(self.match, state.rounds_played)
        y = draw.text(surface, sub, (w // 2, y), sub_size, draw.DIM, "midtop").bottom + 18
        bottom = self.buttons[0].rect.y - (2 * px(draw.MIN_UI_SIZE) + 10 if self.note else 14)
        seats = state.seats
        rows = round_history(self.match.game)
        size, small = draw.ui_size(surface, 26), draw.ui_size(surface, 18)
        pitch = round(px(size) * 1.45)
        wide = w >= 1000
        labels = ("score boards", "total", *(label for label, _ in rows))
        lead = max(draw.font(small, True).size(label)[0] for label in labels) + 24
        table_w = min(lead + 220 * len(seats), round(w * 0.55) if wide else w - 40)
        col = (table_w - lead) // max(len(seats), 1)
        x0 = (20 + (w * 0.55 - table_w) / 2) if wide else (w - table_w) / 2
        x0 = round(max(x0, 20))
        fits = lambda words: draw.font(small).size(words)[0] <= col - 10  # noqa: E731
        kinds = {seat: wrap(self.match.config.spec(seat).describe(), fits) for seat in seats}
        line = round(px(small) * 1.25)
        heads = pitch + max(len(k) for k in kinds.values()) * line + (pitch - line)
        race = pygame.Rect(0, 0, 0, 0)
        room = bottom - y - heads - pitch - 10  # below the heads and the total
        if wide:
            race = pygame.Rect(
                round(w * 0.58), y, w - round(w * 0.58) - 30, min(bottom - y, h // 2)
            )
        else:
            race_h = min(max(room - 2 * pitch, 0), 220)
            if race_h >= 90:
                race = pygame.Rect(x0, bottom - race_h, table_w, race_h)
                room -= race_h + 10
        draw.text(surface, "score boards", (x0, y), small, draw.DIM)
        for j, seat in enumerate(seats):
            x = x0 + lead + j * col
            draw.text(
                surface,
                SEAT_COLOURS[seat].capitalize(),
                (x, y),
                size,
                draw.seat_rgb(seat),
                bold=True,
            )
            for i, words in enumerate(kinds[seat]):  # "computer (medium)", on two lines if need be
                who = draw.clipped(words, small, col - 10)
                draw.text(surface, who, (x, y + pitch + i * line), small, draw.DIM)
        y += heads
        shown, earlier, later = scrolled(rows, max(room // pitch, 1), self.scroll)
        self.scroll = later
        if earlier or later:  # rounds out of sight: said, and how to see them
            sign = f"▲ {earlier} earlier · ▼ {later} later (↑ ↓, wheel)"
            draw.text(surface, sign, (x0, y), small, draw.DIM)
            y += pitch
        for label, boards in shown:
            draw.text(surface, label, (x0, y), small, draw.TEXT)
            for j, seat in enumerate(seats):
                cells = " ".join("H" if sq == 6 else str(sq) for sq in boards[seat])
                draw.text(surface, cells, (x0 + lead + j * col, y), size, draw.TEXT)
            y += pitch
        final = {seat: state.player(seat).board for seat in seats}
        draw.text(surface, "total", (x0, y + 4), small, draw.HIGHLIGHT, bold=True)
        for j, seat in enumerate(seats):  # squares moved toward HOME, of the 24 that win
            words = f"{sum(final[seat])} of {4 * 6}"
            draw.text(surface, words, (x0 + lead + j * col, y + 4), size, draw.HIGHLIGHT, bold=True)
        if race.h >= 90 and race.w >= 160:
            draw_race(surface, race, rows, seats)
        if self.note:
            at = (w // 2, self.buttons[0].rect.y - 8)
            draw.text(surface, self.note, at, draw.MIN_UI_SIZE, draw.DIM, "midbottom")
        for b in self.buttons:
            b.draw(surface, draw.ui_size(surface, 26))


def scrolled(rows: Sequence[T], room: int, back: int) -> tuple[list[T], int, int]:
    """(the rows shown, how many earlier, how many later) of ``rows`` in ``room`` lines,
    scrolled ``back`` rows from the last (clamped). When not all fit, one line is kept for the
    sign that says so."""
    if len(rows) <= room:
        return list(rows), 0, 0
    fit = max(room - 1, 1)
    back = min(max(back, 0), len(rows) - fit)
    end = len(rows) - back
    return list(rows[end - fit : end]), end - fit, back


def draw_race(
    surface: pygame.Surface,
    rect: pygame.Rect,
    rows: list[tuple[str, dict[str, tuple[int, ...]]]],
    seats: tuple[str, ...],
) -> None:
    """The game's score race in ``rect``: each seat's squares moved toward HOME (0 to 24, the
    win) after every round, a line in the seat's colour from the start (0) on."""
    size = draw.MIN_UI_SIZE
    line = round(size * draw.SIZE_TO_PX * 1.4)
    title = draw.text(surface, "the race to HOME", (rect.x, rect.y), size, draw.DIM)
    top = title.bottom + line // 2 + 4  # the "24" beside the top line clear of the title
    plot = pygame.Rect(rect.x + 34, top, rect.w - 44, rect.bottom - top - line - 4)
    if plot.w < 40 or plot.h < 30:
        return
    pygame.draw.rect(surface, draw.PANEL, plot)
    win = 4 * 6
    for squares in (0, 12, win):
        y = plot.bottom - round(plot.h * squares / win)
        pygame.draw.line(surface, (80, 80, 90), (plot.x, y), (plot.right - 1, y))
        draw.text(surface, str(squares), (plot.x - 6, y), size, draw.DIM, "midright")
    n = max(len(rows), 1)
    draw.text(surface, "0", (plot.x, plot.bottom + 2), size, draw.DIM, "midtop")
    draw.text(surface, f"round {n}", (plot.right, plot.bottom + 2), size, draw.DIM, "topright")
    for seat in seats:
        points = [(plot.x, plot.bottom)]
        for i, (_, boards) in enumerate(rows):
            x = plot.x + round(plot.w * (i + 1) / n)
            points.append(
                (min(x, plot.right - 1), plot.bottom - round(plot.h * sum(boards[seat]) / win))
            )
        if len(points) > 1:
            pygame.draw.lines(surface, draw.seat_rgb(seat), False, points, 3)
        for p in points[1:]:
            pygame.draw.circle(surface, draw.seat_rgb(seat), p, 4)


def subtitle(match: Match, played: int) -> str:
    """The game, the layout and the rounds played, by their names: "Race for Home · crazy corner
    · 5 rounds"."""
    game = match.face.title or match.face.name
    rounds = f"{played} round{'' if played == 1 else 's'}"
    return f"{game} · {match.layout.name.replace('-', ' ')} · {rounds}"

"""Pictures of an environment's table: an RGB array drawn by the project's matplotlib renderer
(:func:`sliders.pictures.table.draw_table`), and a window that shows it (pygame, loaded only when
a ``human`` environment first draws)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sliders.boards import Face, Layout
from sliders.core.outcome import SEAT_COLOURS
from sliders.pictures.table import draw_table
from sliders.rules import HOME, GameState

FRAME_INCHES = 6.0
FRAME_DPI = 100
"""every frame is FRAME_INCHES × FRAME_DPI pixels square (600 × 600)"""


def frame(state: GameState, layout: Layout, face: Face, pawn_radius: float) -> np.ndarray:
    """The table now, with every seat's score board in the title: ``uint8`` (H, W, 3)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(FRAME_INCHES, FRAME_INCHES), dpi=FRAME_DPI, facecolor="#3b3b3b")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.9))
    draw_table(ax, layout, face, state.table, None, pawn_radius, title(state))
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


def show(
    mode: str, state: GameState, layout: Layout, face: Face, pawn_radius: float, window: Window,
    fps: float,
) -> np.ndarray | None:  # fmt: skip
    """An environment's ``render()``: the frame itself for ``rgb_array``; for ``human``, the
    frame shown in ``window`` (opened on first use), and None."""
    picture = frame(state, layout, face, pawn_radius)
    if mode == "rgb_array":
        return picture
    window.show(picture, fps)
    return None


def title(state: GameState) -> str:
    boards = "   ".join(
        f"{SEAT_COLOURS[p.seat]} {''.join('H' if sq == HOME else str(sq) for sq in p.board)}"
        for p in state.players
    )
    if state.winner is not None:
        return f"round {state.round}: {SEAT_COLOURS[state.winner]} wins   {boards}"
    who = SEAT_COLOURS[state.turn] if state.turn else "scoring"
    return f"round {state.round}, {who} to slide   {boards}"


class Window:
    """A window showing frames, opened on the first :meth:`show`."""

    def __init__(self, caption: str = "Sorry! Sliders") -> None:
        self.caption = caption
        self._screen: Any = None
        self._pygame: Any = None

    def show(self, rgb: np.ndarray, fps: float = 4.0) -> None:
        import pygame

        self._pygame = pygame
        h, w = rgb.shape[:2]
        if self._screen is None:
            pygame.display.init()
            pygame.display.set_caption(self.caption)
            self._screen = pygame.display.set_mode((w, h))
            self._clock = pygame.time.Clock()
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(rgb.swapaxes(0, 1)))
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()
        self._clock.tick(fps)

    def close(self) -> None:
        if self._screen is not None and self._pygame is not None:
            self._pygame.display.quit()
        self._screen = None

"""An environment's frame: the table now, drawn by :func:`sliders.pictures.table.draw_table`
with every seat's score board in the title, as an RGB array."""

from __future__ import annotations

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


def title(state: GameState) -> str:
    boards = "   ".join(
        f"{SEAT_COLOURS[p.seat]} {''.join('H' if sq == HOME else str(sq) for sq in p.board)}"
        for p in state.players
    )
    if state.winner is not None:
        return f"round {state.round}: {SEAT_COLOURS[state.winner]} wins   {boards}"
    who = SEAT_COLOURS[state.turn] if state.turn else "scoring"
    return f"round {state.round}, {who} to slide   {boards}"

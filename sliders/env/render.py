"""An environment's ``render()``: its frame (:mod:`sliders.pictures.frames`) as an RGB array, or
shown in a window (:class:`sliders.scenes.viewer.Window`, pygame loaded on the first frame)."""

from __future__ import annotations

import numpy as np

from sliders.boards import Face, Layout
from sliders.pictures.frames import frame
from sliders.rules import GameState
from sliders.scenes.viewer import Window


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

"""A window that shows pictures (RGB arrays) one after another: a rendered environment's
``human`` mode. pygame is loaded when the first picture is shown."""

from __future__ import annotations

from typing import Any

import numpy as np


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

"""Buttons that never share a click.

A :class:`PressButton` runs its action when the left button is released over it *and* the press
began over it, while it was being listened to. So one click is one button: a button that
appears (or becomes active) under the pointer between the press and the release does not fire,
and a press that began on an earlier screen does nothing on the next one (its buttons never saw
it). Drawing is :class:`sliders.scenes.draw.Button`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from sliders.scenes import draw


@dataclass
class PressButton(draw.Button):
    """A :class:`~sliders.scenes.draw.Button` that fires only for a click that began on it."""

    pressed: bool = False

    def handle(self, event: pygame.event.Event) -> bool:
        """Take one event; True when it pressed this button (its action has run)."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.pressed = self.enabled and self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            fire = self.pressed and self.enabled and self.rect.collidepoint(event.pos)
            self.pressed = False
            if fire:
                self.action()
            return fire
        return False

    def forget(self) -> None:
        """Drop a press in progress (the button is no longer listened to)."""
        self.pressed = False

"""Hit sounds: short clicks synthesised with numpy, louder for harder hits.

Without an audio device (``SDL_AUDIODRIVER=dummy`` or a mixer that will not start) the game is
silent and nothing fails.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pygame

SAMPLE_RATE = 44100


def click_wave(
    freq: float, seconds: float = 0.045, rate: int = SAMPLE_RATE, seed: int = 0
) -> np.ndarray:
    """A click: a decaying tone with a burst of noise at its start, values in -1..1."""
    n = int(rate * seconds)
    t = np.arange(n) / rate
    envelope = np.exp(-t / (seconds / 5))
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal(n) * np.exp(-t / (seconds / 25))
    wave = 0.7 * np.sin(2 * np.pi * freq * t) * envelope + 0.3 * noise
    return np.clip(wave / np.max(np.abs(wave)), -1.0, 1.0)


class Sounds:
    """The clicks of pawn-pawn and pawn-rail hits; silent when there is no audio."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = False
        self._pawn: pygame.mixer.Sound | None = None
        self._rail: pygame.mixer.Sound | None = None
        if not enabled:
            return
        try:
            with native_stderr_silenced():  # a machine without a sound card: ALSA's complaints
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=2)
            init = pygame.mixer.get_init()
            if not init:
                return
            rate, _, channels = init
            self._pawn = _sound(click_wave(2400, rate=rate, seed=1), channels)
            self._rail = _sound(click_wave(700, 0.06, rate=rate, seed=2), channels)
            pygame.mixer.set_num_channels(16)
            self.enabled = True
        except (pygame.error, ValueError, TypeError):
            self.enabled = False

    def hit(self, impulse: float, rail: bool = False) -> None:
        """Play a click for a contact of ``impulse`` N·s (louder for harder hits)."""
        sound = self._rail if rail else self._pawn
        if not self.enabled or sound is None:
            return
        try:
            channel = sound.play()
            if channel is not None:
                channel.set_volume(min(0.15 + impulse / 0.02, 1.0))
        except pygame.error:
            pass

    def close(self) -> None:
        if self.enabled:
            try:
                pygame.mixer.quit()
            except pygame.error:
                pass
        self.enabled = False


def _sound(wave: np.ndarray, channels: int) -> pygame.mixer.Sound:
    samples = (wave * 0.6 * 32767).astype(np.int16)
    if channels > 1:
        samples = np.repeat(samples[:, None], channels, axis=1)
    return pygame.sndarray.make_sound(np.ascontiguousarray(samples))


@contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Send what C libraries write to file descriptor 2 to /dev/null for the duration.

    The audio libraries print their own diagnostics when no device opens; the game is then silent,
    as documented, and the terminal should not fill with them.
    """
    try:
        fd = sys.__stderr__.fileno() if sys.__stderr__ else 2
        sys.stderr.flush()
        saved = os.dup(fd)
    except (OSError, ValueError):
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)
        os.close(devnull)

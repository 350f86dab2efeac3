"""Execution noise: a shot as intended and the shot a hand actually makes.

A shot is intended as (release, offset, angle, speed). The executed shot draws independent Gaussian
errors: speed is scaled by (1 + N(0, speed_rel)), the angle moves by N(0, angle_deg) degrees, the
offset by N(0, offset) metres and the release point by N(0, release) metres. Draws come only from
the generator passed in, so a seed fixes them. Executed values are clipped to the shot's legal
ranges (:mod:`sliders.physics.limits`): speed, angle, offset within the lane, release.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass

import numpy as np

from sliders.boards import Seat
from sliders.core.errors import UserError
from sliders.core.outcome import Shot
from sliders.physics.limits import ShotLimits
from sliders.physics.params import PhysicsParams


@dataclass(frozen=True, slots=True)
class Noise:
    """Standard deviations of execution errors."""

    speed_rel: float = 0.0
    """relative speed error (0.05: 5 % of the intended speed)"""
    angle_deg: float = 0.0
    """angle error, degrees"""
    offset: float = 0.0
    """sideways release error, m"""
    release: float = 0.0
    """release-distance error along the lane, m"""

    @classmethod
    def level(cls, name: str) -> Noise:
        try:
            return NOISE_LEVELS[name]
        except KeyError:
            raise UserError(
                f"unknown noise level {name!r} (choose from {', '.join(NOISE_LEVELS)})"
            ) from None

    @classmethod
    def hand(cls, text: str) -> Noise:
        """A hand: a noise level by name, or a number ``k`` in 0..10, ``k`` times the ``medium``
        level's noise (``1.5``: half as shaky again)."""
        if text in NOISE_LEVELS:
            return NOISE_LEVELS[text]
        try:
            k = float(text)
        except ValueError:
            k = math.nan
        if not (math.isfinite(k) and 0 <= k <= 10):
            raise UserError(
                f"unknown hand {text!r} ({', '.join(NOISE_LEVELS)}, or a multiple of the medium "
                "hand's noise within 0..10)"
            )
        m = NOISE_LEVELS["medium"]
        return cls(m.speed_rel * k, m.angle_deg * k, m.offset * k, m.release * k)

    @property
    def is_zero(self) -> bool:
        return not (self.speed_rel or self.angle_deg or self.offset or self.release)

    def check(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real):  # "2" from a file
                raise UserError(f"noise {f.name} must be a finite number >= 0, got {v!r}")
            if not (math.isfinite(v) and float(v) >= 0):
                raise UserError(f"noise {f.name} must be a finite number >= 0, got {v}")

    @classmethod
    def from_json(cls, data: object) -> Noise:
        """The noise a file recorded (:func:`dataclasses.asdict`'s fields), checked: a
        :class:`UserError` naming the first field that is unknown or not a number >= 0."""
        if not isinstance(data, dict):
            raise UserError(f"noise must be a table of sigmas, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise UserError(f"noise has an unknown field {unknown[0]!r}")
        noise = cls(**data)
        noise.check()
        return noise

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` rows of standard errors (speed factor - 1, angle rad, offset m, release m)."""
        z = rng.standard_normal((n, 4))
        scale = np.array([self.speed_rel, math.radians(self.angle_deg), self.offset, self.release])
        errors: np.ndarray = z * scale
        return errors

    def execute(
        self, shot: Shot, rng: np.random.Generator, seat: Seat, params: PhysicsParams
    ) -> Shot:
        """One executed version of the intended ``shot`` from ``seat``."""
        (e,) = self.draw(rng, 1)
        return apply_errors(shot, e, seat, params)


def apply_errors(shot: Shot, e: np.ndarray, seat: Seat, params: PhysicsParams) -> Shot:
    """The shot with errors ``e`` = (speed factor - 1, angle, offset, release) added, clipped to
    the legal ranges of a shot from ``seat`` (:class:`~sliders.physics.limits.ShotLimits`): a
    release moves only when it has an error, and one pushed past the foul line stays there (it
    is a foul)."""
    limits = ShotLimits.of(seat, params)
    release = shot.release
    if e[3]:
        base = seat.foul if release is None else release
        release = limits.clip_release(base + float(e[3]), foul=True)
    return dataclasses.replace(
        shot,
        speed=limits.clip_speed(shot.speed * (1.0 + float(e[0]))),
        angle=limits.clip_angle(shot.angle + float(e[1])),
        offset=limits.clip_offset(shot.offset + float(e[2])),
        release=release,
    )


NOISE_LEVELS: dict[str, Noise] = {
    "none": Noise(),
    "low": Noise(speed_rel=0.03, angle_deg=1.0, offset=0.003),
    "medium": Noise(speed_rel=0.06, angle_deg=2.0, offset=0.006),
    "high": Noise(speed_rel=0.12, angle_deg=4.0, offset=0.012),
}
"""Named levels: ``medium`` is a careful adult, ``high`` a child's flick."""

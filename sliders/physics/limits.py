"""A shot's legal ranges: the one definition every entry checks or clips a shot against.

A shot from a seat is legal when its speed is within [``MIN_SPEED``, ``max_speed``] m/s, its angle
within ±``MAX_ANGLE_DEG``° of the lane's axis, its pawn inside the lane (``|offset|`` at most half
the lane's width less a pawn radius) and its release point at least a pawn radius down the lane
from its near end. A release beyond the foul line is a foul, not an error: the physics slides it
and reports the foul (the point must still be on the seat's lane, which only the table can tell).

The physics refuses what is outside these ranges; the command line and the batch grids refuse it
with the flag's name; the execution noise, the window's hand and programs' shots are clipped into
them (:meth:`ShotLimits.clip`). Angles are radians inside, degrees in messages.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sliders.boards import Layout, Seat
from sliders.core.errors import UserError
from sliders.core.outcome import Shot
from sliders.physics.params import PhysicsParams

MIN_SPEED = 1e-3
"""the slowest shot, m/s (a pawn at this speed stops within a micrometre)"""
MAX_ANGLE_DEG = 89.0
"""the widest aim off the lane's axis, degrees, either side"""
MAX_ANGLE = math.radians(MAX_ANGLE_DEG)
"""the widest aim off the lane's axis, radians"""
TOLERANCE = 1e-12
"""rounding (m, rad) a bound is allowed when a value is checked (never when it is clipped)"""

QUANTITIES = ("speed", "angle", "offset", "release")
"""the four numbers of a shot, in the order the arrays and the batch's rows hold them"""


def shot_limits(layout: Layout, seat: str | Seat, params: PhysicsParams) -> ShotLimits:
    """The legal ranges of a shot from ``seat`` (a name of ``layout``'s seats, or the seat)."""
    lane = layout.seat(seat) if isinstance(seat, str) else seat
    return ShotLimits.of(lane, params)


@dataclass(frozen=True, slots=True)
class ShotLimits:
    """The legal ranges of one seat's shots for one pawn size and speed limit."""

    seat: str
    min_speed: float
    max_speed: float
    max_angle: float
    """radians, either side of the lane's axis"""
    max_offset: float
    """metres either side of the lane's axis (negative: the pawn is wider than the lane)"""
    min_release: float
    """metres from the lane's near end"""
    foul: float
    """the foul line, metres from the lane's near end: a release beyond it is a foul"""
    pawn_radius: float
    lane_width: float

    @classmethod
    def of(cls, seat: Seat, params: PhysicsParams) -> ShotLimits:
        """The limits of ``seat``'s shots with ``params``, worked out once for the same seat and
        parameters (every shot of a game asks)."""
        key = (id(seat), id(params))
        known = _KNOWN.get(key)
        if known is None or known[0] is not seat or known[1] is not params:
            if len(_KNOWN) >= 256:
                _KNOWN.clear()
            known = _KNOWN[key] = (seat, params, cls._of(seat, params))
        return known[2]

    @classmethod
    def _of(cls, seat: Seat, params: PhysicsParams) -> ShotLimits:
        r = params.pawn_radius
        return cls(
            seat=seat.name,
            min_speed=MIN_SPEED,
            max_speed=params.max_speed,
            max_angle=MAX_ANGLE,
            max_offset=seat.width / 2 - r,
            min_release=seat.release_min + r,
            foul=seat.foul,
            pawn_radius=r,
            lane_width=seat.width,
        )

    def bounds(self, quantity: str) -> tuple[float, float]:
        """(lowest, highest) legal value of ``quantity`` (one of :data:`QUANTITIES`); a release
        runs from the nearest legal point to the foul line (beyond it: a foul)."""
        if quantity == "speed":
            return self.min_speed, self.max_speed
        if quantity == "angle":
            return -self.max_angle, self.max_angle
        if quantity == "offset":
            return -self.max_offset, self.max_offset
        if quantity == "release":
            return self.min_release, self.foul
        raise ValueError(f"unknown quantity {quantity!r} (one of {', '.join(QUANTITIES)})")

    # -- checking ----------------------------------------------------------------------------------

    def refusal(
        self, quantity: str, lo: float, hi: float | None = None, label: str = ""
    ) -> str | None:
        """Why values of ``quantity`` from ``lo`` to ``hi`` (one value when ``hi`` is None) are
        not all legal, or None when they are. ``label`` names them in the message (default: the
        quantity and the values); angles are radians. A release is checked only against the
        near end of the lane (beyond the foul line is a foul, not an error)."""
        single = hi is None
        hi = lo if hi is None else hi
        finite = math.isfinite(lo) and math.isfinite(hi)

        def named() -> str:  # the values as the message names them (only a refusal has one)
            return f"{label or quantity} {_shown(quantity, lo, None if single else hi)}"

        if quantity == "speed":
            if not (finite and self.min_speed <= lo and hi <= self.max_speed):
                return (
                    f"{named()} m/s is impossible (a flick is from {self.min_speed:g} to "
                    f"{self.max_speed:g} m/s)"
                )
        elif quantity == "angle":
            if not (
                finite and -self.max_angle - TOLERANCE <= lo and hi <= self.max_angle + TOLERANCE
            ):
                return f"{named()}° is impossible (within ±{math.degrees(self.max_angle):g}°)"
        elif quantity == "offset":
            if self.max_offset < 0:
                return (
                    f"a pawn of radius {self.pawn_radius:g} m is wider than {self.seat}'s lane "
                    f"({self.lane_width:g} m)"
                )
            limit = self.max_offset + TOLERANCE
            if not (finite and -limit <= lo and hi <= limit):
                return (
                    f"{named()} m puts the pawn outside the track (at most "
                    f"±{self.max_offset:.4f} m)"
                )
        elif quantity == "release":
            if not (finite and lo >= self.min_release - TOLERANCE):
                return (
                    f"{named()} m is behind the start of the lane (at least {self.min_release:g} m)"
                )
        else:
            raise ValueError(f"unknown quantity {quantity!r} (one of {', '.join(QUANTITIES)})")
        return None

    def check(self, shot: Shot) -> float:
        """The release point of ``shot`` (metres down the lane; the foul line when it has none);
        a UserError naming the first quantity outside its range."""
        release = self.foul if shot.release is None else shot.release
        for quantity, value in zip(
            QUANTITIES, (shot.speed, shot.angle, shot.offset, release), strict=True
        ):
            why = self.refusal(quantity, value)
            if why:
                raise UserError(why)
        return release

    def check_arrays(
        self, speed: np.ndarray, angle: np.ndarray, offset: np.ndarray, release: np.ndarray
    ) -> None:
        """:meth:`check` for many shots at once (releases given, NaN is not one); the message
        names the first value refused."""
        for quantity, values in zip(QUANTITIES, (speed, angle, offset, release), strict=True):
            v = np.asarray(values, dtype=np.float64).reshape(-1)
            if not len(v):
                continue
            bad = v[~np.isfinite(v)]
            for x in [float(bad[0])] if len(bad) else [float(v.min()), float(v.max())]:
                why = self.refusal(quantity, x)
                if why:
                    raise UserError(why)

    def check_ranges(
        self, ranges: Mapping[str, float | tuple[float, float] | None], prefix: str = "--"
    ) -> None:
        """Refuse a value, or a (lo, hi) range of a grid, that leaves a quantity's legal range,
        the message naming it as a flag (``--speed 0.5..3.5 m/s is impossible ...``); angles in
        degrees; a quantity absent or None is not checked."""
        for quantity in QUANTITIES:
            given = ranges.get(quantity)
            if given is None:
                continue
            lo, hi = given if isinstance(given, tuple) else (given, None)
            if quantity == "angle":
                lo, hi = math.radians(lo), None if hi is None else math.radians(hi)
            why = self.refusal(quantity, lo, hi, label=prefix + quantity)
            if why:
                raise UserError(why)

    # -- clipping ----------------------------------------------------------------------------------

    def clip(self, shot: Shot, *, foul: bool = False) -> Shot:
        """``shot`` moved to the nearest legal one. The release stays None (the foul line) when
        it is None; with ``foul`` a release beyond the foul line stays there (a foul), else it
        comes back to the line."""
        release = shot.release
        if release is not None:
            release = self.clip_release(release, foul=foul)
        return dataclasses.replace(
            shot,
            speed=_clip(shot.speed, self.min_speed, self.max_speed),
            angle=_clip(shot.angle, -self.max_angle, self.max_angle),
            offset=self.clip_offset(shot.offset),
            release=release,
        )

    def clip_speed(self, speed: float) -> float:
        return _clip(speed, self.min_speed, self.max_speed)

    def clip_angle(self, angle: float) -> float:
        return _clip(angle, -self.max_angle, self.max_angle)

    def clip_offset(self, offset: float) -> float:
        limit = max(self.max_offset, 0.0)
        return _clip(offset, -limit, limit)

    def clip_release(self, release: float, *, foul: bool = False) -> float:
        """The release nearest ``release`` no nearer the lane's end than allowed; with ``foul``
        one beyond the foul line stays beyond it, else it comes back to the line."""
        return (
            max(release, self.min_release) if foul else _clip(release, self.min_release, self.foul)
        )

    def clip_arrays(
        self, speed: np.ndarray, angle: np.ndarray, offset: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Speeds, angles and offsets of many shots clipped as :meth:`clip` clips one."""
        limit = max(self.max_offset, 0.0)
        return (
            np.clip(speed, self.min_speed, self.max_speed),
            np.clip(angle, -self.max_angle, self.max_angle),
            np.clip(offset, -limit, limit),
        )


_KNOWN: dict[tuple[int, int], tuple[Seat, PhysicsParams, ShotLimits]] = {}
"""the limits worked out, by the ids of their seat and parameters (kept with them, so that an id
used again by other objects is not taken for theirs)"""


def _clip(value: float, lo: float, hi: float) -> float:
    return min(max(value, lo), hi)


def _shown(quantity: str, lo: float, hi: float | None) -> str:
    """``lo`` (or ``lo..hi``) as a message shows it: angles in degrees."""
    to = math.degrees if quantity == "angle" else float
    return f"{to(lo):g}" if hi is None else f"{to(lo):g}..{to(hi):g}"

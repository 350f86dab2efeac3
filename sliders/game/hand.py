"""Your own hand: the execution noise of a person's slides, fitted from drill attempts where the
target is known, kept in the user's data directory and played as the hand ``me``.

The fit is :func:`sliders.lab.handfit.fit_hand`. An **attempt** is a pair of shots: the one that sends the pawn exactly to the drill's target (the
intended shot, found without noise) and the one the person slid. Its errors are the shot
model's (:mod:`sliders.physics.noise`): the relative speed error ``slid / intended − 1`` and the
angle error ``slid − intended`` (degrees). From ``n`` attempts the fit gives, for each:

- the **bias** (the mean error: a person who slides 4 % too hard every time has a bias of
  +0.04), with its interval from Student's t;
- the **spread** (the standard deviation around the bias: the hand's noise), with its interval
  from the chi-square law of ``(n − 1) s² / σ²``.

The hand played as ``me`` (``sliders best --hand me``, ``--noise me``, a ``cpu:me`` computer) is
:class:`~sliders.physics.Noise` with the fitted spreads, and the ``medium`` hand's offset and
release errors (drills at a fixed release measure neither). A bias is shown to the person (to
correct) and kept in the file, but not played: the shot model has no bias.

The file is ``$XDG_DATA_HOME/sliders/hand.json`` (``~/.local/share/sliders/hand.json`` without
it), written whole or not at all.

The same numbers follow you through practice: each shot told in a line as your hand made it
(:func:`slide_words`: ``your flick: 0.62 m/s, 2.0° left of your aim``), and each drill's
spread (:class:`Spread`, the fit's spreads over that drill's attempts) kept in ``spreads.json``
beside it, so you see yourself improve (:func:`progress_words`). The coach judges a person's
chance of winning with their measured hand (:func:`person_noise`).
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_json_atomic
from sliders.physics import NOISE_LEVELS, Noise, Shot

HAND_FILE = "hand.json"
MIN_ATTEMPTS = 5
"""the fewest attempts a hand is fitted from"""


def data_dir() -> Path:
    """The user's data directory for sliders: ``$XDG_DATA_HOME/sliders``, or
    ``~/.local/share/sliders`` when it is unset or not absolute (as the XDG spec says)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "sliders"


@dataclass(frozen=True, slots=True)
class Estimate:
    """A fitted quantity with its interval."""

    value: float
    lo: float
    hi: float


@dataclass(frozen=True, slots=True)
class HandFit:
    """A person's hand fitted from ``n`` attempts (speed relative, angle in degrees)."""

    n: int
    speed_spread: Estimate
    angle_spread: Estimate
    speed_bias: Estimate
    angle_bias: Estimate

    @property
    def noise(self) -> Noise:
        """The hand as played: the fitted spreads, the ``medium`` hand's offset and release."""
        m = NOISE_LEVELS["medium"]
        return Noise(self.speed_spread.value, self.angle_spread.value, m.offset, m.release)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "sorry-sliders-hand", "schema": 1, **asdict(self)}

    @classmethod
    def from_json(cls, data: object, where: str) -> HandFit:
        try:
            assert isinstance(data, dict) and data.get("kind") == "sorry-sliders-hand"

            def est(key: str) -> Estimate:
                e = data[key]
                out = Estimate(float(e["value"]), float(e["lo"]), float(e["hi"]))
                assert all(math.isfinite(v) for v in (out.value, out.lo, out.hi))
                return out

            fit = cls(
                int(data["n"]),
                est("speed_spread"),
                est("angle_spread"),
                est("speed_bias"),
                est("angle_bias"),
            )
            fit.noise.check()
            return fit
        except (AssertionError, KeyError, TypeError, ValueError, UserError):
            raise UserError(f"{where}: not a hand file sliders wrote") from None

    def describe(self) -> str:
        """Plain words: each spread and bias with its interval, and the computer hand it is
        closest to."""
        s, a = self.speed_spread, self.angle_spread
        sb, ab = self.speed_bias, self.angle_bias
        return (
            f"from {self.n} attempts: speed spread {s.value:.1%} ({s.lo:.1%}..{s.hi:.1%}), "
            f"about as steady as the {closest_level(s.value, 'speed_rel')} hand's; "
            f"angle spread {a.value:.2f}° ({a.lo:.2f}..{a.hi:.2f}), about as steady as the "
            f"{closest_level(a.value, 'angle_deg')} hand's; bias {sb.value:+.1%} speed "
            f"({sb.lo:+.1%}..{sb.hi:+.1%}), {ab.value:+.2f}° angle ({ab.lo:+.2f}..{ab.hi:+.2f})"
        )


def closest_level(value: float, field: str) -> str:
    """The computer hand (noise level, ``none`` left out) whose ``field`` is nearest ``value``
    (on a log scale)."""
    levels = {k: getattr(v, field) for k, v in NOISE_LEVELS.items() if getattr(v, field) > 0}
    v = max(value, 1e-9)
    return min(levels, key=lambda k: abs(math.log(v / levels[k])))


def hand_path() -> Path:
    return data_dir() / HAND_FILE


def save_hand(fit: HandFit, path: str | os.PathLike[str] | None = None) -> Path:
    """Keep the fitted hand (default: in the data directory), whole or not at all."""
    target = Path(path) if path is not None else hand_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(target, fit.to_json())
    return target


def load_hand(path: str | os.PathLike[str] | None = None) -> HandFit:
    """The hand kept (default: in the data directory); a clear error when there is none."""
    target = Path(path) if path is not None else hand_path()
    if not target.exists():
        raise UserError(
            f"no measured hand yet ({target}): play the centre or hole drills, then "
            "sliders drills --fit-hand (see docs/coach.md)"
        )
    return HandFit.from_json(read_json(target, "hand file"), str(target))


def person_noise(handicap: str | None = None) -> Noise:
    """The spread a person's shots are judged with (the coach's chance of winning, a review):
    the noise level of a ``handicap`` they chose (a noise level's name other than ``none``);
    else their own, as measured (:func:`load_hand`: the drills' numbers); else, before any is
    measured, the ``medium`` computer's."""
    if handicap and handicap != "none":
        return Noise.level(handicap)
    try:
        return load_hand().noise
    except (UserError, OSError):
        return NOISE_LEVELS["medium"]


def parse_hand(text: str) -> Noise:
    """A hand by name: ``me`` (the measured one), a noise level, or a multiple of the medium
    one (:meth:`~sliders.physics.Noise.hand`)."""
    if text == "me":
        return load_hand().noise
    return Noise.hand(text)


ATTEMPTS_FILE = "attempts.json"
MAX_KEPT = 400
"""the most recent attempts kept for the fit"""


def attempts_path() -> Path:
    return data_dir() / ATTEMPTS_FILE


def kept_attempts(path: str | os.PathLike[str] | None = None) -> list[list[float]]:
    """The attempts kept so far, each [intended speed, intended angle°, slid speed, slid
    angle°]."""
    target = Path(path) if path is not None else attempts_path()
    if not target.exists():
        return []
    data = read_json(target, "attempts file")
    rows = data.get("attempts") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(
        isinstance(r, list)
        and len(r) == 4
        and all(isinstance(v, (int, float)) and math.isfinite(v) for v in r)
        for r in rows
    ):
        raise UserError(f"{target}: not an attempts file sliders wrote")
    return [[float(v) for v in r] for r in rows]


def keep_attempts(
    new: list[tuple[tuple[float, float], tuple[float, float]]],
    path: str | os.PathLike[str] | None = None,
) -> int:
    """Add drill attempts ((intended speed, angle°), (slid speed, angle°)) to those kept (the
    latest :data:`MAX_KEPT`), whole or not at all; the number kept now."""
    target = Path(path) if path is not None else attempts_path()
    rows = kept_attempts(target) + [[*a, *b] for a, b in new]
    rows = rows[-MAX_KEPT:]
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(target, {"kind": "sorry-sliders-attempts", "attempts": rows})
    return len(rows)


def slide_words(control: str, slid: Shot, meant: tuple[float, float] | None) -> str:
    """A shot in a line, as the hand made it: ``"your flick: 0.62 m/s, 2° left of your aim"``.
    ``meant``: (speed m/s or 0 when unknown, angle°) of what the shot aimed at (a drill's
    target, or the board's centre); the speed is compared when it is known."""
    words = f"your {control}: {slid.speed:.2f} m/s"
    if meant is None:
        return words
    speed, angle = meant
    if speed > 0:
        rel = slid.speed / speed - 1
        words += (
            ", the speed it needed"
            if abs(rel) < 0.005
            else f", {abs(rel):.0%} {'harder' if rel > 0 else 'softer'} than it needed"
        )
    off = math.degrees(slid.angle) - angle  # to the shooter's right
    if abs(off) < 0.05:
        return words + ", straight on your aim"
    return words + f", {abs(off):.1f}° {'right' if off > 0 else 'left'} of your aim"


SPREADS_FILE = "spreads.json"
MAX_SPREADS = 500
"""the most recent drills' spreads kept"""


@dataclass(frozen=True, slots=True)
class Spread:
    """Your hand in one drill: the spread (one standard deviation) of its tries' speed
    (relative) and angle (degrees) errors against the shots that reach its target, as the hand
    fit measures them (:func:`sliders.lab.handfit.fit_hand`)."""

    drill: str
    n: int
    speed: float
    angle: float
    when: str = ""
    """the date (ISO 8601, UTC) the drill was played"""

    def describe(self) -> str:
        return f"speed {self.speed:.1%}, angle {self.angle:.2f}°"


def spreads_path() -> Path:
    return data_dir() / SPREADS_FILE


def kept_spreads(path: str | os.PathLike[str] | None = None) -> list[Spread]:
    """Every drill's spread kept so far, oldest first."""
    target = Path(path) if path is not None else spreads_path()
    if not target.exists():
        return []
    data = read_json(target, "spreads file")
    rows = data.get("spreads") if isinstance(data, dict) else None
    try:
        assert isinstance(rows, list)
        out = [
            Spread(
                str(r["drill"]),
                int(r["n"]),
                float(r["speed"]),
                float(r["angle"]),
                str(r.get("when", "")),
            )  # fmt: skip
            for r in rows
        ]
        assert all(math.isfinite(s.speed) and math.isfinite(s.angle) for s in out)
    except (AssertionError, KeyError, TypeError, ValueError):
        raise UserError(f"{target}: not a spreads file sliders wrote") from None
    return out


def keep_spread(spread: Spread, path: str | os.PathLike[str] | None = None) -> list[Spread]:
    """Add a drill's spread to those kept (the latest :data:`MAX_SPREADS`), whole or not at
    all; every one kept now, oldest first."""
    target = Path(path) if path is not None else spreads_path()
    rows = [*kept_spreads(target), spread][-MAX_SPREADS:]
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(
        target, {"kind": "sorry-sliders-spreads", "spreads": [asdict(s) for s in rows]}
    )
    return rows


def progress_words(spreads: list[Spread]) -> str:
    """How your spread has moved: the first drill's against the latest (and the best)."""
    if not spreads:
        return "no drill measured yet"
    first, last = spreads[0], spreads[-1]
    if len(spreads) == 1:
        return f"your spread: {last.describe()} (your first measured drill)"
    best = min(spreads, key=lambda s: s.speed)
    return (
        f"your spread: {last.describe()}; your first drill {first.describe()}, "
        f"your steadiest {best.describe()} ({len(spreads)} drills)"
    )

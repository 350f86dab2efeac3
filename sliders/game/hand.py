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
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_json_atomic
from sliders.physics import NOISE_LEVELS, Noise

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

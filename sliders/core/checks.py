"""Checking what comes in: the one set of helpers every reader of flags and files uses.

Every value that enters from outside — a scene, a layout, a game log, a flag — is checked here for
its type (a real number is an ``int`` or ``float``, never ``true`` or ``"1"``), for being finite
and for lying within a documented physical range; objects are checked for unknown keys. Each
mistake is a :class:`~sliders.core.errors.UserError` of one line that names the file, the field and
what was expected::

    game log g.json: steps[3].shot.pawns[0].x: expected metres within ±10, got 1e+308

The limits below are documented in the README ("Bad input and signals").
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from typing import Any

from sliders.core.errors import UserError
from sliders.core.outcome import PAWNS_PER_PLAYER, SEATS

POSITION_LIMIT = 10.0
"""m: no point of any table lies further than this from the board's centre on either axis (four
tracks of the longest length end to end make about 8.1 m)."""
MAX_TRACK_LENGTH = 2.0
"""m: the longest track a layout file may lay (the physical game's track is 0.38 m)."""
MAX_LAYOUT_TEXT = 2**20
"""characters: the longest layout file (a real one is about a kilobyte); a game log keeps a layout
file's text whole."""
MAX_SPEED = 10.0
"""m/s: the fastest slide a game log may record (a hand flicks at most about 3 m/s)."""
MAX_TIME = 1e4
"""s: the latest time an event of a logged shot may carry."""
MAX_IMPULSE = 1e3
"""N·s: the largest contact impulse a logged event may carry."""
MAX_SEED = 2**128
"""seeds are whole numbers from 0 up to (not including) this."""

MAX_DEPTH = 32
"""how deeply JSON and TOML data may nest (our files nest at most six deep)."""
MAX_INT_DIGITS = 40
"""the most digits a whole number in a file may have (a 128-bit seed has 39)."""

_PAWN_ID = re.compile(r"(south|west|north|east)-([1-9])")
_SEATS = frozenset(SEATS)
_PAWN_IDS = frozenset(f"{s}-{n}" for s in SEATS for n in range(1, PAWNS_PER_PLAYER + 1))


# -- values ---------------------------------------------------------------------------------------


def number(value: Any, where: str, lo: float, hi: float, unit: str = "") -> float:
    """A real number (an int or a float, not a bool or text), finite, within ``lo``..``hi``."""
    if type(value) is float and lo <= value <= hi and -math.inf < value < math.inf:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _expected(where, f"a number{_unit(unit)} within {_range(lo, hi)}", value)
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x) or not lo <= x <= hi:
        raise _expected(where, f"a number{_unit(unit)} within {_range(lo, hi)}", value)
    return x


def whole(value: Any, where: str, lo: int, hi: int) -> int:
    """A whole number (an int, not a bool, a float or text) within ``lo``..``hi``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _expected(where, f"a whole number within {_range(lo, hi)}", value)
    if not lo <= value <= hi:
        raise _expected(where, f"a whole number within {_range(lo, hi)}", value)
    return value


def text(value: Any, where: str, choices: Collection[str] | None = None, limit: int = 4096) -> str:
    """A non-empty string (of at most ``limit`` characters), one of ``choices`` when given."""
    if choices is not None:
        if not isinstance(value, str) or value not in choices:
            raise _expected(where, f"one of {', '.join(choices)}", value)
        return value
    if not isinstance(value, str) or not value or len(value) > limit:
        raise _expected(where, f"text of 1 to {limit} characters", value)
    return value


def seat(value: Any, where: str, seats: Collection[str] = SEATS) -> str:
    """A seat's name, exactly: ``south``, ``west``, ``north`` or ``east``."""
    if type(value) is str and value in _SEATS and value in seats:
        return value
    return text(value, where, tuple(s for s in SEATS if s in seats))


def seat_list(value: Any, where: str) -> tuple[str, ...]:
    """1 to 4 different seat names (in the order given)."""
    items = array(value, where, 1, len(SEATS))
    seats = tuple(seat(s, f"{where}[{i}]") for i, s in enumerate(items))
    if len(set(seats)) != len(seats):
        raise _expected(where, "different seats", value)
    return seats


def pawn_id(value: Any, where: str, seats: Collection[str] = SEATS) -> str:
    """A roller pawn's id, exactly ``SEAT-N`` with N from 1 to 4 (``north-1``; not ``north-01``,
    ``north- 1`` or ``North-1``), of one of ``seats``."""
    if type(value) is str and value in _PAWN_IDS and value[: value.index("-")] in seats:
        return value
    m = _PAWN_ID.fullmatch(value) if isinstance(value, str) else None
    if m is None or int(m.group(2)) > PAWNS_PER_PLAYER or m.group(1) not in seats:
        of = "" if set(seats) >= set(SEATS) else f" of {', '.join(s for s in SEATS if s in seats)}"
        raise _expected(where, f"a pawn id SEAT-N with N from 1 to {PAWNS_PER_PLAYER}{of}", value)
    return m.string


def ascii_whole(word: str) -> int | None:
    """The whole number ``word`` spells in ASCII digits (at most 9), or None (``²``, ``٣``, ``+1``,
    ``1_0`` and ``" 1"`` are not numbers here, though :func:`int` takes some of them)."""
    if 0 < len(word) <= 9 and word.isascii() and word.isdigit():
        return int(word)
    return None


def position(data: Any, where: str) -> tuple[float, float]:
    """``x`` and ``y`` of an object, metres in the world frame, within :data:`POSITION_LIMIT`."""
    lim = POSITION_LIMIT
    return (
        number(data.get("x"), f"{where}.x", -lim, lim, "m"),
        number(data.get("y"), f"{where}.y", -lim, lim, "m"),
    )


# -- structure ------------------------------------------------------------------------------------


def obj(
    value: Any, where: str, allowed: Collection[str], required: Collection[str] = ()
) -> dict[str, Any]:
    """A JSON object (a TOML table) with no key outside ``allowed`` and every key of
    ``required``."""
    if not isinstance(value, dict):
        raise _expected(where, "an object {" + ", ".join(allowed) + "}", value)
    for key in value:
        if key not in allowed:
            raise at(where, f"unknown key {key!r} (known: {', '.join(sorted(allowed))})")
    for key in required:
        if key not in value:
            raise at(where, f"missing field {key!r}")
    return value


def array(value: Any, where: str, lo: int = 0, hi: int = 1_000_000) -> list[Any]:
    """A list of ``lo`` to ``hi`` items."""
    if not isinstance(value, list) or not lo <= len(value) <= hi:
        raise _expected(where, f"a list of {_range(lo, hi)} items", value)
    return value


def tree(data: Any, where: str, depth: int = MAX_DEPTH) -> None:
    """Refuse data nested more than ``depth`` deep, a number that is not finite, or a whole
    number of more than :data:`MAX_INT_DIGITS` digits, naming the field (walked without
    recursion, so any depth is safe)."""
    limit = 10**MAX_INT_DIGITS
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        item, path, level = stack.pop()
        field = f"{where}: {path}" if path else where
        if isinstance(item, dict | list):
            if level > depth:
                raise UserError(f"{field}: nested more than {depth} deep")
            if isinstance(item, dict):
                stack.extend(
                    (v, f"{path}.{k}" if path else str(k), level + 1) for k, v in item.items()
                )
            else:
                stack.extend((v, f"{path}[{i}]", level + 1) for i, v in enumerate(item))
        elif isinstance(item, TooLong) or (
            isinstance(item, int) and not isinstance(item, bool) and abs(item) >= limit
        ):
            raise UserError(
                f"{field}: expected a whole number of at most {MAX_INT_DIGITS} digits, got a "
                "longer one"
            )
        elif isinstance(item, float) and not math.isfinite(item):
            raise UserError(f"{field}: expected a finite number, got {item}")


class TooLong:
    """A whole number in a file with too many digits to convert (see :func:`tree`)."""

    __slots__ = ()


# -- messages -------------------------------------------------------------------------------------


def shown(value: Any, limit: int = 40) -> str:
    """``value`` as a short one-line repr for an error message."""
    if isinstance(value, float):
        text_ = f"{value:g}"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        text_ = f"a number of more than {limit} digits"
    elif isinstance(value, dict):
        text_ = "an object"
    elif isinstance(value, list):
        text_ = f"a list of {len(value)}"
    else:
        text_ = repr(value)
    text_ = " ".join(text_.split())
    return text_ if len(text_) <= limit else text_[: limit - 1] + "…"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for one (``1 track``, ``6 slides``, ``0 slides``);
    ``plural`` when it is not the noun with ``s``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def at(where: str, message: str) -> UserError:
    """A :class:`UserError` for ``message`` about the field ``where`` (none: the whole file)."""
    return UserError(f"{where}: {message}" if where else message)


def _expected(where: str, what: str, value: Any) -> UserError:
    return at(where, f"expected {what}, got {shown(value)}")


def _unit(unit: str) -> str:
    return f" ({unit})" if unit else ""


def _range(lo: float, hi: float) -> str:
    if isinstance(lo, float) and isinstance(hi, float) and lo == -hi:
        return f"±{hi:g}"
    if isinstance(lo, int) and isinstance(hi, int):
        if hi >= 2**20 and hi & (hi - 1) == 0:
            return f"{lo}..2^{hi.bit_length() - 1}"
        if hi >= 2**20 and hi & (hi + 1) == 0:
            return f"{lo}..2^{hi.bit_length()}-1"
        return f"{lo}..{hi}"
    return f"{lo:g}..{hi:g}"

"""What a game in the window is set up with: the face, the layout and who sits where.

Plain data, no pygame: the setup screen and the ``sliders play`` flags both produce a
:class:`MatchConfig`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sliders.ai import MINDS, PRESETS, STRENGTHS, Strength, make_strength
from sliders.core.errors import UserError
from sliders.core.outcome import FACES, SEATS
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout, read_layout
from sliders.game.hand import parse_hand
from sliders.physics import PhysicsParams
from sliders.rules import parse_house, parse_seat

DEFAULT_STRENGTH = "medium"
HANDS: dict[str, str] = {"exact": "none", "steady": "low", "normal": "medium", "shaky": "high"}
"""a person's hand: ``exact`` (the default) slides the shot their hand made, nothing added; the
others are a handicap a person may choose, a computer's noise model added to each of their
slides (:data:`sliders.physics.NOISE_LEVELS`; ``normal`` is the ``medium`` computer's hand),
recorded in the game's log"""
DEFAULT_HAND = "exact"


@dataclass(frozen=True, slots=True)
class Meter:
    """How hard the aim control's power meter is: ``period`` seconds for the marker to rise
    from nothing to full and fall back; the aim line drawn ``line`` of the way to the board's
    far edge."""

    period: float
    line: float


METERS: dict[str, Meter] = {
    "slow": Meter(1.6, 1.0),
    "normal": Meter(1.0, 1.0),
    "fast": Meter(0.7, 0.5),
}
"""the aim control's difficulties: the meter's speed and how far the aim line is drawn"""
DEFAULT_METER = "normal"
DEFAULT_LAYOUT = "square"
COMPUTER_KEYS = ("hand", "mind")
"""the settings of a computer seat besides its strength"""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat in play: a person at the screen, or the computer with a strength: a preset
    (``hard``) or a hand and a mind (``hand=low,mind=strong``), as :func:`parse_computer` reads
    it."""

    seat: str
    kind: str = "human"  # "human" or "cpu"
    strength: str = DEFAULT_STRENGTH

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def level(self) -> Strength:
        """The computer's hand and mind."""
        return parse_computer(self.strength)

    def describe(self) -> str:
        if self.human:
            return "human"
        level = self.level()
        if level.name in STRENGTHS:
            return f"computer ({level.name})"
        return f"computer (hand {level.hand_name}, mind {level.mind.name})"


def parse_computer(text: str, where: str = "") -> Strength:
    """A computer's strength from what follows ``cpu:`` — a preset (``easy``, ``medium``,
    ``hard``), ``hand=LEVEL`` (``none``, ``low``, ``medium``, ``high``: the batch's noise
    levels, or a number: that many times the ``medium`` hand's noise), ``mind=NAME`` (``weak``,
    ``fair``, ``strong``, ``classic``), or several of them separated by commas or colons, later
    ones overriding (``hard,mind=fair``); a second bare word is a hand (``easy:low``, ``easy:1.5``:
    the strength's mind with that hand). What is left unset
    comes from the ``medium`` preset; an empty text is ``medium``. ``where`` prefixes errors."""

    prefix = f"{where}: " if where else ""
    hand, mind = PRESETS[DEFAULT_STRENGTH]
    preset: str | None = DEFAULT_STRENGTH
    bare = 0  # words without "=": a strength, then (STRENGTH:HAND) its hand
    for part in (p.strip().lower() for p in re.split(r"[,:]", text)):
        if not part:
            continue
        key, eq, value = (x.strip() for x in part.partition("="))
        if not eq and bare == 1:
            key, value, eq = "hand", key, "="
        if not eq and key == "me":  # your own measured hand, the medium mind unless one is named
            key, value, eq = "hand", key, "="
        if not eq:
            bare += 1
            if key not in STRENGTHS:
                raise UserError(
                    f"{prefix}unknown strength {key!r} ({', '.join(STRENGTHS)}, or "
                    "hand=LEVEL,mind=NAME)"
                )
            (hand, mind), preset = PRESETS[key], key
        elif key == "hand":
            bare = 2
            try:
                parse_hand(value)
            except UserError as err:
                raise UserError(f"{prefix}{err}") from None
            hand, preset = value, None
        elif key == "mind":
            if value not in MINDS:
                raise UserError(f"{prefix}unknown mind {value!r} (choose from {', '.join(MINDS)})")
            mind, preset = value, None
        else:
            raise UserError(f"{prefix}unknown computer setting {key!r} (hand or mind)")
    if preset is None:
        preset = next((n for n, hm in PRESETS.items() if hm == (hand, mind)), None)
    if preset is not None:
        return STRENGTHS[preset]
    if hand == "me":
        return Strength(f"hand=me,mind={mind}", parse_hand("me"), MINDS[mind], "me")
    return make_strength(hand, mind)


def split_items(text: str) -> list[str]:
    """``text`` split at its commas, a ``hand=``/``mind=`` item staying with the computer before
    it: ``south=cpu:hand=low,mind=strong,north=human`` is two seats."""

    items: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        key = item.partition("=")[0].strip().lower()
        if key in COMPUTER_KEYS and items:
            items[-1] = f"{items[-1]},{item}"
        else:
            items.append(item)
    return items


@dataclass(frozen=True, slots=True)
class MatchConfig:
    face: str
    layout: str
    seats: tuple[SeatSpec, ...]
    seed: int | None = None
    starter: str | None = None
    engine: str | None = None  # the physics engine (None: the default)
    hand: str = DEFAULT_HAND
    """the hand of every person at the table (:data:`HANDS`)"""
    params: PhysicsParams | None = None
    """the physics parameters (``--params FILE``, ``--param``; None: the defaults), recorded in
    the game log where they differ from the defaults"""
    house: tuple[str, ...] = ()
    """the house rules played (``--house-rule``, :mod:`sliders.rules.house`; none: the
    rulebook's), recorded in the game log"""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.seat for s in self.seats)

    def spec(self, seat: str) -> SeatSpec:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)


def config_from_flags(
    face: str | None = None,
    layout: str | None = None,
    seats: str | None = None,
    seed: int | None = None,
    engine: str | None = None,
    hand: str | None = None,
    params: PhysicsParams | None = None,
    house: Sequence[str] = (),
) -> MatchConfig:
    """The game ``sliders play --face --layout --seats --seed --engine --hand --params`` asks
    for. Left out: the layout is the square; the seats are the layout's default seats (see
    :func:`default_seat_specs`); the face is the one the layout is played with; the engine and
    the physics parameters are the default ones."""

    layout = layout or DEFAULT_LAYOUT
    spec = read_layout(layout)  # a bad name or file fails here, in one line
    specs = parse_seat_specs(seats) if seats else default_seat_specs(layout)
    return MatchConfig(
        check_face(face or spec.face),
        layout,
        specs,
        seed,
        engine=engine,
        hand=check_hand(hand or DEFAULT_HAND),
        params=params,
        house=parse_house(house),
    )


def default_seat_specs(layout: str) -> tuple[SeatSpec, ...]:
    """Who sits where when only the layout is chosen: the layout's own default seats (the one
    place that decides them is the layout file's ``default_seats``, which ``shot``, ``render``
    and ``batch`` use too), the first a person and the others the computer."""

    seats = read_layout(layout).default_seats
    return tuple(
        SeatSpec(s) if i == 0 else SeatSpec(s, "cpu", DEFAULT_STRENGTH) for i, s in enumerate(seats)
    )


def parse_seat_specs(text: str) -> tuple[SeatSpec, ...]:
    """Seats from ``south=human,north=cpu:hard`` or ``north=cpu:hand=low,mind=strong`` (seat
    names or colours; a bare seat is a person; ``cpu`` alone is the medium strength; see
    :func:`parse_computer`), in turn order."""

    specs: dict[str, SeatSpec] = {}
    for item in split_items(text):
        if not item:
            continue
        name, _, who = item.partition("=")
        try:
            seat = parse_seat(name)
        except UserError:
            raise UserError(
                f"--seats {item!r}: unknown seat {name!r} ({', '.join(SEATS)})"
            ) from None
        if seat in specs:
            raise UserError(f"--seats: seat {seat} given twice")
        kind, _, level = (who.strip().lower() or "human").partition(":")
        if kind in ("human", "person", "me"):
            if level:
                raise UserError(f"--seats {item!r}: a person has no strength")
            specs[seat] = SeatSpec(seat, "human")
        elif kind in ("cpu", "computer", "ai"):
            level = level.strip() or DEFAULT_STRENGTH
            parse_computer(level, f"--seats {item!r}")
            specs[seat] = SeatSpec(seat, "cpu", level)
        else:
            raise UserError(
                f"--seats {item!r}: expected SEAT=human, SEAT=cpu[:STRENGTH] or "
                "SEAT=cpu:hand=LEVEL,mind=NAME"
            )
    if not specs:
        raise UserError("--seats: no seats given")
    return tuple(specs[s] for s in SEATS if s in specs)


def check_meter(name: str) -> str:
    """``name`` if it is a meter speed (:data:`METERS`), else one line saying which are."""
    if name not in METERS:
        raise UserError(f"--meter {name!r}: choose from {', '.join(METERS)}")
    return name


def check_hand(name: str) -> str:
    """``name`` if it is a person's hand (:data:`HANDS`), else one line saying which are."""
    if name not in HANDS:
        raise UserError(f"unknown hand {name!r} (choose from {', '.join(HANDS)})")
    return name


def check_face(name: str) -> str:
    if name not in FACES:
        raise UserError(f"unknown face {name!r} (choose from {', '.join(FACES)})")
    return name


def available_layouts() -> tuple[str, ...]:
    """The built-in layout names :func:`sliders.files.layouts.load_layout` offers."""
    return BUILTIN_LAYOUTS


def layout_seats(name: str) -> tuple[str, ...]:
    """The seats a layout can seat: every seat if it takes any choice of them (the square), else
    its own seats."""

    try:
        return load_layout(name, SEATS).seat_names
    except UserError:
        return load_layout(name).seat_names

"""What a game in the window is set up with: the face, the layout and who sits where.

Plain data, no pygame: the setup screen and the ``sliders play`` flags both produce a
:class:`MatchConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sliders.ai import STRENGTHS
from sliders.errors import UserError
from sliders.outcome import FACES, SEATS

DEFAULT_STRENGTH = "medium"
DEFAULT_LAYOUT = "square"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat in play: a person at the screen, or the computer with a strength."""

    seat: str
    kind: str = "human"  # "human" or "cpu"
    strength: str = DEFAULT_STRENGTH

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def describe(self) -> str:
        return "human" if self.human else f"computer ({self.strength})"


@dataclass(frozen=True, slots=True)
class MatchConfig:
    face: str
    layout: str
    seats: tuple[SeatSpec, ...]
    seed: int | None = None
    starter: str | None = None
    engine: str | None = None  # the physics engine (None: the default)

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
) -> MatchConfig:
    """The game ``sliders play --face --layout --seats --seed --engine`` asks for. Left out: the
    layout is the square; the seats are the layout's default seats (see
    :func:`default_seat_specs`); the face is the one the layout is played with; the engine is
    the default one."""
    from sliders.boards import read_layout

    layout = layout or DEFAULT_LAYOUT
    spec = read_layout(layout)  # a bad name or file fails here, in one line
    specs = parse_seat_specs(seats) if seats else default_seat_specs(layout)
    return MatchConfig(check_face(face or spec.face), layout, specs, seed, engine=engine)


def default_seat_specs(layout: str) -> tuple[SeatSpec, ...]:
    """Who sits where when only the layout is chosen: the layout's own default seats (the one
    place that decides them is the layout file's ``default_seats``, which ``shot``, ``render``
    and ``batch`` use too), the first a person and the others the computer."""
    from sliders.boards import read_layout

    seats = read_layout(layout).default_seats
    return tuple(
        SeatSpec(s) if i == 0 else SeatSpec(s, "cpu", DEFAULT_STRENGTH) for i, s in enumerate(seats)
    )


def parse_seat_specs(text: str) -> tuple[SeatSpec, ...]:
    """Seats from ``south=human,north=cpu:hard`` (seat names or colours; a bare seat is a
    person; ``cpu`` alone is the medium strength), in turn order."""
    from sliders.rules import parse_seat

    specs: dict[str, SeatSpec] = {}
    for item in (i.strip() for i in text.split(",")):
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
            level = level or DEFAULT_STRENGTH
            if level not in STRENGTHS:
                raise UserError(
                    f"--seats {item!r}: unknown strength {level!r} ({', '.join(STRENGTHS)})"
                )
            specs[seat] = SeatSpec(seat, "cpu", level)
        else:
            raise UserError(f"--seats {item!r}: expected SEAT=human or SEAT=cpu[:STRENGTH]")
    if not specs:
        raise UserError("--seats: no seats given")
    return tuple(specs[s] for s in SEATS if s in specs)


def check_face(name: str) -> str:
    if name not in FACES:
        raise UserError(f"unknown face {name!r} (choose from {', '.join(FACES)})")
    return name


def available_layouts() -> tuple[str, ...]:
    """The built-in layout names :func:`sliders.boards.load_layout` offers."""
    import sliders.boards as boards

    for attr in ("layout_names", "LAYOUTS", "BUILTIN_LAYOUTS"):
        found = getattr(boards, attr, None)
        if found is None:
            continue
        names = found() if callable(found) else found
        return tuple(names)
    return ("square",)


def layout_seats(name: str) -> tuple[str, ...]:
    """The seats a layout can seat: every seat if it takes any choice of them (the square), else
    its own seats."""
    from sliders.boards import load_layout

    try:
        return load_layout(name, SEATS).seat_names
    except UserError:
        return load_layout(name).seat_names

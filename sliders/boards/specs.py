"""The pieces of a layout as a layout file specifies them, before they are placed: a track, a
blocker rail, a seat (:mod:`sliders.files.layouts` reads a file's text into them;
:mod:`sliders.boards.placing` places them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TrackSpec:
    name: str
    length: float
    width: float
    edge: str | None = None
    offset: float = 0.0
    hook: str | None = None
    mouth: tuple[float, float] | None = None
    facing: str | None = None
    when: str | None = None
    unless: str | None = None


@dataclass(frozen=True, slots=True)
class RailSpec:
    label: str
    thickness: float
    edge: str | None = None
    across: str | None = None
    at: float = 0.0
    when: str | None = None
    unless: str | None = None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    track: str | None
    foul: float | None = None


def seats_phrase(counts: tuple[int, ...]) -> str:
    """``1 seat``, ``2 seats``, ``2–4 seats``."""
    return f"{format_counts(counts)} {'seat' if counts == (1,) else 'seats'}"


def format_counts(counts: tuple[int, ...]) -> str:
    """``2–4``, ``1`` or ``1, 3``."""
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(str(c) for c in counts)

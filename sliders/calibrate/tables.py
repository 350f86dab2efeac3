"""The two tables a fit reads, as CSV files.

**Trajectories** (what ``sliders calibrate video`` writes): one row a pawn a frame,
``clip,pawn,t,x,y``: the clip (a video's name, or any label: slides of one clip share their frame
times), the pawn (any label, one a pawn of the clip), the time in seconds and the pawn's centre in
board metres, the origin at the target board's centre, x toward the east edge and y toward the
north edge (the south edge is the one nearest the camera's bottom edge).

**Measurements** (slides measured by hand): one row a slide, ``kind,speed,travel,stop,stop_other``:

- ``slide``: a pawn released at ``speed`` m/s came to rest ``stop`` m further on;
- ``collision``: released at ``speed``, it travelled ``travel`` m to hit a pawn at rest square on;
  the shooter then stopped ``stop`` m past the point of contact, the pawn hit ``stop_other`` m
  from where it stood;
- ``rail``: released at ``speed`` straight at a rail ``travel`` m away, it came back and stopped
  ``stop`` m from the rail.

Every failure is one line naming the file, the row and the column.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

import numpy as np

from sliders.core.errors import UserError
from sliders.core.fileio import read_text, write_text_atomic

TRACK_COLUMNS = ("clip", "pawn", "t", "x", "y")
MEASURE_COLUMNS = ("kind", "speed", "travel", "stop", "stop_other")
KINDS = ("slide", "collision", "rail")


@dataclass(frozen=True)
class Track:
    """One pawn's path in one clip: times (s, increasing) and centres (board metres)."""

    clip: str
    pawn: str
    t: np.ndarray
    x: np.ndarray
    y: np.ndarray


@dataclass(frozen=True)
class Measurement:
    """One row of a measurements table (see the module's documentation)."""

    kind: str
    speed: float
    travel: float
    stop: float
    stop_other: float


def read_table(path: str) -> list[Track] | list[Measurement]:
    """The tracks or the measurements of a CSV file, whichever its header names."""
    text = read_text(path, "table")
    rows = list(csv.reader(io.StringIO(text)))
    rows = [r for r in rows if r and not r[0].lstrip().startswith("#")]
    if not rows:
        raise UserError(f"table {path}: empty")
    header = tuple(c.strip() for c in rows[0])
    if header[: len(TRACK_COLUMNS)] == TRACK_COLUMNS:
        return _tracks(path, rows[1:])
    if header[: len(MEASURE_COLUMNS)] == MEASURE_COLUMNS:
        return _measurements(path, rows[1:])
    raise UserError(
        f"table {path}: header {','.join(header)!r} is neither {','.join(TRACK_COLUMNS)} "
        f"(trajectories) nor {','.join(MEASURE_COLUMNS)} (measurements)"
    )


def _number(path: str, line: int, column: str, text: str, blank: float | None = None) -> float:
    if not text.strip() and blank is not None:
        return blank
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise UserError(f"table {path}, row {line}: {column} {text!r} is not a number")
    return value


def _tracks(path: str, rows: list[list[str]]) -> list[Track]:
    found: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for line, row in enumerate(rows, start=2):
        if len(row) < len(TRACK_COLUMNS):
            raise UserError(f"table {path}, row {line}: expected {','.join(TRACK_COLUMNS)}")
        clip, pawn = row[0].strip(), row[1].strip()
        t, x, y = (
            _number(path, line, c, v) for c, v in zip(TRACK_COLUMNS[2:], row[2:5], strict=True)
        )
        found.setdefault((clip, pawn), []).append((t, x, y))
    tracks = []
    for (clip, pawn), samples in found.items():
        a = np.array(sorted(samples))
        if np.any(np.diff(a[:, 0]) <= 0):
            raise UserError(f"table {path}: pawn {pawn} of clip {clip} has a time twice")
        tracks.append(Track(clip, pawn, a[:, 0], a[:, 1], a[:, 2]))
    return tracks


def _measurements(path: str, rows: list[list[str]]) -> list[Measurement]:
    out = []
    for line, row in enumerate(rows, start=2):
        row = row + [""] * (len(MEASURE_COLUMNS) - len(row))
        kind = row[0].strip()
        if kind not in KINDS:
            raise UserError(f"table {path}, row {line}: kind {kind!r} is not one of {KINDS}")
        speed = _number(path, line, "speed", row[1])
        travel = _number(path, line, "travel", row[2], blank=0.0)
        stop = _number(path, line, "stop", row[3])
        other = _number(path, line, "stop_other", row[4], blank=0.0)
        if speed <= 0 or min(travel, stop, other) < 0:
            raise UserError(f"table {path}, row {line}: speeds > 0 and distances >= 0 only")
        if kind == "collision" and not row[4].strip():
            raise UserError(f"table {path}, row {line}: a collision needs stop_other")
        out.append(Measurement(kind, speed, travel, stop, other))
    return out


def tracks_csv(tracks: list[Track]) -> str:
    """The trajectories table of ``tracks`` (what :func:`read_table` reads back)."""
    lines = [",".join(TRACK_COLUMNS)]
    for tr in tracks:
        for t, x, y in zip(tr.t, tr.x, tr.y, strict=True):
            lines.append(f"{tr.clip},{tr.pawn},{t:.5f},{x:.5f},{y:.5f}")
    return "\n".join(lines) + "\n"


def write_tracks(path: str, tracks: list[Track]) -> None:
    write_text_atomic(path, tracks_csv(tracks))

"""Scene files: a layout, a face and the pawns already on the table, as JSON.

```json
{
  "schema": 1,
  "layout": "square",
  "seats": ["south", "north"],
  "face": "race-for-home",
  "pawns": [{"id": "north-1", "x": 0.0, "y": 0.03}]
}
```

``layout`` is a built-in layout name or a layout file path; ``seats`` lists the seats in play;
``pawns`` are roller pawns standing on the table (ids ``SEAT-N``, N = 1..4, positions in metres in
the world frame: origin at the board centre, +y north). Their statuses follow from where they stand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sliders.boards.faces import FACES, Face, face
from sliders.boards.layout import Layout
from sliders.errors import UserError
from sliders.fileio import read_json, write_json_atomic
from sliders.outcome import parse_seats

SCENE_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class ScenePawn:
    id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Scene:
    layout: str
    seats: tuple[str, ...]
    face: str
    pawns: tuple[ScenePawn, ...] = ()

    def build(self) -> tuple[Layout, Face]:
        """The layout and face this scene names."""
        from sliders.boards import load_layout

        return load_layout(self.layout, self.seats), face(self.face)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCENE_SCHEMA,
            "layout": self.layout,
            "seats": list(self.seats),
            "face": self.face,
            "pawns": [{"id": p.id, "x": p.x, "y": p.y} for p in self.pawns],
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "scene") -> Scene:
        if not isinstance(data, dict):
            raise UserError(f"{source}: expected a JSON object")
        schema = data.get("schema", SCENE_SCHEMA)
        if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
            raise UserError(f"{source}: schema {schema!r} is not a schema number")
        if schema > SCENE_SCHEMA:
            raise UserError(f"{source}: schema {schema!r} is newer than this version reads")
        for key in ("layout", "face", "seats"):
            if key not in data:
                raise UserError(f"{source}: missing field {key!r}")
        layout, face_name, seats = data["layout"], data["face"], data["seats"]
        if not isinstance(layout, str) or not layout:
            raise UserError(f"{source}: layout must be a layout name or file, got {layout!r}")
        if not isinstance(face_name, str) or face_name not in FACES:
            raise UserError(f"{source}: unknown face {face_name!r}")
        if isinstance(seats, str):
            seats = seats.split(",")
        if not isinstance(seats, list) or not all(isinstance(x, str) for x in seats):
            raise UserError(f"{source}: seats must be a list of seat names, got {seats!r}")
        if seats:  # seat names or colours
            try:
                seats = list(parse_seats(seats))
            except UserError as exc:
                raise UserError(f"{source}: {exc}") from None
        pawns = data.get("pawns", [])
        if not isinstance(pawns, list):
            raise UserError(f"{source}: pawns must be a list of {{id, x, y}}, got {pawns!r}")
        return cls(layout, tuple(seats), face_name, tuple(_pawn(p, source) for p in pawns))

    @classmethod
    def load(cls, path: str) -> Scene:
        return cls.from_json(read_json(path, "scene file"), f"scene file {path}")

    def save(self, path: str) -> None:
        write_json_atomic(path, self.to_json())


def _pawn(data: Any, source: str) -> ScenePawn:
    """One entry of a scene's ``pawns``: ``{"id": "north-1", "x": 0.0, "y": 0.03}``."""
    if not isinstance(data, dict):
        raise UserError(f"{source}: a pawn must be an object {{id, x, y}}, got {data!r}")
    for key in ("id", "x", "y"):
        if key not in data:
            raise UserError(f"{source}: a pawn is missing field {key!r}")
    pid = data["id"]
    if not isinstance(pid, str):
        raise UserError(f"{source}: a pawn id must be text like 'north-1', got {pid!r}")
    xy = []
    for key in ("x", "y"):
        v = data[key]
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise UserError(f"{source}: pawn {pid}: {key} must be a number of metres, got {v!r}")
        xy.append(float(v))
    if not (math.isfinite(xy[0]) and math.isfinite(xy[1])):
        raise UserError(f"{source}: pawn {pid} has no finite position")
    return ScenePawn(pid, xy[0], xy[1])
